/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocedp sync, the daemon (sync.c): keep rd_routes4/6, the groups,
 * rd_tx_ports and rd_port_cfg equal to the kernel's routing view. Links,
 * neighbours, nexthop objects and routes from a dump and then from events
 * are turned into calls of the FIB model (group.h), which writes the maps.
 * The module map is in docs/design.md (Sync modules).
 */
#ifndef ROCEDP_SYNC_H
#define ROCEDP_SYNC_H

#include <stddef.h>
#include "sync_opts.h"

struct rd_sync;

/* Open pinned maps and netlink sockets, subscribe, but do not dump yet. */
int rd_sync_open(struct rd_sync **out, const struct rd_sync_opts *opts);
/*
 * Full dump of the kernel's state and diff-commit into the maps. An
 * interrupted dump is retried with a backoff until one completes;
 * -ECANCELED when opts.stop was set first (nothing written then).
 */
int rd_sync_resync(struct rd_sync *s);
/*
 * Handle events for up to timeout_ms (-1: wait for the first batch).
 * -EIDRM: the maps are no longer the pinned ones (detached): stop.
 */
int rd_sync_poll(struct rd_sync *s, int timeout_ms);
int rd_sync_event_fd(struct rd_sync *s);
/* The pin directory this sync writes. */
const char *rd_sync_pin_dir(const struct rd_sync *s);
/* Record this process as the lock's holder (after daemon() forked it). */
void rd_sync_note_owner(struct rd_sync *s);
void rd_sync_set_latency_fn(struct rd_sync *s, rd_sync_latency_fn fn,
			    void *ctx);
void rd_sync_get_stats(struct rd_sync *s, struct rd_sync_stats *st);
/*
 * Tests and fuzzing: handle the netlink messages in buf as if they had come
 * in on the event socket, then commit. -EBADMSG when the framing is bad
 * (what came before was handled).
 */
int rd_sync_feed(struct rd_sync *s, const void *buf, size_t len);
void rd_sync_close(struct rd_sync *s);

#endif
