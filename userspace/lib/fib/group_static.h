/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The config's static source through the FIB model (group_static.c):
 * routes with a given value and groups with a given id and value, as the
 * config states them, committed with the same model and commit
 * (group_commit.c) as the kernel's routes: in the sync daemon when one
 * runs (the load hands them over, config_handoff.h), else in the load,
 * under the writers' lock either way. Every other entry of the maps is kept as it
 * is: the routes and groups a sync wrote stay, and a group of theirs whose
 * id the config takes moves to a free id first.
 *
 *   rd_fib_static_begin(f, ids, n);     read the maps, move groups off ids
 *   rd_fib_static_group(f, id, value);  for each group of the config
 *   rd_fib_static_route(f, ...);        for each route of the config
 *   rd_fib_static_commit(f, &counts);   write the difference
 */
#ifndef ROCEDP_GROUP_STATIC_H
#define ROCEDP_GROUP_STATIC_H

#include <stdint.h>
#include "group_types.h"
#include "group_commit.h"

/*
 * f: a new model with its maps set. Read what the maps hold; the config's
 * routes and groups there (ROCEDP_ROUTEF_STATIC, ROCEDP_MEMBERF_STATIC)
 * go unless stated again, all others stay. A kept group on one of ids
 * (the config's group ids) moves, and its routes with it, in a commit of
 * its own: no route of theirs ever points at a group of the config.
 * Returns how many groups moved, or -errno (-ENOSPC: no free id to move
 * a group to).
 */
int rd_fib_static_begin(struct rd_fib *f, const uint32_t *ids, unsigned int n,
			struct rd_fib_counts *c);
/* Group id of the config holds v (copied). 0 or -errno. */
int rd_fib_static_group(struct rd_fib *f, uint32_t id,
			const struct rocedp_group *v);
/* A route of the config (v->group_id names a static group, or LOCAL). */
int rd_fib_static_route(struct rd_fib *f, uint8_t family, uint8_t plen,
			const void *addr, const struct rocedp_route *v);
/* Write the difference: groups, routes, then what the config dropped. */
int rd_fib_static_commit(struct rd_fib *f, struct rd_fib_counts *c);

#endif
