/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink messages of rocedp sync (sync_msg.c): one handler per object
 * (link, neighbour, nexthop, nexthop bucket, route), from a dump or an
 * event. Each updates the kernel view (sync_view.h), chooses the routes it
 * touches again (sync_route.h) and marks what the next commit must write
 * (s->dirty, groups touched by ifindex). Writes no map.
 */
#ifndef ROCEDP_SYNCMSG_H
#define ROCEDP_SYNCMSG_H

#include <linux/netlink.h>
#include "nl.h"

struct rd_sync;

/* RTM_NEWLINK, RTM_DELLINK */
void rd_on_link(struct rd_sync *s, struct rd_nl *nl,
		const struct nlmsghdr *nlh);
/* RTM_NEWNEIGH, RTM_DELNEIGH */
void rd_on_neigh(struct rd_sync *s, struct rd_nl *nl,
		 const struct nlmsghdr *nlh);
/* RTM_NEWNEXTHOP, RTM_DELNEXTHOP */
void rd_on_nexthop(struct rd_sync *s, struct rd_nl *nl,
		   const struct nlmsghdr *nlh);
/* RTM_NEWNEXTHOPBUCKET: from the dump, or the kernel moving a bucket. */
void rd_on_nh_bucket(struct rd_sync *s, struct rd_nl *nl,
		     const struct nlmsghdr *nlh);
/* RTM_NEWROUTE, RTM_DELROUTE */
void rd_on_route(struct rd_sync *s, struct rd_nl *nl,
		 const struct nlmsghdr *nlh);

#endif
