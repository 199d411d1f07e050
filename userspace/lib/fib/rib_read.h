/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RIB's sources read in (rib_read.c): the config's static routes from
 * the maps, the kernel's routes from a netlink dump, and what the route
 * maps hold now (the FIB rocedp forwards with), to set beside the RIB's
 * choice. Reads only.
 */
#ifndef ROCEDP_RIB_READ_H
#define ROCEDP_RIB_READ_H

#include "mapset.h"
#include "rib.h"

/* The config's static routes (and a sonic sync's: one document). -errno. */
int rd_rib_read_config(struct rd_rib *r, const struct rd_maps *m);
/* The kernel's routes of table (and of table local when local). -errno. */
int rd_rib_read_kernel(struct rd_rib *r, uint32_t table, bool local);

/* One entry of rd_routes4/6 as installed. */
struct rd_rib_fib {
	uint8_t family, plen;
	uint8_t addr[16];
	struct rocedp_route val;
};
/* Every installed route, sorted as the RIB sorts prefixes. -errno. */
int rd_rib_read_fib(const struct rd_maps *m, struct rd_rib_fib **out,
		    unsigned int *n);
/* The installed entry of exactly this prefix, or NULL. */
const struct rd_rib_fib *rd_rib_fib_find(const struct rd_rib_fib *f,
					 unsigned int n, uint8_t family,
					 uint8_t plen, const void *addr);

#endif
