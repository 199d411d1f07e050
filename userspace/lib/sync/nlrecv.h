/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading netlink from the kernel only. Any process with CAP_NET_ADMIN in
 * the namespace (zebra, a container sharing it) can send to the rtnetlink
 * groups, and any process can send to a socket's port; libmnl 1.0.4 also
 * trusts nlmsg_len (mnl_nlmsg_ok compares it as int, so 0xfffffff0 passes
 * and the walk runs off the buffer). So every datagram is read with
 * recvmsg, kept only when its sender is the kernel (nl_pid 0), and only
 * when every message's length fits what is left of it. No libmnl here:
 * rocegen uses it too.
 */
#ifndef ROCEDP_NLRECV_H
#define ROCEDP_NLRECV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rd_nl_guard {
	uint64_t refused; /* datagrams dropped: not the kernel's, or malformed */
	uint64_t foreign; /* of those: from another process */
	uint64_t logged; /* refused at the last log line */
	uint64_t log_ns; /* when it was printed */
	const char *who; /* log prefix ("sync"), NULL: "netlink" */
};

/*
 * Receive one datagram into buf (recvmsg flags as given). A refused one is
 * counted in g (may be NULL), logged at most every 10 s, and skipped: the
 * next one is read. Returns its length (> 0), 0 at EOF, or -errno (-EAGAIN
 * on an empty non-blocking socket; -ENOBUFS for a kernel datagram larger
 * than buf, lost as in an overrun). With MSG_DONTWAIT it also returns
 * -EAGAIN after 1024 refused datagrams in a row, so that a flood of
 * forgeries cannot hold an event loop.
 */
ssize_t rd_nl_recv(int fd, void *buf, size_t len, int flags,
		   struct rd_nl_guard *g);

/*
 * 0 when every nlmsghdr in buf[0..len) has a length of at least its header
 * that fits what is left (a tail shorter than a header is ignored, as the
 * walkers do), else -EBADMSG.
 */
int rd_nl_check_lengths(const void *buf, size_t len);

#endif
