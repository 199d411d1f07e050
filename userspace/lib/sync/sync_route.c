// SPDX-License-Identifier: GPL-2.0
/*
 * Route choice of rocedp sync (sync_route.h). The kernel is the source of
 * truth; rocedp only takes over what it can forward exactly like the
 * kernel would: unicast routes whose next hops all have a gateway. Every
 * other route of the synced tables is installed with ROCEDP_ROUTEF_LOCAL.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/rtnetlink.h>

#include "rocedp.h"
#include "sync_state.h"
#include "sync_route.h"
#include "sync_view.h"

/*
 * Re-evaluate every route that uses nexthop id, directly or in a group.
 * When the object was deleted, the kernel dropped the routes using it
 * directly, without telling: drop them too.
 */
void rd_nh_changed(struct rd_sync *s, uint32_t id, bool deleted)
{
	unsigned int b, k;
	struct sroute *r, *rnext;
	struct svar *v, **pp;
	struct snh *h, *vh;
	bool hit;

	s->dirty = true;
	if (!s->nh_vars)
		return; /* no route to re-evaluate: skip the walks */
	/* a flag on the records, not a list: any number of groups */
	for (b = 0; b < NH_BUCKETS; b++)
		for (h = s->nhs[b]; h; h = h->next) {
			h->hit = h->id == id;
			for (k = 0; h->is_group && k < h->n_grp && !h->hit; k++)
				h->hit = h->grp[k].id == id;
		}
	for (b = 0; b < ROUTE_BUCKETS; b++)
		for (r = s->routes[b]; r; r = rnext) {
			rnext = r->next;
			hit = false;
			for (pp = &r->vars; (v = *pp);) {
				vh = v->nh_id ? rd_nh_find(s, v->nh_id) : NULL;
				hit |= v->nh_id == id || (vh && vh->hit);
				if (deleted && v->nh_id == id) {
					*pp = v->next;
					rd_var_free(s, v);
					continue;
				}
				pp = &v->next;
			}
			if (hit) {
				rd_route_apply(s, r);
				rd_route_free_if_empty(s, r);
			}
		}
}

/* The kernel's table in member order (var_hops), refreshed if needed. */
static void nh_res_table(const struct snh *h, struct rd_res *res)
{
	unsigned int b, k;

	res->id = h->id;
	res->nb = h->res_nb;
	for (b = 0; b < h->res_nb && b < ROCEDP_MAX_BUCKETS; b++) {
		res->tab[b] = ROCEDP_BUCKET_NONE;
		for (k = 0; k < h->n_grp; k++)
			if (h->grp[k].id == h->res_nh[b])
				res->tab[b] = k;
	}
}

/* The kernel looks in the local table first, then by metric. */
static bool var_better(const struct svar *a, const struct svar *b)
{
	bool al = a->table == RT_TABLE_LOCAL, bl = b->table == RT_TABLE_LOCAL;

	if (al != bl)
		return al;
	return a->metric < b->metric;
}

/*
 * Hops rocedp may forward over for this route, or -1 when the kernel must
 * handle it (no gateway, blackhole, encap, unknown nexthop object...).
 */
static int var_hops(struct rd_sync *s, const struct svar *v, struct rd_hop *out,
		    int max, struct rd_res *res)
{
	const struct snh *h, *m;
	int i, n = 0;

	if (v->table == RT_TABLE_LOCAL || v->type != RTN_UNICAST)
		return -1;
	if (!v->nh_id) {
		for (i = 0; i < v->n_hops; i++)
			if (!v->hops[i].family)
				return -1;
		if (v->n_hops > max)
			return v->n_hops; /* the FIB refuses, as LOCAL */
		memcpy(out, v->hops, v->n_hops * sizeof(*out));
		return v->n_hops;
	}
	h = rd_nh_find(s, v->nh_id);
	if (!h || h->unusable)
		return -1;
	if (!h->is_group) {
		if (!h->has_gw)
			return -1;
		memset(out, 0, sizeof(*out));
		out->ifindex = h->ifindex;
		out->family = h->family;
		out->weight = 1;
		memcpy(out->gw, h->gw, sizeof(out->gw));
		return 1;
	}
	if (!h->n_grp)
		return -1;
	if (h->n_grp > max)
		return h->n_grp;
	if (h->res_nb && h->res_nb <= ROCEDP_MAX_BUCKETS)
		nh_res_table(h, res);
	for (i = 0; i < h->n_grp; i++) {
		m = rd_nh_find(s, h->grp[i].id);
		if (!m || m->is_group || m->unusable || !m->has_gw)
			return -1;
		memset(&out[n], 0, sizeof(out[n]));
		out[n].ifindex = m->ifindex;
		out[n].family = m->family;
		out[n].weight = h->grp[i].weight;
		memcpy(out[n].gw, m->gw, sizeof(out[n].gw));
		n++;
	}
	return n;
}

void rd_route_apply(struct rd_sync *s, struct sroute *r)
{
	struct rd_hop hops[ROCEDP_MAX_MEMBERS + 1];
	static struct rd_res res;
	struct svar *v, *best = NULL;
	char a[INET6_ADDRSTRLEN];
	int n, err;

	for (v = r->vars; v; v = v->next)
		if (!v->tos && (!best || var_better(v, best)))
			best = v;
	s->dirty = true;
	if (!best) {
		rd_fib_route_del(s->fib, r->family, r->plen, r->addr);
		return;
	}
	res.nb = 0;
	n = var_hops(s, best, hops, ROCEDP_MAX_MEMBERS, &res);
	if (n > ROCEDP_MAX_MEMBERS)
		err = -E2BIG;
	else if (n < 0)
		err = rd_fib_route_set(s->fib, r->family, r->plen, r->addr,
				       ROCEDP_ROUTEF_LOCAL, NULL, 0);
	else
		err = rd_fib_route_set_res(s->fib, r->family, r->plen, r->addr,
					   0, hops, n, res.nb ? &res : NULL);
	if (err == -E2BIG)
		rd_fib_route_set(s->fib, r->family, r->plen, r->addr,
				 ROCEDP_ROUTEF_LOCAL, NULL, 0);
	if (err)
		rd_err("sync", "route %s/%u: %s; left to the kernel",
		       rd_addr_str(r->family, r->addr, a, sizeof(a)), r->plen,
		       err == -E2BIG  ? "more than 64 next hops" :
		       err == -ENOSPC ? "no free group id" :
					strerror(-err));
}
