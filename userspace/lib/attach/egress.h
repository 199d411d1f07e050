/* SPDX-License-Identifier: GPL-2.0 */
/* Frames rocedp redirects that the egress veth drops (egress.c). */
#ifndef ROCEDP_EGRESS_H
#define ROCEDP_EGRESS_H

#include <stdbool.h>
#include "rocedp.h"

/* At attach: warn on stderr when a native-XDP veth port's peer can take no
 * redirects (no XDP program, GRO off). Silent when it can or when the peer
 * cannot be checked. */
void rd_egress_hint(const char *name, unsigned int ifindex, bool native);

/* Frames rocedp redirected to a veth port (sent), frames the veth's peer
 * rings took (took, ethtool tx_queue_N_xdp_xmit) and the peer's receive
 * drops (rx_queue_N_drops; 0 when the peer cannot be reached).
 * -EOPNOTSUPP for a device other than veth. */
int rd_egress_check(const struct rd_maps *m, const char *name,
		    unsigned int ifindex, __u64 *sent, __u64 *took,
		    __u64 *peer_drops);

/* One status line for a port whose veth took fewer frames than rocedp
 * sent it; nothing otherwise. */
void rd_egress_status(const struct rd_maps *m, const char *name,
		      unsigned int ifindex);

/* A veth port's peer: its ifindex and the nsid of its namespace (-1: this
 * one). -EOPNOTSUPP for a device other than veth. */
int rd_veth_peer(const char *name, unsigned int ifindex, int *peer_ifindex,
		 int *nsid);

#endif
