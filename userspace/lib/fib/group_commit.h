/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The FIB model against the maps (group_commit.c): read back what they hold
 * (the mirror) and write the difference between model and mirror, in an
 * order that never lets a route point at a group that is not there yet.
 * It writes rd_routes4/6 (routew.h), the groups (groupw.h), rd_tx_ports
 * and rd_port_cfg (portw.h).
 */
#ifndef ROCEDP_GROUP_COMMIT_H
#define ROCEDP_GROUP_COMMIT_H

#include <stdbool.h>
#include <stdint.h>
#include "group_types.h"

struct rd_fib_counts {
	uint64_t group_writes, group_deletes;
	uint64_t route_writes, route_deletes;
	uint64_t port_writes;
	uint64_t errors; /* failed map writes (logged once each) */
	uint64_t route_fails; /* route writes refused (ENOSPC, ENOMEM): retried */
	uint64_t route_marks; /* covers handed to the kernel or back */
};

/*
 * Read what the maps hold now (the mirror the next commit diffs against).
 * Routes flagged ROCEDP_ROUTEF_STATIC and groups with ROCEDP_MEMBERF_STATIC
 * members (or used by static routes) belong to the config: never touched.
 * Groups rocedp sync wrote earlier are adopted by hop set, so a restarted
 * daemon reuses their ids. Returns 0 or -errno.
 */
int rd_fib_load_installed(struct rd_fib *f);

/*
 * Write the difference between model and mirror: changed groups first, then
 * routes, then groups no longer used. full also walks entries that were not
 * marked dirty (after a resync). Counts are added to *c when non-NULL.
 */
int rd_fib_commit(struct rd_fib *f, bool full, rd_member_fill_fn fill,
		  void *ctx, struct rd_fib_counts *c);
/* Routes the trie refused, their covers marked ROUTEF_KERNEL meanwhile;
 * each commit retries them (docs/maps.md, Full tries). */
unsigned int rd_fib_n_pending(struct rd_fib *f);

/*
 * Only the groups marked dirty (member state): safe in the middle of a
 * resync, as it never writes or deletes a route.
 */
int rd_fib_commit_groups(struct rd_fib *f, rd_member_fill_fn fill, void *ctx,
			 struct rd_fib_counts *c);

#endif
