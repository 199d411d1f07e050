/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Flowlet switching. A flow keeps its member while frames arrive closer
 * than the gap (RTT / 2 by default, clamped); only after a longer idle
 * period may it move, since then every earlier frame has left the fabric
 * (FLARE's argument), and it moves to the least-loaded member.
 * The entry is refreshed in place through the looked-up pointer and only
 * inserted for new flows: an LRU update per frame costs far more.
 */
#ifndef ROCEDP_FLOWLET_H
#define ROCEDP_FLOWLET_H

#include "member.h"
#include "counters.h"

/* The flowlet feature, or the flowlet hash mode, which implies it. */
static __always_inline int rd_flowlets_on(const struct rocedp_config *cfg)
{
	return (cfg->features & ROCEDP_F_FLOWLET) ||
	       cfg->hash_mode == ROCEDP_HASH_FLOWLET;
}

static __always_inline void rd_flow_key(struct rocedp_flow_key *k,
					const struct rd_flow *p)
{
	__builtin_memcpy(k->src, p->src, 16);
	__builtin_memcpy(k->dst, p->dst, 16);
	k->family = p->family;
	if (p->is_roce) {
		k->proto = ROCEDP_FLOW_PROTO_ROCE;
		k->l4 = p->dest_qp;
	} else {
		k->proto = p->l4_proto;
		k->l4 = ((__u32)p->sport << 16) | p->dport;
	}
}

/* The idle gap in ns for a flow of group g that arrived on ifindex. */
static __always_inline __u64 rd_flowlet_gap_ns(const struct rocedp_config *cfg,
					       const struct rocedp_group *g,
					       __u32 ifindex)
{
	struct rocedp_port_state *st;
	__u64 rtt_ns, gap, lo, hi;

	rtt_ns = (__u64)(g->rtt_us ? g->rtt_us : cfg->flowlet_rtt_us) * 1000;
	if (cfg->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP) {
		st = rd_port_state_get(ifindex);
		if (st && st->rtt_ewma_ns)
			rtt_ns = st->rtt_ewma_ns;
	}
	gap = rtt_ns / 2;
	lo = (__u64)cfg->flowlet_gap_min_us * 1000;
	hi = (__u64)cfg->flowlet_gap_max_us * 1000;
	if (gap < lo)
		gap = lo;
	if (hi && gap > hi)
		gap = hi;
	return gap;
}

static __always_inline int rd_flowlet_choose(const struct rocedp_config *cfg,
					     const struct rocedp_group *g,
					     __u32 hash, __u64 now)
{
	switch (cfg->flowlet_choice) {
	case ROCEDP_FLOWLET_RANDOM:
		return rd_pick_weighted(g, bpf_get_prandom_u32());
	case ROCEDP_FLOWLET_HASH:
		return rd_pick_weighted(g, hash);
	default:
		return rd_pick_least_loaded(g, hash, now, cfg->load_tau_us);
	}
}

/* Returns the member slot for this frame, or -1. */
static __always_inline int
rd_flowlet_select(const struct rocedp_config *cfg, const struct rocedp_group *g,
		  __u32 group_id, const struct rd_flow *p, __u32 hash,
		  __u32 ifindex, __u64 now)
{
	struct rocedp_flowlet *fl, init = {};
	struct rocedp_flow_key k = {};
	__u64 gap, idle;
	int slot;

	rd_flow_key(&k, p);
	fl = bpf_map_lookup_elem(&rd_flowlets, &k);
	if (!fl) {
		slot = rd_flowlet_choose(cfg, g, hash, now);
		if (slot < 0)
			return -1;
		init.last_ns = now;
		init.first_ns = now;
		init.flowlets = 1;
		init.pkts = 1;
		init.group_id = group_id;
		init.slot = slot;
		if (bpf_map_update_elem(&rd_flowlets, &k, &init, BPF_NOEXIST))
			rd_count(ROCEDP_CTR_FLOWLET_INSERT_FAIL);
		rd_count(ROCEDP_CTR_FLOWLET_FLOW_NEW);
		rd_count(ROCEDP_CTR_FLOWLET_NEW);
		return slot;
	}

	gap = rd_flowlet_gap_ns(cfg, g, ifindex);
	idle = now > fl->last_ns ? now - fl->last_ns : 0;
	slot = fl->slot;
	if (fl->group_id == group_id && idle <= gap) {
		if (rd_slot_active(g, slot))
			goto keep;
		/* The member left: moving now is the lesser evil than loss. */
		rd_count(ROCEDP_CTR_FLOWLET_MEMBER_GONE);
	} else {
		fl->flowlets++;
		rd_count(ROCEDP_CTR_FLOWLET_NEW);
	}
	slot = rd_flowlet_choose(cfg, g, hash, now);
	if (slot < 0)
		return -1;
	if (slot != fl->slot) {
		fl->moves++;
		rd_count(ROCEDP_CTR_FLOWLET_MOVE);
		/* Cannot happen by construction unless the member vanished. */
		if (idle <= gap && fl->group_id == group_id &&
		    rd_slot_active(g, fl->slot))
			rd_count(ROCEDP_CTR_FLOWLET_REORDER_RISK);
	}
	fl->slot = slot;
	fl->group_id = group_id;
keep:
	fl->last_ns = now;
	fl->pkts++;
	return slot;
}

#endif
