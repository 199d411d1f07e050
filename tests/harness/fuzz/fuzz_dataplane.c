// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the dataplane. Every input is one Ethernet frame
 * (14..1514 bytes; shorter inputs are zero-padded to 14, the least
 * BPF_PROG_TEST_RUN accepts). It goes through the real programs:
 *
 *   rocedp_xdp, rocedp_tc_ingress   (ingress, same frame, same clock)
 *   egress pipeline                 (on the XDP output, at the egress port
 *                                    of a redirect, else a port 2..5 picked
 *                                    from the frame)
 *
 * and every run is checked against invariants the harness derives on its
 * own: the byte mask a hook may touch comes from this file's parser, not
 * from the program's trace. The first violation prints the frame in hex and
 * aborts (libFuzzer then saves the input as crash-*). Counters are checked
 * against the harness's own tallies every RD_FUZZ_CTR_EVERY inputs and at
 * exit, where the last line is "fuzz: N executions, F invariant failures".
 *
 * Config: $ROCEDP_FUZZ_CONFIG (default tests/harness/fuzz/fuzz.json). See
 * docs/fuzz.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#include "names.h"
#include "fuzz_common.h"
#include "stats.h"

#define RD_FUZZ_MIN_FRAME 14 /* ETH_HLEN: test runs refuse less */
#define RD_FUZZ_MAX_FRAME 1514
#define RD_FUZZ_CTR_EVERY 4096
#define RD_FUZZ_MAX_GROUP 8
#define RD_FUZZ_MAX_PORT 8
#define RD_FUZZ_COV 65536
#define RD_FUZZ_LO 1 /* skb->ifindex of tc egress runs */

/* the CLI's error helper lives in main.c, which the harness does not link */

/*
 * The programs are invisible to libFuzzer's coverage, so their outcomes
 * (class, reasons, verdict, what changed) are fed back as extra counters:
 * a frame reaching a new outcome is kept in the corpus.
 */
__attribute__((section("__libfuzzer_extra_counters"),
	       used)) static uint8_t rd_cov[RD_FUZZ_COV];

/* What the config put into the maps, read back once at start-up. */
static struct {
	struct rocedp_qos qos[ROCEDP_CLASS_MAX];
	struct rocedp_group group[RD_FUZZ_MAX_GROUP];
	bool have_group[RD_FUZZ_MAX_GROUP];
	struct rocedp_port_cfg port[RD_FUZZ_MAX_PORT];
	bool have_port[RD_FUZZ_MAX_PORT];
	uint64_t hold_bytes[RD_FUZZ_MAX_PORT];
	uint32_t optout;
	bool pcp_remark; /* some class rewrites the outer PCP */
} cfg;

static struct rd_engine *eng;
/* the same object and config with the express path off (check_general) */
static struct rd_engine *eng_gen;
static uint64_t now_ns = 1000000000ull;

/* Honest counts: frames that went through each program. */
static struct {
	uint64_t inputs;
	uint64_t runs[RD_HOOK_MAX];
	uint64_t refused[RD_HOOK_MAX]; /* short IP frames skb runs refuse */
	uint64_t failures;
	/* ingress tallies from the traces, compared with rd_stats */
	uint64_t rx, rx_bytes;
	uint64_t cls[ROCEDP_CLASS_MAX];
	uint64_t mal[ROCEDP_MAL_MAX];
	uint64_t pass[ROCEDP_PASS_MAX];
	uint64_t verdict[ROCEDP_VERDICT_MAX];
	/* for the report: the invariants were not vacuous */
	uint64_t redirected, remarked, pcp_remarked, ce_marked, csum_bad_in;
	/* general-path runs, and how many frames had the express shape */
	uint64_t general_runs, express_shaped;
} st;

/* ------------------------------------------------------------ layout */

/* The harness's own view of a frame: where the bytes a hook may touch are. */
struct layout {
	int tags; /* VLAN tags in the frame (at most ROCEDP_MAX_VLAN_TAGS) */
	int tci_off; /* outer tag's TCI, -1 for none */
	int l3_off; /* -1: no IP header inside the frame */
	int family; /* 4, 6 or 0 */
	int ihl_bytes; /* IPv4: header length if it lies inside the frame */
};

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static void layout_parse(const uint8_t *f, uint32_t len, struct layout *l)
{
	unsigned int type = be16(f + 12);
	int off = 14, ihl;

	memset(l, 0, sizeof(*l));
	l->tci_off = -1;
	l->l3_off = -1;
	while ((type == 0x8100 || type == 0x88a8) &&
	       l->tags < ROCEDP_MAX_VLAN_TAGS) {
		if ((uint32_t)off + 4 > len)
			return;
		if (l->tci_off < 0)
			l->tci_off = off;
		type = be16(f + off + 2);
		off += 4;
		l->tags++;
	}
	if (type == 0x0800 && (uint32_t)off + 20 <= len) {
		l->family = 4;
		l->l3_off = off;
		ihl = (f[off] & 0x0f) * 4;
		if (ihl >= 20 && (uint32_t)(off + ihl) <= len)
			l->ihl_bytes = ihl;
	} else if (type == 0x86dd && (uint32_t)off + 40 <= len) {
		l->family = 6;
		l->l3_off = off;
	}
}

static unsigned int tos_of(const uint8_t *f, const struct layout *l)
{
	const uint8_t *ip = f + l->l3_off;

	if (l->family == 4)
		return ip[1];
	return (ip[0] & 0x0f) << 4 | ip[1] >> 4;
}

static unsigned int ttl_of(const uint8_t *f, const struct layout *l)
{
	return f[l->l3_off + (l->family == 4 ? 8 : 7)];
}

/* One's complement sum of the IPv4 header, folded; 0xffff when valid. */
static unsigned int ip4_residual(const uint8_t *f, const struct layout *l)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < l->ihl_bytes; i += 2)
		sum += be16(f + l->l3_off + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

static unsigned int be32(const uint8_t *p)
{
	return (unsigned int)be16(p) << 16 | be16(p + 2);
}

/* probes: the harness's own parse of them, and their invariants */
#include "fuzz_probe.h"

/* ------------------------------------------------------------ failures */

static void hex(const char *what, const uint8_t *f, uint32_t len)
{
	uint32_t i;

	fprintf(stderr, "fuzz:   %s (%u bytes):", what, len);
	for (i = 0; i < len; i++)
		fprintf(stderr, "%s%02x", i % 32 ? "" : "\nfuzz:     ", f[i]);
	fputc('\n', stderr);
}

static const char *const hook_names[RD_HOOK_MAX] = {
	[RD_HOOK_XDP] = "xdp",
	[RD_HOOK_TC] = "tc",
	[RD_HOOK_XDP_EGRESS] = "egress",
	[RD_HOOK_TC_EGRESS] = "tc_egress",
};

static void print_summary(FILE *o)
{
	fprintf(o,
		"fuzz: frames through the programs: %llu rocedp_xdp, %llu "
		"rocedp_tc_ingress, %llu egress pipeline, %llu "
		"rocedp_tc_egress (skb runs refused %llu short IP frames); "
		"%llu redirected, %llu "
		"DSCP-remarked, %llu PCP-remarked, %llu CE-marked, %llu with a "
		"bad IPv4 checksum in\n",
		(unsigned long long)st.runs[RD_HOOK_XDP],
		(unsigned long long)st.runs[RD_HOOK_TC],
		(unsigned long long)st.runs[RD_HOOK_XDP_EGRESS],
		(unsigned long long)st.runs[RD_HOOK_TC_EGRESS],
		(unsigned long long)st.refused[RD_HOOK_TC],
		(unsigned long long)st.redirected,
		(unsigned long long)st.remarked,
		(unsigned long long)st.pcp_remarked,
		(unsigned long long)st.ce_marked,
		(unsigned long long)st.csum_bad_in);
	fprintf(o,
		"fuzz: express path vs general parser: %llu frames compared, "
		"%llu of express shape (untagged IPv4 or IPv6, UDP 4791)\n",
		(unsigned long long)st.general_runs,
		(unsigned long long)st.express_shaped);
	fprintf(o,
		"fuzz: probes: %llu frames dropped, %llu taken into rd_pathq, "
		"%llu stamped by a spine\n",
		(unsigned long long)fzp.dropped, (unsigned long long)fzp.taken,
		(unsigned long long)fzp.stamped);
	fprintf(o, "fuzz: %llu executions, %llu invariant failures\n",
		(unsigned long long)st.inputs, (unsigned long long)st.failures);
}

/* An invariant does not hold: say which, show the frames, stop. */
__attribute__((format(printf, 5, 6), noreturn)) static void
fail(enum rd_hook h, const struct rd_run *r, const uint8_t *in, uint32_t len,
     const char *fmt, ...)
{
	va_list ap;

	st.failures++;
	fprintf(stderr, "fuzz: INVARIANT FAILED [%s]: ", hook_names[h]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (r) {
		fprintf(stderr,
			"fuzz:   retval %u verdict %s class %s malformed %s "
			"pass %s egress %u group %u member %u dscp %u->%u "
			"ecn %u->%u vlan_tags %u\n",
			r->retval, rd_verdict_name(r->verdict),
			rd_class_name(r->trace.cls),
			rd_malformed_name(r->trace.malformed),
			rd_pass_name(r->trace.pass_reason),
			r->trace.egress_ifindex, r->trace.group_id,
			r->trace.member, r->trace.dscp_in, r->trace.dscp_out,
			r->trace.ecn_in, r->trace.ecn_out, r->trace.vlan_tags);
		hex("in", in, len);
		hex("out", r->out, r->out_len);
	} else {
		hex("in", in, len);
	}
	print_summary(stderr);
	fflush(stderr);
	abort();
}

/* ------------------------------------------------------------ checks */

/* Bits of each byte a hook may change, from the harness's own layout. */
static void allowed_mask(uint8_t *m, uint32_t len, const struct layout *l,
			 bool ingress)
{
	int o = l->l3_off;

	memset(m, 0, len);
	if (ingress) {
		memset(m, 0xff, 12); /* destination and source MAC */
		if (l->tci_off >= 0 && cfg.pcp_remark)
			m[l->tci_off] = 0xe0; /* outer PCP */
	}
	if (l->family == 4) {
		m[o + 1] = ingress ? 0xff : 0x03; /* DSCP+ECN / ECN */
		if (ingress)
			m[o + 8] = 0xff; /* TTL */
		m[o + 10] = m[o + 11] = 0xff; /* header checksum */
	} else if (l->family == 6) {
		/* traffic class: low nibble of byte 0, high nibble of byte 1 */
		if (ingress)
			m[o] = 0x0f;
		m[o + 1] = ingress ? 0xf0 : 0x30;
		if (ingress)
			m[o + 7] = 0xff; /* hop limit */
	}
	if (ingress)
		fzp_mask(m, len);
}

/* stripped: in and l are the frame without the priority tag it came with */
static void check_common(enum rd_hook h, const struct rd_run *r,
			 const uint8_t *in, uint32_t len,
			 const struct layout *l, bool ingress, int stripped)
{
	static uint8_t mask[RD_FUZZ_MAX_FRAME];
	const uint8_t *out = r->out;
	unsigned int rin, rout;
	int tags = l->tags + stripped;
	uint32_t i;

	if (r->out_len != len)
		fail(h, r, in, len, "output length %u != input length %u",
		     r->out_len, len);
	if (r->trace.cls >= ROCEDP_CLASS_MAX ||
	    r->trace.malformed >= ROCEDP_MAL_MAX ||
	    r->trace.pass_reason >= ROCEDP_PASS_MAX)
		fail(h, r, in, len, "trace out of range");
	if ((r->trace.cls == ROCEDP_CLASS_MALFORMED) !=
	    (r->trace.malformed != ROCEDP_MAL_NONE))
		fail(h, r, in, len,
		     "class malformed without a reason, or a "
		     "reason without the class");
	if (r->trace.cls == ROCEDP_CLASS_MALFORMED &&
	    r->verdict == ROCEDP_VERDICT_REDIRECT)
		fail(h, r, in, len, "malformed frame redirected");
	if (r->trace.cls == ROCEDP_CLASS_MALFORMED && memcmp(in, out, len))
		fail(h, r, in, len, "malformed frame modified");
	allowed_mask(mask, len, l, ingress);
	for (i = 0; i < len; i++)
		if ((in[i] ^ out[i]) & ~mask[i])
			fail(h, r, in, len,
			     "byte %u changed 0x%02x -> 0x%02x outside the "
			     "allowed bits 0x%02x",
			     i, in[i], out[i], mask[i]);
	if (l->family == 4 && l->ihl_bytes) {
		/* The incremental update keeps the header's one's
		 * complement sum: a valid checksum stays valid, a bad one
		 * stays bad by the same amount. */
		rin = ip4_residual(in, l);
		rout = ip4_residual(out, l);
		if (rin == 0xffff && rout != 0xffff)
			fail(h, r, in, len,
			     "IPv4 checksum valid in, invalid out (sum 0x%04x)",
			     rout);
		if (rin % 0xffff != rout % 0xffff)
			fail(h, r, in, len,
			     "IPv4 header sum changed 0x%04x -> 0x%04x", rin,
			     rout);
	}
	if (r->trace.cls != ROCEDP_CLASS_MALFORMED &&
	    r->trace.vlan_tags != (uint32_t)tags)
		fail(h, r, in, len, "trace has %u VLAN tags, the frame %d",
		     r->trace.vlan_tags, tags);
	if (r->trace.cls != ROCEDP_CLASS_MALFORMED &&
	    r->trace.cls != ROCEDP_CLASS_NON_IP && !l->family)
		fail(h, r, in, len,
		     "IP class %s for a frame without an IP "
		     "header",
		     rd_class_name(r->trace.cls));
}

static bool class_remarks(unsigned int cls)
{
	return cls < ROCEDP_CLASS_MAX &&
	       cfg.qos[cls].action == ROCEDP_QOS_SET_DSCP &&
	       cls != ROCEDP_CLASS_MALFORMED && cls != ROCEDP_CLASS_NON_IP;
}

static void check_ecn(enum rd_hook h, const struct rd_run *r, const uint8_t *in,
		      uint32_t len, const struct layout *l, uint32_t port);

static void check_ingress(enum rd_hook h, const struct rd_run *r,
			  const uint8_t *in, uint32_t len,
			  const struct layout *l)
{
	static uint8_t untagged[RD_FUZZ_MAX_FRAME];
	const struct rocedp_member *m;
	const uint8_t *out = r->out;
	unsigned int cls = r->trace.cls, tin, tout, pin, pout;
	bool redirect = r->verdict == ROCEDP_VERDICT_REDIRECT;
	bool drop = r->verdict == ROCEDP_VERDICT_DROP; /* a probe's */
	struct layout lu;
	int stripped = 0;

	if (r->verdict != ROCEDP_VERDICT_PASS && !redirect && !drop)
		fail(h, r, in, len,
		     "verdict %s: ingress only passes, redirects or drops "
		     "probes",
		     rd_verdict_name(r->verdict));
	if (r->trace.verdict != r->verdict)
		fail(h, r, in, len, "trace verdict %s, hook returned %s",
		     rd_verdict_name(r->trace.verdict),
		     rd_verdict_name(r->verdict));
	if ((redirect || drop) != (r->trace.pass_reason == ROCEDP_PASS_NONE))
		fail(h, r, in, len, "pass reason and verdict disagree");
	/* a routed priority tag (one tag, VID 0) leaves untagged, as the
	 * kernel sends it (docs/design.md): check against the frame without */
	if (redirect && l->tags == 1 && l->tci_off == 14 &&
	    !(be16(in + 14) & 0xfff) && r->out_len + 4 == len) {
		memcpy(untagged, in, 12);
		memcpy(untagged + 12, in + 16, len - 16);
		in = untagged;
		len -= 4;
		layout_parse(in, len, &lu);
		l = &lu;
		stripped = 1;
	}
	check_common(h, r, in, len, l, true, stripped);
	if (drop) /* unchanged: fzp_check */
		return;
	if (!redirect) {
		if (memcmp(in, out, 12))
			fail(h, r, in, len, "MACs rewritten on a passed frame");
		if (l->family && ttl_of(in, l) != ttl_of(out, l))
			fail(h, r, in, len, "TTL changed on a passed frame");
	} else {
		if (!l->family || l->tags)
			fail(h, r, in, len,
			     "redirected a frame that is not "
			     "untagged IP");
		if (in[0] & 1)
			fail(h, r, in, len, "redirected a multicast frame");
		if (ttl_of(in, l) <= 1 || ttl_of(out, l) != ttl_of(in, l) - 1)
			fail(h, r, in, len, "TTL %u -> %u on a redirect",
			     ttl_of(in, l), ttl_of(out, l));
		if (r->trace.group_id >= RD_FUZZ_MAX_GROUP ||
		    !cfg.have_group[r->trace.group_id] ||
		    r->trace.member >= ROCEDP_MAX_MEMBERS)
			fail(h, r, in, len,
			     "redirect to an unknown group or "
			     "member");
		m = &cfg.group[r->trace.group_id].members[r->trace.member];
		if (r->trace.member >= cfg.group[r->trace.group_id].n_members ||
		    !m->weight || m->ifindex != r->trace.egress_ifindex ||
		    memcmp(out, m->dmac, 6) || memcmp(out + 6, m->smac, 6))
			fail(h, r, in, len,
			     "redirect does not match group %u "
			     "member %u",
			     r->trace.group_id, r->trace.member);
		st.redirected++;
	}
	if (!l->family)
		return;
	tin = tos_of(in, l);
	tout = tos_of(out, l);
	if (h == RD_HOOK_XDP && redirect)
		check_ecn(h, r, in, len, l, r->trace.egress_ifindex);
	else if ((tin & 3) != (tout & 3))
		fail(h, r, in, len, "ECN changed on ingress");
	if (class_remarks(cls) && (tout >> 2) != cfg.qos[cls].dscp)
		fail(h, r, in, len, "class %s: DSCP %u, configured %u",
		     rd_class_name(cls), tout >> 2, cfg.qos[cls].dscp);
	if (!class_remarks(cls) && (tin >> 2) != (tout >> 2))
		fail(h, r, in, len, "class %s is not remarked, DSCP %u -> %u",
		     rd_class_name(cls), tin >> 2, tout >> 2);
	if ((tin >> 2) != (tout >> 2))
		st.remarked++;
	if (l->tci_off < 0)
		return;
	pin = in[l->tci_off] >> 5;
	pout = out[l->tci_off] >> 5;
	if (class_remarks(cls) && cfg.qos[cls].set_pcp &&
	    pout != cfg.qos[cls].pcp)
		fail(h, r, in, len, "class %s: PCP %u, configured %u",
		     rd_class_name(cls), pout, cfg.qos[cls].pcp);
	if (!(class_remarks(cls) && cfg.qos[cls].set_pcp) && pin != pout)
		fail(h, r, in, len, "class %s: PCP changed %u -> %u",
		     rd_class_name(cls), pin, pout);
	if (pin != pout)
		st.pcp_remarked++;
}

/*
 * ECN rules wherever a frame is marked (XDP ingress for what it redirects,
 * the egress pipeline): only ECT -> CE, never an exempt class, and a queue
 * held at or above Kmax / below Kmin marks every / no ECT frame.
 */
static void check_ecn(enum rd_hook h, const struct rd_run *r, const uint8_t *in,
		      uint32_t len, const struct layout *l, uint32_t port)
{
	const struct rocedp_port_cfg *pc;
	unsigned int cls = r->trace.cls, ein, eout;
	bool exempt;

	ein = tos_of(in, l) & 3;
	eout = tos_of(r->out, l) & 3;
	if (ein != eout && !((ein == 1 || ein == 2) && eout == 3))
		fail(h, r, in, len, "ECN %u -> %u (only ECT -> CE allowed)",
		     ein, eout);
	if (ein != eout)
		st.ce_marked++;
	exempt = cls == ROCEDP_CLASS_MALFORMED || cls == ROCEDP_CLASS_NON_IP ||
		 ((cfg.optout >> cls) & 1);
	if (exempt && ein != eout)
		fail(h, r, in, len, "class %s is exempt from ECN, marked",
		     rd_class_name(cls));
	/* A queue held at or above Kmax marks every ECT frame it may mark;
	 * one held below Kmin marks none. */
	if (port >= RD_FUZZ_MAX_PORT || !cfg.have_port[port])
		return;
	pc = &cfg.port[port];
	if (!(pc->flags & ROCEDP_PORTF_HOLD_QUEUE))
		return;
	if (cfg.hold_bytes[port] >= pc->kmax_bytes && !exempt &&
	    (ein == 1 || ein == 2) && eout != 3)
		fail(h, r, in, len,
		     "port %u holds %llu >= kmax %u: class %s "
		     "ECT frame not marked",
		     port, (unsigned long long)cfg.hold_bytes[port],
		     pc->kmax_bytes, rd_class_name(cls));
	if (cfg.hold_bytes[port] < pc->kmin_bytes && ein != eout)
		fail(h, r, in, len, "port %u below kmin marked", port);
}

static void check_egress(enum rd_hook h, const struct rd_run *r,
			 const uint8_t *in, uint32_t len,
			 const struct layout *l, uint32_t port)
{
	if (r->verdict != ROCEDP_VERDICT_PASS)
		fail(h, r, in, len, "egress verdict %s",
		     rd_verdict_name(r->verdict));
	check_common(h, r, in, len, l, false, 0);
	if (l->family)
		check_ecn(h, r, in, len, l, port);
}

/* ------------------------------------------------------------ counters */

#define CTR_EXPECT(got, want, ...)                                       \
	do {                                                             \
		if ((got) != (want)) {                                   \
			fprintf(stderr, "fuzz: counters: " __VA_ARGS__); \
			fprintf(stderr, ": %llu, expected %llu\n",       \
				(unsigned long long)(got),               \
				(unsigned long long)(want));             \
			bad = true;                                      \
		}                                                        \
	} while (0)

/*
 * One enum's block of counters, ctr[base + from .. base + n - 1], against
 * the tallies want[from .. n - 1], and their sum against the total they
 * split; true if anything differs (printed).
 */
static bool expect_split(const __u64 *ctr, unsigned int base,
			 const uint64_t *want, unsigned int from,
			 unsigned int n, const char *(*name)(unsigned int),
			 const char *what, uint64_t total,
			 const char *total_what)
{
	uint64_t sum = 0, v;
	bool bad = false;
	unsigned int i;

	for (i = from; i < n; i++) {
		v = ctr[base + i];
		CTR_EXPECT(v, want[i], "%s %s", what, name(i));
		sum += v;
	}
	CTR_EXPECT(sum, total, "%s", total_what);
	return bad;
}

/* rd_stats against the harness's tallies of what the traces said. */
static void check_counters(void)
{
	int fd = rd_engine_maps(eng)->fd[RD_MAP_STATS];
	__u64 ctr[ROCEDP_CTR_MAX];
	bool bad = false;

	/* the whole block once; unreadable counts as a mismatch everywhere */
	if (rd_counters_read(fd, ctr)) {
		fprintf(stderr, "fuzz: counters: rd_stats unreadable\n");
		memset(ctr, 0xff, sizeof(ctr));
		bad = true;
	}
	CTR_EXPECT(ctr[ROCEDP_CTR_RX_PKTS], st.rx,
		   "rx packets vs frames run through ingress");
	CTR_EXPECT(ctr[ROCEDP_CTR_RX_BYTES], st.rx_bytes, "rx bytes");
	/* reason 0 of malformed and pass is "none", never counted */
	bad |= expect_split(ctr, ROCEDP_CTR_CLASS_BASE, st.cls, 0,
			    ROCEDP_CLASS_MAX, rd_class_name, "class", st.rx,
			    "sum over classes vs rx");
	bad |= expect_split(ctr, ROCEDP_CTR_VERDICT_BASE, st.verdict, 0,
			    ROCEDP_VERDICT_MAX, rd_verdict_name, "verdict",
			    st.rx, "sum over verdicts vs rx");
	bad |= expect_split(ctr, ROCEDP_CTR_MAL_BASE, st.mal, 1, ROCEDP_MAL_MAX,
			    rd_malformed_name, "malformed",
			    st.cls[ROCEDP_CLASS_MALFORMED],
			    "sum over malformed reasons vs class malformed");
	bad |= expect_split(ctr, ROCEDP_CTR_PASS_BASE, st.pass, 1,
			    ROCEDP_PASS_MAX, rd_pass_name, "pass",
			    st.verdict[ROCEDP_VERDICT_PASS],
			    "sum over pass reasons vs passed frames");
	CTR_EXPECT(ctr[ROCEDP_CTR_FWD_PKTS],
		   st.verdict[ROCEDP_VERDICT_REDIRECT],
		   "forwarded vs redirected");
	if (bad) {
		st.failures++;
		fprintf(stderr,
			"fuzz: INVARIANT FAILED: counters do not add "
			"up after %llu inputs\n",
			(unsigned long long)st.inputs);
		print_summary(stderr);
		abort();
	}
}

static void at_exit(void)
{
	check_counters();
	print_summary(stdout);
	fflush(stdout);
}

/* ------------------------------------------------------------ driver */

static void cov(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	uint32_t x = a * 0x9e3779b1u ^ b * 0x85ebca6bu ^ c * 0xc2b2ae35u ^
		     d * 0x27d4eb2fu;

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	if (rd_cov[x % RD_FUZZ_COV] < 255)
		rd_cov[x % RD_FUZZ_COV]++;
}

static void feedback(enum rd_hook h, const struct rd_run *r,
		     const struct layout *l)
{
	const struct rocedp_trace *t = &r->trace;

	cov(h, t->cls, t->malformed << 8 | t->pass_reason, r->verdict);
	cov(16 + h, t->cls, t->bth_opcode << 8 | t->cts_rule,
	    t->aeth_kind << 8 | t->aeth_code);
	cov(32 + h, t->cls, t->ecn_in << 4 | t->ecn_out,
	    (t->dscp_in != t->dscp_out) << 8 | t->vlan_tags);
	cov(48 + h, t->member, t->is_roce << 1 | t->ack_req, l->family);
	cov(64, l->tags, l->family, l->ihl_bytes);
}

/*
 * skb test runs pull the network header first: they refuse IPv4 frames
 * shorter than 14 + 20 bytes and IPv6 ones shorter than 14 + 40 with
 * EINVAL (measured on 6.1 and 6.18). XDP takes every frame >= 14 bytes.
 */
static bool skb_refuses(const uint8_t *in, uint32_t len)
{
	unsigned int type = be16(in + 12);

	return (type == 0x0800 && len < 34) || (type == 0x86dd && len < 54);
}

/* false when the kernel refused the frame as documented above */
static bool run(enum rd_hook h, struct rd_run *r, const uint8_t *in,
		uint32_t len, uint32_t port)
{
	int err;

	r->in = in;
	r->in_len = len;
	r->out_size = RD_FUZZ_MAX_FRAME;
	r->ingress_ifindex = port;
	err = rd_engine_run(eng, h, r);
	if (err == -EINVAL && h != RD_HOOK_XDP && skb_refuses(in, len)) {
		st.refused[h]++;
		return false;
	}
	if (err) {
		fprintf(stderr, "fuzz: BPF_PROG_TEST_RUN [%s]: %s\n",
			hook_names[h], strerror(-err));
		fail(h, NULL, in, len, "test run failed");
	}
	st.runs[h]++;
	return true;
}

static void tally_ingress(const struct rd_run *r, uint32_t len)
{
	st.rx++;
	st.rx_bytes += len;
	st.cls[r->trace.cls]++;
	st.mal[r->trace.malformed]++;
	st.pass[r->trace.pass_reason]++;
	st.verdict[r->verdict % ROCEDP_VERDICT_MAX]++;
}

static int load_config(const char *path)
{
	const struct rd_maps *m = rd_engine_maps(eng);
	struct rocedp_config c;
	uint32_t k, zero = 0;
	struct rocedp_port_state ps;

	if (rd_config_apply_file(path, m))
		return -1;
	if (bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &zero, &c))
		return -1;
	cfg.optout = c.ecn_class_optout;
	for (k = 0; k < ROCEDP_CLASS_MAX; k++) {
		if (bpf_map_lookup_elem(m->fd[RD_MAP_QOS], &k, &cfg.qos[k]))
			return -1;
		if (cfg.qos[k].action == ROCEDP_QOS_SET_DSCP &&
		    cfg.qos[k].set_pcp)
			cfg.pcp_remark = true;
	}
	for (k = 0; k < RD_FUZZ_MAX_GROUP; k++)
		cfg.have_group[k] = !bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS],
							 &k, &cfg.group[k]);
	for (k = 0; k < RD_FUZZ_MAX_PORT; k++) {
		cfg.have_port[k] = !bpf_map_lookup_elem(m->fd[RD_MAP_PORT_CFG],
							&k, &cfg.port[k]);
		if (cfg.have_port[k] &&
		    !bpf_map_lookup_elem(m->fd[RD_MAP_PORT_STATE], &k, &ps))
			cfg.hold_bytes[k] = ps.vq_bytes;
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("ROCEDP_FUZZ_CONFIG");
	struct rd_engine_opts o = { .trace = true, .map_clock = true };

	if (!path)
		path = "tests/harness/fuzz/fuzz.json";
	eng = fz_engine_open(&o);
	o.general_path = true;
	eng_gen = fz_engine_open(&o);
	if (load_config(path) ||
	    rd_config_apply_file(path, rd_engine_maps(eng_gen)) ||
	    fzp_setup(eng, eng_gen)) {
		fprintf(stderr, "fuzz: %s: config not applied\n", path);
		exit(2);
	}
	atexit(at_exit);
	return 0;
}

/*
 * a and b from byte 12 on are equal; with xdp_marked, except the ECN bits
 * (and the IPv4 header checksum that follows them): XDP marks the frames
 * it redirects at ingress, tc marks at egress.
 */
static bool same_but_ecn(const uint8_t *a, const uint8_t *b, uint32_t n,
			 const struct layout *l, bool xdp_marked)
{
	uint32_t i, o = l->l3_off - 12;
	uint8_t m;

	if (!xdp_marked || !l->family)
		return !memcmp(a, b, n);
	for (i = 0; i < n; i++) {
		m = 0xff;
		if (l->family == 4 && i == o + 1)
			m = 0xfc;
		else if (l->family == 4 && (i == o + 10 || i == o + 11))
			m = 0;
		else if (l->family == 6 && i == o + 1)
			m = 0xcf;
		if ((a[i] ^ b[i]) & m)
			return false;
	}
	return true;
}

/*
 * The express path (rd_parse_express and the inlined decisions) and the
 * general parser with the out-of-line decisions decide alike and write the
 * same bytes. The general engine sees only the XDP runs, so its flowlet
 * and load state may drift from the main engine's, which tc runs too: the
 * member (hence the MACs) is compared when both chose the same, and the ECN
 * bits never (RED draws a random number).
 */
static void check_general(const struct rd_run *x, const uint8_t *in,
			  uint32_t len, const struct layout *l)
{
	static uint8_t gout[RD_FUZZ_MAX_FRAME];
	struct rd_run g = { .in = in,
			    .in_len = len,
			    .out = gout,
			    .out_size = RD_FUZZ_MAX_FRAME };
	const struct rocedp_trace *a = &x->trace, *b = &g.trace;
	struct layout lo;

	if (rd_engine_set_time(eng_gen, now_ns) ||
	    rd_engine_run(eng_gen, RD_HOOK_XDP, &g))
		fail(RD_HOOK_XDP, NULL, in, len,
		     "general path: test run failed");
	st.general_runs++;
	/* untagged IPv4 without options / IPv6 without extensions, UDP 4791 */
	if (l->tags == 0 &&
	    ((l->family == 4 && len >= 38 && in[14] == 0x45 && in[23] == 17 &&
	      be16(in + 36) == ROCEDP_ROCEV2_PORT) ||
	     (l->family == 6 && len >= 58 && in[20] == 17 &&
	      be16(in + 56) == ROCEDP_ROCEV2_PORT)))
		st.express_shaped++;
	if (g.verdict != x->verdict || b->cls != a->cls ||
	    b->malformed != a->malformed || b->pass_reason != a->pass_reason ||
	    b->group_id != a->group_id || b->dscp_in != a->dscp_in ||
	    b->dscp_out != a->dscp_out || b->ecn_in != a->ecn_in ||
	    b->bth_opcode != a->bth_opcode || b->aeth_kind != a->aeth_kind ||
	    b->aeth_code != a->aeth_code || b->dest_qp != a->dest_qp ||
	    b->psn != a->psn || b->hash != a->hash ||
	    b->cts_rule != a->cts_rule || b->is_roce != a->is_roce ||
	    b->ack_req != a->ack_req || b->vlan_tags != a->vlan_tags)
		fail(RD_HOOK_XDP, &g, in, len,
		     "general path disagrees with the express path (express: "
		     "%s %s %s %s qp %u hash %08x)",
		     rd_verdict_name(x->verdict), rd_class_name(a->cls),
		     rd_malformed_name(a->malformed),
		     rd_pass_name(a->pass_reason), a->dest_qp, a->hash);
	/* the output's own layout: a routed priority tag left it untagged */
	layout_parse(x->out, x->out_len, &lo);
	if (g.out_len != x->out_len || x->out_len < 12 ||
	    !same_but_ecn(gout + 12, x->out + 12, x->out_len - 12, &lo, true) ||
	    (b->member == a->member && memcmp(gout, x->out, 12)))
		fail(RD_HOOK_XDP, &g, in, len,
		     "general path output differs from the express path's");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t frame[RD_FUZZ_MAX_FRAME], xout[RD_FUZZ_MAX_FRAME],
		tout[RD_FUZZ_MAX_FRAME], eout[RD_FUZZ_MAX_FRAME],
		eout2[RD_FUZZ_MAX_FRAME];
	struct rd_run x = { .out = xout }, t = { .out = tout },
		      e = { .out = eout };
	struct layout l, lx;
	uint32_t len = size, port;
	const char *why;

	if (len > RD_FUZZ_MAX_FRAME)
		len = RD_FUZZ_MAX_FRAME;
	memset(frame, 0, RD_FUZZ_MIN_FRAME);
	memcpy(frame, data, len);
	if (len < RD_FUZZ_MIN_FRAME)
		len = RD_FUZZ_MIN_FRAME;
	st.inputs++;

	/* Time moves on between frames by a frame-chosen step, so flowlet
	 * gaps, the DRE and the virtual queues see both short and long. */
	now_ns += 200 + (frame[len - 1] * 131u + frame[len / 2]) * 13u;
	if (rd_engine_set_time(eng, now_ns))
		fail(RD_HOOK_XDP, NULL, frame, len, "clock not set");
	layout_parse(frame, len, &l);
	if (l.family == 4 && l.ihl_bytes && ip4_residual(frame, &l) != 0xffff)
		st.csum_bad_in++;
	fzp_prepare(frame, len, &l, now_ns, eng, eng_gen);

	run(RD_HOOK_XDP, &x, frame, len, 0);
	tally_ingress(&x, len);
	feedback(RD_HOOK_XDP, &x, &l);
	check_ingress(RD_HOOK_XDP, &x, frame, len, &l);
	why = fzp_check(&x, frame, len, now_ns, eng, 1);
	if (why)
		fail(RD_HOOK_XDP, &x, frame, len, "%s", why);
	check_general(&x, frame, len, &l);

	if (!run(RD_HOOK_TC, &t, frame, len, 0))
		goto out;
	tally_ingress(&t, len);
	feedback(RD_HOOK_TC, &t, &l);
	check_ingress(RD_HOOK_TC, &t, frame, len, &l);
	why = fzp_check(&t, frame, len, now_ns, eng, 0);
	if (why)
		fail(RD_HOOK_TC, &t, frame, len, "%s", why);

	/* One core behind both hooks: same decision, same bytes (the member,
	 * hence the MACs, may differ only through flowlet state). */
	if (x.verdict != t.verdict || x.trace.cls != t.trace.cls ||
	    x.trace.malformed != t.trace.malformed ||
	    x.trace.pass_reason != t.trace.pass_reason)
		fail(RD_HOOK_TC, &t, frame, len,
		     "tc disagrees with xdp (xdp: %s %s %s %s)",
		     rd_verdict_name(x.verdict), rd_class_name(x.trace.cls),
		     rd_malformed_name(x.trace.malformed),
		     rd_pass_name(x.trace.pass_reason));
	/* compared in the output's layout (a routed priority tag is gone) */
	layout_parse(xout, x.out_len, &lx);
	if (x.out_len != t.out_len || x.out_len < 12 ||
	    !same_but_ecn(xout + 12, tout + 12, x.out_len - 12, &lx,
			  x.trace.ecn_out != x.trace.ecn_in) ||
	    (x.verdict != ROCEDP_VERDICT_REDIRECT && memcmp(xout, tout, 12)))
		fail(RD_HOOK_TC, &t, frame, len,
		     "tc output differs from xdp output");

	/* Egress sees what ingress sent: the XDP output, at its port through
	 * the test entry of the egress pipeline, and at port 1 (lo, the only
	 * device a test run can name) through rocedp_tc_egress itself. */
	port = x.verdict == ROCEDP_VERDICT_REDIRECT ? x.trace.egress_ifindex :
						      2 + frame[len - 1] % 4;
	if (run(RD_HOOK_XDP_EGRESS, &e, xout, x.out_len, port)) {
		feedback(RD_HOOK_XDP_EGRESS, &e, &lx);
		check_egress(RD_HOOK_XDP_EGRESS, &e, xout, x.out_len, &lx,
			     port);
	}
	e.out = eout2;
	if (run(RD_HOOK_TC_EGRESS, &e, xout, x.out_len, RD_FUZZ_LO)) {
		feedback(RD_HOOK_TC_EGRESS, &e, &lx);
		check_egress(RD_HOOK_TC_EGRESS, &e, xout, x.out_len, &lx,
			     RD_FUZZ_LO);
	}
out:
	if (st.inputs % RD_FUZZ_CTR_EVERY == 0)
		check_counters();
	return 0;
}
