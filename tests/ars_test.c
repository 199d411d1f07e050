// SPDX-License-Identifier: GPL-2.0
/*
 * ARS through the real programs (offline engine): what a mode does over
 * many frames, which one frame's fixture cannot show, and the counters
 * (rd_ars_stats as rd_stats_read gives them, SAI's names in docs/ars.md).
 * - per_packet_random: one flow spread over four members;
 * - fixed: one flow, one member, no reassignment;
 * - per_packet_quality: one flow's bytes balanced over two members by
 *   their load bands (fixed: all on one);
 * - a flowlet mode's fallback when the flow's set holds only live
 *   flowlets: counted, nothing evicted (and without a fallback: the
 *   idlest is evicted, as the flowlet feature does).
 * Both paths (express, general). Bounds are wide: a draw of 4000 frames
 * leaving them has odds below 1e-30.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "config_txn.h"
#include "engine.h"
#include "frame.h"
#include "stats.h"
#include "tap.h"

#define T0 1000000000ull

static const char *const members4 =
	"{\"ifindex\": 2, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:bb:00:00:00:01\"},"
	"{\"ifindex\": 3, \"smac\": \"02:aa:00:00:00:02\", \"dmac\": \"02:bb:00:00:00:02\"},"
	"{\"ifindex\": 4, \"smac\": \"02:aa:00:00:00:03\", \"dmac\": \"02:bb:00:00:00:03\"},"
	"{\"ifindex\": 5, \"smac\": \"02:aa:00:00:00:04\", \"dmac\": \"02:bb:00:00:00:04\"}";

static struct rd_engine *open_with(const char *ars, bool general)
{
	struct rd_engine_opts o = { .trace = true,
				    .map_clock = true,
				    .bind_cpu = true,
				    .general_path = general };
	struct rd_engine *e;
	char cfg[4096];

	snprintf(cfg, sizeof(cfg),
		 "{\"features\": [\"forward\"], \"ars\": %s,"
		 " \"groups\": [{\"id\": 1, \"members\": [%s]}],"
		 " \"routes\": [{\"prefix\": \"10.1.0.0/16\", \"group\": 1}]}",
		 ars, members4);
	if (rd_engine_open(&e, &o))
		return NULL;
	if (rd_config_apply_text("ars_test", cfg, strlen(cfg),
				 rd_engine_maps(e)) ||
	    rd_engine_set_time(e, T0)) {
		rd_engine_close(e);
		return NULL;
	}
	return e;
}

/* One frame of flow qp (source src) through tc: its member, or -1. */
static int send_one(struct rd_engine *e, uint32_t src, uint32_t qp,
		    uint32_t len)
{
	struct rd_frame spec = { .src4 = src,
				 .dst4 = 0x0a010001,
				 .sport = 49152,
				 .opcode = ROCEDP_OP_RC_SEND_ONLY,
				 .dest_qp = qp,
				 .payload = len };
	uint8_t in[2048], out[2048];
	struct rd_run r;

	memset(&r, 0, sizeof(r));
	r.in_len = rd_frame_build(in, sizeof(in), &spec);
	r.in = in;
	r.out = out;
	r.out_size = sizeof(out);
	r.ingress_ifindex = 9;
	if (rd_engine_run(e, RD_HOOK_TC, &r) ||
	    r.verdict != ROCEDP_VERDICT_REDIRECT)
		return -1;
	return r.trace.member < 4 ? r.trace.member : -1;
}

static struct rocedp_ars_stats ars_of(struct rd_engine *e)
{
	static struct rd_stats_snapshot s;
	struct rocedp_ars_stats none = { 0 };

	if (rd_stats_read(rd_engine_maps(e), &s) || s.n_groups != 1)
		return none;
	return s.groups[0].ars;
}

static void t_random(bool general, const char *p)
{
	struct rd_engine *e =
		open_with("{\"mode\": \"per_packet_random\"}", general);
	unsigned int n[4] = { 0 }, i, bad = 0;
	struct rocedp_ars_stats st;
	int m;

	if (!result(e != NULL, "%s per_packet_random: engine", p))
		return;
	for (i = 0; i < 4000; i++) {
		m = send_one(e, 0x0a000001, 0x11, 64);
		if (m < 0)
			bad++;
		else
			n[m]++;
	}
	st = ars_of(e);
	result(!bad && n[0] > 600 && n[1] > 600 && n[2] > 600 && n[3] > 600,
	       "%s per_packet_random: one flow over 4 members %u/%u/%u/%u (each > 600 of 4000), %u not forwarded",
	       p, n[0], n[1], n[2], n[3], bad);
	result(st.frames == 4000 && st.nh_reassign > 2500 &&
		       st.nh_reassign < 3500 &&
		       st.port_reassign == st.nh_reassign && !st.drops,
	       "%s per_packet_random: frames %llu, next_hop_reassignments %llu (off the hash member: about 3/4), port_reassignments %llu, packet_drops %llu",
	       p, (unsigned long long)st.frames,
	       (unsigned long long)st.nh_reassign,
	       (unsigned long long)st.port_reassign,
	       (unsigned long long)st.drops);
	rd_engine_close(e);
}

static void t_fixed_quality(bool general, const char *p)
{
	static const char *const modes[] = { "fixed", "per_packet_quality" };
	char ars[512];
	unsigned int n[4], i, k, used, top, low;
	struct rocedp_ars_stats st;
	struct rd_engine *e;
	int m;

	for (k = 0; k < 2; k++) {
		/*
		 * bands 15 KB apart, load only, sampled every frame; the
		 * clock stands still, so no byte decays: a member is chosen
		 * only while in the lowest band, so none gets more than a
		 * band (15000 / 1058-byte frames: 15) ahead of another
		 */
		snprintf(
			ars, sizeof(ars),
			"{\"mode\": \"%s\", \"load_weight\": 100, \"queue_weight\": 0,"
			" \"sampling_interval_us\": 0,"
			" \"load_bands\": [15000, 30000, 45000, 60000, 75000, 90000, 200000]}",
			modes[k]);
		e = open_with(ars, general);
		if (!result(e != NULL, "%s %s: engine", p, modes[k]))
			continue;
		memset(n, 0, sizeof(n));
		for (i = 0; i < 400; i++) {
			m = send_one(e, 0x0a000002, 0x22, 1000);
			if (m >= 0)
				n[m]++;
		}
		st = ars_of(e);
		for (i = 0, used = 0, top = 0, low = 400; i < 4; i++) {
			used += n[i] > 0;
			top = n[i] > top ? n[i] : top;
			low = n[i] < low ? n[i] : low;
		}
		if (k == 0)
			result(used == 1 && top == 400 && !st.nh_reassign,
			       "%s fixed: one flow on one member (%u/%u/%u/%u), next_hop_reassignments %llu",
			       p, n[0], n[1], n[2], n[3],
			       (unsigned long long)st.nh_reassign);
		else
			result(used == 4 && top - low <= 16,
			       "%s per_packet_quality: one flow's 400 frames by load band %u/%u/%u/%u (within a band of each other: max - min <= 16)",
			       p, n[0], n[1], n[2], n[3]);
		rd_engine_close(e);
	}
}

/* IPv4 flow key words as bpf/flowlet.h stores them: its set. */
static uint32_t set_of(uint32_t src, uint32_t qp)
{
	return rocedp_flow_set_of(htonl(src), 0, htonl(0x0a010001), 0,
				  qp | (uint64_t)ROCEDP_FLOW_PROTO_ROCE << 32 |
					  4ull << 40);
}

static void t_fallback(bool general, const char *p)
{
	static const char *const fb[] = { "fixed", "none" };
	uint32_t qps[ROCEDP_FLOWLET_WAYS + 1], q, want;
	char ars[256];
	unsigned int i, k, n;
	struct rocedp_ars_stats st;
	struct rd_engine *e;
	__u64 replaced;
	int bad;

	/* five flows of one set: a full set and one more */
	want = set_of(0x0a000003, 1);
	for (q = 1, n = 0; n <= ROCEDP_FLOWLET_WAYS && q < (1u << 24); q++)
		if (set_of(0x0a000003, q) == want)
			qps[n++] = q;
	if (!result(n == ROCEDP_FLOWLET_WAYS + 1, "%s: %u QPs of one set", p,
		    n))
		return;
	for (k = 0; k < 2; k++) {
		snprintf(ars, sizeof(ars),
			 "{\"mode\": \"flowlet_random\", \"fallback\": \"%s\"}",
			 fb[k]);
		e = open_with(ars, general);
		if (!result(e != NULL, "%s fallback %s: engine", p, fb[k]))
			continue;
		for (i = 0, bad = 0; i <= ROCEDP_FLOWLET_WAYS; i++)
			bad |= send_one(e, 0x0a000003, qps[i], 64) < 0;
		st = ars_of(e);
		rd_counter_get(rd_engine_maps(e)->fd[RD_MAP_STATS],
			       ROCEDP_CTR_FLOWLET_REPLACED, &replaced);
		if (k == 0)
			result(!bad && st.fallback == 1 && !replaced,
			       "%s fallback fixed: the 5th live flow of a full set forwarded by its hash (fallback %llu, live flows replaced %llu)",
			       p, (unsigned long long)st.fallback,
			       (unsigned long long)replaced);
		else
			result(!bad && st.fallback == 0 && replaced == 1,
			       "%s fallback none: the idlest live flow evicted as before (fallback %llu, replaced %llu)",
			       p, (unsigned long long)st.fallback,
			       (unsigned long long)replaced);
		rd_engine_close(e);
	}
}

int main(void)
{
	int g;

	for (g = 0; g < 2; g++) {
		const char *p = g ? "general" : "express";

		t_random(g, p);
		t_fixed_quality(g, p);
		t_fallback(g, p);
	}
	printf("1..%d\n# %d passed, %d failed\n", n_test, n_test - n_fail,
	       n_fail);
	return n_fail ? 1 : 0;
}
