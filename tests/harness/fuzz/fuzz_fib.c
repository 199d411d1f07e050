// SPDX-License-Identifier: GPL-2.0
/*
 * Route-sync fuzzer (docs/fuzz.md, "The route-sync fuzzer"): an input is a
 * sequence of the operations rocedp sync performs on its FIB model
 * (userspace/lib/fib/group*.c), decoded from bytes: routes set and deleted (prefixes
 * that cover each other, next hops repeated, weights 0 and 65535, more
 * hops than a group holds), neighbours and links going up and down,
 * commits, commits of member state only, full resyncs, and restarts that
 * adopt what the maps hold. The maps are an offline engine's (rd_routes4,
 * rd_routes6, rd_groups); the devmap and the port settings run dry. The
 * harness keeps its own plain record of the routes it set, so every check
 * compares the maps with that record, not only with the model.
 *
 * After every commit:
 *  1. the maps hold exactly the recorded routes (masked prefixes), each
 *     with the model's value, LOCAL where it must be (no hops, LOCAL asked,
 *     more than 64 hops);
 *  2. every other route's group exists and its members are the route's
 *     next hops, repeats merged (weights summed, at most 65535, 0 read as
 *     1), their state as the current links and neighbours say, and their
 *     bucket table names only usable members, within one bucket of the
 *     weights (rd_buckets_check);
 *  3. no group is left that no route uses, and the config's static route
 *     and group are untouched;
 * after a commit of member state only: every route's group exists; after a
 * restart (a new model adopting the maps, then a full resync of the same
 * routes): nothing is written at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "buckets.h"
#include "engine.h"
#include "fuzz_common.h"
#include "groupw.h"
#include "routew.h"
#include "group.h"
#include "group_commit.h"

#define N_IF 4 /* ifindexes 2..5 */
#define N_GW 2 /* gateways per family */
#define MAX_HOPS (ROCEDP_MAX_MEMBERS + 2)
#define STATIC_GROUP 1000
#define N_PFX (sizeof(pfx_text) / sizeof(pfx_text[0]))

/* prefixes that cover each other, host bits set on some */
static const char *const pfx_text[] = {
	"10.0.0.0/8",	     "10.1.0.0/16",   "10.1.2.0/24",
	"10.1.2.3/32",	     "0.0.0.0/0",     "10.1.2.77/24",
	"192.168.1.0/24",    "2001:db8::/32", "2001:db8:1::/48",
	"2001:db8:1:2::/64", "::/0",	      "2001:db8:1:2::5/64",
};
static const char *const gw_text[2][N_GW] = {
	{ "10.0.0.1", "10.0.0.2" },
	{ "fe80::1", "fe80::2" },
};
static const uint16_t weights[] = { 0, 1, 2, 3, 100, 65535 };

struct pfx {
	uint8_t family, plen;
	uint8_t addr[16]; /* host bits clear: the harness's record */
	uint8_t raw[16]; /* as written: what the model is handed */
};

struct shadow_route {
	bool set;
	bool local; /* LOCAL asked, no hops or refused */
	uint32_t flags; /* as set */
	int n;
	struct rd_hop hops[MAX_HOPS];
};

static struct rd_engine *eng;
static int fd4, fd6, fdg, fdb, fdl;
static __u32 *route_gen; /* rd_route_gen, mapped (routew.h) */
static unsigned long n_full_checks;
static struct rd_fib *fib;
static struct pfx pfx[N_PFX];
static unsigned int canon[N_PFX]; /* the first index of the same prefix */
static uint32_t gw[2][N_GW][4];
static struct shadow_route shadow[N_PFX];
static bool link_up[N_IF], neigh_ok[N_IF][2][N_GW];
static struct rocedp_group static_group;
static uint64_t n_exec, n_commits, n_restarts;

static void parse_prefix(const char *txt, struct pfx *p)
{
	char buf[64], *slash;
	int i;

	snprintf(buf, sizeof(buf), "%s", txt);
	slash = strchr(buf, '/');
	*slash = 0;
	p->plen = atoi(slash + 1);
	p->family = strchr(buf, ':') ? AF_INET6 : AF_INET;
	memset(p->addr, 0, 16);
	inet_pton(p->family, buf, p->addr);
	memcpy(p->raw, p->addr, 16);
	for (i = 0; i < 16; i++) /* the model must mask host bits too */
		if (i * 8 >= p->plen)
			p->addr[i] = 0;
		else if (i * 8 + 8 > p->plen)
			p->addr[i] &= 0xff << (8 - (p->plen - i * 8));
}

/* Link and neighbour state, as sync's rd_fill_member reads it. */
static void fill(void *ctx, struct rocedp_member *m)
{
	int i = m->ifindex - 2, f = m->nh_family == AF_INET6, g;

	(void)ctx;
	if (i < 0 || i >= N_IF)
		return;
	m->smac[0] = 2;
	m->smac[5] = m->ifindex;
	if (link_up[i])
		m->flags |= ROCEDP_MEMBERF_UP;
	for (g = 0; g < N_GW; g++)
		if (!memcmp(m->nh_addr, gw[f][g], f ? 16 : 4) &&
		    neigh_ok[i][f][g]) {
			m->dmac[0] = 2;
			m->dmac[4] = g;
			m->dmac[5] = m->ifindex;
			m->flags |= ROCEDP_MEMBERF_RESOLVED;
		}
}

static void fib_attach(void)
{
	struct rd_fib_maps fm = { .routes4 = fd4,
				  .routes6 = fd6,
				  .groups = fdg,
				  .group_banks = fdb,
				  .group_live = fdl,
				  .tx_ports = -1,
				  .port_cfg = -1,
				  .route_gen = route_gen };

	fib = rd_fib_new();
	if (!fib)
		abort();
	rd_fib_set_maps(fib, &fm);
	if (rd_fib_load_installed(fib))
		fz_fail("load_installed failed");
}

static uint64_t writes(const struct rd_fib_counts *c)
{
	return c->group_writes + c->group_deletes + c->route_writes +
	       c->route_deletes + c->port_writes;
}

/* ------------------------------------------------------------ checks */

static int hop_order(const void *a, const void *b)
{
	const struct rd_hop *x = a, *y = b;

	if (x->ifindex != y->ifindex)
		return x->ifindex < y->ifindex ? -1 : 1;
	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	return memcmp(x->gw, y->gw, 16);
}

/* The route's next hops as a group holds them: repeats merged, sorted. */
static int expect_hops(const struct shadow_route *r, struct rd_hop *out)
{
	int i, k = 0;
	uint32_t w;

	memcpy(out, r->hops, r->n * sizeof(*out));
	for (i = 0; i < r->n; i++)
		if (!out[i].weight)
			out[i].weight = 1;
	qsort(out, r->n, sizeof(*out), hop_order);
	for (i = 0; i < r->n; i++) {
		if (k && !hop_order(&out[k - 1], &out[i])) {
			w = out[k - 1].weight + out[i].weight;
			out[k - 1].weight = w > 0xffff ? 0xffff : w;
			continue;
		}
		out[k++] = out[i];
	}
	return k;
}

static int find_pfx(uint8_t family, uint8_t plen, const void *addr)
{
	unsigned int i;

	for (i = 0; i < N_PFX; i++)
		if (pfx[i].family == family && pfx[i].plen == plen &&
		    !memcmp(pfx[i].addr, addr, family == AF_INET ? 4 : 16))
			return i;
	return -1;
}

static bool group_used[ROCEDP_MAX_GROUPS];

/* One map route against the record and the model. */
static void check_route(uint8_t family, uint8_t plen, const void *addr,
			const struct rocedp_route *v)
{
	static struct rocedp_group g, want;
	struct rd_hop exp[MAX_HOPS], have[ROCEDP_MAX_MEMBERS];
	struct rocedp_route mv;
	const struct shadow_route *r;
	int i, k, n;

	if (v->flags & ROCEDP_ROUTEF_STATIC) {
		if (family != AF_INET || plen != 12 ||
		    v->group_id != STATIC_GROUP)
			fz_fail("a static route changed");
		group_used[STATIC_GROUP] = true;
		return;
	}
	k = find_pfx(family, plen, addr);
	if (k < 0 || !shadow[k].set)
		fz_fail("route /%u in the map was never set or was deleted",
			plen);
	r = &shadow[k];
	if (!rd_fib_route_get(fib, family, plen, addr, &mv) ||
	    memcmp(&mv, v, sizeof(mv)))
		fz_fail("%s: map value differs from the model's", pfx_text[k]);
	if (r->local || r->n > ROCEDP_MAX_MEMBERS) {
		if (!(v->flags & ROCEDP_ROUTEF_LOCAL) || v->group_id)
			fz_fail("%s: should be LOCAL", pfx_text[k]);
		return;
	}
	if (v->flags & ROCEDP_ROUTEF_LOCAL || !v->group_id ||
	    v->group_id >= ROCEDP_MAX_GROUPS)
		fz_fail("%s: LOCAL or bad group %u for %d hops", pfx_text[k],
			v->group_id, r->n);
	group_used[v->group_id] = true;
	if (bpf_map_lookup_elem(fdg, &v->group_id, &g))
		fz_fail("%s: group %u missing", pfx_text[k], v->group_id);
	n = expect_hops(r, exp);
	if (g.n_members != n)
		fz_fail("%s: group %u has %u members, want %d", pfx_text[k],
			v->group_id, g.n_members, n);
	for (i = 0; i < n; i++) {
		memset(&have[i], 0, sizeof(have[i]));
		have[i].ifindex = g.members[i].ifindex;
		have[i].family = g.members[i].nh_family;
		have[i].weight = g.members[i].weight;
		memcpy(have[i].gw, g.members[i].nh_addr, 16);
	}
	qsort(have, n, sizeof(have[0]), hop_order);
	for (i = 0; i < n; i++)
		if (hop_order(&have[i], &exp[i]) ||
		    have[i].weight != exp[i].weight)
			fz_fail("%s: group %u member %d is not the route's hop",
				pfx_text[k], v->group_id, i);
	if (rd_fib_group_value(fib, v->group_id, fill, NULL, &want) ||
	    memcmp(&want, &g, sizeof(g)))
		fz_fail("%s: group %u is not what links and neighbours say",
			pfx_text[k], v->group_id);
	if (rd_buckets_check(&g))
		fz_fail("%s: group %u: a bucket names a member that is down, "
			"or shares are off the weights by a bucket or more",
			pfx_text[k], v->group_id);
}

/* After a commit of member state only: a route's group exists. */
static void route_has_group(uint8_t family, uint8_t plen, const void *addr,
			    const struct rocedp_route *v, void *ctx)
{
	static struct rocedp_group g;

	(void)family, (void)plen, (void)addr, (void)ctx;
	if (!(v->flags & ROCEDP_ROUTEF_LOCAL) &&
	    bpf_map_lookup_elem(fdg, &v->group_id, &g))
		fz_fail("a route's group %u is missing", v->group_id);
}

/* After a full commit: check_route, and count the routes not static. */
static void route_full(uint8_t family, uint8_t plen, const void *addr,
		       const struct rocedp_route *v, void *ctx)
{
	check_route(family, plen, addr, v);
	if (!(v->flags & ROCEDP_ROUTEF_STATIC))
		(*(unsigned int *)ctx)++;
}

/* What the dataplane reads (live bank) is what rd_groups records, and
 * no other group is live. The live words in one batch read: this runs
 * after every full check. */
static void banks_match_record(void)
{
	static struct rocedp_group rec, bank;
	static __u32 keys[ROCEDP_MAX_GROUPS], live[ROCEDP_MAX_GROUPS];
	__u32 n = ROCEDP_MAX_GROUPS, out_batch, id, idx, key, *prev = NULL;
	LIBBPF_OPTS(bpf_map_batch_opts, bo);
	bool have;

	if (bpf_map_lookup_batch(fdl, NULL, &out_batch, keys, live, &n, &bo) &&
	    errno != ENOENT)
		fz_fail("rd_group_live unreadable: %s", strerror(errno));
	if (n != ROCEDP_MAX_GROUPS)
		fz_fail("rd_group_live: %u of %u words read", n,
			ROCEDP_MAX_GROUPS);
	for (id = 0; id < ROCEDP_MAX_GROUPS; id++) {
		if (!(live[id] & ROCEDP_GROUP_LIVE_PRESENT))
			continue;
		have = !bpf_map_lookup_elem(fdg, &id, &rec);
		idx = ROCEDP_GROUP_LIVE_BANK(live[id]) * ROCEDP_MAX_GROUPS + id;
		if (!have || bpf_map_lookup_elem(fdb, &idx, &bank) ||
		    memcmp(&bank, &rec, sizeof(bank)))
			fz_fail("group %u: the live bank is not rd_groups' (%s)",
				id, have ? "differs" : "no record");
	}
	/* and every recorded group is live */
	while (!bpf_map_get_next_key(fdg, prev, &id)) {
		prev = &key;
		key = id;
		if (id >= ROCEDP_MAX_GROUPS ||
		    !(live[id] & ROCEDP_GROUP_LIVE_PRESENT))
			fz_fail("group %u is in rd_groups, not live", id);
	}
}

static void check_maps(bool full)
{
	static struct rocedp_group g;
	unsigned int i, seen = 0, want = 0;

	if (!full) {
		fz_each_route(fd4, fd6, route_has_group, NULL);
		return;
	}
	memset(group_used, 0, sizeof(group_used));
	fz_each_route(fd4, fd6, route_full, &seen);
	for (i = 0; i < N_PFX; i++)
		want += shadow[i].set;
	if (seen != want)
		fz_fail("the maps hold %u routes, %u were set", seen, want);
	fz_groups_all_used(fdg, group_used);
	/* a quarter of the checks: it triples a full check's cost */
	if (!(++n_full_checks & 3))
		banks_match_record();
	if (bpf_map_lookup_elem(fdg, &(__u32){ STATIC_GROUP }, &g) ||
	    memcmp(&g, &static_group, sizeof(g)))
		fz_fail("the static group changed");
}

/* ------------------------------------------------------------ operations */

struct cursor {
	const uint8_t *p;
	size_t n;
};

static unsigned int take(struct cursor *c, unsigned int mod)
{
	unsigned int v;

	if (!c->n)
		return 0;
	v = *c->p++;
	c->n--;
	return mod ? v % mod : v;
}

static void op_set(struct cursor *c)
{
	unsigned int raw = take(c, N_PFX), k = canon[raw], i, f, n;
	struct shadow_route *r = &shadow[k];
	uint32_t flags = 0;
	int err;

	n = take(c, 8);
	if (n == 7) /* now and then more hops than a group holds */
		n = ROCEDP_MAX_MEMBERS + take(c, 3);
	else if (n > 4)
		n = n - 4;
	if (take(c, 8) == 0)
		flags = ROCEDP_ROUTEF_LOCAL;
	r->n = n;
	for (i = 0; i < n; i++) {
		struct rd_hop *h = &r->hops[i];
		unsigned int b = take(c, 0);

		memset(h, 0, sizeof(*h));
		h->ifindex = 2 + (b & 3);
		/* mostly the route's family; v4 over an IPv6 gateway too */
		f = (b >> 2) & 3 ? pfx[k].family == AF_INET6 :
				   !(pfx[k].family == AF_INET6);
		h->family = f ? AF_INET6 : AF_INET;
		memcpy(h->gw, gw[f][(b >> 4) & 1], 16);
		h->weight = weights[(b >> 5) % 6];
		if (n > ROCEDP_MAX_MEMBERS) /* distinct, so none merge */
			h->ifindex = 10 + i;
	}
	err = rd_fib_route_set(fib, pfx[raw].family, pfx[raw].plen,
			       pfx[raw].raw, flags, r->hops, n);
	if (err && err != -E2BIG)
		fz_fail("route_set %s: %s", pfx_text[k], strerror(-err));
	if ((err == -E2BIG) != (n > ROCEDP_MAX_MEMBERS))
		fz_fail("route_set %s with %u hops returned %d", pfx_text[k], n,
			err);
	r->set = true;
	r->flags = flags;
	r->local = flags || !n || err;
}

static void op_del(struct cursor *c)
{
	unsigned int raw = take(c, N_PFX), k = canon[raw];

	rd_fib_route_del(fib, pfx[raw].family, pfx[raw].plen, pfx[raw].raw);
	shadow[k].set = false;
}

static void commit(bool full)
{
	struct rd_fib_counts cnt = { 0 };

	if (rd_fib_commit(fib, full, fill, NULL, &cnt) || cnt.errors)
		fz_fail("commit failed (%" PRIu64 " errors)", cnt.errors);
	n_commits++;
	check_maps(true);
}

/* Replay every recorded route between begin_full and end_full. */
static void resync(void)
{
	unsigned int k;

	rd_fib_begin_full(fib);
	for (k = 0; k < N_PFX; k++)
		if (shadow[k].set)
			rd_fib_route_set(fib, pfx[k].family, pfx[k].plen,
					 pfx[k].addr, shadow[k].flags,
					 shadow[k].hops, shadow[k].n);
	rd_fib_end_full(fib);
}

static void restart(void)
{
	struct rd_fib_counts cnt = { 0 };

	commit(false); /* what runs is what the maps hold */
	rd_fib_free(fib);
	fib_attach();
	resync();
	if (rd_fib_commit(fib, true, fill, NULL, &cnt) || cnt.errors)
		fz_fail("commit after restart failed");
	if (writes(&cnt))
		fz_fail("a restart with nothing changed wrote %" PRIu64
			" entries (groups %" PRIu64 "/%" PRIu64
			", routes %" PRIu64 "/%" PRIu64 ")",
			writes(&cnt), cnt.group_writes, cnt.group_deletes,
			cnt.route_writes, cnt.route_deletes);
	n_restarts++;
	check_maps(true);
}

/* A fresh model over maps that hold only the config's static entries. */
static void reset(void)
{
	if (fib)
		rd_fib_free(fib);
	memset(shadow, 0, sizeof(shadow));
	memset(link_up, 1, sizeof(link_up));
	memset(neigh_ok, 1, sizeof(neigh_ok));
	fib_attach();
	rd_fib_begin_full(fib);
	rd_fib_end_full(fib);
	commit(true);
}

static void at_exit(void)
{
	fprintf(stderr,
		"fuzz-fib: %" PRIu64 " executions, %" PRIu64
		" invariant failures\n"
		"fuzz-fib: %" PRIu64 " commits checked, %" PRIu64
		" restarts that wrote nothing\n",
		n_exec, fz_failures, n_commits, n_restarts);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rocedp_route4_key k4 = { .prefixlen = 12 };
	struct rocedp_route sv = { .group_id = STATIC_GROUP,
				   .flags = ROCEDP_ROUTEF_STATIC };
	struct rd_engine_opts o = { 0 };
	const struct rd_maps *m;
	__u32 sg = STATIC_GROUP;
	unsigned int i, f, g;

	(void)argc;
	(void)argv;
	fz_name = "fuzz-fib";
	eng = fz_engine_open(&o);
	m = rd_engine_maps(eng);
	fd4 = m->fd[RD_MAP_ROUTES4];
	fd6 = m->fd[RD_MAP_ROUTES6];
	fdg = m->fd[RD_MAP_GROUPS];
	fdb = m->fd[RD_MAP_GROUP_BANKS];
	fdl = m->fd[RD_MAP_GROUP_LIVE];
	if (rd_routew_gen_map(m->fd[RD_MAP_ROUTE_GEN], &route_gen))
		return 2;
	for (i = 0; i < N_PFX; i++) {
		parse_prefix(pfx_text[i], &pfx[i]);
		canon[i] = find_pfx(pfx[i].family, pfx[i].plen, pfx[i].addr);
	}
	for (f = 0; f < 2; f++)
		for (g = 0; g < N_GW; g++)
			inet_pton(f ? AF_INET6 : AF_INET, gw_text[f][g],
				  gw[f][g]);
	/* the config's entries: a static route and group sync must leave */
	static_group.n_members = 1;
	static_group.members[0].ifindex = 2;
	static_group.members[0].weight = 1;
	static_group.members[0].flags = ROCEDP_MEMBERF_UP |
					ROCEDP_MEMBERF_RESOLVED |
					ROCEDP_MEMBERF_STATIC;
	rd_group_build(&static_group);
	inet_pton(AF_INET, "172.16.0.0", &k4.addr);
	if (rd_groupw_put(&(struct rd_groupw){ fdg, fdb, fdl }, sg,
			  &static_group) ||
	    bpf_map_update_elem(fd4, &k4, &sv, 0))
		exit(2);
	atexit(at_exit);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cursor c = { data, size };
	struct rd_fib_counts cnt = { 0 };
	unsigned int i, f, g;

	n_exec++;
	reset();
	while (c.n) {
		switch (take(&c, 12)) {
		case 0:
		case 1:
		case 2:
			op_set(&c);
			break;
		case 3:
			op_del(&c);
			break;
		case 4: /* a neighbour changes: sync touches its port */
			i = take(&c, N_IF);
			f = take(&c, 2);
			g = take(&c, N_GW);
			neigh_ok[i][f][g] = !neigh_ok[i][f][g];
			rd_fib_touch_ifindex(fib, 2 + i);
			break;
		case 5: /* a link goes up or down */
			i = take(&c, N_IF);
			link_up[i] = !link_up[i];
			rd_fib_touch_ifindex(fib, take(&c, 4) ? 2 + i : 0);
			break;
		case 6:
		case 7:
			commit(take(&c, 2));
			break;
		case 8: /* member state only, as during a dump */
			if (rd_fib_commit_groups(fib, fill, NULL, &cnt) ||
			    cnt.errors)
				fz_fail("commit_groups failed");
			check_maps(false);
			break;
		case 9:
			resync();
			commit(true);
			break;
		case 10:
			restart();
			break;
		case 11: /* a full resync that sees no route: all swept */
			rd_fib_begin_full(fib);
			rd_fib_end_full(fib);
			memset(shadow, 0, sizeof(shadow));
			commit(true);
			break;
		}
	}
	commit(false);
	return 0;
}
