// SPDX-License-Identifier: GPL-2.0
/* rdbench cost: per-packet cost of rocedp's programs (docs/bench.md, 1). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "engine.h"
#include "config_txn.h"
#include "frame.h"
#include "groupw.h"
#include "routew.h"
#include "stats.h"
#include "rocedp.skel.h"
#include "bench_abi.h"
#include "rdbench.h"
#include "rdbench_bare.h"
#include "rdbench_ops.h"

#define FRAME_LEN 130 /* 54 payload bytes + 2 of pad (BTH PadCnt) */
_Static_assert(FRAME_LEN == RD_OPC_FRAME_LEN, "ops count the same frames");
#define N_FRAMES 64 /* distinct flows (destination QPs) cycled per batch */

/*
 * IPv4 RoCEv2 RDMA WRITE ONLY, TTL 255, DSCP 0 ECT(0); dest QP varies.
 * (Until the shared builder it was 128 bytes with PadCnt 0, which IBTA
 * forbids for a 54-byte payload.)
 */
static void build_frame(__u8 *f, unsigned int qp, const __u8 *dmac)
{
	struct rd_frame s = {
		.smac = { 2, 0xcc, 0, 0, 0, 1 },
		.src4 = 0x0ac80002, /* 10.200.0.2 */
		.dst4 = 0x0a090001, /* 10.9.0.1 */
		.tos = 0x02,
		.ttl = 255, /* 200 rounds per batch leave it at 55 */
		.sport = 0xc000,
		.opcode = ROCEDP_OP_RC_WRITE_ONLY,
		.dest_qp = qp,
		.psn = 0x1234,
		.payload = 54,
	};

	memcpy(s.dmac, dmac, 6);
	rd_frame_build(f, FRAME_LEN, &s);
}

/*
 * The same over IPv6 (fd00:200::2 -> fd09::1, traffic class 0x02): 20
 * bytes more header, 20 less payload, so the frames are as long and the
 * same time_prog runs them (the IPv6 rows, beside each IPv4 row).
 */
static void build_frame6(__u8 *f, unsigned int qp, const __u8 *dmac)
{
	struct rd_frame s = {
		.smac = { 2, 0xcc, 0, 0, 0, 1 },
		.v6 = true,
		.src6 = { 0xfd, 0, 2, 0, [15] = 2 },
		.dst6 = { 0xfd, 0x09, [15] = 1 },
		.tos = 0x02,
		.ttl = 255,
		.sport = 0xc000,
		.opcode = ROCEDP_OP_RC_WRITE_ONLY,
		.dest_qp = qp,
		.psn = 0x1234,
		.payload = 34,
	};

	memcpy(s.dmac, dmac, 6);
	if (rd_frame_build(f, FRAME_LEN, &s) != FRAME_LEN)
		die("IPv6 frame", EINVAL);
}

struct timing {
	uint64_t rounds;
	double sum_ns; /* sum of duration x repeat */
	double pass_min, pass_max; /* per-pass mean */
};

/*
 * Time prog over `batches` test runs of `repeat` rounds each, frames cycled.
 * Returns the weighted mean of opts.duration (ns per round).
 */
static double time_prog(int prog_fd, bool xdp, __u8 (*frames)[FRAME_LEN],
			unsigned int batches, unsigned int repeat,
			unsigned int ifindex, unsigned int egress_port)
{
	struct xdp_md xmd = { .data_end = FRAME_LEN,
			      .ingress_ifindex = ifindex };
	struct __sk_buff skb = { .mark = egress_port };
	double sum = 0;
	unsigned int b;

	for (b = 0; b < batches; b++) {
		LIBBPF_OPTS(bpf_test_run_opts, o,
			    .data_in = frames[b % N_FRAMES],
			    .data_size_in = FRAME_LEN, .repeat = repeat);

		if (xdp) {
			o.ctx_in = &xmd;
			o.ctx_size_in = sizeof(xmd);
		} else {
			o.ctx_in = &skb;
			o.ctx_size_in = sizeof(skb);
		}
		if (bpf_prog_test_run_opts(prog_fd, &o))
			die("BPF_PROG_TEST_RUN", errno);
		sum += (double)o.duration * repeat;
	}
	return sum / ((double)batches * repeat);
}

struct combo {
	const char *name;
	const char *what;
	__u32 features;
	__u32 hash_mode;
	/* what every round must have done, checked on the counters */
	bool fwd;
};

/*
 * XDP ingress only: in native/generic mode the ingress program also takes
 * the ECN decision for the frames it redirects (the egress port is known
 * there), so the ECN combinations need no second program.
 */
static const struct combo combos[] = {
	{ "parse", "parse+classify+count, features none", 0, ROCEDP_HASH_QP,
	  false },
	{ "remark", "features remark (DSCP rewrite of data class)",
	  ROCEDP_F_REMARK, ROCEDP_HASH_QP, false },
	{ "fwd_5tuple", "features forward, hash 5tuple", ROCEDP_F_FORWARD,
	  ROCEDP_HASH_5TUPLE, true },
	{ "fwd_qp", "features forward, hash qp", ROCEDP_F_FORWARD,
	  ROCEDP_HASH_QP, true },
	{ "flowlet", "features forward+flowlet, hash flowlet",
	  ROCEDP_F_FORWARD | ROCEDP_F_FLOWLET, ROCEDP_HASH_FLOWLET, true },
	{ "flowlet_ecn", "forward+flowlet+ecn, hash flowlet (RED at ingress)",
	  ROCEDP_F_FORWARD | ROCEDP_F_FLOWLET | ROCEDP_F_ECN,
	  ROCEDP_HASH_FLOWLET, true },
	{ "default", "shipped default: forward+remark+ecn, hash qp",
	  ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_ECN, ROCEDP_HASH_QP,
	  true },
	/* per-QP telemetry on top of the default (goal <= 1.15x) */
	{ "telemetry", "default + telemetry (per-QP table, clock, pairing)",
	  ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_ECN |
		  ROCEDP_F_TELEMETRY,
	  ROCEDP_HASH_QP, true },
};
#define N_COMBOS (sizeof(combos) / sizeof(combos[0]))

/* the tc path's ECN point, timed through its test entry */
#define TC_EGRESS_FEATURES (ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_ECN)

static void set_config(int fd, __u32 features, __u32 mode)
{
	struct rocedp_config c;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(fd, &zero, &c))
		die("rd_config", errno);
	c.features = features;
	c.hash_mode = mode;
	if (bpf_map_update_elem(fd, &zero, &c, 0))
		die("rd_config", errno);
}

/* The cost section's egress ports, for rocedp and the bare default
 * forwarder alike: 25G at the default thresholds. */
static void cost_port_cfg(struct rocedp_port_cfg *pc)
{
	rd_port_defaults(pc);
	pc->rate_bps = 25000000000ull;
}

/* data frames carry DSCP 0: the cost section gives the class an action so
 * remark really rewrites (first round of a batch; later rounds find it set) */
static const struct rocedp_qos cost_data_qos = {
	.action = ROCEDP_QOS_SET_DSCP,
	.dscp = 26,
};

/*
 * The group, route, devmap and port settings of a leaf with 4 uplinks:
 * members are real interfaces in this netns, so the devmap accepts them and
 * the programs run exactly the live path (cfg_offline stays false). The
 * devmap entries carry no program: ECN is decided at XDP ingress.
 */
static void setup_fib(const struct rd_maps *m, char **ports)
{
	struct bpf_devmap_val dv = { .bpf_prog.fd = -1 };
	struct rocedp_group g = {};
	struct rocedp_route4_key rk = { .prefixlen = 16 };
	struct rocedp_route6_key rk6 = { .prefixlen = 32,
					 .addr = { 0xfd, 0x09 } };
	struct rocedp_route rv = { .group_id = 1,
				   .flags = ROCEDP_ROUTEF_STATIC };
	struct rocedp_port_cfg pc;
	__u32 key = 1, cls = ROCEDP_CLASS_DATA;
	int i, err;

	cost_port_cfg(&pc);
	g.n_members = 4;
	for (i = 0; i < 4; i++) {
		struct rocedp_member *mb = &g.members[i];

		mb->ifindex = if_nametoindex(ports[i]);
		if (!mb->ifindex)
			die(ports[i], errno);
		err = get_mac(ports[i], mb->smac);
		if (err)
			die(ports[i], err);
		memcpy(mb->dmac, "\x02\xbb\x00\x00\x00\x00", 6);
		mb->dmac[5] = i + 1;
		mb->weight = 1;
		mb->flags = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED |
			    ROCEDP_MEMBERF_STATIC;
		dv.ifindex = mb->ifindex;
		if (bpf_map_update_elem(m->fd[RD_MAP_TX_PORTS], &mb->ifindex,
					&dv, 0))
			die("rd_tx_ports", errno);
		if (bpf_map_update_elem(m->fd[RD_MAP_PORT_CFG], &mb->ifindex,
					&pc, 0))
			die("rd_port_cfg", errno);
	}
	rd_group_build(&g);
	if (g.n_active != 4)
		die("group build", EINVAL);
	if (rd_groupw_put_maps(m, key, &g))
		die("rd_groups", EIO);
	inet_pton(AF_INET, "10.9.0.0", &rk.addr);
	if (bpf_map_update_elem(m->fd[RD_MAP_ROUTES4], &rk, &rv, 0))
		die("rd_routes4", errno);
	if (bpf_map_update_elem(m->fd[RD_MAP_ROUTES6], &rk6, &rv, 0))
		die("rd_routes6", errno);
	if (bpf_map_update_elem(m->fd[RD_MAP_QOS], &cls, &cost_data_qos, 0))
		die("rd_qos", errno);
}

struct ctr_snap {
	uint64_t rx, fwd, redirect, pass_nofwd, remarked, remark_same, ecn_src,
		flowlet_new, reorder;
};

static void snap(int fd, struct ctr_snap *s)
{
	__u64 c[ROCEDP_CTR_MAX];

	ctrs(fd, c);
	s->rx = c[ROCEDP_CTR_RX_PKTS];
	s->fwd = c[ROCEDP_CTR_FWD_PKTS];
	s->redirect = c[ROCEDP_CTR_VERDICT_BASE + ROCEDP_VERDICT_REDIRECT];
	s->pass_nofwd = c[ROCEDP_CTR_PASS_BASE + ROCEDP_PASS_NO_FORWARD];
	s->remarked = c[ROCEDP_CTR_REMARKED];
	s->remark_same = c[ROCEDP_CTR_REMARK_SAME];
	s->ecn_src = c[ROCEDP_CTR_ECN_SRC_MAP] + c[ROCEDP_CTR_ECN_SRC_KFUNC];
	s->flowlet_new = c[ROCEDP_CTR_FLOWLET_NEW];
	s->reorder = c[ROCEDP_CTR_FLOWLET_REORDER_RISK];
}

/* Did every round of the combo take its intended path? */
static bool verify(const struct combo *c, const struct ctr_snap *a,
		   const struct ctr_snap *b, uint64_t rounds, char *why,
		   size_t len)
{
	uint64_t rx = b->rx - a->rx, fwd = b->fwd - a->fwd,
		 redir = b->redirect - a->redirect,
		 nofwd = b->pass_nofwd - a->pass_nofwd,
		 rem = (b->remarked - a->remarked) +
		       (b->remark_same - a->remark_same),
		 ecn = b->ecn_src - a->ecn_src;

	snprintf(why, len,
		 "rx %" PRIu64 " fwd %" PRIu64 " redirect %" PRIu64
		 " pass_no_forward %" PRIu64 " remark %" PRIu64
		 " ecn_decided %" PRIu64,
		 rx, fwd, redir, nofwd, rem, ecn);
	if (rx != rounds)
		return false;
	/* RED ran on every frame, or on none when ECN is off */
	if (ecn != ((c->features & ROCEDP_F_ECN) ? rounds : 0))
		return false;
	if ((c->features & ROCEDP_F_REMARK) && rem != rounds)
		return false;
	if (c->fwd)
		return fwd == rounds && redir == rounds &&
		       b->reorder == a->reorder;
	return nofwd == rounds;
}

/*
 * The trim decision's A/B: the default combination with each port's
 * buffer at its largest (4 GiB, never reached here), without (on false)
 * and with a trim discard action. No frame meets the action; what the
 * second row adds is the decision on ports far from their limit.
 */
static void trim_ab_ports(const struct rd_maps *m, char **ports, int on)
{
	struct rocedp_trim_port tp = { .eligible_dscp = 1,
				       .size = ROCEDP_TRIM_SIZE_DEFAULT,
				       .action = ROCEDP_DISCARD_TRIM,
				       .dscp = ROCEDP_TRIM_DSCP_FROM_TC };
	struct rocedp_port_cfg pc;
	__u32 k;
	int i;

	cost_port_cfg(&pc);
	if (on >= 0) /* -1: back to the cost section's ports */
		pc.buffer_bytes = UINT32_MAX;
	if (on > 0)
		pc.flags |= ROCEDP_PORTF_ADMIT;
	for (i = 0; i < 4; i++) {
		k = if_nametoindex(ports[i]);
		if (bpf_map_update_elem(m->fd[RD_MAP_TRIM_PORTS], &k, &tp, 0) ||
		    bpf_map_update_elem(m->fd[RD_MAP_PORT_CFG], &k, &pc, 0))
			die("the trim A/B's ports", errno);
	}
}

/* Frames the ports' buffers refused so far (the trim counters' sum). */
static __u64 trim_refused(const struct rd_maps *m, char **ports)
{
	struct rocedp_trim_stats t;
	__u64 n = 0;
	__u32 k;
	int i;

	for (i = 0; i < 4; i++) {
		k = if_nametoindex(ports[i]);
		if (rd_percpu_sum(m->fd[RD_MAP_TRIM_STATS], &k, (__u64 *)&t,
				  sizeof(t) / 8))
			die("rd_trim_stats", EIO);
		n += t.trim_pkts + t.tail_drop_pkts;
	}
	return n;
}

/* the unit-cost programs: ktime, counter, lpm, hash, helper */
#define N_REFS 5

/* A measured row: per-pass means, whether every pass verified, and why. */
struct row {
	double ns[16];
	bool ok;
	char why[256];
};

static void row_check(struct row *r, bool ok, const char *why)
{
	/* keep the first failing pass's counters, else the last pass's */
	if (!r->ok)
		return;
	r->ok = ok;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/*
 * One pass of a reference forwarder (empty.bpf.c): timed, and verified by
 * its own redirect count, a plain global that only this run moves.
 */
static void time_ref_fwd(struct row *r, unsigned int pass, int prog_fd,
			 const volatile __u64 *redirected,
			 __u8 (*frames)[FRAME_LEN], unsigned int batches,
			 unsigned int repeat, unsigned int ifindex)
{
	uint64_t rounds = (uint64_t)batches * repeat, done;
	__u64 r0 = *redirected;
	char why[64];

	r->ns[pass] =
		time_prog(prog_fd, true, frames, batches, repeat, ifindex, 0);
	done = *redirected - r0;
	snprintf(why, sizeof(why), "redirected %" PRIu64 " of %" PRIu64, done,
		 rounds);
	row_check(r, done == rounds, why);
}

static double row_stats(const struct row *r, unsigned int passes, double *mn,
			double *mx)
{
	double s = 0;
	unsigned int p;

	*mn = 1e9;
	*mx = 0;
	for (p = 0; p < passes; p++) {
		s += r->ns[p] / passes;
		*mn = fmin(*mn, r->ns[p]);
		*mx = fmax(*mx, r->ns[p]);
	}
	return s;
}

static double mean(const double *v, unsigned int n)
{
	double s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += v[i] / n;
	return s;
}

static void print_row(const char *name, const char *what, const struct row *r,
		      unsigned int passes, double base, double bare)
{
	double mn, mx, s = row_stats(r, passes, &mn, &mx);

	printf("{\"name\":\"%s\",\"what\":\"%s\",\"ns\":%.2f,"
	       "\"min_pass_ns\":%.2f,\"max_pass_ns\":%.2f,\"ratio\":%.3f,",
	       name, what, s, mn, mx, s / base);
	if (bare > 0)
		printf("\"ratio_bare\":%.3f,", s / bare);
	printf("\"verified\":%s,\"counters\":\"%s\"}", r->ok ? "true" : "false",
	       r->why);
}

/*
 * Each row's operations per frame, counted by the counting copies with
 * the timed objects' tables (rdbench_ops.c): one pass of the cost frames
 * each, the rocedp rows with their combination's settings.
 */
static void print_ops(struct rocedp *skel, struct empty *eo,
		      __u8 (*frames)[FRAME_LEN], __u8 (*frames6)[FRAME_LEN],
		      unsigned int in_idx, bool fib)
{
	char name[64];
	static const char *const floors[][2] = {
		{ "ref_bare_fwd", "bench_ref_bare_fwd" },
		{ "ref_bare_flowlet", "bench_ref_bare_flowlet" },
		{ "ref_bare_default", "bench_ref_bare_default" },
		{ "ref_fib_fwd", "bench_ref_fib_fwd" },
	};
	struct rd_opc_set *s = rd_opc_open(skel->obj, eo->obj);
	int cfg = rd_opc_map_fd(s, "rd_config"), n = 0;
	double pf[RD_OPC_N];
	unsigned int i;

	if (cfg < 0)
		die("the counting copy's rd_config", -cfg);
	for (i = 0; i < sizeof(floors) / sizeof(floors[0]); i++) {
		if (i == 3 && !fib)
			continue;
		if (rd_opc_count(s, floors[i][1], frames, N_FRAMES, 10, in_idx,
				 pf))
			continue;
		printf("%s", n++ ? "," : "");
		rd_opc_print(floors[i][0], pf);
	}
	for (i = 0; i < N_COMBOS; i++) {
		set_config(cfg, combos[i].features, combos[i].hash_mode);
		if (rd_opc_count(s, "rocedp_xdp", frames, N_FRAMES, 10, in_idx,
				 pf))
			continue;
		printf("%s", n++ ? "," : "");
		rd_opc_print(combos[i].name, pf);
		/* the IPv6 row beside it: its cache line's full key too */
		if (rd_opc_count(s, "rocedp_xdp", frames6, N_FRAMES, 10, in_idx,
				 pf))
			continue;
		snprintf(name, sizeof(name), "%s_v6", combos[i].name);
		printf(",");
		rd_opc_print(name, pf);
	}
	rd_opc_close(s);
}

int cmd_cost(int argc, char **argv)
{
	unsigned int batches = 5000, repeat = 200, passes = 5, p, i, ci, dflt;
	const char *in_if = NULL, *hold_if = NULL, *hold2_if = NULL,
		   *hold3_if = NULL, *disp_if = NULL;
	struct rd_disp disp = { .fd = -1 };
	double dsp[16];
	int disp_idx = 0;
	int hold_idx, hold2_idx, hold3_idx, bare_idx;
	char *ports[4] = {}, *list = NULL, why[256];
	static __u8 frames[N_FRAMES][FRAME_LEN], frames6[N_FRAMES][FRAME_LEN];
	struct rocedp_port_cfg pc;
	struct empty *eo;
	struct rocedp *skel;
	struct rd_maps m;
	int c, err, fd_empty, fd_empty_tc, fd_xdp, fd_egr, fd_bare, fd_bflow,
		fd_bdef, in_idx, egr_port;
	double empty[16], empty_tc[16], ref[N_REFS][16], e, et, bare_ns, mn, mx;
	static struct row trim_ab[2];
	static struct row ing[N_COMBOS], ing6[N_COMBOS], egr, bare, bflow, bdef,
		bfib;
	int fd_ref[N_REFS], fd_fib, fib_idx = 0, ref_idx[N_REFS] = {};
	static const char *const ref_names[N_REFS] = {
		"ktime", "percpu_counter", "lpm_lookup", "hash_lookup",
		"helper_call"
	};
	const char *fib_hold = NULL, *ref_hold = NULL;
	char *hold_name;
	uint64_t rounds;
	bool all_ok = true;
	__u8 in_mac[6];

	while ((c = getopt(argc, argv, "i:p:b:r:n:H:D:F:")) != -1) {
		switch (c) {
		case 'F': /* FIB_HOLD,HOLD5,HOLD6: hold the kernel-FIB
			   * forwarder (its row, timed: bench.sh gives the
			   * netns the route) and the hash and helper refs */
			ref_hold = optarg;
			fib_hold = strsep((char **)&ref_hold, ",");
			break;
		case 'i':
			in_if = optarg;
			break;
		case 'H': /* HOLD,HOLD2,HOLD3: HOLD2 and HOLD3 hold the bare
			   * flowlet and default forwarders */
			hold3_if = optarg;
			hold_if = strsep((char **)&hold3_if, ",");
			hold2_if = strsep((char **)&hold3_if, ",");
			break;
		case 'p':
			list = optarg;
			break;
		case 'D': /* holds libxdp's dispatcher (the dispatcher row) */
			disp_if = optarg;
			break;
		case 'b':
			batches = atoi(optarg);
			break;
		case 'r':
			repeat = atoi(optarg);
			break;
		case 'n':
			passes = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (!in_if || !hold_if || !hold2_if || !hold3_if || !list ||
	    passes < 1 || passes > 16 || repeat < 1 || repeat > 250 ||
	    batches < 1) {
		fprintf(stderr,
			"usage: rdbench cost -i IN_IF -p IF0,IF1,IF2,IF3 -H HOLD_IF,HOLD2_IF,HOLD3_IF [-D HOLD4_IF] [-F FIB_HOLD,HOLD5,HOLD6] [-b batches] [-r repeat<=250] [-n passes<=16]\n");
		return 2;
	}
	rounds = (uint64_t)batches * repeat;
	for (i = 0; i < 4; i++) {
		ports[i] = strsep(&list, ",");
		if (!ports[i])
			die("-p: need 4 interfaces", EINVAL);
	}
	in_idx = if_nametoindex(in_if);
	if (!in_idx)
		die(in_if, errno);
	err = get_mac(in_if, in_mac);
	if (err)
		die(in_if, err);
	for (i = 0; i < N_FRAMES; i++) {
		build_frame(frames[i], 0x100 + i, in_mac);
		build_frame6(frames6[i], 0x100 + i, in_mac);
	}

	skel = rdbench_rocedp_open();
	/* live settings: no trace, real clock, real devmap */
	skel->rodata->cfg_trace = false;
	skel->rodata->cfg_clock_from_map = false;
	skel->rodata->cfg_offline = false;
	skel->rodata->cfg_ecn_kfunc = false;
	err = rocedp__load(skel);
	if (err)
		die("rocedp__load", err);
	rd_maps_from_skel(&m, skel);
	err = rd_config_apply_defaults(&m);
	if (err)
		die("defaults", err);
	setup_fib(&m, ports);
	/* the bench is the maps' only writer: the decision cache may run */
	err = rd_routew_mark_fd(m.fd[RD_MAP_ROUTE_GEN], true);
	if (err)
		die("rd_route_gen", err);
	fd_xdp = bpf_program__fd(skel->progs.rocedp_xdp);
	fd_egr = bpf_program__fd(skel->progs.rocedp_egress_tr);
	egr_port = if_nametoindex(ports[0]);

	eo = bare_open();
	fd_empty = bpf_program__fd(eo->progs.bench_empty_xdp);
	fd_empty_tc = bpf_program__fd(eo->progs.bench_empty_tc);
	fd_ref[0] = bpf_program__fd(eo->progs.bench_ref_ktime);
	fd_ref[1] = bpf_program__fd(eo->progs.bench_ref_counter);
	fd_ref[2] = bpf_program__fd(eo->progs.bench_ref_lpm);
	fd_ref[3] = bpf_program__fd(eo->progs.bench_ref_hash);
	fd_ref[4] = bpf_program__fd(eo->progs.bench_ref_helper);
	fd_fib = bpf_program__fd(eo->progs.bench_ref_fib_fwd);
	fd_bare = bpf_program__fd(eo->progs.bench_ref_bare_fwd);
	fd_bflow = bpf_program__fd(eo->progs.bench_ref_bare_flowlet);
	fd_bdef = bpf_program__fd(eo->progs.bench_ref_bare_default);
	{
		/* 10.9.0.0/16, as rocedp's route */
		struct {
			__u32 plen, addr;
		} k = { 16, 0x0000090a };
		__u64 v = 1;

		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_lpm), &k, &v,
					0))
			die("ref_lpm", errno);
		/* bench_ref_hash's key */
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_hash),
					&(__u32){ 1 }, &v, 0))
			die("ref_hash", errno);
	}
	setup_fib_fwd(eo, ports, 4);
	setup_bare_fwd(eo, ports);
	cost_port_cfg(&pc);
	setup_bare_default(eo, &pc, &cost_data_qos);

	/*
	 * Every XDP test run registers its program with the kernel's XDP
	 * dispatcher and removes it afterwards, each a synchronize_rcu()
	 * (milliseconds, far more under load). A program already attached
	 * natively somewhere stays registered, so the runs skip that: hold
	 * each on a veth that carries no traffic.
	 */
	hold_idx = if_nametoindex(hold_if);
	if (!hold_idx)
		die(hold_if, errno);
	hold2_idx = if_nametoindex(hold2_if);
	if (!hold2_idx)
		die(hold2_if, errno);
	hold3_idx = if_nametoindex(hold3_if);
	if (!hold3_idx)
		die(hold3_if, errno);
	bare_idx = if_nametoindex(ports[3]);
	if (bpf_xdp_attach(hold_idx, fd_xdp, XDP_FLAGS_DRV_MODE, NULL))
		die("holding rocedp_xdp in the dispatcher", errno);
	if (bpf_xdp_attach(in_idx, fd_empty, XDP_FLAGS_DRV_MODE, NULL))
		die("holding the empty program in the dispatcher", errno);
	for (i = 0; i < 3; i++)
		if (bpf_xdp_attach(if_nametoindex(ports[i]), fd_ref[i],
				   XDP_FLAGS_DRV_MODE, NULL))
			die("holding a reference program", errno);
	if (bpf_xdp_attach(bare_idx, fd_bare, XDP_FLAGS_DRV_MODE, NULL))
		die("holding the bare forwarder in the dispatcher", errno);
	if (bpf_xdp_attach(hold2_idx, fd_bflow, XDP_FLAGS_DRV_MODE, NULL))
		die("holding the bare flowlet forwarder in the dispatcher",
		    errno);
	if (bpf_xdp_attach(hold3_idx, fd_bdef, XDP_FLAGS_DRV_MODE, NULL))
		die("holding the bare default forwarder in the dispatcher",
		    errno);

	if (fib_hold) {
		fib_idx = if_nametoindex(fib_hold);
		if (!fib_idx)
			die(fib_hold, errno);
		if (bpf_xdp_attach(fib_idx, fd_fib, XDP_FLAGS_DRV_MODE, NULL))
			die("holding the kernel-FIB forwarder", errno);
	}
	for (i = 3; i < N_REFS && ref_hold; i++) {
		hold_name = strsep((char **)&ref_hold, ",");
		if (!hold_name || !(ref_idx[i] = if_nametoindex(hold_name)))
			die("-F: a hold interface for each new unit cost",
			    EINVAL);
		if (bpf_xdp_attach(ref_idx[i], fd_ref[i], XDP_FLAGS_DRV_MODE,
				   NULL))
			die("holding a reference program", errno);
	}
	if (disp_if) {
		err = rd_disp_load(&disp);
		if (err)
			die("libxdp's dispatcher (xdp-dispatcher.o)", -err);
		disp_idx = if_nametoindex(disp_if);
		if (!disp_idx)
			die(disp_if, errno);
		if (bpf_xdp_attach(disp_idx, disp.fd, XDP_FLAGS_DRV_MODE, NULL))
			die("holding libxdp's dispatcher", errno);
	}
	for (ci = 0; ci < N_COMBOS; ci++)
		ing[ci].ok = ing6[ci].ok = true;
	egr.ok = bare.ok = bflow.ok = bdef.ok = bfib.ok = true;
	trim_ab[0].ok = trim_ab[1].ok = true;
	for (dflt = 0; dflt < N_COMBOS && strcmp(combos[dflt].name, "default");
	     dflt++)
		;
	if (dflt == N_COMBOS)
		die("the default combination", ENOENT);
	/* passes interleave the programs so drift hits all alike */
	for (p = 0; p < passes; p++) {
		struct ctr_snap a, b;

		empty[p] = time_prog(fd_empty, true, frames, batches, repeat,
				     in_idx, 0);
		empty_tc[p] = time_prog(fd_empty_tc, false, frames, batches,
					repeat, 0, 0);
		for (i = 0; i < N_REFS; i++)
			ref[i][p] = time_prog(fd_ref[i], true, frames,
					      batches / 5 ?: 1, repeat, in_idx,
					      0);

		if (disp_idx)
			dsp[p] = time_prog(disp.fd, true, frames, batches,
					   repeat, in_idx, 0);
		time_ref_fwd(&bare, p, fd_bare, &eo->bss->ref_fwd_redirected,
			     frames, batches, repeat, in_idx);
		time_ref_fwd(&bflow, p, fd_bflow,
			     &eo->bss->ref_flowlet_redirected, frames, batches,
			     repeat, in_idx);
		time_ref_fwd(&bdef, p, fd_bdef,
			     &eo->bss->ref_default_redirected, frames, batches,
			     repeat, in_idx);
		if (fib_idx)
			time_ref_fwd(&bfib, p, fd_fib,
				     &eo->bss->ref_fib_redirected, frames,
				     batches, repeat, in_idx);

		for (ci = 0; ci < N_COMBOS; ci++) {
			const struct combo *cb = &combos[ci];
			bool ok;

			set_config(m.fd[RD_MAP_CONFIG], cb->features,
				   cb->hash_mode);
			snap(m.fd[RD_MAP_STATS], &a);
			ing[ci].ns[p] = time_prog(fd_xdp, true, frames, batches,
						  repeat, in_idx, 0);
			snap(m.fd[RD_MAP_STATS], &b);
			ok = verify(cb, &a, &b, rounds, why, sizeof(why));
			row_check(&ing[ci], ok, why);
			/* the IPv6 row right after, under the same drift */
			snap(m.fd[RD_MAP_STATS], &a);
			ing6[ci].ns[p] = time_prog(fd_xdp, true, frames6,
						   batches, repeat, in_idx, 0);
			snap(m.fd[RD_MAP_STATS], &b);
			ok = verify(cb, &a, &b, rounds, why, sizeof(why));
			row_check(&ing6[ci], ok, why);
		}

		/* the trim decision's A/B, back to back under the same drift */
		set_config(m.fd[RD_MAP_CONFIG], combos[dflt].features,
			   combos[dflt].hash_mode);
		for (i = 0; i < 2; i++) {
			__u64 refused;
			bool ok;

			trim_ab_ports(&m, ports, i);
			refused = trim_refused(&m, ports);
			snap(m.fd[RD_MAP_STATS], &a);
			trim_ab[i].ns[p] = time_prog(fd_xdp, true, frames,
						     batches, repeat, in_idx,
						     0);
			snap(m.fd[RD_MAP_STATS], &b);
			ok = verify(&combos[dflt], &a, &b, rounds, why,
				    sizeof(why));
			refused = trim_refused(&m, ports) - refused;
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " refused %" PRIu64, (uint64_t)refused);
			row_check(&trim_ab[i], ok && !refused, why);
		}
		trim_ab_ports(&m, ports, -1);

		/* the tc path's ECN point: port from skb->mark */
		set_config(m.fd[RD_MAP_CONFIG], TC_EGRESS_FEATURES,
			   ROCEDP_HASH_QP);
		snap(m.fd[RD_MAP_STATS], &a);
		egr.ns[p] = time_prog(fd_egr, false, frames, batches, repeat, 0,
				      egr_port);
		snap(m.fd[RD_MAP_STATS], &b);
		snprintf(why, sizeof(why),
			 "ecn_decided %" PRIu64 " of %" PRIu64,
			 b.ecn_src - a.ecn_src, rounds);
		row_check(&egr, b.ecn_src - a.ecn_src == rounds, why);
	}

	/* JSON */
	e = mean(empty, passes);
	et = mean(empty_tc, passes);
	bare_ns = row_stats(&bare, passes, &mn, &mx);
	printf("{\"rounds_per_program\":%" PRIu64 ",\"batches\":%u,"
	       "\"repeat\":%u,\"passes\":%u,\"frame_len\":%d,"
	       "\"flows\":%d,",
	       rounds * passes, batches * passes, repeat, passes, FRAME_LEN,
	       N_FRAMES);
	printf("\"empty_xdp_ns\":%.2f,\"empty_tc_ns\":%.2f,", e, et);
	printf("\"reference_ns\":{");
	for (i = 0; i < N_REFS; i++)
		printf("%s\"%s\":%.2f", i ? "," : "", ref_names[i],
		       mean(ref[i], passes));
	printf("},\"bare_fwd\":");
	print_row("ref_bare_fwd", "LPM, 5-tuple hash, member, rewrite, devmap",
		  &bare, passes, e, 0);
	printf(",\"bare_flowlet\":");
	print_row("ref_bare_flowlet",
		  "ref_bare_fwd + clock + flow table (hashed array)", &bflow,
		  passes, e, bare_ns);
	printf(",\"bare_default\":");
	print_row("ref_bare_default",
		  "ref_bare_fwd + RoCE class, QP hash, DSCP, RED, one counter",
		  &bdef, passes, e, bare_ns);
	if (fib_idx) {
		printf(",\"fib_fwd\":");
		print_row(
			"ref_fib_fwd",
			"kernel FIB: bpf_fib_lookup, MACs, devmap (xdp-forward)",
			&bfib, passes, e, bare_ns);
	}
	printf(",\"tc_egress\":");
	print_row("ecn_tc_egress", "rocedp_egress_tr, forward+remark+ecn", &egr,
		  passes, et, 0);
	if (disp_idx)
		/* what sharing a port adds to a frame: the dispatcher's own
		 * run and its call into the slot, net of the empty program */
		printf(",\"dispatcher\":{\"name\":\"dispatcher\",\"ns\":%.2f,"
		       "\"overhead_ns\":%.2f,\"slot\":\"%s\",\"freplace\":\"%s\"}",
		       mean(dsp, passes), mean(dsp, passes) - e,
		       disp.link ? "extension" : "stub",
		       disp.link ? "attached" : strerror(-disp.ext_err));
	/* the trim A/B: the second row's extra over the first, same passes */
	printf(",\"trim_ab\":{\"off\":");
	print_row("default_buffer", "default, 4 GiB buffers, no discard action",
		  &trim_ab[0], passes, e, bare_ns);
	printf(",\"on\":");
	print_row("default_trim", "the same with discard trim on every port",
		  &trim_ab[1], passes, e, bare_ns);
	printf(",\"delta_ns\":%.2f,\"ratio\":%.4f}",
	       mean(trim_ab[1].ns, passes) - mean(trim_ab[0].ns, passes),
	       mean(trim_ab[1].ns, passes) / mean(trim_ab[0].ns, passes));
	all_ok &= trim_ab[0].ok && trim_ab[1].ok;
	printf(",\"tc_egress_net_ns\":%.2f,\"combos\":[",
	       row_stats(&egr, passes, &mn, &mx) - et);
	for (ci = 0; ci < N_COMBOS; ci++) {
		printf("%s", ci ? "," : "");
		print_row(combos[ci].name, combos[ci].what, &ing[ci], passes, e,
			  bare_ns);
		all_ok &= ing[ci].ok;
	}
	printf("],\"combos_v6\":[");
	for (ci = 0; ci < N_COMBOS; ci++) {
		char name[64];

		snprintf(name, sizeof(name), "%s_v6", combos[ci].name);
		printf("%s", ci ? "," : "");
		print_row(name, "the row above, IPv6 frames", &ing6[ci], passes,
			  e, bare_ns);
		all_ok &= ing6[ci].ok;
	}
	printf("],\"ops_per_frame\":{");
	print_ops(skel, eo, frames, frames6, in_idx, fib_idx);
	printf("}}\n");
	all_ok &= bare.ok && bflow.ok && bdef.ok && egr.ok &&
		  (!fib_idx || bfib.ok);

	bpf_xdp_detach(hold_idx, XDP_FLAGS_DRV_MODE, NULL);
	bpf_xdp_detach(hold2_idx, XDP_FLAGS_DRV_MODE, NULL);
	bpf_xdp_detach(hold3_idx, XDP_FLAGS_DRV_MODE, NULL);
	bpf_xdp_detach(in_idx, XDP_FLAGS_DRV_MODE, NULL);
	if (fib_idx)
		bpf_xdp_detach(fib_idx, XDP_FLAGS_DRV_MODE, NULL);
	for (i = 3; i < N_REFS; i++)
		if (ref_idx[i])
			bpf_xdp_detach(ref_idx[i], XDP_FLAGS_DRV_MODE, NULL);
	if (disp_idx)
		bpf_xdp_detach(disp_idx, XDP_FLAGS_DRV_MODE, NULL);
	rd_disp_close(&disp);
	for (i = 0; i < 4; i++)
		bpf_xdp_detach(if_nametoindex(ports[i]), XDP_FLAGS_DRV_MODE,
			       NULL);
	empty__destroy(eo);
	rocedp__destroy(skel);
	return all_ok ? 0 : 1;
}
