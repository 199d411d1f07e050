/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * ARS (adaptive routing and switching, SAI's model): per group a mode,
 * FLOWLET_QUALITY, FLOWLET_RANDOM, PER_PACKET_QUALITY, PER_PACKET_RANDOM or
 * FIXED; a member's quality as one of 8 bands, from its port's past load
 * (the DRE of load.h) and current queue (the virtual queue of ecn.h),
 * weighted; selective opt-in by BTH bit, opcode, DSCP or destination
 * prefix (docs/ars.md). Frames of an ARS group that do not opt in keep
 * the switch's hash or flowlet forwarding.
 * The decisions are global functions (verified once, their locals in
 * frames of their own, the scan's state in this CPU's rd_ars_frame):
 * the general path's call chain sits at the 6.1 stack budget.
 */
#ifndef ROCEDP_ARS_H
#define ROCEDP_ARS_H

#include "parse.h"
#include "plan.h"
#include "member.h"
#include "counters.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_ars_band);
} rd_ars_band SEC(".maps");

/*
 * This CPU's ARS state of the frame in flight: what rd_ars_member
 * decided, for the flowlet step's choice that follows (rd_ars_choose),
 * and the quality scan's scalars. Set on every frame while ARS is on.
 */
struct rd_ars_frame {
	__u64 now;
	__u64 now_tick; /* the DRE tick of now, RD_DRE_NO_TICK until needed */
	__u64 step; /* DRE tick length */
	__u32 group_id;
	__u32 start; /* the scan's first index */
	__u32 n;
	__s32 best;
	__u32 best_band;
	__s32 choice; /* flowlet modes: a new flowlet's member */
	__s32 fb_slot; /* ... and the fallback mode's, for a full set */
	__u64 gap_ns; /* ... and the flowlet gap (without the auto RTT) */
	__u8 mode; /* enum rocedp_ars_mode of this frame; 0: not ARS's */
	__u8 fallback;
	__u8 pad[6];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rd_ars_frame);
} rd_ars_frame SEC(".maps");

/* rd_ars_member's answers in rd_plan.slot besides a slot or ROCEDP_NO_MEMBER */
#define RD_ARS_BASE 0xfffe /* not ARS's: the switch's hash or flowlets */
#define RD_ARS_FLOWLET 0xfffd /* a flowlet mode: the flowlet step decides */

static __always_inline struct rocedp_ars *rd_ars_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_ars, &zero);
}

static __always_inline struct rd_ars_frame *rd_ars_frame_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_ars_frame, &zero);
}

/* How many of the 7 thresholds v reaches: its band on one metric. */
static __always_inline __u32 rd_ars_thr_band(const __u64 *thr, __u64 v)
{
	__u32 b = 0;
	int i;

#pragma unroll
	for (i = 0; i < ROCEDP_ARS_BANDS - 1; i++)
		b += v >= thr[i];
	return b;
}

/* The port's virtual queue now: its bytes less what drained since. */
static __always_inline __u64 rd_ars_queue(__u32 ifindex, __u64 now)
{
	struct rocedp_port_state *st = rd_port_state_get(ifindex);
	__u64 q, dt, drained;

	if (!st)
		return 0;
	q = st->vq_bytes + st->vq_pending;
	if (st->vq_last_ns && now > st->vq_last_ns && st->vq_drain_fp &&
	    st->vq_drain_fp <= ROCEDP_VQ_DRAIN_FP_MAX) {
		dt = now - st->vq_last_ns;
		if (dt > ROCEDP_VQ_MAX_IDLE_NS)
			dt = ROCEDP_VQ_MAX_IDLE_NS;
		drained = (dt * st->vq_drain_fp) >> ROCEDP_VQ_DRAIN_SHIFT;
		q = drained >= q ? 0 : q - drained;
	}
	return q;
}

/*
 * The port's quality band, sampled at most every sample_ns per CPU: the
 * load and queue bands weighted (percent), rounded, 0 best.
 */
static __always_inline __u32 rd_ars_port_band(const struct rocedp_ars *a,
					      struct rd_ars_frame *v,
					      __u32 ifindex)
{
	struct rocedp_ars_band *b = bpf_map_lookup_elem(&rd_ars_band, &ifindex);
	__u32 lb, qb, band;

	if (!b)
		return ROCEDP_ARS_BANDS - 1;
	if (b->at_ns && v->now >= b->at_ns && v->now - b->at_ns < a->sample_ns)
		return b->band;
	lb = rd_ars_thr_band(a->load_thr, rd_load_get(ifindex, v->now, v->step,
						      &v->now_tick));
	qb = rd_ars_thr_band(a->queue_thr, rd_ars_queue(ifindex, v->now));
	band = (a->load_weight * lb + a->queue_weight * qb + 50) / 100;
	if (band >= ROCEDP_ARS_BANDS)
		band = ROCEDP_ARS_BANDS - 1;
	b->band = band;
	b->at_ns = v->now ? v->now : 1;
	return band;
}

/*
 * The best-band active member: the scan starts at start (a hash for
 * flowlets, a random draw per packet) and only a strictly better band
 * wins, so ties spread by the start. In line in each global caller.
 */
static __always_inline int rd_ars_quality(const struct rocedp_ars *a,
					  const struct rocedp_group *g,
					  struct rd_ars_frame *v, __u32 start,
					  __u64 now, __u32 tau_us)
{
	__u32 i, idx, slot, band, n = g->n_active;

	if (!n || n > ROCEDP_MAX_MEMBERS)
		return -1;
	v->now = now;
	v->now_tick = RD_DRE_NO_TICK;
	v->step = rd_dre_step_ns(tau_us);
	v->start = ((__u64)start * n) >> 32;
	v->n = n;
	v->best = -1;
	v->best_band = ROCEDP_ARS_BANDS;
	for (i = 0; i < ROCEDP_MAX_MEMBERS; i++) {
		if (i >= v->n || v->n > ROCEDP_MAX_MEMBERS)
			break;
		idx = v->start + i;
		if (idx >= v->n)
			idx -= v->n;
		slot = g->active[idx & (ROCEDP_MAX_MEMBERS - 1)];
		if (slot >= ROCEDP_MAX_MEMBERS)
			continue;
		band = rd_ars_port_band(
			a, v,
			g->members[slot & (ROCEDP_MAX_MEMBERS - 1)].ifindex);
		if (band < v->best_band) {
			v->best = slot;
			v->best_band = band;
			if (!band)
				break; /* nothing beats the best band */
		}
	}
	return v->best;
}

/*
 * The frame's fields ARS reads, as three scalars (rd_ars_member takes
 * no pointer: see there): flow hash, opcode, BTH byte 8, TOS, RoCE and
 * family in one word; the destination address in two.
 */
static __always_inline __u64 rd_ars_key(const struct rd_flow *p)
{
	return (__u64)p->hash | (__u64)p->opcode << 32 |
	       (__u64)p->bth_flags << 40 | (__u64)p->tos << 48 |
	       (__u64)(p->is_roce ? 1 : 0) << 56 | (__u64)(p->family & 7) << 57;
}

static __always_inline __u64 rd_ars_dst(const struct rd_flow *p, int half)
{
	return (__u64)p->dst[half * 2] | (__u64)p->dst[half * 2 + 1] << 32;
}

#define RD_ARS_K_HASH(k) ((__u32)(k))
#define RD_ARS_K_OPCODE(k) ((__u8)((k) >> 32))
#define RD_ARS_K_BTH8(k) ((__u8)((k) >> 40))
#define RD_ARS_K_TOS(k) ((__u8)((k) >> 48))
#define RD_ARS_K_ROCE(k) (((k) >> 56) & 1)
#define RD_ARS_K_FAMILY(k) (((k) >> 57) & 7)

/* Does the frame opt in to ARS (any matcher configured, or none set)? */
static __always_inline int rd_ars_opted(const struct rocedp_ars *a, __u64 k,
					__u64 d01, __u64 d23)
{
	const struct rocedp_ars_prefix *pf;
	__u32 o = a->optin, i, w, bits, mask, n, miss, d;
	__u8 op = RD_ARS_K_OPCODE(k);

	if (!o)
		return 1;
	if ((o & ROCEDP_ARSF_OPTIN_BTH) && RD_ARS_K_ROCE(k) &&
	    (RD_ARS_K_BTH8(k) & a->bth_mask) == a->bth_value)
		return 1;
	if ((o & ROCEDP_ARSF_OPTIN_OPCODE) && RD_ARS_K_ROCE(k) &&
	    ((a->opcodes[(op >> 6) & 3] >> (op & 63)) & 1))
		return 1;
	if ((o & ROCEDP_ARSF_OPTIN_DSCP) &&
	    ((a->dscp >> (RD_ARS_K_TOS(k) >> 2)) & 1))
		return 1;
	if (!(o & ROCEDP_ARSF_OPTIN_PREFIX))
		return 0;
	n = a->n_prefixes;
	for (i = 0; i < ROCEDP_ARS_PREFIXES; i++) {
		if (i >= n)
			break;
		pf = &a->prefix[i];
		if (pf->family != RD_ARS_K_FAMILY(k))
			continue;
		miss = 0;
#pragma unroll
		for (w = 0; w < 4; w++) {
			bits = pf->plen > 32 * w ? pf->plen - 32 * w : 0;
			mask = bits >= 32 ? ~0u :
			       bits	  ? bpf_htonl(~0u << (32 - bits)) :
					    0;
			d = (w < 2 ? d01 : d23) >> (w & 1 ? 32 : 0);
			miss |= (d ^ pf->addr[w]) & mask;
		}
		if (!miss)
			return 1;
	}
	return 0;
}

/* What a flowlet mode's full set needs: the gap, the fallback's member. */
static __always_inline void rd_ars_flowlet_prep(const struct rocedp_config *cfg,
						const struct rocedp_ars *a,
						const struct rocedp_group *g,
						struct rd_ars_frame *v,
						__u32 hash)
{
	__u64 gap, lo, hi;

	gap = (__u64)(g->rtt_us ? g->rtt_us : cfg->flowlet_rtt_us) * 500;
	lo = (__u64)cfg->flowlet_gap_min_us * 1000;
	hi = (__u64)cfg->flowlet_gap_max_us * 1000;
	if (gap < lo)
		gap = lo;
	if (hi && gap > hi)
		gap = hi;
	v->gap_ns = gap;
	v->fb_slot = -1;
	if (a->fallback == ROCEDP_ARS_FIXED)
		v->fb_slot = rd_pick_weighted(g, hash);
	else if (a->fallback == ROCEDP_ARS_PER_PACKET_RANDOM)
		v->fb_slot = rd_pick_weighted(g, bpf_get_prandom_u32());
}

static __always_inline struct rocedp_ars_stats *rd_ars_stats_get(__u32 gid)
{
	return bpf_map_lookup_elem(&rd_ars_stats, &gid);
}

/*
 * The ARS decision of a frame of group gid: a slot,
 * ROCEDP_NO_MEMBER (none usable: SAI's PACKET_DROPS; rocedp passes the
 * frame), RD_ARS_FLOWLET (a flowlet mode: the flowlet step decides, and
 * a new flowlet takes v->choice) or RD_ARS_BASE (not ARS's). Called
 * between the route and the member step: on the general path from
 * rd_ingress_decide, beside rd_fwd_member rather than under it (that
 * chain has no stack to spare). The group's bank is read here; the
 * member step checks the slot against the bank it reads. Scalars in
 * (rd_ars_key, rd_ars_dst): a global function's pointer argument to the
 * entry's stack leaves that memory unknown to the verifier after the
 * call, a spilled pointer with it (the plan's cache entry); a static
 * copy, verified again for every caller state, took the no-trace
 * program past the verifier's million instructions.
 * Per-packet modes count a frame sent to another member than its hash
 * member as a next-hop reassignment (and a port one when the port
 * differs too).
 */
__attribute__((noinline)) int rd_ars_member(__u32 gid, __u64 now, __u64 k,
					    __u64 d01, __u64 d23)
{
	struct rocedp_config *cfg = rd_config_get();
	struct rocedp_ars_stats *st;
	struct rocedp_group *g;
	struct rd_ars_frame *v;
	struct rocedp_ars *a;
	__u32 mode, seq;
	int slot, hslot;

	if (!cfg)
		return RD_ARS_BASE;
	a = rd_ars_get();
	v = rd_ars_frame_get();
	if (!a || !v)
		return RD_ARS_BASE;
	v->mode = 0;
	if (gid >= ROCEDP_MAX_GROUPS)
		return RD_ARS_BASE;
	mode = a->group_mode[gid & (ROCEDP_MAX_GROUPS - 1)];
	mode = mode & ROCEDP_ARS_GROUP_SET ? mode & ~ROCEDP_ARS_GROUP_SET :
					     a->mode;
	if (!mode || mode >= ROCEDP_ARS_MODE_MAX)
		return RD_ARS_BASE;
	g = rd_group_bank(gid, &seq);
	if (!g)
		return RD_ARS_BASE;
	st = rd_ars_stats_get(gid);
	if (!rd_ars_opted(a, k, d01, d23)) {
		if (st)
			st->base++;
		return RD_ARS_BASE;
	}
	if (st)
		st->frames++;
	v->mode = mode;
	v->fallback = a->fallback;
	v->group_id = gid;
	if (mode <= ROCEDP_ARS_FLOWLET_RANDOM)
		rd_ars_flowlet_prep(cfg, a, g, v, RD_ARS_K_HASH(k));
	switch (mode) {
	case ROCEDP_ARS_FLOWLET_RANDOM:
		v->choice = rd_pick_weighted(g, bpf_get_prandom_u32());
		return RD_ARS_FLOWLET;
	case ROCEDP_ARS_FLOWLET_QUALITY:
		v->choice = rd_ars_quality(a, g, v, RD_ARS_K_HASH(k), now,
					   cfg->load_tau_us);
		return RD_ARS_FLOWLET;
	case ROCEDP_ARS_FIXED:
		slot = rd_pick_weighted(g, RD_ARS_K_HASH(k));
		break;
	case ROCEDP_ARS_PER_PACKET_RANDOM:
		slot = rd_pick_weighted(g, bpf_get_prandom_u32());
		break;
	default:
		slot = rd_ars_quality(a, g, v, bpf_get_prandom_u32(), now,
				      cfg->load_tau_us);
	}
	if (slot < 0 || slot >= ROCEDP_MAX_MEMBERS) {
		if (st)
			st->drops++;
		return ROCEDP_NO_MEMBER;
	}
	hslot = rd_pick_weighted(g, RD_ARS_K_HASH(k));
	if (st && hslot != slot) {
		st->nh_reassign++;
		if (hslot < 0 ||
		    g->members[hslot & (ROCEDP_MAX_MEMBERS - 1)].ifindex !=
			    g->members[slot & (ROCEDP_MAX_MEMBERS - 1)].ifindex)
			st->port_reassign++;
	}
	return slot;
}

/*
 * A new flowlet's member in a flowlet mode (rd_flowlet_choose asks while
 * ARS is on): the choice rd_ars_member made for this frame, or
 * RD_ARS_BASE for a frame that is not ARS's. In line: one lookup.
 */
static __always_inline int rd_ars_choose(const struct rocedp_group *g)
{
	struct rd_ars_frame *v = rd_ars_frame_get();

	if (!v || !v->mode || v->mode > ROCEDP_ARS_FLOWLET_RANDOM)
		return RD_ARS_BASE;
	if (v->choice >= 0 && !rd_slot_active(g, v->choice))
		return RD_ARS_BASE; /* a group changed between: the base choice */
	return v->choice;
}

/*
 * A flowlet of an ARS frame moved from port old_if to new_if: SAI's next
 * hop (and port) reassignment. Only on a move; scalars in, no frame of
 * the caller's grows.
 */
__attribute__((noinline)) int rd_ars_moved(__u32 old_if, __u32 new_if)
{
	struct rd_ars_frame *v = rd_ars_frame_get();
	struct rocedp_ars_stats *st;

	if (!v || !v->mode)
		return 0;
	st = rd_ars_stats_get(v->group_id);
	if (!st)
		return 0;
	st->nh_reassign++;
	if (old_if != new_if)
		st->port_reassign++;
	return 0;
}

/*
 * A new flow of an ARS flowlet mode whose set holds only live flowlets
 * (the idlest way, last seen at last_ns, is still inside its gap): the
 * fallback mode's member (worked out by rd_ars_member), counted, or -1
 * to evict as usual. Scalars in: the caller's frame does not grow.
 */
__attribute__((noinline)) int rd_ars_full(__u64 last_ns, __u64 now)
{
	struct rd_ars_frame *v = rd_ars_frame_get();
	struct rocedp_ars_stats *st;

	if (!v || !v->mode || !v->fallback || v->fb_slot < 0)
		return -1;
	if (now > last_ns && now - last_ns > v->gap_ns)
		return -1;
	st = rd_ars_stats_get(v->group_id);
	if (st)
		st->fallback++;
	return v->fb_slot;
}

#endif
