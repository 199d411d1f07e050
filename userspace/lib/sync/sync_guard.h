/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What keeps `rocedp sync` safe under pressure (docs/sync.md, "Under
 * pressure"): the writers' lock taken so that a signal can never let a map
 * write through without it, and the pacing of retried full resyncs.
 */
#ifndef ROCEDP_SYNCGUARD_H
#define ROCEDP_SYNCGUARD_H

#include <signal.h>
#include <stdint.h>

/* Retry pacing: first wait, doubled per failure, never more than the cap. */
#define RD_BACKOFF_MIN_NS (10 * 1000 * 1000ull)
#define RD_BACKOFF_MAX_NS (1000 * 1000 * 1000ull)

/* How often a wait for the lock looks at it while serving (ms). */
#define RD_LOCK_POLL_MS 10

/*
 * flock(fd, LOCK_EX), retried when a signal interrupts the wait, unless
 * *stop (may be NULL) was set meanwhile: then -ECANCELED and no lock.
 * With serve_fd >= 0, serve(ctx) runs whenever serve_fd is readable
 * during the wait: the holder of the lock may be waiting for that.
 * 0 only when the lock is held; any other -errno means it is not.
 */
int rd_lock_wait(int fd, volatile sig_atomic_t *stop, int serve_fd,
		 void (*serve)(void *ctx), void *ctx);
void rd_lock_release(int fd);

/* The wait before retry number failures (1, 2, ...). */
uint64_t rd_backoff_ns(unsigned int failures);

#endif
