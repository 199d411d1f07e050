// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp sync: mirror the kernel's routes, nexthop objects, neighbours and
 * links into the forwarding maps, first by a dump and then by events.
 *
 * The kernel is the source of truth; rocedp only takes over what it can
 * forward exactly like the kernel would: unicast routes whose next hops all
 * have a gateway. Every other route of the synced tables (connected, local,
 * broadcast, blackhole, unreachable, ...) is installed with
 * ROCEDP_ROUTEF_LOCAL so that the longest-prefix match hands the frame to
 * the kernel instead of falling through to a shorter forwarded prefix.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include <bpf/bpf.h>

#include "rocedp.h"
#include "nl.h"
#include "sync.h"
#include "syncguard.h"
#include "attach.h"

#define LINK_BUCKETS 256
#define NEIGH_BUCKETS 4096
#define NH_BUCKETS 1024
#define ROUTE_BUCKETS 65536
#define RESYNC_DELAY_NS (50 * 1000 * 1000ull) /* coalesce link flaps */
#define PROBE_INTERVAL_NS (1000 * 1000 * 1000ull)
#define MAX_DGRAMS_PER_BATCH 1024
#define EVENT_RCVBUF (32 << 20)

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
	bool hit; /* nh_changed: is or holds the nexthop that changed */
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

struct rd_sync {
	struct rd_sync_opts opts;
	struct rd_maps maps;
	struct rd_nl req; /* dumps and probes */
	struct rd_nl mon; /* events */
	struct rd_fib *fib;
	struct rd_fib_maps fm;
	int lock_fd;
	int dir_fd; /* the pin directory: `config load` locks it, so do we */
	uint32_t fib_gen; /* rd_config.fib_gen when the maps were last read */
	bool full_next; /* the maps were re-read: the next commit is full */
	struct slink *links[LINK_BUCKETS];
	struct sneigh *neighs[NEIGH_BUCKETS];
	struct snh *nhs[NH_BUCKETS];
	struct sroute **routes; /* ROUTE_BUCKETS */
	bool in_dump;
	bool defer_all; /* between dump tries: links and neighbours too */
	size_t nh_vars; /* route variants naming a nexthop object */
	bool service_ok; /* links and neighbours are loaded: serve events */
	bool overrun_in_resync;
	unsigned int resync_failures; /* in a row: paces the next try */
	unsigned int svc_count;
	char *deferred; /* route/nexthop events that arrived during a dump */
	size_t n_deferred, cap_deferred;
	bool dirty; /* something to commit */
	uint64_t resync_at; /* 0 = none scheduled */
	uint64_t next_tick;
	unsigned int unresolved; /* members held out at the last commit */
	struct sneigh **probe_q;
	size_t n_probe, cap_probe;
	char first_event[96];
	uint64_t batch_events;
	rd_sync_latency_fn lat_fn;
	void *lat_ctx;
	bool warned_unknown;
	bool res_dump; /* a resilient group changed: dump its buckets */
	struct rd_sync_stats st;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void note_event(struct rd_sync *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_event(struct rd_sync *s, const char *fmt, ...)
{
	char buf[sizeof(s->first_event)];
	va_list ap;

	if (s->in_dump)
		return;
	s->batch_events++;
	if (!s->opts.verbose && s->first_event[0])
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!s->first_event[0])
		memcpy(s->first_event, buf, sizeof(buf));
	if (s->opts.verbose)
		fprintf(stderr, "sync: event %s\n", buf);
}

static const char *addr_str(uint8_t family, const void *addr, char *buf,
			    size_t len)
{
	if (!inet_ntop(family, addr, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

static void schedule_resync(struct rd_sync *s, uint64_t delay_ns)
{
	uint64_t t = now_ns() + delay_ns;

	if (s->in_dump)
		return;
	if (!s->resync_at || t < s->resync_at)
		s->resync_at = t;
}

/* ------------------------------------------------------------ links */

static struct slink *link_find(struct rd_sync *s, uint32_t ifindex)
{
	struct slink *l = s->links[ifindex % LINK_BUCKETS];

	while (l && l->ifindex != ifindex)
		l = l->next;
	return l;
}

/* A member on this link can carry frames now. */
static bool link_usable(const struct slink *l)
{
	return l && (l->flags & IFF_UP) && (l->flags & IFF_RUNNING) &&
	       l->type == ARPHRD_ETHER && l->has_addr;
}

static void link_del(struct rd_sync *s, uint32_t ifindex)
{
	struct slink **pp = &s->links[ifindex % LINK_BUCKETS], *l;

	for (; (l = *pp); pp = &l->next)
		if (l->ifindex == ifindex) {
			*pp = l->next;
			free(l);
			return;
		}
}

static void on_link(struct rd_sync *s, struct rd_nl *nl,
		    const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[IFLA_MAX + 1];
	const struct ifinfomsg *ifi;
	bool was_usable, was_up;
	const uint8_t *mac;
	const char *name;
	uint8_t old_mac[6];
	struct slink *l;
	uint32_t idx;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return;
	ifi = mnl_nlmsg_get_payload(nlh);
	idx = ifi->ifi_index;
	if (!idx)
		return;
	if (nlh->nlmsg_type == RTM_DELLINK) {
		link_del(s, idx);
		rd_fib_touch_ifindex(s->fib, idx);
		rd_fib_forget_port(s->fib, idx);
		s->dirty = true;
		note_event(s, "link %u deleted", idx);
		/* IPv4 flushes routes over a vanished link without telling */
		schedule_resync(s, RESYNC_DELAY_NS);
		return;
	}
	rd_nl_parse(nl, nlh, sizeof(*ifi), tb, IFLA_MAX);
	l = link_find(s, idx);
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			return;
		l->ifindex = idx;
		l->next = s->links[idx % LINK_BUCKETS];
		s->links[idx % LINK_BUCKETS] = l;
		was_usable = false;
		was_up = false;
	} else {
		was_usable = link_usable(l);
		was_up = l->flags & IFF_UP;
	}
	memcpy(old_mac, l->addr, 6);
	l->flags = ifi->ifi_flags;
	l->type = ifi->ifi_type;
	if (tb[IFLA_ADDRESS]) {
		mac = mnl_attr_get_payload(tb[IFLA_ADDRESS]);
		l->has_addr = mnl_attr_get_payload_len(tb[IFLA_ADDRESS]) == 6;
		if (l->has_addr)
			memcpy(l->addr, mac, 6);
	}
	name = tb[IFLA_IFNAME] ? rd_nl_attr_data(nl, tb[IFLA_IFNAME], 1) : NULL;
	if (name)
		snprintf(l->name, sizeof(l->name), "%.*s",
			 (int)mnl_attr_get_payload_len(tb[IFLA_IFNAME]), name);
	if (was_usable != link_usable(l) || memcmp(old_mac, l->addr, 6)) {
		rd_fib_touch_ifindex(s->fib, idx);
		s->dirty = true;
		note_event(s, "link %s(%u) %s", l->name, idx,
			   link_usable(l) ? "up" : "down");
	}
	/* admin up/down flushes or revives kernel routes without events */
	if (was_up != !!(l->flags & IFF_UP))
		schedule_resync(s, RESYNC_DELAY_NS);
}

/* ------------------------------------------------------------ neighbours */

static unsigned int neigh_bucket(uint32_t ifindex, const uint8_t *addr)
{
	uint32_t h = ifindex * 2654435761u;
	int i;

	for (i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619u;
	return h % NEIGH_BUCKETS;
}

static struct sneigh *neigh_find(struct rd_sync *s, uint32_t ifindex,
				 uint8_t family, const void *addr16)
{
	struct sneigh *n = s->neighs[neigh_bucket(ifindex, addr16)];

	for (; n; n = n->next)
		if (n->ifindex == ifindex && n->family == family &&
		    !memcmp(n->addr, addr16, 16))
			return n;
	return NULL;
}

static struct sneigh *neigh_get(struct rd_sync *s, uint32_t ifindex,
				uint8_t family, const void *addr16)
{
	struct sneigh *n = neigh_find(s, ifindex, family, addr16);
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

static void neigh_del(struct rd_sync *s, struct sneigh *n)
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
static bool neigh_resolved(const struct sneigh *n)
{
	const uint16_t ok = NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE |
			    NUD_PERMANENT | NUD_NOARP;
	static const uint8_t zero[6];

	return n && (n->state & ok) && n->has_lladdr &&
	       memcmp(n->lladdr, zero, 6);
}

static const char *nud_name(uint16_t state)
{
	switch (state) {
	case NUD_INCOMPLETE:
		return "INCOMPLETE";
	case NUD_REACHABLE:
		return "REACHABLE";
	case NUD_STALE:
		return "STALE";
	case NUD_DELAY:
		return "DELAY";
	case NUD_PROBE:
		return "PROBE";
	case NUD_FAILED:
		return "FAILED";
	case NUD_NOARP:
		return "NOARP";
	case NUD_PERMANENT:
		return "PERMANENT";
	default:
		return "NONE";
	}
}

static void on_neigh(struct rd_sync *s, struct rd_nl *nl,
		     const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NDA_MAX + 1];
	const struct ndmsg *ndm;
	uint8_t addr[16] = { 0 }, old_ll[6];
	bool was_resolved;
	const void *dst, *ll;
	struct sneigh *n;
	size_t alen;
	char a[INET6_ADDRSTRLEN];

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ndm))
		return;
	ndm = mnl_nlmsg_get_payload(nlh);
	if (ndm->ndm_family != AF_INET && ndm->ndm_family != AF_INET6)
		return; /* bridge fdb and friends */
	rd_nl_parse(nl, nlh, sizeof(*ndm), tb, NDA_MAX);
	alen = ndm->ndm_family == AF_INET6 ? 16 : 4;
	dst = rd_nl_attr_data(nl, tb[NDA_DST], alen);
	if (!dst)
		return;
	memcpy(addr, dst, alen);
	n = neigh_find(s, ndm->ndm_ifindex, ndm->ndm_family, addr);
	if (nlh->nlmsg_type == RTM_DELNEIGH) {
		if (!n)
			return;
		was_resolved = neigh_resolved(n);
		neigh_del(s, n);
		if (was_resolved) {
			rd_fib_touch_ifindex(s->fib, ndm->ndm_ifindex);
			s->dirty = true;
			note_event(s, "neigh %s dev %d deleted",
				   addr_str(ndm->ndm_family, addr, a,
					    sizeof(a)),
				   ndm->ndm_ifindex);
		}
		return;
	}
	if (!n)
		n = neigh_get(s, ndm->ndm_ifindex, ndm->ndm_family, addr);
	if (!n)
		return;
	was_resolved = neigh_resolved(n);
	memcpy(old_ll, n->lladdr, 6);
	n->state = ndm->ndm_state;
	ll = tb[NDA_LLADDR] ? mnl_attr_get_payload(tb[NDA_LLADDR]) : NULL;
	if (ll && mnl_attr_get_payload_len(tb[NDA_LLADDR]) == 6) {
		memcpy(n->lladdr, ll, 6);
		n->has_lladdr = true;
	} else if (n->state & (NUD_FAILED | NUD_INCOMPLETE)) {
		n->has_lladdr = false;
	}
	if (was_resolved != neigh_resolved(n) ||
	    (neigh_resolved(n) && memcmp(old_ll, n->lladdr, 6))) {
		rd_fib_touch_ifindex(s->fib, ndm->ndm_ifindex);
		s->dirty = true;
		note_event(s, "neigh %s dev %d %s",
			   addr_str(ndm->ndm_family, addr, a, sizeof(a)),
			   ndm->ndm_ifindex, nud_name(n->state));
	}
}

/* ------------------------------------------------------------ nexthops */

static struct snh *nh_find(struct rd_sync *s, uint32_t id)
{
	struct snh *h = s->nhs[id % NH_BUCKETS];

	while (h && h->id != id)
		h = h->next;
	return h;
}

static void nh_del(struct rd_sync *s, uint32_t id)
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

static void route_apply(struct rd_sync *s, struct sroute *r);
static void route_free_if_empty(struct rd_sync *s, struct sroute *r);
static void var_free(struct rd_sync *s, struct svar *v);

/*
 * Re-evaluate every route that uses nexthop id, directly or in a group.
 * When the object was deleted, the kernel dropped the routes using it
 * directly, without telling: drop them too.
 */
static void nh_changed(struct rd_sync *s, uint32_t id, bool deleted)
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
				vh = v->nh_id ? nh_find(s, v->nh_id) : NULL;
				hit |= v->nh_id == id || (vh && vh->hit);
				if (deleted && v->nh_id == id) {
					*pp = v->next;
					var_free(s, v);
					continue;
				}
				pp = &v->next;
			}
			if (hit) {
				route_apply(s, r);
				route_free_if_empty(s, r);
			}
		}
}

/*
 * A resilient group (NHA_GROUP_TYPE resilient): keep the bucket table of
 * the object it replaces until the bucket dump at the next commit says
 * otherwise. False when out of memory (then mirrored as hash-based).
 */
static bool nh_res_init(struct rd_sync *s, struct snh *h)
{
	struct snh *old = nh_find(s, h->id);

	if (h->res_nb > ROCEDP_MAX_BUCKETS && (!old || !old->res_nb))
		rd_err("sync",
		       "nexthop %u: %u buckets, more than %d: rocedp "
		       "mirrors it with a table of its own",
		       h->id, h->res_nb, ROCEDP_MAX_BUCKETS);
	h->res_nh = calloc(h->res_nb, sizeof(*h->res_nh));
	if (!h->res_nh)
		return false;
	if (old && old->res_nb == h->res_nb)
		memcpy(h->res_nh, old->res_nh, h->res_nb * sizeof(*h->res_nh));
	if (!s->in_dump)
		s->res_dump = true;
	return true;
}

/* RTM_NEWNEXTHOPBUCKET: from the dump, or the kernel moving a bucket. */
static void on_nh_bucket(struct rd_sync *s, struct rd_nl *nl,
			 const struct nlmsghdr *nlh)
{
	struct snh *h;
	uint32_t group, nh;
	uint16_t b;

	if (rd_nl_res_bucket(nl, nlh, &group, &b, &nh))
		return;
	h = nh_find(s, group);
	if (!h || b >= h->res_nb || h->res_nh[b] == nh)
		return;
	h->res_nh[b] = nh;
	h->res_dirty = true;
	s->dirty = true;
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

static void on_nexthop(struct rd_sync *s, struct rd_nl *nl,
		       const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[NHA_MAX + 1];
	const struct nexthop_grp *grp;
	const struct nhmsg *nhm;
	struct snh *h, **pp;
	const void *gw;
	uint32_t id;
	size_t glen, i;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*nhm))
		return;
	nhm = mnl_nlmsg_get_payload(nlh);
	rd_nl_parse(nl, nlh, sizeof(*nhm), tb, NHA_MAX);
	id = rd_nl_attr_u32(nl, tb[NHA_ID], 0);
	if (!id)
		return;
	if (nlh->nlmsg_type == RTM_DELNEXTHOP) {
		nh_del(s, id);
		note_event(s, "nexthop %u deleted", id);
		if (!s->in_dump)
			nh_changed(s, id, true);
		return;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return;
	h->id = id;
	h->family = nhm->nh_family;
	if (tb[NHA_GROUP]) {
		glen = mnl_attr_get_payload_len(tb[NHA_GROUP]) / sizeof(*grp);
		grp = mnl_attr_get_payload(tb[NHA_GROUP]);
		h->is_group = true;
		h->grp = calloc(glen ? glen : 1, sizeof(*h->grp));
		if (!h->grp) {
			free(h);
			return;
		}
		for (i = 0; i < glen; i++) {
			uint32_t w =
				((grp[i].weight_high << 8) | grp[i].weight) + 1;

			h->grp[i].id = grp[i].id;
			h->grp[i].weight = w > 0xffff ? 0xffff : w;
		}
		h->n_grp = glen;
		h->res_nb = rd_nl_res_buckets(nl, tb[NHA_GROUP_TYPE],
					      tb[NHA_RES_GROUP]);
		if (h->res_nb && !nh_res_init(s, h))
			h->res_nb = 0;
	} else {
		h->ifindex = rd_nl_attr_u32(nl, tb[NHA_OIF], 0);
		gw = rd_nl_attr_data(nl, tb[NHA_GATEWAY],
				     h->family == AF_INET6 ? 16 : 4);
		if (gw) {
			memcpy(h->gw, gw, h->family == AF_INET6 ? 16 : 4);
			h->has_gw = true;
		}
	}
	if (tb[NHA_BLACKHOLE] || tb[NHA_FDB] || tb[NHA_ENCAP])
		h->unusable = true;
	/* replace in place: routes keep pointing at the id */
	nh_del(s, id);
	pp = &s->nhs[id % NH_BUCKETS];
	h->next = *pp;
	*pp = h;
	note_event(s, "nexthop %u %s", id, h->is_group ? "group" : "hop");
	if (!s->in_dump)
		nh_changed(s, id, false);
}

/* ------------------------------------------------------------ routes */

static unsigned int route_bucket(uint8_t family, uint8_t plen,
				 const uint8_t *addr)
{
	uint32_t h = family * 31u + plen;
	int i;

	for (i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619u;
	return (h ^ (h >> 16)) % ROUTE_BUCKETS;
}

static struct sroute *route_find(struct rd_sync *s, uint8_t family,
				 uint8_t plen, const uint8_t *addr, bool create)
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

static void var_free(struct rd_sync *s, struct svar *v)
{
	s->nh_vars -= !!v->nh_id;
	free(v->hops);
	free(v);
}

static void route_free_if_empty(struct rd_sync *s, struct sroute *r)
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
	h = nh_find(s, v->nh_id);
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
		m = nh_find(s, h->grp[i].id);
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

static void route_apply(struct rd_sync *s, struct sroute *r)
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
		       addr_str(r->family, r->addr, a, sizeof(a)), r->plen,
		       err == -E2BIG  ? "more than 64 next hops" :
		       err == -ENOSPC ? "no free group id" :
					strerror(-err));
}

/* Parse RTA_MULTIPATH: struct rtnexthop records, each with attributes. */
static int parse_multipath(struct rd_nl *nl, const struct nlattr *mp,
			   uint8_t rt_family, struct rd_hop *out, int max)
{
	const uint8_t *p = mnl_attr_get_payload(mp);
	size_t left = mnl_attr_get_payload_len(mp);
	int n = 0;

	while (left >= sizeof(struct rtnexthop)) {
		const struct rtnexthop *nh = (const void *)p;
		size_t len = nh->rtnh_len, alen;
		const struct nlattr *attr;
		struct rd_hop *h;

		if (len < sizeof(*nh) || len > left) {
			nl->bad_attrs++;
			break;
		}
		if (n == max)
			return max + 1;
		h = &out[n++];
		memset(h, 0, sizeof(*h));
		h->ifindex = nh->rtnh_ifindex;
		h->weight = nh->rtnh_hops + 1;
		alen = len - RTNH_ALIGN(sizeof(*nh));
		attr = (const void *)(p + RTNH_ALIGN(sizeof(*nh)));
		while (alen >= sizeof(*attr) &&
		       attr->nla_len >= sizeof(*attr) &&
		       attr->nla_len <= alen) {
			size_t plen = attr->nla_len - MNL_ATTR_HDRLEN;
			const uint8_t *pl =
				(const uint8_t *)attr + MNL_ATTR_HDRLEN;

			if ((attr->nla_type & NLA_TYPE_MASK) == RTA_GATEWAY) {
				size_t need = rt_family == AF_INET6 ? 16 : 4;

				if (plen >= need) {
					memcpy(h->gw, pl, need);
					h->family = rt_family;
				} else {
					nl->bad_attrs++;
				}
			} else if ((attr->nla_type & NLA_TYPE_MASK) ==
					   RTA_VIA &&
				   plen >= 2) {
				uint16_t fam;

				memcpy(&fam, pl, 2);
				if ((fam == AF_INET && plen >= 6) ||
				    (fam == AF_INET6 && plen >= 18)) {
					memcpy(h->gw, pl + 2,
					       fam == AF_INET ? 4 : 16);
					h->family = fam;
				}
			} else if ((attr->nla_type & NLA_TYPE_MASK) > RTA_MAX) {
				nl->unknown_attrs++;
			}
			if ((size_t)MNL_ALIGN(attr->nla_len) >= alen)
				break;
			alen -= MNL_ALIGN(attr->nla_len);
			attr = (const void *)((const uint8_t *)attr +
					      MNL_ALIGN(attr->nla_len));
		}
		if (RTNH_ALIGN(len) >= left)
			break;
		left -= RTNH_ALIGN(len);
		p += RTNH_ALIGN(len);
	}
	return n;
}

static bool hop_same(const struct rd_hop *a, const struct rd_hop *b)
{
	return a->ifindex == b->ifindex && a->family == b->family &&
	       !memcmp(a->gw, b->gw, sizeof(a->gw));
}

static void on_route(struct rd_sync *s, struct rd_nl *nl,
		     const struct nlmsghdr *nlh)
{
	struct rd_hop hops[ROCEDP_MAX_MEMBERS + 1], *nh;
	const struct nlattr *tb[RTA_MAX + 1];
	uint8_t addr[16] = { 0 };
	const struct rtmsg *rtm;
	struct svar *v, **pp;
	struct sroute *r;
	uint32_t table, metric, nh_id;
	size_t alen;
	const void *p;
	int n = 0, i, j, k;
	char a[INET6_ADDRSTRLEN];

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm))
		return;
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		return;
	if (rtm->rtm_flags & RTM_F_CLONED)
		return; /* IPv6 exceptions (PMTU) are no routes */
	rd_nl_parse(nl, nlh, sizeof(*rtm), tb, RTA_MAX);
	table = rd_nl_attr_u32(nl, tb[RTA_TABLE], rtm->rtm_table);
	if (table != s->opts.table && table != RT_TABLE_LOCAL)
		return;
	alen = rtm->rtm_family == AF_INET6 ? 16 : 4;
	if (rtm->rtm_dst_len > alen * 8)
		return;
	p = rd_nl_attr_data(nl, tb[RTA_DST], alen);
	if (p)
		memcpy(addr, p, alen);
	metric = rd_nl_attr_u32(nl, tb[RTA_PRIORITY], 0);
	nh_id = rd_nl_attr_u32(nl, tb[RTA_NH_ID], 0);
	if (tb[RTA_MULTIPATH]) {
		n = parse_multipath(nl, tb[RTA_MULTIPATH], rtm->rtm_family,
				    hops, ROCEDP_MAX_MEMBERS);
	} else if (!nh_id) {
		memset(&hops[0], 0, sizeof(hops[0]));
		hops[0].ifindex = rd_nl_attr_u32(nl, tb[RTA_OIF], 0);
		hops[0].weight = 1;
		if ((p = rd_nl_attr_data(nl, tb[RTA_GATEWAY], alen))) {
			memcpy(hops[0].gw, p, alen);
			hops[0].family = rtm->rtm_family;
		} else if ((p = rd_nl_attr_data(nl, tb[RTA_VIA], 6))) {
			uint16_t fam;

			memcpy(&fam, p, 2);
			if (fam == AF_INET ||
			    (fam == AF_INET6 &&
			     mnl_attr_get_payload_len(tb[RTA_VIA]) >= 18)) {
				memcpy(hops[0].gw, (const uint8_t *)p + 2,
				       fam == AF_INET ? 4 : 16);
				hops[0].family = fam;
			}
		}
		n = hops[0].ifindex || hops[0].family ? 1 : 0;
	}

	r = route_find(s, rtm->rtm_family, rtm->rtm_dst_len, addr,
		       nlh->nlmsg_type == RTM_NEWROUTE);
	if (!r)
		return;
	for (pp = &r->vars; (v = *pp); pp = &v->next)
		if (v->table == table && v->metric == metric &&
		    v->tos == rtm->rtm_tos)
			break;
	note_event(s, "route %s %s/%u",
		   nlh->nlmsg_type == RTM_NEWROUTE ? "add" : "del",
		   addr_str(rtm->rtm_family, addr, a, sizeof(a)),
		   rtm->rtm_dst_len);

	if (nlh->nlmsg_type == RTM_DELROUTE) {
		if (!v)
			return;
		if (rtm->rtm_family == AF_INET6 && n > 0 && !nh_id &&
		    v->n_hops > n) {
			/* IPv6 deletes single next hops of a multipath route */
			for (i = 0, k = 0; i < v->n_hops; i++) {
				for (j = 0; j < n; j++)
					if (hop_same(&v->hops[i], &hops[j]))
						break;
				if (j == n)
					v->hops[k++] = v->hops[i];
			}
			v->n_hops = k;
		} else {
			v->n_hops = 0;
		}
		if (!v->n_hops) {
			if (v->alias)
				schedule_resync(
					s, 0); /* the hidden one is live now */
			*pp = v->next;
			var_free(s, v);
		}
		route_apply(s, r);
		route_free_if_empty(s, r);
		return;
	}

	if (v && rtm->rtm_family == AF_INET &&
	    (s->in_dump || ((nlh->nlmsg_flags & NLM_F_APPEND) &&
			    !(nlh->nlmsg_flags & NLM_F_REPLACE)))) {
		/* a second IPv4 route of the same key: the kernel uses the first */
		v->alias = true;
		return;
	}
	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v)
			return;
		v->table = table;
		v->metric = metric;
		v->tos = rtm->rtm_tos;
		*pp = v;
	}
	if (v->n_hops && rtm->rtm_family == AF_INET6 && n > 0 && !nh_id &&
	    !v->nh_id && (s->in_dump || (nlh->nlmsg_flags & NLM_F_APPEND))) {
		/* union: an IPv6 append names the new siblings, maybe all */
		nh = realloc(v->hops, (v->n_hops + n) * sizeof(*nh));
		if (!nh)
			return;
		v->hops = nh;
		for (j = 0; j < n; j++) {
			for (i = 0; i < v->n_hops; i++)
				if (hop_same(&v->hops[i], &hops[j]))
					break;
			if (i == v->n_hops)
				v->hops[v->n_hops++] = hops[j];
			else
				v->hops[i].weight = hops[j].weight;
		}
	} else {
		free(v->hops);
		v->hops = NULL;
		v->n_hops = 0;
		if (n > 0) {
			v->hops = malloc(n * sizeof(*v->hops));
			if (!v->hops)
				n = 0;
			else
				memcpy(v->hops, hops, n * sizeof(*v->hops));
		}
		v->n_hops = n;
	}
	v->type = rtm->rtm_type;
	s->nh_vars += !!nh_id - !!v->nh_id;
	v->nh_id = nh_id;
	if (!s->in_dump)
		route_apply(s, r);
}

/* ------------------------------------------------------------ dispatch */

struct msg_ctx {
	struct rd_sync *s;
	struct rd_nl *nl;
};

static void service_events(struct rd_sync *s);

static int on_msg(const struct nlmsghdr *nlh, void *data)
{
	struct msg_ctx *ctx = data;
	struct rd_sync *s = ctx->s;

	if (s->service_ok && !(++s->svc_count & 63))
		service_events(s);
	s->st.events++;
	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		on_link(s, ctx->nl, nlh);
		break;
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		on_neigh(s, ctx->nl, nlh);
		break;
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		on_route(s, ctx->nl, nlh);
		break;
	case RTM_NEWNEXTHOP:
	case RTM_DELNEXTHOP:
		on_nexthop(s, ctx->nl, nlh);
		break;
	case RTM_NEWNEXTHOPBUCKET:
		on_nh_bucket(s, ctx->nl, nlh);
		break;
	default:
		s->st.ignored_msgs++;
		break;
	}
	return MNL_CB_OK;
}

/* ------------------------------------------------------------ members */

static void queue_probe(struct rd_sync *s, struct sneigh *n)
{
	struct sneigh **q;

	if (n->probe_queued)
		return;
	if (s->n_probe == s->cap_probe) {
		size_t cap = s->cap_probe ? s->cap_probe * 2 : 64;

		q = realloc(s->probe_q, cap * sizeof(*q));
		if (!q)
			return;
		s->probe_q = q;
		s->cap_probe = cap;
	}
	s->probe_q[s->n_probe++] = n;
	n->probe_queued = true;
}

static void fill_member(void *ctx, struct rocedp_member *m)
{
	struct rd_sync *s = ctx;
	struct slink *l = link_find(s, m->ifindex);
	struct sneigh *n;

	if (l && l->has_addr)
		memcpy(m->smac, l->addr, 6);
	if (link_usable(l))
		m->flags |= ROCEDP_MEMBERF_UP;
	n = neigh_find(s, m->ifindex, m->nh_family, m->nh_addr);
	if (neigh_resolved(n)) {
		memcpy(m->dmac, n->lladdr, 6);
		m->flags |= ROCEDP_MEMBERF_RESOLVED;
		return;
	}
	s->unresolved++;
	/* nobody may send through the kernel to this gateway: ask for it */
	if (link_usable(l) &&
	    (n || (n = neigh_get(s, m->ifindex, m->nh_family, m->nh_addr))))
		queue_probe(s, n);
}

static void run_probes(struct rd_sync *s)
{
	uint64_t now = now_ns();
	struct sneigh *n;
	size_t i;

	for (i = 0; i < s->n_probe; i++) {
		n = s->probe_q[i];
		if (!n)
			continue;
		n->probe_queued = false;
		if (neigh_resolved(n) ||
		    (n->last_probe_ns &&
		     now - n->last_probe_ns < PROBE_INTERVAL_NS))
			continue;
		/* a valid entry must not be touched: NTF_USE re-arms state */
		if (n->state & (NUD_REACHABLE | NUD_STALE | NUD_DELAY |
				NUD_PROBE | NUD_PERMANENT))
			continue;
		n->last_probe_ns = now;
		s->st.neigh_probes++;
		rd_nl_neigh_probe(&s->req, n->ifindex, n->family, n->addr);
	}
	s->n_probe = 0;
}

static void report_unknown(struct rd_sync *s)
{
	uint64_t unk = s->req.unknown_attrs + s->mon.unknown_attrs;

	s->st.unknown_attrs = unk;
	s->st.bad_attrs = s->req.bad_attrs + s->mon.bad_attrs;
	if (unk && !s->warned_unknown) {
		s->warned_unknown = true;
		fprintf(stderr,
			"sync: skipped %" PRIu64
			" netlink attributes newer than this build (counted, harmless)\n",
			unk);
	}
}

static uint64_t counts_total(const struct rd_fib_counts *c)
{
	return c->group_writes + c->group_deletes + c->route_writes +
	       c->route_deletes + c->port_writes;
}

static uint32_t config_fib_gen(struct rd_sync *s)
{
	struct rocedp_config c;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(s->maps.fd[RD_MAP_CONFIG], &zero, &c))
		return s->fib_gen;
	return c.fib_gen;
}

/*
 * Around every map write: see dir_fd. No write without the lock: a signal
 * while waiting retries the wait, a stop request gives up (-ECANCELED),
 * and so does any other failure (logged once); the caller keeps its
 * changes for a later commit. Under the lock, a config load/set that
 * wrote routes or groups since the maps were last read (fib_gen) makes us
 * read them again, so its static entries are known before we write.
 * Returns 1 then: the caller's commit must be a full one; else 0.
 */
static int writers_lock(struct rd_sync *s, bool lock)
{
	static bool warned;
	uint32_t gen;
	int err;

	if (!lock) {
		rd_lock_release(s->dir_fd);
		return 0;
	}
	err = rd_lock_wait(s->dir_fd, s->opts.stop);
	if (err) {
		if (err != -ECANCELED && !warned)
			rd_err("sync", "locking %s: %s; maps not written",
			       s->opts.pin_dir, strerror(-err));
		warned = err != -ECANCELED;
		return err;
	}
	gen = config_fib_gen(s);
	if (gen == s->fib_gen)
		return 0;
	err = rd_fib_load_installed(s->fib);
	if (err) {
		rd_err("sync", "reading the maps after a config change: %s",
		       strerror(-err));
		return 0;
	}
	s->fib_gen = gen;
	s->full_next = true;
	rd_fib_touch_ifindex(s->fib, 0);
	note_event(s, "config changed routes or groups (fib_gen %u)", gen);
	return 1;
}

/* Before a commit: fetch tables of changed groups, re-apply their routes. */
static void nh_res_refresh(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->req };
	struct snh *h;
	unsigned int b;

	if (s->res_dump) {
		s->res_dump = false;
		rd_nl_dump(&s->req, RTM_GETNEXTHOPBUCKET, AF_UNSPEC, on_msg,
			   &ctx);
	}
	for (b = 0; b < NH_BUCKETS; b++)
		for (h = s->nhs[b]; h; h = h->next)
			if (h->res_dirty) {
				h->res_dirty = false;
				nh_changed(s, h->id, false);
			}
}

static void commit_batch(struct rd_sync *s, uint64_t t_arrival,
			 bool groups_only)
{
	struct rd_fib_counts before = s->st.writes;
	uint64_t writes, ns;

	if (s->resync_failures || writers_lock(s, true) < 0)
		return; /* nothing written: dirty stays for the next try */
	if (groups_only) {
		/* after a re-read, the next route commit is full (full_next) */
		rd_fib_commit_groups(s->fib, fill_member, s, &s->st.writes);
	} else {
		nh_res_refresh(s);
		s->unresolved = 0;
		rd_fib_commit(s->fib, s->full_next, fill_member, s,
			      &s->st.writes);
		s->full_next = false;
		s->dirty = false;
	}
	writers_lock(s, false);
	writes = counts_total(&s->st.writes) - counts_total(&before);
	if (writes) {
		ns = now_ns() - t_arrival;
		s->st.batches++;
		s->st.lat_last_ns = ns;
		s->st.lat_sum_ns += ns;
		s->st.lat_n++;
		if (ns > s->st.lat_max_ns)
			s->st.lat_max_ns = ns;
		if (s->opts.latency_log) {
			if (rd_json)
				printf("{\"latency_ns\":%" PRIu64
				       ",\"events\":%" PRIu64
				       ",\"writes\":%" PRIu64
				       ",\"first\":\"%s\"}\n",
				       ns, s->batch_events, writes,
				       s->first_event);
			else
				printf("latency %.1f us events %" PRIu64
				       " writes %" PRIu64 " first: %s\n",
				       ns / 1000.0, s->batch_events, writes,
				       s->first_event);
			fflush(stdout);
		}
		if (s->lat_fn)
			s->lat_fn(s->lat_ctx, ns, s->first_event);
	}
	s->first_event[0] = 0;
	s->batch_events = 0;
	if (!groups_only) /* the request socket may be in a dump */
		run_probes(s);
	report_unknown(s);
}

/* ------------------------------------------------------------ resync */

static int discard_msg(const struct nlmsghdr *nlh __attribute__((unused)),
		       void *data __attribute__((unused)))
{
	return MNL_CB_OK;
}

/*
 * During a dump: apply link and neighbour events at once (a member going
 * down must not wait for 100k routes to be read), keep the rest in order
 * for after the dump.
 */
static int serve_or_defer(const struct nlmsghdr *nlh, void *data)
{
	struct msg_ctx *ctx = data;
	struct rd_sync *s = ctx->s;
	size_t len = NLMSG_ALIGN(nlh->nlmsg_len);
	char *d;

	switch (s->defer_all ? 0 : nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		s->in_dump = false;
		s->st.events++;
		if (nlh->nlmsg_type == RTM_NEWLINK ||
		    nlh->nlmsg_type == RTM_DELLINK)
			on_link(s, ctx->nl, nlh);
		else
			on_neigh(s, ctx->nl, nlh);
		s->in_dump = true;
		return MNL_CB_OK;
	}
	if (s->overrun_in_resync)
		return MNL_CB_OK; /* already lost: the next resync covers it */
	/* as much again as the socket may hold: --rcvbuf sizes both */
	if (s->n_deferred + len >
	    (size_t)(s->opts.rcvbuf > 0 ? s->opts.rcvbuf : EVENT_RCVBUF)) {
		/* a flood outran the dump: replaying it would cost more */
		s->st.deferred_drops++;
		s->n_deferred = 0;
		s->overrun_in_resync = true;
		return MNL_CB_OK;
	}
	if (s->n_deferred + len > s->cap_deferred) {
		size_t cap = (s->cap_deferred + len) * 2;

		d = realloc(s->deferred, cap);
		if (!d) {
			s->n_deferred = 0;
			s->overrun_in_resync = true; /* lost: resync again */
			return MNL_CB_OK;
		}
		s->deferred = d;
		s->cap_deferred = cap;
	}
	memcpy(s->deferred + s->n_deferred, nlh, nlh->nlmsg_len);
	s->n_deferred += len;
	return MNL_CB_OK;
}

static void service_events(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->mon };
	struct pollfd pfd = { .fd = rd_nl_fd(&s->mon), .events = POLLIN };
	uint64_t t;
	int n;

	if (poll(&pfd, 1, 0) <= 0)
		return;
	t = now_ns();
	s->service_ok = false; /* no recursion from inside the callbacks */
	n = rd_nl_drain(&s->mon, serve_or_defer, &ctx, MAX_DGRAMS_PER_BATCH);
	if (n == -ENOBUFS) {
		s->st.overruns++;
		s->overrun_in_resync = true;
		while (rd_nl_drain(&s->mon, discard_msg, NULL,
				   MAX_DGRAMS_PER_BATCH) > 0)
			;
	}
	commit_batch(s, t, true);
	s->service_ok = true;
}

static void run_deferred(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->mon };
	const struct nlmsghdr *nlh = (const void *)s->deferred;
	int left = s->n_deferred;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
		on_msg(nlh, &ctx);
	s->n_deferred = 0;
}

static void clear_kernel_view(struct rd_sync *s)
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
				var_free(s, v);
			}
			free(r);
		}
		s->routes[b] = NULL;
	}
}

static int dump_all(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->req };
	static const struct {
		uint16_t type;
		uint8_t family;
		bool optional;
	} dumps[] = {
		{ RTM_GETLINK, AF_UNSPEC, false },
		{ RTM_GETNEIGH, AF_INET, false },
		{ RTM_GETNEIGH, AF_INET6, true },
		{ RTM_GETNEXTHOP, AF_UNSPEC,
		  true }, /* before the routes using them */
		{ RTM_GETNEXTHOPBUCKET, AF_UNSPEC, true }, /* resilient */
		{ RTM_GETROUTE, AF_INET, false },
		{ RTM_GETROUTE, AF_INET6, true },
	};
	unsigned int i;
	int err;

	for (i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		s->service_ok = dumps[i].type == RTM_GETNEXTHOP ||
				dumps[i].type == RTM_GETROUTE;
		err = rd_nl_dump(&s->req, dumps[i].type, dumps[i].family,
				 on_msg, &ctx);
		s->service_ok = false;
		if (err == -EAGAIN)
			return err;
		if (err && !dumps[i].optional) {
			rd_err("sync", "netlink dump %u/%u: %s", dumps[i].type,
			       dumps[i].family, strerror(-err));
			return err;
		}
	}
	return 0;
}

/*
 * Between two tries of a dump: wait, but keep every event in order for
 * after the dump that succeeds (the kernel sends some before the change is
 * visible to a dump). Link and neighbour events wait too: the view of them
 * may be half read.
 */
static int backoff(struct rd_sync *s, uint64_t ns)
{
	struct msg_ctx ctx = { s, &s->mon };
	struct pollfd pfd = { .fd = rd_nl_fd(&s->mon), .events = POLLIN };
	uint64_t end = now_ns() + ns, now;

	while ((now = now_ns()) < end) {
		if (s->opts.stop && *s->opts.stop)
			return -ECANCELED;
		if (poll(&pfd, 1, (end - now) / 1000000 + 1) <= 0)
			continue;
		s->in_dump = s->defer_all = true;
		if (rd_nl_drain(&s->mon, serve_or_defer, &ctx,
				MAX_DGRAMS_PER_BATCH) == -ENOBUFS) {
			s->st.overruns++;
			s->overrun_in_resync = true;
		}
		s->in_dump = s->defer_all = false;
	}
	return s->opts.stop && *s->opts.stop ? -ECANCELED : 0;
}

/*
 * Never exit for a failed resync: try again later, paced. Until one
 * succeeds the kernel view may be half read, so nothing is committed.
 */
static int resync_failed(struct rd_sync *s, int err)
{
	if (err == -ECANCELED)
		return err;
	if (!s->resync_failures++)
		rd_err("sync", "full resync: %s; retrying", strerror(-err));
	s->resync_at = now_ns() + rd_backoff_ns(s->resync_failures);
	return err;
}

/*
 * reload: read the maps back into the mirror first (start, SIGHUP). A
 * resync for a link change or an overrun trusts the mirror: this process is
 * the only writer of its entries, and reading 100k routes back costs more
 * than the dump itself.
 */
static int resync(struct rd_sync *s, bool reload)
{
	uint64_t t0 = now_ns(), t1, t2, t3;
	unsigned int b, k = 0;
	struct sroute *r;
	int err, tries;

	s->resync_at = 0;
	s->overrun_in_resync = false;
	s->st.resyncs++;
	if (reload) {
		/* read first: a config change while we read shows at the commit */
		s->fib_gen = config_fib_gen(s);
		err = rd_fib_load_installed(s->fib);
		if (err) {
			rd_err("sync", "reading the maps: %s", strerror(-err));
			return resync_failed(s, err);
		}
	}
	t1 = now_ns();
	/*
	 * EAGAIN: the table changed during the dump. Try again, paced, for as
	 * long as it takes: giving up would leave the maps stale.
	 */
	for (tries = 0;; tries++) {
		if (tries) {
			s->st.dump_retries++;
			err = backoff(s, rd_backoff_ns(tries));
			if (err)
				return err;
		}
		clear_kernel_view(s);
		s->in_dump = true;
		err = dump_all(s);
		s->in_dump = false;
		if (err != -EAGAIN)
			break;
	}
	if (err)
		return resync_failed(s, err);
	s->resync_failures = 0;
	t2 = now_ns();
	rd_fib_begin_full(s->fib);
	for (b = 0; b < ROUTE_BUCKETS; b++)
		for (r = s->routes[b]; r; r = r->next) {
			route_apply(s, r);
			if (!(++k & 4095)) {
				s->service_ok = true;
				s->in_dump = true;
				service_events(s);
				s->in_dump = false;
				s->service_ok = false;
			}
		}
	rd_fib_end_full(s->fib);
	t3 = now_ns();
	rd_fib_touch_ifindex(s->fib, 0);
	s->unresolved = 0;
	err = writers_lock(s, true);
	if (err < 0) {
		s->full_next = s->dirty =
			true; /* the model is ahead of the maps */
		return err;
	}
	rd_fib_commit(s->fib, true, fill_member, s, &s->st.writes);
	writers_lock(s, false);
	s->full_next = false;
	s->dirty = false;
	s->first_event[0] = 0;
	s->batch_events = 0;
	run_probes(s);
	report_unknown(s);
	if (s->opts.verbose)
		fprintf(stderr,
			"sync: full resync in %.1f ms (maps read %.1f, dump %.1f, model %.1f)\n",
			(now_ns() - t0) / 1e6, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
			(t3 - t2) / 1e6);
	/* what arrived during the dump, in order, then committed as a batch */
	if (s->n_deferred) {
		t0 = now_ns();
		run_deferred(s);
		if (s->dirty)
			commit_batch(s, t0, false);
	}
	if (s->overrun_in_resync)
		s->resync_at = 1;
	return 0;
}

int rd_sync_resync(struct rd_sync *s)
{
	return resync(s, true);
}

int rd_sync_feed(struct rd_sync *s, const void *buf, size_t len)
{
	struct msg_ctx ctx = { s, &s->mon };
	uint64_t t = now_ns();
	int ret;

	s->service_ok = false; /* the messages given, none from the socket */
	ret = mnl_cb_run(buf, len, 0, 0, on_msg, &ctx);
	commit_batch(s, t, false);
	return ret < 0 ? -EBADMSG : 0;
}

/* ------------------------------------------------------------ lifecycle */

int rd_sync_open(struct rd_sync **out, const struct rd_sync_opts *opts)
{
	static const unsigned int groups[] = {
		RTNLGRP_LINK,	    RTNLGRP_NEIGH,   RTNLGRP_IPV4_ROUTE,
		RTNLGRP_IPV6_ROUTE, RTNLGRP_NEXTHOP,
	};
	struct rd_fib_maps fm;
	struct rd_sync *s;
	const char *dir;
	int err;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->routes = calloc(ROUTE_BUCKETS, sizeof(*s->routes));
	s->lock_fd = -1;
	s->dir_fd = -1;
	rd_maps_init(&s->maps);
	if (!s->routes) {
		err = -ENOMEM;
		goto err;
	}
	s->opts = *opts;
	if (!s->opts.table)
		s->opts.table = RT_TABLE_MAIN;
	dir = s->opts.pin_dir ? s->opts.pin_dir : rd_pin_dir();
	s->opts.pin_dir = dir;

	err = rd_maps_open_pinned(&s->maps, dir);
	if (err) {
		rd_err("sync", "maps in %s: %s%s", dir, strerror(-err),
		       err == -ENOENT ? " (run rocedp attach first)" : "");
		goto err;
	}
	/*
	 * One sync per pin directory: two daemons would fight over ids. The
	 * lock is a file of its own, since `config load/set` lock the pin
	 * directory itself for their short writes and must not wait for us.
	 */
	{
		char lock[PATH_MAX];

		err = rd_sync_lock_path(dir, lock, sizeof(lock));
		if (err) {
			rd_err("sync", "%s: %s", dir, strerror(-err));
			goto err;
		}
		mkdir(ROCEDP_RUN_DIR, 0700);
		s->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	}
	if (s->lock_fd < 0 || flock(s->lock_fd, LOCK_EX | LOCK_NB)) {
		err = -errno;
		rd_err("sync", "%s: %s", dir,
		       err == -EWOULDBLOCK ?
			       "another rocedp sync is running on it" :
			       strerror(-err));
		goto err;
	}
	/*
	 * Map writes take the lock that `config load/set` hold while they
	 * read the maps and write: a load's undo records are what it read,
	 * so no sync write may fall in between (they wait for one load,
	 * milliseconds).
	 */
	s->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dir_fd < 0) {
		err = -errno;
		rd_err("sync", "%s: %s", dir, strerror(-err));
		goto err;
	}
	s->fib = rd_fib_new();
	if (!s->fib) {
		err = -ENOMEM;
		goto err;
	}
	fm.routes4 = s->maps.fd[RD_MAP_ROUTES4];
	fm.routes6 = s->maps.fd[RD_MAP_ROUTES6];
	fm.groups = s->maps.fd[RD_MAP_GROUPS];
	fm.group_banks = s->maps.fd[RD_MAP_GROUP_BANKS];
	fm.group_live = s->maps.fd[RD_MAP_GROUP_LIVE];
	fm.tx_ports = s->maps.fd[RD_MAP_TX_PORTS];
	fm.port_cfg = s->maps.fd[RD_MAP_PORT_CFG];
	s->fm = fm;
	rd_fib_set_maps(s->fib, &s->fm);

	/* subscribe before dumping, so no change falls between the two */
	err = rd_nl_open(&s->mon, groups, sizeof(groups) / sizeof(groups[0]),
			 s->opts.rcvbuf > 0 ? s->opts.rcvbuf : EVENT_RCVBUF);
	if (!err)
		err = rd_nl_open(&s->req, NULL, 0, 0);
	if (err) {
		rd_err("sync", "netlink socket: %s", strerror(-err));
		goto err;
	}
	*out = s;
	return 0;
err:
	rd_sync_close(s);
	return err;
}

void rd_sync_close(struct rd_sync *s)
{
	if (!s)
		return;
	if (s->routes)
		clear_kernel_view(s);
	free(s->routes);
	free(s->probe_q);
	free(s->deferred);
	rd_fib_free(s->fib);
	if (s->mon.sk)
		rd_nl_close(&s->mon);
	if (s->req.sk)
		rd_nl_close(&s->req);
	rd_maps_close(&s->maps);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
	free(s);
}

int rd_sync_event_fd(struct rd_sync *s)
{
	return rd_nl_fd(&s->mon);
}

void rd_sync_set_latency_fn(struct rd_sync *s, rd_sync_latency_fn fn, void *ctx)
{
	s->lat_fn = fn;
	s->lat_ctx = ctx;
}

void rd_sync_get_stats(struct rd_sync *s, struct rd_sync_stats *st)
{
	report_unknown(s);
	s->st.routes = rd_fib_n_routes(s->fib);
	s->st.groups = rd_fib_n_groups(s->fib);
	*st = s->st;
}

int rd_sync_poll(struct rd_sync *s, int timeout_ms)
{
	struct msg_ctx ctx = { s, &s->mon };
	struct pollfd pfd = { .fd = rd_nl_fd(&s->mon), .events = POLLIN };
	uint64_t now = now_ns(), t_arrival;
	int wait = timeout_ms, n, ret;

	if (!s->next_tick)
		s->next_tick = now + PROBE_INTERVAL_NS;
	if (s->resync_at) {
		int until = s->resync_at > now ?
				    (int)((s->resync_at - now) / 1000000 + 1) :
				    0;

		if (wait < 0 || until < wait)
			wait = until;
	}
	ret = poll(&pfd, 1, wait);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (ret > 0) {
		t_arrival = now_ns();
		n = rd_nl_drain(&s->mon, on_msg, &ctx, MAX_DGRAMS_PER_BATCH);
		if (n == -ENOBUFS) {
			s->st.overruns++;
			rd_err("sync", "netlink event overrun, full resync");
			/*
			 * What is still queued is older than the lost events:
			 * replayed after the dump it would undo newer state.
			 */
			while (rd_nl_drain(&s->mon, discard_msg, NULL,
					   MAX_DGRAMS_PER_BATCH) > 0)
				;
			s->resync_at = 1; /* now */
		} else if (n < 0) {
			rd_err("sync", "netlink receive: %s", strerror(-n));
			return n;
		}
		/* after an overrun the resync below writes the whole state */
		if (s->dirty && s->resync_at != 1)
			commit_batch(s, t_arrival, false);
	}
	now = now_ns();
	if (s->resync_at && now >= s->resync_at) {
		ret = resync(s, false);
		if (ret == -ECANCELED)
			return ret; /* other failures are retried, paced */
	}
	if (now >= s->next_tick) {
		s->next_tick = now + PROBE_INTERVAL_NS;
		if (s->unresolved) {
			/* rebuilding refills the probe queue, writes nothing new */
			rd_fib_touch_ifindex(s->fib, 0);
			commit_batch(s, now, false);
		} else if (config_fib_gen(s) != s->fib_gen) {
			/* a config change with no event since: e.g. a static
			 * route removed whose prefix the kernel routes too */
			commit_batch(s, now, false);
		}
	}
	return 0;
}
