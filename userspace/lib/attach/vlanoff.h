/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VLAN tag offloads of an XDP port (vlanoff.c): a NIC that strips the tag
 * on receive hands XDP the frame untagged, and rocedp would route it with
 * the main table. Attach turns the stripping off, detach restores what
 * attach changed (RD_AF_VLAN_*, RD_AF_PEER_* in the record). -errno.
 */
#ifndef ROCEDP_VLANOFF_H
#define ROCEDP_VLANOFF_H

#include <stdbool.h>
#include <stddef.h>

/* One ethtool feature of a device, by its ethtool name. */
struct rd_feature {
	bool on;
	bool fixed; /* the driver does not let it change */
};

int rd_feature_get(const char *ifname, const char *feat, struct rd_feature *f);
int rd_feature_set(const char *ifname, const char *feat, bool on);

/*
 * Turn off what would strip VLAN tags before XDP sees them: the port's
 * rx-vlan-hw-parse and rx-vlan-stag-hw-parse and, for a veth whose peer is
 * in this namespace, the peer's tx-vlan-hw-insert and tx-vlan-stag-hw-insert
 * (a veth hands a tag its peer inserted by offload over outside the frame,
 * whatever its own rx setting). *flags gets a bit for each change. note:
 * a warning for the attach line ("" when none). -EOPNOTSUPP: the port
 * strips tags and cannot be told not to (note says so).
 */
int rd_vlan_offload_off(const char *ifname, unsigned int ifindex,
			unsigned int *flags, char *note, size_t len);
/* A veth whose peer is in another namespace: attach left the peer's tag
 * insert offload as it was (status says what to do there). */
bool rd_vlan_peer_elsewhere(const char *ifname, unsigned int ifindex);
/* Turn back on what rd_vlan_offload_off turned off (flags). */
int rd_vlan_offload_restore(const char *ifname, unsigned int ifindex,
			    unsigned int flags);
/* For status: "off" (rx tag stripping off), "on" (a leak) or "unknown";
 * by_rocedp: attach turned it off. */
const char *rd_vlan_offload_state(const char *ifname, unsigned int flags,
				  bool *by_rocedp);

#endif
