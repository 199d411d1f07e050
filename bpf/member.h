/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* Choosing a member of a next-hop group: weighted hash, least-loaded. */
#ifndef ROCEDP_MEMBER_H
#define ROCEDP_MEMBER_H

#include "load.h"
#include "pathq.h"

/*
 * The live bank of group id (NULL: none), *seq the word it was chosen by.
 * Whatever is read from it counts only if rd_group_same holds after: the
 * writer may rewrite this bank once it has flipped away from it.
 */
static __always_inline struct rocedp_group *rd_group_bank(__u32 id, __u32 *seq)
{
	__u32 key = id, *live, v;

	live = bpf_map_lookup_elem(&rd_group_live, &key);
	if (!live)
		return NULL;
	v = *(const volatile __u32 *)live;
	*seq = v;
	if (!(v & ROCEDP_GROUP_LIVE_PRESENT) || id >= ROCEDP_MAX_GROUPS)
		return NULL;
	key = ROCEDP_GROUP_LIVE_BANK(v) * ROCEDP_MAX_GROUPS + id;
	return bpf_map_lookup_elem(&rd_group_banks, &key);
}

/*
 * Did the word stay put while the bank was read? The compiler barrier
 * keeps every read of the bank before this one; the CPU keeps loads in
 * order on x86 (TSO), where the word, stored after the bank is complete,
 * changes before a writer may touch the bank a reader took. The word is
 * looked up again (an inlined array index) rather than kept: the express
 * path has no stack to spare for the pointer.
 */
static __always_inline int rd_group_same(__u32 id, __u32 seq)
{
	__u32 key = id, *live;

	asm volatile("" ::: "memory");
	live = bpf_map_lookup_elem(&rd_group_live, &key);
	return live && *(const volatile __u32 *)live == seq;
}

static __always_inline int rd_member_usable(const struct rocedp_member *m)
{
	const __u16 need = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED;

	return (m->flags & need) == need && m->weight;
}

/* Is stable slot still eligible in this (possibly replaced) group? */
static __always_inline int rd_slot_active(const struct rocedp_group *g,
					  __u32 slot)
{
	if (slot >= ROCEDP_MAX_MEMBERS || slot >= g->n_members)
		return 0;
	/*
	 * Keep the mask: clang drops it after the test above, and 6.1's
	 * verifier loses the test's bound when slot comes back from a spill.
	 */
	barrier_var(slot);
	return rd_member_usable(&g->members[slot & (ROCEDP_MAX_MEMBERS - 1)]);
}

/*
 * Weighted pick, resilient: the hash picks a bucket by multiply-shift (no
 * divide), the bucket names a slot. One bounded array index, where the
 * cumulative-weight binary search it replaced took up to seven dependent
 * loads. Userspace makes bucket shares follow the weights (within one
 * bucket) and moves only a departing member's buckets.
 */
static __always_inline int rd_pick_weighted(const struct rocedp_group *g,
					    __u32 hash)
{
	__u32 b = ((__u64)hash * g->n_buckets) >> 32;
	__u8 slot = g->buckets[b & (ROCEDP_MAX_BUCKETS - 1)];

	if (slot >= ROCEDP_MAX_MEMBERS)
		return -1;
	return slot;
}

/*
 * Least-loaded active member, load normalised by weight (load / weight,
 * compared by cross-multiplying). Scanning starts at a hash-chosen offset
 * and only a strictly lower load wins, so ties are broken by the hash.
 * The scalars are in the per-CPU scratch (the stack is spoken for, see
 * docs/kernel.md), where rd_pick_least_loaded puts them for the scan.
 */

/* Member i of the scan; 1 when i is past the group. */
static __always_inline int rd_ll_visit(const struct rocedp_group *g,
				       struct rd_ll_vars *v, __u32 i)
{
	const struct rocedp_member *m;
	__u32 idx, slot, w;
	__u64 load;

	if (i >= v->n || v->n > ROCEDP_MAX_MEMBERS)
		return 1;
	idx = v->start + i;
	if (idx >= v->n)
		idx -= v->n;
	slot = g->active[idx & (ROCEDP_MAX_MEMBERS - 1)];
	if (slot >= ROCEDP_MAX_MEMBERS)
		return 0;
	/* steering (pathq.h): only members on the best path */
	if (v->pq_mask && !((v->pq_mask >> (slot & 63)) & 1))
		return 0;
	m = &g->members[slot & (ROCEDP_MAX_MEMBERS - 1)];
	w = m->weight;
	if (!w)
		return 0;
	load = rd_load_get(m->ifindex, v->now, v->step, &v->now_tick);
	if (v->best < 0 || load * v->best_w < v->best_load * w) {
		v->best = slot;
		v->best_load = load;
		v->best_w = w;
	}
	return 0;
}

/*
 * The scan: one direct call, a bounded loop inside. It was a bpf_loop
 * callback, an indirect call and a return a member (about 25 ns of a
 * flowlet start over four members, docs/bench-history.md). A global
 * function, so the verifier walks the loop once (a static one is walked
 * again at every call site: 2.2 times the verifier's work for rocedp_xdp
 * and a second more to load), and its registers cost the callers' frames
 * nothing (in line, it grew rd_fwd_member's by 32 bytes, past the 6.1
 * stack budget).
 */
__attribute__((noinline)) int rd_ll_scan(const struct rocedp_group *g,
					 struct rd_ll_vars *v)
{
	__u32 i;

	if (!g || !v)
		return 0;
	for (i = 0; i < ROCEDP_MAX_MEMBERS; i++)
		if (rd_ll_visit(g, v, i))
			break;
	return 0;
}

static __always_inline int rd_pick_least_loaded(const struct rocedp_group *g,
						__u32 hash, __u64 now,
						__u32 tau_us)
{
	struct rd_scratch *sc = rd_scratch_get();
	struct rd_ll_vars *v;
	__u32 n = g->n_active;

	if (!sc || !n || n > ROCEDP_MAX_MEMBERS)
		return -1;
	v = &sc->ll;
	v->now = now;
	v->best_load = 0;
	v->start = ((__u64)hash * n) >> 32;
	v->n = n;
	v->now_tick = RD_DRE_NO_TICK;
	v->step = rd_dre_step_ns(tau_us);
	v->best_w = 0;
	v->best = -1;
	rd_ll_scan(g, v);
	return v->best;
}

#endif
