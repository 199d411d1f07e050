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
