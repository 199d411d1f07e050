/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RIB (rib.c): every route rocedp knows, from every source, each with
 * an administrative distance; per prefix the best one is selected, as
 * zebra selects among its protocols. The selected routes are the FIB.
 * A pure model: it reads and writes no map and no socket (rib_read.h fills
 * it from the maps and the kernel).
 *
 * Selection, per prefix: the lowest distance; then the lowest metric; then
 * the source in enum order (config before sonic before kernel), so the
 * choice never depends on the order routes were added.
 */
#ifndef ROCEDP_RIB_H
#define ROCEDP_RIB_H

#include <stdbool.h>
#include <stdint.h>
#include "group_types.h"

enum rd_rib_src {
	RD_RIB_CONFIG = 0, /* static routes of `rocedp config load` */
	RD_RIB_SONIC, /* routes a `rocedp sonic sync` config carries */
	RD_RIB_KERNEL, /* the kernel's routes (what `rocedp sync` mirrors) */
	RD_RIB_NSRC,
};

/* Administrative distances, FRR's defaults (docs/sync.md, Route sources). */
#define RD_RIB_DIST_CONNECTED 0
#define RD_RIB_DIST_STATIC 1
#define RD_RIB_DIST_EBGP 20
#define RD_RIB_DIST_OSPF 110
#define RD_RIB_DIST_ISIS 115
#define RD_RIB_DIST_RIP 120
#define RD_RIB_DIST_IBGP 200

#define RD_RIB_MAX_HOPS 8 /* next hops kept per route, for display */

struct rd_rib_route {
	uint8_t family, plen;
	uint8_t src; /* enum rd_rib_src */
	uint8_t distance; /* lower wins */
	uint8_t addr[16]; /* host bits clear */
	uint8_t proto; /* the kernel's rtm_protocol (RTPROT_*); 0 else */
	uint8_t n_hops; /* next hops kept (of n_hops_all) */
	uint16_t n_hops_all;
	uint32_t metric; /* the kernel's priority; 0 else */
	uint32_t table; /* the kernel's table; 0 else */
	uint32_t flags; /* ROCEDP_ROUTEF_LOCAL: to the kernel */
	uint32_t group_id; /* config: the group it names; 0 else */
	uint32_t nh_id; /* kernel: its nexthop object (RTA_NH_ID); 0 else */
	struct rd_hop hops[RD_RIB_MAX_HOPS];
};

struct rd_rib;

struct rd_rib *rd_rib_new(void);
void rd_rib_free(struct rd_rib *r);
/* Add r (copied); host bits of r->addr are cleared. 0 or -ENOMEM. */
int rd_rib_add(struct rd_rib *r, const struct rd_rib_route *rt);
/* Remove every route of src (a source replaces its whole set). */
void rd_rib_flush(struct rd_rib *r, enum rd_rib_src src);
unsigned int rd_rib_count(struct rd_rib *r);

/* The selected route of a prefix (exact match), or NULL. */
const struct rd_rib_route *rd_rib_best(struct rd_rib *r, uint8_t family,
				       uint8_t plen, const void *addr);

/*
 * Every route, sorted by family, prefix, then selection order (so the
 * selected one comes first of its prefix); selected says which it is.
 * A callback that returns nonzero stops the walk with that value.
 */
typedef int (*rd_rib_walk_fn)(const struct rd_rib_route *rt, bool selected,
			      void *ctx);
int rd_rib_walk(struct rd_rib *r, rd_rib_walk_fn fn, void *ctx);

/* The distance zebra gives a kernel route of protocol proto (RTPROT_*). */
uint8_t rd_rib_kernel_distance(uint8_t proto);
/* "kernel", "static", "bgp", ... for proto; "config"/"sonic" for those. */
const char *rd_rib_proto_name(const struct rd_rib_route *rt);
const char *rd_rib_src_name(enum rd_rib_src src);

#endif
