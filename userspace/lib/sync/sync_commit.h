/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a commit of rocedp sync needs around the FIB model's (sync_commit.c):
 * the writers' lock shared with `config load/set` (and the re-read of the
 * maps after a hand-off of static routes, sync_serve.h), the dynamic part of group members (MACs,
 * UP, RESOLVED) from the kernel view, the neighbour probes for unresolved
 * gateways, and the counters. The maps are written by rd_fib_commit
 * (group.h) under this lock; the batches are cut in sync.c.
 */
#ifndef ROCEDP_SYNCCOMMIT_H
#define ROCEDP_SYNCCOMMIT_H

#include <stdbool.h>
#include <stdint.h>
#include "group.h"
#include "group_commit.h"

struct rd_sync;

/* rd_member_fill_fn for rd_fib_commit; ctx is the struct rd_sync. An
 * unresolved gateway on a usable link is queued for a probe. */
void rd_fill_member(void *ctx, struct rocedp_member *m);
/* Probe the queued neighbours (at most one per PROBE_INTERVAL_NS each). */
void rd_run_probes(struct rd_sync *s);
/* Netlink attribute counters into the stats; warn once of unknown ones. */
void rd_report_unknown(struct rd_sync *s);
uint64_t rd_counts_total(const struct rd_fib_counts *c);
/* Take (lock) or release the writers' lock: -errno, or 1 when the caller's
 * commit must be full (the maps were read again after a hand-off, which
 * may have been served while waiting for the lock), else 0. */
int rd_writers_lock(struct rd_sync *s, bool lock);

#endif
