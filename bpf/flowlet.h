/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Flowlet switching. A flow keeps its member while frames arrive closer
 * than the gap (RTT / 2 by default, clamped); only after a longer idle
 * period may it move, since then every earlier frame has left the fabric
 * (FLARE's argument), and it moves to the least-loaded member.
 * The table is a set-associative array with the key stored in place
 * (rocedp_abi.h, rocedp_flowlet_set): one array lookup and a compare of
 * the tag word per way, where the LRU hash it replaced cost ~40 ns a
 * frame (jhash of the 40-byte key, bucket walk, key compare).
 * Plain stores race between CPUs only on counts and last_ns; the member
 * itself changes only through the claim word, a way's key only through
 * its tag word (docs/flowlet.md, "Table").
 */
#ifndef ROCEDP_FLOWLET_H
#define ROCEDP_FLOWLET_H

#include "member.h"
#include "counters.h"

/*
 * A point where another CPU may act between two steps of this CPU. Empty
 * in the program; tests/race_test.c compiles these headers in userspace
 * and replays a replacement there, one interleaving at a time.
 */
#ifndef RD_RACE_POINT
#define RD_RACE_POINT(id)
#endif
enum rd_race_id {
	RD_RACE_FL_FOUND, /* a reader found its way (select) */
	RD_RACE_FL_READ, /* ... and read last_ns and the claim */
	RD_RACE_FL_CLAIMED, /* ... and swapped the claim */
	RD_RACE_QP_FOUND, /* a request found its telemetry slot */
	RD_RACE_QP_STEPPED, /* ... and worked out its PSN step */
};

/* The flowlet feature, or the flowlet hash mode, which implies it. */
static __always_inline int rd_flowlets_on(const struct rocedp_config *cfg)
{
	return (cfg->features & ROCEDP_F_FLOWLET) ||
	       cfg->hash_mode == ROCEDP_HASH_FLOWLET;
}

/*
 * Word i (0..4) of the frame's flow key (struct rocedp_flow_key) as
 * stored, little endian: compared in place, never built in memory (the
 * stack has no room, and the per-CPU scratch costs a lookup). Word 4, the
 * tag: l4 | proto << 32 | family << 40 (pad 0).
 */
static __always_inline __u64 rd_fl_kw(const struct rd_flow *p, int i)
{
	if (i < 4)
		return rd_flow_addr_word(p, 0, i);
	if (p->is_roce)
		return p->dest_qp | (__u64)ROCEDP_FLOW_PROTO_ROCE << 32 |
		       (__u64)p->family << 40;
	return ((__u32)p->sport << 16 | p->dport) | (__u64)p->l4_proto << 32 |
	       (__u64)p->family << 40;
}

static __always_inline __u64 *rd_fl_tagp(struct rocedp_flowlet_way *w)
{
	return (__u64 *)&w->key + 4;
}

static __always_inline __u64 rd_fl_tag_read(struct rocedp_flowlet_way *w)
{
	__u64 t = *(volatile __u64 *)rd_fl_tagp(w);

	/* the key words are read after the tag (docs/flowlet.md) */
	asm volatile("" ::: "memory");
	return t;
}

static __always_inline int rd_fl_key_eq(struct rocedp_flowlet_way *w,
					const struct rd_flow *p)
{
	const __u64 *k = (const __u64 *)&w->key;

	return !((k[0] ^ rd_fl_kw(p, 0)) | (k[1] ^ rd_fl_kw(p, 1)) |
		 (k[2] ^ rd_fl_kw(p, 2)) | (k[3] ^ rd_fl_kw(p, 3)));
}

static __always_inline __u32 rd_fl_set_index(const struct rd_flow *p, __u64 tag)
{
	return rocedp_flow_set_of(rd_fl_kw(p, 0), rd_fl_kw(p, 1),
				  rd_fl_kw(p, 2), rd_fl_kw(p, 3), tag);
}

/* The frame's flow's set (NULL only to the verifier). */
static __always_inline struct rocedp_flowlet_set *
rd_fl_set(const struct rd_flow *p, __u64 tag)
{
	__u32 i = rd_fl_set_index(p, tag);

	return bpf_map_lookup_elem(&rd_flowlets, &i);
}

/*
 * Does w still hold the flow? Read after what was read of its record, so
 * a way replaced since it was found (its tag BUSY, another tag, or the
 * same tag with another key) is seen as gone.
 */
static __always_inline int rd_fl_still(struct rocedp_flowlet_way *w,
				       const struct rd_flow *p, __u64 tag)
{
	asm volatile("" ::: "memory");
	return rd_fl_tag_read(w) == tag && rd_fl_key_eq(w, p);
}

/* The lowest way of s holding the flow (its record), or NULL. */
static __always_inline struct rocedp_flowlet_way *
rd_fl_find(struct rocedp_flowlet_set *s, const struct rd_flow *p, __u64 tag)
{
	struct rocedp_flowlet_way *w;
	int i;

#pragma unroll
	for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++) {
		w = &s->way[i];
		if (rd_fl_tag_read(w) == tag && rd_fl_key_eq(w, p))
			return w;
	}
	return NULL;
}

/* Clears every way of s but w that holds the flow. */
static __always_inline void rd_fl_dedup(struct rocedp_flowlet_set *s,
					const struct rd_flow *p, __u64 tag,
					struct rocedp_flowlet_way *w)
{
	struct rocedp_flowlet_way *d;
	int i;

#pragma unroll
	for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++) {
		d = &s->way[i];
		if (d != w && rd_fl_tag_read(d) == tag && rd_fl_key_eq(d, p))
			__sync_val_compare_and_swap(rd_fl_tagp(d), tag, 0);
	}
}

/*
 * Until no way of the set is being written, at most RD_FL_SPIN rounds:
 * an insert is a few dozen stores, and a BPF program is not preempted.
 * A bpf_loop callback, verified once (a loop in line multiplied the
 * verifier's paths past its limit); the set's index comes through the
 * per-CPU scratch, as bpf_loop passes only stack memory.
 */
#define RD_FL_SPIN 32

static long rd_fl_wait_step(__u32 n, void *ctx)
{
	struct rocedp_flowlet_set *s;
	struct rd_scratch *sc = rd_scratch_get();
	__u32 i;
	int w;

	if (!sc)
		return 1;
	i = sc->fl.set;
	s = bpf_map_lookup_elem(&rd_flowlets, &i);
	if (!s)
		return 1;
#pragma unroll
	for (w = 0; w < ROCEDP_FLOWLET_WAYS; w++)
		if (rd_fl_tag_read(&s->way[w]) == ROCEDP_FLOWLET_TAG_BUSY)
			return 0;
	return 1;
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
					     __u32 hash, __u64 now, __u32 dst4)
{
	switch (cfg->flowlet_choice) {
	case ROCEDP_FLOWLET_RANDOM:
		return rd_pick_weighted(g, bpf_get_prandom_u32());
	case ROCEDP_FLOWLET_HASH:
		return rd_pick_weighted(g, hash);
	default:
		/* the best paths toward the destination, when steering */
		rd_pathq_steer(g, dst4, now);
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
 * The way a new flow takes: the first empty one, else the one idle
 * longest. NULL when a way is being written or already holds this flow:
 * another CPU may be inserting it, so the caller waits and looks again.
 */
static __always_inline struct rocedp_flowlet_way *
rd_fl_victim(struct rocedp_flowlet_set *s, const struct rd_flow *p, __u64 tag)
{
	struct rocedp_flowlet_way *w, *v = NULL;
	__u64 t, best = ~0ull;
	int i;

#pragma unroll
	for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++) {
		w = &s->way[i];
		t = rd_fl_tag_read(w);
		if (t == ROCEDP_FLOWLET_TAG_BUSY ||
		    (t == tag && rd_fl_key_eq(w, p)))
			return NULL;
		if (!t)
			return w;
		if (w->fl.last_ns < best) {
			best = w->fl.last_ns;
			v = w;
		}
	}
	return v;
}

/*
 * A flow without a way: new, or replaced by another new flow. If the
 * shadow still names the flow's member, keep it: a flow replaced inside
 * its gap would otherwise move and risk reordering, and keeping a member
 * never reorders.
 * The way is claimed by compare-and-swap of its tag to BUSY, the record
 * and the key written, and the tag published last (an atomic exchange:
 * a full barrier), so a reader that matches the tag reads the whole key
 * and record. Two CPUs inserting one flow: they pick the same victim
 * (one swap wins), or the later one sees the way BUSY or published;
 * either way it waits for the write and follows the winner's claim.
 * The insert's values live in the per-CPU scratch (sc->fl), read back
 * after each call: kept in registers they spilled, and the forwarding
 * step's frame outgrew the 6.1 stack limit (tests/bpf_stack.sh).
 */
static __always_inline int rd_flowlet_insert(const struct rocedp_config *cfg,
					     const struct rocedp_group *g,
					     __u32 group_id,
					     const struct rd_flow *p, __u64 tag,
					     __u32 hash, __u64 now)
{
	struct rocedp_flowlet_shadow *sh;
	struct rocedp_flowlet_set *s;
	struct rocedp_flowlet_way *v, *w;
	struct rd_scratch *sc;
	struct rocedp_stats *st;
	union {
		struct rocedp_flowlet_shadow rec;
		__u64 word;
	} rec;
	__u64 old, claim, *k;
	__u32 si;

	sc = rd_scratch_get();
	if (!sc)
		return -1;
	sc->fl.now = now;
	sc->fl.tag = tag;
	sc->fl.hash = hash;
	sc->fl.group_id = group_id;
	sc->fl.set = rd_fl_set_index(p, tag);
	/* chosen first, used or not: fewer values live across the call */
	sc->fl.slot = rd_flowlet_choose(cfg, g, hash, now,
					p->family == 4 ? p->dst[0] : 0);
	sh = rd_shadow_get(sc->fl.hash);
	if (sh && sc->fl.hash) {
		/*
		 * One load of the whole record, then only the copy: another
		 * CPU may rewrite the record between two loads, and a slot
		 * loaded again after the check may be down or empty.
		 */
		rec.word = *(volatile __u64 *)sh;
		if (rec.rec.hash == sc->fl.hash &&
		    rec.rec.group == (sc->fl.group_id & 0xffff) &&
		    rd_slot_active(g, rec.rec.slot)) {
			sc->fl.slot = rec.rec.slot;
			rd_count(ROCEDP_CTR_FLOWLET_EVICT_KEPT);
		}
	}
	if (sc->fl.slot < 0)
		return -1;
	si = sc->fl.set;
	s = bpf_map_lookup_elem(&rd_flowlets, &si);
	if (!s)
		return -1;
	v = rd_fl_victim(s, p, sc->fl.tag);
	if (!v)
		goto raced;
	/* read again (the swap fails if the tag changed since): not ours */
	old = rd_fl_tag_read(v);
	if (old == ROCEDP_FLOWLET_TAG_BUSY ||
	    (old == sc->fl.tag && rd_fl_key_eq(v, p)) ||
	    __sync_val_compare_and_swap(rd_fl_tagp(v), old,
					ROCEDP_FLOWLET_TAG_BUSY) != old)
		goto raced;
	/* published by another CPU since the scan: give the way back */
	w = rd_fl_find(s, p, sc->fl.tag);
	if (w) {
		__sync_lock_test_and_set(rd_fl_tagp(v), old);
		goto follow;
	}
	/* every field: the way holds the last flow's */
	v->fl.last_ns = sc->fl.now;
	v->fl.flowlets = 1;
	v->fl.pkts = 1;
	v->fl.moves = 0;
	v->fl.group_id = sc->fl.group_id;
	v->fl.slot = sc->fl.slot;
	v->fl.pad = 0;
	v->fl.first_ns = sc->fl.now;
	v->fl.claim = rd_claim_make(sc->fl.now, sc->fl.slot);
	k = (__u64 *)&v->key;
	k[0] = rd_fl_kw(p, 0);
	k[1] = rd_fl_kw(p, 1);
	k[2] = rd_fl_kw(p, 2);
	k[3] = rd_fl_kw(p, 3);
	__sync_lock_test_and_set(rd_fl_tagp(v), sc->fl.tag);
	if (old)
		rd_count(ROCEDP_CTR_FLOWLET_REPLACED);
	/*
	 * One record per flow, the lowest way holding the key: another
	 * CPU may have claimed another way for this flow at the same
	 * instant (both looked before either published). Each waits for
	 * the other's write, so both see both and agree on the lowest.
	 */
	bpf_loop(RD_FL_SPIN, rd_fl_wait_step, NULL, 0);
	w = rd_fl_find(s, p, sc->fl.tag);
	if (!w)
		goto done; /* replaced already: this frame keeps its choice */
	rd_fl_dedup(s, p, sc->fl.tag, w);
	if (w->fl.claim != rd_claim_make(sc->fl.now, sc->fl.slot))
		goto follow;
done:
	st = rd_stats_block();
	rd_bump(st, ROCEDP_CTR_FLOWLET_FLOW_NEW, 1);
	rd_bump(st, ROCEDP_CTR_FLOWLET_NEW, 1);
	return sc->fl.slot;

raced:
	/* another CPU is writing this set: follow it if it wrote this flow */
	bpf_loop(RD_FL_SPIN, rd_fl_wait_step, NULL, 0);
	w = rd_fl_find(s, p, sc->fl.tag);
follow:
	/* one load: the slot checked is the slot returned */
	claim = w ? *(volatile __u64 *)&w->fl.claim : 0;
	if (w && rd_slot_active(g, claim & 0xffff)) {
		rd_count(ROCEDP_CTR_FLOWLET_CLAIM_LOST);
		return claim & 0xffff;
	}
	/*
	 * No way for it this time: forward by the shadow's member or the
	 * fresh choice, recorded in the shadow so that the next frame,
	 * inserting again, keeps it.
	 */
	rd_shadow_set(sc->fl.hash, sc->fl.group_id, sc->fl.slot);
	st = rd_stats_block();
	rd_bump(st, ROCEDP_CTR_FLOWLET_INSERT_FAIL, 1);
	rd_bump(st, ROCEDP_CTR_FLOWLET_FLOW_NEW, 1);
	rd_bump(st, ROCEDP_CTR_FLOWLET_NEW, 1);
	return sc->fl.slot;
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
	struct rocedp_flowlet_set *s;
	struct rocedp_flowlet_way *w;
	struct rocedp_flowlet *fl;
	__u64 gap, idle, last, claim, got, tag = rd_fl_kw(p, 4);
	int slot, nslot, gone = 0;

	s = rd_fl_set(p, tag);
	if (!s)
		return -1;
	w = rd_fl_find(s, p, tag);
	if (w) {
		RD_RACE_POINT(RD_RACE_FL_FOUND);
		last = *(volatile __u64 *)&w->fl.last_ns;
		claim = *(volatile __u64 *)&w->fl.claim;
		RD_RACE_POINT(RD_RACE_FL_READ);
		/* replaced since it was found: last and claim are another's */
		if (!rd_fl_still(w, p, tag))
			w = NULL;
	}
	if (!w)
		return rd_flowlet_insert(cfg, g, group_id, p, tag, hash, now);
	fl = &w->fl;
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
	nslot = rd_flowlet_choose(cfg, g, hash, now,
				  p->family == 4 ? p->dst[0] : 0);
	if (nslot < 0)
		return -1;
	got = __sync_val_compare_and_swap(&fl->claim, claim,
					  rd_claim_make(now, nslot));
	RD_RACE_POINT(RD_RACE_FL_CLAIMED);
	if (!rd_fl_still(w, p, tag)) {
		/*
		 * Replaced under us: a failed swap read the new flow's claim,
		 * a won one was overwritten by its insert. Its record is not
		 * ours to write; this frame takes the fresh choice.
		 */
		rd_shadow_set(hash, group_id, nslot);
		return nslot;
	}
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
