/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Time source. Live programs use the monotonic clock; replay, tests and the
 * evaluator set cfg_clock_from_map so that a trace's gaps replay exactly.
 */
#ifndef ROCEDP_CLOCK_H
#define ROCEDP_CLOCK_H

#include "maps.h"
#include "plan.h"

const volatile bool cfg_clock_from_map = false;

static __always_inline __u64 rd_now(void)
{
	__u32 zero = 0;
	__u64 *t;

	if (!cfg_clock_from_map)
		return bpf_ktime_get_ns();
	t = bpf_map_lookup_elem(&rd_clock, &zero);
	return t ? *t : 0;
}

/* The frame's time, read on first use: most frames need none (ECN defers). */
static __always_inline __u64 rd_plan_clock(struct rd_plan *pl)
{
	if (!pl->now)
		pl->now = rd_now();
	return pl->now;
}

/*
 * For what only ages entries (telemetry's last-seen): the CPU's first
 * clock reading in the current timer tick, so at most one reading a tick
 * (HZ a second). Never ahead of rd_now(), behind it by at most a tick.
 * bpf_ktime_get_coarse_ns() has the same precision but cost 20 ns here,
 * two thirds of a clock read; jiffies is a load.
 */
static __always_inline __u64 rd_now_tick(void)
{
	struct rd_scratch *sc;
	__u64 j;

	if (cfg_clock_from_map)
		return rd_now();
	sc = rd_scratch_get();
	if (!sc)
		return 0;
	j = bpf_jiffies64();
	if (sc->tick_jiffies != j) {
		sc->tick_jiffies = j;
		sc->tick_ns = bpf_ktime_get_ns();
	}
	return sc->tick_ns;
}

#endif
