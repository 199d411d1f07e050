// SPDX-License-Identifier: GPL-2.0
/*
 * Hop sets and group ids of the FIB model: canonical slot order, one
 * reference-counted group per hop set, ids adopted from the maps or
 * allocated from the top, and a group's map value (the buckets are built
 * by rd_group_build, buckets.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rocedp.h"
#include "group_hops.h"

static int hop_cmp(const void *a, const void *b)
{
	const struct rd_hop *x = a, *y = b;
	int c;

	if (x->ifindex != y->ifindex)
		return x->ifindex < y->ifindex ? -1 : 1;
	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	c = memcmp(x->gw, y->gw, sizeof(x->gw));
	if (c)
		return c;
	return (int)x->weight - (int)y->weight;
}

uint64_t rd_fib_hops_hash(const struct rd_hop *h, int n)
{
	uint64_t v = RD_FNV_INIT;
	int i;

	for (i = 0; i < n; i++) {
		v = rd_fnv1a(v, &h[i].ifindex, 4);
		v = rd_fnv1a(v, h[i].gw, 16);
		v = rd_fnv1a(v, &h[i].weight, 2);
		v = rd_fnv1a(v, &h[i].family, 1);
	}
	return v;
}

/*
 * Sort into slot order and merge repeated next hops (the kernel accepts
 * "nexthop via A nexthop via A"): one slot whose weight is the sum.
 */
int rd_fib_hops_canon(const struct rd_hop *in, int n, struct rd_hop *out,
		      uint8_t *slot_of)
{
	int i, j, k = 0;

	for (i = 0; i < n; i++) {
		out[i] = in[i];
		out[i].pad = 0;
		if (out[i].family != AF_INET6)
			memset(&out[i].gw[1], 0, 12);
		if (!out[i].weight)
			out[i].weight = 1;
	}
	qsort(out, n, sizeof(*out), hop_cmp);
	for (i = 0; i < n; i++) {
		if (k && out[k - 1].ifindex == out[i].ifindex &&
		    out[k - 1].family == out[i].family &&
		    !memcmp(out[k - 1].gw, out[i].gw, 16)) {
			uint32_t w = out[k - 1].weight + out[i].weight;

			out[k - 1].weight = w > 0xffff ? 0xffff : w;
			continue;
		}
		out[k++] = out[i];
	}
	/* where each given hop landed: a kernel bucket table names them */
	for (i = 0; slot_of && i < n; i++)
		for (j = 0; j < k; j++)
			if (out[j].ifindex == in[i].ifindex &&
			    out[j].family == in[i].family &&
			    (out[j].family == AF_INET6 ?
				     !memcmp(out[j].gw, in[i].gw, 16) :
				     out[j].gw[0] == in[i].gw[0])) {
				slot_of[i] = j;
				break;
			}
	return k;
}

static bool id_taken(struct rd_fib *f, uint32_t id, bool allow_garbage)
{
	if (f->gid[id] || f->gstatic[id])
		return true;
	if (!f->inst[id])
		return false;
	/* a group in the map no route uses any more is garbage to reuse */
	return !(allow_garbage && !f->inst_refs[id]);
}

static int group_alloc_id(struct rd_fib *f, uint64_t key, int n,
			  const struct rd_hop *hops)
{
	struct rd_hop mh[ROCEDP_MAX_MEMBERS];
	int id, pass, i;

	/* adopt the id a previous run gave this hop set: nothing to rewrite */
	for (id = 1; id < ROCEDP_MAX_GROUPS; id++) {
		const struct rocedp_group *g = f->inst[id];

		if (!g || f->gid[id] || f->gstatic[id] ||
		    f->inst_key[id] != key || g->n_members != n)
			continue;
		for (i = 0; i < n; i++) {
			memset(&mh[i], 0, sizeof(mh[i]));
			mh[i].ifindex = g->members[i].ifindex;
			mh[i].weight = g->members[i].weight;
			mh[i].family = g->members[i].nh_family;
			memcpy(mh[i].gw, g->members[i].nh_addr, 16);
		}
		if (!memcmp(mh, hops, n * sizeof(*hops)))
			return id;
	}
	/*
	 * Allocate from the top: config files number their static groups
	 * from 1, so the two rarely meet. Id 0 stays unused (LOCAL routes).
	 */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < ROCEDP_MAX_GROUPS - 1; i++) {
			/*
			 * Rotate instead of taking the lowest free id: an id
			 * freed just now may still sit in flowlet entries.
			 */
			id = f->next_id - i;
			if (id <= 0)
				id += ROCEDP_MAX_GROUPS - 1;
			if (!id_taken(f, id, pass)) {
				f->next_id = id > 1 ? id - 1 :
						      ROCEDP_MAX_GROUPS - 1;
				return id;
			}
		}
	return -ENOSPC;
}

/* A kernel table changed in place: same group id, new value. */
static void group_set_res(struct rd_fgroup *g, const struct rd_res *res)
{
	if (!res || !res->nb)
		return;
	if (g->res_nb == res->nb && !memcmp(g->res_tab, res->tab, res->nb))
		return;
	if (g->res_nb != res->nb) {
		uint8_t *t = realloc(g->res_tab, res->nb);

		if (!t)
			return; /* keeps the old table */
		g->res_tab = t;
		g->res_nb = res->nb;
	}
	memcpy(g->res_tab, res->tab, res->nb);
	g->dirty = true;
}

struct rd_fgroup *rd_fib_group_get(struct rd_fib *f, const struct rd_hop *hops,
				   int n, const struct rd_res *res, int *err)
{
	uint64_t key = rd_fib_hops_hash(hops, n);
	uint32_t res_id = res ? res->id : 0;
	struct rd_ht_node *e;
	struct rd_fgroup *g;
	int id;

	for (e = f->groups.b[key & f->groups.mask]; e; e = e->next) {
		g = (struct rd_fgroup *)e;
		if (e->hash == key && g->n == n && g->res_id == res_id &&
		    !memcmp(g->hops, hops, n * sizeof(*hops))) {
			g->refcnt++;
			group_set_res(g, res);
			return g;
		}
	}
	id = group_alloc_id(f, key, n, hops);
	if (id < 0) {
		*err = id;
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		*err = -ENOMEM;
		return NULL;
	}
	g->id = id;
	g->refcnt = 1;
	g->n = n;
	g->dirty = true;
	memcpy(g->hops, hops, n * sizeof(*hops));
	g->res_id = res_id;
	group_set_res(g, res);
	rd_ht_add(&f->groups, &g->node, key);
	f->gid[id] = g;
	return g;
}

int rd_fib_group_move(struct rd_fib *f, struct rd_fgroup *g)
{
	struct rd_ht_node *e;
	size_t i;
	int id;

	id = group_alloc_id(f, g->node.hash, g->n, g->hops);
	if (id < 0)
		return id;
	if (f->gid[g->id] == g)
		f->gid[g->id] = NULL;
	g->id = id;
	g->dirty = true;
	f->gid[id] = g;
	rd_ht_for_each(&f->prefixes, i, e)
	{
		struct rd_fprefix *p = (struct rd_fprefix *)e;

		if (p->grp == g) {
			p->want_val.group_id = id;
			rd_fib_prefix_dirty(f, p);
		}
	}
	return 0;
}

void rd_fib_group_put(struct rd_fib *f, struct rd_fgroup *g)
{
	if (!g || --g->refcnt)
		return;
	/* the map entry goes in the commit, after no route uses it */
	rd_ht_del(&f->groups, &g->node);
	f->gid[g->id] = NULL;
	free(g->res_tab);
	free(g);
}

void rd_fgroup_value(const struct rd_fgroup *g, rd_member_fill_fn fill,
		     void *ctx, struct rocedp_group *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->n_members = g->n;
	if (g->res_tab) {
		out->n_buckets = g->res_nb;
		out->bucket_src = ROCEDP_BUCKETS_KERNEL;
		memcpy(out->buckets, g->res_tab, g->res_nb);
		memset(out->buckets + g->res_nb, ROCEDP_BUCKET_NONE,
		       sizeof(out->buckets) - g->res_nb);
	}
	for (i = 0; i < g->n; i++) {
		struct rocedp_member *m = &out->members[i];

		m->ifindex = g->hops[i].ifindex;
		m->weight = g->hops[i].weight;
		m->nh_family = g->hops[i].family;
		memcpy(m->nh_addr, g->hops[i].gw, sizeof(m->nh_addr));
		if (fill)
			fill(ctx, m);
	}
	rd_group_build(out);
}
