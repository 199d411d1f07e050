// SPDX-License-Identifier: GPL-2.0
/* Route entries (routew.h): every write of rd_routes4/6 goes through here. */
#include <errno.h>
#include <sys/socket.h>
#include <bpf/bpf.h>

#include "routew.h"

int rd_routew_put(int fd, const void *key, const struct rocedp_route *v,
		  __u64 flags)
{
	return bpf_map_update_elem(fd, key, v, flags) ? -errno : 0;
}

int rd_routew_del(int fd, const void *key)
{
	return bpf_map_delete_elem(fd, key) && errno != ENOENT ? -errno : 0;
}

void rd_prefix_mask(uint8_t *addr, uint8_t family, uint8_t plen)
{
	unsigned int bytes = family == AF_INET6 ? 16 : 4, i;

	for (i = 0; i < bytes; i++) {
		if (plen >= 8) {
			plen -= 8;
			continue;
		}
		addr[i] &= (uint8_t)(0xff << (8 - plen));
		plen = 0;
	}
}
