// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarding decision cache (bpf/fwdcache.h) against the full path.
 *
 * Two engines get the same configuration and the same frames: one with
 * the trace on, which keeps every frame on the full path, and one
 * without, which takes route and member from the cache once a flow is
 * known. Every frame must leave both with the same verdict and the same
 * bytes, through each change a writer can make under the cache: a static
 * route moved to another group (routew.c, rd_route_gen), a group's members
 * rewritten (groupw.c, the live word; also alone, a neighbour's new MAC
 * with no route written), the hash seed and mode changed
 * (rd_config). The cached engine must have
 * served most frames from the cache (its forwarded_from_cache counter).
 * With flowlets on, only the route comes from the cache, and an entry
 * made under flowlets must not give its member to the hash's choice
 * once they are off.
 * With telemetry on, both engines' rd_qps tables must match byte for
 * byte: the cached engine finds a request's QP slot through the hint in
 * its cache entry, the reference through the table's hash.
 *
 * Through the config phases a third engine without the express path
 * (general parser, out-of-line decisions, no cache) runs the same frames
 * and must agree too, IPv4 and IPv6 flows alike.
 *
 * A route written behind routew's back (bpf_map_update_elem, no
 * generation) must leave the cached engine on the old member: the check
 * that the comparison can see a stale entry at all.
 *
 * Usage: fwdcache_test [-q]   (root). TAP output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#include "frame.h"
#include "groupw.h"
#include "pindir.h"
#include "routew.h"
#include "sync_owner.h"
#include "stats.h"
#include "tap.h"

#define FLOWS 64
#define PASSES 3

/* Ports 4..7; groups 50 (4 members) and 51 (one, port 7). */
#define CFG_HEAD "{\"features\": [\"forward\", \"remark\", \"ecn\"], "
#define CFG_FL_HEAD \
	"{\"features\": [\"forward\", \"remark\", \"ecn\", \"flowlet\"], "
#define CFG_TEL_HEAD \
	"{\"features\": [\"forward\", \"remark\", \"ecn\", \"telemetry\"], "
#define MEMBER(i)                                                     \
	"{\"ifindex\": " #i ", \"smac\": \"02:00:00:00:00:0" #i "\"," \
	" \"dmac\": \"02:00:00:00:01:0" #i "\", \"weight\": 1}"
#define GROUPS4                                                                          \
	"\"groups\": [{\"id\": 50, \"members\": [" MEMBER(4) ", " MEMBER(5) ", " MEMBER( \
		6) ", " MEMBER(7) "]}, {\"id\": 51, \"members\": [" MEMBER(7) "]}]"
#define GROUPS3                                                           \
	"\"groups\": [{\"id\": 50, \"members\": [" MEMBER(4) ", " MEMBER( \
		6) ", " MEMBER(5) "]}, {\"id\": 51, \"members\": [" MEMBER(7) "]}]"

/* each route with its IPv6 twin: IPv6 flows take the same groups */
#define ROUTE(p4, p6, g)                                                  \
	"{\"prefix\": \"" p4 "\", \"group\": " #g "}, {\"prefix\": \"" p6 \
	"\", \"group\": " #g "}"
#define ROUTE16(g) ROUTE("10.9.0.0/16", "fd09::/32", g)
#define ROUTE24(g) ROUTE("10.9.1.0/24", "fd09:0:1::/48", g)
#define ROUTES(r) ", \"routes\": [" r "]}"

static const char *const phases[][2] = {
	{ "start: route to the 4-member group",
	  CFG_HEAD GROUPS4 ROUTES(ROUTE16(50)) },
	{ "route moved to the other group",
	  CFG_HEAD GROUPS4 ROUTES(ROUTE16(51)) },
	{ "route back, then the group rewritten (3 members, reordered)",
	  CFG_HEAD GROUPS3 ROUTES(ROUTE16(50)) },
	{ "hash seed changed", CFG_HEAD GROUPS3
	  ", \"hash\": {\"seed\": 12345}" ROUTES(ROUTE16(50)) },
	{ "hash mode changed to 5-tuple",
	  CFG_HEAD GROUPS3 ", \"hash\": {\"seed\": 12345, \"mode\": "
			   "\"5tuple\"}" ROUTES(ROUTE16(50)) },
	{ "telemetry on", CFG_TEL_HEAD GROUPS3
	  ", \"hash\": {\"seed\": 12345}" ROUTES(ROUTE16(50)) },
	{ "a more specific route added",
	  CFG_HEAD GROUPS3 ", \"hash\": {\"seed\": 12345, \"mode\": "
			   "\"5tuple\"}" ROUTES(ROUTE16(50) ", " ROUTE24(51)) },
	{ "flowlets: the route from the cache, the member the flowlet's",
	  CFG_FL_HEAD GROUPS4
	  ", \"hash\": {\"mode\": \"flowlet\"}" ROUTES(ROUTE16(50)) },
	{ "flowlets, the route moved", CFG_FL_HEAD GROUPS4
	  ", \"hash\": {\"mode\": \"flowlet\"}" ROUTES(ROUTE16(51)) },
	{ "the flowlet feature under hash mode qp",
	  CFG_FL_HEAD GROUPS4 ROUTES(ROUTE16(50)) },
	/* same hash mode: only the entries' route_only mark keeps the
	 * flowlets' members from being reused as the hash's */
	{ "the flowlet feature off, hash mode qp",
	  CFG_HEAD GROUPS4 ROUTES(ROUTE16(50)) },
	/* and back: entries made without flowlets give only their route */
	{ "the flowlet feature on again, hash mode qp",
	  CFG_FL_HEAD GROUPS4 ROUTES(ROUTE16(50)) },
};

static struct rd_engine *ref, *cached;
/*
 * A third engine without the express path (the general parser and the
 * out-of-line decisions, no cache): through the config phases it must
 * agree with both, so the express path's cache and the general path give
 * the same frames, IPv4 and IPv6.
 */
static struct rd_engine *general;
static bool with_general;
static __u64 now_ns;

static int apply(const char *text)
{
	int err;

	err = rd_config_apply_text("fwdcache", text, strlen(text),
				   rd_engine_maps(ref));
	if (!err && with_general)
		err = rd_config_apply_text("fwdcache", text, strlen(text),
					   rd_engine_maps(general));
	return err   ?:
		       rd_config_apply_text("fwdcache", text, strlen(text),
					    rd_engine_maps(cached));
}

/* fd08::(hi):(lo) */
static void addr6(uint8_t *a, uint16_t net, uint32_t hi, uint32_t lo)
{
	memset(a, 0, 16);
	a[0] = 0xfd;
	a[1] = net >> 8;
	a[2] = net & 0xff;
	a[8] = hi >> 24;
	a[9] = hi >> 16;
	a[10] = hi >> 8;
	a[11] = hi;
	a[12] = lo >> 24;
	a[13] = lo >> 16;
	a[14] = lo >> 8;
	a[15] = lo;
}

/*
 * Flow f of family fam: IPv4 10.8.0.x -> 10.9.{0,1}.x, IPv6
 * fd08::/32 -> fd09:0:{0,1}::/48, the same ports and destination QPs.
 * twin: the IPv6 flow's source with its last two words swapped, so its
 * entry's folded key, and with it its slot, is the flow's own: only the
 * whole addresses in rd_fwd_cache6 tell the two apart.
 */
static void build(uint8_t *in, uint32_t *len, int flow, int fam, int twin)
{
	struct rd_frame spec = { .src4 = 0x0a080001 + (flow & 3),
				 .dst4 = 0x0a090105 + (flow & 1) * 0x100,
				 .sport = 49152 + (flow & 7),
				 .opcode = ROCEDP_OP_RC_WRITE_ONLY,
				 .dma_len = 16,
				 .payload = 16 };
	uint32_t a = 0x100 + flow, b = 0x7000 + (flow & 3);

	spec.dest_qp = 0x100 + flow * 7919u;
	if (fam == 6) {
		spec.v6 = true;
		addr6(spec.src6, 0x0800, twin ? b : a, twin ? a : b);
		addr6(spec.dst6, 0x0900, 0, 0x105);
		/* fd09:0:1::/48 for odd flows, as 10.9.1.0/24 */
		spec.dst6[5] = flow & 1;
	}
	*len = rd_frame_build(in, 256, &spec);
}

/* Frame f of family fam (twin: build's) through both engines; 0 same. */
static int run_both(enum rd_hook h, int f, int fam, int twin,
		    unsigned int *fwd_ref, unsigned int *fwd_cached)
{
	uint8_t in[256], out_a[512], out_b[512], out_c[512];
	struct rd_run a, b, c;

	memset(&a, 0, sizeof(a));
	build(in, &a.in_len, f, fam, twin);
	a.in = in;
	a.ingress_ifindex = 3;
	b = a;
	c = a;
	a.out = out_a;
	a.out_size = sizeof(out_a);
	b.out = out_b;
	b.out_size = sizeof(out_b);
	c.out = out_c;
	c.out_size = sizeof(out_c);
	if (rd_engine_run(ref, h, &a) || rd_engine_run(cached, h, &b))
		return 1;
	if (with_general &&
	    (rd_engine_run(general, h, &c) || a.verdict != c.verdict ||
	     a.out_len != c.out_len || memcmp(out_a, out_c, a.out_len)))
		return 1;
	*fwd_ref += a.verdict == ROCEDP_VERDICT_REDIRECT;
	*fwd_cached += b.verdict == ROCEDP_VERDICT_REDIRECT;
	return a.verdict != b.verdict || a.out_len != b.out_len ||
	       memcmp(out_a, out_b, a.out_len);
}

static int tick(void)
{
	/* both engines at one time, which moves on: flowlets age */
	now_ns += 10 * 1000 * 1000;
	return rd_engine_set_time(ref, now_ns) ||
	       rd_engine_set_time(cached, now_ns) ||
	       (with_general && rd_engine_set_time(general, now_ns));
}

/* Each flow of family fam PASSES times through both engines on hook h;
 * mismatches. *forwarded: the cached engine's forwarded frames. */
static unsigned int compare_fam(enum rd_hook h, int fam,
				unsigned int *forwarded)
{
	unsigned int bad = 0, fwd_ref = 0;
	int p, f, i;

	for (p = 0; p < PASSES; p++) {
		if (tick())
			return PASSES * FLOWS;
		for (i = 0; i < FLOWS; i++) {
			/* a new order each pass: least-loaded choices move */
			f = (i * 5 + p * 17) % FLOWS;
			bad += run_both(h, f, fam, 0, &fwd_ref, forwarded);
		}
	}
	return bad;
}

static unsigned int compare(enum rd_hook h, unsigned int *forwarded)
{
	return compare_fam(h, 4, forwarded);
}

/* the cached engine's hits, summed over CPUs (0 when unreadable) */
static __u64 cache_hits(void)
{
	__u64 v;

	rd_counter_get(rd_engine_maps(cached)->fd[RD_MAP_STATS],
		       ROCEDP_CTR_FWD_CACHE_HIT, &v);
	return v;
}

static void run_phase(const char *name, enum rd_hook h, int fam)
{
	unsigned int fwd = 0, bad;
	__u64 hits = cache_hits();

	bad = compare_fam(h, fam, &fwd);
	hits = cache_hits() - hits;
	result(!bad,
	       "%s (%s, IPv%d): %u of %u frames the same on every path (%s)",
	       name, h == RD_HOOK_XDP ? "xdp" : "tc", fam, PASSES * FLOWS - bad,
	       PASSES * FLOWS,
	       with_general ? "cached, full, general" : "cached, full");
	/*
	 * After the first pass every forwarded flow is known, but for the
	 * few that share a slot (direct-mapped: they evict each other).
	 */
	result(fwd > FLOWS && hits >= (fwd - FLOWS) * 9 / 10,
	       "%s (%s, IPv%d): %llu of %u forwarded frames from the cache",
	       name, h == RD_HOOK_XDP ? "xdp" : "tc", fam,
	       (unsigned long long)hits, fwd);
}

/*
 * IPv6 flows whose folded keys, and so slots, are the same, in turn:
 * each must leave as the full path sends it (a hit on the fold alone
 * would give it its twin's member).
 */
static void twins(void)
{
	unsigned int bad = 0, n = 0, fr = 0, fc = 0;
	int p, f, t;

	for (p = 0; p < PASSES; p++)
		for (f = 0; f < FLOWS; f++)
			for (t = 0; t < 2; t++, n++)
				bad += run_both(RD_HOOK_XDP, f, 6, t, &fr, &fc);
	result(!bad && fr == n,
	       "IPv6 flows with one folded key in turn: %u of %u frames the same on both paths (%u forwarded)",
	       n - bad, n, fr);
}

/* Both engines' per-QP tables, slot by slot; -1 when unreadable. */
static int qps_differ(unsigned int *live)
{
	int fa = rd_engine_maps(ref)->fd[RD_MAP_QPS];
	int fb = rd_engine_maps(cached)->fd[RD_MAP_QPS];
	struct rocedp_qp_slot a, b;
	int differ = 0;
	__u32 i;

	*live = 0;
	for (i = 0; i < ROCEDP_MAX_QPS; i++) {
		if (bpf_map_lookup_elem(fa, &i, &a) ||
		    bpf_map_lookup_elem(fb, &i, &b))
			return -1;
		*live += a.key.family != 0;
		differ += !!memcmp(&a, &b, sizeof(a));
	}
	return differ;
}

static void qps_phase(void)
{
	unsigned int live;
	int differ = qps_differ(&live);

	result(!differ && live > 0,
	       "telemetry on: the per-QP tables match slot for slot (%d differ, %u QPs)",
	       differ, live);
}

/*
 * A neighbour's new MAC, as sync writes it: group 50's member 0 in both
 * engines through groupw, no route written (so no route generation).
 */
static int new_neighbour_mac(void)
{
	struct rd_engine *e[2] = { ref, cached };
	struct rocedp_group g;
	__u32 id = 50;
	int i, err = 0;

	for (i = 0; i < 2 && !err; i++) {
		const struct rd_maps *m = rd_engine_maps(e[i]);

		if (bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS], &id, &g))
			return -errno;
		g.members[0].dmac[5] ^= 0x80;
		err = rd_groupw_put_maps(m, id, &g);
	}
	return err;
}

/*
 * A route written without routew, into both engines: the reference
 * follows it, the cache must keep its old answer.
 */
static void behind_routew(void)
{
	struct rocedp_route4_key k = { .prefixlen = 16,
				       .addr = htonl(0x0a090000) };
	struct rocedp_route v = { .group_id = 51 };
	unsigned int fwd = 0, bad = 0;

	compare(RD_HOOK_XDP, &fwd); /* every flow known */
	if (!bpf_map_update_elem(rd_engine_maps(ref)->fd[RD_MAP_ROUTES4], &k,
				 &v, BPF_ANY) &&
	    !bpf_map_update_elem(rd_engine_maps(cached)->fd[RD_MAP_ROUTES4], &k,
				 &v, BPF_ANY))
		bad = compare(RD_HOOK_XDP, &fwd);
	result(bad > 0,
	       "a route written behind routew's back: %u of %u frames left the cached engine on the old member (the comparison sees a stale entry)",
	       bad, PASSES * FLOWS);
}

/* Route p/plen (IPv4 host order a4, IPv6 a6) in both engines' tries,
 * written as a sync from before the cache does: no generation. */
static int behind(int fam, uint32_t a4, const uint8_t *a6, unsigned int plen,
		  const struct rocedp_route *v)
{
	struct rd_engine *e[2] = { ref, cached };
	struct rocedp_route4_key k4 = { .prefixlen = plen, .addr = htonl(a4) };
	struct rocedp_route6_key k6 = { .prefixlen = plen };
	int i, fd, err = 0;

	if (fam == 6)
		memcpy(k6.addr, a6, 16);
	for (i = 0; i < 2 && !err; i++) {
		fd = rd_engine_maps(e[i])
			     ->fd[fam == 6 ? RD_MAP_ROUTES6 : RD_MAP_ROUTES4];
		if (v)
			err = bpf_map_update_elem(
				fd, fam == 6 ? (void *)&k6 : (void *)&k4, v,
				BPF_ANY);
		else
			err = bpf_map_delete_elem(fd, fam == 6 ? (void *)&k6 :
								 (void *)&k4);
	}
	return err ? -errno : 0;
}

/* Every flow of both families once more; forwarded by each engine. */
static unsigned int both_fams(unsigned int *fr, unsigned int *fc)
{
	unsigned int bad = 0;
	int f, fam;

	*fr = *fc = 0;
	if (tick())
		return 1;
	for (fam = 4; fam <= 6; fam += 2)
		for (f = 0; f < FLOWS; f++)
			bad += run_both(RD_HOOK_XDP, f, fam, 0, fr, fc);
	return bad;
}

/* What attach does (liveload.c): the mark as the sync lock's holder allows. */
static int attach_mark(const char *dir)
{
	int moves = rd_sync_owner_moves_gen(dir), err = 0, i;
	struct rd_engine *e[2] = { ref, cached };

	for (i = 0; i < 2 && !err; i++)
		err = rd_routew_mark_fd(
			rd_engine_maps(e[i])->fd[RD_MAP_ROUTE_GEN], moves);
	return err ?: moves;
}

/*
 * An upgrade that keeps an older `rocedp sync` running (docs/sync.md):
 * it writes routes without moving rd_route_gen. Attach finds it holding
 * the sync lock with its pid alone and keeps the cache off; then the
 * older sync adds a connected /24 as LOCAL, then withdraws both routes.
 * The cached engine must forward as the full path does throughout, and
 * cache again once a current sync (the lock file says route_gen) runs.
 */
static void older_sync(void)
{
	static const uint8_t net6[16] = { 0xfd, 0x09 };
	static const uint8_t sub6[16] = { 0xfd, 0x09, 0, 0, 0, 1 };
	struct rocedp_route local = { .flags = ROCEDP_ROUTEF_LOCAL };
	char dir[] = "/tmp/fwdcache-pinsXXXXXX", lock[256], note[40];
	unsigned int fr, fc, bad;
	int fd = -1, n, moves;
	__u64 hits;

	if (!result(!apply(phases[0][1]) && mkdtemp(dir) &&
			    !rd_sync_lock_path(dir, lock, sizeof(lock)),
		    "older sync: config and a pin directory"))
		return;
	both_fams(&fr, &fc); /* every flow known */
	hits = cache_hits();
	both_fams(&fr, &fc);
	result(cache_hits() - hits >= fc * 9 / 10,
	       "older sync: before the upgrade %llu of %u forwarded frames from the cache",
	       (unsigned long long)(cache_hits() - hits), fc);

	/* the older sync holds the lock, its pid alone in the file */
	mkdir(ROCEDP_RUN_DIR, 0700);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	n = snprintf(note, sizeof(note), "%d\n", (int)getpid());
	if (!result(fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB) &&
			    pwrite(fd, note, n, 0) == n,
		    "older sync: holds the sync lock"))
		goto out;
	moves = attach_mark(dir);
	/* traffic after the upgrade, before the older sync writes */
	both_fams(&fr, &fc);
	hits = cache_hits();
	bad = both_fams(&fr, &fc);
	hits = cache_hits() - hits;
	result(moves == 0 && !bad && !hits,
	       "older sync: attach sees it and turns the cache off (%d): %llu of %u forwarded frames from the cache",
	       moves, (unsigned long long)hits, fc);

	bad = behind(4, 0x0a090100, NULL, 24, &local) ?:
		      behind(6, 0, sub6, 48, &local);
	bad = bad ? 1 : both_fams(&fr, &fc);
	result(!bad && fr == fc,
	       "older sync: connected /24 and /48 added as LOCAL: the full path forwards %u of %u, the cached engine %u (%u differ)",
	       fr, 2 * FLOWS, fc, bad);
	bad = behind(4, 0x0a090100, NULL, 24, NULL)	    ?:
		      behind(4, 0x0a090000, NULL, 16, NULL) ?:
		      behind(6, 0, sub6, 48, NULL)	    ?:
		      behind(6, 0, net6, 32, NULL);
	bad = bad ? 1 : both_fams(&fr, &fc);
	result(!bad && fr == fc,
	       "older sync: both routes withdrawn: the full path forwards %u of %u, the cached engine %u (%u differ)",
	       fr, 2 * FLOWS, fc, bad);

	/* a current sync replaces it: its lock file says so, its start marks */
	n = snprintf(note, sizeof(note), "%d " RD_SYNC_OWNER_GEN "\n",
		     (int)getpid());
	moves = pwrite(fd, note, n, 0) == n ? attach_mark(dir) : -1;
	result(moves == 1, "current sync: attach turns the cache on (%d)",
	       moves);
	bad = apply(phases[0][1]) ? 1 : both_fams(&fr, &fc);
	hits = cache_hits();
	bad += both_fams(&fr, &fc);
	result(!bad && fc == 2 * FLOWS && cache_hits() - hits >= fc * 9 / 10,
	       "current sync: %u of %u frames the same, %llu of %u forwarded from the cache",
	       4 * FLOWS - bad, 4 * FLOWS,
	       (unsigned long long)(cache_hits() - hits), fc);
out:
	if (fd >= 0) {
		unlink(lock);
		close(fd);
	}
	rmdir(dir);
}

int main(int argc, char **argv)
{
	struct rd_engine_opts with_trace = { .trace = true,
					     .map_clock = true,
					     .bind_cpu = true };
	struct rd_engine_opts no_trace = { .trace = false,
					   .map_clock = true,
					   .bind_cpu = true };
	struct rd_engine_opts general_path = { .map_clock = true,
					       .bind_cpu = true,
					       .general_path = true };
	unsigned int i;
	int err;

	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	err = rd_engine_open(&ref, &with_trace)		 ?:
		      rd_engine_open(&cached, &no_trace) ?:
		      rd_engine_open(&general, &general_path);
	if (!result(!err, "three engines%s%s", err ? ": " : "",
		    err ? strerror(-err) : ""))
		return 1;
	with_general = true; /* through the config phases */
	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		err = apply(phases[i][1]);
		if (!result(!err, "config: %s", phases[i][0]))
			continue;
		run_phase(phases[i][0], RD_HOOK_XDP, 4);
		run_phase(phases[i][0], RD_HOOK_TC, 4);
		run_phase(phases[i][0], RD_HOOK_XDP, 6);
		run_phase(phases[i][0], RD_HOOK_TC, 6);
		if (strstr(phases[i][1], "telemetry"))
			qps_phase();
	}
	with_general = false; /* the writes below go to the other two */
	if (result(!new_neighbour_mac(), "config: a neighbour's new MAC")) {
		run_phase("a neighbour's new MAC, no route written",
			  RD_HOOK_XDP, 4);
		run_phase("a neighbour's new MAC, no route written", RD_HOOK_TC,
			  4);
		run_phase("a neighbour's new MAC, no route written",
			  RD_HOOK_XDP, 6);
	}
	twins();
	older_sync();
	behind_routew();
	rd_engine_close(general);
	rd_engine_close(cached);
	rd_engine_close(ref);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
