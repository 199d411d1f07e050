// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink fuzzer (docs/fuzz.md, "The netlink fuzzer"): what the kernel
 * could send rocedp sync, mutated, through the daemon's own message
 * handling (userspace/lib/sync/sync.c, rd_sync_feed) and commits, onto the maps of
 * an offline engine pinned in a scratch directory. The daemon runs in a
 * network namespace of its own, so no real event reaches it and a resync
 * dumps an empty kernel.
 *
 * An input is a list of records: a selector byte (the message type: NEW or
 * DEL of link, neighbour, route, nexthop; 8 and 9 are actions), a 16-bit
 * little-endian length and the payload, i.e. a message without its
 * nlmsghdr. The harness writes the header, so the framing is always valid
 * and the mutations land in the headers and attributes the daemon parses.
 * Selector 8 hands the messages so far to the daemon as one batch, 9 also
 * runs a full resync. Seeds (tests/harness/fuzz/nl_seeds.py) are real dumps.
 *
 * After every batch: no crash or sanitizer report; every route in the maps
 * that is not LOCAL points to a group that exists; no group is left that
 * no route uses. After a resync against the empty namespace: the maps
 * hold no route and no group.
 *
 * With ROCEDP_FUZZ_NL_SEND=1 (tests/harness/fuzz/nl_socket.sh) there is no
 * daemon here: each batch goes as one datagram to the rtnetlink groups
 * from a socket of this process, to a real `rocedp sync` running in the
 * same namespace, as anyone with CAP_NET_ADMIN there can send. Each input
 * also goes out once as it is, unframed, so that nlmsg_len takes any
 * value. The script checks the daemon afterwards.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>
#include "engine.h"
#include "pindir.h"
#include "fuzz_common.h"
#include "sync.h"
#include "sync_owner.h"

static const uint16_t types[8] = {
	RTM_NEWLINK,  RTM_DELLINK,  RTM_NEWNEIGH,   RTM_DELNEIGH,
	RTM_NEWROUTE, RTM_DELROUTE, RTM_NEWNEXTHOP, RTM_DELNEXTHOP,
};

static struct rd_engine *eng;
static struct rd_sync *sync_;
static char pin_dir[64];
static int fd4, fd6, fdg;
static uint64_t n_exec, n_msgs, n_batches, n_resyncs;
static uint8_t batch[1 << 17];
static size_t batch_len;
/* send mode: the socket, datagrams sent and refused by the kernel */
static int send_fd = -1;
static uint64_t n_sent, n_send_err;

static void send_dgram(const void *buf, size_t len)
{
	/* the groups `rocedp sync` joins that fit nl_groups (NEXTHOP is 32) */
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = RTMGRP_LINK | RTMGRP_NEIGH | RTMGRP_IPV4_ROUTE |
			     RTMGRP_IPV6_ROUTE,
	};

	if (sendto(send_fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)) >=
	    0) {
		n_sent++;
		return;
	}
	if (errno == EPERM) {
		fprintf(stderr,
			"%s: sending to the rtnetlink groups needs CAP_NET_ADMIN\n",
			fz_name);
		exit(2);
	}
	n_send_err++; /* ENOBUFS and the like: the next one may pass */
}

static bool used[ROCEDP_MAX_GROUPS];
static unsigned int n_routes;

/* A route that is not LOCAL has its group. */
static void route_seen(uint8_t family, uint8_t plen, const void *addr,
		       const struct rocedp_route *v, void *ctx)
{
	static struct rocedp_group g;

	(void)family, (void)plen, (void)addr, (void)ctx;
	n_routes++;
	if (v->flags & ROCEDP_ROUTEF_LOCAL)
		return;
	if (v->group_id >= ROCEDP_MAX_GROUPS ||
	    bpf_map_lookup_elem(fdg, &v->group_id, &g))
		fz_fail("a route's group %u is missing", v->group_id);
	used[v->group_id] = true;
}

/* Routes that are not LOCAL have their group; every group has a route. */
static void check_maps(bool empty)
{
	unsigned int n;

	memset(used, 0, sizeof(used));
	n_routes = 0;
	fz_each_route(fd4, fd6, route_seen, NULL);
	n = n_routes + fz_groups_all_used(fdg, used);
	if (empty && n)
		fz_fail("after a resync of an empty kernel, %u entries are left",
			n);
}

static void flush(void)
{
	uint8_t *exact;

	if (!batch_len)
		return;
	if (send_fd >= 0) {
		send_dgram(batch, batch_len);
		batch_len = 0;
		n_batches++;
		return;
	}
	/* a heap copy of the exact size: ASan sees any read past the end */
	exact = malloc(batch_len);
	if (!exact)
		abort();
	memcpy(exact, batch, batch_len);
	if (rd_sync_feed(sync_, exact, batch_len))
		fz_fail("the harness framed a batch the daemon could not read");
	free(exact);
	batch_len = 0;
	n_batches++;
	check_maps(false);
}

static void resync(void)
{
	flush();
	if (send_fd >= 0)
		return; /* the daemon over there resyncs when it must */
	if (rd_sync_resync(sync_))
		fz_fail("resync of the empty namespace failed");
	n_resyncs++;
	check_maps(true);
}

/* The pins and the daemon's lock file: gone once the daemon holds its fds. */
static void unpin(void)
{
	char path[PATH_MAX];
	int i;

	if (!rd_sync_lock_path(pin_dir, path, sizeof(path)))
		unlink(path);
	for (i = 0; i < RD_MAP_MAX; i++) {
		snprintf(path, sizeof(path), "%s/%s", pin_dir, rd_map_names[i]);
		unlink(path);
	}
	rmdir(pin_dir);
}

static void at_exit(void)
{
	if (send_fd >= 0) {
		fprintf(stderr,
			"%s: %" PRIu64 " executions, %" PRIu64
			" invariant failures\n"
			"%s: %" PRIu64 " messages in %" PRIu64
			" batches; %" PRIu64 " datagrams sent, %" PRIu64
			" not taken\n",
			fz_name, n_exec, fz_failures, fz_name, n_msgs,
			n_batches, n_sent, n_send_err);
		return;
	}
	if (sync_)
		rd_sync_close(sync_);
	fprintf(stderr,
		"fuzz-nl: %" PRIu64 " executions, %" PRIu64
		" invariant failures\n"
		"fuzz-nl: %" PRIu64 " messages in %" PRIu64 " batches, %" PRIu64
		" resyncs\n",
		n_exec, fz_failures, n_msgs, n_batches, n_resyncs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rd_sync_opts so = { 0 };
	struct rd_engine_opts o = { 0 };
	const struct rd_maps *m;
	char path[PATH_MAX];
	int err, i;

	(void)argc;
	(void)argv;
	if (getenv("ROCEDP_FUZZ_NL_SEND")) {
		fz_name = "fuzz-nl-send";
		send_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				 NETLINK_ROUTE);
		if (send_fd < 0) {
			perror("netlink socket");
			exit(2);
		}
		atexit(at_exit);
		return 0;
	}
	fz_name = "fuzz-nl";
	eng = fz_engine_open(&o);
	m = rd_engine_maps(eng);
	fd4 = m->fd[RD_MAP_ROUTES4];
	fd6 = m->fd[RD_MAP_ROUTES6];
	fdg = m->fd[RD_MAP_GROUPS];
	snprintf(pin_dir, sizeof(pin_dir), "/sys/fs/bpf/rdfz-nl-%d", getpid());
	if (mkdir(pin_dir, 0700)) {
		perror(pin_dir);
		exit(2);
	}
	for (i = 0; i < RD_MAP_MAX; i++) {
		snprintf(path, sizeof(path), "%s/%s", pin_dir, rd_map_names[i]);
		if (bpf_obj_pin(m->fd[i], path)) {
			perror(path);
			unpin();
			exit(2);
		}
	}
	/* a namespace of our own: no real event, an empty dump */
	if (unshare(CLONE_NEWNET)) {
		perror("unshare(CLONE_NEWNET)");
		exit(2);
	}
	so.pin_dir = pin_dir;
	err = rd_sync_open(&sync_, &so);
	/* a crash leaves nothing behind: the daemon has its fds now */
	unpin();
	if (err || rd_sync_resync(sync_))
		exit(2);
	atexit(at_exit);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nlmsghdr *nlh;
	size_t off = 0, len;
	unsigned int sel;

	n_exec++;
	/* as it is: whatever its first bytes say nlmsg_len is */
	if (send_fd >= 0 && size >= NLMSG_HDRLEN)
		send_dgram(data, size);
	while (off + 3 <= size) {
		sel = data[off];
		len = data[off + 1] | data[off + 2] << 8;
		off += 3;
		if (len > size - off)
			len = size - off;
		switch (sel % 10) {
		case 8:
			flush();
			break;
		case 9:
			resync();
			break;
		default:
			if (batch_len + NLMSG_ALIGN(NLMSG_HDRLEN + len) >
			    sizeof(batch))
				flush();
			nlh = (struct nlmsghdr *)(batch + batch_len);
			memset(nlh, 0, NLMSG_HDRLEN);
			nlh->nlmsg_len = NLMSG_HDRLEN + len;
			nlh->nlmsg_type = types[sel % 10];
			nlh->nlmsg_seq = ++n_msgs;
			memcpy(NLMSG_DATA(nlh), data + off, len);
			/* the kernel pads to 4 bytes with zeros */
			memset((uint8_t *)NLMSG_DATA(nlh) + len, 0,
			       NLMSG_ALIGN(len) - len);
			batch_len += NLMSG_ALIGN(NLMSG_HDRLEN + len);
		}
		off += sel % 10 >= 8 ? 0 : len;
	}
	/* every input ends with a resync: the next starts from empty maps */
	resync();
	return 0;
}
