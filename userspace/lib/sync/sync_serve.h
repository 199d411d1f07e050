/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocedp sync's side of the static routes' hand-off (sync_serve.c): it
 * listens on the socket config_handoff.h names, and commits a config's
 * static routes and groups for `config load` and `sonic sync`, so that
 * routes and groups have one committer while it runs. The requester holds
 * the writers' lock for the whole request; the daemon serves while it
 * waits for that lock itself (rd_lock_wait), so neither waits on the
 * other. After a request the mirror is read again (s->reload).
 */
#ifndef ROCEDP_SYNCSERVE_H
#define ROCEDP_SYNCSERVE_H

struct rd_sync;

/*
 * Listen on the maps' hand-off socket (once; the caller holds the
 * writers' lock, so no load falls between the socket and the maps read
 * after it). -errno.
 */
int rd_serve_listen(struct rd_sync *s);
/* Serve every request waiting now (none: returns at once). */
void rd_serve_pending(struct rd_sync *s);
/* Stop listening and remove the socket. */
void rd_serve_close(struct rd_sync *s);

#endif
