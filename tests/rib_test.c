// SPDX-License-Identifier: GPL-2.0
/*
 * The RIB (userspace/lib/fib/rib.c): 1000 random mixes of config, sonic and
 * kernel routes over a small prefix space (so prefixes collide), added
 * in random order, each source replaced (flushed and added again) at
 * random. After every step the RIB's selection must equal the one a
 * brute-force scan over the routes each source holds gives: lowest
 * distance, then metric, then source (config, sonic, kernel), then table;
 * the walk must name exactly one selected route per prefix, first of it.
 * Also: zebra's distances per kernel protocol, host bits cleared.
 *
 * Usage: rib_test [-q]. TAP output.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include "rib.h"
#include "tap.h"

#define MIXES 1000
#define MAX_PER_SRC 24

/* what each source holds now: the expectation's input */
struct held {
	struct rd_rib_route rt[RD_RIB_NSRC][MAX_PER_SRC];
	unsigned int n[RD_RIB_NSRC];
};

static void rand_route(struct rd_rib_route *rt, uint8_t src)
{
	static const uint8_t protos[] = { RTPROT_KERNEL, RTPROT_BOOT,
					  RTPROT_STATIC, RTPROT_BGP,
					  RTPROT_OSPF,	 RTPROT_ISIS };

	memset(rt, 0, sizeof(*rt));
	rt->src = src;
	rt->family = tap_rand() % 4 ? AF_INET : AF_INET6;
	rt->plen = (uint8_t[]){ 8, 16, 24 }[tap_rand() % 3];
	/* 4 values of the first byte: prefixes collide across sources */
	rt->addr[0] = 10 + tap_rand() % 4;
	rt->addr[1] = tap_rand() % 2;
	rt->addr[2] = tap_rand() % 256; /* cleared below a /24's bits */
	rt->addr[3] = tap_rand() % 256; /* host bits: always cleared */
	if (src == RD_RIB_KERNEL) {
		rt->proto = protos[tap_rand() % 6];
		rt->distance = rd_rib_kernel_distance(rt->proto);
		rt->metric = (uint32_t[]){ 0, 20, 100 }[tap_rand() % 3];
		rt->table = tap_rand() % 5 ? RT_TABLE_MAIN : RT_TABLE_LOCAL;
	} else {
		rt->distance = RD_RIB_DIST_STATIC;
		rt->group_id = 1 + tap_rand() % 8;
	}
}

static bool same_prefix(const struct rd_rib_route *a,
			const struct rd_rib_route *b)
{
	return a->family == b->family && a->plen == b->plen &&
	       !memcmp(a->addr, b->addr, 16);
}

static void masked(struct rd_rib_route *rt)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (rt->plen <= i * 8)
			rt->addr[i] = 0;
		else if (rt->plen < (i + 1) * 8)
			rt->addr[i] &= (uint8_t)(0xff00u >> (rt->plen - i * 8));
}

/* a better than b, by the documented rule */
static bool better(const struct rd_rib_route *a, const struct rd_rib_route *b)
{
	if (a->distance != b->distance)
		return a->distance < b->distance;
	if (a->metric != b->metric)
		return a->metric < b->metric;
	if (a->src != b->src)
		return a->src < b->src;
	return a->table < b->table;
}

static const struct rd_rib_route *expect(const struct held *h,
					 const struct rd_rib_route *p)
{
	const struct rd_rib_route *best = NULL;
	unsigned int s, i;

	for (s = 0; s < RD_RIB_NSRC; s++)
		for (i = 0; i < h->n[s]; i++)
			if (same_prefix(&h->rt[s][i], p) &&
			    (!best || better(&h->rt[s][i], best)))
				best = &h->rt[s][i];
	return best;
}

static bool same_choice(const struct rd_rib_route *a,
			const struct rd_rib_route *b)
{
	/* equal in every selection key and in what it would install */
	return a && b && same_prefix(a, b) && a->src == b->src &&
	       a->distance == b->distance && a->metric == b->metric &&
	       a->table == b->table;
}

struct walk {
	const struct held *h;
	struct rd_rib_route last;
	bool have_last;
	unsigned int routes, selected, bad;
};

static int walk_fn(const struct rd_rib_route *rt, bool sel, void *ctx)
{
	struct walk *w = ctx;
	bool first = !w->have_last || !same_prefix(&w->last, rt);

	w->routes++;
	if (sel != first)
		w->bad++;
	if (sel) {
		w->selected++;
		if (!same_choice(rt, expect(w->h, rt)))
			w->bad++;
	}
	w->last = *rt;
	w->have_last = true;
	return 0;
}

/* Does the RIB agree with the brute force everywhere? */
static bool agrees(struct rd_rib *r, const struct held *h, char *why,
		   size_t len)
{
	struct walk w = { .h = h };
	unsigned int s, i, j, total = 0, prefixes = 0;

	for (s = 0; s < RD_RIB_NSRC; s++) {
		total += h->n[s];
		for (i = 0; i < h->n[s]; i++) {
			const struct rd_rib_route *p = &h->rt[s][i];
			bool seen = false;
			unsigned int t;

			/* count each prefix once */
			for (t = 0; t <= s && !seen; t++)
				for (j = 0; j < (t == s ? i : h->n[t]); j++)
					if (same_prefix(&h->rt[t][j], p)) {
						seen = true;
						break;
					}
			prefixes += !seen;
			if (!same_choice(rd_rib_best(r, p->family, p->plen,
						     p->addr),
					 expect(h, p))) {
				snprintf(why, len, "best of a prefix differs");
				return false;
			}
		}
	}
	rd_rib_walk(r, walk_fn, &w);
	if (w.routes != total || w.selected != prefixes || w.bad) {
		snprintf(
			why, len,
			"walk: %u routes of %u, %u selected of %u prefixes, %u bad",
			w.routes, total, w.selected, prefixes, w.bad);
		return false;
	}
	return rd_rib_count(r) == total;
}

static void test_mixes(void)
{
	static struct held h;
	unsigned int mix, step, s, i, bad = 0, checks = 0, collisions = 0;
	char why[128] = "";

	for (mix = 0; mix < MIXES; mix++) {
		struct rd_rib *r = rd_rib_new();

		memset(&h, 0, sizeof(h));
		for (step = 0; step < 12 && r; step++) {
			s = tap_rand() % RD_RIB_NSRC;
			if (tap_rand() % 4 == 0) {
				/* the source replaces its whole set */
				rd_rib_flush(r, s);
				h.n[s] = 0;
			}
			for (i = tap_rand() % 4; i && h.n[s] < MAX_PER_SRC;
			     i--) {
				struct rd_rib_route *rt = &h.rt[s][h.n[s]++];

				rand_route(rt, s);
				if (rd_rib_add(r, rt))
					bad++;
				masked(rt); /* as the RIB holds it */
			}
			checks++;
			if (!agrees(r, &h, why, sizeof(why)))
				bad++;
		}
		for (s = 0; s < RD_RIB_NSRC; s++)
			for (i = 0; i < h.n[s]; i++)
				collisions += expect(&h, &h.rt[s][i]) !=
					      &h.rt[s][i];
		rd_rib_free(r);
	}
	result(!bad && collisions,
	       "%d random mixes of config, sonic and kernel routes: the selection equals the brute force's after each of %u steps (%u routes lost to a better one; %s)",
	       MIXES, checks, collisions, bad ? why : "no difference");
}

static void test_distances(void)
{
	result(rd_rib_kernel_distance(RTPROT_KERNEL) == 0 &&
		       rd_rib_kernel_distance(RTPROT_STATIC) == 1 &&
		       rd_rib_kernel_distance(RTPROT_BOOT) == 1 &&
		       rd_rib_kernel_distance(RTPROT_BGP) == 20 &&
		       rd_rib_kernel_distance(RTPROT_OSPF) == 110 &&
		       rd_rib_kernel_distance(RTPROT_ISIS) == 115 &&
		       rd_rib_kernel_distance(RTPROT_RIP) == 120,
	       "kernel protocols get zebra's distances: connected 0, static/boot 1, bgp 20, ospf 110, isis 115, rip 120");
}

/* config static 1 beats bgp 20, loses to connected 0; ties go to config */
static void test_rules(void)
{
	struct rd_rib *r = rd_rib_new();
	struct rd_rib_route c = { .family = AF_INET,
				  .plen = 16,
				  .src = RD_RIB_CONFIG,
				  .distance = 1,
				  .group_id = 3 };
	struct rd_rib_route k = c, conn = c;
	const struct rd_rib_route *b1, *b2, *b3;

	c.addr[0] = 10;
	c.addr[2] = 77; /* host bits: the same prefix as 10.0/16 */
	k.src = RD_RIB_KERNEL;
	k.proto = RTPROT_BGP;
	k.distance = rd_rib_kernel_distance(RTPROT_BGP);
	k.group_id = 0;
	k.addr[0] = 10;
	rd_rib_add(r, &k);
	rd_rib_add(r, &c);
	b1 = rd_rib_best(r, AF_INET, 16, k.addr);
	b1 = b1 && b1->src == RD_RIB_CONFIG ? b1 : NULL;
	conn = k;
	conn.proto = RTPROT_KERNEL;
	conn.distance = 0;
	rd_rib_add(r, &conn);
	b2 = rd_rib_best(r, AF_INET, 16, k.addr);
	b2 = b2 && b2->src == RD_RIB_KERNEL && b2->distance == 0 ? b2 : NULL;
	rd_rib_flush(r, RD_RIB_KERNEL);
	k.proto = RTPROT_STATIC;
	k.distance = 1;
	rd_rib_add(r, &k);
	b3 = rd_rib_best(r, AF_INET, 16, k.addr);
	b3 = b3 && b3->src == RD_RIB_CONFIG ? b3 : NULL;
	result(b1 && b2 && b3 && rd_rib_count(r) == 2,
	       "10.0.77.0/16 is 10.0.0.0/16; config [1] beats bgp [20], connected [0] beats config, a tie at [1/0] goes to config");
	rd_rib_free(r);
}

int main(int argc, char **argv)
{
	quiet = argc > 1 && !strcmp(argv[1], "-q");
	test_distances();
	test_rules();
	test_mixes();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
