// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel view of rocedp sync: hash tables of links, neighbours,
 * nexthop objects and routes (sync_view.h).
 */
#include <stdlib.h>
#include <string.h>
#include <net/if_arp.h>
#include <linux/neighbour.h>

#include "sync_state.h"
#include "sync_view.h"

struct slink *rd_link_find(struct rd_sync *s, uint32_t ifindex)
{
	struct slink *l = s->links[ifindex % LINK_BUCKETS];

	while (l && l->ifindex != ifindex)
		l = l->next;
	return l;
}

/* A member on this link can carry frames now. */
bool rd_link_usable(const struct slink *l)
{
	return l && (l->flags & IFF_UP) && (l->flags & IFF_RUNNING) &&
	       l->type == ARPHRD_ETHER && l->has_addr;
}

void rd_link_del(struct rd_sync *s, uint32_t ifindex)
{
	struct slink **pp = &s->links[ifindex % LINK_BUCKETS], *l;

	for (; (l = *pp); pp = &l->next)
		if (l->ifindex == ifindex) {
			*pp = l->next;
			free(l);
			return;
		}
}

static unsigned int neigh_bucket(uint32_t ifindex, const uint8_t *addr)
{
	uint32_t h = ifindex * 2654435761u;
	int i;

	for (i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619u;
	return h % NEIGH_BUCKETS;
}

struct sneigh *rd_neigh_find(struct rd_sync *s, uint32_t ifindex,
			     uint8_t family, const void *addr16)
{
	struct sneigh *n = s->neighs[neigh_bucket(ifindex, addr16)];

	for (; n; n = n->next)
		if (n->ifindex == ifindex && n->family == family &&
		    !memcmp(n->addr, addr16, 16))
			return n;
	return NULL;
}

struct sneigh *rd_neigh_get(struct rd_sync *s, uint32_t ifindex, uint8_t family,
			    const void *addr16)
{
	struct sneigh *n = rd_neigh_find(s, ifindex, family, addr16);
	unsigned int b;

	if (n)
		return n;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->ifindex = ifindex;
	n->family = family;
	memcpy(n->addr, addr16, 16);
	b = neigh_bucket(ifindex, addr16);
	n->next = s->neighs[b];
	s->neighs[b] = n;
	return n;
}

void rd_neigh_del(struct rd_sync *s, struct sneigh *n)
{
	struct sneigh **pp = &s->neighs[neigh_bucket(n->ifindex, n->addr)];
	size_t i;

	for (; *pp; pp = &(*pp)->next)
		if (*pp == n) {
			*pp = n->next;
			break;
		}
	for (i = 0; i < s->n_probe; i++)
		if (s->probe_q[i] == n)
			s->probe_q[i] = NULL;
	free(n);
}

/*
 * NOARP counts only with a link-layer address: such links (static tunnels)
 * have no resolution, so the entry is as good as PERMANENT.
 */
bool rd_neigh_resolved(const struct sneigh *n)
{
	const uint16_t ok = NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE |
			    NUD_PERMANENT | NUD_NOARP;
	static const uint8_t zero[6];

	return n && (n->state & ok) && n->has_lladdr &&
	       memcmp(n->lladdr, zero, 6);
}

struct snh *rd_nh_find(struct rd_sync *s, uint32_t id)
{
	struct snh *h = s->nhs[id % NH_BUCKETS];

	while (h && h->id != id)
		h = h->next;
	return h;
}

void rd_nh_del(struct rd_sync *s, uint32_t id)
{
	struct snh **pp = &s->nhs[id % NH_BUCKETS], *h;

	for (; (h = *pp); pp = &h->next)
		if (h->id == id) {
			*pp = h->next;
			free(h->grp);
			free(h->res_nh);
			free(h);
			return;
		}
}

static unsigned int route_bucket(uint8_t family, uint8_t plen,
				 const uint8_t *addr)
{
	uint32_t h = family * 31u + plen;
	int i;

	for (i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619u;
	return (h ^ (h >> 16)) % ROUTE_BUCKETS;
}

struct sroute *rd_route_find(struct rd_sync *s, uint8_t family, uint8_t plen,
			     const uint8_t *addr, bool create)
{
	unsigned int b = route_bucket(family, plen, addr);
	struct sroute *r;

	for (r = s->routes[b]; r; r = r->next)
		if (r->family == family && r->plen == plen &&
		    !memcmp(r->addr, addr, 16))
			return r;
	if (!create)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->family = family;
	r->plen = plen;
	memcpy(r->addr, addr, 16);
	r->next = s->routes[b];
	s->routes[b] = r;
	return r;
}

void rd_var_free(struct rd_sync *s, struct svar *v)
{
	s->nh_vars -= !!v->nh_id;
	free(v->hops);
	free(v);
}

void rd_route_free_if_empty(struct rd_sync *s, struct sroute *r)
{
	struct sroute **pp =
		&s->routes[route_bucket(r->family, r->plen, r->addr)];

	if (r->vars)
		return;
	for (; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			free(r);
			return;
		}
}

void rd_clear_kernel_view(struct rd_sync *s)
{
	struct sroute *r, *rn;
	struct sneigh *n, *nn;
	struct slink *l, *ln;
	struct snh *h, *hn;
	struct svar *v, *vn;
	unsigned int b;

	for (b = 0; b < LINK_BUCKETS; b++) {
		for (l = s->links[b]; l; l = ln) {
			ln = l->next;
			free(l);
		}
		s->links[b] = NULL;
	}
	for (b = 0; b < NEIGH_BUCKETS; b++) {
		for (n = s->neighs[b]; n; n = nn) {
			nn = n->next;
			free(n);
		}
		s->neighs[b] = NULL;
	}
	s->n_probe = 0;
	for (b = 0; b < NH_BUCKETS; b++) {
		for (h = s->nhs[b]; h; h = hn) {
			hn = h->next;
			free(h->grp);
			free(h);
		}
		s->nhs[b] = NULL;
	}
	for (b = 0; b < ROUTE_BUCKETS; b++) {
		for (r = s->routes[b]; r; r = rn) {
			rn = r->next;
			for (v = r->vars; v; v = vn) {
				vn = v->next;
				rd_var_free(s, v);
			}
			free(r);
		}
		s->routes[b] = NULL;
	}
}
