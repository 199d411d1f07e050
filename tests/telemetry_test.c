// SPDX-License-Identifier: GPL-2.0
/*
 * Per-QP telemetry (bpf/telemetry.h, docs/telemetry.md) through the real
 * XDP program on the deterministic clock: after each sequence of frames
 * from the one frame builder, the QP's rd_qps entry must hold exactly the
 * counts the PSN rules give (gaps, rewinds, duplicates across the 2^24
 * wrap, read responses, NAK syndromes, CNP, CE, RTT, the ACK wait and
 * stalls), plus the per-port class counts and the queue high-water mark.
 * Every scenario runs on a fresh engine, on the express path (with the
 * trace on, so every frame takes the full path; then with it off, so
 * known flows take the decision cache and telemetry its slot hint) and
 * again with it off (every frame through the general parser).
 * TAP output. Usage: telemetry_test [-q]   (root)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#include "qps.h"
#include "stats.h"
#include "frame.h"
#include "tap.h"

#define US 1000ull
#define T0 (5000 * US)
#define IN_IFINDEX 1 /* lo: a test run needs a real receiving device */
#define OUT_PORT 100 /* the modelled egress port */
#define STALL_US 1000
#define A 0x0a090014u /* 10.9.0.20, the requester */
#define B 0x0a010014u /* 10.1.0.20, the responder */
#define RSP_QP 0x200u /* requests name it */
#define REQ_QP 0x100u /* ACKs, NAKs, read responses and CNPs name it */
#define V(psn) ((psn) | ROCEDP_QP_PSN_VALID)
#define OP_READ_REQ 0x0c

static bool general, cached;
static const char *path_name = "express";

static const char cfg_on[] =
	"{\"features\": [\"forward\", \"ecn\", \"telemetry\"],"
	" \"telemetry\": {\"qp_stall_us\": 1000},"
	" \"groups\": [{\"id\": 1, \"members\": [{\"ifindex\": 100,"
	" \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:bb:00:00:00:01\","
	" \"weight\": 1}]}],"
	" \"routes\": [{\"prefix\": \"10.0.0.0/8\", \"group\": 1}]}";
static const char cfg_off[] =
	"{\"features\": [\"forward\"],"
	" \"groups\": [{\"id\": 1, \"members\": [{\"ifindex\": 100,"
	" \"smac\": \"02:aa:00:00:00:01\", \"dmac\": \"02:bb:00:00:00:01\","
	" \"weight\": 1}]}],"
	" \"routes\": [{\"prefix\": \"10.0.0.0/8\", \"group\": 1}]}";

static struct rd_engine *engine(const char *json)
{
	struct rd_engine_opts eo = { .trace = !cached,
				     .map_clock = true,
				     .general_path = general,
				     .bind_cpu = true,
				     .hooks = RD_HOOK_BIT(RD_HOOK_XDP) };
	struct rd_engine *e;
	int err = rd_engine_open(&e, &eo);

	if (err) {
		printf("# cannot load the BPF object: %s\n", strerror(-err));
		return NULL;
	}
	err = rd_config_apply_text("telemetry_test config", json, strlen(json),
				   rd_engine_maps(e));
	if (err) {
		printf("# config rejected: %s\n", strerror(-err));
		rd_engine_close(e);
		return NULL;
	}
	return e;
}

struct tx {
	uint32_t src, dst, qp, psn;
	uint8_t opcode;
	bool ack_req;
	uint8_t syndrome; /* AETH */
	uint8_t ecn;
	bool v6; /* fd00::src, fd00::dst */
};

/* fd00::a.b.c.d: the IPv6 address tests use for IPv4 address a (host order) */
static void v6_of(uint8_t *out, uint32_t a)
{
	uint32_t n = htonl(a);

	memset(out, 0, 16);
	out[0] = 0xfd;
	memcpy(out + 12, &n, 4);
}

/* Run one frame at time t through XDP; the frame's length, 0 on error. */
static uint32_t send_at(struct rd_engine *e, uint64_t t, const struct tx *x)
{
	struct rd_frame s = {
		.smac = { 2, 0xee, 0, 0, 0, 1 },
		.dmac = { 2, 0xcc, 0, 0, 0, 1 },
		.src4 = x->src,
		.dst4 = x->dst,
		.sport = 0xc001,
		.tos = 0x68 | x->ecn,
		.opcode = x->opcode,
		.dest_qp = x->qp,
		.psn = x->psn,
		.ack_req = x->ack_req,
		.aeth = (uint32_t)x->syndrome << 24 | 7,
		.dma_len = 4096,
	};
	uint8_t in[2048], out[2048];
	struct rd_run r = { .in = in,
			    .out = out,
			    .out_size = sizeof(out),
			    .ingress_ifindex = IN_IFINDEX };

	if (x->v6) {
		s.v6 = true;
		v6_of(s.src6, x->src);
		v6_of(s.dst6, x->dst);
	}
	if (x->opcode == ROCEDP_OP_CNP)
		s.payload = ROCEDP_CNP_PAYLOAD_LEN;
	else if (rocedp_opcode_is_data(x->opcode) && x->opcode != OP_READ_REQ)
		s.payload = 256;
	r.in_len = rd_frame_build(in, sizeof(in), &s);
	if (rd_engine_set_time(e, t) || rd_engine_run(e, RD_HOOK_XDP, &r))
		return 0;
	return r.in_len;
}

/* frames of the connection A:REQ_QP <-> B:RSP_QP */
static struct tx req(uint32_t psn, bool ack_req)
{
	return (struct tx){ .src = A,
			    .dst = B,
			    .qp = RSP_QP,
			    .psn = psn & ROCEDP_PSN_MASK,
			    .ack_req = ack_req,
			    .opcode = ROCEDP_OP_RC_WRITE_ONLY };
}

static struct tx resp(uint8_t opcode, uint32_t psn, uint8_t syndrome)
{
	return (struct tx){ .src = B,
			    .dst = A,
			    .qp = REQ_QP,
			    .psn = psn & ROCEDP_PSN_MASK,
			    .opcode = opcode,
			    .syndrome = syndrome };
}

static struct tx ack(uint32_t psn)
{
	return resp(ROCEDP_OP_RC_ACK, psn, 0x1f);
}

static void send_req(struct rd_engine *e, uint64_t *t, uint32_t psn)
{
	struct tx x = req(psn, false);

	send_at(e, *t, &x);
	*t += US;
}

/* a lone request answered 30 us later: teaches the QP pairing */
static uint64_t pair_up(struct rd_engine *e, uint32_t psn)
{
	struct tx r = req(psn, true), a = ack(psn);

	send_at(e, T0, &r);
	send_at(e, T0 + 30 * US, &a);
	return T0 + 100 * US;
}

static int qp_get_af(struct rd_engine *e, bool v6, uint32_t src, uint32_t dst,
		     uint32_t qp, struct rocedp_qp_stat *st)
{
	struct rocedp_qp_key k;

	memset(&k, 0, sizeof(k));
	memset(st, 0, sizeof(*st));
	if (v6) {
		v6_of((uint8_t *)k.src, src);
		v6_of((uint8_t *)k.dst, dst);
	} else {
		k.src[0] = htonl(src);
		k.dst[0] = htonl(dst);
	}
	k.dqp = qp;
	k.family = v6 ? AF_INET6 : AF_INET;
	return rd_qps_lookup(rd_engine_maps(e), &k, st);
}

static int qp_get(struct rd_engine *e, uint32_t src, uint32_t dst, uint32_t qp,
		  struct rocedp_qp_stat *st)
{
	return qp_get_af(e, false, src, dst, qp, st);
}

static uint64_t ctr(struct rd_engine *e, uint32_t key)
{
	__u64 v;

	if (rd_counter_get(rd_engine_maps(e)->fd[RD_MAP_STATS], key, &v))
		return ~0ull;
	return v;
}

/* the request stream's counts, all at once: one assertion */
struct want {
	uint64_t req, gaps, gap_psns, rewinds, dups;
	uint32_t next;
};

static void check_stream(struct rd_engine *e, const struct want *w,
			 const char *what)
{
	struct rocedp_qp_stat st;
	int err = qp_get(e, A, B, RSP_QP, &st);

	result(!err && st.req_pkts == w->req && st.gaps == w->gaps &&
		       st.gap_psns == w->gap_psns && st.rewinds == w->rewinds &&
		       st.dups == w->dups && st.next_psn == w->next,
	       "[%s] %s: req %llu gaps %llu (%llu PSNs) rewinds %llu dups %llu next 0x%x (want %llu %llu (%llu) %llu %llu 0x%x)",
	       path_name, what, (unsigned long long)st.req_pkts,
	       (unsigned long long)st.gaps, (unsigned long long)st.gap_psns,
	       (unsigned long long)st.rewinds, (unsigned long long)st.dups,
	       st.next_psn, (unsigned long long)w->req,
	       (unsigned long long)w->gaps, (unsigned long long)w->gap_psns,
	       (unsigned long long)w->rewinds, (unsigned long long)w->dups,
	       w->next);
}

/* Send a list of request PSNs on a fresh engine and check the stream. */
static void stream_case(const char *what, const uint32_t *psn, int n,
			const struct want *w)
{
	struct rd_engine *e = engine(cfg_on);
	uint64_t t = T0;
	int i;

	if (!result(e != NULL, "[%s] %s: engine loaded", path_name, what))
		return;
	for (i = 0; i < n; i++)
		send_req(e, &t, psn[i]);
	check_stream(e, w, what);
	rd_engine_close(e);
}

#define CASE(what, w, ...)                                            \
	do {                                                          \
		static const uint32_t p_[] = { __VA_ARGS__ };         \
		stream_case(what, p_, sizeof(p_) / sizeof(p_[0]), w); \
	} while (0)

static void test_psn_rules(void)
{
	const uint32_t M = ROCEDP_PSN_MASK;

	CASE("in order across the 2^24 wrap",
	     (&(struct want){ 6, 0, 0, 0, 0, V(3) }), M - 2, M - 1, M, 0, 1, 2);
	CASE("one frame dropped: 1 gap of 1 PSN",
	     (&(struct want){ 3, 1, 1, 0, 0, V(14) }), 10, 11, 13);
	CASE("two dropped over the wrap: 1 gap of 2 PSNs",
	     (&(struct want){ 3, 1, 2, 0, 0, V(2) }), M - 2, M - 1, 1);
	CASE("one frame duplicated: 1 dup",
	     (&(struct want){ 4, 0, 0, 0, 1, V(23) }), 20, 21, 21, 22);
	CASE("duplicated at the wrap: 1 dup",
	     (&(struct want){ 4, 0, 0, 0, 1, V(1) }), M - 1, M, M, 0);
	CASE("held back past the next frame: 1 gap of 1 PSN, then 1 rewind",
	     (&(struct want){ 5, 1, 1, 1, 0, V(35) }), 30, 31, 33, 32, 34);
	CASE("held back past two frames: still 1 gap, 1 rewind",
	     (&(struct want){ 6, 1, 1, 1, 0, V(36) }), 30, 31, 33, 34, 32, 35);
	CASE("a copy arriving after the next frame: 1 rewind, no dup",
	     (&(struct want){ 5, 0, 0, 1, 0, V(33) }), 30, 31, 32, 31, 32);
	CASE("go-back-N after a loss downstream: 1 rewind, no gap",
	     (&(struct want){ 9, 0, 0, 1, 0, V(46) }), 40, 41, 42, 43, 44, 42,
	     43, 44, 45);
	CASE("loss upstream, then go-back-N: 1 gap, 1 rewind",
	     (&(struct want){ 8, 1, 1, 1, 0, V(66) }), 60, 61, 63, 64, 62, 63,
	     64, 65);
	CASE("a retransmitted frame lost again (seen before): no gap",
	     (&(struct want){ 7, 0, 0, 1, 0, V(55) }), 50, 51, 52, 53, 51, 53,
	     54);
	/* the selftest's flake: a go-back-N replay's frame held back past
	 * its successor, both seen once, so the swap is no gap */
	CASE("held back, then a replayed frame held back: 1 gap, not 2",
	     (&(struct want){ 12, 1, 1, 3, 1, V(76) }), 70, 72, 71, 73, 74, 71,
	     72, 74, 73, 73, 74, 75);
	CASE("rewind across the wrap: 1 rewind",
	     (&(struct want){ 6, 0, 0, 1, 0, V(1) }), M - 1, M, 0, M - 1, M, 0);
}

/* the read-response stream's counts: one assertion */
static void check_resp(struct rd_engine *e, uint64_t pkts, uint64_t gaps,
		       uint64_t rewinds, uint32_t next, const char *what)
{
	struct rocedp_qp_stat st;
	int err = qp_get(e, A, B, RSP_QP, &st);

	result(!err && st.resp_pkts == pkts && st.resp_gaps == gaps &&
		       st.resp_rewinds == rewinds && st.resp_psn == next,
	       "[%s] %s: responses %llu gaps %llu rewinds %llu next 0x%x",
	       path_name, what, (unsigned long long)st.resp_pkts,
	       (unsigned long long)st.resp_gaps,
	       (unsigned long long)st.resp_rewinds, st.resp_psn);
}

/* a read request takes one PSN per response: the next request jumps */
static void test_reads(void)
{
	struct rd_engine *e = engine(cfg_on);
	struct tx x;
	uint64_t t;

	if (!result(e != NULL, "[%s] reads: engine loaded", path_name))
		return;
	t = pair_up(e, 69);
	x = req(70, false);
	x.opcode = OP_READ_REQ;
	send_at(e, t, &x);
	x = req(74, true);
	send_at(e, t + US, &x);
	check_stream(e, &(struct want){ 3, 0, 0, 0, 0, V(75) },
		     "read request of 4 PSNs, then a write 4 PSNs on: no gap");
	t += 10 * US;
	x = resp(ROCEDP_OP_RC_READ_RESP_FIRST, 70, 0);
	send_at(e, t, &x);
	x = resp(ROCEDP_OP_RC_READ_RESP_MIDDLE, 71, 0);
	send_at(e, t + US, &x);
	/* 72 lost upstream */
	x = resp(ROCEDP_OP_RC_READ_RESP_LAST, 73, 0);
	send_at(e, t + 3 * US, &x);
	check_resp(
		e, 3, 1, 0, V(74),
		"read responses 70, 71, 73 on the requester's entry: 3 responses, 1 gap");
	/* the requester asks again from 72: the responses rewind */
	x = resp(ROCEDP_OP_RC_READ_RESP_FIRST, 72, 0);
	send_at(e, t + 20 * US, &x);
	x = resp(ROCEDP_OP_RC_READ_RESP_LAST, 73, 0);
	send_at(e, t + 21 * US, &x);
	/* a new read's responses start where its request was: no gap */
	x = resp(ROCEDP_OP_RC_READ_RESP_ONLY, 90, 0);
	send_at(e, t + 30 * US, &x);
	check_resp(
		e, 6, 1, 1, V(91),
		"a re-read from 72 is 1 rewind; a later read's only response no gap");
	result(ctr(e, ROCEDP_CTR_QP_UNPAIRED) == 0,
	       "[%s] every response found its QP", path_name);
	rd_engine_close(e);
}

static void test_answers(void)
{
	static const uint8_t syn[] = { 0x60, 0x61, 0x62, 0x63, 0x64, 0x2e };
	struct rd_engine *e = engine(cfg_on);
	struct rocedp_qp_stat st;
	uint64_t t, u0;
	struct tx x;
	unsigned int i;

	if (!result(e != NULL, "[%s] answers: engine loaded", path_name))
		return;
	t = pair_up(e, 0);
	for (i = 0; i < sizeof(syn); i++) {
		x = resp(ROCEDP_OP_RC_ACK, 1, syn[i]);
		send_at(e, t + i * US, &x);
	}
	x = resp(ROCEDP_OP_CNP, 0, 0);
	send_at(e, t + 10 * US, &x);
	x = req(1, false);
	x.ecn = 3;
	send_at(e, t + 11 * US, &x);
	x = req(2, false);
	x.ecn = 2;
	send_at(e, t + 12 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.naks[ROCEDP_QP_NAK_PSN_SEQ] == 1 &&
		       st.naks[ROCEDP_QP_NAK_RNR] == 1 &&
		       st.naks[ROCEDP_QP_NAK_REMOTE_ACCESS] == 1 &&
		       st.naks[ROCEDP_QP_NAK_REMOTE_OP] == 1 &&
		       st.naks[ROCEDP_QP_NAK_OTHER] == 2 && st.acks == 1,
	       "[%s] NAKs by syndrome: psn_seq rnr remote_access remote_op other = %llu %llu %llu %llu %llu (want 1 1 1 1 2), acks %llu",
	       path_name, (unsigned long long)st.naks[0],
	       (unsigned long long)st.naks[1], (unsigned long long)st.naks[2],
	       (unsigned long long)st.naks[3], (unsigned long long)st.naks[4],
	       (unsigned long long)st.acks);
	result(st.cnps == 1 && st.ce == 1,
	       "[%s] a CNP to the requester and a CE-marked request (cnps %llu, ce %llu)",
	       path_name, (unsigned long long)st.cnps,
	       (unsigned long long)st.ce);
	/* 1 request, 1 ACK, 6 NAKs, 1 CNP, 2 requests */
	result(st.pkts == 11 && st.in_ifindex == IN_IFINDEX &&
		       st.out_ifindex == OUT_PORT && st.first_ns == T0 &&
		       st.last_ns == t + 12 * US,
	       "[%s] frames on the entry %llu (want 11), ports %u -> %u, first/last seen",
	       path_name, (unsigned long long)st.pkts, st.in_ifindex,
	       st.out_ifindex);
	/* an ACK naming a QP nobody paired: counted, on no entry */
	u0 = ctr(e, ROCEDP_CTR_QP_UNPAIRED);
	x = ack(2);
	x.qp = 0x777;
	send_at(e, t + 20 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(ctr(e, ROCEDP_CTR_QP_UNPAIRED) == u0 + 1 && st.acks == 1 &&
		       ctr(e, ROCEDP_CTR_QP_NEW) == 1,
	       "[%s] an unpaired ACK is counted as qp_unpaired and creates no entry",
	       path_name);
	rd_engine_close(e);
}

static void test_rtt_and_wait(void)
{
	struct rd_engine *e = engine(cfg_on);
	struct rocedp_qp_stat st;
	uint64_t t = T0;
	struct tx x;

	if (!result(e != NULL, "[%s] rtt: engine loaded", path_name))
		return;
	x = req(0, true);
	send_at(e, t, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.unacked_ns == t && st.unacked_psn == 0,
	       "[%s] a request starts the ACK wait (%llu, psn %u)", path_name,
	       (unsigned long long)st.unacked_ns, st.unacked_psn);
	x = ack(0);
	send_at(e, t + 30 * US, &x);
	t += 100 * US;
	x = req(1, true);
	send_at(e, t, &x);
	x = ack(1);
	send_at(e, t + 50 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	/* EWMA with shift 3: 30 + (50 - 30) / 8 */
	result(st.rtt_samples == 2 && st.rtt_min_ns == 30 * US &&
		       st.rtt_ewma_ns == 32500 && st.unacked_ns == 0 &&
		       st.acks == 2 && st.stalls == 0,
	       "[%s] RTT samples 30 and 50 us: min %llu ns, EWMA %llu ns (want 30000, 32500), %llu samples, wait cleared",
	       path_name, (unsigned long long)st.rtt_min_ns,
	       (unsigned long long)st.rtt_ewma_ns,
	       (unsigned long long)st.rtt_samples);
	/* four requests out, the first two answered: the wait restarts */
	t += 100 * US;
	send_req(e, &t, 2);
	send_req(e, &t, 3);
	send_req(e, &t, 4);
	send_req(e, &t, 5);
	x = ack(3);
	send_at(e, t + 20 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.unacked_psn == 4 && st.unacked_ns == t + 20 * US,
	       "[%s] ACK of 3 with 2..5 out: the wait is now for PSN 4, from the ACK (psn %u)",
	       path_name, st.unacked_psn);
	/* no answer for 2 ms (threshold 1 ms): go-back-N from 4 */
	t += 2000 * US;
	send_req(e, &t, 4);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.stalls == 1 && (st.flags & ROCEDP_QPF_STALLED) &&
		       st.rewinds == 1,
	       "[%s] a retransmission 2 ms into the wait: 1 stall, flagged, 1 rewind (stalls %llu flags 0x%x)",
	       path_name, (unsigned long long)st.stalls, st.flags);
	send_req(e, &t, 5);
	x = ack(5);
	send_at(e, t + 30 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.stalls == 1 && (st.flags & ROCEDP_QPF_STALLED) &&
		       st.unacked_ns == 0,
	       "[%s] the stalled wait ends: still 1 stall, still flagged, nothing waits",
	       path_name);
	t += 100 * US;
	x = req(6, true);
	send_at(e, t, &x);
	x = ack(6);
	send_at(e, t + 30 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.stalls == 1 && !(st.flags & ROCEDP_QPF_STALLED),
	       "[%s] a wait under the threshold clears the flag (stalls %llu flags 0x%x)",
	       path_name, (unsigned long long)st.stalls, st.flags);
	rd_engine_close(e);
}

/* during a go-back-N replay, requests above the answered one are still out */
static void test_wait_replay(void)
{
	static const uint32_t psn[] = { 0, 1, 2, 3, 4, 5, 2 };
	struct rd_engine *e = engine(cfg_on);
	struct rocedp_qp_stat st;
	uint64_t t;
	unsigned int i;
	struct tx x;

	if (!result(e != NULL, "[%s] replay wait: engine loaded", path_name))
		return;
	t = pair_up(e, ROCEDP_PSN_MASK); /* 0 follows it */
	for (i = 0; i < sizeof(psn) / sizeof(psn[0]); i++)
		send_req(e, &t, psn[i]);
	x = ack(2);
	send_at(e, t + 10 * US, &x);
	qp_get(e, A, B, RSP_QP, &st);
	result(st.rewinds == 1 && st.unacked_psn == 3 &&
		       st.unacked_ns == t + 10 * US,
	       "[%s] 0..5 sent, back to 2, ACK of 2: the wait goes on for 3 (psn %u, since %llu)",
	       path_name, st.unacked_psn, (unsigned long long)st.unacked_ns);
	rd_engine_close(e);
}

static uint64_t port_sum(struct rd_engine *e, uint32_t ifindex, int tx, int cls)
{
	int n = libbpf_num_possible_cpus(), i;
	struct rocedp_port_stats *v;
	uint64_t sum = 0;

	if (n <= 0)
		return ~0ull;
	v = calloc(n, sizeof(*v));
	if (!v)
		return ~0ull;
	if (bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_STATS],
				&ifindex, v)) {
		free(v);
		return ~0ull;
	}
	for (i = 0; i < n; i++)
		sum += tx ? v[i].tx_class[cls] : v[i].rx_class[cls];
	free(v);
	return sum;
}

static void test_ports(void)
{
	struct rocedp_port_cfg pc = { .rate_bps = 1000000000ull,
				      .kmin_bytes = 1 << 20,
				      .kmax_bytes = 2 << 20,
				      .pmax_percent = 10 };
	struct rd_engine *e = engine(cfg_on);
	uint32_t port = OUT_PORT, len = 0, i;
	uint64_t hwm = 0;
	struct tx x;

	if (!result(e != NULL, "[%s] ports: engine loaded", path_name))
		return;
	bpf_map_update_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_CFG], &port, &pc,
			    BPF_ANY);
	/* three requests at one instant: the queue holds all three */
	for (i = 0; i < 3; i++) {
		x = req(i, false);
		len += send_at(e, T0, &x);
	}
	x = ack(2);
	send_at(e, T0 + US, &x);
	bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_HWM], &port,
			    &hwm);
	result(hwm == len,
	       "[%s] the virtual queue's high-water mark is the 3 frames' %u bytes (%llu)",
	       path_name, len, (unsigned long long)hwm);
	result(port_sum(e, IN_IFINDEX, 0, ROCEDP_CLASS_DATA) == 3 &&
		       port_sum(e, IN_IFINDEX, 0, ROCEDP_CLASS_ACK) == 1 &&
		       port_sum(e, OUT_PORT, 1, ROCEDP_CLASS_DATA) == 3 &&
		       port_sum(e, OUT_PORT, 1, ROCEDP_CLASS_ACK) == 1,
	       "[%s] frames per class: 3 data + 1 ack in on port %d, out on port %d",
	       path_name, IN_IFINDEX, OUT_PORT);
	rd_engine_close(e);
}

/* IPv6: the same rules, the key's family AF_INET6 and its 16-byte addresses */
static void test_ipv6(void)
{
	static const uint32_t psn[] = { 10, 11, 13, 12 };
	struct rd_engine *e = engine(cfg_on);
	struct rocedp_qp_stat st, st4;
	unsigned int i;
	struct tx x;
	int err;

	if (!result(e != NULL, "[%s] ipv6: engine loaded", path_name))
		return;
	for (i = 0; i < 4; i++) {
		x = req(psn[i], false);
		x.v6 = true;
		send_at(e, T0 + i * US, &x);
	}
	err = qp_get_af(e, true, A, B, RSP_QP, &st);
	result(!err && st.req_pkts == 4 && st.gaps == 1 && st.gap_psns == 1 &&
		       st.rewinds == 1 && qp_get(e, A, B, RSP_QP, &st4) != 0,
	       "[%s] IPv6 requests 10, 11, 13, 12 under an AF_INET6 key: 1 gap, 1 rewind (req %llu gaps %llu rewinds %llu)",
	       path_name, (unsigned long long)st.req_pkts,
	       (unsigned long long)st.gaps, (unsigned long long)st.rewinds);
	rd_engine_close(e);
}

static __u32 set_of(uint32_t src, uint32_t dst, uint32_t qp)
{
	__u32 a[4] = { htonl(src) }, b[4] = { htonl(dst) };

	return rocedp_qp_set_of(a, b, qp);
}

/*
 * The bounded table: three QPs of one set (2 ways). The third takes the
 * way idle longest; the other QP keeps its counts; the reader's walk
 * finds both live entries and nothing of the replaced one.
 */
static void test_table(void)
{
	struct rd_engine *e = engine(cfg_on);
	uint32_t qp[3] = { RSP_QP }, q, n = 1;
	struct rocedp_qp_stat s0, s1, s2;
	struct rd_qp_snap snap = {};
	struct tx x;
	int err;

	if (!result(e != NULL, "[%s] table: engine loaded", path_name))
		return;
	for (q = RSP_QP + 1; n < 3 && q < RSP_QP + 1000000; q++)
		if (set_of(A, B, q) == set_of(A, B, RSP_QP))
			qp[n++] = q;
	x = req(1, false);
	send_at(e, T0, &x); /* qp[0] */
	x.qp = qp[1];
	send_at(e, T0 + US, &x);
	x.qp = qp[0];
	x.psn = 2;
	send_at(e, T0 + 2 * US, &x); /* qp[1] is now the idlest */
	x.qp = qp[2];
	x.psn = 1;
	send_at(e, T0 + 3 * US, &x);
	err = qp_get(e, A, B, qp[0], &s0) || qp_get(e, A, B, qp[2], &s2);
	result(n == 3 && !err && s0.req_pkts == 2 && s2.req_pkts == 1 &&
		       s2.first_ns == T0 + 3 * US &&
		       qp_get(e, A, B, qp[1], &s1) != 0 &&
		       ctr(e, ROCEDP_CTR_QP_NEW) == 3 &&
		       ctr(e, ROCEDP_CTR_QP_REPLACED) == 1,
	       "[%s] a third QP in a full set replaces the idlest way (new %llu, replaced %llu)",
	       path_name, (unsigned long long)ctr(e, ROCEDP_CTR_QP_NEW),
	       (unsigned long long)ctr(e, ROCEDP_CTR_QP_REPLACED));
	/*
	 * qp[1] again. With the decision cache on, its flow's entry still
	 * names the slot qp[2] took: the hint must fail its key check, and
	 * qp[1] take the idlest way (qp[0]'s) as a new QP.
	 */
	x.qp = qp[1];
	x.psn = 5;
	send_at(e, T0 + 4 * US, &x);
	err = qp_get(e, A, B, qp[1], &s1) || qp_get(e, A, B, qp[2], &s2);
	result(!err && s1.req_pkts == 1 && s1.first_ns == T0 + 4 * US &&
		       s2.req_pkts == 1 && qp_get(e, A, B, qp[0], &s0) != 0 &&
		       ctr(e, ROCEDP_CTR_QP_REPLACED) == 2 &&
		       (!cached || ctr(e, ROCEDP_CTR_FWD_CACHE_HIT) >= 2),
	       "[%s] the replaced QP again: a new entry in the idlest way, the QP that took its slot untouched (replaced %llu, cache hits %llu)",
	       path_name, (unsigned long long)ctr(e, ROCEDP_CTR_QP_REPLACED),
	       (unsigned long long)ctr(e, ROCEDP_CTR_FWD_CACHE_HIT));
	err = rd_qps_read(rd_engine_maps(e), &snap);
	result(!err && snap.n == 2 &&
		       ((snap.qps[0].key.dqp == qp[1] &&
			 snap.qps[1].key.dqp == qp[2]) ||
			(snap.qps[0].key.dqp == qp[2] &&
			 snap.qps[1].key.dqp == qp[1])),
	       "[%s] the reader walks every slot: the 2 live QPs (%zu read)",
	       path_name, snap.n);
	rd_qps_free(&snap);
	rd_engine_close(e);
}

/* off by default: no entry, no pairing work */
static void test_off(void)
{
	struct rd_engine *e = engine(cfg_off);
	struct rocedp_qp_stat st;
	uint64_t t = T0;

	if (!result(e != NULL, "[%s] off: engine loaded", path_name))
		return;
	send_req(e, &t, 1);
	send_req(e, &t, 3);
	result(qp_get(e, A, B, RSP_QP, &st) != 0 &&
		       ctr(e, ROCEDP_CTR_QP_NEW) == 0,
	       "[%s] without the telemetry feature no QP entry is made",
	       path_name);
	rd_engine_close(e);
}

static void run_all(void)
{
	test_psn_rules();
	test_reads();
	test_answers();
	test_rtt_and_wait();
	test_wait_replay();
	test_ports();
	test_ipv6();
	test_table();
	test_off();
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	run_all();
	cached = true;
	path_name = "express, decision cache";
	run_all();
	cached = false;
	general = true;
	path_name = "general";
	run_all();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
