// SPDX-License-Identifier: GPL-2.0
/*
 * The sync daemon's lock and retry pacing (sync_guard.h). The daemon's
 * SIGTERM/SIGINT handlers are installed without SA_RESTART so that a stop
 * request wakes a blocked flock() at once; the loop here turns that EINTR
 * into "wait on" or "stop, write nothing".
 */
#include <errno.h>
#include <poll.h>
#include <sys/file.h>

#include "sync_guard.h"

int rd_lock_wait(int fd, volatile sig_atomic_t *stop, int serve_fd,
		 void (*serve)(void *ctx), void *ctx)
{
	struct pollfd p = { .fd = serve_fd, .events = POLLIN };

	if (fd < 0)
		return -EBADF;
	for (;;) {
		if (stop && *stop)
			return -ECANCELED;
		if (!flock(fd, serve_fd >= 0 ? LOCK_EX | LOCK_NB : LOCK_EX))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK || serve_fd < 0)
			return -errno;
		/* no wake-up on the lock itself: look again every few ms */
		if (poll(&p, 1, RD_LOCK_POLL_MS) > 0)
			serve(ctx);
	}
}

void rd_lock_release(int fd)
{
	if (fd >= 0)
		flock(fd, LOCK_UN);
}

uint64_t rd_backoff_ns(unsigned int failures)
{
	uint64_t ns = RD_BACKOFF_MIN_NS;

	while (failures-- > 1 && ns < RD_BACKOFF_MAX_NS)
		ns *= 2;
	return ns < RD_BACKOFF_MAX_NS ? ns : RD_BACKOFF_MAX_NS;
}
