// SPDX-License-Identifier: GPL-2.0
/*
 * Another CPU takes over a table entry while this CPU works on it: the
 * flowlet table's way (bpf/flowlet.h) and telemetry's QP slot
 * (bpf/telemetry.h). The dataplane's headers are compiled here as plain C
 * (tests/bpf_user.h); at each RD_RACE_POINT of a frame's path the test
 * runs the other stream's frame to completion, then lets the first one
 * finish, and checks that the new entry holds only its own stream's state.
 * Deterministic: one interleaving per case, each replayed exactly.
 */
#include <stdio.h>
#include "bpf_user.h"

static int race_at = -1; /* the point where the other CPU runs, or -1 */
static void (*race_fn)(void);
static int race_hits;

#define RD_RACE_POINT(id) race_hook(id)
static void race_hook(int id)
{
	void (*fn)(void) = race_fn;

	if (id != race_at || !fn)
		return;
	race_fn = NULL; /* once, and not from inside the other frame */
	race_hits++;
	fn();
}

#include "telemetry.h"
#include "tap.h"

/* An array map back to zeros (as new), if it was ever used. */
static void map_zero(const void *def, size_t size)
{
	int i;

	for (i = 0; i < RD_USER_MAPS; i++)
		if (rd_user_maps[i].def == def)
			memset(rd_user_maps[i].mem, 0, size);
}

/* ------------------------------------------------------------- flowlets */

static struct rocedp_config cfg;
static struct rocedp_group g1, g2;

/* A group of n usable members on ports 100.., one bucket each. */
static void mkgroup(struct rocedp_group *g, int n, int first_port)
{
	int i;

	memset(g, 0, sizeof(*g));
	g->n_members = n;
	g->n_active = n;
	g->n_buckets = n;
	for (i = 0; i < n; i++) {
		g->members[i].ifindex = first_port + i;
		g->members[i].weight = 1;
		g->members[i].flags = ROCEDP_MEMBERF_UP |
				      ROCEDP_MEMBERF_RESOLVED;
		g->active[i] = i;
		g->buckets[i] = i;
		g->total_weight++;
	}
}

static void flow(struct rd_flow *p, __u32 src, __u32 qp)
{
	memset(p, 0, sizeof(*p));
	p->family = 4;
	p->is_roce = 1;
	p->l4_proto = 17;
	p->src[0] = src;
	p->dst[0] = 0x0201010a;
	p->dest_qp = qp;
	p->opcode = ROCEDP_OP_RC_SEND_ONLY;
	p->psn = 100;
	p->frame_len = 100;
}

static __u32 fl_set(const struct rd_flow *p)
{
	return rd_fl_set_index(p, rd_fl_kw(p, 4));
}

static struct rocedp_flowlet_way *fl_way(const struct rd_flow *p)
{
	__u64 tag = rd_fl_kw(p, 4);

	return rd_fl_find(rd_fl_set(p, tag), p, tag);
}

/* hash h: bucket h >> 30 of a 4-bucket group, so member h >> 30 */
#define HASH_OF(slot) ((__u32)(slot) << 30 | 0x1234)

static struct rd_flow fa, fb, fill[ROCEDP_FLOWLET_WAYS - 1];
static __u64 t_race;

/* The other CPU: flow b, group 2, takes flow a's way (idle longest). */
static void replace_a_by_b(void)
{
	rd_flowlet_select(&cfg, &g2, 2, &fb, HASH_OF(1), 1, t_race);
}

/*
 * Flow a (group 1) starts a new flowlet at t_race; b (group 2) takes a's
 * way at point `at` of a's frame. Returns a's member; *rec: b's record.
 */
static int flowlet_case(int at, struct rocedp_flowlet *rec, int *b_has_way)
{
	struct rocedp_flowlet_way *w;
	__u64 t0 = 1000000;
	unsigned int i;
	__u32 qp;
	int m;

	map_zero(&rd_flowlets,
		 sizeof(struct rocedp_flowlet_set) * rd_user_n(&rd_flowlets));
	map_zero(&rd_fl_shadow, sizeof(struct rocedp_flowlet_shadow) *
					rd_user_n(&rd_fl_shadow));
	flow(&fa, 0x0109090a, 0x100);
	/* b and the fillers: other QPs of a's set */
	for (qp = 0x101, i = 0; i < ROCEDP_FLOWLET_WAYS; qp++) {
		struct rd_flow *p = i ? &fill[i - 1] : &fb;

		flow(p, 0x0109090a, qp);
		if (fl_set(p) == fl_set(&fa))
			i++;
	}
	/* a first (member 0), then the fillers: a is idle longest */
	m = rd_flowlet_select(&cfg, &g1, 1, &fa, HASH_OF(0), 1, t0);
	if (m != 0)
		return -100;
	for (i = 0; i < ROCEDP_FLOWLET_WAYS - 1; i++)
		rd_flowlet_select(&cfg, &g1, 1, &fill[i], HASH_OF(3), 1,
				  t0 + 1000 * (i + 1));
	/* a again after its gap: a new flowlet, to member 2 by its hash */
	t_race = t0 + 10000000;
	race_at = at;
	race_fn = replace_a_by_b;
	m = rd_flowlet_select(&cfg, &g1, 1, &fa, HASH_OF(2), 1, t_race);
	race_at = -1;
	w = fl_way(&fb);
	*b_has_way = w != NULL;
	if (w)
		*rec = w->fl;
	return m;
}

static void test_flowlet_way_replaced(void)
{
	static const char *const name[] = { "found its way",
					    "read last_ns and the claim",
					    "swapped the claim" };
	struct rocedp_flowlet rec;
	__u64 want;
	int at, m, has;

	mkgroup(&g1, 4, 100);
	mkgroup(&g2, 4, 200);
	cfg.features = ROCEDP_F_FORWARD | ROCEDP_F_FLOWLET;
	cfg.flowlet_choice = ROCEDP_FLOWLET_HASH;
	cfg.flowlet_rtt_us = 20;
	cfg.flowlet_gap_min_us = 1;
	for (at = RD_RACE_FL_FOUND; at <= RD_RACE_FL_CLAIMED; at++) {
		race_hits = 0;
		memset(&rec, 0, sizeof(rec));
		m = flowlet_case(at, &rec, &has);
		want = rd_claim_make(t_race, 1);
		result(race_hits == 1 && has && rec.group_id == 2 &&
			       rec.slot == 1 && rec.claim == want &&
			       rec.flowlets == 1 && rec.moves == 0,
		       "flowlet: a way taken over after the reader %s keeps only the new flow's member, group and counts (group %u slot %u claim %s flowlets %llu moves %llu)",
		       name[at - RD_RACE_FL_FOUND], rec.group_id, rec.slot,
		       rec.claim == want ? "its own" : "the reader's",
		       (unsigned long long)rec.flowlets,
		       (unsigned long long)rec.moves);
		result(m == 2,
		       "flowlet: the reader forwards by its own choice, not the new flow's member (slot %d, want 2)",
		       m);
	}
}

/* ------------------------------------------------------------ telemetry */

static struct rd_flow qx, qy, qz;
static __u64 q_now;

static struct rocedp_qp_stat *qp_stat(const struct rd_flow *p)
{
	__u32 at;

	return rd_tel_slot(p, 0, p->dest_qp, 0, q_now, &at);
}

static int request(struct rd_flow *p, __u32 psn, __u64 now)
{
	struct rd_plan pl = { .now = now,
			      .in_ifindex = 1,
			      .egress_ifindex = 100 };

	p->psn = psn;
	return rd_tel_on_request(p, &pl, &cfg, 0);
}

/* The other CPU: stream y's first request takes x's slot. */
static void y_takes_x(void)
{
	request(&qy, 5000, q_now);
}

static void test_qp_slot_replaced(void)
{
	static const char *const name[] = { "found its slot",
					    "worked out its PSN step" };
	struct rocedp_qp_stat *y;
	__u32 set, dqp, found = 0;
	int at;

	cfg.features = ROCEDP_F_FORWARD | ROCEDP_F_TELEMETRY;
	for (at = RD_RACE_QP_FOUND; at <= RD_RACE_QP_STEPPED; at++) {
		map_zero(&rd_qps,
			 sizeof(struct rocedp_qp_slot) * rd_user_n(&rd_qps));
		flow(&qx, 0x0109090a, 0x200);
		set = rocedp_qp_set_of(qx.src, qx.dst, qx.dest_qp);
		/* y and z: other QPs of x's set */
		for (dqp = 0x201, found = 0; found < 2; dqp++) {
			if (rocedp_qp_set_of(qx.src, qx.dst, dqp) != set)
				continue;
			flow(found ? &qz : &qy, 0x0109090a, dqp);
			found++;
		}
		/*
		 * x at PSN 10, 11, 12; z last seen after x's next frame, so
		 * x's slot is the one idle longest even after x's frame
		 * touched it
		 */
		q_now = 1000000;
		request(&qx, 10, q_now);
		request(&qx, 11, q_now + 1);
		request(&qx, 12, q_now + 2);
		request(&qz, 7, q_now + 2000);
		/* x's PSN 20 (a gap of 7) while y takes x's slot */
		q_now += 1000;
		race_hits = 0;
		race_at = at;
		race_fn = y_takes_x;
		request(&qx, 20, q_now);
		race_at = -1;
		y = qp_stat(&qy);
		result(race_hits == 1 && y && y->req_pkts == 1 &&
			       y->pkts == 1 &&
			       y->next_psn == (5001 | ROCEDP_QP_PSN_VALID) &&
			       y->high_psn == (5001 | ROCEDP_QP_PSN_VALID) &&
			       !y->gaps && !y->rewinds && !y->dups &&
			       y->unacked_psn == 5000,
		       "telemetry: a slot taken over after the old stream's request %s holds only the new stream's state (pkts %llu, next PSN %u, gaps %llu, rewinds %llu)",
		       name[at - RD_RACE_QP_FOUND],
		       y ? (unsigned long long)y->req_pkts : 0,
		       y ? y->next_psn & ROCEDP_PSN_MASK : 0,
		       y ? (unsigned long long)y->gaps : 0,
		       y ? (unsigned long long)y->rewinds : 0);
	}
}

int main(void)
{
	test_flowlet_way_replaced();
	test_qp_slot_replaced();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
