// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for userspace/lib/fib/group*.c and buckets.c: rd_group_build()
 * (active list and resilient bucket table: shares, movement, purity) and
 * the FIB model (dedup of identical hop sets, group id allocation,
 * reference counts, diff commits). Pure userspace: the model runs with
 * map fds of -1 (dry run), so no BPF and no root are needed.
 *
 * Build: make $(OUT)/tests/unit_group (tests/tests.mk links the library).
 * Output: TAP ("ok N - name" / "not ok N - name"), exit status 1 on failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "buckets.h"
#include "rocedp.h"
#include "group.h"
#include "group_commit.h"
#include "tap.h"

/* group_commit.c reports map errors through rd_err(); the CLI's lives in main.c */

#define UPRES (ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED)

/* A group from a table: weights[i], flags[i]. */
static void mkgroup(struct rocedp_group *g, int n, const __u16 *weights,
		    const __u16 *flags)
{
	int i;

	memset(g, 0xa5, sizeof(*g)); /* garbage the builder must clear */
	g->n_members = n;
	g->n_buckets = 0; /* inputs: the default size, own table */
	g->bucket_src = ROCEDP_BUCKETS_OWN;
	for (i = 0; i < n && i < ROCEDP_MAX_MEMBERS; i++) {
		g->members[i].weight = weights[i];
		g->members[i].flags = flags[i];
	}
	rd_group_build(g);
}

static bool tail_zero(const struct rocedp_group *g)
{
	int i;

	for (i = g->n_active; i < ROCEDP_MAX_MEMBERS; i++)
		if (g->active[i])
			return false;
	return true;
}

/* The dataplane's pick (bpf/member.h): bucket by multiply-shift. */
static int pick(const struct rocedp_group *g, __u32 hash)
{
	__u8 slot = g->buckets[((__u64)hash * g->n_buckets) >> 32];

	return slot == ROCEDP_BUCKET_NONE ? -1 : slot;
}

static int bucket_count(const struct rocedp_group *g, int slot)
{
	int b, n = 0;

	for (b = 0; b < g->n_buckets; b++)
		n += g->buckets[b] == slot;
	return n;
}

/* Every usable member within one bucket of its exact share, others none. */
static bool shares_ok(const struct rocedp_group *g)
{
	return !rd_buckets_check(g);
}

/* The largest |buckets - exact share| of a usable member. */
static double share_dev(const struct rocedp_group *g)
{
	double d, worst = 0;
	int i;

	for (i = 0; i < g->n_members; i++) {
		if (!g->total_weight ||
		    (g->members[i].flags & UPRES) != UPRES ||
		    !g->members[i].weight)
			continue;
		d = bucket_count(g, i) - (double)g->n_buckets *
						 g->members[i].weight /
						 g->total_weight;
		if ((d < 0 ? -d : d) > worst)
			worst = d < 0 ? -d : d;
	}
	return worst;
}

/* Buckets that changed member, not counting those of member `slot`. */
static int moved_others(const struct rocedp_group *a,
			const struct rocedp_group *b, int slot)
{
	int i, n = 0;

	for (i = 0; i < a->n_buckets; i++)
		n += a->buckets[i] != b->buckets[i] && a->buckets[i] != slot &&
		     b->buckets[i] != slot;
	return n;
}

static void test_build(void)
{
	static struct rocedp_group g, g2;
	static const __u16 w2[] = { 1, 3 }, f2[] = { UPRES, UPRES };
	static const __u16 w3[] = { 2, 2, 1 };
	static const __u16 f3_down[] = { UPRES, ROCEDP_MEMBERF_RESOLVED,
					 UPRES };
	static const __u16 w4[] = { 5, 0, 4, 6 };
	static const __u16 f4[] = { ROCEDP_MEMBERF_UP, UPRES, UPRES,
				    UPRES | ROCEDP_MEMBERF_STATIC };
	static const __u16 f3_none[] = { 0, ROCEDP_MEMBERF_UP,
					 ROCEDP_MEMBERF_RESOLVED };
	__u16 w64[ROCEDP_MAX_MEMBERS], f64[ROCEDP_MAX_MEMBERS];
	__u32 counts[ROCEDP_MAX_MEMBERS] = { 0 };
	bool ok;
	int i;

	mkgroup(&g, 2, w2, f2);
	result(g.n_active == 2 && g.total_weight == 4 && g.active[0] == 0 &&
		       g.active[1] == 1 && tail_zero(&g) &&
		       g.n_buckets == ROCEDP_DEFAULT_BUCKETS &&
		       bucket_count(&g, 0) == 32 && bucket_count(&g, 1) == 96,
	       "build: weights 1,3 -> 32 and 96 of 128 buckets, total 4");

	mkgroup(&g, 3, w3, f3_down);
	result(g.n_active == 2 && g.active[0] == 0 && g.active[1] == 2 &&
		       bucket_count(&g, 1) == 0 && shares_ok(&g) &&
		       g.total_weight == 3 && tail_zero(&g),
	       "build: link-down member (no UP) is left out, slots stay");

	mkgroup(&g, 4, w4, f4);
	result(g.n_active == 2 && g.active[0] == 2 && g.active[1] == 3 &&
		       shares_ok(&g) && g.total_weight == 10,
	       "build: unresolved and weight-0 members are left out");

	mkgroup(&g, 3, w3, f3_none);
	result(g.n_active == 0 && g.total_weight == 0 && tail_zero(&g) &&
		       pick(&g, 12345) == -1 && shares_ok(&g),
	       "build: no eligible member -> empty list, every bucket none");

	for (i = 0; i < ROCEDP_MAX_MEMBERS; i++) {
		w64[i] = i + 1;
		f64[i] = UPRES;
	}
	mkgroup(&g, ROCEDP_MAX_MEMBERS, w64, f64);
	result(g.n_active == 64 && g.total_weight == 2080 && shares_ok(&g) &&
		       g.active[63] == 63,
	       "build: 64 members, weights 1..64 -> total 2080");

	mkgroup(&g, ROCEDP_MAX_MEMBERS + 5, w64, f64);
	result(g.n_members == ROCEDP_MAX_MEMBERS && g.n_active == 64,
	       "build: n_members above 64 is clamped");

	/* same state, built from a dirty and from a clean buffer: equal */
	mkgroup(&g, 3, w3, f3_down);
	memset(&g2, 0, sizeof(g2));
	g2.n_members = 3;
	for (i = 0; i < 3; i++) {
		g2.members[i] = g.members[i];
	}
	memset(g.members + 3, 0, sizeof(g.members) - 3 * sizeof(g.members[0]));
	g.rtt_us = g2.rtt_us = 0;
	g.flags = g2.flags = 0;
	rd_group_build(&g2);
	result(!memcmp(g.buckets, g2.buckets, sizeof(g.buckets)) &&
		       !memcmp(g.active, g2.active, sizeof(g.active)) &&
		       g.n_active == g2.n_active,
	       "build: deterministic (tail cleared), so diffs compare equal");

	/* WCMP: evenly spaced hashes land in proportion to the buckets */
	mkgroup(&g, 3, (const __u16[]){ 1, 2, 5 },
		(const __u16[]){ UPRES, UPRES, UPRES });
	for (i = 0; i < 8 * 4096; i++)
		counts[pick(&g, (__u32)i * (0x100000000ull / (8 * 4096)))]++;
	ok = counts[0] == 16 * 256 && counts[1] == 32 * 256 &&
	     counts[2] == 80 * 256;
	result(ok, "wcmp: weights 1,2,5 get 16, 32, 80 buckets (%u %u %u)",
	       counts[0] / 256, counts[1] / 256, counts[2] / 256);
}

/* Shares within one bucket and a pure function, over random groups. */
static void test_buckets_shares(void)
{
	static const unsigned int sizes[] = { 1, 7, 64, 100, 128, 1024 };
	static struct rocedp_group g, g2;
	int t, i, bad = 0, impure = 0;
	double dev, worst = 0;

	for (t = 0; t < 600; t++) {
		memset(&g, 0, sizeof(g));
		g.n_members = 1 + tap_rand() % ROCEDP_MAX_MEMBERS;
		g.n_buckets = sizes[t % 6];
		for (i = 0; i < g.n_members; i++) {
			g.members[i].weight =
				tap_rand() % 4 ? 1 + tap_rand() % 8 : 0;
			g.members[i].flags =
				tap_rand() % 5 ? UPRES :
				tap_rand() % 2 ? ROCEDP_MEMBERF_UP :
						 0;
		}
		rd_group_build(&g);
		bad += !shares_ok(&g);
		dev = share_dev(&g);
		if (dev > worst)
			worst = dev;
		g2 = g;
		memset(g2.buckets, 0x5a, sizeof(g2.buckets));
		rd_group_build(&g2);
		impure += !!memcmp(&g, &g2, sizeof(g));
	}
	result(!bad && !impure,
	       "buckets: 600 random groups (some members down) within one bucket of the weights, two with a member down (%d off, worst %.3f), rebuilt identically (%d differ)",
	       bad, worst, impure);

	memset(&g, 0, sizeof(g));
	g.n_members = 2;
	g.members[0].weight = g.members[1].weight = 1;
	g.members[0].flags = g.members[1].flags = UPRES;
	g.n_buckets = ROCEDP_MAX_BUCKETS + 1;
	rd_group_build(&g);
	result(g.n_buckets == ROCEDP_MAX_BUCKETS && shares_ok(&g),
	       "buckets: more than ROCEDP_MAX_BUCKETS is clamped");
}

/*
 * One member of 8 leaves (link down, neighbour failed, weight 0) and comes
 * back: no other member's bucket moves, and coming back restores the table
 * exactly (its own 1/8). Also from a state where another member is down.
 */
static void test_buckets_resilient(void)
{
	static const char *const how[] = { "link down", "neighbour failed",
					   "weight 0" };
	static struct rocedp_group base, down, up, d2;
	int k, i, x, f, moved, bad_up = 0, moved2 = 0, own2 = 0;

	memset(&base, 0, sizeof(base));
	base.n_members = 8;
	for (i = 0; i < 8; i++) {
		base.members[i].weight = 1;
		base.members[i].flags = UPRES;
	}
	rd_group_build(&base);
	for (k = 0; k < 3; k++) {
		moved = 0;
		bad_up = 0;
		for (x = 0; x < 8; x++) {
			down = base;
			if (k == 0)
				down.members[x].flags &= ~ROCEDP_MEMBERF_UP;
			else if (k == 1)
				down.members[x].flags &=
					~ROCEDP_MEMBERF_RESOLVED;
			else
				down.members[x].weight = 0;
			rd_group_build(&down);
			moved += moved_others(&base, &down, x);
			bad_up += !shares_ok(&down) ||
				  bucket_count(&down, x) != 0;
			up = down;
			up.members[x] = base.members[x];
			rd_group_build(&up);
			bad_up += !!memcmp(&up, &base, sizeof(up));
		}
		result(!moved && !bad_up,
		       "resilient: %s of one of 8 moves no other bucket (%d), "
		       "coming back restores the table (%d off)",
		       how[k], moved, bad_up);
	}
	/*
	 * A second member down: members leave the table in slot order, so one
	 * with a higher slot than the first moves nothing else; one with a
	 * lower slot may re-spread the first one's buckets, never others.
	 */
	for (f = 0; f < 8; f++)
		for (x = 0; x < 8; x++) {
			if (x == f)
				continue;
			down = base;
			down.members[f].flags = 0;
			rd_group_build(&down);
			d2 = down;
			d2.members[x].flags = 0;
			rd_group_build(&d2);
			for (i = 0; i < d2.n_buckets; i++)
				if (down.buckets[i] != d2.buckets[i] &&
				    down.buckets[i] != x) {
					moved2++;
					own2 += base.buckets[i] == f;
				}
		}
	result(own2 == moved2,
	       "resilient: with one member already down, a second failure "
	       "moves only its own and the first one's buckets (%d of %d)",
	       own2, moved2);
	printf("# second failure, 56 ordered pairs: %d of %d buckets the first "
	       "had handed over moved again (%.1f%%)\n",
	       moved2, 56 * 16, 100.0 * moved2 / (56 * 16));
}

/*
 * Unequal weights: 2..16 members, weights 1..8, tables of 128 and 16
 * buckets. Each member in turn goes down (link down, neighbour failed) or
 * is drained (weight 0, drain_weight kept) from the full group and comes
 * back: no bucket of another member moves, and the table comes back
 * exactly. Largest-remainder quotas moved a healthy bucket in 406 of
 * 40,500 down events at 128 buckets; weight 0 through the weights layer
 * (before drain_weight) in 26,140 of 26,876. Also the worst share against
 * the exact one, and plain weight-0 events (a weights-layer change:
 * counted and printed, see docs/sync.md).
 */
static void test_buckets_random_weights(void)
{
	static const unsigned int sizes[] = { 128, 16 };
	static struct rocedp_group base, down, up;
	unsigned int z, t, n, i, x, b, events, moved, back, w0_events, w0_moved,
		w0_groups, w0_buckets, dr_events, dr_moved, dr_back, dr_bad;
	double dev, worst, worst_down;
	bool hit;

	for (z = 0; z < 2; z++) {
		events = moved = back = w0_events = w0_moved = w0_groups = 0;
		w0_buckets = dr_events = dr_moved = dr_back = dr_bad = 0;
		worst = worst_down = 0;
		for (t = 0; t < 3000; t++) {
			memset(&base, 0, sizeof(base));
			n = 2 + tap_rand() % 15;
			base.n_members = n;
			base.n_buckets = sizes[z];
			for (i = 0; i < n; i++) {
				base.members[i].weight = 1 + tap_rand() % 8;
				base.members[i].flags = UPRES;
			}
			rd_group_build(&base);
			dev = share_dev(&base);
			if (dev > worst)
				worst = dev;
			hit = false;
			for (x = 0; x < n; x++) {
				down = base;
				down.members[x].flags &=
					t & 1 ? ~ROCEDP_MEMBERF_UP :
						~ROCEDP_MEMBERF_RESOLVED;
				rd_group_build(&down);
				events++;
				moved += moved_others(&base, &down, x) != 0;
				dev = share_dev(&down);
				if (dev > worst_down)
					worst_down = dev;
				up = down;
				up.members[x] = base.members[x];
				rd_group_build(&up);
				back += !!memcmp(up.buckets, base.buckets,
						 sizes[z]);
				down = base;
				down.members[x].drain_weight =
					down.members[x].weight;
				down.members[x].weight = 0;
				rd_group_build(&down);
				dr_events++;
				dr_moved += moved_others(&base, &down, x);
				dr_bad += bucket_count(&down, x) != 0 ||
					  rd_buckets_check(&down) != 0;
				up = down;
				up.members[x] = base.members[x];
				rd_group_build(&up);
				dr_back += !!memcmp(up.buckets, base.buckets,
						    sizes[z]);
				down = base;
				down.members[x].weight = 0;
				rd_group_build(&down);
				w0_events++;
				b = moved_others(&base, &down, x);
				w0_moved += b != 0;
				w0_buckets += b;
				hit |= b != 0;
			}
			w0_groups += hit;
		}
		result(events > 20000 && !moved && !back,
		       "resilient, random weights 1..8 over 2..16 members, %u buckets: %u single-member-down events move no healthy bucket (%u did), all come back exactly (%u off)",
		       sizes[z], events, moved, back);
		result(worst < 1 && worst_down < 2,
		       "resilient, random weights, %u buckets: every share within one bucket of its weight (worst %.3f), within two with one member down (worst %.3f)",
		       sizes[z], worst, worst_down);
		result(dr_events > 20000 && !dr_moved && !dr_back && !dr_bad,
		       "resilient, random weights 1..8 over 2..16 members, %u buckets: %u drains (weight 0, drain_weight kept) move no healthy bucket (%u moved), hold none, all come back exactly (%u off, %u bad)",
		       sizes[z], dr_events, dr_moved, dr_back, dr_bad);
		printf("# %u buckets: weight set to 0 (the weights layer): %u of %u events moved a healthy bucket, %u buckets in all\n",
		       sizes[z], w0_moved, w0_events, w0_buckets);
	}
}

static struct rd_hop hop4(uint32_t ifindex, const char *gw, uint16_t weight)
{
	struct rd_hop h = { .ifindex = ifindex,
			    .weight = weight,
			    .family = AF_INET };

	inet_pton(AF_INET, gw, h.gw);
	return h;
}

static struct rd_hop hop6(uint32_t ifindex, const char *gw, uint16_t weight)
{
	struct rd_hop h = { .ifindex = ifindex,
			    .weight = weight,
			    .family = AF_INET6 };

	inet_pton(AF_INET6, gw, h.gw);
	return h;
}

static uint32_t a4(const char *s)
{
	uint32_t a;

	inet_pton(AF_INET, s, &a);
	return a;
}

/* test fill: every member up and resolved, except ifindex down_if */
static uint32_t down_if;

static void fill(void *ctx __attribute__((unused)), struct rocedp_member *m)
{
	static const uint8_t smac[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t dmac[6] = { 2, 0, 0, 0, 0, 2 };

	memcpy(m->smac, smac, 6);
	memcpy(m->dmac, dmac, 6);
	m->flags = ROCEDP_MEMBERF_RESOLVED;
	if (m->ifindex != down_if)
		m->flags |= ROCEDP_MEMBERF_UP;
}

static uint64_t writes(const struct rd_fib_counts *c)
{
	return c->group_writes + c->group_deletes + c->route_writes +
	       c->route_deletes;
}

static void test_fib(void)
{
	struct rd_hop ab[2] = { hop4(2, "10.0.1.2", 1),
				hop4(3, "10.0.2.2", 3) };
	struct rd_hop ba[2] = { hop4(3, "10.0.2.2", 3),
				hop4(2, "10.0.1.2", 1) };
	struct rd_hop ab_eq[2] = { hop4(2, "10.0.1.2", 1),
				   hop4(3, "10.0.2.2", 1) };
	struct rd_hop dup[3] = { hop4(2, "10.0.1.2", 1), hop4(3, "10.0.2.2", 1),
				 hop4(2, "10.0.1.2", 2) };
	struct rd_hop v6[2] = { hop6(2, "fe80::1", 1), hop6(3, "fe80::2", 1) };
	struct rd_hop many[ROCEDP_MAX_MEMBERS + 1];
	struct rd_fib_counts c = { 0 };
	struct rocedp_route r1, r2, r3;
	const struct rd_hop *hops;
	static struct rocedp_group gv;
	uint32_t p1 = a4("10.9.0.0"), p2 = a4("10.10.0.0"),
		 p3 = a4("10.11.0.0");
	uint32_t p1_host = a4("10.9.0.77"), id, id_eq;
	uint8_t p6[16];
	struct rd_fib *f = rd_fib_new();
	int n, i, err;
	bool ok;

	if (!f) {
		result(false, "fib: allocate");
		return;
	}
	inet_pton(AF_INET6, "fd09::", p6);

	rd_fib_route_set(f, AF_INET, 24, &p1, 0, ab, 2);
	rd_fib_route_set(f, AF_INET, 16, &p2, 0, ba, 2);
	rd_fib_route_get(f, AF_INET, 24, &p1, &r1);
	rd_fib_route_get(f, AF_INET, 16, &p2, &r2);
	result(r1.group_id == r2.group_id && r1.flags == 0 &&
		       rd_fib_n_groups(f) == 1 &&
		       rd_fib_group_refcnt(f, r1.group_id) == 2,
	       "fib: same hop set in another order shares one group (refcnt 2)");
	id = r1.group_id;
	result(id > 0 && id < ROCEDP_MAX_GROUPS,
	       "fib: group id %u within 1..%u", id, ROCEDP_MAX_GROUPS - 1);

	n = rd_fib_group_hops(f, id, &hops);
	result(n == 2 && hops[0].ifindex == 2 && hops[1].ifindex == 3 &&
		       hops[1].weight == 3,
	       "fib: members in canonical slot order with weights");

	rd_fib_route_set(f, AF_INET, 16, &p3, 0, ab_eq, 2);
	rd_fib_route_get(f, AF_INET, 16, &p3, &r3);
	id_eq = r3.group_id;
	result(id_eq != id && rd_fib_n_groups(f) == 2,
	       "fib: different weights make a different group");

	rd_fib_route_set(f, AF_INET, 16, &p3, 0, dup, 3);
	rd_fib_route_get(f, AF_INET, 16, &p3, &r3);
	n = rd_fib_group_hops(f, r3.group_id, &hops);
	result(n == 2 && hops[0].ifindex == 2 && hops[0].weight == 3 &&
		       rd_fib_group_refcnt(f, id_eq) == 0,
	       "fib: repeated next hop merged (weights 1+2 -> 3), old group freed");

	rd_fib_route_set(f, AF_INET, 24, &p1_host, 0, ab, 2);
	result(rd_fib_n_routes(f) == 3,
	       "fib: host bits masked (10.9.0.77/24 == 10.9.0.0/24)");

	err = rd_fib_route_set(f, AF_INET6, 64, p6, 0, v6, 2);
	rd_fib_route_get(f, AF_INET6, 64, p6, &r1);
	result(!err && r1.group_id && !r1.flags,
	       "fib: IPv6 route gets a group");

	err = rd_fib_route_set(f, AF_INET6, 64, p6, ROCEDP_ROUTEF_LOCAL, v6, 2);
	rd_fib_route_get(f, AF_INET6, 64, p6, &r1);
	result(!err && r1.flags == ROCEDP_ROUTEF_LOCAL && r1.group_id == 0,
	       "fib: LOCAL route carries no group");

	for (i = 0; i <= ROCEDP_MAX_MEMBERS; i++)
		many[i] = hop4(10 + i, "10.0.9.9", 1);
	err = rd_fib_route_set(f, AF_INET6, 64, p6, 0, many,
			       ROCEDP_MAX_MEMBERS + 1);
	rd_fib_route_get(f, AF_INET6, 64, p6, &r1);
	result(err == -E2BIG && r1.flags == ROCEDP_ROUTEF_LOCAL,
	       "fib: 65 next hops -> -E2BIG, installed LOCAL (kernel forwards)");

	err = rd_fib_route_set(f, AF_INET6, 64, p6, 0, many,
			       ROCEDP_MAX_MEMBERS);
	rd_fib_route_get(f, AF_INET6, 64, p6, &r1);
	result(!err && !r1.flags &&
		       rd_fib_group_hops(f, r1.group_id, &hops) == 64,
	       "fib: 64 next hops fit one group");

	/* diff commits against the mirror (dry run: fds are -1) */
	rd_fib_commit(f, false, fill, NULL, &c);
	result(c.route_writes == 4 && c.group_writes == 3 && !c.errors,
	       "commit: first commit writes 4 routes, 3 groups (got %llu, %llu)",
	       (unsigned long long)c.route_writes,
	       (unsigned long long)c.group_writes);
	memset(&c, 0, sizeof(c));
	rd_fib_touch_ifindex(f, 0);
	rd_fib_commit(f, false, fill, NULL, &c);
	result(writes(&c) == 0, "commit: nothing changed -> no writes");
	rd_fib_commit(f, true, fill, NULL, &c);
	result(writes(&c) == 0,
	       "commit: full diff of an equal state -> no writes");

	down_if = 3;
	rd_fib_touch_ifindex(f, 3);
	rd_fib_commit(f, false, fill, NULL, &c);
	rd_fib_group_value(f, id, fill, NULL, &gv);
	result(c.group_writes == 2 && c.route_writes == 0 && gv.n_active == 1 &&
		       gv.active[0] == 0 && gv.total_weight == 1,
	       "commit: link down on ifindex 3 rewrites only its 2 groups");
	down_if = 0;
	rd_fib_touch_ifindex(f, 3);
	rd_fib_commit(f, false, fill, NULL, &c); /* link back up */

	memset(&c, 0, sizeof(c));
	rd_fib_route_del(f, AF_INET, 24, &p1);
	rd_fib_commit(f, false, fill, NULL, &c);
	result(c.route_deletes == 1 && c.group_deletes == 0 &&
		       rd_fib_group_refcnt(f, id) == 1,
	       "commit: route removed, its shared group stays (refcnt 1)");
	memset(&c, 0, sizeof(c));
	rd_fib_route_del(f, AF_INET, 16, &p2);
	rd_fib_commit(f, false, fill, NULL, &c);
	result(c.route_deletes == 1 && c.group_deletes == 1 &&
		       rd_fib_group_hops(f, id, &hops) == -ENOENT,
	       "commit: last user gone -> group deleted");

	/* mark and sweep keeps what comes back, drops the rest */
	rd_fib_route_get(f, AF_INET, 16, &p3, &r3);
	rd_fib_begin_full(f);
	rd_fib_route_set(f, AF_INET, 16, &p3, 0, dup, 3);
	rd_fib_end_full(f);
	memset(&c, 0, sizeof(c));
	rd_fib_commit(f, true, fill, NULL, &c);
	rd_fib_route_get(f, AF_INET, 16, &p3, &r2);
	ok = r2.group_id == r3.group_id && rd_fib_n_routes(f) == 1 &&
	     c.route_deletes == 1 && c.route_writes == 0 &&
	     c.group_deletes == 1 && c.group_writes == 0;
	result(ok,
	       "resync: unchanged route keeps its group id, vanished one removed");
	rd_fib_free(f);
}

static void test_exhaustion(void)
{
	struct rd_fib *f = rd_fib_new();
	struct rocedp_route r;
	struct rd_hop h;
	uint32_t p;
	int i, err = 0, fails = 0;
	bool unique = true;
	static bool seen[ROCEDP_MAX_GROUPS];

	for (i = 0; i < ROCEDP_MAX_GROUPS - 1; i++) {
		h = hop4(2, "10.0.0.1",
			 i + 1); /* distinct weights: distinct sets */
		p = htonl(0x0a000000 | (i << 8));
		err = rd_fib_route_set(f, AF_INET, 24, &p, 0, &h, 1);
		rd_fib_route_get(f, AF_INET, 24, &p, &r);
		if (err || r.flags || !r.group_id ||
		    r.group_id >= ROCEDP_MAX_GROUPS)
			fails++;
		else if (seen[r.group_id])
			unique = false;
		else
			seen[r.group_id] = true;
	}
	result(!fails && unique, "ids: %d groups get unique ids in 1..%d",
	       ROCEDP_MAX_GROUPS - 1, ROCEDP_MAX_GROUPS - 1);
	h = hop4(2, "10.0.0.1", 60000);
	p = htonl(0x0b000000);
	err = rd_fib_route_set(f, AF_INET, 24, &p, 0, &h, 1);
	rd_fib_route_get(f, AF_INET, 24, &p, &r);
	result(err == -ENOSPC && r.flags == ROCEDP_ROUTEF_LOCAL,
	       "ids: one more -> -ENOSPC, route left to the kernel");
	rd_fib_free(f);
}

int main(void)
{
	test_build();
	test_buckets_shares();
	test_buckets_resilient();
	test_buckets_random_weights();
	test_fib();
	test_exhaustion();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
