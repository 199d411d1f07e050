/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Route choice of rocedp sync (sync_route.c): which of a prefix's kernel
 * routes wins, and what rocedp installs for it through the FIB model
 * (group.h): its next hops (from the route or its nexthop object, with a
 * resilient group's bucket table), or LOCAL when the kernel must forward.
 * Writes no map itself: the FIB model's commit does (sync_commit.h).
 */
#ifndef ROCEDP_SYNCROUTE_H
#define ROCEDP_SYNCROUTE_H

#include <stdbool.h>
#include <stdint.h>
#include "sync_view.h"

/* Choose r's route again and set (or delete) it in the FIB model. */
void rd_route_apply(struct rd_sync *s, struct sroute *r);
/*
 * Re-evaluate every route that uses nexthop id, directly or in a group;
 * deleted: drop the routes that used it directly.
 */
void rd_nh_changed(struct rd_sync *s, uint32_t id, bool deleted);

#endif
