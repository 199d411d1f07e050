// SPDX-License-Identifier: GPL-2.0
/*
 * Flowlet switching through the real XDP program on the deterministic
 * clock (engine + BPF_PROG_TEST_RUN, rd_clock set before every frame):
 * the member is held within the gap and re-chosen after it, a new flowlet
 * takes the least-loaded member (loads preloaded through single-member
 * groups sharing the ports, checked against the DRE formula), the gap
 * clamps hold, the auto gap follows an RTT measured from data frames and
 * their ACKs, a member leaving forces a move counted apart from reorder
 * risk (which stays 0), and table pressure shows as inserts versus live
 * entries, with the idle-longest way of a full set replaced (counted) when
 * more flows than a set or ROCEDP_MAX_FLOWLETS pass; two CPUs inserting
 * one new flow into a full set end on one record and one member.
 * TAP output. Usage: flowlet_test [-q]   (root)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "flowlet_harness.h"
#include "groupw.h"

#define TAU_US 100

/* ---------------------------------------------------------------- tests */

/* The DRE as documented: (7/8) per tau/8 tick of the shared clock grid. */
static double dre_model(const uint64_t *t, const uint32_t *bytes, int n,
			uint64_t now)
{
	uint64_t step = TAU_US * US / 8;
	double sum = 0, f;
	int i, k;

	for (i = 0; i < n; i++) {
		k = now / step - t[i] / step;
		for (f = bytes[i]; k > 0; k--)
			f *= 7.0 / 8;
		sum += f;
	}
	return sum;
}

/* fixed gap: rtt 20 us -> gap 10 us */
static void test_gap_and_choice(struct rd_engine *e)
{
	struct tx a = { .src = ip4(10, 9, 0, 1),
			.dst = ip4(10, 1, 0, 2),
			.qp = 0x111 };
	uint64_t t = T0, moves0, new0;
	int first, m, i, held = 1, slot[N_MEMBERS];
	uint32_t len;

	first = send_at(e, t, &a, &len);
	result(first >= 0 && first < N_MEMBERS,
	       "first frame of a flow forwarded to a member (slot %d)", first);
	result(ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW) == 1 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_NEW) == 1,
	       "first frame counted as a new flow and a new flowlet");
	/*
	 * 20 frames 10 us apart (idle == gap keeps the flowlet): the member
	 * just chosen is now the most loaded, so only the gap holds it there.
	 */
	for (i = 0; i < 20; i++) {
		t += 10 * US;
		m = send_at(e, t, &a, NULL);
		held &= m == first;
	}
	result(held, "member held over 20 frames with idle = gap (10 us)");
	result(ctr(e, ROCEDP_CTR_FLOWLET_NEW) == 1 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_MOVE) == 0,
	       "no new flowlet and no move within the gap");

	moves0 = ctr(e, ROCEDP_CTR_FLOWLET_MOVE);
	new0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	t += 10 * US + 1;
	m = send_at(e, t, &a, NULL);
	result(ctr(e, ROCEDP_CTR_FLOWLET_NEW) == new0 + 1,
	       "idle of gap + 1 ns starts a new flowlet");
	result(m >= 0 && m != first &&
		       ctr(e, ROCEDP_CTR_FLOWLET_MOVE) == moves0 + 1,
	       "the new flowlet left the busiest member (slot %d -> %d), one move counted",
	       first, m);

	/* Several new flows at once fill the idle members first. */
	memset(slot, 0, sizeof(slot));
	t += 1 * US;
	for (i = 0; i < N_MEMBERS; i++) {
		struct tx b = a;

		b.qp = 0x200 + i;
		m = send_at(e, t + i * 100, &b, NULL);
		if (m >= 0 && m < N_MEMBERS)
			slot[m]++;
	}
	for (i = 0, held = 1; i < N_MEMBERS; i++)
		held &= i == first ? slot[i] == 0 : slot[i] >= 1;
	result(held,
	       "4 new flows: none on the 22-frame member, one or more on each other member (%d %d %d %d)",
	       slot[0], slot[1], slot[2], slot[3]);
}

/*
 * Preload ports 100..103 with known bytes through the single-member groups,
 * check the DRE against the formula, then new flows must pick the least
 * loaded member of group 1.
 */
static void test_least_loaded(struct rd_engine *e)
{
	/* frames per port: port 102 is the least loaded, then 100 */
	static const int frames[N_MEMBERS] = { 6, 12, 3, 9 };
	uint64_t t = 2 * T0, times[64], now;
	uint32_t bytes[64], len;
	struct rocedp_port_load st;
	struct tx x = { .src = ip4(10, 9, 0, 7) };
	int p, i, n, m, m2;
	double want, got;
	bool dre_ok = true;

	for (p = 0; p < N_MEMBERS; p++) {
		n = 0;
		x.dst = ip4(10, 2 + p, 0, 9);
		for (i = 0; i < frames[p]; i++) {
			x.qp = 0x300 + p;
			x.payload = 1024;
			/*
			 * spread over 30 us (several DRE ticks), each port
			 * starting off the tick grid at its own offset: the
			 * decay must still follow the shared grid
			 */
			times[n] = t + 7 * US + p * 5 * US + 333 +
				   (uint64_t)i * 30 * US / frames[p];
			send_at(e, times[n], &x, &len);
			bytes[n++] = len;
		}
		if (port_load(e, PORT0 + p, &st)) {
			dre_ok = false;
			continue;
		}
		want = dre_model(times, bytes, n,
				 st.dre_tick * (TAU_US * US / 8));
		got = st.dre_bytes;
		if (got < want * 0.99 - 8 || got > want * 1.01 + 8) {
			dre_ok = false;
			printf("# port %d: dre %.0f, model %.0f\n", PORT0 + p,
			       got, want);
		}
	}
	result(dre_ok,
	       "DRE of each preloaded port matches (7/8)^ticks decay within 1%%");

	x.dst = ip4(10, 1, 7, 7);
	x.qp = 0x400;
	now = t + 60 * US;
	m = send_at(e, now, &x, &len);
	result(m == 2,
	       "new flow takes the least-loaded member (slot %d, want 2)", m);
	/* load port 102 far above the others, in one burst */
	x.dst = ip4(10, 4, 0, 9);
	x.qp = 0x302;
	for (i = 0; i < 40; i++)
		send_at(e, now + 100 + i, &x, NULL);
	x.dst = ip4(10, 1, 7, 8);
	x.qp = 0x401;
	m2 = send_at(e, now + 200, &x, NULL);
	result(m2 == 0,
	       "after port 102 gets 40 more frames the next new flow takes slot %d (want 0, the next least loaded)",
	       m2);
}

/*
 * Decay ticks are shared by all ports. Port 100 carries 11 frames at 0.1
 * tick, port 101 10 frames at 0.9 tick; read at 1.5 ticks both have
 * decayed once, so 101 is the less loaded. A grid anchored at each port's
 * first frame would have decayed 100 but not yet 101 and sent the new
 * flow to the busier port 100.
 */
static void test_dre_grid(struct rd_engine *e)
{
	const uint64_t tick = TAU_US * US / 8, t = 26000 * US; /* on a tick */
	struct tx x = { .src = ip4(10, 9, 0, 8), .qp = 0x500 };
	int i, m;

	x.dst = ip4(10, 2, 0, 8); /* group 2: port 100 only */
	for (i = 0; i < 11; i++)
		send_at(e, t + tick / 10 + i, &x, NULL);
	x.dst = ip4(10, 3, 0, 8); /* group 3: port 101 only */
	for (i = 0; i < 10; i++)
		send_at(e, t + tick * 9 / 10 + i, &x, NULL);
	x.dst = ip4(10, 7, 0, 8); /* group 7: ports 100 and 101 */
	x.qp = 0x501;
	m = send_at(e, t + tick * 3 / 2, &x, NULL);
	result(m == 1,
	       "shared decay grid: new flow takes port 101 (10 frames), not 100 (11 frames, first seen a tick phase earlier) (slot %d, want 1)",
	       m);
}

/*
 * A load_tau_us change keeps the estimate: the last update's tick, on the
 * old grid, is moved onto the new one and the decay goes on from there.
 */
static void test_tau_change(void)
{
	const uint64_t old_step = 100 * US / 8, new_step = 200 * US / 8;
	const uint64_t t = 40000 * US, t2 = t + 100 * US;
	struct tx x = { .src = ip4(10, 9, 0, 9),
			.dst = ip4(10, 4, 0, 9), /* group 4: port 102 only */
			.qp = 0x600,
			.payload = 1024 };
	struct rocedp_port_load before, after;
	struct rd_engine *e;
	double want;
	uint32_t len = 0;
	uint64_t n;
	int i, ok;

	e = engine_with("{\"rtt_us\": 20, \"load_tau_us\": 100}");
	if (!result(e != NULL, "engine loaded for the tau change"))
		return;
	for (i = 0; i < 8; i++)
		send_at(e, t + i * US, &x, NULL);
	ok = !port_load(e, PORT0 + 2, &before) && before.dre_bytes &&
	     before.dre_step_ns == old_step &&
	     !apply_flowlet(e, "{\"rtt_us\": 20, \"load_tau_us\": 200}");
	send_at(e, t2, &x, &len);
	ok = ok && !port_load(e, PORT0 + 2, &after);
	n = t2 / new_step - before.dre_tick * old_step / new_step;
	for (want = before.dre_bytes; n > 0; n--)
		want *= 7.0 / 8;
	want += len;
	result(ok && after.dre_step_ns == new_step &&
		       after.dre_tick == t2 / new_step &&
		       after.dre_bytes >= want * 0.99 - 8 &&
		       after.dre_bytes <= want * 1.01 + 8 &&
		       after.dre_bytes > 2 * len,
	       "load_tau_us 100 -> 200 us keeps the load estimate: %llu bytes, model %.0f (was %llu)",
	       (unsigned long long)after.dre_bytes, want,
	       (unsigned long long)before.dre_bytes);
	rd_engine_close(e);
}

/* group 6: rtt 2 us -> gap 1 us, clamped up to gap_min 5 us;
 * group 7: rtt 1000 us -> gap 500 us, clamped down to gap_max 50 us */
static void test_clamps(struct rd_engine *e)
{
	struct tx x = { .src = ip4(10, 9, 0, 3) };
	uint64_t t = 3 * T0, n0;
	int m0, m, i;
	bool held = true;

	x.dst = ip4(10, 6, 0, 1);
	x.qp = 0x600;
	m0 = send_at(e, t, &x, NULL);
	n0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	for (i = 0; i < 5; i++) {
		t += 5 * US;
		m = send_at(e, t, &x, NULL);
		held &= m == m0;
	}
	result(held && ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0,
	       "gap_min: rtt 2 us (gap 1 us) holds the member over 5 us idles");
	t += 5 * US + 1;
	m = send_at(e, t, &x, NULL);
	result(ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0 + 1 && m >= 0 && m != m0,
	       "gap_min: 5 us + 1 ns idle starts a new flowlet on the other member");

	x.dst = ip4(10, 7, 0, 1);
	x.qp = 0x700;
	t += 1000 * US;
	m0 = send_at(e, t, &x, NULL);
	n0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	t += 50 * US;
	m = send_at(e, t, &x, NULL);
	result(m == m0 && ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0,
	       "gap_max: rtt 1000 us (gap 500 us) holds over a 50 us idle");
	t += 50 * US + 1;
	m = send_at(e, t, &x, NULL);
	result(ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0 + 1,
	       "gap_max: 50 us + 1 ns idle starts a new flowlet, not 500 us");
}

/*
 * A member leaving its group: the held flow moves at once, counted as
 * member_gone, never as reorder risk.
 */
static void test_member_gone(struct rd_engine *e)
{
	int fd = rd_engine_maps(e)->fd[RD_MAP_GROUPS];
	struct tx x = { .src = ip4(10, 9, 0, 4),
			.dst = ip4(10, 1, 4, 4),
			.qp = 0x800 };
	struct rocedp_group g;
	uint64_t t = 4 * T0, gone0, risk0;
	uint32_t id = 1;
	int m0, m;

	m0 = send_at(e, t, &x, NULL);
	gone0 = ctr(e, ROCEDP_CTR_FLOWLET_MEMBER_GONE);
	risk0 = ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK);
	if (m0 < 0 || bpf_map_lookup_elem(fd, &id, &g)) {
		result(false, "member gone: setup");
		return;
	}
	g.members[m0].flags &= ~ROCEDP_MEMBERF_UP;
	rd_group_build(&g);
	rd_groupw_put_maps(rd_engine_maps(e), id, &g);
	m = send_at(e, t + 1 * US, &x, NULL);
	result(m >= 0 && m != m0 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_MEMBER_GONE) == gone0 + 1 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK) == risk0,
	       "member down within the gap: flow moves (slot %d -> %d), counted as member_gone, not reorder risk",
	       m0, m);
	g.members[m0].flags |= ROCEDP_MEMBERF_UP;
	rd_group_build(&g);
	rd_groupw_put_maps(rd_engine_maps(e), id, &g);
}

/* ---------------------------------------------------------------- table */

/* The key of a tx as the dataplane stores it (RoCE over IPv4). */
static void tx_key(const struct tx *x, struct rocedp_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	k->src[0] = htonl(x->src);
	k->dst[0] = htonl(x->dst);
	k->l4 = x->qp;
	k->proto = ROCEDP_FLOW_PROTO_ROCE;
	k->family = 4;
}

static uint32_t key_set(const struct rocedp_flow_key *k)
{
	__u64 w[5];

	memcpy(w, k, sizeof(w));
	return rocedp_flow_set_of(w[0], w[1], w[2], w[3], w[4]);
}

static uint32_t tx_set(const struct tx *x)
{
	struct rocedp_flow_key k;

	tx_key(x, &k);
	return key_set(&k);
}

/* The ways of x's set that hold x's key (a bit each); the set into *set. */
static unsigned int tx_ways(struct rd_engine *e, const struct tx *x,
			    struct rocedp_flowlet_set *set)
{
	int fd = rd_engine_maps(e)->fd[RD_MAP_FLOWLETS];
	struct rocedp_flow_key k;
	unsigned int i, ways = 0;
	__u32 si;

	tx_key(x, &k);
	si = key_set(&k);
	if (bpf_map_lookup_elem(fd, &si, set))
		return 0;
	for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++)
		if (!memcmp(&set->way[i].key, &k, sizeof(k)))
			ways |= 1u << i;
	return ways;
}

/* x's record: 0 and *fl, or -1 when x has no way. */
static int flow_entry(struct rd_engine *e, const struct tx *x,
		      struct rocedp_flowlet *fl)
{
	struct rocedp_flowlet_set set;
	unsigned int ways = tx_ways(e, x, &set);

	if (!ways)
		return -1;
	*fl = set.way[__builtin_ctz(ways)].fl;
	return 0;
}

/* Writes x's record by hand (another CPU's stores, simulated). */
static int flow_put(struct rd_engine *e, const struct tx *x,
		    const struct rocedp_flowlet *fl)
{
	struct rocedp_flowlet_set set;
	unsigned int ways = tx_ways(e, x, &set);
	__u32 si = tx_set(x);

	if (!ways)
		return -1;
	set.way[__builtin_ctz(ways)].fl = *fl;
	return bpf_map_update_elem(rd_engine_maps(e)->fd[RD_MAP_FLOWLETS], &si,
				   &set, BPF_EXIST);
}

/* Live flows: ways with a key (family 0 is empty or being written). */
static unsigned long count_entries(struct rd_engine *e)
{
	int fd = rd_engine_maps(e)->fd[RD_MAP_FLOWLETS];
	struct rocedp_flowlet_set set;
	unsigned long n = 0;
	__u32 si;
	int i;

	for (si = 0; si < ROCEDP_FLOWLET_SETS; si++) {
		if (bpf_map_lookup_elem(fd, &si, &set))
			continue;
		for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++)
			n += set.way[i].key.family != 0;
	}
	return n;
}

/* The next flow after *x (its QP counted up) whose key falls into set si. */
static void next_in_set(struct tx *x, uint32_t si)
{
	do
		x->qp = (x->qp + 1) & 0xffffff;
	while (tx_set(x) != si);
}

static void test_table(struct rd_engine *e, int flows)
{
	struct tx x = { .src = ip4(10, 9, 1, 1), .dst = ip4(10, 1, 9, 9) };
	uint64_t t = 6 * T0, new0, flows0, fail0, rep0, rep;
	unsigned long live0, live;
	int i, fwd = 0;

	new0 = ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW);
	fail0 = ctr(e, ROCEDP_CTR_FLOWLET_INSERT_FAIL);
	live0 = count_entries(e);
	for (i = 0; i < 1000; i++) {
		x.qp = 0x10000 + i;
		fwd += send_at(e, t + i * 10, &x, NULL) >= 0;
	}
	result(fwd == 1000 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW) == new0 + 1000 &&
		       count_entries(e) == live0 + 1000,
	       "1000 new flows: 1000 inserts counted, 1000 more live entries");

	/* more flows than the table holds: ways are replaced, inserts go on */
	flows0 = ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW);
	rep0 = ctr(e, ROCEDP_CTR_FLOWLET_REPLACED);
	live0 = count_entries(e);
	t += 1000 * US;
	for (i = 0; i < flows; i++) {
		x.qp = 0x100000 + i;
		x.src = ip4(10, 9, 2 + (i >> 16), 1);
		send_at(e, t + i * 10ull, &x, NULL);
	}
	live = count_entries(e);
	rep = ctr(e, ROCEDP_CTR_FLOWLET_REPLACED) - rep0;
	result(ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW) == flows0 + flows &&
		       live <= ROCEDP_MAX_FLOWLETS &&
		       rep == flows - (live - live0) &&
		       ctr(e, ROCEDP_CTR_FLOWLET_INSERT_FAIL) == fail0,
	       "%d flows into a %d-entry table: %lu live, %llu replaced (= inserts - new live entries), no insert failure",
	       flows, ROCEDP_MAX_FLOWLETS, live, (unsigned long long)rep);
	/* a replaced flow comes back as new */
	for (i = 0; i < flows; i++) {
		struct rocedp_flowlet fl;

		x.qp = 0x100000 + i;
		x.src = ip4(10, 9, 2 + (i >> 16), 1);
		if (flow_entry(e, &x, &fl))
			break;
	}
	new0 = ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW);
	send_at(e, t + flows * 10ull + 100, &x, NULL);
	result(i < flows && ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW) == new0 + 1,
	       "a replaced flow (the %dth) returns as a new flow", i);
}

/*
 * gap auto: data frames with AckReq from 10.9.0.5 and their ACKs RTT
 * later; the EWMA on the ingress port must land within 10% of the RTT,
 * and the gap must follow it (RTT 30 us -> gap 15 us, not the 11 us of
 * the configured 22 us).
 */
static void test_auto_rtt(struct rd_engine *e)
{
	const uint64_t rtt = 30 * US;
	struct tx d = { .src = ip4(10, 9, 0, 5),
			.dst = ip4(10, 1, 0, 5),
			.qp = 0x900,
			.ack_req = true,
			.opcode = ROCEDP_OP_RC_WRITE_ONLY };
	struct tx ack = { .src = d.dst,
			  .dst = d.src,
			  .qp = 0x77,
			  .opcode = ROCEDP_OP_RC_ACK };
	struct rocedp_port_state st;
	uint64_t t = 7 * T0, jitter, n0;
	struct tx f = { .src = ip4(10, 9, 0, 6),
			.dst = ip4(10, 1, 0, 6),
			.qp = 0x901 };
	double err;
	int i, m0, m;

	for (i = 0; i < 64; i++) {
		d.psn = 1000 + i;
		ack.psn = d.psn;
		send_at(e, t, &d, NULL);
		/* +-3 us of deterministic jitter around the RTT */
		jitter = (i * 7919) % 7;
		send_at(e, t + rtt - 3 * US + jitter * US, &ack, NULL);
		t += 50 * US;
	}
	if (port_state(e, IN_IFINDEX, &st)) {
		result(false, "auto RTT: no port state for ifindex %d",
		       IN_IFINDEX);
		return;
	}
	err = ((double)st.rtt_ewma_ns - rtt) / rtt;
	result(st.rtt_samples == 64 && ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 64,
	       "auto RTT: 64 data/ACK pairs give 64 samples (port %llu, counter %llu)",
	       (unsigned long long)st.rtt_samples,
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES));
	result(err > -0.10 && err < 0.10,
	       "auto RTT: EWMA %.2f us within 10%% of the injected %.0f us",
	       st.rtt_ewma_ns / 1000.0, rtt / 1000.0);

	/* an ACK nobody asked for closes nothing */
	ack.psn = 5;
	send_at(e, t, &ack, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 64,
	       "auto RTT: an ACK for an unknown PSN adds no sample");

	/* the gap follows: rtt_ewma / 2, about 15 us */
	t += 100 * US;
	m0 = send_at(e, t, &f, NULL);
	n0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	t += 14 * US;
	m = send_at(e, t, &f, NULL);
	result(m == m0 && ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0,
	       "auto gap: a 14 us idle keeps the flowlet (configured rtt 22 us would give 11 us)");
	t += st.rtt_ewma_ns / 2 + 1;
	send_at(e, t, &f, NULL);
	result(ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0 + 1,
	       "auto gap: an idle of rtt_ewma/2 + 1 ns starts a new flowlet");
}

/* ---------------------------------------------------------------- claims */

/*
 * Another CPU has just won the claim for a new flowlet (claim word
 * written, last_ns not yet): a frame seeing the old last_ns must follow
 * the claimed member, not start a flowlet of its own. The state is
 * written into the entry by hand, as the window cannot be hit on purpose.
 */
static void test_claim_window(struct rd_engine *e)
{
	struct tx x = { .src = ip4(10, 9, 0, 30),
			.dst = ip4(10, 1, 3, 30),
			.qp = 0xa00 };
	uint64_t t = 8 * T0, new0, moves0, lost0, won;
	struct rocedp_flowlet fl;
	int m0, m, other;

	m0 = send_at(e, t, &x, NULL);
	if (m0 < 0 || flow_entry(e, &x, &fl)) {
		result(false, "claim window: setup");
		return;
	}
	result(fl.claim == ((t & ((1ull << 48) - 1)) << 16 | (unsigned)m0) &&
		       fl.slot == m0,
	       "a new flow's claim word holds its start time and member");
	other = (m0 + 1) % N_MEMBERS;
	won = t + 50 * US;
	fl.claim = (won & ((1ull << 48) - 1)) << 16 | other;
	flow_put(e, &x, &fl);
	new0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	moves0 = ctr(e, ROCEDP_CTR_FLOWLET_MOVE);
	lost0 = ctr(e, ROCEDP_CTR_FLOWLET_CLAIM_LOST);
	m = send_at(e, won + 100, &x, NULL);
	result(m == other && ctr(e, ROCEDP_CTR_FLOWLET_NEW) == new0 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_MOVE) == moves0 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_CLAIM_LOST) == lost0,
	       "a frame between a claim and its last_ns store follows the claimed member (slot %d, want %d), starts no flowlet",
	       m, other);
	/* a CPU that saw the old flowlet held stores an older last_ns */
	flow_entry(e, &x, &fl);
	fl.last_ns = won - 3 * US;
	flow_put(e, &x, &fl);
	m = send_at(e, won + 200, &x, NULL);
	result(m == other && ctr(e, ROCEDP_CTR_FLOWLET_NEW) == new0,
	       "a stale last_ns stored over the winner's does not undo the claim (slot %d)",
	       m);
}

/*
 * A live flow replaced within its gap: four other flows of its set arrive
 * 1 us after its last frame, all on its member's port, so it is the way
 * idle longest and the fourth takes it. Back 5 us later (gap 10 us),
 * least-loaded would move it to an idle member; the shadow record keeps
 * it where it was.
 */
static void test_evicted_in_gap(void)
{
	struct rd_engine *e = engine_with("{\"rtt_us\": 20, \"choice\": "
					  "\"least-loaded\", \"load_tau_us\": "
					  "100}");
	struct tx a = { .src = ip4(10, 9, 0, 40),
			.dst = ip4(10, 1, 4, 40),
			.qp = 0xb00 },
		  f = { .src = ip4(10, 9, 0, 41), .qp = 0x1000 };
	uint64_t t = T0, new0, kept0, risk0, moves0, rep0;
	struct rocedp_flowlet fl;
	int m0, m, i;

	if (!result(e != NULL, "eviction: engine loaded"))
		return;
	m0 = send_at(e, t, &a, NULL);
	send_at(e, t + 2 * US, &a, NULL);
	rep0 = ctr(e, ROCEDP_CTR_FLOWLET_REPLACED);
	/* group 2 + slot: that member's port only; two frames each */
	f.dst = ip4(10, 2 + m0, 0, 0);
	for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++) {
		next_in_set(&f, tx_set(&a));
		send_at(e, t + 3 * US, &f, NULL);
		send_at(e, t + 3 * US, &f, NULL);
	}
	result(flow_entry(e, &a, &fl) &&
		       ctr(e, ROCEDP_CTR_FLOWLET_REPLACED) == rep0 + 1,
	       "%d other flows of its set replace the live flow's way (idle longest), counted as flowlet_flows_replaced",
	       ROCEDP_FLOWLET_WAYS);
	new0 = ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW);
	kept0 = ctr(e, ROCEDP_CTR_FLOWLET_EVICT_KEPT);
	risk0 = ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK);
	moves0 = ctr(e, ROCEDP_CTR_FLOWLET_MOVE);
	m = send_at(e, t + 7 * US, &a, NULL);
	result(ctr(e, ROCEDP_CTR_FLOWLET_FLOW_NEW) == new0 + 1,
	       "the replaced flow comes back as a new flow");
	result(m == m0 && ctr(e, ROCEDP_CTR_FLOWLET_EVICT_KEPT) == kept0 + 1 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_MOVE) == moves0 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK) == risk0,
	       "replaced inside its gap, it keeps its member though it is the busiest (slot %d, was %d), counted as flowlet_evicted_kept",
	       m, m0);
	/* what it would have done: a new flow now avoids that member */
	f.dst = ip4(10, 1, 4, 41);
	f.qp = 0xb01;
	m = send_at(e, t + 8 * US, &f, NULL);
	result(m >= 0 && m != m0,
	       "a new flow at that moment takes another member (slot %d): without the record the replaced flow would have moved",
	       m);
	rd_engine_close(e);
}

/*
 * A full set: the new flow takes the way idle longest (not the oldest
 * insert: a flow refreshed by a frame stays), and a way being written
 * by another CPU (its tag BUSY, set by hand) is neither matched nor
 * taken: the frame waits, then is forwarded unrecorded and counted.
 */
static void test_set_replacement(void)
{
	struct rd_engine *e = engine_with("{\"rtt_us\": 20, \"choice\": "
					  "\"least-loaded\"}");
	struct tx x[ROCEDP_FLOWLET_WAYS + 2], base = { .src = ip4(10, 9, 6, 1),
						       .dst = ip4(10, 1, 6, 0),
						       .qp = 0xe00 };
	struct rocedp_flowlet_set set, before;
	uint64_t t = 2 * T0, rep0, fail0;
	unsigned int i, present = 0, n = ROCEDP_FLOWLET_WAYS + 2;
	int fd, m, ok;
	__u32 si;

	if (!result(e != NULL, "set replacement: engine loaded"))
		return;
	fd = rd_engine_maps(e)->fd[RD_MAP_FLOWLETS];
	si = tx_set(&base);
	x[0] = base;
	for (i = 1; i < n; i++) {
		x[i] = x[i - 1];
		next_in_set(&x[i], si);
	}
	/* ways full: x0..x3 at t, t+1, t+2, t+3 us; then x0 again */
	for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++)
		send_at(e, t + i * US, &x[i], NULL);
	send_at(e, t + 4 * US, &x[0], NULL);
	rep0 = ctr(e, ROCEDP_CTR_FLOWLET_REPLACED);
	send_at(e, t + 5 * US, &x[ROCEDP_FLOWLET_WAYS], NULL);
	for (i = 0; i <= ROCEDP_FLOWLET_WAYS; i++)
		present |= (tx_ways(e, &x[i], &set) != 0) << i;
	result(ctr(e, ROCEDP_CTR_FLOWLET_REPLACED) == rep0 + 1 &&
		       present ==
			       (((1u << (ROCEDP_FLOWLET_WAYS + 1)) - 1) & ~2u),
	       "a new flow in a full set replaces the flow idle longest (x1), not the refreshed oldest (x0); one replacement counted (present 0x%x)",
	       present);

	/* another CPU is writing the way idle longest now (x2's) */
	i = tx_ways(e, &x[2], &set);
	if (!i) {
		result(false, "set replacement: x2 has no way");
		rd_engine_close(e);
		return;
	}
	*((__u64 *)&set.way[__builtin_ctz(i)].key + 4) =
		ROCEDP_FLOWLET_TAG_BUSY;
	bpf_map_update_elem(fd, &si, &set, BPF_EXIST);
	fail0 = ctr(e, ROCEDP_CTR_FLOWLET_INSERT_FAIL);
	rep0 = ctr(e, ROCEDP_CTR_FLOWLET_REPLACED);
	m = send_at(e, t + 6 * US, &x[n - 1], NULL);
	bpf_map_lookup_elem(fd, &si, &before);
	ok = !memcmp(&before, &set, sizeof(set));
	result(m >= 0 && ok &&
		       ctr(e, ROCEDP_CTR_FLOWLET_INSERT_FAIL) == fail0 + 1 &&
		       ctr(e, ROCEDP_CTR_FLOWLET_REPLACED) == rep0,
	       "a way being written (BUSY) is not taken: the new flow waits, is forwarded (slot %d) unrecorded, counted as flowlet_insert_failed; the set is unchanged",
	       m);
	rd_engine_close(e);
}

/*
 * Two CPUs race for the same flow: BPF_PROG_TEST_RUN from two threads
 * pinned to CPUs 0 and 1, real clock, gap 0.5 us (rtt 1 us), random
 * choice, so nearly every frame finds the gap expired and claims. What
 * this shows: the lost-race path runs and is counted, and no move is
 * counted as a reorder risk. It cannot show per frame which member each
 * CPU used (test runs return one frame each, with no common clock).
 */
struct racer {
	struct rd_engine *e;
	int cpu, frames, runs;
};

/* The calling thread onto one CPU: each racer has its own. */
static void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *race(void *arg)
{
	struct racer *r = arg;
	struct tx x = { .src = ip4(10, 9, 0, 50),
			.dst = ip4(10, 1, 5, 50),
			.qp = 0xc00 };
	struct rd_frame s;
	uint8_t in[2048], out[2048];
	struct rd_run run = { .in = in,
			      .out = out,
			      .ingress_ifindex = IN_IFINDEX };
	int i;

	pin_self(r->cpu);
	tx_frame(&x, &s);
	run.in_len = rd_frame_build(in, sizeof(in), &s);
	for (i = 0; i < r->frames; i++) {
		run.out_size = sizeof(out);
		if (!rd_engine_run(r->e, RD_HOOK_XDP, &run))
			r->runs++;
	}
	return NULL;
}

static void test_two_cpus(void)
{
	struct rd_engine *e;
	struct racer r[2] = {};
	pthread_t th[2];
	uint64_t lost, started;
	int i, runs, round;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("ok %d - # SKIP two CPUs needed\n", ++n_test);
		return;
	}
	e = engine_open_with("{\"rtt_us\": 1, \"gap_min_us\": 0, "
			     "\"choice\": \"random\"}",
			     false);
	if (!result(e != NULL, "two CPUs: engine on the real clock"))
		return;
	/* rounds until the CPUs have overlapped (a loaded machine may delay it) */
	for (round = 0, runs = 0; round < 10; round++) {
		for (i = 0; i < 2; i++) {
			r[i] = (struct racer){ .e = e,
					       .cpu = i,
					       .frames = 20000 };
			pthread_create(&th[i], NULL, race, &r[i]);
		}
		for (i = 0; i < 2; i++) {
			pthread_join(th[i], NULL);
			runs += r[i].runs;
		}
		if (ctr(e, ROCEDP_CTR_FLOWLET_CLAIM_LOST))
			break;
	}
	lost = ctr(e, ROCEDP_CTR_FLOWLET_CLAIM_LOST);
	started = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	if (!lost) {
		printf("ok %d - # SKIP the two CPUs never raced in %d frames\n",
		       ++n_test, runs);
	} else {
		result(started + lost <= (uint64_t)runs &&
			       ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK) == 0,
		       "2 CPUs, %d frames of one flow: %llu flowlets claimed, %llu claims lost to the other CPU and counted, no reorder risk",
		       runs, (unsigned long long)started,
		       (unsigned long long)lost);
	}
	rd_engine_close(e);
}

/*
 * Two CPUs insert the same new flows into full sets at once: batches of
 * fresh flows, each one's set first filled with live flows, then the
 * batch sent in the same order by two threads pinned to CPUs 0 and 1 and
 * released together by a barrier (real clock, random choice: two
 * independent choices would differ 3 times in 4). Every flow must end
 * with exactly one way holding it and both its frames on one member,
 * unless a loser was counted as an insert failure (it waited out the
 * winner's write).
 */
#define RACE_BATCH 256

struct ins_racer {
	struct rd_engine *e;
	pthread_barrier_t *bar;
	const struct tx *x;
	int cpu, member[RACE_BATCH];
};

/* One frame of x through the program now; the member, or -1. */
static int run_now(struct rd_engine *e, const struct tx *x)
{
	uint8_t in[2048], out[2048];
	struct rd_run run = { .in = in,
			      .out = out,
			      .out_size = sizeof(out),
			      .ingress_ifindex = IN_IFINDEX };
	struct rd_frame s;

	tx_frame(x, &s);
	run.in_len = rd_frame_build(in, sizeof(in), &s);
	if (rd_engine_run(e, RD_HOOK_XDP, &run) ||
	    run.verdict != ROCEDP_VERDICT_REDIRECT)
		return -1;
	/*
	 * The member from the frame: its destination MAC 02:bb:..:0i. The
	 * trace is one map entry that the other CPU overwrites.
	 */
	return out[0] == 2 && out[1] == 0xbb ? out[5] : -1;
}

static void *ins_race(void *arg)
{
	struct ins_racer *r = arg;
	int i;

	pin_self(r->cpu);
	pthread_barrier_wait(r->bar);
	for (i = 0; i < RACE_BATCH; i++)
		r->member[i] = run_now(r->e, &r->x[i]);
	return NULL;
}

static void test_two_cpus_full_set(void)
{
	static struct ins_racer r[2];
	static struct tx k[RACE_BATCH];
	const int batches = 8, flows = batches * RACE_BATCH;
	struct rocedp_flowlet_set set;
	pthread_barrier_t bar;
	pthread_t th[2];
	uint64_t lost0, fail0;
	int b, i, n, one = 0, agree = 0;
	struct rd_engine *e;
	struct tx f;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("ok %d - # SKIP two CPUs needed\n", ++n_test);
		return;
	}
	e = engine_open_with(
		"{\"rtt_us\": 1000000, \"gap_max_us\": 1000000, \"choice\": \"random\"}",
		false);
	if (!result(e != NULL, "full-set race: engine on the real clock"))
		return;
	lost0 = ctr(e, ROCEDP_CTR_FLOWLET_CLAIM_LOST);
	fail0 = ctr(e, ROCEDP_CTR_FLOWLET_INSERT_FAIL);
	for (b = 0; b < batches; b++) {
		for (n = 0; n < RACE_BATCH; n++) {
			k[n] = (struct tx){ .src = ip4(10, 9, 7, 1 + b),
					    .dst = ip4(10, 1, 7, n),
					    .qp = 0xd000 };
			f = (struct tx){ .src = ip4(10, 9, 8, 1 + b),
					 .dst = ip4(10, 1, 8, n),
					 .qp = 0xd000 };
			for (i = 0; i < ROCEDP_FLOWLET_WAYS; i++) {
				next_in_set(&f, tx_set(&k[n]));
				run_now(e, &f);
			}
		}
		pthread_barrier_init(&bar, NULL, 2);
		for (i = 0; i < 2; i++) {
			r[i].e = e;
			r[i].bar = &bar;
			r[i].x = k;
			r[i].cpu = i;
			pthread_create(&th[i], NULL, ins_race, &r[i]);
		}
		for (i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&bar);
		for (n = 0; n < RACE_BATCH; n++) {
			one += __builtin_popcount(tx_ways(e, &k[n], &set)) == 1;
			agree += r[0].member[n] >= 0 &&
				 r[0].member[n] == r[1].member[n];
		}
	}
	fail0 = ctr(e, ROCEDP_CTR_FLOWLET_INSERT_FAIL) - fail0;
	result(one == flows && agree + (int)fail0 >= flows,
	       "2 CPUs insert the same %d new flows into full sets: %d end with one record, %d with both frames on one member, %llu insert failures; claims lost (the CPUs overlapped): %llu",
	       flows, one, agree, (unsigned long long)fail0,
	       (unsigned long long)(ctr(e, ROCEDP_CTR_FLOWLET_CLAIM_LOST) -
				    lost0));
	rd_engine_close(e);
}

int main(int argc, char **argv)
{
	struct rd_engine *e;
	int big = ROCEDP_MAX_FLOWLETS + ROCEDP_MAX_FLOWLETS / 8;
	uint64_t risk = 0;

	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	e = engine_with("{\"rtt_us\": 20, \"choice\": \"least-loaded\", "
			"\"gap_min_us\": 5, \"gap_max_us\": 50, "
			"\"load_tau_us\": 100}");
	if (!result(e != NULL, "engine loaded with a fixed-gap flowlet config"))
		return 1;
	test_gap_and_choice(e);
	test_least_loaded(e);
	test_clamps(e);
	test_member_gone(e);
	test_dre_grid(e);
	test_table(e, big);
	test_claim_window(e);
	risk += ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK);
	rd_engine_close(e);

	e = engine_with("{\"rtt_us\": 22, \"gap\": \"auto\", "
			"\"choice\": \"least-loaded\", \"rtt_ewma_shift\": 3}");
	if (result(e != NULL,
		   "engine loaded with an auto-gap flowlet config")) {
		test_auto_rtt(e);
		risk += ctr(e, ROCEDP_CTR_FLOWLET_REORDER_RISK);
		rd_engine_close(e);
	}
	test_evicted_in_gap();
	test_set_replacement();
	test_two_cpus();
	test_two_cpus_full_set();
	test_tau_change();
	result(risk == 0, "flowlet_reorder_risk stayed 0 in every run");
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
