// SPDX-License-Identifier: GPL-2.0
/*
 * Next-hop groups: the userspace FIB model used by rocedp sync, its API
 * (group.h). Routes come in as prefix -> next hops; the hop sets become
 * groups in group_hops.c, the tables are group_tab.c, and group_commit.c
 * writes the maps (docs/design.md, FIB model modules).
 *
 * The model keeps two views per prefix and per group id: what we want
 * (from the kernel) and what the maps hold (the mirror, read back from the
 * maps at start and updated on every successful write). A commit writes the
 * difference only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "group.h"
#include "group_hops.h"
#include "group_tab.h"

struct rd_fib *rd_fib_new(void)
{
	struct rd_fib *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	if (rd_ht_init(&f->prefixes, 1024) || rd_ht_init(&f->groups, 256)) {
		free(f->prefixes.b);
		free(f);
		return NULL;
	}
	f->maps = (struct rd_fib_maps){ -1, -1, -1, -1, -1, -1, -1, NULL };
	f->gw = (struct rd_groupw){ -1, -1, -1 };
	f->next_id = ROCEDP_MAX_GROUPS - 1;
	f->obj = "sync";
	return f;
}

void rd_fib_free(struct rd_fib *f)
{
	struct rd_ht_node *e, *next;
	size_t i;

	if (!f)
		return;
	for (i = 0; i <= f->prefixes.mask; i++)
		for (e = f->prefixes.b[i]; e; e = next) {
			next = e->next;
			free(e);
		}
	for (i = 0; i < ROCEDP_MAX_GROUPS; i++) {
		if (f->gid[i])
			free(f->gid[i]->res_tab);
		free(f->gid[i]);
		free(f->inst[i]);
		free(f->expl[i]);
	}
	free(f->prefixes.b);
	free(f->groups.b);
	free(f->dirty);
	free(f->ports);
	free(f);
}

void rd_fib_set_maps(struct rd_fib *f, const struct rd_fib_maps *maps)
{
	f->maps = *maps;
	f->gw = (struct rd_groupw){ maps->groups, maps->group_banks,
				    maps->group_live };
	f->n_ports = 0; /* re-check every devmap value in the new maps */
}

void rd_fib_set_obj(struct rd_fib *f, const char *obj)
{
	f->obj = obj;
}

int rd_fib_first_error(struct rd_fib *f)
{
	return f->first_err;
}

void rd_fib_set_fault(struct rd_fib *f, struct rd_fib_fault *fault)
{
	f->fault = fault;
}

int rd_fib_route_set(struct rd_fib *f, uint8_t family, uint8_t plen,
		     const void *addr, uint32_t flags,
		     const struct rd_hop *hops, int n_hops)
{
	return rd_fib_route_set_res(f, family, plen, addr, flags, hops, n_hops,
				    NULL);
}

int rd_fib_route_set_res(struct rd_fib *f, uint8_t family, uint8_t plen,
			 const void *addr, uint32_t flags,
			 const struct rd_hop *hops, int n_hops,
			 const struct rd_res *kres)
{
	struct rd_hop canon[ROCEDP_MAX_MEMBERS];
	uint8_t slot_of[ROCEDP_MAX_MEMBERS];
	struct rd_fgroup *g = NULL, *old;
	struct rd_res res;
	struct rd_fprefix *p;
	int err = 0, n, b;

	if ((family != AF_INET && family != AF_INET6) ||
	    plen > (family == AF_INET6 ? 128 : 32))
		return -EINVAL;
	p = rd_fib_prefix_find(f, family, plen, addr, true);
	if (!p)
		return -ENOMEM;
	flags &= ~ROCEDP_ROUTEF_STATIC; /* sync never writes static routes */
	if (n_hops > ROCEDP_MAX_MEMBERS)
		err = -E2BIG;
	else if (n_hops > 0 && !(flags & ROCEDP_ROUTEF_LOCAL)) {
		memset(slot_of, ROCEDP_BUCKET_NONE, sizeof(slot_of));
		n = rd_fib_hops_canon(hops, n_hops, canon, slot_of);
		if (kres && kres->nb && kres->nb <= ROCEDP_MAX_BUCKETS) {
			/* the kernel's table names given hops: map to slots */
			res.id = kres->id;
			res.nb = kres->nb;
			for (b = 0; b < res.nb; b++)
				res.tab[b] = kres->tab[b] < n_hops ?
						     slot_of[kres->tab[b]] :
						     ROCEDP_BUCKET_NONE;
			kres = &res;
		} else {
			kres = NULL;
		}
		g = rd_fib_group_get(f, canon, n, kres, &err);
	}
	old = p->grp;
	p->grp = g;
	rd_fib_group_put(f, old);
	if (!p->want)
		f->n_routes++;
	p->want = true;
	p->stale = false;
	if (g)
		p->want_val = (struct rocedp_route){ .group_id = g->id };
	else
		p->want_val =
			(struct rocedp_route){ .flags = ROCEDP_ROUTEF_LOCAL };
	rd_fib_prefix_dirty(f, p);
	return err;
}

void rd_fib_route_del(struct rd_fib *f, uint8_t family, uint8_t plen,
		      const void *addr)
{
	struct rd_fprefix *p = rd_fib_prefix_find(f, family, plen, addr, false);

	if (!p || !p->want)
		return;
	rd_fib_group_put(f, p->grp);
	p->grp = NULL;
	p->want = false;
	f->n_routes--;
	rd_fib_prefix_dirty(f, p);
}

bool rd_fib_route_get(struct rd_fib *f, uint8_t family, uint8_t plen,
		      const void *addr, struct rocedp_route *out)
{
	struct rd_fprefix *p = rd_fib_prefix_find(f, family, plen, addr, false);

	if (!p || !p->want)
		return false;
	*out = p->want_val;
	return true;
}

int rd_fib_group_hops(struct rd_fib *f, uint32_t id, const struct rd_hop **hops)
{
	if (id >= ROCEDP_MAX_GROUPS || !f->gid[id])
		return -ENOENT;
	*hops = f->gid[id]->hops;
	return f->gid[id]->n;
}

uint32_t rd_fib_group_refcnt(struct rd_fib *f, uint32_t id)
{
	return id < ROCEDP_MAX_GROUPS && f->gid[id] ? f->gid[id]->refcnt : 0;
}

unsigned int rd_fib_n_groups(struct rd_fib *f)
{
	return f->groups.n;
}

unsigned int rd_fib_n_routes(struct rd_fib *f)
{
	return f->n_routes;
}

int rd_fib_group_value(struct rd_fib *f, uint32_t id, rd_member_fill_fn fill,
		       void *ctx, struct rocedp_group *out)
{
	if (id >= ROCEDP_MAX_GROUPS || !f->gid[id])
		return -ENOENT;
	rd_fgroup_value(f->gid[id], fill, ctx, out);
	return 0;
}

void rd_fib_touch_ifindex(struct rd_fib *f, uint32_t ifindex)
{
	int id, i;

	for (id = 1; id < ROCEDP_MAX_GROUPS; id++) {
		struct rd_fgroup *g = f->gid[id];

		if (!g)
			continue;
		for (i = 0; i < g->n; i++)
			if (!ifindex || g->hops[i].ifindex == ifindex) {
				g->dirty = true;
				break;
			}
	}
}

void rd_fib_forget_port(struct rd_fib *f, uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < f->n_ports; i++)
		if (f->ports[i] == ifindex) {
			f->ports[i] = f->ports[--f->n_ports];
			return;
		}
}

void rd_fib_begin_full(struct rd_fib *f)
{
	struct rd_ht_node *e;
	size_t i;

	rd_ht_for_each(&f->prefixes, i, e)((struct rd_fprefix *)e)->stale =
		true;
}

void rd_fib_end_full(struct rd_fib *f)
{
	struct rd_ht_node *e;
	size_t i;

	rd_ht_for_each(&f->prefixes, i, e)
	{
		struct rd_fprefix *p = (struct rd_fprefix *)e;

		if (p->stale && p->want)
			rd_fib_route_del(f, p->family, p->plen, p->addr);
		p->stale = false;
	}
}
