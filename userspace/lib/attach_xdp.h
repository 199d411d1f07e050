/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP attachment through a bpf_link pinned at <pin dir>/links/xdp_<ifindex>
 * (attach_xdp.c): an upgrade is one bpf_link_update, atomic for the frames
 * in flight. -errno.
 */
#ifndef ROCEDP_ATTACH_XDP_H
#define ROCEDP_ATTACH_XDP_H

#include <stdbool.h>

/* Attach prog_fd (native or generic mode), or upgrade the pinned link. */
int rd_xdp_attach(int prog_fd, unsigned int ifindex, bool native);
/* Detach and unpin; 0 when there was no link. */
int rd_xdp_detach(unsigned int ifindex);
/* Is our pinned link there and still on this device? */
bool rd_xdp_present(unsigned int ifindex);

#endif
