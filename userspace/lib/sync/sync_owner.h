/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one `rocedp sync` of a pin directory (sync_owner.c): its lock file,
 * which also records the holder's pid, so that
 * `detach --all` can stop a daemon that would otherwise outlive the pins
 * it serves (and keep a deleted netns alive through its sockets).
 */
#ifndef ROCEDP_SYNCOWNER_H
#define ROCEDP_SYNCOWNER_H

#include <stddef.h>
#include <sys/types.h>

/* How long detach waits for a sync it stopped (a resync stops at once). */
#define RD_SYNC_STOP_TIMEOUT_MS 10000

/* The lock file of pin directory dir, in ROCEDP_RUN_DIR: one per (dev, inode). */
int rd_sync_lock_path(const char *dir, char *buf, size_t len);
/*
 * Take the lock of pin directory dir and record this process in it.
 * *fd: the lock, held while it stays open; path: its file, which the
 * holder removes as it lets go (rd_sync_owner_release), so that no lock
 * file outlives its sync. -EWOULDBLOCK: another sync holds it.
 */
int rd_sync_owner_take(const char *dir, int *fd, char *path, size_t len);
/* Remove the lock file (if it is still fd's) and let the lock go. */
void rd_sync_owner_release(int fd, const char *path);
/* Record this process again (the daemon, after daemon() forked it). */
int rd_sync_owner_note(int fd);
/*
 * Stop the sync holding dir's lock, if one does, and remove the lock file.
 * SIGTERM, then up to timeout_ms for it to let the lock go and exit. 0: none runs
 * any more (*pid: the one stopped, else 0). -ESRCH: the lock is held but
 * names no process that has it open (a version before the pid was
 * recorded). -ETIMEDOUT: *pid did not stop.
 */
int rd_sync_owner_stop(const char *dir, int timeout_ms, pid_t *pid);

/*
 * The lock file's word after the pid: its sync moves rd_route_gen with
 * every route it writes (routew.h). A sync from before the decision
 * cache records its pid alone.
 */
#define RD_SYNC_OWNER_GEN "route_gen"
/*
 * 1: no sync holds dir's lock, or the one that does moves the route
 * generation; 0: an older sync holds it (attach then keeps the decision
 * cache off, ROCEDP_ROUTE_GEN_MARK).
 */
int rd_sync_owner_moves_gen(const char *dir);

#endif
