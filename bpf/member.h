/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* Choosing a member of a next-hop group: weighted hash, least-loaded. */
#ifndef ROCEDP_MEMBER_H
#define ROCEDP_MEMBER_H

#include "load.h"

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
	return rd_member_usable(&g->members[slot & (ROCEDP_MAX_MEMBERS - 1)]);
}

/*
 * Weighted pick: x = (hash * total) >> 32 is uniform in [0, total); the
 * member is the first active index whose cumulative weight exceeds x,
 * found by binary search over the 64 entries.
 */
static __always_inline int rd_pick_weighted(const struct rocedp_group *g,
					    __u32 hash)
{
	__u32 n = g->n_active, lo = 0, hi, mid, x;
	int i;

	if (!n || n > ROCEDP_MAX_MEMBERS || !g->total_weight)
		return -1;
	x = ((__u64)hash * g->total_weight) >> 32;
	hi = n - 1;
	for (i = 0; i < 7; i++) {
		if (lo >= hi)
			break;
		mid = (lo + hi) / 2;
		if (g->cum_weight[mid & (ROCEDP_MAX_MEMBERS - 1)] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return g->active[lo & (ROCEDP_MAX_MEMBERS - 1)];
}

/*
 * Least-loaded active member, load normalised by weight (load / weight,
 * compared by cross-multiplying). Scanning starts at a hash-chosen offset
 * and only a strictly lower load wins, so ties are broken by the hash.
 */
static __always_inline int rd_pick_least_loaded(const struct rocedp_group *g,
						__u32 hash, __u64 now,
						__u32 tau_us)
{
	__u64 best_load = 0, load;
	__u32 n = g->n_active, start, idx, slot, best_w = 0, w;
	int best = -1;
	__u32 i;

	if (!n || n > ROCEDP_MAX_MEMBERS)
		return -1;
	start = ((__u64)hash * n) >> 32;
	for (i = 0; i < ROCEDP_MAX_MEMBERS; i++) {
		if (i >= n)
			break;
		idx = start + i;
		if (idx >= n)
			idx -= n;
		slot = g->active[idx & (ROCEDP_MAX_MEMBERS - 1)];
		if (slot >= ROCEDP_MAX_MEMBERS)
			continue;
		w = g->members[slot & (ROCEDP_MAX_MEMBERS - 1)].weight;
		if (!w)
			continue;
		load = rd_load_get(g->members[slot & (ROCEDP_MAX_MEMBERS - 1)].ifindex,
				   now, tau_us);
		if (best < 0 || load * best_w < best_load * w) {
			best = slot;
			best_load = load;
			best_w = w;
		}
	}
	return best;
}

#endif
