/* SPDX-License-Identifier: GPL-2.0 */
/* The ports' own MACs for the dataplane (rd_port_l2); attach writes them. */
#ifndef ROCEDP_PORTL2_H
#define ROCEDP_PORTL2_H

#include <linux/types.h>

/* The MAC of an Ethernet device; -errno, -EAFNOSUPPORT if not Ethernet. */
int rd_dev_mac(__u32 ifindex, __u8 *mac);
/*
 * Record ifindex's own MAC in rd_port_l2 (fd), so unicast frames for other
 * hosts go to the kernel; a device without an Ethernet MAC gets no check.
 */
int rd_port_l2_set(int fd, __u32 ifindex);

struct rd_maps;
/*
 * Offline: each port's MAC from the groups in m (the smac of the members
 * that leave by it; ports whose members disagree get none), into m's
 * rd_port_l2 where it has none, so that a replay checks other-host frames
 * as the live port does. The number of ports learned, or -errno.
 */
int rd_port_l2_learn(const struct rd_maps *m);

#endif
