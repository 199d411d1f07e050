// SPDX-License-Identifier: GPL-2.0
/*
 * In-network RTT (bpf/rtt.h) through the real XDP program on the
 * deterministic clock: requests with AckReq from a requester to a
 * responder and their ACKs a known RTT later.
 *  - several QPs between the same two hosts, all starting at PSN 0 and
 *    interleaved (NCCL's pattern): no wrong sample; once the QP pairing
 *    is learned (from requests alone in flight, or by elimination), every
 *    sample is the true RTT, and the flowlet gap is not derived from a
 *    wrong one;
 *  - 4, 8 and 16 QPs in lock-step from PSN 0 through endpoints that pick
 *    the UDP source port as ib_core does (symmetric in the two QPNs) or
 *    as Soft-RoCE did (from the local QPN): the ports pair each QP on its
 *    first ACK and the auto gap follows the true RTT;
 *  - Karn: an ACK of a retransmitted request gives no sample;
 *  - expiry: a request older than ROCEDP_RTT_MAX_AGE_NS gives no sample
 *    and does not make a new request with its PSN look retransmitted.
 * Each test has an engine of its own (the EWMA lives on the one ingress
 * port). TAP output. Usage: rtt_test [-q]   (root)
 */
#include <string.h>
#include "flowlet_harness.h"

#define RTT (30 * US)
#define N_QP 4
#define REQ_QP(i) (0x100u + (i)) /* the requester's QPs: ACKs name these */
#define RSP_QP(i) (0x200u + (i)) /* the responder's: requests name these */

static const char auto_cfg[] =
	"{\"rtt_us\": 22, \"gap\": \"auto\", \"choice\": \"least-loaded\", "
	"\"rtt_ewma_shift\": 3}";

static struct tx req(int i, uint32_t psn)
{
	struct tx x = { .src = ip4(10, 9, 0, 20),
			.dst = ip4(10, 1, 0, 20),
			.qp = RSP_QP(i),
			.psn = psn,
			.ack_req = true,
			.opcode = ROCEDP_OP_RC_WRITE_ONLY };
	return x;
}

static struct tx ack(int i, uint32_t psn)
{
	struct tx x = { .src = ip4(10, 1, 0, 20),
			.dst = ip4(10, 9, 0, 20),
			.qp = REQ_QP(i),
			.psn = psn,
			.opcode = ROCEDP_OP_RC_ACK };
	return x;
}

static uint64_t rtt_ewma(struct rd_engine *e)
{
	struct rocedp_port_state st;

	if (port_state(e, IN_IFINDEX, &st))
		return ~0ull;
	return st.rtt_ewma_ns;
}

/*
 * One round: QP order[k] sends PSN psn at t + k * 7 us; each ACK comes
 * RTT later, so all n are pending together. Frames go out in time order.
 */
static void round_at(struct rd_engine *e, uint64_t t, const int *order, int n,
		     uint32_t psn)
{
	int k;
	struct tx x;

	for (k = 0; k < n; k++) {
		x = req(order[k], psn);
		send_at(e, t + k * 7 * US, &x, NULL);
	}
	for (k = 0; k < n; k++) {
		x = ack(order[k], psn);
		send_at(e, t + k * 7 * US + RTT, &x, NULL);
	}
}

/*
 * The scenario: 4 QPs between two hosts, PSN 0 upwards, requests
 * 7 us apart, true RTT 30 us. Keyed by (requester, responder, PSN) alone,
 * the last request's time is taken for the first ACK: 30 - 21 = 9 us.
 */
static void test_shared_psn(void)
{
	static const int fwd[N_QP] = { 0, 1, 2, 3 }, rev[N_QP] = { 3, 0, 1, 2 };
	struct rd_engine *e = engine_with(auto_cfg);
	struct tx f = { .src = ip4(10, 9, 0, 21),
			.dst = ip4(10, 1, 0, 21),
			.qp = 0x901 };
	uint64_t t = T0, amb, n0, m0;
	uint32_t psn;
	int i, m, moved = 0;

	if (!result(e != NULL, "shared PSNs: engine loaded"))
		return;
	/* phase A: lock-step from PSN 0, nothing learned yet */
	for (psn = 0; psn < 16; psn++, t += 100 * US)
		round_at(e, t, fwd, N_QP, psn);
	amb = ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 0 && rtt_ewma(e) == 0,
	       "4 QPs at the same PSNs, pairing unknown: no sample taken (%llu samples, EWMA %.2f us; the true RTT is 30 us)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       rtt_ewma(e) / 1000.0);
	result(amb == 16 * N_QP,
	       "every one of the 64 ACKs counted as ambiguous (%llu)",
	       (unsigned long long)amb);

	/*
	 * The gap still comes from the configured 22 us (11 us): a flow
	 * with 8 us idles keeps its member (with a 9 us RTT it moved).
	 */
	m0 = send_at(e, t, &f, NULL);
	n0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	for (i = 0; i < 20; i++) {
		t += 8 * US;
		m = send_at(e, t, &f, NULL);
		moved += m != (int)m0;
	}
	result(!moved && ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0,
	       "a flow idle 8 us between frames keeps its member (moved %d times)",
	       moved);

	/* phase B: QPs 0..2 each send one message alone: pairs learned */
	t += 100 * US;
	for (i = 0; i < N_QP - 1; i++, t += 100 * US)
		round_at(e, t, &fwd[i], 1, 16);
	result(ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 3 &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 3 &&
		       rtt_ewma(e) == RTT,
	       "a request alone in flight teaches its QP pair: 3 pairs, 3 samples of 30 us (%llu, %llu, %.2f us)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       rtt_ewma(e) / 1000.0);

	/*
	 * phase C: lock-step again, QP 3 first, so its ACK arrives while the
	 * other three are pending: they are paired elsewhere, so it is QP 3's.
	 */
	round_at(e, t, rev, N_QP, 17);
	t += 100 * US;
	result(ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 4 &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 7 &&
		       ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS) == amb,
	       "the 4th QP's ACK is matched by elimination, while 3 others are pending (pairs %llu, samples %llu)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES));
	for (psn = 18; psn < 50; psn++, t += 100 * US)
		round_at(e, t, psn & 1 ? rev : fwd, N_QP, psn);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 7 + 32 * N_QP &&
		       rtt_ewma(e) == RTT &&
		       ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS) == amb,
	       "pairs learned: 128 interleaved ACKs give 128 samples, the EWMA is exactly 30 us (%llu samples, %.3f us)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES) - 7,
	       rtt_ewma(e) / 1000.0);

	/* an ACK of a QP nobody saw: no pairing, one candidate that is paired */
	{
		struct tx r = req(0, 60), a = ack(0, 60);

		a.qp = 0x777;
		send_at(e, t, &r, NULL);
		n0 = ctr(e, ROCEDP_CTR_RTT_SAMPLES);
		send_at(e, t + RTT, &a, NULL);
		result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == n0,
		       "an ACK from an unknown QP does not close a request paired with another QP");
	}
	rd_engine_close(e);
}

/* ------------------------------------------------ pairing from the ports */

/* The endpoints' own port rules (include/rdma/ib_verbs.h, rxe_qp.c). */
static uint16_t ib_core_port(uint32_t lqpn, uint32_t rqpn)
{
	uint64_t v = (uint64_t)lqpn * rqpn;
	uint32_t fl, lo;

	v ^= v >> 20;
	v ^= v >> 40;
	fl = v & 0xfffff; /* rdma_calc_flow_label */
	lo = (fl & 0x3fff) ^ ((fl & 0xfc000) >> 14); /* ..._to_udp_sport */
	return 0xc000 | lo;
}

static uint16_t soft_roce_port(uint32_t qpn)
{
	return 0xc000 + (((uint32_t)(qpn * 0x61c88647u) >> (32 - 14)) & 0x3fff);
}

enum endpoint_kind { EP_IB_CORE, EP_SOFT_ROCE };

/*
 * QP numbers as two Soft-RoCE hosts hand them out: both count from 17, so
 * the requester's QP i and the responder's QP i carry the same number
 * (the responder's are paired one off, so no QP is paired with its twin).
 */
#define LS_REQ_QP(i) (17u + (i))
#define LS_RSP_QP(i, n) (17u + ((i) + 1) % (n))

static uint16_t port_of(enum endpoint_kind k, uint32_t local, uint32_t remote)
{
	return k == EP_IB_CORE ? ib_core_port(local, remote) :
				 soft_roce_port(local);
}

/*
 * n QPs between two hosts, every one at PSN psn (NCCL splits a message
 * over them round-robin, all from PSN 0), posted back to back 1 us apart;
 * each ACK comes RTT after its request.
 */
static void lockstep_round(struct rd_engine *e, enum endpoint_kind k,
			   uint64_t t, int n, uint32_t psn)
{
	struct tx x;
	int i;

	for (i = 0; i < n; i++) {
		x = req(0, psn);
		x.qp = LS_RSP_QP(i, n);
		x.sport = port_of(k, LS_REQ_QP(i), LS_RSP_QP(i, n));
		send_at(e, t + i * US, &x, NULL);
	}
	for (i = 0; i < n; i++) {
		x = ack(0, psn);
		x.qp = LS_REQ_QP(i);
		x.sport = port_of(k, LS_RSP_QP(i, n), LS_REQ_QP(i));
		send_at(e, t + i * US + RTT, &x, NULL);
	}
}

static void test_lockstep_ports(enum endpoint_kind k, int n)
{
	static const char *const kind_name[] = { "ib_core", "Soft-RoCE" };
	uint32_t by = k == EP_IB_CORE ? ROCEDP_CTR_RTT_PAIR_SYM_PORT :
					ROCEDP_CTR_RTT_PAIR_RXE_PORT;
	struct rd_engine *e = engine_with(auto_cfg);
	/*
	 * 4 slots per PSN: the QPs past them take the slots of paired QPs,
	 * 4 a round, so every round gives 4 samples
	 */
	int sampled = n < ROCEDP_RTT_SLOTS ? n : ROCEDP_RTT_SLOTS, i,
	    rounds = 32;
	struct tx f = { .src = ip4(10, 9, 0, 21),
			.dst = ip4(10, 1, 0, 21),
			.qp = 0x901 };
	uint64_t t = T0, n0, samples, pairs, want;
	uint32_t psn;

	if (!result(e != NULL, "%s ports, %d QPs: engine loaded", kind_name[k],
		    n))
		return;
	lockstep_round(e, k, t, n, 0);
	t += 100 * US;
	pairs = ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED);
	result(pairs == (uint64_t)sampled && ctr(e, by) == pairs &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == pairs &&
		       rtt_ewma(e) == RTT,
	       "%s ports, %d QPs in lock-step at PSN 0: the first ACKs pair the %d recorded QPs by their ports (pairs %llu, by this rule %llu, samples %llu, EWMA %.2f us)",
	       kind_name[k], n, sampled, (unsigned long long)pairs,
	       (unsigned long long)ctr(e, by),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       rtt_ewma(e) / 1000.0);
	for (psn = 1; psn < (uint32_t)rounds; psn++, t += 100 * US)
		lockstep_round(e, k, t, n, psn);
	samples = ctr(e, ROCEDP_CTR_RTT_SAMPLES);
	want = (uint64_t)rounds * sampled;
	pairs = ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED);
	result(samples == want && rtt_ewma(e) == RTT && pairs == (uint64_t)n &&
		       ctr(e, by) == pairs,
	       "%s ports, %d QPs, %d rounds: every QP paired once by its ports (%llu pairs), %llu samples (want %llu), the EWMA is exactly the true 30 us (%.3f us)",
	       kind_name[k], n, rounds, (unsigned long long)pairs,
	       (unsigned long long)samples, (unsigned long long)want,
	       rtt_ewma(e) / 1000.0);
	/*
	 * The gap is RTT/2 = 15 us now, not the configured 22/2 = 11 us: a
	 * flow idle 13 us between frames is one flowlet.
	 */
	send_at(e, t, &f, NULL);
	n0 = ctr(e, ROCEDP_CTR_FLOWLET_NEW);
	for (i = 0; i < 20; i++) {
		t += 13 * US;
		send_at(e, t, &f, NULL);
	}
	result(ctr(e, ROCEDP_CTR_FLOWLET_NEW) == n0,
	       "%s ports, %d QPs: the auto gap follows the measured RTT (a flow idle 13 us started %llu new flowlets)",
	       kind_name[k], n,
	       (unsigned long long)(ctr(e, ROCEDP_CTR_FLOWLET_NEW) - n0));
	rd_engine_close(e);
}

/*
 * A pairing lives 1 s without a sampled ACK (QP numbers are reused); a
 * response whose port fits the pair confirms it. After 2 s idle, the
 * next round is matched through the pairings, none learned again.
 */
static void test_port_keeps_pairing(enum endpoint_kind k)
{
	static const char *const kind_name[] = { "ib_core", "Soft-RoCE" };
	struct rd_engine *e = engine_with(auto_cfg);
	uint64_t t = T0, pairs, samples;
	int n = 4;

	if (!result(e != NULL, "%s pairing kept: engine loaded", kind_name[k]))
		return;
	lockstep_round(e, k, t, n, 0);
	pairs = ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED);
	samples = ctr(e, ROCEDP_CTR_RTT_SAMPLES);
	t += ROCEDP_RTT_PAIR_TTL_NS * 2;
	lockstep_round(e, k, t, n, 1);
	result(pairs == (uint64_t)n &&
		       ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == pairs &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == samples + n,
	       "%s ports, %d QPs idle 2 s (pairing TTL 1 s): the ACKs' ports confirm the pairings, none learned again (pairs %llu -> %llu, samples +%llu)",
	       kind_name[k], n, (unsigned long long)pairs,
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED),
	       (unsigned long long)(ctr(e, ROCEDP_CTR_RTT_SAMPLES) - samples));
	rd_engine_close(e);
}

/*
 * Ports that prove nothing pair nothing: requests from ib_core endpoints
 * answered by Soft-RoCE ones fit neither rule; and when every request
 * carries one port (a NIC with a fixed port), an ACK whose QPs happen to
 * fit the symmetric rule (17 x 18 = 18 x 17: QP 18's ACK and the slot of
 * responder QP 17) is not taken, since the port is not the request's own.
 */
static void test_ports_no_mispair(void)
{
	struct rd_engine *e = engine_with(auto_cfg);
	uint64_t t = T0;
	struct tx x;
	int i, n = 4;

	if (!result(e != NULL, "port mix: engine loaded"))
		return;
	/* requests from ib_core endpoints, ACKs from Soft-RoCE ones */
	for (i = 0; i < n; i++) {
		x = req(0, 0);
		x.qp = LS_RSP_QP(i, n);
		x.sport = ib_core_port(LS_REQ_QP(i), LS_RSP_QP(i, n));
		send_at(e, t + i * US, &x, NULL);
	}
	for (i = 0; i < n; i++) {
		x = ack(0, 0);
		x.qp = LS_REQ_QP(i);
		x.sport = soft_roce_port(LS_RSP_QP(i, n));
		send_at(e, t + i * US + RTT, &x, NULL);
	}
	t += 100 * US;
	/* one port for all: the symmetric port of one pair fits its slot only */
	for (i = 0; i < n; i++) {
		x = req(0, 1);
		x.qp = LS_RSP_QP(i, n);
		x.sport = ib_core_port(LS_REQ_QP(0), LS_RSP_QP(0, n));
		send_at(e, t + i * US, &x, NULL);
	}
	for (i = 1; i < n; i++) {
		x = ack(0, 1);
		x.qp = LS_REQ_QP(i);
		x.sport = ib_core_port(LS_REQ_QP(0), LS_RSP_QP(0, n));
		send_at(e, t + i * US + RTT, &x, NULL);
	}
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 0 &&
		       ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 0 &&
		       ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS) == 2 * (uint64_t)n - 1,
	       "ports of no rule, or of another QP's pair: no sample, no pair, all %d ACKs ambiguous (samples %llu, pairs %llu, ambiguous %llu)",
	       2 * n - 1, (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS));
	rd_engine_close(e);
}

/*
 * More QPs at one PSN than slots, none paired yet: QP 4 finds no slot and
 * no paired QP's to take. QPs 1..3 then pair at PSN 2 while their PSN 1
 * requests are still pending, so QP 4's PSN 1 ACK sees one candidate,
 * QP 0's request: taking it would give 430 us and pair QP 4 with QP 0's
 * responder. While a request went unrecorded, no elimination is trusted.
 */
static void test_slots_full(void)
{
	static const int later[3] = { 1, 2, 3 };
	struct rd_engine *e = engine_with(auto_cfg);
	uint64_t t = T0, amb;
	struct tx x;
	int k;

	if (!result(e != NULL, "slots full: engine loaded"))
		return;
	for (k = 0; k < N_QP + 1; k++) {
		x = req(k, 1);
		send_at(e, t + k * 7 * US, &x, NULL);
	}
	for (k = 0; k < 3; k++)
		round_at(e, t + (k + 1) * 100 * US, &later[k], 1, 2);
	amb = ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS);
	x = ack(4, 1);
	send_at(e, t + 4 * 7 * US + 430 * US, &x, NULL);
	x = ack(0, 1);
	send_at(e, t + 460 * US, &x, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_PEND_FULL) == 1 &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 3 &&
		       ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 3 &&
		       ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS) == amb + 2 &&
		       rtt_ewma(e) == RTT,
	       "5 QPs pending one PSN: 1 counted full; the unpaired ACKs take no sample and teach no pair (full %llu, samples %llu, pairs %llu, ambiguous +%llu)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PEND_FULL),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED),
	       (unsigned long long)(ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS) - amb));
	rd_engine_close(e);
}

/*
 * Karn: the request is sent again before its ACK; the ACK that comes
 * 110 us after the first copy (10 us after the second) could answer
 * either: no sample.
 */
static void test_karn(void)
{
	struct rd_engine *e = engine_with(auto_cfg);
	struct tx r = req(0, 5), a = ack(0, 5);
	uint64_t t = T0;

	if (!result(e != NULL, "Karn: engine loaded"))
		return;
	send_at(e, t, &r, NULL);
	send_at(e, t + 100 * US, &r, NULL);
	send_at(e, t + 110 * US, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 0 &&
		       ctr(e, ROCEDP_CTR_RTT_RETX) == 1 && rtt_ewma(e) == 0,
	       "ACK of a retransmitted request: no sample, counted as retransmitted (samples %llu, EWMA %.2f us)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       rtt_ewma(e) / 1000.0);
	/* the next request of that QP is sampled again */
	r.psn = a.psn = 6;
	t += 200 * US;
	send_at(e, t, &r, NULL);
	send_at(e, t + RTT, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 1 && rtt_ewma(e) == RTT,
	       "the next request of the QP gives a 30 us sample");
	/* a duplicate ACK closes nothing */
	send_at(e, t + RTT + 5 * US, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 1,
	       "a duplicate ACK adds no sample");
	rd_engine_close(e);
}

/* A request without its ACK for longer than the bound is dead. */
static void test_expiry(void)
{
	struct rd_engine *e = engine_with(auto_cfg);
	struct tx r = req(0, 7), a = ack(0, 7);
	uint64_t t = T0, late = ROCEDP_RTT_MAX_AGE_NS + 1;

	if (!result(e != NULL, "expiry: engine loaded"))
		return;
	send_at(e, t, &r, NULL);
	send_at(e, t + late, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 0 &&
		       ctr(e, ROCEDP_CTR_RTT_EXPIRED) == 1,
	       "ACK %.2f ms after its request (bound %.2f ms): no sample, counted expired",
	       late / 1e6, ROCEDP_RTT_MAX_AGE_NS / 1e6);
	/* PSN 8: the old request is not taken for a first copy */
	r.psn = a.psn = 8;
	t += late + 100 * US;
	send_at(e, t, &r, NULL);
	t += late;
	send_at(e, t, &r, NULL);
	send_at(e, t + RTT, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 1 &&
		       ctr(e, ROCEDP_CTR_RTT_RETX) == 0 && rtt_ewma(e) == RTT,
	       "the same PSN sent again after the bound is a new request: one 30 us sample, no retransmission (retx %llu)",
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_RETX));
	/* at exactly the bound the sample is still taken */
	r.psn = a.psn = 9;
	t += 10 * US;
	send_at(e, t, &r, NULL);
	send_at(e, t + ROCEDP_RTT_MAX_AGE_NS, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 2,
	       "an ACK at exactly the bound is still sampled");
	rd_engine_close(e);
}

/*
 * An ACK past the bound whose port fits an endpoint rule: no sample, but
 * the fit is a proof that does not age, so it teaches the pairing (under
 * Soft-RoCE in the lab most ACKs came later than the bound, and a lossy
 * QP's NAKs stayed unattributed until one came in time).
 */
static void test_late_port_fit(enum endpoint_kind k)
{
	static const char *const kind_name[] = { "ib_core", "Soft-RoCE" };
	struct rd_engine *e = engine_with(auto_cfg);
	uint64_t t = T0, late = ROCEDP_RTT_MAX_AGE_NS + 1;
	struct tx r = req(0, 7), a = ack(0, 7);

	if (!result(e != NULL, "late fit: engine loaded"))
		return;
	r.qp = LS_RSP_QP(0, 4);
	r.sport = port_of(k, LS_REQ_QP(0), LS_RSP_QP(0, 4));
	a.qp = LS_REQ_QP(0);
	a.sport = port_of(k, LS_RSP_QP(0, 4), LS_REQ_QP(0));
	send_at(e, t, &r, NULL);
	send_at(e, t + late, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 0 &&
		       ctr(e, ROCEDP_CTR_RTT_EXPIRED) == 1 &&
		       ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 1,
	       "%s ports: an ACK %.2f ms late gives no sample but teaches its pairing (samples %llu, expired %llu, pairs %llu)",
	       kind_name[k], late / 1e6,
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_SAMPLES),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_EXPIRED),
	       (unsigned long long)ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED));
	/* the next in-time ACK is matched through it, nothing learned again */
	r.psn = a.psn = 8;
	t += late + 100 * US;
	send_at(e, t, &r, NULL);
	send_at(e, t + RTT, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 1 && rtt_ewma(e) == RTT &&
		       ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 1,
	       "%s ports: the next ACK in time is matched through that pairing: one 30 us sample",
	       kind_name[k]);
	/* a late ACK whose port fits no rule still teaches nothing */
	r.psn = a.psn = 9;
	a.qp = LS_REQ_QP(1);
	a.sport = 0xc001;
	t += 100 * US;
	send_at(e, t, &r, NULL);
	send_at(e, t + late, &a, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_PAIR_LEARNED) == 1 &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 1,
	       "%s ports: a late ACK of no rule teaches nothing", kind_name[k]);
	rd_engine_close(e);
}

int main(int argc, char **argv)
{
	int n;

	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	test_shared_psn();
	test_late_port_fit(EP_IB_CORE);
	test_late_port_fit(EP_SOFT_ROCE);
	for (n = 4; n <= 16; n *= 2) {
		test_lockstep_ports(EP_IB_CORE, n);
		test_lockstep_ports(EP_SOFT_ROCE, n);
	}
	test_port_keeps_pairing(EP_IB_CORE);
	test_port_keeps_pairing(EP_SOFT_ROCE);
	test_ports_no_mispair();
	test_slots_full();
	test_karn();
	test_expiry();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
