// SPDX-License-Identifier: GPL-2.0
/*
 * lbeval: load-balance evaluator. Builds a collective-communication trace
 * (ring AllReduce, AlltoAll or incast) as RoCEv2 RDMA WRITE frames sent by
 * NICs at line rate, runs it through the real XDP program on the
 * deterministic clock once per balancing mode, and reports per mode the
 * bytes per member, the imbalance (busiest member / mean, Meta's metric),
 * flowlet moves and reordering under a path-delay model: member m delays
 * its frames by d_m, spread evenly over [0, skew]; a frame that arrives
 * before an earlier-sent frame of its QP counts as reordered.
 *
 * --pcap replays frames captured on a live fabric instead, at their capture
 * times (pcapin.c), so the model can be held against the live switch.
 *
 * Usage: see usage() or docs/flowlet.md. Needs root (BPF_PROG_TEST_RUN).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#include "frame.h"
#include "lbeval.h"
#include "stats.h"

const char *const pattern_names[] = { "ring", "alltoall", "incast" };
const char *const mode_names[] = { "5tuple",	     "qp",
				   "qp-only",	     "flowlet",
				   "flowlet-random", "spray" };

/* xorshift64*: a fixed seed makes every trace identical */
static uint64_t rng_state;

static uint32_t rng32(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (rng_state * 0x2545f4914f6cdd1dull) >> 32;
}

static uint32_t host_addr(unsigned int h)
{
	/* 10.1.0.1 + h: every host lies in the routed 10.0.0.0/8 */
	return 0x0a010001u + h;
}

/* ---------------------------------------------------------------- trace */

static int trace_push(struct lb_trace *t, const struct lb_ev *e)
{
	struct lb_ev *n;

	if (t->n_ev == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 65536;
		n = realloc(t->ev, t->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->ev = n;
	}
	t->ev[t->n_ev] = *e;
	t->ev[t->n_ev].seq = t->n_ev;
	t->n_ev++;
	return 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct lb_ev *x = a, *y = b;

	if (x->t_ps != y->t_ps)
		return x->t_ps < y->t_ps ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int make_pairs(struct lb_trace *t, const struct lb_opts *o)
{
	unsigned int n = 0, max, h, d;

	switch (o->pattern) {
	case LB_RING:
		max = o->hosts;
		break;
	case LB_ALLTOALL:
		max = o->hosts * (o->hosts - 1);
		break;
	default:
		max = o->hosts - 1;
		break;
	}
	if (o->pairs && o->pairs > max) {
		rd_err("--pairs",
		       "%u pairs asked, the %s pattern of %u hosts has %u",
		       o->pairs, pattern_names[o->pattern], o->hosts, max);
		return -EINVAL;
	}
	t->pairs = calloc(max, sizeof(*t->pairs));
	if (!t->pairs)
		return -ENOMEM;
	for (h = 0; h < o->hosts; h++) {
		if (o->pattern == LB_RING) {
			t->pairs[n].src = h;
			t->pairs[n++].dst = (h + 1) % o->hosts;
		} else if (o->pattern == LB_ALLTOALL) {
			for (d = 1; d < o->hosts; d++) {
				t->pairs[n].src = h;
				t->pairs[n++].dst = (h + d) % o->hosts;
			}
		} else if (h) {
			t->pairs[n].src = h;
			t->pairs[n++].dst = 0;
		}
	}
	t->n_pairs = o->pairs ? o->pairs : n;
	/* One UDP source port per host pair, as NICs with few ports pick. */
	for (h = 0; h < t->n_pairs; h++)
		t->pairs[h].sport = 0xc000 | (rng32() & 0x3fff);
	return 0;
}

static uint64_t wire_ps(uint32_t frame_len, double gbps)
{
	/* bits / (Gbit/s) = ns; * 1000 = ps */
	return (uint64_t)((frame_len + RD_FRAME_WIRE_OVERHEAD) * 8 * 1000.0 /
				  gbps +
			  0.5);
}

/*
 * One phase: every host's NIC sends one message of o->msg bytes on each of
 * its QPs, one MTU frame at a time, round-robin over the QPs, back to back
 * at line rate. Hosts start a fraction of a frame apart so that the merged
 * trace has no ties, plus a random delay in [0, jitter] (hosts of a real
 * collective do not start in lockstep). Returns the time the last frame
 * left.
 */
static int gen_phase(struct lb_trace *t, const struct lb_opts *o,
		     unsigned int phase, uint64_t start_ps, uint64_t *end_ps)
{
	uint32_t *left = calloc(t->n_qps, sizeof(*left));
	uint64_t end = start_ps, th, slot_ps;
	struct rd_frame s = { .opcode = ROCEDP_OP_RC_WRITE_MIDDLE };
	unsigned int h, q, busy;
	struct lb_ev e = {};
	struct lb_qp *qp;
	int err = 0;

	if (!left)
		return -ENOMEM;
	s.payload = o->mtu;
	slot_ps = wire_ps(rd_frame_len(&s), o->rate_gbps);
	for (h = 0; h < o->hosts && !err; h++) {
		th = start_ps + slot_ps * h / o->hosts;
		if (o->jitter_us > 0)
			th += (uint64_t)(o->jitter_us * 1e6 * rng32() /
					 4294967296.0);
		for (q = 0; q < t->n_qps; q++)
			left[q] = t->pairs[t->qps[q].pair].src == h ? o->msg :
								      0;
		do {
			busy = 0;
			for (q = 0; q < t->n_qps && !err; q++) {
				if (!left[q])
					continue;
				busy = 1;
				qp = &t->qps[q];
				e.t_ps = th;
				e.qp = q;
				e.psn = qp->psn;
				qp->psn = (qp->psn + 1) & 0xffffff;
				e.phase = phase;
				e.dma_len = o->msg;
				e.payload = left[q] < o->mtu ? left[q] : o->mtu;
				if (left[q] == o->msg)
					e.opcode =
						e.payload == left[q] ?
							ROCEDP_OP_RC_WRITE_ONLY :
							ROCEDP_OP_RC_WRITE_FIRST;
				else
					e.opcode =
						e.payload == left[q] ?
							ROCEDP_OP_RC_WRITE_LAST :
							ROCEDP_OP_RC_WRITE_MIDDLE;
				left[q] -= e.payload;
				/* the last frame of a message asks for the ACK */
				e.ack_req = !left[q];
				s.opcode = e.opcode;
				s.payload = e.payload;
				t->bytes += rd_frame_len(&s);
				th += wire_ps(rd_frame_len(&s), o->rate_gbps);
				err = trace_push(t, &e);
			}
		} while (busy && !err);
		if (th > end)
			end = th;
	}
	free(left);
	*end_ps = end;
	return err;
}

static int build_trace(struct lb_trace *t, const struct lb_opts *o)
{
	uint64_t now = 1000000 * LB_PS_PER_NS, end = now; /* start at 1 ms */
	unsigned int i, q, phases;
	int err;

	rng_state = 0x9e3779b97f4a7c15ull ^ o->seed;
	err = make_pairs(t, o);
	if (err)
		return err;
	t->n_qps = t->n_pairs * o->qps;
	t->qps = calloc(t->n_qps, sizeof(*t->qps));
	if (!t->qps)
		return -ENOMEM;
	for (q = 0; q < t->n_qps; q++) {
		t->qps[q].pair = q / o->qps;
		/* distinct 24-bit QPNs: index above, random low byte */
		t->qps[q].qpn = ((q + 1) << 8 | (rng32() & 0xff)) & 0xffffff;
		t->qps[q].psn = rng32() & 0xffffff;
	}
	phases = o->pattern == LB_RING ? 2 * (o->hosts - 1) * o->iters :
					 o->iters;
	for (i = 0; i < phases; i++) {
		err = gen_phase(t, o, i, now, &end);
		if (err)
			return err;
		now = end + (uint64_t)(o->gap_us * 1e6);
	}
	t->n_phases = phases;
	t->end_ps = end;
	qsort(t->ev, t->n_ev, sizeof(*t->ev), ev_cmp);
	return 0;
}

/* ---------------------------------------------------------------- run */

static void write_config(FILE *f, const struct lb_opts *o, enum lb_mode mode)
{
	static const char *const hash[] = { "5tuple",  "qp",	  "qp-only",
					    "flowlet", "flowlet", "spray" };
	bool flowlet = mode == LB_FLOWLET || mode == LB_FLOWLET_RANDOM;
	unsigned int m;

	fprintf(f, "{\"features\": [\"forward\"%s],\n",
		flowlet ? ", \"flowlet\"" : "");
	fprintf(f, " \"hash\": {\"mode\": \"%s\", \"seed\": %u},\n", hash[mode],
		o->seed);
	if (flowlet) {
		fprintf(f, " \"flowlet\": {\"rtt_us\": %u, \"choice\": \"%s\"",
			o->rtt_us,
			mode == LB_FLOWLET ? "least-loaded" : "random");
		if (o->tau_us)
			fprintf(f, ", \"load_tau_us\": %u", o->tau_us);
		fprintf(f, "},\n");
	}
	fprintf(f, " \"groups\": [{\"id\": %d, \"members\": [\n", LB_GROUP_ID);
	for (m = 0; m < o->members; m++)
		fprintf(f,
			"  {\"ifindex\": %u, \"smac\": \"02:aa:00:00:00:%02x\", "
			"\"dmac\": \"02:bb:00:00:00:%02x\", \"weight\": 1}%s\n",
			LB_IFINDEX_BASE + m, m, m,
			m + 1 < o->members ? "," : "");
	fprintf(f,
		" ]}],\n \"routes\": [{\"prefix\": \"10.0.0.0/8\", "
		"\"group\": %d}]}\n",
		LB_GROUP_ID);
}

double imbalance_of(const uint64_t *bytes, unsigned int n)
{
	uint64_t max = 0, sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sum += bytes[i];
		if (bytes[i] > max)
			max = bytes[i];
	}
	return sum ? (double)max * n / sum : 0;
}

/*
 * One captured frame: its headers padded with zeros to its length (nothing
 * past the headers is read), run at its capture time. Phases are windows of
 * --window-us. No reorder model: the live fabric's delays are not known.
 */
static int run_raw(struct rd_engine *e, const struct lb_opts *o,
		   const struct lb_raw *raw, struct rd_run *run,
		   unsigned int *phase, unsigned int *phases, double *phase_sum,
		   uint64_t *phase_bytes, struct lb_result *r)
{
	unsigned int m, win = raw->t_ns / (uint64_t)(o->window_us * 1e3);
	uint8_t *frame = (uint8_t *)run->in;
	int err;

	if (raw->len > LB_MAX_FRAME) {
		rd_err("trace", "captured frame of %u bytes exceeds %d",
		       raw->len, LB_MAX_FRAME);
		return -EMSGSIZE;
	}
	if (win != *phase) {
		*phase_sum += imbalance_of(phase_bytes, o->members);
		(*phases)++;
		memset(phase_bytes, 0, LB_MAX_MEMBERS * sizeof(*phase_bytes));
		*phase = win;
	}
	memcpy(frame, raw->hdr, raw->caplen);
	memset(frame + raw->caplen, 0, raw->len - raw->caplen);
	run->in_len = raw->len;
	err = rd_engine_set_time(e, raw->t_ns + 1000000); /* clock > 0 */
	if (!err)
		err = rd_engine_run(e, RD_HOOK_XDP, run);
	if (err) {
		rd_err("engine", "captured frame at %.6f s: %s",
		       raw->t_ns / 1e9, strerror(-err));
		return err;
	}
	m = run->trace.member;
	if (run->verdict != ROCEDP_VERDICT_REDIRECT || m >= o->members) {
		r->not_forwarded++;
		return 0;
	}
	r->bytes[m] += run->in_len;
	r->pkts[m]++;
	phase_bytes[m] += run->in_len;
	return 0;
}

static int run_mode(const struct lb_trace *t, const struct lb_opts *o,
		    enum lb_mode mode, struct lb_result *r)
{
	struct rd_engine_opts eo = { .trace = true,
				     .map_clock = true,
				     .bind_cpu = true };
	uint64_t delay_ps[LB_MAX_MEMBERS], phase_bytes[LB_MAX_MEMBERS] = {};
	uint64_t *last_arrival = NULL, arrival;
	struct rd_frame s = { .tos = LB_TOS };
	uint8_t frame[LB_MAX_FRAME], out[LB_MAX_FRAME];
	double phase_sum = 0;
	unsigned int m, phase = 0, phases = 0;
	struct timespec t0, t1;
	struct rd_engine *e = NULL;
	const struct lb_ev *ev;
	const struct lb_pair *pr;
	size_t i, json_len = 0;
	__u64 ctr[ROCEDP_CTR_MAX];
	char *json = NULL;
	int err;
	FILE *f;

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	for (m = 0; m < o->members; m++)
		delay_ps[m] = o->members > 1 ? (uint64_t)(o->skew_us * 1e6) *
						       m / (o->members - 1) :
					       0;
	last_arrival = calloc(t->n_qps, sizeof(*last_arrival));
	if (!last_arrival)
		return -ENOMEM;
	err = rd_engine_open(&e, &eo);
	if (err) {
		rd_err("engine", "cannot load the BPF object: %s",
		       strerror(-err));
		goto out;
	}
	f = open_memstream(&json, &json_len);
	if (f) {
		write_config(f, o, mode);
		err = fclose(f) ? -errno : 0;
	} else {
		err = -errno;
	}
	if (err) {
		rd_err("config", "cannot build the %s mode config: %s",
		       mode_names[mode], strerror(-err));
		goto out;
	}
	err = rd_config_apply_text("lbeval config", json, json_len,
				   rd_engine_maps(e));
	if (err) {
		rd_err("config", "%s mode config rejected: %s",
		       mode_names[mode], strerror(-err));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < t->n_ev; i++) {
		struct rd_run run = { .in = frame,
				      .out = out,
				      .out_size = sizeof(out),
				      .ingress_ifindex = LB_INGRESS_IFINDEX };

		if (t->raw) {
			err = run_raw(e, o, &t->raw[i], &run, &phase, &phases,
				      &phase_sum, phase_bytes, r);
			if (err)
				goto out;
			continue;
		}
		ev = &t->ev[i];
		if (ev->phase != phase) {
			/* phases do not overlap: the gap separates them */
			phase_sum += imbalance_of(phase_bytes, o->members);
			phases++;
			memset(phase_bytes, 0, sizeof(phase_bytes));
			phase = ev->phase;
		}
		pr = &t->pairs[t->qps[ev->qp].pair];
		memcpy(s.smac,
		       (uint8_t[6]){ 2, 0xee, 0, 0, pr->src >> 8, pr->src }, 6);
		memcpy(s.dmac, (uint8_t[6]){ 2, 0xcc, 0, 0, 0, 1 }, 6);
		s.src4 = host_addr(pr->src);
		s.dst4 = host_addr(pr->dst);
		s.sport = pr->sport;
		s.opcode = ev->opcode;
		s.dest_qp = t->qps[ev->qp].qpn;
		s.psn = ev->psn;
		s.ack_req = ev->ack_req;
		s.payload = ev->payload;
		s.dma_len = ev->dma_len;
		run.in_len = rd_frame_build(frame, sizeof(frame), &s);
		if (!run.in_len) {
			rd_err("trace", "frame of %zu bytes exceeds %d",
			       rd_frame_len(&s), LB_MAX_FRAME);
			err = -EMSGSIZE;
			goto out;
		}
		err = rd_engine_set_time(e, ev->t_ps / LB_PS_PER_NS);
		if (!err)
			err = rd_engine_run(e, RD_HOOK_XDP, &run);
		if (err) {
			rd_err("engine", "frame %zu: %s", i, strerror(-err));
			goto out;
		}
		m = run.trace.member;
		if (run.verdict != ROCEDP_VERDICT_REDIRECT || m >= o->members) {
			r->not_forwarded++;
			continue;
		}
		r->bytes[m] += run.in_len;
		r->pkts[m]++;
		phase_bytes[m] += run.in_len;
		arrival = ev->t_ps + delay_ps[m];
		if (arrival < last_arrival[ev->qp])
			r->reordered++;
		else
			last_arrival[ev->qp] = arrival;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (t->n_ev) {
		phase_sum += imbalance_of(phase_bytes, o->members);
		phases++;
	}
	r->seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->imbalance = imbalance_of(r->bytes, o->members);
	r->phase_imbalance = phases ? phase_sum / phases : 0;
	/* unreadable counters read as 0, as before */
	if (rd_counters_read(rd_engine_maps(e)->fd[RD_MAP_STATS], ctr))
		memset(ctr, 0, sizeof(ctr));
	r->moves = ctr[ROCEDP_CTR_FLOWLET_MOVE];
	r->flowlets = ctr[ROCEDP_CTR_FLOWLET_NEW];
	r->flows = ctr[ROCEDP_CTR_FLOWLET_FLOW_NEW];
	r->reorder_risk = ctr[ROCEDP_CTR_FLOWLET_REORDER_RISK];
	r->member_gone = ctr[ROCEDP_CTR_FLOWLET_MEMBER_GONE];
	r->insert_fail = ctr[ROCEDP_CTR_FLOWLET_INSERT_FAIL];
	err = 0;
out:
	rd_engine_close(e);
	free(json);
	free(last_arrival);
	return err;
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbeval [--standard] [--pattern ring|alltoall|incast] [--hosts N]\n"
		"              [--pairs P] [--qps Q] [--msg BYTES] [--mtu M] [--gap-us G]\n"
		"              [--iters I] [--rate-gbps R] [--members K] [--skew-us S]\n"
		"              [--jitter-us J] [--rtt-us R] [--tau-us T] [--seed N]\n"
		"              [--modes 5tuple,qp,qp-only,flowlet,flowlet-random,spray]\n"
		"              [-j] [--png FILE] [--check]\n"
		"       lbeval --pcap FILE [--pcap FILE...] [--window-us W] [--members K]\n"
		"              [--rtt-us R] [--tau-us T] [--seed N] [--modes ...] [-j]\n"
		"--standard: ring AllReduce, 16 hosts (16 pairs), 4 QPs per pair,\n"
		"            8 members, 64 KiB messages, 20 us gaps, 10 us skew.\n"
		"--check: exit 1 if flowlet misses imbalance <= 1.05 or reorders\n"
		"         while the flowlet gap >= the delay skew.\n"
		"--pcap: replay frames captured on a live fabric (pcap, not pcapng)\n"
		"        at their capture times; per-phase = per window of W us.\n");
}

static int parse_uint(const char *opt, const char *s, unsigned int min,
		      unsigned int max, unsigned int *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || !*s || x < min || x > max) {
		rd_err(opt, "'%s' is not a number in %u..%u", s, min, max);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

static int parse_double(const char *opt, const char *s, double min, double max,
			double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || !*s || *v < min || *v > max) {
		rd_err(opt, "'%s' is not a number in %g..%g", s, min, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_modes(const char *s, unsigned int *mask)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int m, err = 0;

	if (!dup)
		return -ENOMEM;
	*mask = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		for (m = 0; m < LB_MODE_MAX; m++)
			if (!strcmp(tok, mode_names[m]))
				break;
		if (m == LB_MODE_MAX) {
			rd_err("--modes",
			       "unknown mode '%s' (expected 5tuple qp qp-only flowlet flowlet-random spray)",
			       tok);
			err = -EINVAL;
		}
		*mask |= 1u << m;
	}
	free(dup);
	if (!err && !*mask) {
		rd_err("--modes", "no mode given");
		err = -EINVAL;
	}
	return err;
}

static void set_standard(struct lb_opts *o)
{
	o->pattern = LB_RING;
	o->hosts = 16;
	o->pairs = 0;
	o->qps = 4;
	o->members = 8;
	o->msg = 64 * 1024;
	o->mtu = 2048;
	o->gap_us = 20;
	o->skew_us = 10;
	o->iters = 1;
	o->rate_gbps = 100;
	o->rtt_us = ROCEDP_DEFAULT_RTT_US;
	o->standard = true;
}

int main(int argc, char **argv)
{
	enum {
		O_PATTERN = 256,
		O_HOSTS,
		O_PAIRS,
		O_QPS,
		O_MSG,
		O_MTU,
		O_GAP,
		O_MEMBERS,
		O_SKEW,
		O_MODES,
		O_PNG,
		O_STANDARD,
		O_ITERS,
		O_RATE,
		O_RTT,
		O_TAU,
		O_SEED,
		O_CHECK,
		O_JITTER,
		O_PCAP,
		O_WINDOW,
	};
	static const struct option lopts[] = {
		{ "pattern", required_argument, NULL, O_PATTERN },
		{ "hosts", required_argument, NULL, O_HOSTS },
		{ "pairs", required_argument, NULL, O_PAIRS },
		{ "qps", required_argument, NULL, O_QPS },
		{ "msg", required_argument, NULL, O_MSG },
		{ "mtu", required_argument, NULL, O_MTU },
		{ "gap-us", required_argument, NULL, O_GAP },
		{ "members", required_argument, NULL, O_MEMBERS },
		{ "skew-us", required_argument, NULL, O_SKEW },
		{ "modes", required_argument, NULL, O_MODES },
		{ "png", required_argument, NULL, O_PNG },
		{ "standard", no_argument, NULL, O_STANDARD },
		{ "iters", required_argument, NULL, O_ITERS },
		{ "rate-gbps", required_argument, NULL, O_RATE },
		{ "rtt-us", required_argument, NULL, O_RTT },
		{ "tau-us", required_argument, NULL, O_TAU },
		{ "seed", required_argument, NULL, O_SEED },
		{ "check", no_argument, NULL, O_CHECK },
		{ "jitter-us", required_argument, NULL, O_JITTER },
		{ "pcap", required_argument, NULL, O_PCAP },
		{ "window-us", required_argument, NULL, O_WINDOW },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct lb_result res[LB_MODE_MAX];
	struct lb_trace t = {};
	struct lb_opts o = {};
	int c, err = 0, n = 0, m, i;
	bool fail = false;

	set_standard(&o);
	o.standard = false;
	o.window_us = 10000;
	o.modes = (1u << LB_MODE_MAX) - 1;
	/* --standard first, so later options can vary one parameter */
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--standard"))
			set_standard(&o);
	while ((c = getopt_long(argc, argv, "jh", lopts, NULL)) != -1) {
		switch (c) {
		case O_PATTERN:
			for (m = 0; m < 3; m++)
				if (!strcmp(optarg, pattern_names[m]))
					break;
			if (m == 3) {
				rd_err("--pattern",
				       "unknown pattern '%s' (expected ring alltoall incast)",
				       optarg);
				err = -EINVAL;
			}
			o.pattern = m;
			break;
		case O_HOSTS:
			err = parse_uint("--hosts", optarg, 2, LB_MAX_HOSTS,
					 &o.hosts);
			break;
		case O_PAIRS:
			err = parse_uint("--pairs", optarg, 1, 1 << 20,
					 &o.pairs);
			break;
		case O_QPS:
			err = parse_uint("--qps", optarg, 1, 256, &o.qps);
			break;
		case O_MSG:
			err = parse_uint("--msg", optarg, 1, 1 << 30, &o.msg);
			break;
		case O_MTU:
			err = parse_uint("--mtu", optarg, 64, 65535, &o.mtu);
			if (!err && o.mtu > 9000) {
				/* frames up to LB_MAX_FRAME */
				rd_err("--mtu",
				       "%u is above 9000: frames are at most %d bytes",
				       o.mtu, LB_MAX_FRAME);
				err = -EINVAL;
			}
			break;
		case O_GAP:
			err = parse_double("--gap-us", optarg, 0, 1e6,
					   &o.gap_us);
			break;
		case O_MEMBERS:
			err = parse_uint("--members", optarg, 1, LB_MAX_MEMBERS,
					 &o.members);
			break;
		case O_SKEW:
			err = parse_double("--skew-us", optarg, 0, 1e6,
					   &o.skew_us);
			break;
		case O_MODES:
			err = parse_modes(optarg, &o.modes);
			break;
		case O_PNG:
			o.png = optarg;
			break;
		case O_STANDARD:
			break;
		case O_ITERS:
			err = parse_uint("--iters", optarg, 1, 100000,
					 &o.iters);
			break;
		case O_RATE:
			err = parse_double("--rate-gbps", optarg, 0.001, 1e5,
					   &o.rate_gbps);
			break;
		case O_RTT:
			err = parse_uint("--rtt-us", optarg, 1, 1000000,
					 &o.rtt_us);
			break;
		case O_TAU:
			err = parse_uint("--tau-us", optarg, 1, 1000000,
					 &o.tau_us);
			break;
		case O_SEED:
			err = parse_uint("--seed", optarg, 0, UINT32_MAX,
					 &o.seed);
			break;
		case O_CHECK:
			o.check = true;
			break;
		case O_JITTER:
			err = parse_double("--jitter-us", optarg, 0, 1e6,
					   &o.jitter_us);
			break;
		case O_PCAP:
			if (o.n_pcap == LB_MAX_PCAPS) {
				rd_err("--pcap", "at most %d files",
				       LB_MAX_PCAPS);
				err = -EINVAL;
			} else {
				o.pcap[o.n_pcap++] = optarg;
			}
			break;
		case O_WINDOW:
			err = parse_double("--window-us", optarg, 1, 1e9,
					   &o.window_us);
			break;
		case 'j':
			o.json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (err)
			return 2;
	}
	if (optind < argc) {
		rd_err("arguments", "unexpected '%s'", argv[optind]);
		return 2;
	}
	if (o.pattern == LB_ALLTOALL && o.hosts > 256) {
		rd_err("--hosts", "alltoall takes at most 256 hosts");
		return 2;
	}
	if (o.n_pcap)
		err = lb_pcap_load(o.pcap, o.n_pcap, &t.raw, &t.n_ev, &t.bytes);
	else
		err = build_trace(&t, &o);
	if (err) {
		/* the pcap input names the file itself */
		if (err != -EINVAL && !o.n_pcap)
			rd_err("trace", "%s", strerror(-err));
		return 2;
	}
	if (!t.n_ev) {
		rd_err("trace", "the trace is empty");
		return 2;
	}
	for (m = 0; m < LB_MODE_MAX; m++) {
		if (!(o.modes & (1u << m)))
			continue;
		err = run_mode(&t, &o, m, &res[n]);
		if (err)
			return 1;
		if (!o.json)
			fprintf(stderr, "lbeval: %s: %zu frames in %.1f s\n",
				mode_names[m], t.n_ev, res[n].seconds);
		n++;
	}
	if (o.json)
		print_json(&t, &o, res, n);
	else
		print_table(&t, &o, res, n);
	if (o.png && write_png(&t, &o, res, n))
		return 1;
	for (i = 0; i < n; i++) {
		if (res[i].mode != LB_FLOWLET)
			continue;
		if (res[i].imbalance > 1.05) {
			fail = true;
			if (!o.json)
				printf("target missed: flowlet imbalance %.3f > 1.05\n",
				       res[i].imbalance);
		}
		/* FLARE: a gap above the delay skew cannot reorder */
		if (flowlet_gap_us(&o) >= o.skew_us && res[i].reordered) {
			fail = true;
			if (!o.json)
				printf("target missed: %llu frames reordered with gap %.1f us >= skew %.1f us\n",
				       (unsigned long long)res[i].reordered,
				       flowlet_gap_us(&o), o.skew_us);
		}
		if (res[i].reorder_risk) {
			fail = true;
			if (!o.json)
				printf("target missed: flowlet_reorder_risk %llu\n",
				       (unsigned long long)res[i].reorder_risk);
		}
		if (!fail && !o.json)
			printf("targets met: flowlet imbalance %.3f <= 1.05, %llu frames reordered (gap %.1f us, skew %.1f us)\n",
			       res[i].imbalance,
			       (unsigned long long)res[i].reordered,
			       flowlet_gap_us(&o), o.skew_us);
	}
	free(t.raw);
	free(t.ev);
	free(t.qps);
	free(t.pairs);
	return o.check && fail ? 1 : 0;
}
