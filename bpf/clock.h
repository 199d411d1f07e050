/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Time source. Live programs use the monotonic clock; replay, tests and the
 * evaluator set cfg_clock_from_map so that a trace's gaps replay exactly.
 */
#ifndef ROCEDP_CLOCK_H
#define ROCEDP_CLOCK_H

#include "maps.h"

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

#endif
