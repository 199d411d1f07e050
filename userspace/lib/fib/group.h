/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rd_fib: the userspace FIB model of rocedp sync (group.c). Prefix -> hop
 * set; identical hop sets share one group id (reference counted,
 * < ROCEDP_MAX_GROUPS). It mirrors what the maps hold and commits only the
 * difference (group_commit.h), so a restart or a resync never deletes and
 * re-adds a live entry. This header is the model's own API: routes in,
 * groups out; it writes no map. docs/design.md has the model's modules.
 */
#ifndef ROCEDP_GROUP_H
#define ROCEDP_GROUP_H

#include <stdbool.h>
#include <stdint.h>
#include "rocedp_abi.h"
#include "group_types.h"

struct rd_fib *rd_fib_new(void);
void rd_fib_free(struct rd_fib *f);
void rd_fib_set_maps(struct rd_fib *f, const struct rd_fib_maps *maps);
/* Who writes, for error lines ("sync" unless set; obj must outlive f). */
void rd_fib_set_obj(struct rd_fib *f, const char *obj);
/* -errno of the model's first failed map write; 0 when none failed. */
int rd_fib_first_error(struct rd_fib *f);
/* Count the model's map writes in *fault (test builds; it outlives f). */
void rd_fib_set_fault(struct rd_fib *f, struct rd_fib_fault *fault);

/*
 * Desired route for a prefix. flags may hold ROCEDP_ROUTEF_LOCAL ("give it to
 * the kernel"); with n_hops == 0 the route is LOCAL too. Returns 0, or
 * -E2BIG (more than ROCEDP_MAX_MEMBERS hops) / -ENOSPC (no free group id),
 * in which case the prefix is installed LOCAL so that the kernel forwards.
 */
int rd_fib_route_set(struct rd_fib *f, uint8_t family, uint8_t plen,
		     const void *addr, uint32_t flags,
		     const struct rd_hop *hops, int n_hops);

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

/* Reading the maps back and committing to them: group_commit.h. */

#endif
