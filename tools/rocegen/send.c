// SPDX-License-Identifier: GPL-2.0
/*
 * rocegen requester: RC RDMA WRITE messages on Q QPs per destination, paced
 * per QP and per port, go-back-N on NAK or timeout, DCQCN-like reaction to
 * CNPs.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "rocegen.h"
#include "log.h"
#include "icrc.h"

#define RG_BATCH 32
#define RG_RX_BUF 2048
/* DCQCN: alpha update period and the fast-recovery step count. */
#define RG_ALPHA_NS 55000ull
#define RG_FAST_RECOVERY 5
/* Pacing credit kept across idle time, so a QP does not burst after it. */
#define RG_PACE_SLACK_NS 20000ull

enum rg_qp_state { RG_QP_RUN, RG_QP_DONE, RG_QP_FAILED };

struct rg_sqp {
	int dst;
	struct rg_path path;
	uint32_t lqpn, rqpn, psn0;
	/* Packet indices since the first PSN (not wrapped). */
	uint64_t nxt, una, max_sent;
	double rate, target, alpha, rate_min; /* bit/s */
	uint64_t next_tx, last_cnp, last_alpha, last_inc;
	int inc_stage;
	uint64_t last_progress;
	int retries;
	enum rg_qp_state state;
	uint64_t done_ns;
	uint64_t frames, retx, acks, naks, cnps, cuts, timeouts, stray;
};

struct rg_sender {
	const struct rg_send_opts *o;
	struct rg_sqp *qp;
	int nqp;
	int fd;
	uint32_t pmtu; /* payload bytes per frame */
	uint64_t ppm; /* packets per message */
	uint64_t npkts; /* packets per QP */
	uint32_t run_id;
	double line; /* bit/s */
	uint64_t port_next;
	uint64_t first_tx; /* first transmissions, for --drop/--ce-every */
	int rr;
	struct rg_send_totals *t;
};

static uint32_t rg_sqp_psn(const struct rg_sqp *q, uint64_t idx)
{
	return (uint32_t)(q->psn0 + idx) & RG_PSN_MASK;
}

static void rg_put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

/* Frame for packet @idx of QP @q; returns its length. */
static size_t rg_sqp_frame(struct rg_sender *s, struct rg_sqp *q, uint64_t idx,
			   uint8_t tos, uint8_t *buf)
{
	uint64_t m = idx / s->ppm, k = idx % s->ppm;
	const struct rg_send_opts *o = s->o;
	struct rg_bth b = { .dqpn = q->rqpn, .psn = rg_sqp_psn(q, idx) };
	struct rg_path p = q->path;
	uint8_t reth[ROCEDP_RETH_LEN];
	size_t ext = 0, pay = s->pmtu;
	bool last = k == s->ppm - 1;

	if (s->ppm == 1)
		b.opcode = ROCEDP_OP_RC_WRITE_ONLY;
	else if (k == 0)
		b.opcode = ROCEDP_OP_RC_WRITE_FIRST;
	else if (last)
		b.opcode = ROCEDP_OP_RC_WRITE_LAST;
	else
		b.opcode = ROCEDP_OP_RC_WRITE_MIDDLE;
	if (last) {
		pay = o->msg - (s->ppm - 1) * s->pmtu;
		b.ackreq = true;
	}
	if (k == 0) {
		/* RETH: a made-up buffer address, run id as the R_Key. */
		rg_put64(reth, 0x10000000ull + m * o->msg);
		reth[8] = s->run_id >> 24;
		reth[9] = (s->run_id >> 16) & 0xff;
		reth[10] = (s->run_id >> 8) & 0xff;
		reth[11] = s->run_id & 0xff;
		reth[12] = (uint8_t)(o->msg >> 24);
		reth[13] = (o->msg >> 16) & 0xff;
		reth[14] = (o->msg >> 8) & 0xff;
		reth[15] = o->msg & 0xff;
		ext = sizeof(reth);
	}
	p.tos = tos;
	return rg_build(buf, &p, &b, reth, ext, pay);
}

static void rg_sqp_progress(struct rg_sender *s, struct rg_sqp *q,
			    uint64_t new_una, uint64_t now)
{
	if (new_una <= q->una)
		return;
	q->una = new_una;
	if (q->nxt < q->una)
		q->nxt = q->una;
	q->last_progress = now;
	q->retries = 0;
	if (q->una >= s->npkts && q->state == RG_QP_RUN) {
		q->state = RG_QP_DONE;
		q->done_ns = now;
	}
}

/* rg_finish: cut every QP's message count to the messages already begun
 * (the furthest QP's), so that a run stopped from outside still ends with
 * every frame acknowledged and both ends' counts comparable. */
static void rg_finish_now(struct rg_sender *s, uint64_t now)
{
	uint64_t end = 0;
	int i;

	for (i = 0; i < s->nqp; i++)
		if (s->qp[i].max_sent > end)
			end = s->qp[i].max_sent;
	end = (end + s->ppm - 1) / s->ppm * s->ppm;
	if (end < s->ppm)
		end = s->ppm;
	if (end >= s->npkts)
		return;
	s->npkts = end;
	for (i = 0; i < s->nqp; i++) {
		struct rg_sqp *q = &s->qp[i];

		if (q->nxt > end)
			q->nxt = end;
		if (q->una >= end && q->state == RG_QP_RUN) {
			q->state = RG_QP_DONE;
			q->done_ns = now;
		}
	}
}

static void rg_dcqcn_cut(struct rg_sender *s, struct rg_sqp *q, uint64_t now)
{
	double g = s->o->dcqcn_g, floor = fmax(s->line / 1000, 1e6);

	q->target = q->rate;
	q->rate = fmax(q->rate * (1 - q->alpha / 2), floor);
	q->alpha = (1 - g) * q->alpha + g;
	q->inc_stage = 0;
	q->last_cnp = now;
	q->last_alpha = now;
	q->last_inc = now;
	q->cuts++;
	if (q->rate < q->rate_min)
		q->rate_min = q->rate;
}

/*
 * Alpha decay and rate recovery while no CNP arrives. As at a DCQCN
 * reaction point, the timers run once the first CNP has engaged the rate
 * limiter: before it, alpha stays at its initial 1, so the first cut
 * halves the rate however late the first CNP comes.
 */
static void rg_dcqcn_timers(struct rg_sender *s, struct rg_sqp *q, uint64_t now)
{
	uint64_t period = (uint64_t)s->o->dcqcn_timer_us * 1000;

	if (!q->cuts)
		return;
	while (now - q->last_alpha >= RG_ALPHA_NS) {
		q->alpha *= 1 - s->o->dcqcn_g;
		q->last_alpha += RG_ALPHA_NS;
	}
	if (q->rate >= s->line)
		return;
	while (now - q->last_inc >= period && q->rate < s->line) {
		if (++q->inc_stage > RG_FAST_RECOVERY)
			q->target = fmin(s->line, q->target + s->line / 100);
		q->rate = fmin(s->line, (q->rate + q->target) / 2);
		q->last_inc += period;
	}
}

static struct rg_sqp *rg_find_qp(struct rg_sender *s, const struct rg_pkt *p)
{
	uint32_t i = p->bth.dqpn - s->o->qpn_base;
	struct rg_sqp *q;

	if (p->bth.dqpn < s->o->qpn_base || i >= (uint32_t)s->nqp)
		return NULL;
	q = &s->qp[i];
	if (!rg_addr_eq(&p->src, &q->path.dst))
		return NULL;
	return q;
}

static void rg_rx_frame(struct rg_sender *s, const uint8_t *buf, size_t len,
			uint64_t now)
{
	struct rg_send_totals *t = s->t;
	struct rg_pkt p;
	struct rg_sqp *q;
	uint8_t dscp;
	int32_t d;

	if (rg_parse(buf, len, &p))
		return;
	if (rd_icrc_verify(buf, len, NULL, NULL)) {
		t->icrc_errors++; /* a NIC drops these */
		return;
	}
	q = rg_find_qp(s, &p);
	if (!q)
		return;
	dscp = p.tos >> 2;
	if (p.bth.opcode == ROCEDP_OP_CNP) {
		t->rx_dscp_cnp[dscp]++;
		q->cnps++;
		rg_dcqcn_cut(s, q, now);
		return;
	}
	if (p.bth.opcode != ROCEDP_OP_RC_ACK)
		return;
	d = rg_psn_diff(p.bth.psn, rg_sqp_psn(q, q->una));
	switch (p.aeth_syndrome & 0x60) {
	case 0x00: /* ACK: everything up to and including PSN */
		t->rx_dscp_ack[dscp]++;
		q->acks++;
		if (d >= 0 && (uint64_t)d + 1 <= q->max_sent - q->una)
			rg_sqp_progress(s, q, q->una + (uint64_t)d + 1, now);
		break;
	case 0x60: /* NAK: everything before PSN arrived */
		t->rx_dscp_nak[dscp]++;
		q->naks++;
		if (d >= 0 && (uint64_t)d <= q->max_sent - q->una) {
			rg_sqp_progress(s, q, q->una + (uint64_t)d, now);
			/* go back N: resend from the PSN the responder wants */
			if ((p.aeth_syndrome & 0x1f) == 0 &&
			    q->state == RG_QP_RUN)
				q->nxt = q->una;
		}
		break;
	default: /* RNR NAK: retry from the oldest unacknowledged */
		t->rx_dscp_nak[dscp]++;
		q->naks++;
		q->nxt = q->una;
		break;
	}
}

static void rg_rx(struct rg_sender *s, uint64_t now)
{
	static uint8_t bufs[RG_BATCH][RG_RX_BUF];
	struct mmsghdr msgs[RG_BATCH];
	struct iovec iov[RG_BATCH];
	int i, n, rounds;

	for (rounds = 0; rounds < 64; rounds++) {
		rg_rx_batch_init(msgs, iov, bufs, RG_RX_BUF, NULL, RG_BATCH);
		n = recvmmsg(s->fd, msgs, RG_BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			return;
		for (i = 0; i < n; i++)
			rg_rx_frame(s, bufs[i], msgs[i].msg_len, now);
		if (n < RG_BATCH)
			return;
	}
}

static bool rg_sqp_ready(const struct rg_sender *s, const struct rg_sqp *q,
			 uint64_t now)
{
	return q->state == RG_QP_RUN && q->nxt < s->npkts &&
	       q->nxt - q->una < (uint64_t)s->o->window && q->next_tx <= now;
}

static void rg_timers(struct rg_sender *s, uint64_t now)
{
	uint64_t rto = (uint64_t)s->o->rto_us * 1000;
	int i;

	for (i = 0; i < s->nqp; i++) {
		struct rg_sqp *q = &s->qp[i];

		if (q->state != RG_QP_RUN)
			continue;
		rg_dcqcn_timers(s, q, now);
		if (q->una < q->max_sent && now - q->last_progress > rto) {
			q->timeouts++;
			q->nxt = q->una;
			q->last_progress = now;
			if (++q->retries > s->o->retries)
				q->state = RG_QP_FAILED;
		}
	}
}

/* Fill and send up to one batch; returns frames handed to the socket. */
static int rg_tx(struct rg_sender *s, uint64_t now)
{
	static uint8_t bufs[RG_BATCH][RG_FRAME_MAX];
	const struct rg_send_opts *o = s->o;
	struct mmsghdr msgs[RG_BATCH];
	struct iovec iov[RG_BATCH];
	int n = 0, tries, sent;

	if (s->port_next + RG_PACE_SLACK_NS < now)
		s->port_next = now - RG_PACE_SLACK_NS;
	while (n < RG_BATCH && s->port_next <= now) {
		struct rg_sqp *q = NULL;
		bool first, drop = false;
		uint8_t tos;
		size_t len;
		double bits;

		for (tries = 0; tries < s->nqp; tries++) {
			struct rg_sqp *c = &s->qp[s->rr];

			s->rr = (s->rr + 1) % s->nqp;
			if (c->next_tx + RG_PACE_SLACK_NS < now)
				c->next_tx = now - RG_PACE_SLACK_NS;
			if (rg_sqp_ready(s, c, now)) {
				q = c;
				break;
			}
		}
		if (!q)
			break;
		first = q->nxt >= q->max_sent;
		tos = q->path.tos;
		if (first) {
			s->first_tx++;
			if (o->drop_every && s->first_tx % o->drop_every == 0)
				drop = true;
			if (o->ce_every && s->first_tx % o->ce_every == 0) {
				tos |= 3;
				s->t->ce_injected++;
			}
		}
		len = rg_sqp_frame(s, q, q->nxt, tos, bufs[n]);
		bits = (double)len * 8;
		q->next_tx += (uint64_t)(bits * 1e9 / q->rate);
		s->port_next += (uint64_t)(bits * 1e9 / s->line);
		if (!first)
			q->retx++;
		q->frames++;
		q->nxt++;
		if (q->nxt > q->max_sent)
			q->max_sent = q->nxt;
		if (q->una == q->nxt - 1)
			q->last_progress = now; /* RTO runs from here */
		if (drop) {
			s->t->drops_injected++;
			continue;
		}
		iov[n].iov_base = bufs[n];
		iov[n].iov_len = len;
		memset(&msgs[n], 0, sizeof(msgs[n]));
		msgs[n].msg_hdr.msg_iov = &iov[n];
		msgs[n].msg_hdr.msg_iovlen = 1;
		n++;
	}
	for (sent = 0; sent < n;) {
		int r = sendmmsg(s->fd, msgs + sent, (unsigned int)(n - sent),
				 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS || errno == EAGAIN) {
				usleep(50);
				continue;
			}
			return -errno;
		}
		sent += r;
	}
	return n;
}

static uint64_t rg_next_wake(struct rg_sender *s, uint64_t now)
{
	uint64_t wake = now + 1000000, rto = (uint64_t)s->o->rto_us * 1000;
	int i;

	for (i = 0; i < s->nqp; i++) {
		struct rg_sqp *q = &s->qp[i];

		if (q->state != RG_QP_RUN)
			continue;
		if (q->nxt < s->npkts &&
		    q->nxt - q->una < (uint64_t)s->o->window) {
			uint64_t w = q->next_tx > s->port_next ? q->next_tx :
								 s->port_next;

			if (w < wake)
				wake = w;
		}
		if (q->una < q->max_sent && q->last_progress + rto < wake)
			wake = q->last_progress + rto;
		if (q->rate < s->line &&
		    q->last_inc + (uint64_t)s->o->dcqcn_timer_us * 1000 < wake)
			wake = q->last_inc +
			       (uint64_t)s->o->dcqcn_timer_us * 1000;
	}
	return wake;
}

static double rg_mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8 * 1000 / (double)ns : 0;
}

static void rg_send_report(struct rg_sender *s, FILE *out, uint64_t t0,
			   uint64_t t_end)
{
	const struct rg_send_opts *o = s->o;
	struct rg_send_totals *t = s->t;
	uint64_t last = t0;
	const char *sn[] = { "run", "done", "failed" };
	char a[64], sa[64];
	int i, c, k;

	t->qps = (uint64_t)s->nqp;
	for (i = 0; i < s->nqp; i++) {
		struct rg_sqp *q = &s->qp[i];
		uint64_t msgs = q->una / s->ppm;

		t->messages += msgs;
		t->bytes += msgs * o->msg;
		t->frames += q->frames;
		t->retx_frames += q->retx;
		t->acks += q->acks;
		t->naks += q->naks;
		t->cnps += q->cnps;
		t->rate_cuts += q->cuts;
		t->timeouts += q->timeouts;
		if (q->state != RG_QP_DONE)
			t->qps_failed++;
		else if (q->done_ns > last)
			last = q->done_ns;
	}
	t->start_ns = t0;
	t->done_ns = t->qps_failed ? t_end : last;
	if (!out)
		return;
	rg_addr_str(&o->src, sa, sizeof(sa));
	if (!o->json) {
		fprintf(out,
			"rocegen send: %s %s, %d QP(s), %" PRIu64 " x %" PRIu64
			" B per QP, %u B per frame\n",
			o->dev, sa, s->nqp, o->count, o->msg, s->pmtu);
		fprintf(out,
			"%-16s %8s %8s %5s %6s %8s %6s %6s %5s %5s %5s %8s %10s %9s %s\n",
			"dst", "lqpn", "rqpn", "sport", "msgs", "frames",
			"retx", "acks", "naks", "cnps", "cuts", "min_mbps",
			"time_us", "mbps", "state");
		for (i = 0; i < s->nqp; i++) {
			struct rg_sqp *q = &s->qp[i];
			uint64_t ns =
				(q->state == RG_QP_DONE ? q->done_ns : t_end) -
				t0;

			fprintf(out,
				"%-16s %#8x %#8x %5u %6" PRIu64 " %8" PRIu64
				" %6" PRIu64 " %6" PRIu64 " %5" PRIu64
				" %5" PRIu64 " %5" PRIu64
				" %8.0f %10.1f %9.1f %s\n",
				rg_addr_str(&q->path.dst, a, sizeof(a)),
				q->lqpn, q->rqpn, q->path.sport,
				q->una / s->ppm, q->frames, q->retx, q->acks,
				q->naks, q->cnps, q->cuts, q->rate_min / 1e6,
				(double)ns / 1e3,
				rg_mbps((q->una / s->ppm) * o->msg, ns),
				sn[q->state]);
		}
		fprintf(out,
			"total: qps %" PRIu64 " failed %" PRIu64
			" messages %" PRIu64 " bytes %" PRIu64
			" frames %" PRIu64 " retx %" PRIu64
			" dropped_injected %" PRIu64 " ce_injected %" PRIu64
			" acks %" PRIu64 " naks %" PRIu64 " cnps %" PRIu64
			" rate_cuts %" PRIu64 " timeouts %" PRIu64
			" icrc_errors %" PRIu64
			" completion_us %.1f goodput_mbps %.1f\n",
			t->qps, t->qps_failed, t->messages, t->bytes, t->frames,
			t->retx_frames, t->drops_injected, t->ce_injected,
			t->acks, t->naks, t->cnps, t->rate_cuts, t->timeouts,
			t->icrc_errors, (double)(t->done_ns - t0) / 1e3,
			rg_mbps(t->bytes, t->done_ns - t0));
		return;
	}
	fprintf(out,
		"{\"role\":\"send\",\"dev\":\"%s\",\"src\":\"%s\","
		"\"msg_bytes\":%" PRIu64 ",\"count\":%" PRIu64
		",\"frame_payload\":%u,\"total\":{\"qps\":%" PRIu64
		",\"qps_failed\":%" PRIu64 ",\"messages\":%" PRIu64
		",\"bytes\":%" PRIu64 ",\"frames\":%" PRIu64
		",\"retx_frames\":%" PRIu64 ",\"drops_injected\":%" PRIu64
		",\"ce_injected\":%" PRIu64 ",\"acks\":%" PRIu64
		",\"naks\":%" PRIu64 ",\"cnps\":%" PRIu64
		",\"rate_cuts\":%" PRIu64 ",\"timeouts\":%" PRIu64
		",\"icrc_errors\":%" PRIu64
		",\"completion_us\":%.1f,\"goodput_mbps\":%.1f},",
		o->dev, sa, o->msg, o->count, s->pmtu, t->qps, t->qps_failed,
		t->messages, t->bytes, t->frames, t->retx_frames,
		t->drops_injected, t->ce_injected, t->acks, t->naks, t->cnps,
		t->rate_cuts, t->timeouts, t->icrc_errors,
		(double)(t->done_ns - t0) / 1e3,
		rg_mbps(t->bytes, t->done_ns - t0));
	fprintf(out, "\"rx_dscp\":{");
	for (c = 0; c < 3; c++) {
		const uint64_t *h = c == 0 ? t->rx_dscp_ack :
				    c == 1 ? t->rx_dscp_nak :
					     t->rx_dscp_cnp;
		bool any = false;

		fprintf(out, "%s\"%s\":{", c ? "," : "",
			c == 0 ? "ack" :
			c == 1 ? "nak" :
				 "cnp");
		for (k = 0; k < 64; k++) {
			if (!h[k])
				continue;
			fprintf(out, "%s\"%d\":%" PRIu64, any ? "," : "", k,
				h[k]);
			any = true;
		}
		fprintf(out, "}");
	}
	fprintf(out, "},\"qps\":[");
	for (i = 0; i < s->nqp; i++) {
		struct rg_sqp *q = &s->qp[i];
		uint64_t ns =
			(q->state == RG_QP_DONE ? q->done_ns : t_end) - t0;

		fprintf(out,
			"%s{\"dst\":\"%s\",\"lqpn\":%u,\"rqpn\":%u,"
			"\"sport\":%u,\"messages\":%" PRIu64
			",\"bytes\":%" PRIu64 ",\"frames\":%" PRIu64
			",\"retx_frames\":%" PRIu64 ",\"acks\":%" PRIu64
			",\"naks\":%" PRIu64 ",\"cnps\":%" PRIu64
			",\"rate_cuts\":%" PRIu64
			",\"rate_min_mbps\":%.1f,\"rate_final_mbps\":%.1f,"
			"\"timeouts\":%" PRIu64
			",\"completion_us\":%.1f,\"goodput_mbps\":%.1f,"
			"\"state\":\"%s\"}",
			i ? "," : "", rg_addr_str(&q->path.dst, a, sizeof(a)),
			q->lqpn, q->rqpn, q->path.sport, q->una / s->ppm,
			(q->una / s->ppm) * o->msg, q->frames, q->retx, q->acks,
			q->naks, q->cnps, q->cuts, q->rate_min / 1e6,
			q->rate / 1e6, q->timeouts, (double)ns / 1e3,
			rg_mbps((q->una / s->ppm) * o->msg, ns), sn[q->state]);
	}
	fprintf(out, "]}\n");
}

/* Payload bytes per frame: the largest IB MTU (256..4096) that fits. */
int rg_payload_mtu(int ip_mtu, bool v6)
{
	int hdr = (v6 ? RD_FRAME_IP6_LEN : RD_FRAME_IP4_LEN) +
		  RD_FRAME_UDP_LEN + ROCEDP_BTH_LEN + ROCEDP_RETH_LEN +
		  ROCEDP_ICRC_LEN;
	int pmtu;

	for (pmtu = 4096; pmtu >= 256; pmtu /= 2)
		if (pmtu + hdr <= ip_mtu)
			return pmtu;
	return -EMSGSIZE;
}

int rg_send_run(const struct rg_send_opts *o, FILE *out,
		struct rg_send_totals *t)
{
	struct rg_sender s = { .o = o, .t = t };
	uint8_t smac[6], dmac[6];
	int i, d, err, mtu, sink;
	uint64_t t0, now, deadline;
	bool finished = false;

	memset(t, 0, sizeof(*t));
	mtu = o->mtu ? o->mtu : rg_if_mtu(o->ifindex);
	if (mtu < 0) {
		rg_err(o->dev, "cannot read the MTU: %s", strerror(-mtu));
		return 1;
	}
	err = rg_payload_mtu(mtu, o->src.v6);
	if (err < 0) {
		rg_err("--mtu", "%d is too small for the headers (needs %d)",
		       mtu, 256 + (o->src.v6 ? 40 : 20) + 40);
		return 1;
	}
	s.pmtu = (uint32_t)err;
	s.ppm = (o->msg + s.pmtu - 1) / s.pmtu;
	s.npkts = s.ppm * o->count;
	s.line = o->rate_mbps * 1e6;
	s.run_id = (uint32_t)(rg_now_ns() ^ (uint64_t)getpid() << 16);
	err = rg_if_mac(o->ifindex, smac);
	if (err) {
		rg_err(o->dev, "cannot read the MAC address: %s",
		       strerror(-err));
		return 1;
	}
	s.nqp = o->ndst * o->qps;
	s.qp = calloc((size_t)s.nqp, sizeof(*s.qp));
	if (!s.qp) {
		rg_err("send", "out of memory");
		return 1;
	}
	for (d = 0; d < o->ndst; d++) {
		if (o->dmac_set) {
			memcpy(dmac, o->dmac, 6);
		} else {
			int ifx = o->ifindex;

			/* 3 s: ND and ARP retransmit their probe once a
			 * second; 1 s allowed a single solicitation, and a
			 * lost one failed the send (seen on IPv6) */
			err = rg_resolve(&o->dst[d], &ifx, NULL, dmac, 3000);
			if (err) {
				char a[64];

				rg_err(rg_addr_str(&o->dst[d], a, sizeof(a)),
				       "cannot resolve the next-hop MAC via %s: %s",
				       o->dev, strerror(-err));
				free(s.qp);
				return 1;
			}
		}
		for (i = 0; i < o->qps; i++) {
			struct rg_sqp *q = &s.qp[d * o->qps + i];

			q->dst = d;
			q->lqpn = o->qpn_base + (uint32_t)(d * o->qps + i);
			q->rqpn = q->lqpn | RG_QPN_RESP;
			q->psn0 = rg_psn0(q->lqpn);
			memcpy(q->path.smac, smac, 6);
			memcpy(q->path.dmac, dmac, 6);
			q->path.src = o->src;
			q->path.dst = o->dst[d];
			q->path.tos =
				(uint8_t)(o->dscp << 2 | (o->ecn ? 2 : 0));
			q->path.ttl = 64;
			q->path.sport = o->sport >= 0 ?
						(uint16_t)o->sport :
						rg_udp_sport(q->lqpn, q->rqpn);
			q->rate = q->target = q->rate_min = s.line;
			q->alpha = 1;
		}
	}
	s.fd = rg_packet_socket(o->ifindex, 4 << 20, RG_ROLE_SEND);
	if (s.fd < 0) {
		rg_err(o->dev, "packet socket: %s", strerror(-s.fd));
		free(s.qp);
		return 1;
	}
	sink = rg_udp_sink(o->src.v6);
	if (sink < 0)
		sink = rg_udp_sink(false);
	prctl(PR_SET_TIMERSLACK, 1000UL);

	t0 = rg_now_ns();
	deadline = t0 + (uint64_t)(o->timeout_s * 1e9);
	s.port_next = t0;
	for (i = 0; i < s.nqp; i++) {
		s.qp[i].next_tx = t0;
		s.qp[i].last_progress = t0;
		s.qp[i].last_alpha = t0;
		s.qp[i].last_inc = t0;
	}
	for (now = t0; !rg_stop && now < deadline; now = rg_now_ns()) {
		int running = 0, n;

		if (rg_finish && !finished) {
			rg_finish_now(&s, now);
			finished = true;
		}
		rg_rx(&s, now);
		rg_timers(&s, now);
		for (i = 0; i < s.nqp; i++)
			running += s.qp[i].state == RG_QP_RUN;
		if (!running)
			break;
		n = rg_tx(&s, now);
		if (n < 0) {
			rg_err(o->dev, "send: %s", strerror(-n));
			break;
		}
		if (n == 0) {
			uint64_t wake = rg_next_wake(&s, now);
			struct pollfd pfd = { .fd = s.fd, .events = POLLIN };
			struct timespec ts;

			now = rg_now_ns();
			if (wake > now) {
				wake -= now;
				if (wake > 1000000)
					wake = 1000000;
				ts.tv_sec = 0;
				ts.tv_nsec = (long)wake;
				ppoll(&pfd, 1, &ts, NULL);
			}
		}
	}
	now = rg_now_ns();
	rg_send_report(&s, out, t0, now);
	close(s.fd);
	if (sink >= 0)
		close(sink);
	err = t->qps_failed ? 2 : 0;
	free(s.qp);
	return err;
}
