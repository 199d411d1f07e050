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

/*
 * More QPs at one PSN than slots. QPs 1..3 are paired, QPs 0 and 4 not;
 * QP 4 finds no slot. Its ACK sees one unpaired candidate, QP 0's
 * request: taking it would give 37 us and pair QP 4 with QP 0's
 * responder. While a request went unrecorded, no elimination is trusted.
 */
static void test_slots_full(void)
{
	static const int order[N_QP + 1] = { 1, 2, 3, 0, 4 };
	struct rd_engine *e = engine_with(auto_cfg);
	uint64_t t = T0, amb;
	struct tx x;
	int k;

	if (!result(e != NULL, "slots full: engine loaded"))
		return;
	for (k = 0; k < 3; k++, t += 100 * US)
		round_at(e, t, &order[k], 1, 0);
	for (k = 0; k < N_QP + 1; k++) {
		x = req(order[k], 1);
		send_at(e, t + k * 7 * US, &x, NULL);
	}
	for (k = 0; k < 3; k++) {
		x = ack(order[k], 1);
		send_at(e, t + k * 7 * US + RTT, &x, NULL);
	}
	amb = ctr(e, ROCEDP_CTR_RTT_AMBIGUOUS);
	x = ack(4, 1);
	send_at(e, t + 4 * 7 * US + RTT, &x, NULL);
	x = ack(0, 1);
	send_at(e, t + 70 * US, &x, NULL);
	result(ctr(e, ROCEDP_CTR_RTT_PEND_FULL) == 1 &&
		       ctr(e, ROCEDP_CTR_RTT_SAMPLES) == 6 &&
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

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	test_shared_psn();
	test_slots_full();
	test_karn();
	test_expiry();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
