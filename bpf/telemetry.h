/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Per-QP health telemetry (ROCEDP_F_TELEMETRY; docs/telemetry.md): one
 * rd_qps entry per request stream (source, destination, destination QP),
 * created by its first request. Requests update the PSN stream (gaps,
 * rewinds, duplicates) and start the ACK wait; responses (ACK, NAK, read
 * response, CNP) name the requester's QP and reach the entry through the
 * QP pairing that rtt.h learns, never by guessing.
 *
 * Entries are shared by the CPUs without atomics: a QP's requests arrive
 * on one receive queue (RSS hashes its 5-tuple), so its counts are exact
 * there; a response handled on another CPU at the same instant may lose
 * an update of the wait fields, never crash or block.
 *
 * A slot can be taken over by another stream while a CPU works on it. The
 * taker clears the key's family word first and writes it last; a request
 * works its PSN step out on copies and checks the key again before it
 * stores anything, so a slot taken over before that check never receives
 * the old stream's request PSN state or counts (the frame is then counted
 * nowhere). What can still go wrong: a take-over that starts in the few
 * instructions between that check and the stores (no call or loop in
 * between) can get that one frame's update in its fresh entry; responses
 * (ACK, NAK, CNP, read responses) are not checked, so one arriving during
 * a take-over may land its wait, answer or read-response PSN fields in the
 * new stream's entry. tests/race_test.c replays the take-over at each step.
 */
#ifndef ROCEDP_TELEMETRY_H
#define ROCEDP_TELEMETRY_H

#include "rtt.h"
#include "flowlet.h"
#include "clock.h"

#define RD_PSN_HALF (1u << 23)
#define RD_AF_INET 2 /* <sys/socket.h>, which BPF programs do not include */
#define RD_AF_INET6 10

static __always_inline int rd_tel_on(const struct rocedp_config *cfg)
{
	return cfg->features & ROCEDP_F_TELEMETRY;
}

/*
 * Frames rtt.h acts on (requests with AckReq, ACKs), when something
 * needs them: the flowlet gap from the RTT, or telemetry (its samples and
 * the QP pairing that attributes responses). The call costs a few ns a
 * frame, so other frames skip it.
 */
static __always_inline int rd_rtt_wanted(const struct rd_flow *fl,
					 const struct rocedp_config *cfg)
{
	if (!fl->is_roce || fl->malformed ||
	    !(fl->ack_req || fl->cls == ROCEDP_CLASS_ACK))
		return 0;
	return rd_tel_on(cfg) ||
	       (rd_flowlets_on(cfg) &&
		(cfg->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP));
}

/* (a - b) mod 2^24: below RD_PSN_HALF means a is at or after b */
static __always_inline __u32 rd_psn_sub(__u32 a, __u32 b)
{
	return (a - b) & ROCEDP_PSN_MASK;
}

enum rd_psn_step {
	RD_PSN_FIRST, /* no expectation yet (or resynchronised) */
	RD_PSN_IN_ORDER,
	RD_PSN_GAP, /* ahead of every PSN seen: *skipped were never seen */
	RD_PSN_SKIP, /* ahead of the expected one, over PSNs seen before */
	RD_PSN_DUP, /* the previous PSN again */
	RD_PSN_REWIND, /* behind: the stream goes back (go-back-N) */
};

/*
 * One PSN of a stream against the expected next one (*next) and one past
 * the highest seen (*high), both | ROCEDP_QP_PSN_VALID. resync: a jump
 * ahead is not loss (the PSNs a read request took, a new read's
 * responses). The rules, with examples, are in docs/telemetry.md.
 */
static __always_inline int rd_psn_step(__u32 *next, __u32 *high, __u32 psn,
				       int resync, __u32 *skipped)
{
	__u32 e = *next, hi = *high, nx = (psn + 1) & ROCEDP_PSN_MASK;
	__u32 d, dh;

	psn &= ROCEDP_PSN_MASK;
	if (!(e & ROCEDP_QP_PSN_VALID) || !(hi & ROCEDP_QP_PSN_VALID)) {
		*next = nx | ROCEDP_QP_PSN_VALID;
		*high = nx | ROCEDP_QP_PSN_VALID;
		return RD_PSN_FIRST;
	}
	e &= ROCEDP_PSN_MASK;
	hi &= ROCEDP_PSN_MASK;
	d = rd_psn_sub(psn, e);
	if (d >= RD_PSN_HALF) {
		if (psn == ((e - 1) & ROCEDP_PSN_MASK))
			return RD_PSN_DUP;
		*next = nx | ROCEDP_QP_PSN_VALID;
		return RD_PSN_REWIND;
	}
	*next = nx | ROCEDP_QP_PSN_VALID;
	dh = rd_psn_sub(psn, hi);
	if (dh >= RD_PSN_HALF) /* still below the highest: a replay */
		return d ? RD_PSN_SKIP : RD_PSN_IN_ORDER;
	*high = nx | ROCEDP_QP_PSN_VALID;
	if (!d)
		return RD_PSN_IN_ORDER;
	if (!dh || resync)
		return RD_PSN_SKIP;
	*skipped = dh;
	return RD_PSN_GAP;
}

static __always_inline __u64 rd_tel_stall_ns(const struct rocedp_config *cfg)
{
	return (__u64)(cfg->qp_stall_us ?: ROCEDP_DEFAULT_QP_STALL_US) * 1000;
}

/* The running ACK wait, counted once as a stall when over the threshold. */
static __always_inline void rd_tel_stall_check(struct rocedp_qp_stat *q,
					       __u64 now, __u64 stall_ns)
{
	__u64 t = q->unacked_ns;

	if (t && now > t && now - t > stall_ns &&
	    !(q->flags & ROCEDP_QPF_STALL_COUNTED)) {
		q->stalls++;
		q->flags |= ROCEDP_QPF_STALLED | ROCEDP_QPF_STALL_COUNTED;
	}
}

/*
 * Every request up to and including PSN a is answered. The wait ends; if
 * requests after a are out, a new wait starts now (as the requester's
 * transport timer restarts on progress).
 */
static __always_inline void rd_tel_acked(struct rocedp_qp_stat *q, __u32 a,
					 __u64 now, __u64 stall_ns)
{
	__u32 last;

	a &= ROCEDP_PSN_MASK;
	if (!q->unacked_ns || rd_psn_sub(a, q->unacked_psn) >= RD_PSN_HALF)
		return; /* nothing waits, or an older answer */
	rd_tel_stall_check(q, now, stall_ns);
	/* a wait under the threshold clears the flag */
	if (!(q->flags & ROCEDP_QPF_STALL_COUNTED))
		q->flags &= ~ROCEDP_QPF_STALLED;
	q->flags &= ~ROCEDP_QPF_STALL_COUNTED;
	/* the highest PSN sent: after a rewind, those above it are out too */
	last = (q->high_psn - 1) & ROCEDP_PSN_MASK;
	if (rd_psn_sub(a, last) < RD_PSN_HALF) {
		q->unacked_ns = 0;
		q->unacked_psn = 0;
		return;
	}
	q->unacked_psn = (a + 1) & ROCEDP_PSN_MASK;
	q->unacked_ns = now;
}

/* Transport of a BTH opcode: 0 RC, 1 UC, 3 UD, 5 XRC (IBTA table 38). */
static __always_inline int rd_op_acked(__u8 op)
{
	return (op >> 5) == 0 || (op >> 5) == 5;
}

/* RC/XRC read responses: first 0x0d, middle, last, only 0x10 */
static __always_inline int rd_op_read_resp(__u8 op)
{
	__u8 fn = op & 0x1f;

	return rd_op_acked(op) && fn >= 0x0d && fn <= 0x10;
}

#define RD_OP_FN_READ_REQ 0x0c

static __always_inline int rd_qp_still(void *q, const struct rd_flow *fl,
				       int reverse, __u32 dqp);
static __always_inline void rd_tel_touch(struct rocedp_qp_stat *q,
					 const struct rd_flow *fl, __u64 now,
					 __u64 stall_ns);

/*
 * A request on its stream's entry: the PSN step worked out on copies,
 * then, only if the slot still holds the stream, every store. Returns 0
 * when the slot was taken over meanwhile (nothing stored).
 */
static __always_inline int rd_tel_request(struct rocedp_qp_stat *q,
					  const struct rd_flow *fl,
					  struct rd_plan *pl, __u64 now,
					  __u64 stall_ns)
{
	__u32 skipped = 0, t = fl->opcode >> 5, next, high, flags;
	int k = RD_PSN_FIRST, psn = t == 0 || t == 1 || t == 5;

	RD_RACE_POINT(RD_RACE_QP_FOUND);
	next = *(volatile __u32 *)&q->next_psn;
	high = *(volatile __u32 *)&q->high_psn;
	flags = *(volatile __u32 *)&q->flags;
	/* UD: one sender's PSNs go to many QPs, no order */
	if (psn)
		k = rd_psn_step(&next, &high, fl->psn,
				flags & ROCEDP_QPF_AFTER_READ, &skipped);
	RD_RACE_POINT(RD_RACE_QP_STEPPED);
	if (!rd_qp_still(q, fl, 0, fl->dest_qp))
		return 0;
	rd_tel_touch(q, fl, now, stall_ns);
	q->req_pkts++;
	q->in_ifindex = pl->in_ifindex;
	q->out_ifindex = pl->egress_ifindex;
	if ((pl->tos_out & 3) == 3)
		q->ce++;
	if (!psn)
		return 1;
	q->next_psn = next;
	q->high_psn = high;
	if (k == RD_PSN_GAP) {
		q->gaps++;
		q->gap_psns += skipped;
	} else if (k == RD_PSN_REWIND) {
		q->rewinds++;
	} else if (k == RD_PSN_DUP) {
		q->dups++;
	}
	if (t == 1)
		return 1; /* UC: nothing is acknowledged */
	/* a read request takes one PSN per response: the next request jumps */
	if ((fl->opcode & 0x1f) == RD_OP_FN_READ_REQ)
		q->flags |= ROCEDP_QPF_AFTER_READ;
	else if (k != RD_PSN_DUP)
		q->flags &= ~ROCEDP_QPF_AFTER_READ;
	if (!q->unacked_ns) {
		q->unacked_ns = rd_plan_clock(pl); /* a wait starts: exact */
		q->unacked_psn = fl->psn & ROCEDP_PSN_MASK;
		q->flags &= ~ROCEDP_QPF_STALL_COUNTED;
	}
	return 1;
}

/* A read response: its own PSN stream, and an answer to the requests. */
static __always_inline void rd_tel_read_resp(struct rocedp_qp_stat *q,
					     const struct rd_flow *fl,
					     __u64 now, __u64 stall_ns)
{
	__u8 fn = fl->opcode & 0x1f;
	__u32 skipped = 0;
	int k, starts = fn == 0x0d || fn == 0x10;

	q->resp_pkts++;
	k = rd_psn_step(&q->resp_psn, &q->resp_high_psn, fl->psn,
			starts || !(q->flags & ROCEDP_QPF_IN_READ), &skipped);
	if (k == RD_PSN_GAP)
		q->resp_gaps++;
	else if (k == RD_PSN_REWIND || k == RD_PSN_DUP)
		q->resp_rewinds++;
	if (fn == 0x0d || fn == 0x0e)
		q->flags |= ROCEDP_QPF_IN_READ;
	else
		q->flags &= ~ROCEDP_QPF_IN_READ;
	rd_tel_acked(q, fl->psn, now, stall_ns);
}

static __always_inline void rd_tel_sample(struct rocedp_qp_stat *q,
					  __u64 sample, __u32 shift)
{
	if (!q->rtt_min_ns || sample < q->rtt_min_ns)
		q->rtt_min_ns = sample ?: 1;
	q->rtt_ewma_ns = rd_rtt_ewma(q->rtt_ewma_ns, sample, shift);
	q->rtt_samples++;
}

/* ACK, NAK, CNP: the requester's acknowledgements and notifications. */
static __always_inline void rd_tel_answer(struct rocedp_qp_stat *q,
					  const struct rd_flow *fl,
					  const struct rocedp_config *cfg,
					  struct rd_scratch *sc, __u32 pair_qp,
					  __u64 now, __u64 stall_ns)
{
	__u32 nak = ROCEDP_QP_NAK_OTHER;

	if (fl->cls == ROCEDP_CLASS_CNP) {
		q->cnps++;
		return;
	}
	if (fl->cls == ROCEDP_CLASS_ACK) {
		q->acks++;
		if (sc->rtt_sample_ok && sc->rtt_sample_qp == pair_qp)
			rd_tel_sample(q, sc->rtt_sample_ns,
				      cfg->rtt_ewma_shift);
		sc->rtt_sample_ok = 0;
		rd_tel_acked(q, fl->psn, now, stall_ns);
		return;
	}
	if (fl->aeth_kind == ROCEDP_AETH_RNR_NAK)
		nak = ROCEDP_QP_NAK_RNR;
	else if (fl->aeth_code == ROCEDP_NAK_PSN_SEQ)
		nak = ROCEDP_QP_NAK_PSN_SEQ;
	else if (fl->aeth_code == ROCEDP_NAK_REMOTE_ACCESS)
		nak = ROCEDP_QP_NAK_REMOTE_ACCESS;
	else if (fl->aeth_code == ROCEDP_NAK_REMOTE_OP)
		nak = ROCEDP_QP_NAK_REMOTE_OP;
	if (nak < ROCEDP_QP_NAK_MAX)
		q->naks[nak]++;
	/* PSN sequence error and RNR NAK: everything before their PSN is done */
	if (nak == ROCEDP_QP_NAK_PSN_SEQ || nak == ROCEDP_QP_NAK_RNR)
		rd_tel_acked(q, fl->psn - 1, now, stall_ns);
}

/*
 * The key's five 64-bit words, from the parsed flow (reverse: a
 * response's addresses swapped back to the request's), so that a slot's
 * stored key is compared without building one in memory (or on the
 * stack, which the inlined express path cannot spare).
 */
static __always_inline __u64 rd_qp_kw(const struct rd_flow *fl, int reverse,
				      __u32 dqp, int i)
{
	if (i < 4)
		return rd_flow_addr_word(fl, reverse, i);
	/* dqp, then family (the ABI's AF_INET / AF_INET6) and zero padding */
	return (dqp & ROCEDP_PSN_MASK) |
	       (__u64)(fl->family == 6 ? RD_AF_INET6 : RD_AF_INET) << 32;
}

static __always_inline int rd_qp_kw_eq(const struct rocedp_qp_slot *q,
				       const struct rd_flow *fl, int reverse,
				       __u32 dqp)
{
	const __u64 *w = (const __u64 *)&q->key;

	return !((w[0] ^ rd_qp_kw(fl, reverse, dqp, 0)) |
		 (w[1] ^ rd_qp_kw(fl, reverse, dqp, 1)) |
		 (w[2] ^ rd_qp_kw(fl, reverse, dqp, 2)) |
		 (w[3] ^ rd_qp_kw(fl, reverse, dqp, 3)) |
		 (w[4] ^ rd_qp_kw(fl, reverse, dqp, 4)));
}

/* The slot a stream's stat lives in. */
static __always_inline struct rocedp_qp_slot *rd_qp_slot_of(void *q)
{
	return (struct rocedp_qp_slot *)((char *)q -
					 __builtin_offsetof(
						 struct rocedp_qp_slot, st));
}

/*
 * Does the slot still hold the stream? The family word first: a taker
 * clears it before anything else and writes it last, so a match of it
 * and then of the addresses is the stream's key, not a mix.
 */
static __always_inline int rd_qp_still(void *q, const struct rd_flow *fl,
				       int reverse, __u32 dqp)
{
	volatile __u64 *w = (volatile __u64 *)&rd_qp_slot_of(q)->key;
	__u64 fam;

	asm volatile("" ::: "memory");
	fam = w[4];
	asm volatile("" ::: "memory");
	return !((fam ^ rd_qp_kw(fl, reverse, dqp, 4)) |
		 (w[0] ^ rd_qp_kw(fl, reverse, dqp, 0)) |
		 (w[1] ^ rd_qp_kw(fl, reverse, dqp, 1)) |
		 (w[2] ^ rd_qp_kw(fl, reverse, dqp, 2)) |
		 (w[3] ^ rd_qp_kw(fl, reverse, dqp, 3)));
}

static __always_inline struct rocedp_qp_slot *rd_qp_slot(__u32 i)
{
	return bpf_map_lookup_elem(&rd_qps, &i);
}

/*
 * The stream's slot: way 0 or 1 of its set, its index in *at. create
 * (requests only): on a miss, the empty way or else the one idle longest
 * is taken over.
 */
static __always_inline struct rocedp_qp_stat *
rd_tel_slot(const struct rd_flow *fl, int reverse, __u32 dqp, int create,
	    __u64 now, __u32 *at)
{
	struct rocedp_qp_slot *a, *b, *v;
	__u32 i;
	__u64 *w;

	i = rocedp_qp_set_of(reverse ? fl->dst : fl->src,
			     reverse ? fl->src : fl->dst, dqp) *
	    ROCEDP_QP_WAYS;
	*at = i;
	a = rd_qp_slot(i);
	if (!a)
		return NULL;
	if (rd_qp_kw_eq(a, fl, reverse, dqp))
		return &a->st;
	*at = i + 1;
	b = rd_qp_slot(i + 1);
	if (!b)
		return NULL;
	if (rd_qp_kw_eq(b, fl, reverse, dqp))
		return &b->st;
	if (!create)
		return NULL;
	if (!a->key.family)
		v = a;
	else if (!b->key.family)
		v = b;
	else
		v = a->st.last_ns <= b->st.last_ns ? a : b;
	*at = v == a ? i : i + 1;
	if (v->key.family)
		rd_count(ROCEDP_CTR_QP_REPLACED);
	rd_count(ROCEDP_CTR_QP_NEW);
	w = (__u64 *)&v->key;
	/* the old stream's readers see the slot gone before it changes */
	*(volatile __u64 *)&w[4] = 0;
	asm volatile("" ::: "memory");
	__builtin_memset(&v->st, 0, sizeof(v->st));
	v->st.first_ns = now;
	w[0] = rd_qp_kw(fl, reverse, dqp, 0);
	w[1] = rd_qp_kw(fl, reverse, dqp, 1);
	w[2] = rd_qp_kw(fl, reverse, dqp, 2);
	w[3] = rd_qp_kw(fl, reverse, dqp, 3);
	asm volatile("" ::: "memory");
	*(volatile __u64 *)&w[4] = rd_qp_kw(fl, reverse, dqp, 4);
	return &v->st;
}

/* data and CTS frames that are not read responses: a stream's requests */
static __always_inline int rd_tel_is_request(const struct rd_flow *fl)
{
	return (fl->cls == ROCEDP_CLASS_DATA || fl->cls == ROCEDP_CLASS_CTS) &&
	       !rd_op_read_resp(fl->opcode);
}

/* Every frame counted on an entry. */
static __always_inline void rd_tel_touch(struct rocedp_qp_stat *q,
					 const struct rd_flow *fl, __u64 now,
					 __u64 stall_ns)
{
	q->pkts++;
	q->bytes += fl->frame_len;
	q->last_ns = now;
	rd_tel_stall_check(q, now, stall_ns);
}

/*
 * A request's entry. e: the flow's decision cache entry (express path),
 * whose hint names the slot the stream was last found in. The slot's key
 * is checked as the table's lookup would (another QP may have taken it),
 * so a hint only saves the set's hash and the second way; a stale or
 * missing one takes the lookup and is rewritten. Measured: 2 ns a request
 * (docs/bench-history.md).
 */
static __always_inline struct rocedp_qp_stat *
rd_tel_request_slot(const struct rd_flow *fl, struct rd_fc_ent *e, __u64 now)
{
	struct rocedp_qp_slot *s;
	struct rocedp_qp_stat *q;
	__u32 at;

	if (e && e->qp_ref) {
		s = rd_qp_slot(e->qp_ref - 1);
		if (s && rd_qp_kw_eq(s, fl, 0, fl->dest_qp))
			return &s->st;
	}
	q = rd_tel_slot(fl, 0, fl->dest_qp, 1, now, &at);
	if (q && e)
		e->qp_ref = at + 1;
	return q;
}

/*
 * A request, on its stream's entry (created by the first one). Most
 * requests need no exact time: last-seen only ages the entry, and a stall
 * is also checked by the answer that ends it, with the exact time. The
 * tick clock lags, so it can count a stall late, never one that is not.
 */

static __always_inline int rd_tel_on_request(const struct rd_flow *fl,
					     struct rd_plan *pl,
					     const struct rocedp_config *cfg,
					     const int express)
{
	__u64 now = pl->now ?: rd_now_tick();
	struct rocedp_qp_stat *q =
		rd_tel_request_slot(fl, express ? pl->fc : NULL, now);

	if (!q)
		return 0;
	return rd_tel_request(q, fl, pl, now, rd_tel_stall_ns(cfg));
}

/*
 * After the forwarding decision (egress port and CE known): every RoCE
 * frame when the feature is on. Returns 1 when counted on an entry.
 */
__attribute__((noinline)) int rd_tel_observe(struct rd_flow *fl,
					     struct rd_plan *pl)
{
	struct rocedp_config *cfg = rd_config_get();
	struct rocedp_rtt_pair *pr;
	struct rocedp_qp_stat *q = NULL;
	struct rd_scratch *sc;
	__u64 now, stall_ns;
	__u32 pair_qp, at;

	if (!fl || !pl || !cfg || fl->malformed || !fl->is_roce)
		return 0;
	if (rd_tel_is_request(fl))
		return rd_tel_on_request(fl, pl, cfg, 0);
	if (fl->cls != ROCEDP_CLASS_ACK && fl->cls != ROCEDP_CLASS_NAK &&
	    fl->cls != ROCEDP_CLASS_CNP && !rd_op_read_resp(fl->opcode))
		return 0; /* roce_other: no stream to put it on */
	sc = rd_scratch_get();
	if (!sc)
		return 0;
	now = rd_plan_clock(pl);
	stall_ns = rd_tel_stall_ns(cfg);
	/* the pairing is keyed from the requester's side */
	rd_rtt_key(&sc->rtt_key, fl, 1);
	pr = rd_rtt_pair_resp(sc, fl->dest_qp & ROCEDP_RTT_QP_MASK, fl->sport,
			      now);
	pair_qp = pr ? pr->qp & ROCEDP_PSN_MASK : 0;
	if (pr)
		q = rd_tel_slot(fl, 1, pair_qp, 0, now, &at);
	if (!q) {
		rd_count(ROCEDP_CTR_QP_UNPAIRED);
		return 0;
	}
	rd_tel_touch(q, fl, now, stall_ns);
	if (rd_op_read_resp(fl->opcode))
		rd_tel_read_resp(q, fl, now, stall_ns);
	else
		rd_tel_answer(q, fl, cfg, sc, pair_qp, now, stall_ns);
	return 1;
}

/*
 * The express path counts the usual frame, a request, inline (no call, no
 * second config lookup: about 9 ns); responses take the call, whose
 * pairing lookup costs more anyway.
 */
static __always_inline void rd_tel_frame(struct rd_flow *fl, struct rd_plan *pl,
					 const struct rocedp_config *cfg,
					 const int express)
{
	if (express && !fl->malformed && rd_tel_is_request(fl))
		rd_tel_on_request(fl, pl, cfg, 1);
	else
		rd_tel_observe(fl, pl);
}

#endif
