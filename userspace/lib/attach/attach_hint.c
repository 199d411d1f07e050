// SPDX-License-Identifier: GPL-2.0
/*
 * The line `rocedp attach` prints when a driver refuses the XDP program.
 * Most refusals of a frags-aware program are about the MTU (a driver
 * without multi-buffer XDP takes only frames that fit one buffer), so the
 * line names the MTU and the ways out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include "rocedp.h"
#include "attach_hint.h"

/* The device's MTU, or 0 when it cannot be read. */
static int dev_mtu(const char *name)
{
	struct ifreq ifr = {};
	int fd, mtu = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (!ioctl(fd, SIOCGIFMTU, &ifr))
		mtu = ifr.ifr_mtu;
	close(fd);
	return mtu;
}

void rd_attach_refused(const char *name, enum rd_attach_mode mode, int err)
{
	int mtu = dev_mtu(name);

	if (mode == RD_MODE_TC) {
		rd_err("attach", "%s: tc mode: %s", name, strerror(-err));
	} else if (mode == RD_MODE_NATIVE && err == -EOPNOTSUPP) {
		rd_err("attach",
		       "%s: native mode: %s: the driver has no native XDP (MTU %d): use --mode generic or --mode tc",
		       name, strerror(-err), mtu);
	} else if (mode == RD_MODE_NATIVE &&
		   (err == -ERANGE || (err == -EINVAL && mtu > 1500))) {
		/* ERANGE: veth and others; EINVAL: mlx5, i40e, ixgbe */
		rd_err("attach",
		       "%s: native mode: %s: the driver refuses XDP at MTU %d: lower the MTU (ip link set dev %s mtu 1500) or use --mode generic or --mode tc",
		       name, strerror(-err), mtu, name);
	} else {
		rd_err("attach", "%s: %s mode: %s", name, rd_mode_name(mode),
		       strerror(-err));
	}
}
