// SPDX-License-Identifier: GPL-2.0
/*
 * The RIB's sources read in: the config's static routes (the maps, by
 * their STATIC flag), the kernel's routes (one RTM_GETROUTE dump per
 * family) and the installed route tries. Reads only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>

#include "rib_read.h"
#include "config_read.h"
#include "nl.h"
#include "routew.h"

/* ------------------------------------------------------------ config */

int rd_rib_read_config(struct rd_rib *r, const struct rd_maps *m)
{
	struct rd_staged s;
	unsigned int i, j, k;
	int err;

	err = rd_config_read_running(m, &s);
	if (err)
		return err;
	for (i = 0; i < s.n_routes && !err; i++) {
		const struct rd_cfg_route *cr = &s.routes[i];
		struct rd_rib_route rt;

		memset(&rt, 0, sizeof(rt));
		rt.family = cr->family;
		rt.plen = cr->plen;
		memcpy(rt.addr, cr->addr, 16);
		rt.src = RD_RIB_CONFIG;
		rt.distance = RD_RIB_DIST_STATIC;
		rt.flags = cr->val.flags & ROCEDP_ROUTEF_LOCAL;
		if (!rt.flags) {
			rt.group_id = cr->val.group_id;
			/* its members' ports, for the reader */
			for (j = 0; j < s.n_groups; j++) {
				const struct rocedp_group *g = &s.groups[j].g;

				if (s.groups[j].id != rt.group_id)
					continue;
				rt.n_hops_all = g->n_members;
				for (k = 0;
				     k < g->n_members && k < RD_RIB_MAX_HOPS;
				     k++) {
					rt.hops[k].ifindex =
						g->members[k].ifindex;
					rt.hops[k].weight =
						g->members[k].weight;
				}
				rt.n_hops = k;
			}
		}
		err = rd_rib_add(r, &rt);
	}
	rd_staged_free(&s);
	return err;
}

/* ------------------------------------------------------------ kernel */

struct kread {
	struct rd_rib *rib;
	struct rd_nl *nl;
	uint32_t table;
	bool local;
	int err;
};

static int on_route(const struct nlmsghdr *nlh, void *data)
{
	struct rd_hop hops[ROCEDP_MAX_MEMBERS + 1];
	const struct nlattr *tb[RTA_MAX + 1];
	struct kread *k = data;
	const struct rtmsg *rtm;
	struct rd_rib_route rt;
	uint32_t table;
	size_t alen;
	const void *p;
	int n = 0;

	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*rtm))
		return MNL_CB_OK;
	rtm = mnl_nlmsg_get_payload(nlh);
	if ((rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6) ||
	    (rtm->rtm_flags & RTM_F_CLONED))
		return MNL_CB_OK;
	rd_nl_parse(k->nl, nlh, sizeof(*rtm), tb, RTA_MAX);
	table = rd_nl_attr_u32(k->nl, tb[RTA_TABLE], rtm->rtm_table);
	if (table != k->table && !(k->local && table == RT_TABLE_LOCAL))
		return MNL_CB_OK;
	alen = rtm->rtm_family == AF_INET6 ? 16 : 4;
	if (rtm->rtm_dst_len > alen * 8)
		return MNL_CB_OK;
	memset(&rt, 0, sizeof(rt));
	rt.family = rtm->rtm_family;
	rt.plen = rtm->rtm_dst_len;
	p = rd_nl_attr_data(k->nl, tb[RTA_DST], alen);
	if (p)
		memcpy(rt.addr, p, alen);
	rt.src = RD_RIB_KERNEL;
	rt.proto = rtm->rtm_protocol;
	rt.distance = rd_rib_kernel_distance(rt.proto);
	rt.metric = rd_nl_attr_u32(k->nl, tb[RTA_PRIORITY], 0);
	rt.table = table;
	rt.nh_id = rd_nl_attr_u32(k->nl, tb[RTA_NH_ID], 0);
	if (tb[RTA_MULTIPATH]) {
		n = rd_nl_multipath(k->nl, tb[RTA_MULTIPATH], rt.family, hops,
				    ROCEDP_MAX_MEMBERS);
	} else if (!rt.nh_id) {
		memset(&hops[0], 0, sizeof(hops[0]));
		hops[0].ifindex = rd_nl_attr_u32(k->nl, tb[RTA_OIF], 0);
		hops[0].weight = 1;
		if ((p = rd_nl_attr_data(k->nl, tb[RTA_GATEWAY], alen))) {
			memcpy(hops[0].gw, p, alen);
			hops[0].family = rt.family;
		}
		n = hops[0].ifindex || hops[0].family ? 1 : 0;
	}
	rt.n_hops_all = n;
	rt.n_hops = n < RD_RIB_MAX_HOPS ? n : RD_RIB_MAX_HOPS;
	memcpy(rt.hops, hops, rt.n_hops * sizeof(hops[0]));
	/* what rocedp gives the kernel to forward (docs/sync.md) */
	if (rtm->rtm_type != RTN_UNICAST || table == RT_TABLE_LOCAL || !n)
		rt.flags = ROCEDP_ROUTEF_LOCAL;
	for (int i = 0; i < rt.n_hops; i++)
		if (!rt.hops[i].family)
			rt.flags = ROCEDP_ROUTEF_LOCAL; /* a connected hop */
	k->err = rd_rib_add(k->rib, &rt);
	return k->err ? MNL_CB_ERROR : MNL_CB_OK;
}

int rd_rib_read_kernel(struct rd_rib *r, uint32_t table, bool local)
{
	struct kread k = { .rib = r, .table = table, .local = local };
	struct rd_nl nl;
	int err;

	err = rd_nl_open(&nl, NULL, 0, 0, "routes");
	if (err)
		return err;
	k.nl = &nl;
	err = rd_nl_dump(&nl, RTM_GETROUTE, AF_INET, on_route, &k);
	if (!err)
		err = rd_nl_dump(&nl, RTM_GETROUTE, AF_INET6, on_route, &k);
	rd_nl_close(&nl);
	return k.err ? k.err : err < 0 ? err : 0;
}

/* ------------------------------------------------------------ the tries */

static int fib_cmp(const void *x, const void *y)
{
	const struct rd_rib_fib *a = x, *b = y;

	return rd_prefix_cmp(a->family, a->plen, a->addr, b->family, b->plen,
			     b->addr);
}

struct fib_read {
	struct rd_rib_fib *f;
	unsigned int n, cap;
};

static int on_fib(uint8_t family, uint8_t plen, const uint8_t *addr,
		  const struct rocedp_route *v, void *ctx)
{
	struct fib_read *r = ctx;
	struct rd_rib_fib *e;

	if (r->n == r->cap) {
		unsigned int c = r->cap ? r->cap * 2 : 64;
		void *p = realloc(r->f, c * sizeof(*r->f));

		if (!p)
			return -ENOMEM;
		r->f = p;
		r->cap = c;
	}
	e = &r->f[r->n++];
	memset(e, 0, sizeof(*e));
	e->family = family;
	e->plen = plen;
	memcpy(e->addr, addr, 16);
	e->val = *v;
	return 0;
}

int rd_rib_read_fib(const struct rd_maps *m, struct rd_rib_fib **out,
		    unsigned int *n)
{
	struct fib_read r = { 0 };
	int err;

	err = rd_routes_each(m->fd[RD_MAP_ROUTES4], AF_INET, on_fib, &r);
	if (!err)
		err = rd_routes_each(m->fd[RD_MAP_ROUTES6], AF_INET6, on_fib,
				     &r);
	if (err) {
		free(r.f);
		r.f = NULL;
		r.n = 0;
	}
	if (r.n)
		qsort(r.f, r.n, sizeof(*r.f), fib_cmp);
	*out = r.f;
	*n = r.n;
	return err;
}

const struct rd_rib_fib *rd_rib_fib_find(const struct rd_rib_fib *f,
					 unsigned int n, uint8_t family,
					 uint8_t plen, const void *addr)
{
	struct rd_rib_fib key;

	if (!n)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.family = family;
	key.plen = plen;
	memcpy(key.addr, addr, family == AF_INET ? 4 : 16);
	return bsearch(&key, f, n, sizeof(key), fib_cmp);
}
