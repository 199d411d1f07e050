// SPDX-License-Identifier: GPL-2.0
/*
 * Next-hop groups: the userspace FIB model used by rocedp sync (the group
 * value's builder, rd_group_build, is in buckets.c).
 *
 * The model keeps two views per prefix and per group id: what we want
 * (from the kernel) and what the maps hold (the mirror, read back from the
 * maps at start and updated on every successful write). A commit writes the
 * difference only, in an order that never lets a route point at a group
 * that is not there yet: groups, then routes, then unused groups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "rocedp.h"
#include "group.h"
#include "groupw.h"
#include "portw.h"
#include "routew.h"

/* ------------------------------------------------------------ hash table */

struct ht_node {
	struct ht_node *next;
	uint64_t hash;
};

struct ht {
	struct ht_node **b;
	size_t mask; /* buckets - 1 */
	size_t n;
};

static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
	const uint8_t *s = p;

	while (len--) {
		h ^= *s++;
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ull

static int ht_init(struct ht *t, size_t buckets)
{
	t->b = calloc(buckets, sizeof(*t->b));
	if (!t->b)
		return -ENOMEM;
	t->mask = buckets - 1;
	t->n = 0;
	return 0;
}

static void ht_grow(struct ht *t)
{
	size_t nb = (t->mask + 1) * 2, i;
	struct ht_node **b = calloc(nb, sizeof(*b));

	if (!b)
		return; /* stay slower but correct */
	for (i = 0; i <= t->mask; i++) {
		struct ht_node *e = t->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (nb - 1)];
			b[e->hash & (nb - 1)] = e;
		}
	}
	free(t->b);
	t->b = b;
	t->mask = nb - 1;
}

static void ht_add(struct ht *t, struct ht_node *e, uint64_t hash)
{
	if (t->n > t->mask)
		ht_grow(t);
	e->hash = hash;
	e->next = t->b[hash & t->mask];
	t->b[hash & t->mask] = e;
	t->n++;
}

static void ht_del(struct ht *t, struct ht_node *e)
{
	struct ht_node **pp = &t->b[e->hash & t->mask];

	for (; *pp; pp = &(*pp)->next) {
		if (*pp == e) {
			*pp = e->next;
			t->n--;
			return;
		}
	}
}

#define ht_for_each(t, i, e)             \
	for (i = 0; i <= (t)->mask; i++) \
		for (e = (t)->b[i]; e; e = e->next)

/* ------------------------------------------------------------ model */

struct fprefix {
	struct ht_node node; /* first: cast from ht_node */
	uint8_t family, plen;
	uint8_t addr[16];
	bool want; /* the kernel has a route */
	bool stale; /* not seen since rd_fib_begin_full */
	bool dirty; /* on the dirty list */
	bool inst; /* the map holds an entry */
	bool is_static; /* the config's: hands off */
	bool pending; /* want, but its write failed: retried every commit */
	bool mark, mark_want; /* covers a pending route: ROUTEF_KERNEL */
	struct rocedp_route want_val, inst_val;
	struct fgroup *grp; /* referenced while want and forwarding */
};

struct fgroup {
	struct ht_node node;
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
	struct ht prefixes;
	struct ht groups; /* by hop set */
	struct fgroup *gid[ROCEDP_MAX_GROUPS];
	struct rocedp_group *inst[ROCEDP_MAX_GROUPS]; /* mirror */
	uint64_t inst_key[ROCEDP_MAX_GROUPS]; /* hop-set hash of the mirror */
	uint32_t inst_refs[ROCEDP_MAX_GROUPS]; /* mirror routes using an id */
	bool gstatic[ROCEDP_MAX_GROUPS];
	struct fprefix **dirty;
	size_t n_dirty, cap_dirty;
	uint32_t *ports; /* ifindexes with devmap + port_cfg entries */
	size_t n_ports, cap_ports;
	int next_id; /* allocation cursor, counts down */
	unsigned int n_routes; /* prefixes with want */
	uint64_t errors_logged;
	unsigned int n_pending, n_marked; /* as of the last commit */
	struct rocedp_group scratch;
};

struct rd_fib *rd_fib_new(void)
{
	struct rd_fib *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	if (ht_init(&f->prefixes, 1024) || ht_init(&f->groups, 256)) {
		free(f->prefixes.b);
		free(f);
		return NULL;
	}
	f->maps = (struct rd_fib_maps){ -1, -1, -1, -1, -1, -1, -1 };
	f->gw = (struct rd_groupw){ -1, -1, -1 };
	f->next_id = ROCEDP_MAX_GROUPS - 1;
	return f;
}

void rd_fib_free(struct rd_fib *f)
{
	struct ht_node *e, *next;
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

static void fib_log_error(struct rd_fib *f, const char *what, int err)
{
	f->errors_logged++;
	if (f->errors_logged <= 20 || !(f->errors_logged % 1000))
		rd_err("sync", "%s: %s (error #%llu)", what, strerror(-err),
		       (unsigned long long)f->errors_logged);
}

static void prefix_name(const struct fprefix *p, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(p->family, p->addr, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, p->plen);
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

static struct fprefix *prefix_find(struct rd_fib *f, uint8_t family,
				   uint8_t plen, const void *addr, bool create)
{
	uint8_t key[18] = { family, plen };
	struct ht_node *e;
	struct fprefix *p;
	uint64_t h;

	memcpy(key + 2, addr, family == AF_INET6 ? 16 : 4);
	rd_prefix_mask(key + 2, family, plen);
	h = fnv1a(FNV_INIT, key, sizeof(key));
	for (e = f->prefixes.b[h & f->prefixes.mask]; e; e = e->next) {
		p = (struct fprefix *)e;
		if (e->hash == h && p->family == family && p->plen == plen &&
		    !memcmp(p->addr, key + 2, 16))
			return p;
	}
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->family = family;
	p->plen = plen;
	memcpy(p->addr, key + 2, 16);
	ht_add(&f->prefixes, &p->node, h);
	return p;
}

static void prefix_dirty(struct rd_fib *f, struct fprefix *p)
{
	struct fprefix **d;

	if (p->dirty)
		return;
	if (f->n_dirty == f->cap_dirty) {
		size_t cap = f->cap_dirty ? f->cap_dirty * 2 : 256;

		d = realloc(f->dirty, cap * sizeof(*d));
		if (!d)
			return; /* a full commit still finds it */
		f->dirty = d;
		f->cap_dirty = cap;
	}
	f->dirty[f->n_dirty++] = p;
	p->dirty = true;
}

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

static uint64_t hops_hash(const struct rd_hop *h, int n)
{
	uint64_t v = FNV_INIT;
	int i;

	for (i = 0; i < n; i++) {
		v = fnv1a(v, &h[i].ifindex, 4);
		v = fnv1a(v, h[i].gw, 16);
		v = fnv1a(v, &h[i].weight, 2);
		v = fnv1a(v, &h[i].family, 1);
	}
	return v;
}

/*
 * Sort into slot order and merge repeated next hops (the kernel accepts
 * "nexthop via A nexthop via A"): one slot whose weight is the sum.
 */
static int hops_canon(const struct rd_hop *in, int n, struct rd_hop *out,
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
static void group_set_res(struct fgroup *g, const struct rd_res *res)
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

static struct fgroup *group_get(struct rd_fib *f, const struct rd_hop *hops,
				int n, const struct rd_res *res, int *err)
{
	uint64_t key = hops_hash(hops, n);
	uint32_t res_id = res ? res->id : 0;
	struct ht_node *e;
	struct fgroup *g;
	int id;

	for (e = f->groups.b[key & f->groups.mask]; e; e = e->next) {
		g = (struct fgroup *)e;
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
	ht_add(&f->groups, &g->node, key);
	f->gid[id] = g;
	return g;
}

static void group_put(struct rd_fib *f, struct fgroup *g)
{
	if (!g || --g->refcnt)
		return;
	/* the map entry goes in the commit, after no route uses it */
	ht_del(&f->groups, &g->node);
	f->gid[g->id] = NULL;
	free(g->res_tab);
	free(g);
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
	struct fgroup *g = NULL, *old;
	struct rd_res res;
	struct fprefix *p;
	int err = 0, n, b;

	if ((family != AF_INET && family != AF_INET6) ||
	    plen > (family == AF_INET6 ? 128 : 32))
		return -EINVAL;
	p = prefix_find(f, family, plen, addr, true);
	if (!p)
		return -ENOMEM;
	flags &= ~ROCEDP_ROUTEF_STATIC; /* sync never writes static routes */
	if (n_hops > ROCEDP_MAX_MEMBERS)
		err = -E2BIG;
	else if (n_hops > 0 && !(flags & ROCEDP_ROUTEF_LOCAL)) {
		memset(slot_of, ROCEDP_BUCKET_NONE, sizeof(slot_of));
		n = hops_canon(hops, n_hops, canon, slot_of);
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
		g = group_get(f, canon, n, kres, &err);
	}
	old = p->grp;
	p->grp = g;
	group_put(f, old);
	if (!p->want)
		f->n_routes++;
	p->want = true;
	p->stale = false;
	if (g)
		p->want_val = (struct rocedp_route){ .group_id = g->id };
	else
		p->want_val =
			(struct rocedp_route){ .flags = ROCEDP_ROUTEF_LOCAL };
	prefix_dirty(f, p);
	return err;
}

void rd_fib_route_del(struct rd_fib *f, uint8_t family, uint8_t plen,
		      const void *addr)
{
	struct fprefix *p = prefix_find(f, family, plen, addr, false);

	if (!p || !p->want)
		return;
	group_put(f, p->grp);
	p->grp = NULL;
	p->want = false;
	f->n_routes--;
	prefix_dirty(f, p);
}

bool rd_fib_route_get(struct rd_fib *f, uint8_t family, uint8_t plen,
		      const void *addr, struct rocedp_route *out)
{
	struct fprefix *p = prefix_find(f, family, plen, addr, false);

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

static void group_value(const struct fgroup *g, rd_member_fill_fn fill,
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

int rd_fib_group_value(struct rd_fib *f, uint32_t id, rd_member_fill_fn fill,
		       void *ctx, struct rocedp_group *out)
{
	if (id >= ROCEDP_MAX_GROUPS || !f->gid[id])
		return -ENOENT;
	group_value(f->gid[id], fill, ctx, out);
	return 0;
}

void rd_fib_touch_ifindex(struct rd_fib *f, uint32_t ifindex)
{
	int id, i;

	for (id = 1; id < ROCEDP_MAX_GROUPS; id++) {
		struct fgroup *g = f->gid[id];

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
	struct ht_node *e;
	size_t i;

	ht_for_each(&f->prefixes, i, e)((struct fprefix *)e)->stale = true;
}

void rd_fib_end_full(struct rd_fib *f)
{
	struct ht_node *e;
	size_t i;

	ht_for_each(&f->prefixes, i, e)
	{
		struct fprefix *p = (struct fprefix *)e;

		if (p->stale && p->want)
			rd_fib_route_del(f, p->family, p->plen, p->addr);
		p->stale = false;
	}
}

/* ------------------------------------------------------------ mirror */

static void inst_ref(struct rd_fib *f, const struct rocedp_route *v, int d)
{
	if (!(v->flags & ROCEDP_ROUTEF_LOCAL) &&
	    v->group_id < ROCEDP_MAX_GROUPS)
		f->inst_refs[v->group_id] += d;
}

static int load_routes(struct rd_fib *f, int fd, uint8_t family)
{
	union {
		struct rocedp_route4_key k4;
		struct rocedp_route6_key k6;
	} key, next;
	struct rocedp_route val;
	struct fprefix *p;
	void *prev = NULL;
	const uint8_t *addr;

	if (fd < 0)
		return 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue; /* deleted meanwhile */
		addr = family == AF_INET ? (const uint8_t *)&key.k4.addr :
					   key.k6.addr;
		p = prefix_find(f, family, key.k4.prefixlen, addr, true);
		if (!p)
			return -ENOMEM;
		p->inst = true;
		p->inst_val = val;
		p->is_static = val.flags & ROCEDP_ROUTEF_STATIC;
		p->mark = val.flags & ROCEDP_ROUTEF_KERNEL;
		inst_ref(f, &val, 1);
		if (p->is_static && val.group_id < ROCEDP_MAX_GROUPS)
			f->gstatic[val.group_id] = true;
		if (!p->want)
			prefix_dirty(f, p); /* so that a commit removes it */
	}
	return errno == ENOENT ? 0 : -errno;
}

static int load_groups(struct rd_fib *f)
{
	struct rd_hop mh[ROCEDP_MAX_MEMBERS];
	__u32 key, next, *prev = NULL;
	struct rocedp_group *g;
	int i;

	if (f->maps.groups < 0)
		return 0;
	i = rd_groupw_adopt(&f->gw);
	if (i < 0)
		return i;
	while (!bpf_map_get_next_key(f->maps.groups, prev, &next)) {
		key = next;
		prev = &key;
		if (key >= ROCEDP_MAX_GROUPS)
			continue; /* not ours to judge */
		g = malloc(sizeof(*g));
		if (!g)
			return -ENOMEM;
		if (bpf_map_lookup_elem(f->maps.groups, &key, g)) {
			free(g);
			continue;
		}
		if (g->n_members > ROCEDP_MAX_MEMBERS)
			g->n_members = ROCEDP_MAX_MEMBERS;
		for (i = 0; i < g->n_members; i++) {
			if (g->members[i].flags & ROCEDP_MEMBERF_STATIC)
				f->gstatic[key] = true;
			memset(&mh[i], 0, sizeof(mh[i]));
			mh[i].ifindex = g->members[i].ifindex;
			mh[i].weight = g->members[i].weight;
			mh[i].family = g->members[i].nh_family;
			memcpy(mh[i].gw, g->members[i].nh_addr, 16);
		}
		f->inst_key[key] = hops_hash(mh, g->n_members);
		f->inst[key] = g;
	}
	return errno == ENOENT ? 0 : -errno;
}

int rd_fib_load_installed(struct rd_fib *f)
{
	struct ht_node *e;
	size_t i;
	int err;

	ht_for_each(&f->prefixes, i, e)
	{
		struct fprefix *p = (struct fprefix *)e;

		p->inst = false;
		p->is_static = false;
	}
	for (i = 0; i < ROCEDP_MAX_GROUPS; i++) {
		free(f->inst[i]);
		f->inst[i] = NULL;
		f->inst_refs[i] = 0;
		f->gstatic[i] = false;
	}
	f->n_ports = 0; /* devmap/port_cfg may have been changed as well */
	err = load_groups(f);
	if (!err)
		err = load_routes(f, f->maps.routes4, AF_INET);
	if (!err)
		err = load_routes(f, f->maps.routes6, AF_INET6);
	/* a static route's group (or an adopted id) must not move */
	for (i = 1; i < ROCEDP_MAX_GROUPS; i++)
		if (f->gid[i] && f->gstatic[i])
			f->gid[i]->dirty = false;
	return err;
}

/* ------------------------------------------------------------ commit */

static int ensure_port(struct rd_fib *f, uint32_t ifindex,
		       struct rd_fib_counts *c)
{
	char what[64];
	size_t i;
	int err;

	for (i = 0; i < f->n_ports; i++)
		if (f->ports[i] == ifindex)
			return 0;
	/* under the writers' lock sync holds (writers_lock) */
	err = rd_portw_ensure(f->maps.tx_ports, f->maps.port_cfg, ifindex,
			      &c->port_writes, what, sizeof(what));
	if (err) {
		fib_log_error(f, what, err);
		c->errors++;
		return err;
	}
	if (f->n_ports == f->cap_ports) {
		size_t cap = f->cap_ports ? f->cap_ports * 2 : 64;
		uint32_t *p = realloc(f->ports, cap * sizeof(*p));

		if (!p)
			return 0; /* checked again next time */
		f->ports = p;
		f->cap_ports = cap;
	}
	f->ports[f->n_ports++] = ifindex;
	return 0;
}

static void commit_group(struct rd_fib *f, struct fgroup *g,
			 rd_member_fill_fn fill, void *ctx,
			 struct rd_fib_counts *c)
{
	struct rocedp_group *v = &f->scratch;
	__u32 key = g->id;
	char what[48];
	int i, err;

	g->dirty = false;
	/* ports first: a member must not be live before its devmap entry */
	for (i = 0; i < g->n; i++)
		ensure_port(f, g->hops[i].ifindex, c);
	group_value(g, fill, ctx, v);
	if (f->inst[key] && !memcmp(f->inst[key], v, sizeof(*v)))
		return;
	err = rd_groupw_put(&f->gw, key, v);
	if (err) {
		snprintf(what, sizeof(what), "rd_groups id %u", key);
		fib_log_error(f, what, err);
		c->errors++;
		g->dirty = true; /* try again on the next commit */
		return;
	}
	if (!f->inst[key]) {
		f->inst[key] = malloc(sizeof(*v));
		if (!f->inst[key]) {
			g->dirty = true;
			return;
		}
	}
	memcpy(f->inst[key], v, sizeof(*v));
	f->inst_key[key] = hops_hash(g->hops, g->n);
	c->group_writes++;
}

union route_key {
	struct rocedp_route4_key k4;
	struct rocedp_route6_key k6;
};

/* p's map key; the fd of its family's trie (-1: dry run). */
static int route_key(struct rd_fib *f, const struct fprefix *p,
		     union route_key *key)
{
	memset(key, 0, sizeof(*key));
	key->k4.prefixlen = p->plen;
	if (p->family == AF_INET)
		memcpy(&key->k4.addr, p->addr, 4);
	else
		memcpy(key->k6.addr, p->addr, 16);
	return p->family == AF_INET ? f->maps.routes4 : f->maps.routes6;
}

static void route_error(struct rd_fib *f, const struct fprefix *p, int err,
			struct rd_fib_counts *c)
{
	char what[80], name[64];

	prefix_name(p, name, sizeof(name));
	snprintf(what, sizeof(what), "%s %s",
		 p->family == AF_INET ? "rd_routes4" : "rd_routes6", name);
	fib_log_error(f, what, err);
	c->errors++;
}

/* What p's entry should hold: its route, marked while it covers one the
 * trie could not take. */
static struct rocedp_route route_eff(const struct fprefix *p)
{
	struct rocedp_route v = p->want_val;

	if (p->mark)
		v.flags |= ROCEDP_ROUTEF_KERNEL;
	return v;
}

static void commit_route(struct rd_fib *f, struct fprefix *p,
			 struct rd_fib_counts *c)
{
	struct rocedp_route v = route_eff(p);
	union route_key key;
	int fd, err = 0;

	if (p->is_static)
		return;
	if (!p->want)
		p->pending = false;
	if (p->want && p->inst && !memcmp(&v, &p->inst_val, sizeof(v)))
		return;
	if (!p->want && !p->inst)
		return;
	fd = route_key(f, p, &key);
	if (p->want) {
		if (fd >= 0)
			err = rd_routew_put(fd, &key, &v, BPF_ANY);
		/* ENOSPC, ENOMEM: pending, its cover marked, retried */
		p->pending = err != 0;
		if (!err) {
			if (p->inst)
				inst_ref(f, &p->inst_val, -1);
			p->inst = true;
			p->inst_val = v;
			inst_ref(f, &p->inst_val, 1);
			c->route_writes++;
		} else {
			c->route_fails++;
		}
	} else {
		if (fd >= 0)
			err = rd_routew_del(fd, &key);
		if (!err) {
			inst_ref(f, &p->inst_val, -1);
			p->inst = false;
			c->route_deletes++;
		}
	}
	if (err)
		route_error(f, p, err, c);
}

/*
 * The entry a pending route's traffic matches instead: the longest
 * installed prefix above it (after: one that stays, when future).
 */
static struct fprefix *route_cover(struct rd_fib *f, const struct fprefix *p,
				   bool future)
{
	struct fprefix *q;
	int plen;

	for (plen = p->plen - 1; plen >= 0; plen--) {
		q = prefix_find(f, p->family, plen, p->addr, false);
		if (q && q->inst && (!future || q->want || q->is_static))
			return q;
	}
	return NULL;
}

/*
 * Hand the covers of pending routes to the kernel (ROUTEF_KERNEL, an
 * in-place rewrite: no new trie entry); with clear, also unmark covers
 * whose routes landed. Before the route writes (set only, covers that stay)
 * and after them (both), so no frame follows a cover in between.
 */
static void commit_marks(struct rd_fib *f, bool clear, struct rd_fib_counts *c)
{
	struct rocedp_route v;
	union route_key key;
	struct ht_node *e;
	struct fprefix *p, *q;
	int fd, err;
	size_t i;

	if (!f->n_pending && !f->n_marked && !clear)
		return;
	ht_for_each(&f->prefixes, i, e)((struct fprefix *)e)->mark_want = false;
	f->n_pending = f->n_marked = 0;
	ht_for_each(&f->prefixes, i, e)
	{
		p = (struct fprefix *)e;
		if (!p->pending || !p->want)
			continue;
		f->n_pending++;
		q = route_cover(f, p, !clear);
		if (q)
			q->mark_want = true;
	}
	ht_for_each(&f->prefixes, i, e)
	{
		p = (struct fprefix *)e;
		if (p->mark_want == p->mark || (!p->mark_want && !clear) ||
		    !p->inst) {
			if (!p->inst)
				p->mark = p->mark_want;
			f->n_marked += p->mark;
			continue;
		}
		v = p->inst_val;
		v.flags = p->mark_want ? v.flags | ROCEDP_ROUTEF_KERNEL :
					 v.flags & ~ROCEDP_ROUTEF_KERNEL;
		fd = route_key(f, p, &key);
		err = fd >= 0 ? rd_routew_put(fd, &key, &v, BPF_EXIST) : 0;
		/* kernels before 6.13's fix refuse even an in-place write
		 * into a full trie: make room with the entry itself */
		if (err == -ENOSPC && p->mark_want &&
		    !rd_routew_del(fd, &key)) {
			err = rd_routew_put(fd, &key, &v, BPF_ANY);
			if (err) { /* gone: passes as no_route, retried */
				inst_ref(f, &p->inst_val, -1);
				p->inst = false;
				prefix_dirty(f, p);
			}
		}
		if (err) {
			route_error(f, p, err, c);
		} else {
			p->inst_val = v;
			p->mark = p->mark_want;
			c->route_marks++;
		}
		f->n_marked += p->mark;
	}
}

unsigned int rd_fib_n_pending(struct rd_fib *f)
{
	return f->n_pending;
}

static void commit_group_deletes(struct rd_fib *f, struct rd_fib_counts *c)
{
	char what[48];
	__u32 id;
	int err;

	for (id = 1; id < ROCEDP_MAX_GROUPS; id++) {
		if (!f->inst[id] || f->gid[id] || f->gstatic[id] ||
		    f->inst_refs[id])
			continue;
		err = rd_groupw_del(&f->gw, id);
		if (err) {
			snprintf(what, sizeof(what), "rd_groups id %u", id);
			fib_log_error(f, what, err);
			c->errors++;
			continue;
		}
		free(f->inst[id]);
		f->inst[id] = NULL;
		c->group_deletes++;
	}
}

/* Free a prefix neither side holds any more; it must be off the dirty list. */
static void prefix_drop_unused(struct rd_fib *f, struct fprefix *p)
{
	if (p->want || p->inst)
		return;
	ht_del(&f->prefixes, &p->node);
	free(p);
}

int rd_fib_commit_groups(struct rd_fib *f, rd_member_fill_fn fill, void *ctx,
			 struct rd_fib_counts *c)
{
	struct rd_fib_counts local = { 0 };
	uint64_t errors;
	int id;

	if (!c)
		c = &local;
	errors = c->errors;
	for (id = 1; id < ROCEDP_MAX_GROUPS; id++)
		if (f->gid[id] && f->gid[id]->dirty)
			commit_group(f, f->gid[id], fill, ctx, c);
	return c->errors > errors ? -EIO : 0;
}

int rd_fib_commit(struct rd_fib *f, bool full, rd_member_fill_fn fill,
		  void *ctx, struct rd_fib_counts *c)
{
	struct rd_fib_counts local = { 0 };
	struct ht_node *e, *next;
	uint64_t errors;
	size_t i;
	int id;

	if (!c)
		c = &local;
	errors = c->errors;
	for (id = 1; id < ROCEDP_MAX_GROUPS; id++)
		if (f->gid[id] && (f->gid[id]->dirty || full))
			commit_group(f, f->gid[id], fill, ctx, c);
	commit_marks(f, false, c);
	if (full) {
		ht_for_each(&f->prefixes, i, e)
			commit_route(f, (struct fprefix *)e, c);
	} else {
		for (i = 0; i < f->n_dirty; i++)
			commit_route(f, f->dirty[i], c);
	}
	commit_marks(f, true, c);
	commit_group_deletes(f, c);

	/* drop prefixes neither side holds any more */
	for (i = 0; i < f->n_dirty; i++) {
		f->dirty[i]->dirty = false;
		if (!full)
			prefix_drop_unused(f, f->dirty[i]);
	}
	f->n_dirty = 0;
	if (full)
		for (i = 0; i <= f->prefixes.mask; i++)
			for (e = f->prefixes.b[i]; e; e = next) {
				next = e->next;
				prefix_drop_unused(f, (struct fprefix *)e);
			}
	/* the next commit (an event's or the tick's) tries them again */
	if (f->n_pending)
		ht_for_each(&f->prefixes, i,
			    e) if (((struct fprefix *)e)->pending)
			prefix_dirty(f, (struct fprefix *)e);
	return c->errors > errors ? -EIO : 0;
}
