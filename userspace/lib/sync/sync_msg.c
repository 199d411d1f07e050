// SPDX-License-Identifier: GPL-2.0
/* The netlink message handlers of rocedp sync (sync_msg.h). */
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "rocedp.h"
#include "nl.h"
#include "sync_msg.h"
#include "sync_route.h"
#include "sync_state.h"
#include "sync_view.h"

/* ------------------------------------------------------------ links */

void rd_on_link(struct rd_sync *s, struct rd_nl *nl, const struct nlmsghdr *nlh)
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
	/* carrier flaps for rd_port_flaps; a failed write costs no route */
	rd_flaps_link(&s->flaps, idx, ifi->ifi_flags,
		      nlh->nlmsg_type == RTM_DELLINK, rd_flaps_now());
	if (nlh->nlmsg_type == RTM_DELLINK) {
		rd_link_del(s, idx);
		rd_fib_touch_ifindex(s->fib, idx);
		rd_fib_forget_port(s->fib, idx);
		s->dirty = true;
		rd_note_event(s, "link %u deleted", idx);
		/* IPv4 flushes routes over a vanished link without telling */
		rd_schedule_resync(s, RESYNC_DELAY_NS);
		return;
	}
	rd_nl_parse(nl, nlh, sizeof(*ifi), tb, IFLA_MAX);
	l = rd_link_find(s, idx);
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
		was_usable = rd_link_usable(l);
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
	if (was_usable != rd_link_usable(l) || memcmp(old_mac, l->addr, 6)) {
		rd_fib_touch_ifindex(s->fib, idx);
		s->dirty = true;
		rd_note_event(s, "link %s(%u) %s", l->name, idx,
			      rd_link_usable(l) ? "up" : "down");
	}
	/* admin up/down flushes or revives kernel routes without events */
	if (was_up != !!(l->flags & IFF_UP))
		rd_schedule_resync(s, RESYNC_DELAY_NS);
}

/* ------------------------------------------------------------ neighbours */

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

void rd_on_neigh(struct rd_sync *s, struct rd_nl *nl,
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
	n = rd_neigh_find(s, ndm->ndm_ifindex, ndm->ndm_family, addr);
	if (nlh->nlmsg_type == RTM_DELNEIGH) {
		if (!n)
			return;
		was_resolved = rd_neigh_resolved(n);
		rd_neigh_del(s, n);
		if (was_resolved) {
			rd_fib_touch_ifindex(s->fib, ndm->ndm_ifindex);
			s->dirty = true;
			rd_note_event(s, "neigh %s dev %d deleted",
				      rd_addr_str(ndm->ndm_family, addr, a,
						  sizeof(a)),
				      ndm->ndm_ifindex);
		}
		return;
	}
	if (!n)
		n = rd_neigh_get(s, ndm->ndm_ifindex, ndm->ndm_family, addr);
	if (!n)
		return;
	was_resolved = rd_neigh_resolved(n);
	memcpy(old_ll, n->lladdr, 6);
	n->state = ndm->ndm_state;
	ll = tb[NDA_LLADDR] ? mnl_attr_get_payload(tb[NDA_LLADDR]) : NULL;
	if (ll && mnl_attr_get_payload_len(tb[NDA_LLADDR]) == 6) {
		memcpy(n->lladdr, ll, 6);
		n->has_lladdr = true;
	} else if (n->state & (NUD_FAILED | NUD_INCOMPLETE)) {
		n->has_lladdr = false;
	}
	if (was_resolved != rd_neigh_resolved(n) ||
	    (rd_neigh_resolved(n) && memcmp(old_ll, n->lladdr, 6))) {
		rd_fib_touch_ifindex(s->fib, ndm->ndm_ifindex);
		s->dirty = true;
		rd_note_event(s, "neigh %s dev %d %s",
			      rd_addr_str(ndm->ndm_family, addr, a, sizeof(a)),
			      ndm->ndm_ifindex, nud_name(n->state));
	}
}

/* ------------------------------------------------------------ nexthops */

/*
 * A resilient group (NHA_GROUP_TYPE resilient): keep the bucket table of
 * the object it replaces until the bucket dump at the next commit says
 * otherwise. False when out of memory (then mirrored as hash-based).
 */
static bool nh_res_init(struct rd_sync *s, struct snh *h)
{
	struct snh *old = rd_nh_find(s, h->id);

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
void rd_on_nh_bucket(struct rd_sync *s, struct rd_nl *nl,
		     const struct nlmsghdr *nlh)
{
	struct snh *h;
	uint32_t group, nh;
	uint16_t b;

	if (rd_nl_res_bucket(nl, nlh, &group, &b, &nh))
		return;
	h = rd_nh_find(s, group);
	if (!h || b >= h->res_nb || h->res_nh[b] == nh)
		return;
	h->res_nh[b] = nh;
	h->res_dirty = true;
	s->dirty = true;
}

void rd_on_nexthop(struct rd_sync *s, struct rd_nl *nl,
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
		rd_nh_del(s, id);
		rd_note_event(s, "nexthop %u deleted", id);
		if (!s->in_dump)
			rd_nh_changed(s, id, true);
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
	rd_nh_del(s, id);
	pp = &s->nhs[id % NH_BUCKETS];
	h->next = *pp;
	*pp = h;
	rd_note_event(s, "nexthop %u %s", id, h->is_group ? "group" : "hop");
	if (!s->in_dump)
		rd_nh_changed(s, id, false);
}

/* ------------------------------------------------------------ routes */

static bool hop_same(const struct rd_hop *a, const struct rd_hop *b)
{
	return a->ifindex == b->ifindex && a->family == b->family &&
	       !memcmp(a->gw, b->gw, sizeof(a->gw));
}

void rd_on_route(struct rd_sync *s, struct rd_nl *nl,
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
		n = rd_nl_multipath(nl, tb[RTA_MULTIPATH], rtm->rtm_family,
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

	r = rd_route_find(s, rtm->rtm_family, rtm->rtm_dst_len, addr,
			  nlh->nlmsg_type == RTM_NEWROUTE);
	if (!r)
		return;
	for (pp = &r->vars; (v = *pp); pp = &v->next)
		if (v->table == table && v->metric == metric &&
		    v->tos == rtm->rtm_tos)
			break;
	rd_note_event(s, "route %s %s/%u",
		      nlh->nlmsg_type == RTM_NEWROUTE ? "add" : "del",
		      rd_addr_str(rtm->rtm_family, addr, a, sizeof(a)),
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
				rd_schedule_resync(
					s, 0); /* the hidden one is live now */
			*pp = v->next;
			rd_var_free(s, v);
		}
		rd_route_apply(s, r);
		rd_route_free_if_empty(s, r);
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
		rd_route_apply(s, r);
}
