/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * In-network RTT: a data frame that requests an ACK is remembered, the ACK
 * for its PSN on the reverse path closes the sample. The EWMA is kept on
 * the port the data arrived on, so `--gap auto` can follow the RTT its
 * flows actually see.
 *
 * QPs between two hosts share PSNs (NCCL starts every QP at 0), and the
 * two directions name different QPs: a request the responder's, its ACK
 * the requester's. Pending requests sit in one entry per (requester,
 * responder, PSN) with a slot per responder QP (and the request's UDP
 * source port), and an ACK is matched:
 *   1. through the pairing requester QP -> responder QP, once learned;
 *   2. else by the UDP source ports, when exactly one candidate slot fits
 *      an endpoint rule (rd_rtt_port_rule) and no other live request
 *      shares its port: the ports tie the ACK's QP to the request's, so
 *      lock-stepped QPs pair on their first ACK;
 *   3. else when exactly one live slot can be its and no request went
 *      unrecorded; candidates are the live slots not paired with another
 *      requester QP. Rules 2 and 3 teach the pairing;
 *   4. else not at all (counted ambiguous): no sample beats a wrong one.
 * A request sent again while pending is marked and its ACK gives no
 * sample (Karn). Requests older than ROCEDP_RTT_MAX_AGE_NS are dead.
 * Slots are claimed and released by compare-and-swap, so two CPUs never
 * take one slot, and one request gives at most one sample.
 */
#ifndef ROCEDP_RTT_H
#define ROCEDP_RTT_H

#include "parse.h"
#include "load.h"
#include "counters.h"

static __always_inline void rd_rtt_key(struct rocedp_rtt_key *k,
				       const struct rd_flow *p, int reverse)
{
	__builtin_memcpy(k->requester, reverse ? p->dst : p->src, 16);
	__builtin_memcpy(k->responder, reverse ? p->src : p->dst, 16);
	k->psn = p->psn;
	k->family = p->family;
}

/* The EWMA moved by 2^-shift of the way to sample; 0 = none yet. */
static __always_inline __u64 rd_rtt_ewma(__u64 ewma, __u64 sample, __u32 shift)
{
	shift &= 15;
	if (!ewma)
		return sample;
	if (sample >= ewma)
		return ewma + ((sample - ewma) >> shift);
	return ewma - ((ewma - sample) >> shift);
}

static __always_inline int rd_rtt_live(const struct rocedp_rtt_slot *s,
				       __u64 qpf, __u64 now)
{
	return (qpf & ROCEDP_RTT_QPF_VALID) &&
	       now - s->sent_ns <= ROCEDP_RTT_MAX_AGE_NS;
}

static __always_inline void rd_rtt_pair_key(struct rocedp_rtt_pair_key *pk,
					    const struct rocedp_rtt_key *k,
					    __u32 qp, __u8 dir)
{
	__builtin_memcpy(pk->requester, k->requester, 16);
	__builtin_memcpy(pk->responder, k->responder, 16);
	pk->qp = qp;
	pk->family = k->family;
	pk->dir = dir;
	pk->pad = 0; /* the key is all 40 bytes; its slot is reused */
}

/*
 * Keys and new entries live in the per-CPU scratch (maps.h: the stack of
 * 6.1's deepest call chain has no room for them); k is sc->rtt_key.
 */

/* The pairing of qp (dir 0: requester QP, 1: responder QP), or NULL. */
static __always_inline struct rocedp_rtt_pair *
rd_rtt_pair_get(struct rd_scratch *sc, __u32 qp, __u8 dir, __u64 now)
{
	struct rocedp_rtt_pair_key *pk = &sc->pair_key;
	struct rocedp_rtt_pair *v;

	rd_rtt_pair_key(pk, &sc->rtt_key, qp, dir);
	v = bpf_map_lookup_elem(&rd_rtt_pairs, pk);
	if (v && now - v->seen_ns > ROCEDP_RTT_PAIR_TTL_NS)
		return NULL;
	return v;
}

static __always_inline void rd_rtt_pair_set(struct rd_scratch *sc, __u32 qp,
					    __u8 dir, __u32 peer, __u64 now)
{
	struct rocedp_rtt_pair_key *pk = &sc->pair_key;
	const struct rocedp_rtt_key *k = &sc->rtt_key;
	struct rocedp_rtt_pair *v = &sc->pair_new, *old;

	rd_rtt_pair_key(pk, k, qp, dir);
	/* qp's former peer no longer points back at it: RC pairs are 1:1 */
	old = bpf_map_lookup_elem(&rd_rtt_pairs, pk);
	if (old && old->qp != peer) {
		rd_rtt_pair_key(pk, k, old->qp, !dir);
		bpf_map_delete_elem(&rd_rtt_pairs, pk);
		rd_rtt_pair_key(pk, k, qp, dir);
	}
	v->seen_ns = now;
	v->qp = peer;
	v->pad = 0;
	bpf_map_update_elem(&rd_rtt_pairs, pk, v, BPF_ANY);
}

/*
 * The UDP source port RoCEv2 endpoints give a connection's frames:
 *  - ib_core's rdma_get_udp_sport without a flow label (mlx5 and other
 *    RNICs, and Soft-RoCE since it adopted it): rdma_calc_flow_label(lqpn,
 *    rqpn), symmetric in the two QPNs, folded to 14 bits, so a request and
 *    its ACK carry the same port;
 *  - Soft-RoCE before that: 0xC000 + hash_32(local QPN, 14), so the
 *    request's port is a function of the requester QP (the one its ACK
 *    names) and the ACK's a function of the responder QP (the request's).
 */
static __always_inline __u16 rd_rtt_sym_port(__u32 a, __u32 b)
{
	__u64 v = (__u64)a * b;
	__u32 fl;

	v ^= v >> 20;
	v ^= v >> 40;
	fl = v & 0xfffff; /* the 20-bit flow label */
	return 0xc000 | ((fl & 0x3fff) ^ (fl >> 14));
}

static __always_inline __u16 rd_rtt_rxe_port(__u32 qpn)
{
	return 0xc000 |
	       ((__u32)(qpn * 0x61c88647u) >> 18); /* hash_32(qpn, 14) */
}

enum rd_rtt_rule {
	RD_RTT_BY_NONE,
	RD_RTT_BY_ELIMINATION,
	RD_RTT_BY_SYM_PORT,
	RD_RTT_BY_RXE_PORT,
};

/*
 * Which source-port rule ties an ACK (requester QP a, port ack_port) to a
 * request (responder QP r, port req_port). Each rule checks both ports,
 * so endpoints of the other kind (or of neither) fit by chance only when
 * two 14-bit values collide at once; endpoints that follow a rule always
 * fit their own request, so a chance fit elsewhere makes the ACK
 * ambiguous, never mis-paired.
 */
static __always_inline int rd_rtt_port_rule(__u32 a, __u16 ack_port, __u32 r,
					    __u16 req_port)
{
	__u16 sym = rd_rtt_sym_port(a, r);

	if (ack_port == sym && req_port == sym)
		return RD_RTT_BY_SYM_PORT;
	if (ack_port == rd_rtt_rxe_port(r) && req_port == rd_rtt_rxe_port(a))
		return RD_RTT_BY_RXE_PORT;
	return RD_RTT_BY_NONE;
}

/*
 * The pairing of requester QP a for a response (ACK, NAK, read response)
 * with UDP source port port, or NULL. A port that fits a rule for the
 * pair confirms it: the pairing is refreshed and outlives its TTL, so a
 * slow, lossy connection (few sampled ACKs) keeps its responses
 * attributed. Without a fit the TTL holds (QP numbers are reused).
 */
static __always_inline struct rocedp_rtt_pair *
rd_rtt_pair_resp(struct rd_scratch *sc, __u32 a, __u16 port, __u64 now)
{
	struct rocedp_rtt_pair_key *pk = &sc->pair_key;
	struct rocedp_rtt_pair *v;

	rd_rtt_pair_key(pk, &sc->rtt_key, a, 0);
	v = bpf_map_lookup_elem(&rd_rtt_pairs, pk);
	if (!v)
		return NULL;
	if (port == rd_rtt_sym_port(a, v->qp) ||
	    port == rd_rtt_rxe_port(v->qp)) {
		v->seen_ns = now;
		return v;
	}
	return now - v->seen_ns > ROCEDP_RTT_PAIR_TTL_NS ? NULL : v;
}

/*
 * Another live request of the entry carries slot i's source port: the
 * endpoints do not give each connection a port of its own (a NIC with one
 * fixed port, say), and ports prove nothing.
 */
static __always_inline int
rd_rtt_port_shared(const struct rocedp_rtt_pending *e, int i, __u64 now)
{
	int j;

	i &= ROCEDP_RTT_SLOTS - 1;
	for (j = 0; j < ROCEDP_RTT_SLOTS; j++)
		if (j != i && e->sport[j] == e->sport[i] &&
		    rd_rtt_live(&e->slot[j], e->slot[j].qpf, now))
			return 1;
	return 0;
}

/* A request with AckReq for responder QP qp (its own QP is not on the wire). */
static __always_inline void rd_rtt_request(struct rd_scratch *sc, __u32 qp,
					   __u16 sport, __u32 ifindex,
					   __u64 now)
{
	const struct rocedp_rtt_key *k = &sc->rtt_key;
	struct rocedp_rtt_pending *init = &sc->rtt_new, *e;
	struct rocedp_rtt_slot *s;
	__u64 old, want = (__u64)ifindex << 32 | ROCEDP_RTT_QPF_VALID | qp;
	int i, free = -1;

	e = bpf_map_lookup_elem(&rd_rtt_pend, k);
	if (!e) {
		__builtin_memset(init, 0, sizeof(*init));
		init->slot[0].sent_ns = now;
		init->slot[0].qpf = want;
		init->sport[0] = sport;
		if (!bpf_map_update_elem(&rd_rtt_pend, k, init, BPF_NOEXIST))
			return;
		/* another CPU created it meanwhile: take a slot in it */
		e = bpf_map_lookup_elem(&rd_rtt_pend, k);
		if (!e)
			return;
	}
	for (i = 0; i < ROCEDP_RTT_SLOTS; i++) {
		s = &e->slot[i];
		old = s->qpf;
		if (rd_rtt_live(s, old, now)) {
			if ((old & ROCEDP_RTT_QP_MASK) != qp)
				continue;
			/* sent again while pending: its ACK is ambiguous */
			if (!(old & ROCEDP_RTT_QPF_RETX))
				__sync_val_compare_and_swap(
					&s->qpf, old,
					old | ROCEDP_RTT_QPF_RETX);
			return;
		}
		if (free < 0 && !(old & ROCEDP_RTT_QPF_BUSY))
			free = i;
	}
	for (i = 0; i < ROCEDP_RTT_SLOTS; i++) {
		if (i < free)
			continue;
		s = &e->slot[i];
		old = s->qpf;
		if ((old & ROCEDP_RTT_QPF_BUSY) || rd_rtt_live(s, old, now))
			continue;
		/* busy while time and port are written: no ACK reads them */
		if (__sync_val_compare_and_swap(&s->qpf, old,
						ROCEDP_RTT_QPF_BUSY) != old)
			continue;
		s->sent_ns = now;
		e->sport[i & (ROCEDP_RTT_SLOTS - 1)] = sport;
		s->qpf = want;
		return;
	}
	/*
	 * More QPs pending this PSN than slots: unpaired ACKs are ambiguous.
	 * An unpaired QP takes a paired one's slot (that QP loses one sample),
	 * so lock-stepped QPs past the slots learn their pairing too.
	 */
	if (!rd_rtt_pair_get(sc, qp, 1, now)) {
		/* the new request waits in the scratch: fewer spills (6.1) */
		init->slot[0].sent_ns = now;
		init->slot[0].qpf = want;
		init->sport[0] = sport;
		for (i = 0; i < ROCEDP_RTT_SLOTS; i++) {
			old = e->slot[i].qpf;
			if (!(old & ROCEDP_RTT_QPF_VALID) ||
			    (old & ROCEDP_RTT_QPF_BUSY) ||
			    !rd_rtt_pair_get(sc, old & ROCEDP_RTT_QP_MASK, 1,
					     init->slot[0].sent_ns))
				continue;
			s = &e->slot[i];
			if (__sync_val_compare_and_swap(
				    &s->qpf, old, ROCEDP_RTT_QPF_BUSY) != old)
				continue;
			s->sent_ns = init->slot[0].sent_ns;
			e->sport[i & (ROCEDP_RTT_SLOTS - 1)] = init->sport[0];
			s->qpf = init->slot[0].qpf;
			break;
		}
	}
	e->full_ns = now;
	rd_count(ROCEDP_CTR_RTT_PEND_FULL);
}

/* The slot of a one-bit mask of slots (no ctz in BPF v1). */
static __always_inline int rd_rtt_bit_slot(__u32 bit)
{
	return bit == 1 ? 0 : bit == 2 ? 1 : bit == 4 ? 2 : 3;
}

/*
 * The slot an ACK from requester QP qp (source port port) closes, as
 * rule << 2 | slot (rule: how an unpaired ACK was matched, the pairing to
 * learn; 0 when the pairing was known), or -1 (counted when ambiguous or
 * too old). RD_RTT_LATE is added when the slot is past the age bound: the
 * ACK gives no sample, but a port rule's fit is a proof that does not age,
 * so it still teaches the pairing (under Soft-RoCE's slow emulated
 * endpoints most ACKs came later than the bound, and until one came in
 * time a lossy QP's NAKs were counted unpaired). Masks, not counters and
 * indexes: 6.1's stack is tight here.
 */
#define RD_RTT_LATE 0x40
static __always_inline int rd_rtt_match(struct rd_scratch *sc,
					struct rocedp_rtt_pending *e, __u32 qp,
					__u16 port, __u64 now)
{
	struct rocedp_rtt_pair *pr, *rev;
	/* cand: candidate slots, 0x10 a dead one seen; fit: slots a rule
	 * fits, the (last) rule << 4; late: the same for dead slots */
	__u32 cand = 0, fit = 0, late = 0;
	__u64 q;
	int i, r;

	pr = rd_rtt_pair_resp(sc, qp, port, now);
	for (i = 0; i < ROCEDP_RTT_SLOTS; i++) {
		q = e->slot[i].qpf;
		if (!(q & ROCEDP_RTT_QPF_VALID))
			continue;
		if (pr && (q & ROCEDP_RTT_QP_MASK) != pr->qp)
			continue;
		if (!rd_rtt_live(&e->slot[i], q, now)) {
			cand |= 0x10;
			r = pr ? 0 :
				 rd_rtt_port_rule(qp, port,
						  q & ROCEDP_RTT_QP_MASK,
						  e->sport[i]);
			if (r)
				late = (late & 0xf) | 1u << i | r << 4;
			continue;
		}
		if (pr) {
			pr->seen_ns = now;
			return i;
		}
		/* paired with another requester QP: not this ACK's */
		rev = rd_rtt_pair_get(sc, q & ROCEDP_RTT_QP_MASK, 1, now);
		if (rev && rev->qp != qp)
			continue;
		cand |= 1u << i;
		r = rd_rtt_port_rule(qp, port, q & ROCEDP_RTT_QP_MASK,
				     e->sport[i]);
		if (r)
			fit = (fit & 0xf) | 1u << i | r << 4;
	}
	if (!(cand & 0xf)) {
		if (cand)
			rd_count(ROCEDP_CTR_RTT_EXPIRED);
		/* one late fit whose port no live request shares: learn only */
		r = late & 0xf;
		if (r && !(r & (r - 1))) {
			i = rd_rtt_bit_slot(r);
			if (!rd_rtt_port_shared(e, i, now))
				return RD_RTT_LATE | (late >> 4) << 2 | i;
		}
		return -1;
	}
	cand &= 0xf;
	/* one fit (two would mean a chance fit: ambiguous) */
	r = fit & 0xf;
	if (r && !(r & (r - 1))) {
		i = rd_rtt_bit_slot(r);
		if (!rd_rtt_port_shared(e, i, now))
			return (fit >> 4) << 2 | i;
	}
	if ((cand & (cand - 1)) ||
	    (e->full_ns && now - e->full_ns <= ROCEDP_RTT_MAX_AGE_NS)) {
		rd_count(ROCEDP_CTR_RTT_AMBIGUOUS);
		return -1;
	}
	return RD_RTT_BY_ELIMINATION << 2 | rd_rtt_bit_slot(cand);
}

/*
 * Requests and ACKs in two global functions, each verified once and each
 * its own stack frame: one function holding both overflowed 6.1's 512
 * bytes along the ingress chain.
 */
__attribute__((noinline)) int rd_rtt_on_request(struct rd_flow *p,
						__u32 ifindex, __u64 now)
{
	struct rd_scratch *sc = rd_scratch_get();

	if (!p || !sc)
		return 0;
	rd_rtt_key(&sc->rtt_key, p, 0);
	rd_rtt_request(sc, p->dest_qp & ROCEDP_RTT_QP_MASK, p->sport, ifindex,
		       now);
	return 0;
}

__attribute__((noinline)) int rd_rtt_on_ack(struct rd_flow *p, __u64 now)
{
	struct rocedp_config *cfg;
	struct rocedp_rtt_pending *e;
	struct rocedp_port_state *st;
	struct rocedp_rtt_slot *s;
	struct rd_scratch *sc;
	__u64 sample, sent, qpf;
	int i, rule, late;

	cfg = rd_config_get();
	sc = rd_scratch_get();
	if (!p || !cfg || !sc)
		return 0;
	sc->rtt_sample_ok = 0; /* telemetry takes only this frame's sample */
	rd_rtt_key(&sc->rtt_key, p, 1);
	e = bpf_map_lookup_elem(&rd_rtt_pend, &sc->rtt_key);
	if (!e)
		return 0;
	i = rd_rtt_match(sc, e, p->dest_qp & ROCEDP_RTT_QP_MASK, p->sport, now);
	if (i < 0)
		return 0;
	rule = (i & ~RD_RTT_LATE) >> 2;
	late = i & RD_RTT_LATE;
	i &= ROCEDP_RTT_SLOTS - 1;
	s = &e->slot[i];
	qpf = s->qpf;
	sent = s->sent_ns;
	/* release it; a CPU that got there first took the sample */
	if (__sync_val_compare_and_swap(&s->qpf, qpf, 0) != qpf)
		return 0;
	if (rule) {
		rd_rtt_pair_set(sc, p->dest_qp & ROCEDP_RTT_QP_MASK, 0,
				qpf & ROCEDP_RTT_QP_MASK, now);
		rd_rtt_pair_set(sc, qpf & ROCEDP_RTT_QP_MASK, 1,
				p->dest_qp & ROCEDP_RTT_QP_MASK, now);
		rd_count(ROCEDP_CTR_RTT_PAIR_LEARNED);
		if (rule == RD_RTT_BY_SYM_PORT)
			rd_count(ROCEDP_CTR_RTT_PAIR_SYM_PORT);
		else if (rule == RD_RTT_BY_RXE_PORT)
			rd_count(ROCEDP_CTR_RTT_PAIR_RXE_PORT);
	}
	if (late) /* counted expired in rd_rtt_match */
		return 0;
	if (qpf & ROCEDP_RTT_QPF_RETX) {
		rd_count(ROCEDP_CTR_RTT_RETX);
		return 0;
	}
	sample = now > sent ? now - sent : 0;
	sc->rtt_sample_ns = sample;
	sc->rtt_sample_qp = qpf & ROCEDP_RTT_QP_MASK;
	sc->rtt_sample_ok = 1;
	st = rd_port_state_get(qpf >> 32);
	if (!st)
		return 0;
	st->rtt_ewma_ns =
		rd_rtt_ewma(st->rtt_ewma_ns, sample, cfg->rtt_ewma_shift);
	st->rtt_samples++;
	rd_count(ROCEDP_CTR_RTT_SAMPLES);
	return 1;
}

static __always_inline int rd_rtt_observe(struct rd_flow *p, __u32 ifindex,
					  __u64 now)
{
	if ((p->cls == ROCEDP_CLASS_DATA || p->cls == ROCEDP_CLASS_CTS) &&
	    p->ack_req)
		return rd_rtt_on_request(p, ifindex, now);
	if (p->cls == ROCEDP_CLASS_ACK)
		return rd_rtt_on_ack(p, now);
	return 0;
}

#endif
