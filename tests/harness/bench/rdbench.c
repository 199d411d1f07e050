// SPDX-License-Identifier: GPL-2.0
/*
 * rdbench: the measuring half of `make bench` (tests/harness/bench/bench.sh sets up
 * the namespaces and calls the subcommands; each prints one JSON object).
 *
 *   cost      per-packet cost of rocedp's programs under BPF_PROG_TEST_RUN
 *   mem       memory of every map at the default sizes, per 1M flowlets
 *   src       live-frame traffic source (BPF_F_TEST_XDP_LIVE_FRAMES) that
 *             reads the sink counter before and after; frames over 1500
 *             bytes go out through AF_PACKET
 *   barefwd   attach the bare forwarder natively (the ceiling row)
 *   sink      attach the counting XDP_DROP sink to interfaces
 *   routewait run a command, time until a route is in the pinned LPM map
 *   count     entries of a pinned map
 *   ctrs      forwarding and ECN counters of a pinned rd_stats
 *   flap      link down/up by ioctl, time until the group map follows
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/if_link.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "engine.h"
#include "config_txn.h"
#include "frame.h"
#include "groupw.h"
#include "stats.h"
#include "rocedp.skel.h"
#include "pktgen.skel.h"
#include "empty.skel.h"
#include "bench_abi.h"

/* the CLI's error helper lives in main.c, which is not linked here */

static void die(const char *what, int err)
{
	fprintf(stderr, "rdbench: %s: %s\n", what,
		strerror(err < 0 ? -err : err));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int ncpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : 1;
}

static int get_mac(const char *ifname, __u8 mac[ETH_ALEN])
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	close(fd);
	return err;
}

static int parse_mac(const char *s, __u8 mac[ETH_ALEN])
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return 0;
}

/* ------------------------------------------------------------------ cost */

/* Every rd_stats counter, summed over all CPUs, into c. */
static void ctrs(int fd, __u64 *c)
{
	int err = rd_counters_read(fd, c);

	if (err)
		die("rd_stats lookup", err);
}

#define FRAME_LEN 130 /* 54 payload bytes + 2 of pad (BTH PadCnt) */
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
	/* issue 21: per-QP telemetry on top of the default (goal <= 1.15x) */
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
	if (bpf_map_update_elem(m->fd[RD_MAP_QOS], &cls, &cost_data_qos, 0))
		die("rd_qos", errno);
}

/* The bare forwarder's tables: the same route, the same four ports. */
static void setup_bare_fwd(struct empty *eo, char **ports)
{
	struct bpf_devmap_val dv = { .bpf_prog.fd = -1 };
	struct {
		__u32 plen, addr;
	} k = { 16, 0 };
	__u32 grp = 0, i;
	int err;

	inet_pton(AF_INET, "10.9.0.0", &k.addr);
	if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_routes), &k, &grp,
				0))
		die("ref_fwd_routes", errno);
	for (i = 0; i < 4; i++) {
		struct ref_fwd_member mb = { .ifindex =
						     if_nametoindex(ports[i]) };

		if (!mb.ifindex)
			die(ports[i], errno);
		err = get_mac(ports[i], mb.smac);
		if (err)
			die(ports[i], err);
		memcpy(mb.dmac, "\x02\xbb\x00\x00\x00\x00", 6);
		mb.dmac[5] = i + 1;
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_members),
					&i, &mb, 0))
			die("ref_fwd_members", errno);
		dv.ifindex = mb.ifindex;
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_tx),
					&mb.ifindex, &dv, 0))
			die("ref_fwd_tx", errno);
	}
}

/*
 * The bare default forwarder's extra tables, from what rocedp gets beside
 * it: each member's port at pc's rate and RED thresholds, and the DSCP
 * actions of rocedp's built-in defaults (config.c), the data class's
 * replaced by data unless NULL.
 */
static void setup_bare_default(struct empty *eo,
			       const struct rocedp_port_cfg *pc,
			       const struct rocedp_qos *data)
{
	static const __u32 cls[REF_CLASSES] = {
		[REF_CLASS_DATA] = ROCEDP_CLASS_DATA,
		[REF_CLASS_ACK] = ROCEDP_CLASS_ACK,
		[REF_CLASS_CNP] = ROCEDP_CLASS_CNP,
	};
	struct ref_port pt = { .kmin = pc->kmin_bytes,
			       .kmax = pc->kmax_bytes,
			       .pmax = pc->pmax_percent };
	static struct rd_staged dflt;
	__u32 i, dscp;

	rd_staged_defaults(&dflt);
	if (data)
		dflt.qos[ROCEDP_CLASS_DATA] = *data;
	/* bytes per ns << ROCEDP_VQ_DRAIN_SHIFT, rounded, as rd_vq_drain_fp */
	pt.drain_fp =
		((pc->rate_bps << (ROCEDP_VQ_DRAIN_SHIFT - 3)) + 500000000) /
		1000000000;
	for (i = 0; i < REF_FWD_MEMBERS; i++)
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_ports), &i,
					&pt, 0))
			die("ref_ports", errno);
	for (i = 0; i < REF_CLASSES; i++) {
		const struct rocedp_qos *q = &dflt.qos[cls[i]];

		dscp = q->action == ROCEDP_QOS_SET_DSCP ? q->dscp :
							  REF_DSCP_LEAVE;
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_dscp), &i,
					&dscp, 0))
			die("ref_dscp", errno);
	}
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

static int cmd_cost(int argc, char **argv)
{
	unsigned int batches = 5000, repeat = 200, passes = 5, p, i, ci;
	const char *in_if = NULL, *hold_if = NULL, *hold2_if = NULL,
		   *hold3_if = NULL;
	int hold_idx, hold2_idx, hold3_idx, bare_idx;
	char *ports[4] = {}, *list = NULL, why[256];
	static __u8 frames[N_FRAMES][FRAME_LEN];
	struct rocedp_port_cfg pc;
	struct empty *eo;
	struct rocedp *skel;
	struct rd_maps m;
	int c, err, fd_empty, fd_empty_tc, fd_xdp, fd_egr, fd_bare, fd_bflow,
		fd_bdef, in_idx, egr_port;
	double empty[16], empty_tc[16], ref[3][16], e, et, bare_ns, mn, mx;
	static struct row ing[N_COMBOS], egr, bare, bflow, bdef;
	int fd_ref[3];
	static const char *const ref_names[3] = { "ktime", "percpu_counter",
						  "lpm_lookup" };
	uint64_t rounds;
	bool all_ok = true;
	__u8 in_mac[6];

	while ((c = getopt(argc, argv, "i:p:b:r:n:H:")) != -1) {
		switch (c) {
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
			"usage: rdbench cost -i IN_IF -p IF0,IF1,IF2,IF3 -H HOLD_IF,HOLD2_IF,HOLD3_IF [-b batches] [-r repeat<=250] [-n passes<=16]\n");
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
	for (i = 0; i < N_FRAMES; i++)
		build_frame(frames[i], 0x100 + i, in_mac);

	skel = rocedp__open();
	if (!skel)
		die("rocedp__open", errno);
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
	fd_xdp = bpf_program__fd(skel->progs.rocedp_xdp);
	fd_egr = bpf_program__fd(skel->progs.rocedp_egress_tr);
	egr_port = if_nametoindex(ports[0]);

	eo = empty__open_and_load();
	if (!eo)
		die("empty.bpf.o", errno);
	fd_empty = bpf_program__fd(eo->progs.bench_empty_xdp);
	fd_empty_tc = bpf_program__fd(eo->progs.bench_empty_tc);
	fd_ref[0] = bpf_program__fd(eo->progs.bench_ref_ktime);
	fd_ref[1] = bpf_program__fd(eo->progs.bench_ref_counter);
	fd_ref[2] = bpf_program__fd(eo->progs.bench_ref_lpm);
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
	}
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

	for (ci = 0; ci < N_COMBOS; ci++)
		ing[ci].ok = true;
	egr.ok = bare.ok = bflow.ok = bdef.ok = true;
	/* passes interleave the programs so drift hits all alike */
	for (p = 0; p < passes; p++) {
		struct ctr_snap a, b;

		empty[p] = time_prog(fd_empty, true, frames, batches, repeat,
				     in_idx, 0);
		empty_tc[p] = time_prog(fd_empty_tc, false, frames, batches,
					repeat, 0, 0);
		for (i = 0; i < 3; i++)
			ref[i][p] = time_prog(fd_ref[i], true, frames,
					      batches / 5 ?: 1, repeat, in_idx,
					      0);

		time_ref_fwd(&bare, p, fd_bare, &eo->bss->ref_fwd_redirected,
			     frames, batches, repeat, in_idx);
		time_ref_fwd(&bflow, p, fd_bflow,
			     &eo->bss->ref_flowlet_redirected, frames, batches,
			     repeat, in_idx);
		time_ref_fwd(&bdef, p, fd_bdef,
			     &eo->bss->ref_default_redirected, frames, batches,
			     repeat, in_idx);

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
		}

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
	for (i = 0; i < 3; i++)
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
	printf(",\"tc_egress\":");
	print_row("ecn_tc_egress", "rocedp_egress_tr, forward+remark+ecn", &egr,
		  passes, et, 0);
	printf(",\"tc_egress_net_ns\":%.2f,\"combos\":[",
	       row_stats(&egr, passes, &mn, &mx) - et);
	for (ci = 0; ci < N_COMBOS; ci++) {
		printf("%s", ci ? "," : "");
		print_row(combos[ci].name, combos[ci].what, &ing[ci], passes, e,
			  bare_ns);
		all_ok &= ing[ci].ok;
	}
	printf("]}\n");
	all_ok &= bare.ok && bflow.ok && bdef.ok && egr.ok;

	bpf_xdp_detach(hold_idx, XDP_FLAGS_DRV_MODE, NULL);
	bpf_xdp_detach(hold2_idx, XDP_FLAGS_DRV_MODE, NULL);
	bpf_xdp_detach(hold3_idx, XDP_FLAGS_DRV_MODE, NULL);
	bpf_xdp_detach(in_idx, XDP_FLAGS_DRV_MODE, NULL);
	for (i = 0; i < 4; i++)
		bpf_xdp_detach(if_nametoindex(ports[i]), XDP_FLAGS_DRV_MODE,
			       NULL);
	empty__destroy(eo);
	rocedp__destroy(skel);
	return all_ok ? 0 : 1;
}

/* ------------------------------------------------------------------- mem */

static long fdinfo_memlock(int fd)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static bool percpu_type(__u32 t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static void print_map(int fd, const char *name, bool *first)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	unsigned long long computed, vsz;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		die(name, errno);
	vsz = percpu_type(info.type) ?
		      (unsigned long long)((info.value_size + 7) & ~7u) *
			      ncpus() :
		      info.value_size;
	computed = (unsigned long long)(info.key_size + vsz) * info.max_entries;
	printf("%s{\"map\":\"%s\",\"type\":\"%s\",\"key\":%u,\"value\":%u,"
	       "\"entries\":%u,\"percpu\":%s,\"computed_bytes\":%llu,"
	       "\"memlock_bytes\":%ld}",
	       *first ? "" : ",", name, libbpf_bpf_map_type_str(info.type),
	       info.key_size, info.value_size, info.max_entries,
	       percpu_type(info.type) ? "true" : "false", computed,
	       fdinfo_memlock(fd));
	*first = false;
}

static int cmd_mem(int argc, char **argv)
{
	struct rocedp *skel;
	struct bpf_map *map;
	bool first = true;
	long fl_1m, lpm_empty, lpm_full;
	LIBBPF_OPTS(bpf_map_create_opts, lpm_opts,
		    .map_flags = BPF_F_NO_PREALLOC);
	struct rocedp_route4_key k = { .prefixlen = 26 };
	struct rocedp_route v = { .group_id = 1 };
	unsigned int i, n_routes = 100000;
	int fd, err;
	long total = 0;
	unsigned long long total_computed = 0;

	skel = rocedp__open();
	if (!skel)
		die("rocedp__open", errno);
	err = rocedp__load(skel);
	if (err)
		die("rocedp__load", err);
	printf("{\"ncpus\":%d,\"maps\":[", ncpus());
	bpf_object__for_each_map(map, skel->obj)
	{
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		unsigned long long vsz;

		/* .rodata/.bss of the object are not dataplane tables */
		if (bpf_map__is_internal(map))
			continue;
		fd = bpf_map__fd(map);
		print_map(fd, bpf_map__name(map), &first);
		total += fdinfo_memlock(fd);
		bpf_obj_get_info_by_fd(fd, &info, &len);
		vsz = percpu_type(info.type) ?
			      (unsigned long long)((info.value_size + 7) &
						   ~7u) *
				      ncpus() :
			      info.value_size;
		total_computed += (info.key_size + vsz) * info.max_entries;
	}
	printf("],\"total_memlock_bytes\":%ld,\"total_computed_bytes\":%llu,",
	       total, total_computed);

	/* 1M flowlets: the same map type and sets, 2^20 ways */
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bench_fl1m", 4,
			    sizeof(struct rocedp_flowlet_set),
			    (1 << 20) / ROCEDP_FLOWLET_WAYS, NULL);
	if (fd < 0)
		die("flowlet ARRAY 1M", errno);
	fl_1m = fdinfo_memlock(fd);
	close(fd);
	printf("\"flowlets_1m\":{\"computed_bytes\":%zu,\"memlock_bytes\":%ld},",
	       sizeof(struct rocedp_flowlet_way) * (1 << 20), fl_1m);

	/* LPM tries allocate per entry: measure the IPv4 table filled */
	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "bench_lpm",
			    sizeof(struct rocedp_route4_key),
			    sizeof(struct rocedp_route), ROCEDP_MAX_ROUTES4,
			    &lpm_opts);
	if (fd < 0)
		die("LPM_TRIE", errno);
	lpm_empty = fdinfo_memlock(fd);
	for (i = 0; i < n_routes; i++) {
		k.addr = htonl((10u << 24 | 128u << 16) + (i << 6));
		if (bpf_map_update_elem(fd, &k, &v, 0))
			die("LPM fill", errno);
	}
	lpm_full = fdinfo_memlock(fd);
	close(fd);
	printf("\"routes4_100k\":{\"routes\":%u,\"memlock_empty_bytes\":%ld,"
	       "\"memlock_bytes\":%ld}}\n",
	       n_routes, lpm_empty, lpm_full);
	rocedp__destroy(skel);
	return 0;
}

/* ------------------------------------------------------------ src / sink */

static uint64_t read_sink(const char *pin)
{
	int fd = bpf_obj_get(pin), err;
	__u32 zero = 0;
	__u64 s;

	if (fd < 0)
		die(pin, errno);
	err = rd_percpu_sum(fd, &zero, &s, 1);
	close(fd);
	if (err)
		die("sink lookup", err);
	return s;
}

static int cmd_sink(int argc, char **argv)
{
	struct pktgen *skel;
	int i, fd, idx;

	if (argc < 3) {
		fprintf(stderr, "usage: rdbench sink PIN_PATH IF...\n");
		return 2;
	}
	skel = pktgen__open();
	if (!skel)
		die("pktgen__open", errno);
	bpf_program__set_autoload(skel->progs.bench_src, false);
	if (pktgen__load(skel))
		die("pktgen load", errno);
	fd = bpf_program__fd(skel->progs.bench_sink);
	for (i = 2; i < argc; i++) {
		idx = if_nametoindex(argv[i]);
		if (!idx)
			die(argv[i], errno);
		/* a plain attach outlives us; the netns takes it away */
		if (bpf_xdp_attach(idx, fd, XDP_FLAGS_DRV_MODE, NULL))
			die(argv[i], errno);
	}
	if (bpf_map__pin(skel->maps.sink_count, argv[1]))
		die(argv[1], errno);
	pktgen__destroy(skel);
	return 0;
}

static int cmd_sink_read(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	printf("%" PRIu64 "\n", read_sink(argv[1]));
	return 0;
}

/*
 * Live test-run frames must fit one page (the kernel refuses bigger ones),
 * so jumbo frames go out through an AF_PACKET socket that bypasses the
 * qdisc: SRC_PKT_FRAMES distinct frames, whose headers the source program
 * itself wrote in ordinary test runs, sent round robin with sendmmsg.
 * Returns the frames handed to the device; *ns the time taken.
 */
#define SRC_LIVE_MAX 1500
#define SRC_PKT_MAX 9216
#define SRC_PKT_FRAMES 512
#define SRC_PKT_BATCH 32

static uint64_t src_packet(int prog_fd, unsigned int idx, unsigned int size,
			   double seconds, uint64_t *ns)
{
	static __u8 frames[SRC_PKT_FRAMES][SRC_PKT_MAX];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_ifindex = idx };
	struct mmsghdr msg[SRC_PKT_BATCH];
	struct iovec iov[SRC_PKT_BATCH];
	uint64_t sent = 0, t0, t1;
	int i, n, s, one = 1;

	for (i = 0; i < SRC_PKT_FRAMES; i++) {
		struct xdp_md ctx = { .data_end = size };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frames[i],
			    .data_size_in = size, .data_out = frames[i],
			    .data_size_out = size, .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx));

		if (bpf_prog_test_run_opts(prog_fd, &o))
			die("writing the frames' headers", errno);
	}
	s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(s, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		die("AF_PACKET socket", errno);
	t0 = now_ns();
	do {
		for (i = 0; i < SRC_PKT_BATCH; i++) {
			iov[i].iov_base = frames[(sent + i) % SRC_PKT_FRAMES];
			iov[i].iov_len = size;
			memset(&msg[i], 0, sizeof(msg[i]));
			msg[i].msg_hdr.msg_iov = &iov[i];
			msg[i].msg_hdr.msg_iovlen = 1;
		}
		n = sendmmsg(s, msg, SRC_PKT_BATCH, 0);
		if (n < 0 && errno != ENOBUFS && errno != EAGAIN)
			die("sendmmsg", errno);
		if (n > 0)
			sent += n;
		t1 = now_ns();
	} while ((t1 - t0) < seconds * 1e9);
	close(s);
	*ns = t1 - t0;
	return sent;
}

static int cmd_src(int argc, char **argv)
{
	const char *ifname = NULL, *sink = NULL, *hold_if = NULL;
	unsigned int size = 64, idx, chunk = 50000;
	double seconds = 2.0;
	uint64_t sent = 0, t0, t1, c0, c1;
	struct in_addr sa = {}, da = {};
	__u8 dmac[6] = {}, smac[6] = {};
	struct pktgen *skel;
	static __u8 frame[9000];
	int c, fd;

	while ((c = getopt(argc, argv, "i:d:s:S:D:l:t:k:H:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'H':
			hold_if = optarg;
			break;
		case 'd':
			if (parse_mac(optarg, dmac))
				die("-d", EINVAL);
			break;
		case 's':
			if (inet_pton(AF_INET, optarg, &sa) != 1)
				die("-s", EINVAL);
			break;
		case 'D':
			if (inet_pton(AF_INET, optarg, &da) != 1)
				die("-D", EINVAL);
			break;
		case 'l':
			size = atoi(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'k':
			sink = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!ifname || !sink || size < 64 || size > SRC_PKT_MAX) {
		fprintf(stderr,
			"usage: rdbench src -i IF -d DSTMAC -s SADDR -D DADDR -l SIZE -t SECONDS -k SINK_PIN [-H HOLD_IF]\n");
		return 2;
	}
	idx = if_nametoindex(ifname);
	if (!idx || get_mac(ifname, smac))
		die(ifname, errno);
	skel = pktgen__open();
	if (!skel)
		die("pktgen__open", errno);
	bpf_program__set_autoload(skel->progs.bench_sink, false);
	memcpy((void *)skel->rodata->src_dmac, dmac, 6);
	memcpy((void *)skel->rodata->src_smac, smac, 6);
	skel->rodata->src_saddr = sa.s_addr;
	skel->rodata->src_daddr = da.s_addr;
	if (pktgen__load(skel))
		die("pktgen load", errno);
	fd = bpf_program__fd(skel->progs.bench_src);
	if (size > SRC_LIVE_MAX) {
		c0 = read_sink(sink);
		sent = src_packet(fd, idx, size, seconds, &t0);
		usleep(100000);
		c1 = read_sink(sink);
		t1 = t0;
		t0 = 0;
		goto out;
	}
	/*
	 * Each live-frame test run would otherwise add the source to the XDP
	 * dispatcher and take it out again, a synchronize_rcu() apiece: that
	 * capped the source near 2 Mpps. Held attached to an idle veth, it
	 * stays registered (12 Mpps into a dropping veth here).
	 */
	if (hold_if) {
		int hold = if_nametoindex(hold_if);

		if (!hold)
			die(hold_if, errno);
		if (bpf_xdp_attach(hold, fd, XDP_FLAGS_DRV_MODE, NULL))
			die("holding the source in the XDP dispatcher", errno);
	}

	c0 = read_sink(sink);
	t0 = now_ns();
	do {
		struct xdp_md ctx = { .data_end = size,
				      .ingress_ifindex = idx };
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = size, .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = chunk,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

		if (bpf_prog_test_run_opts(fd, &opts))
			die("BPF_PROG_TEST_RUN live frames", errno);
		sent += chunk;
		t1 = now_ns();
	} while ((t1 - t0) < seconds * 1e9);
	/* let the last batch drain through the forwarder */
	usleep(100000);
	c1 = read_sink(sink);
out:
	/* t0_ns/t1_ns (CLOCK_MONOTONIC): two sources at once are summed
	 * over the union of their windows (bench.sh, two-CPU rows) */
	printf("{\"size\":%u,\"sent\":%" PRIu64 ",\"received\":%" PRIu64
	       ",\"seconds\":%.4f,\"sent_mpps\":%.4f,\"mpps\":%.4f,"
	       "\"t0_ns\":%" PRIu64 ",\"t1_ns\":%" PRIu64 "}\n",
	       size, sent, c1 - c0, (t1 - t0) / 1e9, sent / ((t1 - t0) / 1e3),
	       (c1 - c0) / ((t1 - t0) / 1e3), t0, t1);
	if (hold_if)
		bpf_xdp_detach(if_nametoindex(hold_if), XDP_FLAGS_DRV_MODE,
			       NULL);
	pktgen__destroy(skel);
	return 0;
}

/*
 * barefwd [-d ECN] IN_IF IF0,IF1,IF2,IF3: the bare forwarder with its
 * tables for the four ports, attached natively to IN_IF; the attachment
 * (and the maps it holds) outlives us, `ip link set IN_IF xdp off` removes
 * it. -d: the bare default forwarder instead, its ports set as the words
 * given to `rocedp ecn set` beside it ("kmin N kmax N pmax N rate MBIT").
 */
static int cmd_barefwd(int argc, char **argv)
{
	struct rocedp_port_cfg pc;
	char *ports[4], *list;
	unsigned long long mbit;
	struct empty *eo;
	int i, idx, dflt = 0;

	rd_port_defaults(&pc);
	if (argc > 2 && !strcmp(argv[1], "-d")) {
		if (sscanf(argv[2], "kmin %u kmax %u pmax %u rate %llu",
			   &pc.kmin_bytes, &pc.kmax_bytes, &pc.pmax_percent,
			   &mbit) != 4)
			die("barefwd -d: want \"kmin N kmax N pmax N rate MBIT\"",
			    EINVAL);
		pc.rate_bps = mbit * 1000000;
		dflt = 1;
		argc -= 2;
		argv += 2;
	}
	if (argc != 3 || !(idx = if_nametoindex(argv[1]))) {
		fprintf(stderr,
			"usage: rdbench barefwd [-d ECN] IN_IF IF0,IF1,IF2,IF3\n");
		return 2;
	}
	list = argv[2];
	for (i = 0; i < 4; i++) {
		ports[i] = strsep(&list, ",");
		if (!ports[i])
			die("barefwd: need 4 interfaces", EINVAL);
	}
	eo = empty__open_and_load();
	if (!eo)
		die("empty.bpf.o", errno);
	setup_bare_fwd(eo, ports);
	if (dflt)
		setup_bare_default(eo, &pc, NULL);
	if (bpf_xdp_attach(
		    idx,
		    bpf_program__fd(dflt ? eo->progs.bench_ref_bare_default :
					   eo->progs.bench_ref_bare_fwd),
		    XDP_FLAGS_DRV_MODE, NULL))
		die("barefwd: native attach", errno);
	empty__destroy(eo);
	return 0;
}

/* ----------------------------------------------------------- route sync */

static int lookup4(int fd, const char *addr, struct rocedp_route *v)
{
	struct rocedp_route4_key k = { .prefixlen = 32 };

	inet_pton(AF_INET, addr, &k.addr);
	return bpf_map_lookup_elem(fd, &k, v) ? -errno : 0;
}

static bool routed(int fd, const char *addr)
{
	struct rocedp_route v;

	return !lookup4(fd, addr, &v) && !(v.flags & ROCEDP_ROUTEF_LOCAL) &&
	       v.group_id;
}

static int cmd_routewait(int argc, char **argv)
{
	const char *pin, *addr;
	uint64_t t0, t_map = 0, t_cmd = 0, deadline;
	int fd, st = 0;
	bool want_gone;
	pid_t pid;

	/* routewait PIN_DIR ADDR present|gone TIMEOUT_S -- CMD... */
	if (argc < 7 || strcmp(argv[5], "--"))
		return 2;
	pin = argv[1];
	addr = argv[2];
	want_gone = !strcmp(argv[3], "gone");
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/rd_routes4", pin);
		fd = bpf_obj_get(path);
		if (fd < 0)
			die(path, errno);
	}
	t0 = now_ns();
	deadline = t0 + atof(argv[4]) * 1e9;
	pid = fork();
	if (pid < 0)
		die("fork", errno);
	if (!pid) {
		execvp(argv[6], argv + 6);
		_exit(127);
	}
	while ((!t_map || !t_cmd) && now_ns() < deadline) {
		if (!t_map && routed(fd, addr) != want_gone)
			t_map = now_ns();
		if (!t_cmd && waitpid(pid, &st, WNOHANG) == pid)
			t_cmd = now_ns();
		if (!t_map || !t_cmd)
			usleep(50);
	}
	if (!t_cmd)
		waitpid(pid, &st, 0);
	printf("{\"map_s\":%.4f,\"cmd_s\":%.4f,\"cmd_status\":%d}\n",
	       t_map ? (t_map - t0) / 1e9 : -1.0,
	       t_cmd ? (t_cmd - t0) / 1e9 : -1.0, WEXITSTATUS(st));
	return t_map ? 0 : 1;
}

static int cmd_count(int argc, char **argv)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char key[256], next[256];
	uint64_t n = 0;
	int fd, err;

	if (argc != 2)
		return 2;
	fd = bpf_obj_get(argv[1]);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		die(argv[1], errno);
	err = bpf_map_get_next_key(fd, NULL, next);
	while (!err) {
		n++;
		memcpy(key, next, info.key_size);
		err = bpf_map_get_next_key(fd, key, next);
	}
	printf("%" PRIu64 "\n", n);
	return 0;
}

/*
 * Counters of a pinned rd_stats that a throughput run checks: frames
 * forwarded, ECN decisions (threshold source) and marks.
 */
static int cmd_ctrs(int argc, char **argv)
{
	__u64 c[ROCEDP_CTR_MAX];
	char path[512];
	int fd;

	if (argc != 2)
		return 2;
	snprintf(path, sizeof(path), "%s/rd_stats", argv[1]);
	fd = bpf_obj_get(path);
	if (fd < 0)
		die(path, errno);
	ctrs(fd, c);
	/* __u64 is unsigned long long on every architecture */
	printf("{\"forwarded\":%llu,\"ecn_src_map\":%llu,"
	       "\"ecn_src_kfunc\":%llu,\"ecn_marked\":%llu,"
	       "\"ecn_would_mark\":%llu,\"flowlet_new\":%llu,"
	       "\"flowlet_claim_lost\":%llu}\n",
	       c[ROCEDP_CTR_FWD_PKTS], c[ROCEDP_CTR_ECN_SRC_MAP],
	       c[ROCEDP_CTR_ECN_SRC_KFUNC], c[ROCEDP_CTR_ECN_MARKED],
	       c[ROCEDP_CTR_ECN_WOULD_MARK], c[ROCEDP_CTR_FLOWLET_NEW],
	       c[ROCEDP_CTR_FLOWLET_CLAIM_LOST]);
	close(fd);
	return 0;
}

static int set_link(int sock, const char *ifname, bool up)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr))
		return -errno;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return ioctl(sock, SIOCSIFFLAGS, &ifr) ? -errno : 0;
}

/* Is the member on ifindex in the active list of addr's group? -1: no group */
static int member_active(int rfd, int gfd, const char *addr, __u32 ifindex)
{
	static struct rocedp_group g;
	struct rocedp_route r;
	unsigned int i;

	if (lookup4(rfd, addr, &r) || (r.flags & ROCEDP_ROUTEF_LOCAL))
		return -1;
	if (bpf_map_lookup_elem(gfd, &r.group_id, &g))
		return -1;
	for (i = 0; i < g.n_active && i < ROCEDP_MAX_MEMBERS; i++)
		if (g.members[g.active[i] % ROCEDP_MAX_MEMBERS].ifindex ==
		    ifindex)
			return 1;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmd_flap(int argc, char **argv)
{
	uint64_t down[256], up[256], t0, t;
	char path[512];
	int rfd, gfd, sock, n, i, a, timeouts = 0;
	__u32 ifindex;

	/* flap PIN_DIR IF ADDR N */
	if (argc != 5)
		return 2;
	n = atoi(argv[4]);
	if (n < 1 || n > 256)
		return 2;
	snprintf(path, sizeof(path), "%s/rd_routes4", argv[1]);
	rfd = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/rd_groups", argv[1]);
	gfd = bpf_obj_get(path);
	if (rfd < 0 || gfd < 0)
		die(path, errno);
	ifindex = if_nametoindex(argv[2]);
	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (!ifindex || sock < 0)
		die(argv[2], errno);
	/* the daemon may still be resolving the gateway */
	t0 = now_ns();
	while (member_active(rfd, gfd, argv[3], ifindex) != 1) {
		if (now_ns() - t0 > 5000000000ull)
			die("member not active before the first flap", EINVAL);
		usleep(1000);
	}
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		if (set_link(sock, argv[2], false))
			die("link down", errno);
		do {
			a = member_active(rfd, gfd, argv[3], ifindex);
			t = now_ns();
		} while (a == 1 && t - t0 < 2000000000ull);
		if (a == 1)
			timeouts++;
		down[i] = t - t0;
		/* let the coalesced resync after the down settle */
		usleep(150000);
		t0 = now_ns();
		if (set_link(sock, argv[2], true))
			die("link up", errno);
		do {
			a = member_active(rfd, gfd, argv[3], ifindex);
			t = now_ns();
			if (a != 1)
				usleep(20);
		} while (a != 1 && t - t0 < 5000000000ull);
		if (a != 1)
			timeouts++;
		up[i] = t - t0;
		usleep(150000);
	}
	printf("{\"flaps\":%d,\"timeouts\":%d,\"down_us\":[", n, timeouts);
	for (i = 0; i < n; i++)
		printf("%s%.1f", i ? "," : "", down[i] / 1e3);
	printf("],\"up_us\":[");
	for (i = 0; i < n; i++)
		printf("%s%.1f", i ? "," : "", up[i] / 1e3);
	qsort(down, n, sizeof(down[0]), cmp_u64);
	qsort(up, n, sizeof(up[0]), cmp_u64);
	printf("],\"down_median_us\":%.1f,\"down_max_us\":%.1f,"
	       "\"up_median_us\":%.1f,\"up_max_us\":%.1f}\n",
	       (n % 2 ? down[n / 2] : (down[n / 2 - 1] + down[n / 2]) / 2) /
		       1e3,
	       down[n - 1] / 1e3,
	       (n % 2 ? up[n / 2] : (up[n / 2 - 1] + up[n / 2]) / 2) / 1e3,
	       up[n - 1] / 1e3);
	return timeouts ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "cost", cmd_cost },
		{ "mem", cmd_mem },
		{ "src", cmd_src },
		{ "sink", cmd_sink },
		{ "sink-read", cmd_sink_read },
		{ "routewait", cmd_routewait },
		{ "count", cmd_count },
		{ "ctrs", cmd_ctrs },
		{ "flap", cmd_flap },
		{ "barefwd", cmd_barefwd },
	};
	unsigned int i;

	if (argc < 2) {
		fprintf(stderr,
			"usage: rdbench cost|mem|src|sink|sink-read|routewait|count|ctrs|flap|barefwd ...\n");
		return 2;
	}
	if (!getenv("RDBENCH_DEBUG"))
		libbpf_set_print(NULL);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "rdbench: unknown command '%s'\n", argv[1]);
	return 2;
}
