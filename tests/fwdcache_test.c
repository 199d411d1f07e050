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
 * A route written behind routew's back (bpf_map_update_elem, no
 * generation) must leave the cached engine on the old member: the check
 * that the comparison can see a stale entry at all.
 *
 * Usage: fwdcache_test [-q]   (root). TAP output.
 */
#include <errno.h>
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

static const char *const phases[][2] = {
	{ "start: route to the 4-member group",
	  CFG_HEAD GROUPS4 ", \"routes\": [{\"prefix\": \"10.9.0.0/16\","
			   " \"group\": 50}]}" },
	{ "route moved to the other group",
	  CFG_HEAD GROUPS4 ", \"routes\": [{\"prefix\": \"10.9.0.0/16\","
			   " \"group\": 51}]}" },
	{ "route back, then the group rewritten (3 members, reordered)",
	  CFG_HEAD GROUPS3 ", \"routes\": [{\"prefix\": \"10.9.0.0/16\","
			   " \"group\": 50}]}" },
	{ "hash seed changed",
	  CFG_HEAD GROUPS3 ", \"hash\": {\"seed\": 12345}, \"routes\": "
			   "[{\"prefix\": \"10.9.0.0/16\", \"group\": 50}]}" },
	{ "hash mode changed to 5-tuple", CFG_HEAD GROUPS3
	  ", \"hash\": {\"seed\": 12345, \"mode\": "
	  "\"5tuple\"}, \"routes\": [{\"prefix\": \"10.9.0.0/16\","
	  " \"group\": 50}]}" },
	{ "telemetry on", CFG_TEL_HEAD GROUPS3
	  ", \"hash\": {\"seed\": 12345}, \"routes\": "
	  "[{\"prefix\": \"10.9.0.0/16\", \"group\": 50}]}" },
	{ "a more specific route added", CFG_HEAD GROUPS3
	  ", \"hash\": {\"seed\": 12345, \"mode\": "
	  "\"5tuple\"}, \"routes\": [{\"prefix\": \"10.9.0.0/16\","
	  " \"group\": 50}, {\"prefix\": \"10.9.1.0/24\","
	  " \"group\": 51}]}" },
	{ "flowlets: the route from the cache, the member the flowlet's",
	  CFG_FL_HEAD GROUPS4 ", \"hash\": {\"mode\": \"flowlet\"}, "
			      "\"routes\": [{\"prefix\": \"10.9.0.0/16\","
			      " \"group\": 50}]}" },
	{ "flowlets, the route moved", CFG_FL_HEAD GROUPS4
	  ", \"hash\": {\"mode\": \"flowlet\"}, \"routes\": "
	  "[{\"prefix\": \"10.9.0.0/16\", \"group\": 51}]}" },
	{ "the flowlet feature under hash mode qp",
	  CFG_FL_HEAD GROUPS4 ", \"routes\": [{\"prefix\": \"10.9.0.0/16\","
			      " \"group\": 50}]}" },
	/* same hash mode: only the entries' route_only mark keeps the
	 * flowlets' members from being reused as the hash's */
	{ "the flowlet feature off, hash mode qp",
	  CFG_HEAD GROUPS4 ", \"routes\": [{\"prefix\": \"10.9.0.0/16\","
			   " \"group\": 50}]}" },
	/* and back: entries made without flowlets give only their route */
	{ "the flowlet feature on again, hash mode qp",
	  CFG_FL_HEAD GROUPS4 ", \"routes\": [{\"prefix\": \"10.9.0.0/16\","
			      " \"group\": 50}]}" },
};

static struct rd_engine *ref, *cached;
static __u64 now_ns;

static int apply(const char *text)
{
	int err;

	err = rd_config_apply_text("fwdcache", text, strlen(text),
				   rd_engine_maps(ref));
	return err   ?:
		       rd_config_apply_text("fwdcache", text, strlen(text),
					    rd_engine_maps(cached));
}

static void build(uint8_t *in, uint32_t *len, int flow)
{
	struct rd_frame spec = { .src4 = 0x0a080001 + (flow & 3),
				 .dst4 = 0x0a090105 + (flow & 1) * 0x100,
				 .sport = 49152 + (flow & 7),
				 .opcode = ROCEDP_OP_RC_WRITE_ONLY,
				 .dma_len = 16,
				 .payload = 16 };

	spec.dest_qp = 0x100 + flow * 7919u;
	*len = rd_frame_build(in, 256, &spec);
}

/* Each flow PASSES times through both engines on hook h; mismatches. */
static unsigned int compare(enum rd_hook h, unsigned int *forwarded)
{
	uint8_t in[256], out_a[512], out_b[512];
	struct rd_run a, b;
	unsigned int bad = 0;
	int p, f, i;

	for (p = 0; p < PASSES; p++) {
		/* both engines at one time, which moves on: flowlets age */
		now_ns += 10 * 1000 * 1000;
		if (rd_engine_set_time(ref, now_ns) ||
		    rd_engine_set_time(cached, now_ns))
			return PASSES * FLOWS;
		for (i = 0; i < FLOWS; i++) {
			/* a new order each pass: least-loaded choices move */
			f = (i * 5 + p * 17) % FLOWS;
			memset(&a, 0, sizeof(a));
			build(in, &a.in_len, f);
			a.in = in;
			a.ingress_ifindex = 3;
			b = a;
			a.out = out_a;
			a.out_size = sizeof(out_a);
			b.out = out_b;
			b.out_size = sizeof(out_b);
			if (rd_engine_run(ref, h, &a) ||
			    rd_engine_run(cached, h, &b)) {
				bad++;
				continue;
			}
			*forwarded += b.verdict == ROCEDP_VERDICT_REDIRECT;
			if (a.verdict != b.verdict || a.out_len != b.out_len ||
			    memcmp(out_a, out_b, a.out_len))
				bad++;
		}
	}
	return bad;
}

static __u64 cache_hits(void)
{
	int fd = rd_engine_maps(cached)->fd[RD_MAP_STATS];
	int n = libbpf_num_possible_cpus(), i;
	struct rocedp_stats *s;
	__u32 zero = 0;
	__u64 sum = 0;

	s = calloc(n, sizeof(*s));
	if (!s || bpf_map_lookup_elem(fd, &zero, s)) {
		free(s);
		return 0;
	}
	for (i = 0; i < n; i++)
		sum += s[i].ctr[ROCEDP_CTR_FWD_CACHE_HIT];
	free(s);
	return sum;
}

static void run_phase(const char *name, enum rd_hook h)
{
	unsigned int fwd = 0, bad;
	__u64 hits = cache_hits();

	bad = compare(h, &fwd);
	hits = cache_hits() - hits;
	result(!bad, "%s (%s): %u of %u frames the same on both paths", name,
	       h == RD_HOOK_XDP ? "xdp" : "tc", PASSES * FLOWS - bad,
	       PASSES * FLOWS);
	/*
	 * After the first pass every forwarded flow is known, but for the
	 * few that share a slot (direct-mapped: they evict each other).
	 */
	result(fwd > FLOWS && hits >= (fwd - FLOWS) * 9 / 10,
	       "%s (%s): %llu of %u forwarded frames from the cache", name,
	       h == RD_HOOK_XDP ? "xdp" : "tc", (unsigned long long)hits, fwd);
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

int main(int argc, char **argv)
{
	struct rd_engine_opts with_trace = { .trace = true,
					     .map_clock = true,
					     .bind_cpu = true };
	struct rd_engine_opts no_trace = { .trace = false,
					   .map_clock = true,
					   .bind_cpu = true };
	unsigned int i;
	int err;

	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	err = rd_engine_open(&ref, &with_trace) ?:
		      rd_engine_open(&cached, &no_trace);
	if (!result(!err, "two engines%s%s", err ? ": " : "",
		    err ? strerror(-err) : ""))
		return 1;
	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		err = apply(phases[i][1]);
		if (!result(!err, "config: %s", phases[i][0]))
			continue;
		run_phase(phases[i][0], RD_HOOK_XDP);
		run_phase(phases[i][0], RD_HOOK_TC);
		if (strstr(phases[i][1], "telemetry"))
			qps_phase();
	}
	if (result(!new_neighbour_mac(), "config: a neighbour's new MAC")) {
		run_phase("a neighbour's new MAC, no route written",
			  RD_HOOK_XDP);
		run_phase("a neighbour's new MAC, no route written",
			  RD_HOOK_TC);
	}
	behind_routew();
	rd_engine_close(cached);
	rd_engine_close(ref);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
