// SPDX-License-Identifier: GPL-2.0
/*
 * rd_port_l2 has one writer, this module (called by attach): the ingress
 * port's own MAC, for the dataplane's other-host check (docs/maps.md).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/bpf.h>

#include "rocedp.h"
#include "mapset.h"
#include "portl2.h"

int rd_dev_mac(__u32 ifindex, __u8 *mac)
{
	struct ifreq ifr;
	int fd, err = 0;

	memset(&ifr, 0, sizeof(ifr));
	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	else if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER)
		err = -EAFNOSUPPORT;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

int rd_port_l2_set(int fd, __u32 ifindex)
{
	struct rocedp_port_l2 l2 = {};
	int err;

	if (ifindex >= ROCEDP_PORT_SLOTS)
		return -E2BIG;
	err = rd_dev_mac(ifindex, l2.mac);
	if (!err)
		l2.flags = ROCEDP_PORTL2F_MAC;
	else if (err != -EAFNOSUPPORT)
		return err;
	return bpf_map_update_elem(fd, &ifindex, &l2, 0) ? -errno : 0;
}

/*
 * Offline (replay): no device to ask, so a port's MAC is what the config's
 * members that leave by it send from (their smac). A port whose members
 * disagree, or that already has an entry, is left alone.
 */
int rd_port_l2_learn(const struct rd_maps *m)
{
	static struct rocedp_group g;
	static __u8 mac[ROCEDP_PORT_SLOTS][6];
	static __u8 state[ROCEDP_PORT_SLOTS]; /* 0 none, 1 one MAC, 2 clash */
	static const __u8 zero[6];
	struct rocedp_port_l2 l2;
	__u32 key, *prev = NULL, ifx;
	int fdg = m->fd[RD_MAP_GROUPS], fdl = m->fd[RD_MAP_PORT_L2], n = 0;
	unsigned int i;

	memset(state, 0, sizeof(state));
	while (!bpf_map_get_next_key(fdg, prev, &key)) {
		prev = &key;
		if (bpf_map_lookup_elem(fdg, &key, &g))
			continue; /* deleted meanwhile */
		for (i = 0; i < g.n_members && i < ROCEDP_MAX_MEMBERS; i++) {
			ifx = g.members[i].ifindex;
			if (ifx >= ROCEDP_PORT_SLOTS ||
			    !memcmp(g.members[i].smac, zero, 6))
				continue;
			if (!state[ifx]) {
				memcpy(mac[ifx], g.members[i].smac, 6);
				state[ifx] = 1;
			} else if (memcmp(mac[ifx], g.members[i].smac, 6)) {
				state[ifx] = 2;
			}
		}
	}
	for (ifx = 0; ifx < ROCEDP_PORT_SLOTS; ifx++) {
		if (state[ifx] != 1)
			continue;
		if (!bpf_map_lookup_elem(fdl, &ifx, &l2) &&
		    (l2.flags & ROCEDP_PORTL2F_MAC))
			continue;
		memset(&l2, 0, sizeof(l2));
		memcpy(l2.mac, mac[ifx], 6);
		l2.flags = ROCEDP_PORTL2F_MAC;
		if (bpf_map_update_elem(fdl, &ifx, &l2, 0))
			return -errno;
		n++;
	}
	return n;
}
