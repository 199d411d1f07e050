// SPDX-License-Identifier: GPL-2.0
/* Netlink datagrams from the kernel only, with lengths that fit (nlrecv.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "nlrecv.h"
#include "util.h"

#define LOG_EVERY_NS (10 * 1000000000ull)
/* refused in a row before a MSG_DONTWAIT read gives the caller a turn */
#define REFUSED_TURN 1024

int rd_nl_check_lengths(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t off = 0;
	uint32_t l;

	while (len - off >= NLMSG_HDRLEN) {
		memcpy(&l, p + off, sizeof(l)); /* nlmsg_len, unsigned */
		if (l < NLMSG_HDRLEN || l > len - off)
			return -EBADMSG;
		/* the last message's padding may be missing */
		if (NLMSG_ALIGN(l) >= len - off)
			break;
		off += NLMSG_ALIGN(l);
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void refuse(struct rd_nl_guard *g, uint32_t pid, const char *why)
{
	uint64_t t;

	if (!g)
		return;
	g->refused++;
	if (pid)
		g->foreign++;
	t = now_ns();
	/* the first at once, then one line per 10 s at most */
	if (g->logged && t - g->log_ns < LOG_EVERY_NS)
		return;
	/* a warning in the journal (<4>), plain on a terminal */
	fprintf(stderr,
		"%s%s: refused %" PRIu64 " netlink datagram(s) (%" PRIu64
		" in all): %s (sender port %u); only the kernel is believed\n",
		rd_log_prio(4), g->who ? g->who : "netlink",
		g->refused - g->logged, g->refused, why, pid);
	g->logged = g->refused;
	g->log_ns = t;
}

ssize_t rd_nl_recv(int fd, void *buf, size_t len, int flags,
		   struct rd_nl_guard *g)
{
	struct sockaddr_nl sa;
	struct iovec iov;
	struct msghdr mh;
	unsigned int skipped = 0;
	ssize_t n;

	for (;; skipped++) {
		/* a flood of forgeries must not keep an event loop here */
		if ((flags & MSG_DONTWAIT) && skipped >= REFUSED_TURN)
			return -EAGAIN;
		memset(&sa, 0, sizeof(sa));
		iov.iov_base = buf;
		iov.iov_len = len;
		memset(&mh, 0, sizeof(mh));
		mh.msg_name = &sa;
		mh.msg_namelen = sizeof(sa);
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		n = recvmsg(fd, &mh, flags);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		if (mh.msg_namelen < sizeof(sa) || sa.nl_family != AF_NETLINK ||
		    sa.nl_pid != 0) {
			refuse(g, sa.nl_pid, "not from the kernel");
			continue;
		}
		/* the kernel's, cut short: lost like an overrun */
		if (mh.msg_flags & MSG_TRUNC)
			return -ENOBUFS;
		if (rd_nl_check_lengths(buf, n)) {
			refuse(g, 0, "a message length that does not fit");
			continue;
		}
		return n;
	}
}
