/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The FIB model's vocabulary (header only): next hops, a kernel bucket
 * table, the member filler and the maps the model writes. Both the model's
 * API (group.h) and its inner modules (group_tab.h, group_hops.h,
 * group_commit.h) build on it, so none of them needs another's header.
 */
#ifndef ROCEDP_GROUP_TYPES_H
#define ROCEDP_GROUP_TYPES_H

#include <stdint.h>
#include "rocedp_abi.h"

/* One next hop as the kernel states it. */
struct rd_hop {
	uint32_t ifindex;
	uint32_t gw[4]; /* network order; IPv4 uses gw[0] */
	uint16_t weight; /* 1..65535 */
	uint8_t family; /* of gw: AF_INET or AF_INET6 */
	uint8_t pad;
};

/*
 * Fill a member's dynamic part (smac, dmac, ROCEDP_MEMBERF_UP/RESOLVED)
 * from link and neighbour state; ifindex, nh_* and weight are already set.
 */
typedef void (*rd_member_fill_fn)(void *ctx, struct rocedp_member *m);

struct rd_fib_maps {
	int routes4, routes6, groups, tx_ports, port_cfg; /* -1: dry run */
	int group_banks, group_live; /* with groups (groupw.h) */
	__u32 *route_gen; /* rd_route_gen mapped, for routes (routew.h) */
};

/*
 * Test builds' fault hook (docs/faults.md): writes counts every map write
 * of the caller and of the model; the one numbered fail_at fails with
 * -ENOMEM, the process exits with crash_status right after the one
 * numbered crash_at (0: never).
 */
struct rd_fib_fault {
	long writes, fail_at, crash_at;
	int crash_status;
};

/*
 * A kernel resilient group's bucket table: tab[b] is the index into the
 * hops given with it (ROCEDP_BUCKET_NONE: not known yet). id is the
 * kernel's nexthop id: routes over one kernel group share one rocedp
 * group, whose value follows the table as it changes.
 */
struct rd_res {
	uint32_t id;
	uint16_t nb; /* 1..ROCEDP_MAX_BUCKETS */
	uint8_t tab[ROCEDP_MAX_BUCKETS];
};

/* The model; its fields (group_tab.h) are the group_*.c files' alone. */
struct rd_fib;

#endif
