/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * ECN marking per egress port (DCQCN's switch half), decided by the XDP
 * ingress program for frames it redirects and by tc egress on the skb
 * path: a per-port virtual queue,
 * drained at the port's configured rate, feeds RED: no mark below Kmin,
 * probability rising linearly to Pmax at Kmax, always above Kmax.
 * Thresholds come from the rocedp_ecn module's kfunc when the loader found
 * the module (cfg_ecn_kfunc), else from rd_port_cfg.
 */
#ifndef ROCEDP_ECN_H
#define ROCEDP_ECN_H

#include "parse.h"
#include "csum.h"
#include "load.h"
#include "counters.h"
#include "clock.h"
#include "trim.h"

/* Set by the loader when /sys/kernel/btf/rocedp_ecn exists. */
const volatile bool cfg_ecn_kfunc = false;

extern __u64 rocedp_ecn_thresholds(__u32 profile) __ksym __weak;

struct rd_red {
	__u32 kmin;
	__u32 kmax;
	__u32 pmax; /* percent */
};

/*
 * The thresholds in force; 1 when they came from the module. The caller
 * counts the source only for frames RED decides (not opted-out ones).
 */
static __always_inline int rd_ecn_thresholds(const struct rocedp_port_cfg *pc,
					     struct rd_red *red)
{
	__u64 v;

	if (cfg_ecn_kfunc) {
		v = rocedp_ecn_thresholds(pc->ecn_profile);
		if (ROCEDP_ECN_VALID(v)) {
			red->kmin = ROCEDP_ECN_KMIN(v);
			red->kmax = ROCEDP_ECN_KMAX(v);
			red->pmax = ROCEDP_ECN_PMAX(v);
			return 1;
		}
	}
	red->kmin = pc->kmin_bytes;
	red->kmax = pc->kmax_bytes;
	red->pmax = pc->pmax_percent;
	return 0;
}

#define RD_NS_PER_S 1000000000ull

/*
 * Bytes the port drains per ns, fixed point: rate_bps / 8e9 <<
 * ROCEDP_VQ_DRAIN_SHIFT, rounded to nearest (at least 1). The cached value
 * is checked against the current rate with a multiplication (it must be
 * within half a unit of rate << (shift - 3) / 1e9); the divide runs only
 * when that fails: a rate change, or two CPUs racing through one.
 */
static __always_inline __u64 rd_vq_drain_fp(const struct rocedp_port_cfg *pc,
					    struct rocedp_port_state *st)
{
	__u64 rate = pc->rate_bps, want, fp = st->vq_drain_fp;

	if (rate > ROCEDP_VQ_MAX_RATE_BPS)
		rate = ROCEDP_VQ_MAX_RATE_BPS;
	want = rate << (ROCEDP_VQ_DRAIN_SHIFT - 3); /* fp * 1e9, exactly */
	if (fp && fp <= ROCEDP_VQ_DRAIN_FP_MAX &&
	    fp * RD_NS_PER_S <= want + RD_NS_PER_S / 2 &&
	    fp * RD_NS_PER_S + RD_NS_PER_S / 2 > want)
		return fp;
	/* below about 60 bit/s the floor of 1 fails the test: a divide each */
	fp = (want + RD_NS_PER_S / 2) / RD_NS_PER_S;
	if (!fp)
		fp = 1;
	st->vq_drain_fp = fp;
	return fp;
}

/* rd_vq_enqueue's answer for a frame a port's admission refuses */
#define RD_VQ_REFUSED (~0ull)
/* the inlined ECN step's answer for a port with admission: ask rd_ecn_decide */
#define RD_ECN_OUT_OF_LINE 16

/*
 * Does a port with a discard action refuse the frame? Its buffer holds q
 * and not the frame; an empty queue takes any frame, as without one.
 */
static __always_inline int rd_vq_refuse(const struct rocedp_port_cfg *pc,
					__u64 q, __u32 len)
{
	return (pc->flags & ROCEDP_PORTF_ADMIT) && pc->buffer_bytes && q &&
	       q + len > pc->buffer_bytes;
}

/*
 * Queue estimate before this frame joins it; updates the virtual queue,
 * which holds at most the port's buffer (see ROCEDP_VQ_CAP_KMAX). Bytes
 * that joined without a clock reading arrive now (rd_vq_defer).
 */
static __always_inline __u64 rd_vq_enqueue(const struct rocedp_port_cfg *pc,
					   struct rocedp_port_state *st,
					   __u32 len, __u64 now)
{
	__u64 q = st->vq_bytes, drained, dt, cap;

	if (pc->flags & ROCEDP_PORTF_HOLD_QUEUE) {
		if (rd_vq_refuse(pc, q, len)) {
			st->vq_over_q = q;
			return RD_VQ_REFUSED;
		}
		return q;
	}
	if (now > st->vq_last_ns && st->vq_last_ns) {
		/* both bounds keep dt * fp below 2^64 */
		dt = now - st->vq_last_ns;
		if (dt > ROCEDP_VQ_MAX_IDLE_NS)
			dt = ROCEDP_VQ_MAX_IDLE_NS;
		drained = (dt * rd_vq_drain_fp(pc, st)) >>
			  ROCEDP_VQ_DRAIN_SHIFT;
		q = drained >= q ? 0 : q - drained;
	}
	if (st->vq_pending) {
		q += st->vq_pending;
		st->vq_pending = 0;
	}
	/* a port with a discard action refuses what its buffer cannot hold */
	if (rd_vq_refuse(pc, q, len)) {
		if (q > pc->buffer_bytes)
			q = pc->buffer_bytes;
		st->vq_last_ns = now;
		st->vq_bytes = q;
		st->vq_over_q = q;
		return RD_VQ_REFUSED;
	}
	cap = pc->buffer_bytes ?: (__u64)pc->kmax_bytes * ROCEDP_VQ_CAP_KMAX;
	if (cap < len) /* a frame always fits an empty queue */
		cap = len;
	if (q > cap) /* a lowered cap, or a restored queue */
		q = cap;
	st->vq_last_ns = now;
	st->vq_bytes = q + len > cap ? cap : q + len;
	return q;
}

/*
 * Join the queue without reading the clock, when that cannot change a
 * decision (ROCEDP_VQ_DEFER_SHIFT): the estimate without any drain stays
 * below Kmin with this frame, so RED marks neither this frame nor the
 * next at any time. Returns 1 and the estimate before the frame in *q, or
 * 0: read the clock. The first frame reads it, to start the queue's time;
 * an exact_clock port never defers, nor a held queue (a test knob).
 */
static __always_inline int rd_vq_defer(const struct rocedp_port_cfg *pc,
				       struct rocedp_port_state *st, __u32 len,
				       __u32 kmin, __u64 *q)
{
	__u64 pend = st->vq_pending, est = st->vq_bytes + pend;

	if ((pc->flags &
	     (ROCEDP_PORTF_EXACT_CLOCK | ROCEDP_PORTF_HOLD_QUEUE)) ||
	    !st->vq_last_ns || est + len >= kmin ||
	    pend + len > kmin >> ROCEDP_VQ_DEFER_SHIFT)
		return 0;
	st->vq_pending = pend + len;
	*q = est;
	return 1;
}

/* RED: 1 = mark. p = pmax * (q - kmin) / (kmax - kmin) between the bounds. */
static __always_inline int rd_red_decide(const struct rd_red *red, __u64 q)
{
	__u64 span, p32;

	if (q < red->kmin)
		return 0;
	if (q >= red->kmax)
		return 1;
	span = red->kmax - red->kmin;
	/* probability scaled to 2^32 */
	p32 = ((q - red->kmin) << 32) / span * red->pmax / 100;
	return bpf_get_prandom_u32() < p32;
}

/*
 * Queue update, admission, RED and counters. Returns 1 when the caller
 * must set CE on an ECN-capable frame, or for a frame the buffer refuses
 * rd_trim_admit's answer (admit: the out-of-line copy; the inlined one
 * answers RD_ECN_OUT_OF_LINE, and the entry asks rd_ingress_admit). Inlined into the express path; out of line
 * (rd_ecn_decide) for the others. ctr: where the express path leaves the
 * counter every decided frame bumps (the threshold source, or opted out)
 * for rd_account's counter block; NULL counts it here. The marks' counters,
 * rarer, are counted here either way.
 */
static __always_inline int rd_ecn_decide_body(const struct rd_flow *fl,
					      __u32 ifindex, __u32 len,
					      __u32 tos, __u64 now,
					      const struct rocedp_config *cfg,
					      __u8 *ctr, const int admit)
{
	struct rocedp_port_stats *ps;
	struct rocedp_port_state *st;
	struct rocedp_port_cfg *pc;
	struct rd_red red;
	__u64 q, depth, *hwm;
	__u32 lim;
	int from_module;

	pc = bpf_map_lookup_elem(&rd_port_cfg, &ifindex);
	if (!pc || !(pc->rate_bps || (pc->flags & ROCEDP_PORTF_HOLD_QUEUE)))
		return 0;
	st = rd_port_state_get(ifindex);
	if (!st)
		return 0;
	from_module = rd_ecn_thresholds(pc, &red);
	/*
	 * The virtual queue drains with time. The clock is read here only,
	 * and only when the decision can depend on it (rd_vq_defer).
	 */
	/* a buffer below Kmin: deferring must not skip its admission */
	lim = red.kmin;
	if ((pc->flags & ROCEDP_PORTF_ADMIT) && pc->buffer_bytes &&
	    pc->buffer_bytes < lim)
		lim = pc->buffer_bytes;
	if (now || !rd_vq_defer(pc, st, len, lim, &q)) {
		if (!now && !(pc->flags & ROCEDP_PORTF_HOLD_QUEUE))
			now = rd_now();
		q = rd_vq_enqueue(pc, st, len, now);
	}
	/* telemetry: the queue's high-water mark since userspace read it */
	if (cfg->features & ROCEDP_F_TELEMETRY) {
		hwm = bpf_map_lookup_elem(&rd_port_hwm, &ifindex);
		depth = st->vq_bytes + st->vq_pending;
		if (hwm && depth > *hwm)
			*hwm = depth;
	}
	/*
	 * Admission: only a frame the buffer cannot hold looks up the port's
	 * discard action (an empty queue takes any frame, as before). The
	 * inlined copy has no stack for the call: rd_ingress_admit makes it.
	 */
	if (q == RD_VQ_REFUSED)
		return admit ? rd_trim_admit((struct rd_flow *)fl, ifindex,
					     len) :
			       RD_ECN_OUT_OF_LINE;
	if ((cfg->ecn_class_optout >> (fl->cls & 31)) & 1) {
		if (ctr)
			*ctr = ROCEDP_CTR_ECN_OPTOUT;
		else
			rd_count(ROCEDP_CTR_ECN_OPTOUT);
		return 0;
	}
	if (ctr)
		*ctr = from_module ? ROCEDP_CTR_ECN_SRC_KFUNC :
				     ROCEDP_CTR_ECN_SRC_MAP;
	else
		rd_count(from_module ? ROCEDP_CTR_ECN_SRC_KFUNC :
				       ROCEDP_CTR_ECN_SRC_MAP);
	if (!rd_red_decide(&red, q))
		return 0;
	ps = rd_port_stats_get(ifindex);
	switch (tos & 3) {
	case 0: /* Not-ECT: never touched, counted */
		rd_count(ROCEDP_CTR_ECN_WOULD_MARK);
		if (ps)
			ps->ecn_would_mark++;
		return 0;
	case 3:
		rd_count(ROCEDP_CTR_ECN_ALREADY_CE);
		return 0;
	}
	rd_count(ROCEDP_CTR_ECN_MARKED);
	if (ps) {
		ps->ecn_marked++;
		ps->ecn_marked_bytes += len;
	}
	return 1;
}

__attribute__((noinline)) int rd_ecn_decide(struct rd_flow *fl, __u32 ifindex,
					    __u32 len, __u32 tos, __u64 now)
{
	struct rocedp_config *cfg = rd_config_get();

	if (!fl || !cfg)
		return 0;
	return rd_ecn_decide_body(fl, ifindex, len, tos, now, cfg, NULL, 1);
}

#endif
