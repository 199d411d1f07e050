/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thin libmnl helpers for rtnetlink: a socket that either dumps (request /
 * reply) or listens to multicast groups, and attribute parsing that counts
 * what it does not know instead of tripping over it.
 */
#ifndef ROCEDP_NL_H
#define ROCEDP_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include "group_types.h"
#include "nlrecv.h"

struct rd_nl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	char *buf;
	size_t buflen;
	uint64_t unknown_attrs; /* attribute types above our header's max */
	uint64_t bad_attrs; /* known types with a wrong payload length */
	struct rd_nl_guard guard; /* datagrams refused: not from the kernel */
};

/*
 * Open a NETLINK_ROUTE socket. groups[] (RTNLGRP_*, may be NULL) are joined
 * with NETLINK_ADD_MEMBERSHIP (groups above 31 do not fit nl_groups).
 * rcvbuf > 0 asks for that receive buffer (forced when privileged), so a
 * burst of events does not overrun the socket. Every read goes through
 * rd_nl_recv (nlrecv.h): only the kernel's datagrams reach a callback;
 * the others are counted in nl->guard (who: its log prefix, may be NULL).
 */
int rd_nl_open(struct rd_nl *nl, const unsigned int *groups, int n_groups,
	       int rcvbuf, const char *who);
void rd_nl_close(struct rd_nl *nl);
int rd_nl_fd(const struct rd_nl *nl);

/*
 * Dump a table: type is RTM_GETLINK/GETNEIGH/GETROUTE/GETNEXTHOP(BUCKET),
 * family AF_UNSPEC/AF_INET/AF_INET6. cb runs on every reply message. Returns 0 or
 * -errno (-EINTR-style "dump interrupted" is reported as -EAGAIN so the
 * caller can restart).
 */
int rd_nl_dump(struct rd_nl *nl, uint16_t type, uint8_t family, mnl_cb_t cb,
	       void *data);

/*
 * Read whatever is queued on a monitoring socket without blocking and run cb
 * on every message. Returns the number of datagrams read, -ENOBUFS when the
 * kernel dropped events (caller must resync), or another -errno.
 */
int rd_nl_drain(struct rd_nl *nl, mnl_cb_t cb, void *data, int max_dgrams);

/*
 * Ask the kernel to resolve a neighbour (RTM_NEWNEIGH with NTF_USE), as a
 * packet through the kernel would. addr is 4 or 16 bytes by family.
 */
int rd_nl_neigh_probe(struct rd_nl *nl, int ifindex, uint8_t family,
		      const void *addr);

/*
 * Parse the attributes after a fixed header of hdrlen bytes into tb[0..max].
 * Types above max are counted in nl->unknown_attrs and skipped.
 */
void rd_nl_parse(struct rd_nl *nl, const struct nlmsghdr *nlh, size_t hdrlen,
		 const struct nlattr **tb, int max);
/* Same for a nested attribute's payload. */
void rd_nl_parse_nested(struct rd_nl *nl, const struct nlattr *nest,
			const struct nlattr **tb, int max);

/* Payload length check: NULL when attr is absent or shorter than len. */
const void *rd_nl_attr_data(struct rd_nl *nl, const struct nlattr *attr,
			    size_t len);
/* u32 attribute, or def when absent or malformed. */
uint32_t rd_nl_attr_u32(struct rd_nl *nl, const struct nlattr *attr,
			uint32_t def);

/*
 * Resilient nexthop groups (kernel 5.13+). The bucket count of a group
 * message (NHA_GROUP_TYPE, NHA_RES_GROUP), 0 when not resilient; and one
 * RTM_NEWNEXTHOPBUCKET message (dump reply or notification): group id,
 * bucket index, the nexthop id it names. -EBADMSG when incomplete.
 */
uint16_t rd_nl_res_buckets(struct rd_nl *nl, const struct nlattr *type,
			   const struct nlattr *res);
int rd_nl_res_bucket(struct rd_nl *nl, const struct nlmsghdr *nlh,
		     uint32_t *group, uint16_t *index, uint32_t *nh);

/*
 * RTA_MULTIPATH of a route of family rt_family into out[] (weight
 * rtnh_hops + 1; RTA_GATEWAY or RTA_VIA as the gateway). Returns the
 * hops read, or max + 1 when there are more than max.
 */
int rd_nl_multipath(struct rd_nl *nl, const struct nlattr *mp,
		    uint8_t rt_family, struct rd_hop *out, int max);

#endif
