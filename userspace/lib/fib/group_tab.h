/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The FIB model's tables (group_tab.c), shared by the model's files only
 * (group.c, group_hops.c, group_commit.c): a chained hash table, the
 * prefixes and groups it holds, and struct rd_fib itself. Callers outside
 * the model see struct rd_fib as opaque (group.h).
 */
#ifndef ROCEDP_GROUP_TAB_H
#define ROCEDP_GROUP_TAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rocedp_abi.h"
#include "group_types.h"
#include "groupw.h"

/* ------------------------------------------------------------ hash table */

struct rd_ht_node {
	struct rd_ht_node *next;
	uint64_t hash;
};

struct rd_ht {
	struct rd_ht_node **b;
	size_t mask; /* buckets - 1 */
	size_t n;
};

#define RD_FNV_INIT 0xcbf29ce484222325ull

#define rd_ht_for_each(t, i, e)          \
	for (i = 0; i <= (t)->mask; i++) \
		for (e = (t)->b[i]; e; e = e->next)

uint64_t rd_fnv1a(uint64_t h, const void *p, size_t len);
/* buckets: a power of two; the table doubles as it fills */
int rd_ht_init(struct rd_ht *t, size_t buckets);
void rd_ht_add(struct rd_ht *t, struct rd_ht_node *e, uint64_t hash);
void rd_ht_del(struct rd_ht *t, struct rd_ht_node *e);

/* ------------------------------------------------------------ model */

struct rd_fprefix {
	struct rd_ht_node node; /* first: cast from ht_node */
	uint8_t family, plen;
	uint8_t addr[16];
	bool want; /* the kernel has a route */
	bool stale; /* not seen since rd_fib_begin_full */
	bool dirty; /* on the dirty list */
	bool inst; /* the map holds an entry */
	bool is_static; /* the config's, another process wrote it: hands off */
	bool expl; /* an explicit route (group_static.h): expl_val wins */
	bool pending; /* want, but its write failed: retried every commit */
	bool mark, mark_want; /* covers a pending route: ROUTEF_KERNEL */
	struct rocedp_route want_val, inst_val, expl_val;
	struct rd_fgroup *grp; /* referenced while want and forwarding */
};

struct rd_fgroup {
	struct rd_ht_node node;
	uint32_t id, refcnt;
	bool dirty;
	uint16_t n;
	struct rd_hop hops[ROCEDP_MAX_MEMBERS];
	/* a kernel resilient group (res_id: its nexthop id) brings its own
	 * bucket table, slot per bucket; 0: rocedp builds the table */
	uint32_t res_id;
	uint16_t res_nb;
	uint8_t *res_tab;
};

struct rd_fib {
	struct rd_fib_maps maps;
	struct rd_groupw gw; /* every group write goes through groupw.c */
	struct rd_ht prefixes;
	struct rd_ht groups; /* by hop set */
	struct rd_fgroup *gid[ROCEDP_MAX_GROUPS];
	struct rocedp_group *inst[ROCEDP_MAX_GROUPS]; /* mirror */
	uint64_t inst_key[ROCEDP_MAX_GROUPS]; /* hop-set hash of the mirror */
	uint32_t inst_refs[ROCEDP_MAX_GROUPS]; /* mirror routes using an id */
	bool gstatic[ROCEDP_MAX_GROUPS]; /* an id no hop set may take */
	/* explicit groups (group_static.h): this value, at this id */
	struct rocedp_group *expl[ROCEDP_MAX_GROUPS];
	bool expl_stale[ROCEDP_MAX_GROUPS]; /* the config's, not stated again */
	const char *obj; /* who writes, for messages: "sync", "config" */
	struct rd_fib_fault *fault; /* test builds' hook, else NULL */
	struct rd_fprefix **dirty;
	size_t n_dirty, cap_dirty;
	uint32_t *ports; /* ifindexes with devmap + port_cfg entries */
	size_t n_ports, cap_ports;
	int next_id; /* allocation cursor, counts down */
	unsigned int n_routes; /* prefixes with want */
	uint64_t errors_logged;
	int first_err; /* -errno of the first failed write, 0 = none */
	unsigned int n_pending, n_marked; /* as of the last commit */
	struct rocedp_group scratch;
};

/* Log a failed map write (the first 20, then every 1000th). */
void rd_fib_log_error(struct rd_fib *f, const char *what, int err);
/* The entry of addr/plen (host bits cleared); create: add it when absent. */
struct rd_fprefix *rd_fib_prefix_find(struct rd_fib *f, uint8_t family,
				      uint8_t plen, const void *addr,
				      bool create);
/* Put p on the dirty list (the next commit writes it). */
void rd_fib_prefix_dirty(struct rd_fib *f, struct rd_fprefix *p);

#endif
