// SPDX-License-Identifier: GPL-2.0
/*
 * `make bench` section resil (docs/bench.md): healthy flows moved when one
 * member of 8 goes down and comes back. The bucket table's figure is
 * measured through the real XDP program (BPF_PROG_TEST_RUN, group set up
 * by a config document as `rocedp replay` does); beside it, the
 * hash-threshold choice this replaced, modelled exactly on the same flow
 * hashes (the program's trace): x = (hash * total) >> 32, the first
 * active member whose cumulative weight exceeds x.
 *
 * Usage: resil [FLOWS]   (root). One JSON object on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "buckets.h"
#include "engine.h"
#include "config_txn.h"
#include "frame.h"
#include "groupw.h"

#define N 8
#define DOWN 3 /* the member taken out */
#define MAX_FLOWS 1000000

static const char cfg[] =
	"{\"features\": [\"forward\"], \"hash\": {\"mode\": \"qp\"},"
	" \"groups\": [{\"id\": 1, \"members\": ["
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:01\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:02\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:03\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:04\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:05\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:06\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:07\"},"
	"{\"ifindex\": 1, \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:00:00:00:00:08\"}]}],"
	" \"routes\": [{\"prefix\": \"10.1.0.0/16\", \"group\": 1}]}";

/* RoCEv2 SEND only to 10.1.0.2, destination QP qp: one flow per QP. */
#define FRAME_LEN 58 /* Ethernet, IPv4, UDP, BTH, ICRC */

static void mkframe(uint8_t *f, __u32 qp)
{
	struct rd_frame s = {
		.dmac = { 2, 0xaa, 0, 0, 0, 1 },
		.smac = { 2, 0xcc, 0, 0, 0, 1 },
		.src4 = 0x0a000001,
		.dst4 = 0x0a010002,
		.sport = 0xc000,
		.opcode = ROCEDP_OP_RC_SEND_ONLY,
		.dest_qp = qp,
		.flags = RD_FRAME_NO_DF,
	};

	rd_frame_build(f, FRAME_LEN, &s);
}

/* The picker the bucket table replaced, as it was in bpf/member.h. */
static int pick_threshold(const struct rocedp_group *g, __u32 hash)
{
	__u32 total = 0, cum = 0, x;
	int i;

	for (i = 0; i < g->n_active; i++)
		total += g->members[g->active[i]].weight;
	x = ((__u64)hash * total) >> 32;
	for (i = 0; i < g->n_active; i++) {
		cum += g->members[g->active[i]].weight;
		if (cum > x)
			return g->active[i];
	}
	return -1;
}

struct pass {
	int *slot; /* the program's choice per flow */
	int *old; /* the hash-threshold choice per flow */
};

static int run(struct rd_engine *e, int flows, const struct rocedp_group *g,
	       struct pass *p)
{
	__u32 id = 1;
	uint8_t f[FRAME_LEN], out[FRAME_LEN + 64];
	struct rd_run r;
	int i, err;

	err = rd_groupw_put_maps(rd_engine_maps(e), id, g);
	if (err)
		return err;
	for (i = 0; i < flows; i++) {
		mkframe(f, 0x100 + i * 7919u % 0xffff00);
		memset(&r, 0, sizeof(r));
		r.in = f;
		r.in_len = FRAME_LEN;
		r.out = out;
		r.out_size = sizeof(out);
		if (rd_engine_run(e, RD_HOOK_XDP, &r))
			return -EIO;
		if (r.verdict != ROCEDP_VERDICT_REDIRECT)
			return -EPROTO;
		p->slot[i] = r.trace.member;
		p->old[i] = pick_threshold(g, r.trace.hash);
	}
	return 0;
}

/* Flows moved between two passes; healthy: not on the member taken out. */
static void moved(const int *a, const int *b, int flows, int *all, int *healthy)
{
	int i;

	*all = *healthy = 0;
	for (i = 0; i < flows; i++) {
		*all += a[i] != b[i];
		*healthy += a[i] != b[i] && a[i] != DOWN && b[i] != DOWN;
	}
}

/*
 * Random weights, on the tables (rd_group_build, as every writer builds
 * them): groups of 2..16 members with weights 1..8 over 128 buckets, each
 * member in turn taken down (link down) from the full group. A healthy
 * bucket moved in 406 of 40,500 such events with largest-remainder
 * quotas; weight 0 (a change of the weights layer) is printed beside.
 */
#define RW_GROUPS 3000

static uint64_t rw_rng = 0x2545f4914f6cdd1dull;

static unsigned int rw_rand(void)
{
	rw_rng ^= rw_rng >> 12;
	rw_rng ^= rw_rng << 25;
	rw_rng ^= rw_rng >> 27;
	return (rw_rng * 0x2545f4914f6cdd1dull) >> 32;
}

static int rw_moved(const struct rocedp_group *a, const struct rocedp_group *b,
		    unsigned int x)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < a->n_buckets; i++)
		n += a->buckets[i] != b->buckets[i] && a->buckets[i] != x &&
		     b->buckets[i] != x;
	return n;
}

static double rw_dev(const struct rocedp_group *g)
{
	const __u16 need = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED;
	double d, worst = 0;
	unsigned int i, b, cnt;

	for (i = 0; i < g->n_members && g->total_weight; i++) {
		if ((g->members[i].flags & need) != need ||
		    !g->members[i].weight)
			continue;
		for (cnt = 0, b = 0; b < g->n_buckets; b++)
			cnt += g->buckets[b] == i;
		d = cnt - (double)g->n_buckets * g->members[i].weight /
				  g->total_weight;
		d = d < 0 ? -d : d;
		worst = d > worst ? d : worst;
	}
	return worst;
}

static void random_weights(void)
{
	static struct rocedp_group base, g;
	unsigned int t, n, i, x, events = 0, moved = 0, back = 0, w0 = 0;
	unsigned long w0_buckets = 0;
	double dev, full = 0, down = 0;
	int m;

	for (t = 0; t < RW_GROUPS; t++) {
		memset(&base, 0, sizeof(base));
		n = 2 + rw_rand() % 15;
		base.n_members = n;
		base.n_buckets = 128;
		for (i = 0; i < n; i++) {
			base.members[i].weight = 1 + rw_rand() % 8;
			base.members[i].flags = ROCEDP_MEMBERF_UP |
						ROCEDP_MEMBERF_RESOLVED;
		}
		rd_group_build(&base);
		dev = rw_dev(&base);
		full = dev > full ? dev : full;
		for (x = 0; x < n; x++) {
			g = base;
			g.members[x].flags &= ~ROCEDP_MEMBERF_UP;
			rd_group_build(&g);
			events++;
			moved += rw_moved(&base, &g, x) != 0;
			dev = rw_dev(&g);
			down = dev > down ? dev : down;
			g.members[x] = base.members[x];
			rd_group_build(&g);
			back += !!memcmp(g.buckets, base.buckets, 128);
			g = base;
			g.members[x].weight = 0;
			rd_group_build(&g);
			m = rw_moved(&base, &g, x);
			w0 += m != 0;
			w0_buckets += m;
		}
	}
	printf(", \"random_weights\": {\"groups\": %d, \"events\": %u, "
	       "\"healthy_moved_events\": %u, \"not_restored\": %u, "
	       "\"max_share_dev\": %.3f, \"max_share_dev_down\": %.3f, "
	       "\"weight_0_healthy_moved_events\": %u, "
	       "\"weight_0_healthy_moved_buckets\": %lu}",
	       RW_GROUPS, events, moved, back, full, down, w0, w0_buckets);
}

int main(int argc, char **argv)
{
	static const char *const how[] = { "link_down", "neighbour_failed",
					   "weight_0" };
	struct rd_engine_opts o = { .trace = true,
				    .map_clock = true,
				    .bind_cpu = true };
	static struct rocedp_group base, g;
	struct pass up, dn, back;
	int flows = argc > 1 ? atoi(argv[1]) : 100000, k, err, a, h;
	struct rd_engine *e;
	__u32 id = 1;

	if (flows < 100 || flows > MAX_FLOWS) {
		fprintf(stderr, "usage: resil [FLOWS 100..%d]\n", MAX_FLOWS);
		return 2;
	}
	err = rd_engine_open(&e, &o);
	if (!err)
		err = rd_config_apply_text("resil", cfg, sizeof(cfg) - 1,
					   rd_engine_maps(e));
	if (!err && bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_GROUPS],
					&id, &base))
		err = -errno;
	if (err) {
		fprintf(stderr, "resil: engine and config: %s\n",
			strerror(-err));
		return 1;
	}
	up.slot = calloc(flows, sizeof(int));
	up.old = calloc(flows, sizeof(int));
	dn.slot = calloc(flows, sizeof(int));
	dn.old = calloc(flows, sizeof(int));
	back.slot = calloc(flows, sizeof(int));
	back.old = calloc(flows, sizeof(int));
	if (!up.slot || !up.old || !dn.slot || !dn.old || !back.slot ||
	    !back.old)
		return 1;
	printf("{\"flows\": %d, \"members\": %d, \"buckets\": %u", flows, N,
	       base.n_buckets);
	for (k = 0; k < 3 && !err; k++) {
		err = run(e, flows, &base, &up);
		g = base;
		if (k == 0)
			g.members[DOWN].flags &= ~ROCEDP_MEMBERF_UP;
		else if (k == 1)
			g.members[DOWN].flags &= ~ROCEDP_MEMBERF_RESOLVED;
		else
			g.members[DOWN].weight = 0;
		rd_group_build(&g);
		if (!err)
			err = run(e, flows, &g, &dn);
		if (!err)
			err = run(e, flows, &base, &back);
		if (err)
			break;
		printf(", \"%s\": {", how[k]);
		moved(up.slot, dn.slot, flows, &a, &h);
		printf("\"down_moved\": %d, \"down_healthy_moved\": %d", a, h);
		moved(dn.slot, back.slot, flows, &a, &h);
		printf(", \"up_moved\": %d, \"up_healthy_moved\": %d", a, h);
		moved(up.slot, back.slot, flows, &a, &h);
		printf(", \"not_restored\": %d", a);
		moved(up.old, dn.old, flows, &a, &h);
		printf(", \"threshold_down_moved\": %d, "
		       "\"threshold_down_healthy_moved\": %d",
		       a, h);
		moved(dn.old, back.old, flows, &a, &h);
		printf(", \"threshold_up_moved\": %d, "
		       "\"threshold_up_healthy_moved\": %d}",
		       a, h);
	}
	if (!err)
		random_weights();
	printf("}\n");
	rd_engine_close(e);
	if (err)
		fprintf(stderr, "resil: %s\n", strerror(-err));
	return err ? 1 : 0;
}
