// SPDX-License-Identifier: GPL-2.0
/*
 * ECN marking (RED) through the real egress pipeline with a controlled
 * queue estimate (ROCEDP_PORTF_HOLD_QUEUE): 0 marks below Kmin over 100k
 * frames, Pmax/2 +- 2 points at the midpoint, 100% above Kmax, Not-ECT
 * never marked (but counted as would-mark), CE stays CE, ACK/NAK/CNP opted
 * out, IPv4 checksum and ICRC valid after marking; IPv4 and IPv6. The
 * port's ecn_marked and ecn_marked_bytes move by the marked frames and
 * the sum of their lengths. Then
 * the virtual queue itself: it drains at the port rate (within bytes),
 * follows a rate change at once, and bounds idle time and rate. Last, the
 * clock deferral: frames far below Kmin join without a clock reading, and
 * beside an exact port the estimate is never low and marks never late.
 * Prints TAP lines; the last line is "N passed, M failed".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include "engine.h"
#include "frame.h"
#include "icrc.h"
#include "stats.h"
#include "tap.h"

#define PORT 7 /* modelled egress port: offline, need not exist */
#define KMIN 100000
#define KMAX 400000
#define PMAX 20
#define FRAMES 100000

/*
 * RoCEv2 RDMA WRITE ONLY (RETH + 64 bytes) or ACK (AETH: ACK, MSN 0) from
 * 10.0.1.2 / 2001:db8::1 to 10.0.2.2 / 2001:db8::2, DF clear, with a
 * valid ICRC.
 */
static size_t build_frame(uint8_t *f, int v6, uint8_t tos, uint8_t opcode)
{
	struct rd_frame s = {
		.dmac = { 2, 0, 0, 0, 0, 2 },
		.smac = { 2, 0, 0, 0, 0, 1 },
		.v6 = v6,
		.src4 = 0x0a000102,
		.dst4 = 0x0a000202,
		.src6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
		.dst6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 },
		.tos = tos,
		.sport = 0xc000,
		.opcode = opcode,
		.dest_qp = 0x42,
		.aeth = 0x1f000000,
		.payload = opcode == ROCEDP_OP_RC_ACK ? 0 : 64,
		.flags = RD_FRAME_ICRC | RD_FRAME_NO_DF,
	};

	return rd_frame_build(f, 256, &s);
}

/* IPv4 header checksum right (IPv6 has none) */
static int ipv4_csum_ok(const uint8_t *f)
{
	return f[12] != 0x08 || rd_frame_csum(f + 14, 20) == 0;
}

/* Writes a port's ECN settings and its dataplane state. */
static int put_port(struct rd_engine *e, __u32 port,
		    const struct rocedp_port_cfg *pc,
		    const struct rocedp_port_state *st)
{
	const struct rd_maps *m = rd_engine_maps(e);

	if (bpf_map_update_elem(m->fd[RD_MAP_PORT_CFG], &port, pc, 0) ||
	    bpf_map_update_elem(m->fd[RD_MAP_PORT_STATE], &port, st, 0))
		return -errno;
	return 0;
}

/* One frame out of port at time t: 1 marked, 0 not, -1 error; state in *st. */
static int step_at(struct rd_engine *e, __u32 port, uint64_t t,
		   const uint8_t *f, size_t len, struct rocedp_port_state *st)
{
	uint8_t out[256];
	struct rd_run r = { .in = f,
			    .in_len = len,
			    .out = out,
			    .out_size = sizeof(out),
			    .ingress_ifindex = port };

	if (rd_engine_set_time(e, t) ||
	    rd_engine_run(e, RD_HOOK_XDP_EGRESS, &r) ||
	    bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_STATE], &port,
				st))
		return -1;
	return (out[15] & 3) == 3;
}

static int set_queue(struct rd_engine *e, uint64_t q)
{
	struct rocedp_port_cfg pc = {
		.kmin_bytes = KMIN,
		.kmax_bytes = KMAX,
		.pmax_percent = PMAX,
		.flags = ROCEDP_PORTF_HOLD_QUEUE,
	};
	struct rocedp_port_state st = { .vq_bytes = q };

	return put_port(e, PORT, &pc, &st);
}

/* Port PORT with a drain rate and no marking; queue and clock at zero. */
static int set_rate(struct rd_engine *e, uint64_t rate_bps, uint64_t q,
		    uint64_t last_ns)
{
	struct rocedp_port_cfg pc = {
		.rate_bps = rate_bps,
		.kmin_bytes = ROCEDP_ECN_MAX_BYTES,
		.kmax_bytes = ROCEDP_ECN_MAX_BYTES,
	};
	struct rocedp_port_state st = { .vq_bytes = q, .vq_last_ns = last_ns };

	return put_port(e, PORT, &pc, &st);
}

/* Only the rate of PORT: the port state (queue, cached multiplier) stays. */
static int set_port_rate(struct rd_engine *e, uint64_t rate_bps)
{
	const struct rd_maps *m = rd_engine_maps(e);
	struct rocedp_port_cfg pc;
	__u32 port = PORT;

	if (bpf_map_lookup_elem(m->fd[RD_MAP_PORT_CFG], &port, &pc))
		return -errno;
	pc.rate_bps = rate_bps;
	return bpf_map_update_elem(m->fd[RD_MAP_PORT_CFG], &port, &pc, 0) ?
		       -errno :
		       0;
}

/* One frame through PORT's egress at time t; the queue after it (or -1). */
static int64_t enqueue_at(struct rd_engine *e, uint64_t t, const uint8_t *f,
			  size_t len)
{
	struct rocedp_port_state st;

	if (step_at(e, PORT, t, f, len, &st) < 0)
		return -1;
	return (int64_t)st.vq_bytes;
}

/* drained bytes as the rate says: rate_bps * dt_ns / 8e9 */
static int drained_ok(int64_t before, int64_t after, size_t len,
		      double rate_bps, double dt_ns)
{
	/* the multiplier's rounding: half a unit per ns (8 B at 2^30 ns) */
	double tol = 1 + dt_ns / (2.0 * (1ull << ROCEDP_VQ_DRAIN_SHIFT));
	double want = before - rate_bps * dt_ns / 8e9;

	if (want < 0)
		want = 0;
	want += len;
	return after >= 0 && after >= want - tol && after <= want + tol;
}

/* Port PORT: 1 Mbit/s, Kmin/Kmax 1000/2000, the given buffer; queue 0. */
static int set_buffer(struct rd_engine *e, uint32_t buffer_bytes)
{
	struct rocedp_port_cfg pc = { .rate_bps = 1000000,
				      .kmin_bytes = 1000,
				      .kmax_bytes = 2000,
				      .buffer_bytes = buffer_bytes };
	struct rocedp_port_state st = {};

	return put_port(e, PORT, &pc, &st);
}

/*
 * The virtual queue holds at most the port's buffer (buffer_bytes, else
 * ROCEDP_VQ_CAP_KMAX x Kmax): 100 frames at one instant (no drain) fill
 * it to the cap and no further, and it drains from there.
 */
static void test_cap(struct rd_engine *e)
{
	const uint64_t t0 = 5000000000ull;
	uint8_t frame[256];
	size_t len = build_frame(frame, 0, 0x02, ROCEDP_OP_RC_WRITE_ONLY);
	int64_t q = -1, before;
	int i;

	result(set_buffer(e, 0) == 0,
	       "cap: port with Kmax 2000, no buffer size");
	for (i = 0; i < 100; i++)
		q = enqueue_at(e, t0, frame, len);
	result(q == ROCEDP_VQ_CAP_KMAX * 2000,
	       "cap: 100 x %zu bytes at once hold %lld (want %d x Kmax = %d)",
	       len, (long long)q, ROCEDP_VQ_CAP_KMAX,
	       ROCEDP_VQ_CAP_KMAX * 2000);
	result(set_buffer(e, 3000) == 0, "cap: buffer_bytes 3000");
	for (i = 0; i < 100; i++)
		q = enqueue_at(e, t0, frame, len);
	result(q == 3000, "cap: 100 x %zu bytes at once hold %lld (want 3000)",
	       len, (long long)q);
	before = q;
	q = enqueue_at(e, t0 + 8000000, frame, len); /* 1000 bytes drained */
	result(drained_ok(before, q, len, 1e6, 8e6),
	       "cap: drains from the cap: %lld -> %lld after 8 ms at 1 Mbit/s",
	       (long long)before, (long long)q);
}

/*
 * The virtual queue drains at the port rate (to within a byte per 134 ms
 * of idle), with no divide per frame: the rate's multiplier is cached in the port state and
 * must follow a rate change at once.
 */
static void test_drain(struct rd_engine *e)
{
	const uint64_t t0 = 1000000000ull;
	uint8_t frame[256];
	size_t len = build_frame(frame, 0, 0x02, ROCEDP_OP_RC_WRITE_ONLY);
	int64_t q, q2;
	int ok, i;

	ok = set_rate(e, 25000000000ull, 0, 0) == 0;
	q = enqueue_at(e, t0, frame, len);
	for (i = 0; i < 9; i++)
		q = enqueue_at(e, t0, frame, len);
	result(ok && q == (int64_t)(10 * len),
	       "drain: 10 frames at one instant queue 10 x %zu B (%lld)", len,
	       (long long)q);
	q2 = enqueue_at(e, t0 + 100, frame, len);
	result(drained_ok(q, q2, len, 25e9, 100),
	       "drain: 25 Gbit/s for 100 ns drains 312.5 B (queue %lld -> %lld)",
	       (long long)q, (long long)q2);
	q = enqueue_at(e, t0 + 1000100, frame, len);
	result(q == (int64_t)len,
	       "drain: 1 ms idle empties the queue, then the frame joins (%lld)",
	       (long long)q);

	/*
	 * A rate change takes effect on the next frame: only rd_port_cfg
	 * changes, the state keeps the old rate's multiplier.
	 */
	ok = set_rate(e, 1000000, 1000000, t0) == 0;
	q = enqueue_at(e, t0 + 1000000, frame, len);
	result(ok && drained_ok(1000000, q, len, 1e6, 1e6),
	       "drain: 1 Mbit/s for 1 ms drains 125 B (%lld)", (long long)q);
	ok = set_port_rate(e, 400000000000ull) == 0;
	q2 = enqueue_at(e, t0 + 1001000, frame, len);
	result(ok && drained_ok(q, q2, len, 400e9, 1000),
	       "drain: rate changed to 400 Gbit/s, the next 1 us drains 50000 B (%lld -> %lld)",
	       (long long)q, (long long)q2);
	ok = set_port_rate(e, 1000000) == 0;
	q = enqueue_at(e, t0 + 2001000, frame, len);
	result(ok && drained_ok(q2, q, len, 1e6, 1e6),
	       "drain: and back to 1 Mbit/s, the next 1 ms drains 125 B (%lld -> %lld)",
	       (long long)q2, (long long)q);

	/* bounds: an idle counts as at most 2^30 ns, a rate as at most 2^40 */
	ok = set_rate(e, 1000000, 1000000, t0) == 0;
	q = enqueue_at(e, t0 + 5000000000ull, frame, len);
	result(ok && drained_ok(1000000, q, len, 1e6,
				(double)ROCEDP_VQ_MAX_IDLE_NS),
	       "drain: a 5 s idle at 1 Mbit/s drains 2^30 ns worth (%lld)",
	       (long long)q);
	ok = set_rate(e, 10000000000000ull, 1000000000, t0) == 0;
	q = enqueue_at(e, t0 + 1000, frame, len);
	result(ok && drained_ok(1000000000, q, len,
				(double)ROCEDP_VQ_MAX_RATE_BPS, 1000),
	       "drain: 10 Tbit/s drains as 2^40 bit/s, no overflow (%lld)",
	       (long long)q);
}

/*
 * The clock deferral (ROCEDP_VQ_DEFER_SHIFT), through an engine without
 * the trace, which otherwise reads the clock for every frame as replay
 * needs. Port PORT defers; port EXACT_PORT has ROCEDP_PORTF_EXACT_CLOCK
 * and is the exact reference. RED is made a step (Pmax 100, Kmax = Kmin
 * + 1): a frame is marked exactly when the queue before it exceeds Kmin.
 */
#define EXACT_PORT 8
#define D_KMIN 8000
#define D_RATE 1000000000ull /* 1 Gbit/s: 0.125 byte a ns */

static int set_step_port(struct rd_engine *e, __u32 port, __u32 flags)
{
	struct rocedp_port_cfg pc = { .rate_bps = D_RATE,
				      .kmin_bytes = D_KMIN,
				      .kmax_bytes = D_KMIN + 1,
				      .pmax_percent = 100,
				      .flags = flags };
	struct rocedp_port_state st = {};

	return put_port(e, port, &pc, &st);
}

static void test_defer(void)
{
	struct rd_engine_opts o = { .trace = false,
				    .map_clock = true,
				    .bind_cpu = true,
				    /* its one program: the others' verifier
				     * time is most of an open's */
				    .hooks = RD_HOOK_BIT(RD_HOOK_XDP_EGRESS) };
	const uint64_t t0 = 1000000000ull,
		       bound = D_KMIN >> ROCEDP_VQ_DEFER_SHIFT;
	unsigned long frames = 0, readings = 0, early = 0, late = 0, low = 0;
	unsigned long over = 0, marks_d = 0, marks_x = 0, unread_high = 0;
	unsigned long far = 0, far_readings = 0;
	struct rocedp_port_state st, sx;
	uint64_t t = t0, before, want, est_d, est_x;
	uint8_t frame[256];
	size_t len = build_frame(frame, 0, 0x02, ROCEDP_OP_RC_WRITE_ONLY);
	unsigned int seed = 23, i, k;
	struct rd_engine *e;
	int md, mx, ok;

	if (rd_engine_open(&e, &o)) {
		result(0, "defer: engine without trace");
		return;
	}
	ok = !set_step_port(e, PORT, 0) &&
	     !set_step_port(e, EXACT_PORT, ROCEDP_PORTF_EXACT_CLOCK);
	ok = ok && step_at(e, PORT, t, frame, len, &st) == 0;
	result(ok && st.vq_last_ns == t && st.vq_pending == 0 &&
		       st.vq_bytes == len,
	       "defer: the first frame reads the clock (queue %llu, time %llu)",
	       (unsigned long long)st.vq_bytes,
	       (unsigned long long)st.vq_last_ns);
	for (k = 1; ok && k * len <= bound; k++)
		ok = step_at(e, PORT, t + 1000 * k, frame, len, &st) == 0 &&
		     st.vq_last_ns == t && st.vq_pending == k * len;
	k--;
	result(ok && k >= 1,
	       "defer: %u frames far below Kmin join without a reading (%u bytes waiting, at most Kmin/8 = %llu)",
	       k, st.vq_pending, (unsigned long long)bound);
	before = st.vq_bytes;
	want = before > 1000 ? before - 1000 : 0; /* 8 us at 1 Gbit/s */
	want += st.vq_pending + len;
	ok = step_at(e, PORT, t + 8000, frame, len, &st) == 0;
	result(ok && st.vq_last_ns == t + 8000 && st.vq_pending == 0 &&
		       st.vq_bytes + 1 >= want && st.vq_bytes <= want + 1,
	       "defer: the next frame reads the clock; the waiting bytes arrive then (queue %llu, want %llu)",
	       (unsigned long long)st.vq_bytes, (unsigned long long)want);

	/*
	 * Against the exact port, frame by frame through bursts and idles
	 * around Kmin: the deferring estimate is never low, is high by at
	 * most Kmin/8 where it read the clock, stays below Kmin where it did
	 * not, and so marks every frame the exact port marks, the others
	 * only where the exact queue was within Kmin/8 of Kmin.
	 */
	ok = !set_step_port(e, PORT, 0) &&
	     !set_step_port(e, EXACT_PORT, ROCEDP_PORTF_EXACT_CLOCK);
	for (i = 0; ok && i < 20000; i++) {
		/*
		 * 500 frames at 130% of the rate, 500 at 70%: the queue
		 * crosses Kmin both ways; now and then an idle of 20..80 us
		 */
		k = rand_r(&seed) % 1000;
		t += k < 2	   ? 20000 + rand_r(&seed) % 60000 :
		     (i / 500) % 2 ? rand_r(&seed) % 3200 :
				     rand_r(&seed) % 1700;
		md = step_at(e, PORT, t, frame, len, &st);
		mx = step_at(e, EXACT_PORT, t, frame, len, &sx);
		if (md < 0 || mx < 0) {
			ok = 0;
			break;
		}
		frames++;
		est_d = st.vq_bytes + st.vq_pending;
		est_x = sx.vq_bytes;
		marks_d += md;
		marks_x += mx;
		if (sx.vq_bytes < D_KMIN / 2) {
			far++;
			far_readings += st.vq_last_ns == t;
		}
		if (st.vq_last_ns == t) {
			readings++;
			if (est_d > est_x + bound + 1)
				over++;
		} else if (est_d >= D_KMIN) {
			unread_high++;
		}
		if (est_d + 1 < est_x)
			low++;
		if (mx && !md)
			late++;
		/* est_x - len: the exact queue this frame saw */
		if (md && !mx && est_x - len + bound + 1 < D_KMIN)
			early++;
	}
	result(ok && frames == 20000,
	       "defer: %lu frames through both ports, %lu clock readings on the deferring one",
	       frames, readings);
	result(ok && far > 1000 && far_readings < far / 4,
	       "defer: with the exact queue below Kmin/2, under a quarter of the frames read the clock (%lu of %lu)",
	       far_readings, far);
	result(ok && low == 0,
	       "defer: the estimate is never below the exact queue (%lu frames)",
	       low);
	result(ok && over == 0,
	       "defer: where it read the clock, at most Kmin/8 above the exact queue (%lu frames over)",
	       over);
	result(ok && unread_high == 0,
	       "defer: without a reading the estimate stays below Kmin (%lu frames at or above)",
	       unread_high);
	result(ok && marks_x > 100 && late == 0,
	       "defer: every frame the exact port marks is marked (%lu of %lu marks missed)",
	       late, marks_x);
	result(ok && early == 0,
	       "defer: extra marks only within Kmin/8 of Kmin (%lu marks beyond; %lu marked, exact %lu)",
	       early, marks_d, marks_x);
	rd_engine_close(e);
}

struct run_result {
	unsigned long marked;
	unsigned long long marked_bytes; /* sum of the marked frames' lengths */
	struct rocedp_port_stats ps; /* PORT's counters moved by the run */
	unsigned long ce_out;
	unsigned long csum_bad;
	unsigned long icrc_bad;
	unsigned long other_change;
};

/* PORT's per-port counters summed over CPUs (zero when unreadable). */
static void port_stats(struct rd_engine *e, struct rocedp_port_stats *ps)
{
	__u32 port = PORT;

	if (rd_percpu_sum(rd_engine_maps(e)->fd[RD_MAP_PORT_STATS], &port,
			  (__u64 *)ps, sizeof(*ps) / 8))
		memset(ps, 0, sizeof(*ps));
}

/* Run n copies of a frame through the egress pipeline of PORT. */
static int run_many(struct rd_engine *e, const uint8_t *frame, size_t len,
		    unsigned long n, struct run_result *res)
{
	struct rocedp_port_stats before, after;
	uint8_t out[256];
	struct rd_run r;
	unsigned long i;
	size_t j, tos_off = 15;
	int err;

	memset(res, 0, sizeof(*res));
	port_stats(e, &before);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		r.in = frame;
		r.in_len = len;
		r.out = out;
		r.out_size = sizeof(out);
		r.ingress_ifindex = PORT;
		err = rd_engine_run(e, RD_HOOK_XDP_EGRESS, &r);
		if (err)
			return err;
		if (r.trace.ecn_out == 3)
			res->ce_out++;
		if (r.trace.ecn_out == 3 && r.trace.ecn_in != 3) {
			res->marked++;
			res->marked_bytes += r.in_len;
		}
		if (!ipv4_csum_ok(out))
			res->csum_bad++;
		if (rd_icrc_verify(out, r.out_len, NULL, NULL))
			res->icrc_bad++;
		/* only the ECN bits (and the IPv4 checksum) may change */
		for (j = 0; j < len; j++) {
			if (out[j] == frame[j])
				continue;
			if (frame[12] == 0x08 &&
			    (j == 24 || j == 25 ||
			     (j == tos_off && (out[j] & ~3) == (frame[j] & ~3))))
				continue;
			if (frame[12] == 0x86 && j == 15 &&
			    (out[j] & 0xcf) == (frame[j] & 0xcf))
				continue;
			res->other_change++;
			break;
		}
	}
	port_stats(e, &after);
	res->ps.ecn_marked = after.ecn_marked - before.ecn_marked;
	res->ps.ecn_marked_bytes =
		after.ecn_marked_bytes - before.ecn_marked_bytes;
	return 0;
}

/* the port counters agree with the frames seen marked */
static void check_port_marks(const char *fam, const char *what,
			     const struct run_result *res)
{
	result(res->ps.ecn_marked == res->marked &&
		       res->ps.ecn_marked_bytes == res->marked_bytes,
	       "%s: %s: port counts %llu marked, %llu bytes (frames: %lu, %llu)",
	       fam, what, (unsigned long long)res->ps.ecn_marked,
	       (unsigned long long)res->ps.ecn_marked_bytes, res->marked,
	       res->marked_bytes);
}

static __u64 counter(struct rd_engine *e, unsigned int idx)
{
	__u64 v;

	rd_counter_get(rd_engine_maps(e)->fd[RD_MAP_STATS], idx, &v);
	return v;
}

int main(void)
{
	struct rd_engine_opts o = { .trace = true,
				    .map_clock = true,
				    .bind_cpu = true,
				    /* its one program: the others' verifier
				     * time is most of an open's */
				    .hooks = RD_HOOK_BIT(RD_HOOK_XDP_EGRESS) };
	const char *fam_name[2] = { "IPv4", "IPv6" };
	struct run_result res;
	struct rd_engine *e;
	uint8_t frame[256];
	size_t len;
	double share;
	__u64 would0, would1;
	int v6, err;

	err = rd_engine_open(&e, &o);
	if (err) {
		printf("not ok 1 - engine: %s\n0 passed, 1 failed\n",
		       strerror(-err));
		return 1;
	}
	for (v6 = 0; v6 < 2; v6++) {
		/* ECT(0) RDMA WRITE */
		len = build_frame(frame, v6, 0x02, ROCEDP_OP_RC_WRITE_ONLY);
		result(set_queue(e, KMIN - 1) == 0, "%s: queue held below Kmin",
		       fam_name[v6]);
		run_many(e, frame, len, FRAMES, &res);
		result(res.marked == 0,
		       "%s: below Kmin: %lu of %d marked (want 0)",
		       fam_name[v6], res.marked, FRAMES);

		set_queue(e, (KMIN + KMAX) / 2);
		run_many(e, frame, len, FRAMES, &res);
		share = 100.0 * res.marked / FRAMES;
		result(share >= PMAX / 2.0 - 2 && share <= PMAX / 2.0 + 2,
		       "%s: midpoint: %.2f%% marked (want %.1f +- 2)",
		       fam_name[v6], share, PMAX / 2.0);
		check_port_marks(fam_name[v6], "midpoint", &res);
		result(res.csum_bad == 0,
		       "%s: IPv4 checksum valid on every frame (%lu bad)",
		       fam_name[v6], res.csum_bad);
		result(res.icrc_bad == 0,
		       "%s: ICRC valid on every frame (%lu bad)", fam_name[v6],
		       res.icrc_bad);
		result(res.other_change == 0,
		       "%s: only the ECN bits (and IPv4 checksum) change (%lu frames differ elsewhere)",
		       fam_name[v6], res.other_change);

		set_queue(e, KMAX);
		run_many(e, frame, len, FRAMES, &res);
		result(res.marked == FRAMES,
		       "%s: at/above Kmax: %lu of %d marked (want all)",
		       fam_name[v6], res.marked, FRAMES);
		check_port_marks(fam_name[v6], "above Kmax", &res);

		/* ECT(1) is marked too */
		len = build_frame(frame, v6, 0x01, ROCEDP_OP_RC_WRITE_ONLY);
		run_many(e, frame, len, 1000, &res);
		result(res.marked == 1000,
		       "%s: ECT(1) above Kmax: %lu of 1000 marked",
		       fam_name[v6], res.marked);

		/* Not-ECT: never touched, counted as would-mark */
		len = build_frame(frame, v6, 0x00, ROCEDP_OP_RC_WRITE_ONLY);
		would0 = counter(e, ROCEDP_CTR_ECN_WOULD_MARK);
		run_many(e, frame, len, FRAMES, &res);
		would1 = counter(e, ROCEDP_CTR_ECN_WOULD_MARK);
		result(res.ce_out == 0 && res.other_change == 0,
		       "%s: Not-ECT above Kmax never marked (%lu CE)",
		       fam_name[v6], res.ce_out);
		check_port_marks(fam_name[v6], "Not-ECT", &res);
		result(would1 - would0 == FRAMES,
		       "%s: Not-ECT counted as would-mark (%llu of %d)",
		       fam_name[v6], (unsigned long long)(would1 - would0),
		       FRAMES);

		/* CE stays CE */
		len = build_frame(frame, v6, 0x03, ROCEDP_OP_RC_WRITE_ONLY);
		run_many(e, frame, len, 1000, &res);
		result(res.ce_out == 1000 && res.other_change == 0,
		       "%s: CE stays CE, frame unchanged (%lu of 1000)",
		       fam_name[v6], res.ce_out);

		/* ACKs are opted out by default */
		len = build_frame(frame, v6, 0x02, ROCEDP_OP_RC_ACK);
		run_many(e, frame, len, 1000, &res);
		result(res.marked == 0,
		       "%s: ACK opted out of marking above Kmax (%lu marked)",
		       fam_name[v6], res.marked);
	}
	test_drain(e);
	test_cap(e);
	rd_engine_close(e);
	test_defer();
	printf("%d passed, %d failed\n", n_test - n_fail, n_fail);
	return n_fail ? 1 : 0;
}
