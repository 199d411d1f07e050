/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rd_fib: the userspace FIB model of rocedp sync (group.c). Prefix -> hop
 * set; identical hop sets share one group id (reference counted,
 * < ROCEDP_MAX_GROUPS). It mirrors what the maps hold and commits only the
 * difference, so a restart or a resync never deletes and re-adds a live
 * entry. It writes rd_routes4/6, the groups (through groupw.h), rd_tx_ports
 * and rd_port_cfg.
 */
#ifndef ROCEDP_GROUP_H
#define ROCEDP_GROUP_H

#include <stdbool.h>
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
};

struct rd_fib_counts {
	uint64_t group_writes, group_deletes;
	uint64_t route_writes, route_deletes;
	uint64_t port_writes;
	uint64_t errors; /* failed map writes (logged once each) */
	uint64_t route_fails; /* route writes refused (ENOSPC, ENOMEM): retried */
	uint64_t route_marks; /* covers handed to the kernel or back */
};

struct rd_fib;

struct rd_fib *rd_fib_new(void);
void rd_fib_free(struct rd_fib *f);
void rd_fib_set_maps(struct rd_fib *f, const struct rd_fib_maps *maps);

/*
 * Desired route for a prefix. flags may hold ROCEDP_ROUTEF_LOCAL ("give it to
 * the kernel"); with n_hops == 0 the route is LOCAL too. Returns 0, or
 * -E2BIG (more than ROCEDP_MAX_MEMBERS hops) / -ENOSPC (no free group id),
 * in which case the prefix is installed LOCAL so that the kernel forwards.
 */
int rd_fib_route_set(struct rd_fib *f, uint8_t family, uint8_t plen,
		     const void *addr, uint32_t flags,
		     const struct rd_hop *hops, int n_hops);

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

/* rd_fib_route_set with the kernel's table (res NULL: rocedp's own). */
int rd_fib_route_set_res(struct rd_fib *f, uint8_t family, uint8_t plen,
			 const void *addr, uint32_t flags,
			 const struct rd_hop *hops, int n_hops,
			 const struct rd_res *res);
void rd_fib_route_del(struct rd_fib *f, uint8_t family, uint8_t plen,
		      const void *addr);
/* Desired value of a prefix; false when the model has no route. */
bool rd_fib_route_get(struct rd_fib *f, uint8_t family, uint8_t plen,
		      const void *addr, struct rocedp_route *out);

/* Hops of a live group in slot order; returns n, or -ENOENT. */
int rd_fib_group_hops(struct rd_fib *f, uint32_t id,
		      const struct rd_hop **hops);
uint32_t rd_fib_group_refcnt(struct rd_fib *f, uint32_t id);
unsigned int rd_fib_n_groups(struct rd_fib *f);
unsigned int rd_fib_n_routes(struct rd_fib *f);
/* Build the map value of a live group; -ENOENT when there is none. */
int rd_fib_group_value(struct rd_fib *f, uint32_t id, rd_member_fill_fn fill,
		       void *ctx, struct rocedp_group *out);

/* Groups with a member on ifindex (0: all groups) are rebuilt on commit. */
void rd_fib_touch_ifindex(struct rd_fib *f, uint32_t ifindex);
/* Forget that ifindex has a devmap/port_cfg entry (the link went away). */
void rd_fib_forget_port(struct rd_fib *f, uint32_t ifindex);

/*
 * Mark and sweep for a full resync: after begin, every route not set again
 * before end is removed from the model. Groups survive when the same hop
 * sets come back, so unchanged routes keep their group ids.
 */
void rd_fib_begin_full(struct rd_fib *f);
void rd_fib_end_full(struct rd_fib *f);

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
