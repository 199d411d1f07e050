/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel view of rocedp sync (sync_view.c): links, neighbours, nexthop
 * objects and routes as netlink last stated them, in hash tables held by
 * struct rd_sync (sync_state.h). Only lookups, inserts and deletes here:
 * what a change means for the maps is decided in sync_route.c and
 * sync_msg.c. Writes no map.
 */
#ifndef ROCEDP_SYNCVIEW_H
#define ROCEDP_SYNCVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>
#include "group.h"

struct slink {
	struct slink *next;
	uint32_t ifindex;
	uint32_t flags; /* IFF_* */
	uint16_t type; /* ARPHRD_* */
	bool has_addr;
	uint8_t addr[6];
	char name[IF_NAMESIZE];
};

struct sneigh {
	struct sneigh *next;
	uint32_t ifindex;
	uint8_t family;
	bool has_lladdr;
	bool probe_queued;
	uint16_t state; /* NUD_*, 0 = only known because we probed */
	uint8_t addr[16];
	uint8_t lladdr[6];
	uint64_t last_probe_ns;
};

struct snh_member {
	uint32_t id;
	uint16_t weight;
};

/* A nexthop object (ip nexthop): a single next hop or a group of them. */
struct snh {
	struct snh *next;
	uint32_t id;
	bool is_group;
	bool unusable; /* blackhole, fdb, encap: the kernel's business */
	bool has_gw;
	uint8_t family;
	uint32_t ifindex;
	uint32_t gw[4];
	uint16_t n_grp;
	struct snh_member *grp;
	uint16_t res_nb; /* resilient: bucket count, res_nh[b] the nh id */
	bool res_dirty; /* a bucket changed: routes re-applied at commit */
	bool hit; /* rd_nh_changed: is or holds the nexthop that changed */
	uint32_t *res_nh;
};

/* One kernel route of a prefix; several differ by table, metric, tos. */
struct svar {
	struct svar *next;
	uint32_t table, metric;
	uint8_t type, tos;
	bool alias; /* IPv4 "append" hid a second route behind this one */
	uint32_t nh_id;
	int n_hops;
	struct rd_hop *hops; /* family 0: no gateway (connected) */
};

struct sroute {
	struct sroute *next;
	uint8_t family, plen;
	uint8_t addr[16];
	struct svar *vars;
};

struct rd_sync;

struct slink *rd_link_find(struct rd_sync *s, uint32_t ifindex);
/* A member on this link can carry frames now. */
bool rd_link_usable(const struct slink *l);
void rd_link_del(struct rd_sync *s, uint32_t ifindex);

struct sneigh *rd_neigh_find(struct rd_sync *s, uint32_t ifindex,
			     uint8_t family, const void *addr16);
/* rd_neigh_find, or a new entry (state 0) when there is none; NULL: ENOMEM. */
struct sneigh *rd_neigh_get(struct rd_sync *s, uint32_t ifindex, uint8_t family,
			    const void *addr16);
/* Unlink and free n; a queued probe of it is dropped. */
void rd_neigh_del(struct rd_sync *s, struct sneigh *n);
bool rd_neigh_resolved(const struct sneigh *n);

struct snh *rd_nh_find(struct rd_sync *s, uint32_t id);
void rd_nh_del(struct rd_sync *s, uint32_t id);

struct sroute *rd_route_find(struct rd_sync *s, uint8_t family, uint8_t plen,
			     const uint8_t *addr, bool create);
void rd_var_free(struct rd_sync *s, struct svar *v);
void rd_route_free_if_empty(struct rd_sync *s, struct sroute *r);

/* Forget the whole view (before a dump, at close). */
void rd_clear_kernel_view(struct rd_sync *s);

#endif
