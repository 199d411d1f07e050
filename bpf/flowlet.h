/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Flowlet switching. A flow keeps its member while frames arrive closer
 * than the gap (RTT / 2 by default, clamped); only after a longer idle
 * period may it move, since then every earlier frame has left the fabric
 * (FLARE's argument), and it moves to the least-loaded member.
 * The entry is refreshed in place through the looked-up pointer and only
 * inserted for new flows: an LRU update per frame costs far more.
 * Plain stores race between CPUs only on counts and last_ns; the member
 * itself changes only through the claim word.
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
	k->pad = 0; /* the key is all 40 bytes; its slot is reused */
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

/*
 * The claim word: flowlet start (ns mod 2^48) << 16 | slot. A 48-bit time
 * wraps after 3.2 days; a wrapped comparison can only keep a member.
 */
#define RD_CLAIM_TIME_MASK ((1ull << 48) - 1)

static __always_inline __u64 rd_claim_make(__u64 now, __u32 slot)
{
	return (now & RD_CLAIM_TIME_MASK) << 16 | (slot & 0xffff);
}

/*
 * Was the claim made after last_ns? Only between a winner's
 * compare-and-swap and its store of last_ns, or when a CPU that saw the
 * old flowlet still held stored an older last_ns over the winner's.
 */
static __always_inline int rd_claim_newer(__u64 claim, __u64 last)
{
	__u64 d = ((claim >> 16) - last) & RD_CLAIM_TIME_MASK;

	return d && d < (1ull << 47);
}

/* The flow's record in the shadow table (by hash), or NULL. */
static __always_inline struct rocedp_flowlet_shadow *rd_shadow_get(__u32 hash)
{
	__u32 i = hash & (ROCEDP_FLOWLET_SHADOW - 1);

	return bpf_map_lookup_elem(&rd_fl_shadow, &i);
}

static __always_inline void rd_shadow_set(__u32 hash, __u32 group_id,
					  __u32 slot)
{
	struct rocedp_flowlet_shadow *sh = rd_shadow_get(hash);
	union {
		struct rocedp_flowlet_shadow rec;
		__u64 word;
	} u = { .rec = { .hash = hash, .group = group_id, .slot = slot } };

	/* one 8-byte store: a reader never sees half a record */
	if (sh)
		*(__u64 *)sh = u.word;
}

/*
 * A flow without an entry: new, or evicted by the LRU (which it cannot
 * tell us). If the shadow still names the flow's member, keep it: a
 * flow evicted inside its gap would otherwise move and risk reordering,
 * and keeping a member never reorders.
 */
static __always_inline int
rd_flowlet_insert(const struct rocedp_config *cfg, const struct rocedp_group *g,
		  __u32 group_id, struct rd_scratch *sc, __u32 hash, __u64 now)
{
	struct rocedp_flowlet_shadow *sh = rd_shadow_get(hash);
	struct rocedp_flowlet *init = &sc->fl_new, *fl;
	const struct rocedp_flow_key *k = &sc->fl_key;
	int slot = -1, kept = 0;

	if (sh && hash && sh->hash == hash &&
	    sh->group == (group_id & 0xffff) && rd_slot_active(g, sh->slot)) {
		slot = sh->slot;
		kept = 1;
	}
	if (slot < 0)
		slot = rd_flowlet_choose(cfg, g, hash, now);
	if (slot < 0)
		return -1;
	/* every field: the slot holds the last insert's */
	init->last_ns = now;
	init->flowlets = 1;
	init->pkts = 1;
	init->moves = 0;
	init->group_id = group_id;
	init->slot = slot;
	init->pad = 0;
	init->first_ns = now;
	init->claim = rd_claim_make(now, slot);
	if (bpf_map_update_elem(&rd_flowlets, k, init, BPF_NOEXIST)) {
		/* another CPU inserted it first: follow its choice */
		fl = bpf_map_lookup_elem(&rd_flowlets, k);
		if (fl && rd_slot_active(g, fl->claim & 0xffff)) {
			rd_count(ROCEDP_CTR_FLOWLET_CLAIM_LOST);
			return fl->claim & 0xffff;
		}
		rd_count(ROCEDP_CTR_FLOWLET_INSERT_FAIL);
	}
	rd_count(ROCEDP_CTR_FLOWLET_FLOW_NEW);
	rd_count(ROCEDP_CTR_FLOWLET_NEW);
	if (kept)
		rd_count(ROCEDP_CTR_FLOWLET_EVICT_KEPT);
	return slot;
}

/*
 * Returns the member slot for this frame, or -1. A new flowlet's member is
 * claimed by compare-and-swap on fl->claim; the claim is written before
 * last_ns and read after it, so a CPU that sees the new last_ns also sees
 * the claim (x86 keeps loads in order; see docs/flowlet.md).
 */
static __always_inline int
rd_flowlet_select(const struct rocedp_config *cfg, const struct rocedp_group *g,
		  __u32 group_id, const struct rd_flow *p, __u32 hash,
		  __u32 ifindex, __u64 now)
{
	struct rd_scratch *sc;
	struct rocedp_flowlet *fl;
	__u64 gap, idle, last, claim, got;
	int slot, nslot, gone = 0;

	sc = rd_scratch_get();
	if (!sc)
		return -1;
	rd_flow_key(&sc->fl_key, p);
	fl = bpf_map_lookup_elem(&rd_flowlets, &sc->fl_key);
	if (!fl)
		return rd_flowlet_insert(cfg, g, group_id, sc, hash, now);

	last = *(volatile __u64 *)&fl->last_ns;
	claim = *(volatile __u64 *)&fl->claim;
	slot = claim & 0xffff;
	/* another CPU has just started a flowlet: follow it */
	if (rd_claim_newer(claim, last) && rd_slot_active(g, slot))
		goto keep;
	gap = rd_flowlet_gap_ns(cfg, g, ifindex);
	idle = now > last ? now - last : 0;
	if (fl->group_id == group_id && idle <= gap) {
		if (rd_slot_active(g, slot))
			goto keep;
		gone = 1;
	}
	nslot = rd_flowlet_choose(cfg, g, hash, now);
	if (nslot < 0)
		return -1;
	got = __sync_val_compare_and_swap(&fl->claim, claim,
					  rd_claim_make(now, nslot));
	if (got != claim) {
		/* lost: the winner's member, unless it is no use here */
		rd_count(ROCEDP_CTR_FLOWLET_CLAIM_LOST);
		slot = got & 0xffff;
		if (!rd_slot_active(g, slot))
			slot = nslot;
		goto keep;
	}
	if (gone) {
		/* The member left: moving now is the lesser evil than loss. */
		rd_count(ROCEDP_CTR_FLOWLET_MEMBER_GONE);
	} else {
		fl->flowlets++;
		rd_count(ROCEDP_CTR_FLOWLET_NEW);
	}
	if (nslot != slot) {
		fl->moves++;
		rd_count(ROCEDP_CTR_FLOWLET_MOVE);
		/* Cannot happen by construction unless the member vanished. */
		if (idle <= gap && fl->group_id == group_id &&
		    rd_slot_active(g, slot))
			rd_count(ROCEDP_CTR_FLOWLET_REORDER_RISK);
	}
	slot = nslot;
	fl->slot = slot;
	fl->group_id = group_id;
	rd_shadow_set(hash, group_id, slot);
keep:
	/*
	 * Recorded from its second frame on: one-frame flows (probes, scans)
	 * would only push live flows' records out of the shadow.
	 */
	if (fl->pkts == 1)
		rd_shadow_set(hash, group_id, slot);
	fl->last_ns = now;
	fl->pkts++;
	return slot;
}

#endif
