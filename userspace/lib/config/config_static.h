/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A config's static routes and groups into the maps (config_static.c):
 * through the FIB model that rocedp sync commits the kernel's routes with
 * (fib/group_static.h), as one step of a load (config_txn.c), under the
 * writers' lock the caller holds. Every other route and group in the maps
 * stays; a group of sync's on an id the config names moves first.
 */
#ifndef ROCEDP_CONFIG_STATIC_H
#define ROCEDP_CONFIG_STATIC_H

#include <stdbool.h>
#include "config.h"
#include "group_types.h"

/* One load's runs of the step (the load's own, and its undo). */
struct rd_config_static {
	const char *obj; /* for messages */
	struct rd_fib_fault *fault; /* counts the writes (test hooks) */
	bool wrote; /* a route or group was written, or a write tried */
};

/* Do the static routes or groups of a and b differ? */
bool rd_config_static_differs(const struct rd_staged *a,
			      const struct rd_staged *b);
/* Commit s's static routes and groups in this process. -errno; the
 * failure was named. */
int rd_config_static_apply(const struct rd_maps *m, const struct rd_staged *s,
			   struct rd_config_static *run);
#endif
