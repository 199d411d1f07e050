/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* Per-CPU counters: plain adds, no atomics, summed by userspace. */
#ifndef ROCEDP_COUNTERS_H
#define ROCEDP_COUNTERS_H

#include "maps.h"

/* This CPU's counter block (NULL only to the verifier: one-entry array). */
static __always_inline struct rocedp_stats *rd_stats_block(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_stats, &zero);
}

/* Add n to counter idx of block s (s from rd_stats_block, may be NULL). */
static __always_inline void rd_bump(struct rocedp_stats *s, __u32 idx, __u64 n)
{
	if (s && idx < ROCEDP_CTR_MAX)
		s->ctr[idx] += n;
}

/*
 * Counter base + v of block s, for v < n. A bounds test, not v % n: the
 * modulo of a non-power-of-two is a divide on every frame.
 */
static __always_inline void rd_bump_in(struct rocedp_stats *s, __u32 base,
				       __u32 v, __u32 n)
{
	if (v < n) {
		/*
		 * rd_bump tests the index again: clang may fold this test
		 * into a caller's (pass != 0 && pass < n became pass - 1 <
		 * n - 1, on a copy), which leaves the verifier no bound on v.
		 */
		barrier_var(v);
		rd_bump(s, base + v, 1);
	}
}

/* One counter on its own: a block lookup of its own. */
static __always_inline void rd_count(__u32 idx)
{
	rd_bump(rd_stats_block(), idx, 1);
}

/* NULL exactly for ifindex >= ROCEDP_PORT_SLOTS: the array's own bound */
static __always_inline struct rocedp_port_stats *
rd_port_stats_get(__u32 ifindex)
{
	struct rocedp_port_stats *ps;

	ps = bpf_map_lookup_elem(&rd_port_stats, &ifindex);
	if (!ps)
		rd_count(ROCEDP_CTR_PORT_UNTRACKED);
	return ps;
}

#endif
