/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Per-port load estimate, CONGA's discounting rate estimator (DRE): bytes
 * sent, decayed by (7/8) every tau/8, i.e. an EWMA with time constant about
 * tau. Decay is applied lazily from a table, so no timer is needed. Each
 * CPU keeps its own (rd_port_load, see struct rocedp_port_load).
 *
 * The decay instants are the multiples of tau/8 on the clock, the same for
 * every port: least-loaded choice compares ports, and with a grid anchored
 * per port (at its first frame) two ports that carried the same bytes
 * could differ by a whole step (12.5%), enough to send every flowlet that
 * starts in that window to one member (seen in tests/harness/lbeval). dre_tick
 * is the tick of the last update (its time / dre_step_ns, tau/8), and
 * dre_next_ns the start of the next one.
 */
#ifndef ROCEDP_LOAD_H
#define ROCEDP_LOAD_H

#include "maps.h"

/* round(65536 * (7/8)^n) */
static const __u32 rd_dre_decay[32] = {
	65536, 57344, 50176, 43904, 38416, 33614, 29412, 25736,
	22519, 19704, 17241, 15086, 13200, 11550, 10106, 8843,
	7738,  6770,  5924,  5184,  4536,  3969,  3473,	 3039,
	2659,  2326,  2036,  1781,  1559,  1364,  1193,	 1044,
};

static __always_inline __u64 rd_dre_step_ns(__u32 tau_us)
{
	__u64 step = (__u64)(tau_us ? tau_us : 1) * 1000 / 8;

	return step ? step : 1;
}

/* No tick worked out yet: rd_dre_decayed divides only if it needs one. */
#define RD_DRE_NO_TICK (~0ull)

/*
 * dre_bytes decayed from its last update to now on the shared grid of
 * step ns. Most frames fall in the tick of the last update
 * (now < dre_next_ns, kept by rd_load_add): no decay and no divide.
 * Otherwise now's tick is worked out once into *now_tick, which a scan
 * shares between its members. After a load_tau_us change the last tick
 * is moved onto the new grid (dre_step_ns is the old one), so the decay
 * resumes at the next tick of the old grid, at most an old tick late.
 */
static __always_inline __u64 rd_dre_decayed(const struct rocedp_port_load *st,
					    __u64 now, __u64 step,
					    __u64 *now_tick)
{
	__u64 last, n;

	if (now < st->dre_next_ns)
		return st->dre_bytes;
	if (*now_tick == RD_DRE_NO_TICK)
		*now_tick = now / step;
	last = st->dre_tick;
	if (st->dre_step_ns != step)
		last = last * st->dre_step_ns / step;
	n = *now_tick - last;
	if (n >= 32)
		return 0;
	return (st->dre_bytes * rd_dre_decay[n & 31]) >> 16;
}

/* This CPU's load estimate of the port; NULL as rd_port_state_get. */
static __always_inline struct rocedp_port_load *rd_port_load_get(__u32 ifindex)
{
	return bpf_map_lookup_elem(&rd_port_load, &ifindex);
}

/* Account a frame sent on ifindex, in this CPU's estimate. */
static __always_inline void rd_load_add(__u32 ifindex, __u32 bytes, __u64 now,
					__u32 tau_us)
{
	struct rocedp_port_load *st = rd_port_load_get(ifindex);
	__u64 step, tick = RD_DRE_NO_TICK;

	if (!st)
		return;
	if (now < st->dre_next_ns) {
		st->dre_bytes += bytes;
		return;
	}
	/* a new tick: the divide runs once per tick and port */
	step = rd_dre_step_ns(tau_us);
	st->dre_bytes = rd_dre_decayed(st, now, step, &tick) + bytes;
	st->dre_tick = tick;
	st->dre_step_ns = step;
	st->dre_next_ns = (tick + 1) * step;
}

/* The port's load at now; *now_tick as rd_dre_decayed. */
static __always_inline __u64 rd_load_get(__u32 ifindex, __u64 now, __u64 step,
					 __u64 *now_tick)
{
	struct rocedp_port_load *st;

	st = rd_port_load_get(ifindex);
	if (!st)
		return 0;
	return rd_dre_decayed(st, now, step, now_tick);
}

#endif
