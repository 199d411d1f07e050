/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe sender of a leaf (probesend.c, `rocedp paths send`): one probe
 * per remote leaf and uplink each interval, out of AF_PACKET, to the
 * addresses the leaf map names, through the members of the route's group
 * (docs/paths.md).
 */
#ifndef ROCEDP_PROBESEND_H
#define ROCEDP_PROBESEND_H

#include "probes.h"

struct rd_probe_sender {
	int fd; /* AF_PACKET */
	struct rd_probe_dest *d;
	unsigned int n; /* destinations: (remote leaf, uplink) pairs */
	unsigned int n_leaves; /* remote leaves reached */
	__u32 seq;
	__u64 sent, bytes, errors;
};

/* Open the socket; 0 or -errno. */
int rd_probe_sender_open(struct rd_probe_sender *s);
void rd_probe_sender_close(struct rd_probe_sender *s);
/*
 * (Re)read the destinations: every rd_leaf4 prefix of another leaf,
 * its first address (the prefix + 1) routed through rd_routes4, one
 * destination per active member of the route's group. src4: this leaf's
 * address, host order. 0 or -errno.
 */
int rd_probe_sender_dests(struct rd_probe_sender *s, const struct rd_maps *m,
			  const struct rocedp_probe_cfg *pc, __u32 src4);
/* One round: a probe to every destination, all under one sequence. */
void rd_probe_sender_round(struct rd_probe_sender *s,
			   const struct rocedp_probe_cfg *pc, __u64 now_ns);

#endif
