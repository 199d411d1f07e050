// SPDX-License-Identifier: GPL-2.0
/*
 * rocegen responder: answers RC RDMA WRITE/SEND requests the way an RDMA
 * NIC does: in-order PSN check, ACK per message (or coalesced), one NAK
 * (PSN sequence error) per gap, CNP for CE-marked arrivals rate-limited per
 * QP, frames with a bad ICRC dropped and counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/if_packet.h>
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

#define RG_RQP_CAP 16384 /* power of two */
#define RG_BATCH 64
#define RG_MAC_CACHE 16

struct rg_rqp {
	bool used;
	bool local_ok;
	struct rg_addr peer, local;
	uint32_t qpn, peer_qpn, run_id;
	uint8_t peer_mac[6];
	int ifindex;
	uint8_t data_dscp;
	uint32_t epsn, msn, ack_psn;
	bool nak_sent, ack_pending;
	int unacked;
	uint64_t last_rx, last_cnp;
	uint64_t frames, bytes, messages, oos, naks, dups, acks;
	uint64_t ce, ect, cnps, cnps_suppressed;
	/* the PSN stream as a switch on the path sees it (wire_*) */
	bool wire_valid;
	uint32_t wire_next, wire_high; /* expected PSN, one past the highest */
	uint64_t wire_gaps, wire_gap_psns, wire_rewinds, wire_dups;
};

struct rg_responder {
	const struct rg_serve_opts *o;
	struct rg_rqp *tab;
	int *order; /* creation order, for the report */
	int nqp;
	int fd;
	struct {
		int ifindex;
		uint8_t mac[6];
	} macs[RG_MAC_CACHE];
	int nmacs;
	struct rg_serve_totals *t;
	uint64_t first_rx, last_rx;
};

static uint32_t rg_rqp_hash(const struct rg_addr *a, uint32_t qpn)
{
	uint32_t h = qpn * 0x9e3779b1u;
	int i;

	for (i = 0; i < (a->v6 ? 16 : 4); i++)
		h = (h ^ a->a[i]) * 0x01000193u;
	return h;
}

static struct rg_rqp *rg_rqp_get(struct rg_responder *r, const struct rg_pkt *p)
{
	uint32_t i = rg_rqp_hash(&p->src, p->bth.dqpn), n;

	for (n = 0; n < RG_RQP_CAP; n++, i++) {
		struct rg_rqp *q = &r->tab[i & (RG_RQP_CAP - 1)];

		if (!q->used) {
			if (r->nqp >= RG_RQP_CAP / 2)
				return NULL; /* keep probes short */
			q->used = true;
			q->peer = p->src;
			q->local = p->dst;
			q->local_ok = rg_is_local(&p->dst);
			q->qpn = p->bth.dqpn;
			q->peer_qpn = p->bth.dqpn & ~RG_QPN_RESP;
			q->epsn = rg_psn0(q->peer_qpn);
			r->order[r->nqp++] = (int)(q - r->tab);
			return q;
		}
		if (q->qpn == p->bth.dqpn && rg_addr_eq(&q->peer, &p->src))
			return q;
	}
	return NULL;
}

static int rg_mac_of(struct rg_responder *r, int ifindex, uint8_t mac[6])
{
	int i, err;

	for (i = 0; i < r->nmacs; i++) {
		if (r->macs[i].ifindex == ifindex) {
			memcpy(mac, r->macs[i].mac, 6);
			return 0;
		}
	}
	err = rg_if_mac(ifindex, mac);
	if (err)
		return err;
	if (r->nmacs < RG_MAC_CACHE) {
		r->macs[r->nmacs].ifindex = ifindex;
		memcpy(r->macs[r->nmacs++].mac, mac, 6);
	}
	return 0;
}

/* Send ACK/NAK (opcode 0x11 + AETH) or CNP back to the requester. */
static void rg_reply(struct rg_responder *r, struct rg_rqp *q, uint8_t opcode,
		     uint8_t syndrome, uint32_t psn)
{
	uint8_t buf[256], ext[ROCEDP_CNP_PAYLOAD_LEN];
	struct rg_bth b = { .opcode = opcode, .dqpn = q->peer_qpn, .psn = psn };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_ifindex = q->ifindex };
	struct rg_path p;
	size_t len, ext_len;
	int dscp;

	memset(&p, 0, sizeof(p));
	if (rg_mac_of(r, q->ifindex, p.smac))
		return;
	memcpy(p.dmac, q->peer_mac, 6);
	p.src = q->local;
	p.dst = q->peer;
	p.ttl = 64;
	p.sport = rg_udp_sport(q->peer_qpn, q->qpn);
	if (opcode == ROCEDP_OP_CNP) {
		dscp = r->o->cnp_dscp;
		b.becn = true;
		memset(ext, 0, sizeof(ext));
		ext_len = ROCEDP_CNP_PAYLOAD_LEN;
	} else {
		dscp = r->o->ack_dscp;
		ext[0] = syndrome;
		ext[1] = (q->msn >> 16) & 0xff;
		ext[2] = (q->msn >> 8) & 0xff;
		ext[3] = q->msn & 0xff;
		ext_len = ROCEDP_AETH_LEN;
	}
	p.tos = (uint8_t)((dscp < 0 ? q->data_dscp : dscp) << 2);
	len = rg_build(buf, &p, &b, ext, ext_len, 0);
	if (sendto(r->fd, buf, len, 0, (struct sockaddr *)&sll, sizeof(sll)) <
	    0)
		return;
	if (opcode == ROCEDP_OP_CNP)
		q->cnps++;
	else if (syndrome == RG_AETH_NAK_PSN)
		q->naks++;
	else
		q->acks++;
}

static void rg_ack_now(struct rg_responder *r, struct rg_rqp *q)
{
	rg_reply(r, q, ROCEDP_OP_RC_ACK, RG_AETH_ACK, q->ack_psn);
	q->unacked = 0;
	q->ack_pending = false;
}

/*
 * The independent count for rocedp's per-QP telemetry, by the same rules
 * (docs/telemetry.md, bpf/telemetry.h rd_psn_step) from what arrived here:
 * against the expected next PSN and one past the highest seen, a PSN
 * beyond the highest is a gap (the PSNs skipped were never seen), the
 * previous PSN again a duplicate, any other PSN behind the expected one a
 * rewind. Protocol state (epsn, NAKs) is separate: after a loss every later
 * frame is "oos" to the protocol but only the first one is a gap.
 */
static void rg_wire_psn(struct rg_rqp *q, uint32_t psn)
{
	uint32_t nx = (psn + 1) & RG_PSN_MASK;
	int32_t d, dh;

	if (!q->wire_valid) {
		q->wire_valid = true;
		q->wire_next = q->wire_high = nx;
		return;
	}
	d = rg_psn_diff(psn, q->wire_next);
	if (d < 0) {
		if (psn == ((q->wire_next - 1) & RG_PSN_MASK)) {
			q->wire_dups++;
			return;
		}
		q->wire_rewinds++;
		q->wire_next = nx;
		return;
	}
	q->wire_next = nx;
	dh = rg_psn_diff(psn, q->wire_high);
	if (dh < 0)
		return; /* a replay below the highest */
	q->wire_high = nx;
	if (d && dh) {
		q->wire_gaps++;
		q->wire_gap_psns += (uint64_t)dh;
	}
}

static bool rg_op_last(uint8_t op)
{
	return op == 0x02 || op == 0x03 || op == 0x04 || op == 0x05 ||
	       op == ROCEDP_OP_RC_WRITE_LAST ||
	       op == ROCEDP_OP_RC_WRITE_LAST_IMM ||
	       op == ROCEDP_OP_RC_WRITE_ONLY ||
	       op == ROCEDP_OP_RC_WRITE_ONLY_IMM;
}

static size_t rg_payload_len(const struct rg_pkt *p)
{
	size_t hdr = 0, len = p->ext_len;
	uint8_t op = p->bth.opcode;

	if (op == ROCEDP_OP_RC_WRITE_FIRST || op == ROCEDP_OP_RC_WRITE_ONLY ||
	    op == ROCEDP_OP_RC_WRITE_ONLY_IMM)
		hdr += ROCEDP_RETH_LEN;
	if (op == 0x03 || op == 0x05 || op == ROCEDP_OP_RC_WRITE_LAST_IMM ||
	    op == ROCEDP_OP_RC_WRITE_ONLY_IMM)
		hdr += 4; /* immediate data */
	hdr += p->bth.padcnt;
	return len > hdr ? len - hdr : 0;
}

static void rg_serve_frame(struct rg_responder *r, const uint8_t *buf,
			   size_t len, const struct sockaddr_ll *from,
			   uint64_t now)
{
	struct rg_serve_totals *t = r->t;
	uint8_t op, ecn;
	struct rg_pkt p;
	struct rg_rqp *q;
	int32_t d;

	if (from->sll_pkttype != PACKET_HOST)
		return;
	if (rg_parse(buf, len, &p))
		return;
	op = p.bth.opcode;
	if (op > ROCEDP_OP_RC_WRITE_ONLY_IMM)
		return; /* reads, atomics: not generated by rocegen */
	if (rd_icrc_verify(buf, len, NULL, NULL)) {
		t->icrc_errors++;
		return;
	}
	if (!(p.bth.dqpn & RG_QPN_RESP)) {
		t->bad_qp++;
		return;
	}
	q = rg_rqp_get(r, &p);
	if (!q || !q->local_ok) {
		t->bad_qp++;
		return;
	}
	if (!r->first_rx)
		r->first_rx = now;
	r->last_rx = now;
	memcpy(q->peer_mac, p.smac, 6);
	q->ifindex = from->sll_ifindex;
	q->data_dscp = p.tos >> 2;
	q->last_rx = now;
	rg_wire_psn(q, p.bth.psn);
	/* A new run id in the RETH: the requester restarted the QP. */
	if ((op == ROCEDP_OP_RC_WRITE_FIRST || op == ROCEDP_OP_RC_WRITE_ONLY ||
	     op == ROCEDP_OP_RC_WRITE_ONLY_IMM) &&
	    p.reth_rkey != q->run_id) {
		if (q->run_id)
			q->epsn = rg_psn0(q->peer_qpn);
		q->run_id = p.reth_rkey;
		q->msn = 0;
		q->nak_sent = false;
		q->unacked = 0;
		q->ack_pending = false;
	}
	ecn = p.tos & 3;
	if (ecn == 3) {
		q->ce++;
		if (!q->last_cnp ||
		    now - q->last_cnp >=
			    (uint64_t)r->o->cnp_interval_us * 1000) {
			q->last_cnp = now;
			rg_reply(r, q, ROCEDP_OP_CNP, 0, 0);
		} else {
			q->cnps_suppressed++;
		}
	} else if (ecn) {
		q->ect++;
	}
	d = rg_psn_diff(p.bth.psn, q->epsn);
	if (d > 0) {
		/* A gap: one NAK until the missing PSN shows up. */
		q->oos++;
		if (!q->nak_sent) {
			q->nak_sent = true;
			rg_reply(r, q, ROCEDP_OP_RC_ACK, RG_AETH_NAK_PSN,
				 q->epsn);
		}
		return;
	}
	if (d < 0) {
		q->dups++;
		if (p.bth.ackreq) {
			q->ack_psn = (q->epsn - 1) & RG_PSN_MASK;
			rg_ack_now(r, q);
		}
		return;
	}
	q->nak_sent = false;
	q->frames++;
	q->bytes += rg_payload_len(&p);
	q->ack_psn = q->epsn;
	q->epsn = (q->epsn + 1) & RG_PSN_MASK;
	if (rg_op_last(op)) {
		q->messages++;
		q->msn = (q->msn + 1) & 0xffffff;
		q->unacked++;
		if (q->unacked >= r->o->ack_every)
			rg_ack_now(r, q);
		else
			q->ack_pending = true;
	} else if (p.bth.ackreq) {
		rg_ack_now(r, q);
	}
}

/* Coalesced ACKs go out once the QP has been quiet for ack_delay. */
static uint64_t rg_flush_acks(struct rg_responder *r, uint64_t now)
{
	uint64_t delay = (uint64_t)r->o->ack_delay_us * 1000, wake = 0;
	int i;

	for (i = 0; i < r->nqp; i++) {
		struct rg_rqp *q = &r->tab[r->order[i]];

		if (!q->ack_pending)
			continue;
		if (now - q->last_rx >= delay) {
			rg_ack_now(r, q);
		} else if (!wake || q->last_rx + delay < wake) {
			wake = q->last_rx + delay;
		}
	}
	return wake;
}

static void rg_serve_report(struct rg_responder *r, FILE *out)
{
	struct rg_serve_totals *t = r->t;
	const struct rg_serve_opts *o = r->o;
	char a[64], l[64];
	int i;

	t->qps = (uint64_t)r->nqp;
	for (i = 0; i < r->nqp; i++) {
		struct rg_rqp *q = &r->tab[r->order[i]];

		t->frames += q->frames;
		t->bytes += q->bytes;
		t->messages += q->messages;
		t->oos += q->oos;
		t->naks += q->naks;
		t->dups += q->dups;
		t->acks += q->acks;
		t->ce += q->ce;
		t->ect += q->ect;
		t->cnps += q->cnps;
		t->cnps_suppressed += q->cnps_suppressed;
		t->wire_gaps += q->wire_gaps;
		t->wire_gap_psns += q->wire_gap_psns;
		t->wire_rewinds += q->wire_rewinds;
		t->wire_dups += q->wire_dups;
	}
	t->socket_drops = rg_socket_drops(r->fd);
	if (!out)
		return;
	if (!o->json) {
		fprintf(out, "rocegen serve: %s, %d QP(s)\n",
			o->ifindex ? o->dev : "all interfaces", r->nqp);
		fprintf(out,
			"%-16s %-16s %8s %8s %8s %10s %6s %5s %5s %6s %6s %5s"
			" %5s %5s %5s\n",
			"peer", "local", "qpn", "peer_qpn", "frames", "bytes",
			"msgs", "oos", "naks", "acks", "ce", "cnps", "gaps",
			"rewnd", "wdups");
		for (i = 0; i < r->nqp; i++) {
			struct rg_rqp *q = &r->tab[r->order[i]];

			fprintf(out,
				"%-16s %-16s %#8x %#8x %8" PRIu64 " %10" PRIu64
				" %6" PRIu64 " %5" PRIu64 " %5" PRIu64
				" %6" PRIu64 " %6" PRIu64 " %5" PRIu64
				" %5" PRIu64 " %5" PRIu64 " %5" PRIu64 "\n",
				rg_addr_str(&q->peer, a, sizeof(a)),
				rg_addr_str(&q->local, l, sizeof(l)), q->qpn,
				q->peer_qpn, q->frames, q->bytes, q->messages,
				q->oos, q->naks, q->acks, q->ce, q->cnps,
				q->wire_gaps, q->wire_rewinds, q->wire_dups);
		}
		fprintf(out,
			"total: qps %" PRIu64 " frames %" PRIu64
			" bytes %" PRIu64 " messages %" PRIu64 " oos %" PRIu64
			" naks %" PRIu64 " dups %" PRIu64 " acks %" PRIu64
			" ce %" PRIu64 " ect %" PRIu64 " cnps %" PRIu64
			" cnps_suppressed %" PRIu64 " icrc_errors %" PRIu64
			" bad_qp %" PRIu64 " socket_drops %" PRIu64
			" wire_gaps %" PRIu64 " wire_rewinds %" PRIu64
			" wire_dups %" PRIu64 "\n",
			t->qps, t->frames, t->bytes, t->messages, t->oos,
			t->naks, t->dups, t->acks, t->ce, t->ect, t->cnps,
			t->cnps_suppressed, t->icrc_errors, t->bad_qp,
			t->socket_drops, t->wire_gaps, t->wire_rewinds,
			t->wire_dups);
		return;
	}
	fprintf(out,
		"{\"role\":\"serve\",\"dev\":\"%s\",\"total\":{\"qps\":%" PRIu64
		",\"frames\":%" PRIu64 ",\"bytes\":%" PRIu64
		",\"messages\":%" PRIu64 ",\"oos\":%" PRIu64
		",\"naks\":%" PRIu64 ",\"dups\":%" PRIu64 ",\"acks\":%" PRIu64
		",\"ce\":%" PRIu64 ",\"ect\":%" PRIu64 ",\"cnps\":%" PRIu64
		",\"cnps_suppressed\":%" PRIu64 ",\"icrc_errors\":%" PRIu64
		",\"bad_qp\":%" PRIu64 ",\"socket_drops\":%" PRIu64
		",\"wire_gaps\":%" PRIu64 ",\"wire_gap_psns\":%" PRIu64
		",\"wire_rewinds\":%" PRIu64 ",\"wire_dups\":%" PRIu64
		",\"active_us\":%.1f},\"qps\":[",
		o->ifindex ? o->dev : "", t->qps, t->frames, t->bytes,
		t->messages, t->oos, t->naks, t->dups, t->acks, t->ce, t->ect,
		t->cnps, t->cnps_suppressed, t->icrc_errors, t->bad_qp,
		t->socket_drops, t->wire_gaps, t->wire_gap_psns,
		t->wire_rewinds, t->wire_dups,
		(double)(r->last_rx - r->first_rx) / 1e3);
	for (i = 0; i < r->nqp; i++) {
		struct rg_rqp *q = &r->tab[r->order[i]];

		fprintf(out,
			"%s{\"peer\":\"%s\",\"local\":\"%s\",\"qpn\":%u,"
			"\"peer_qpn\":%u,\"frames\":%" PRIu64
			",\"bytes\":%" PRIu64 ",\"messages\":%" PRIu64
			",\"oos\":%" PRIu64 ",\"naks\":%" PRIu64
			",\"dups\":%" PRIu64 ",\"acks\":%" PRIu64
			",\"ce\":%" PRIu64 ",\"ect\":%" PRIu64
			",\"cnps\":%" PRIu64 ",\"cnps_suppressed\":%" PRIu64
			",\"dscp\":%u,\"wire_gaps\":%" PRIu64
			",\"wire_gap_psns\":%" PRIu64
			",\"wire_rewinds\":%" PRIu64 ",\"wire_dups\":%" PRIu64
			"}",
			i ? "," : "", rg_addr_str(&q->peer, a, sizeof(a)),
			rg_addr_str(&q->local, l, sizeof(l)), q->qpn,
			q->peer_qpn, q->frames, q->bytes, q->messages, q->oos,
			q->naks, q->dups, q->acks, q->ce, q->ect, q->cnps,
			q->cnps_suppressed, q->data_dscp, q->wire_gaps,
			q->wire_gap_psns, q->wire_rewinds, q->wire_dups);
	}
	fprintf(out, "]}\n");
}

static void rg_signal_ready(const struct rg_serve_opts *o)
{
	if (o->ready_file) {
		/* an empty marker: never truncate what is there, never
		 * follow a symlink someone planted at the name */
		int fd = open(o->ready_file,
			      O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			      0644);

		if (fd >= 0)
			close(fd);
	}
	if (o->ready_fd >= 0) {
		char c = 'r';

		if (write(o->ready_fd, &c, 1) < 0)
			return;
	}
}

int rg_serve_run(const struct rg_serve_opts *o, FILE *out,
		 struct rg_serve_totals *t)
{
	static uint8_t bufs[RG_BATCH][RG_FRAME_MAX];
	struct sockaddr_ll from[RG_BATCH];
	struct mmsghdr msgs[RG_BATCH];
	struct iovec iov[RG_BATCH];
	struct rg_responder r = { .o = o, .t = t };
	uint64_t start, end, now;
	int sink4, sink6, i, n;

	memset(t, 0, sizeof(*t));
	r.tab = calloc(RG_RQP_CAP, sizeof(*r.tab));
	r.order = calloc(RG_RQP_CAP, sizeof(*r.order));
	if (!r.tab || !r.order) {
		rg_err("serve", "out of memory");
		free(r.tab);
		free(r.order);
		return 1;
	}
	r.fd = rg_packet_socket(o->ifindex, 32 << 20, RG_ROLE_SERVE);
	if (r.fd < 0) {
		rg_err(o->ifindex ? o->dev : "serve", "packet socket: %s",
		       strerror(-r.fd));
		free(r.tab);
		free(r.order);
		return 1;
	}
	/* One dual-stack socket covers both; fall back to IPv4 alone. */
	sink6 = rg_udp_sink(true);
	sink4 = sink6 < 0 ? rg_udp_sink(false) : -1;
	prctl(PR_SET_TIMERSLACK, 1000UL);
	rg_signal_ready(o);

	start = rg_now_ns();
	end = o->duration_s > 0 ? start + (uint64_t)(o->duration_s * 1e9) : 0;
	for (now = start; !rg_stop; now = rg_now_ns()) {
		struct pollfd pfd = { .fd = r.fd, .events = POLLIN };
		uint64_t wake = rg_flush_acks(&r, now);
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 100000000 };

		if (end && now >= end)
			break;
		if (o->idle_s > 0 && r.last_rx &&
		    now - r.last_rx >= (uint64_t)(o->idle_s * 1e9))
			break;
		if (wake && wake > now && wake - now < 100000000ull)
			ts.tv_nsec = (long)(wake - now);
		else if (wake)
			ts.tv_nsec = 0;
		if (ppoll(&pfd, 1, &ts, NULL) <= 0)
			continue;
		do {
			rg_rx_batch_init(msgs, iov, bufs, RG_FRAME_MAX, from,
					 RG_BATCH);
			n = recvmmsg(r.fd, msgs, RG_BATCH, MSG_DONTWAIT, NULL);
			now = rg_now_ns();
			for (i = 0; i < n; i++)
				rg_serve_frame(&r, bufs[i], msgs[i].msg_len,
					       &from[i], now);
		} while (n == RG_BATCH);
	}
	/* Whatever is still coalesced goes out before the report. */
	for (i = 0; i < r.nqp; i++)
		if (r.tab[r.order[i]].ack_pending)
			rg_ack_now(&r, &r.tab[r.order[i]]);
	rg_serve_report(&r, out);
	close(r.fd);
	if (sink6 >= 0)
		close(sink6);
	if (sink4 >= 0)
		close(sink4);
	free(r.tab);
	free(r.order);
	return 0;
}
