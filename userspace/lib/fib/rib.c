// SPDX-License-Identifier: GPL-2.0
/*
 * The RIB: routes of every source in one array, sorted on demand by
 * (family, prefix, selection order). Small and simple on purpose: it is
 * rebuilt from its sources, read by a walk, and never on a packet path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

#include "rib.h"
#include "routew.h" /* rd_prefix_mask, rd_prefix_cmp */

struct rd_rib {
	struct rd_rib_route *rt;
	unsigned int n, cap;
	bool sorted;
};

struct rd_rib *rd_rib_new(void)
{
	struct rd_rib *r = calloc(1, sizeof(*r));

	if (r)
		r->sorted = true;
	return r;
}

void rd_rib_free(struct rd_rib *r)
{
	if (!r)
		return;
	free(r->rt);
	free(r);
}

int rd_rib_add(struct rd_rib *r, const struct rd_rib_route *rt)
{
	struct rd_rib_route *p;

	if (r->n == r->cap) {
		unsigned int cap = r->cap ? r->cap * 2 : 64;

		p = realloc(r->rt, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		r->rt = p;
		r->cap = cap;
	}
	p = &r->rt[r->n++];
	*p = *rt;
	if (p->n_hops > RD_RIB_MAX_HOPS)
		p->n_hops = RD_RIB_MAX_HOPS;
	if (p->n_hops_all < p->n_hops)
		p->n_hops_all = p->n_hops;
	rd_prefix_mask(p->addr, p->family, p->plen);
	r->sorted = false;
	return 0;
}

void rd_rib_flush(struct rd_rib *r, enum rd_rib_src src)
{
	unsigned int i, j;

	for (i = 0, j = 0; i < r->n; i++)
		if (r->rt[i].src != src)
			r->rt[j++] = r->rt[i];
	r->n = j; /* the order of what stays is kept */
}

unsigned int rd_rib_count(struct rd_rib *r)
{
	return r->n;
}

static int prefix_cmp(const struct rd_rib_route *a,
		      const struct rd_rib_route *b)
{
	return rd_prefix_cmp(a->family, a->plen, a->addr, b->family, b->plen,
			     b->addr);
}

/* The selection order: what sorts first of its prefix wins. */
static int pref_cmp(const struct rd_rib_route *a, const struct rd_rib_route *b)
{
	if (a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->table != b->table) /* the kernel's local table (255) last */
		return a->table < b->table ? -1 : 1;
	return 0;
}

static int route_cmp(const void *x, const void *y)
{
	const struct rd_rib_route *a = x, *b = y;
	int c = prefix_cmp(a, b);

	return c ? c : pref_cmp(a, b);
}

static void sort(struct rd_rib *r)
{
	if (r->sorted)
		return;
	/* qsort is not stable: ties left are equal in every selection key */
	if (r->n)
		qsort(r->rt, r->n, sizeof(*r->rt), route_cmp);
	r->sorted = true;
}

const struct rd_rib_route *rd_rib_best(struct rd_rib *r, uint8_t family,
				       uint8_t plen, const void *addr)
{
	struct rd_rib_route key;
	unsigned int lo = 0, hi;

	memset(&key, 0, sizeof(key));
	key.family = family;
	key.plen = plen;
	memcpy(key.addr, addr, family == AF_INET ? 4 : 16);
	rd_prefix_mask(key.addr, family, plen);
	sort(r);
	/* the first route of the prefix: lower bound by prefix alone */
	hi = r->n;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (prefix_cmp(&r->rt[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->n && !prefix_cmp(&r->rt[lo], &key))
		return &r->rt[lo];
	return NULL;
}

int rd_rib_walk(struct rd_rib *r, rd_rib_walk_fn fn, void *ctx)
{
	unsigned int i;
	int ret;

	sort(r);
	for (i = 0; i < r->n; i++) {
		bool first = !i || prefix_cmp(&r->rt[i - 1], &r->rt[i]);

		ret = fn(&r->rt[i], first, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

uint8_t rd_rib_kernel_distance(uint8_t proto)
{
	switch (proto) {
	case RTPROT_KERNEL: /* connected: the kernel made it for an address */
		return RD_RIB_DIST_CONNECTED;
	case RTPROT_BOOT: /* `ip route add` with no proto: an admin's static */
	case RTPROT_STATIC:
	case 196: /* FRR's staticd (RTPROT_ZSTATIC) */
		return RD_RIB_DIST_STATIC;
	case RTPROT_BGP:
		/* eBGP's; the kernel does not tell iBGP (200) apart, and it
		 * holds zebra's winner only, so this matters only against
		 * rocedp's own sources */
		return RD_RIB_DIST_EBGP;
	case RTPROT_EIGRP:
		return 90;
	case RTPROT_BABEL:
		return 100;
	case RTPROT_OSPF:
		return RD_RIB_DIST_OSPF;
	case RTPROT_ISIS:
		return RD_RIB_DIST_ISIS;
	case RTPROT_RIP:
		return RD_RIB_DIST_RIP;
	default: /* anything else that wrote the kernel: zebra's "kernel" */
		return RD_RIB_DIST_CONNECTED;
	}
}

const char *rd_rib_src_name(enum rd_rib_src src)
{
	static const char *const names[RD_RIB_NSRC] = {
		[RD_RIB_CONFIG] = "config",
		[RD_RIB_SONIC] = "sonic",
		[RD_RIB_KERNEL] = "kernel",
	};

	return (unsigned int)src < RD_RIB_NSRC ? names[src] : "?";
}

const char *rd_rib_proto_name(const struct rd_rib_route *rt)
{
	if (rt->src != RD_RIB_KERNEL)
		return rd_rib_src_name(rt->src);
	switch (rt->proto) {
	case RTPROT_KERNEL:
		return "connected";
	case RTPROT_BOOT:
		return "boot";
	case RTPROT_STATIC:
		return "static";
	case 196:
		return "frr-static";
	case RTPROT_BGP:
		return "bgp";
	case RTPROT_EIGRP:
		return "eigrp";
	case RTPROT_BABEL:
		return "babel";
	case RTPROT_OSPF:
		return "ospf";
	case RTPROT_ISIS:
		return "isis";
	case RTPROT_RIP:
		return "rip";
	case 11: /* RTPROT_ZEBRA */
		return "zebra";
	default:
		return "kernel";
	}
}
