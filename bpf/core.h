/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The pipeline shared by the XDP and tc hooks: parse, classify, count,
 * remark, forward. Hooks only translate their context to (data, data_end,
 * ingress ifindex, VLAN metadata) and the verdict back to their codes.
 */
#ifndef ROCEDP_CORE_H
#define ROCEDP_CORE_H

#include "classify.h"
#include "remark.h"
#include "fwdcache.h"
#include "rtt.h"
#include "telemetry.h"
#include "ecn.h"
#include "clock.h"
#include "probe.h"

/*
 * Tests clear it to send every frame through the general parser and the
 * out-of-line decisions, and compare with the express path (rd_ingress).
 */
const volatile bool cfg_express = true;

struct rd_hook_in {
	void *ctx; /* the program's context, for global functions (probe.h) */
	__u32 ifindex;
	__u32 wire_len; /* whole frame; the linear part may be shorter (tc,
			 * XDP multi-buffer) */
	__u8 vlan_in_meta;
	__u8 ecn_at_ingress; /* XDP: mark redirected frames here (see rd_ingress_decide) */
	__u16 meta_tci;
};

struct rd_result {
	__u32 verdict; /* enum rocedp_verdict */
	__u32 egress_ifindex;
	__u8 pcp_push; /* tc: new PCP for the metadata tag, 0xff none */
	__u8 strip_tag; /* remove the outer tag (a priority tag) */
	__u8 redirected; /* XDP: bpf_redirect_map already done */
	__u8 trim; /* cut to the egress port's trim size: the UDP offset */
};

/*
 * Counters, per-port and per-member stats, the load estimate and the
 * trace. Inlined into the decision functions, which are global (verified
 * once, from scalars): a call of its own cost a call and a config lookup
 * on every frame.
 */
/* ff:ff:ff:ff:ff:ff (dmac is 4-byte aligned in rd_flow) */
static __always_inline bool rd_dmac_bcast(const __u8 *dmac)
{
	return *(const __u32 *)dmac == 0xffffffff &&
	       *(const __u16 *)(dmac + 4) == 0xffff;
}

_Static_assert(ROCEDP_CTR_MAX <= 0xff, "rd_plan.ctr_*: a counter index fits");

/* The frame's counters in this CPU's block s (not NULL). */
static __always_inline void rd_account_block(struct rocedp_stats *s,
					     const struct rd_flow *fl,
					     const struct rd_plan *a)
{
	rd_bump(s, ROCEDP_CTR_RX_PKTS, 1);
	rd_bump(s, ROCEDP_CTR_RX_BYTES, fl->frame_len);
	rd_bump_in(s, ROCEDP_CTR_CLASS_BASE, fl->cls, ROCEDP_CLASS_MAX);
	if (fl->malformed)
		rd_bump_in(s, ROCEDP_CTR_MAL_BASE, fl->malformed,
			   ROCEDP_MAL_MAX);
	if (a->pass)
		rd_bump_in(s, ROCEDP_CTR_PASS_BASE, a->pass, ROCEDP_PASS_MAX);
	rd_bump_in(s, ROCEDP_CTR_VERDICT_BASE, a->verdict, ROCEDP_VERDICT_MAX);
	/* the decisions' own, left in the plan (0: none) */
	if (a->ctr_remark)
		rd_bump(s, a->ctr_remark, 1);
	if (a->ctr_ecn)
		rd_bump(s, a->ctr_ecn, 1);
	if (a->verdict == ROCEDP_VERDICT_REDIRECT) {
		rd_bump(s, ROCEDP_CTR_FWD_PKTS, 1);
		rd_bump(s, ROCEDP_CTR_FWD_BYTES, fl->frame_len);
		if (a->from_cache)
			rd_bump(s, ROCEDP_CTR_FWD_CACHE_HIT, 1);
	}
}

static __always_inline void rd_account(const struct rd_flow *fl,
				       const struct rd_plan *a,
				       const struct rocedp_config *cfg)
{
	struct rocedp_port_stats *ps;
	struct rocedp_trace *t;
	struct rocedp_stats *s;
	__u32 zero = 0;

	if (a->ingress) {
		/*
		 * One test of the block for all its counters: with a test in
		 * each, clang merged the NULL case into the bound tests, and
		 * the verifier lost the bound (6.18 refused the program).
		 */
		s = rd_stats_block();
		if (s)
			rd_account_block(s, fl, a);
		ps = rd_port_stats_get(a->in_ifindex);
		if (ps) {
			ps->rx_pkts++;
			ps->rx_bytes += fl->frame_len;
			if (fl->cls < ROCEDP_CLASS_MAX)
				ps->rx_class[fl->cls]++;
			if (fl->dmac_group) {
				if (rd_dmac_bcast(fl->dmac))
					ps->rx_bcast++;
				else
					ps->rx_mcast++;
			}
		}
	}
	if (a->ingress && a->verdict == ROCEDP_VERDICT_REDIRECT) {
		rd_member_count(a, fl->frame_len);
		/* the load estimate only serves the flowlet choice */
		if (a->flowlets)
			rd_load_add(a->egress_ifindex, fl->frame_len, a->now,
				    cfg->load_tau_us);
		ps = rd_port_stats_get(a->egress_ifindex);
		if (ps) {
			ps->tx_pkts++;
			ps->tx_bytes += fl->frame_len;
			if (fl->cls < ROCEDP_CLASS_MAX)
				ps->tx_class[fl->cls]++;
			if (fl->cls < ROCEDP_CLASS_IP)
				ps->tx_roce_bytes += fl->frame_len;
		}
	}
	if (!cfg_trace)
		return;
	t = bpf_map_lookup_elem(&rd_trace, &zero);
	if (!t)
		return;
	t->verdict = a->verdict;
	t->cls = fl->cls;
	t->malformed = fl->malformed;
	t->pass_reason = a->pass;
	t->egress_ifindex = a->egress_ifindex;
	t->group_id = a->group_id;
	t->member = a->verdict == ROCEDP_VERDICT_REDIRECT ? a->slot :
							    ROCEDP_NO_MEMBER;
	t->dscp_in = fl->tos >> 2;
	t->dscp_out = a->tos_out >> 2;
	t->ecn_in = fl->tos & 3;
	t->ecn_out = a->tos_out & 3;
	t->bth_opcode = fl->opcode;
	t->aeth_kind = fl->aeth_kind;
	t->aeth_code = fl->aeth_code;
	t->dest_qp = fl->dest_qp;
	t->psn = fl->psn;
	t->hash = fl->hash;
	t->cts_rule = fl->cts_rule;
	t->is_roce = fl->is_roce;
	t->ack_req = fl->ack_req;
	t->vlan_tags = fl->vlan_tags;
	t->now_ns = a->now;
}

/* What RED and the buffer's admission (trim.h) want done to the frame. */
static __always_inline void rd_ecn_apply(int mark, struct rd_plan *pl)
{
	if (mark & RD_ADMIT_DROP) {
		pl->verdict = ROCEDP_VERDICT_DROP;
	} else if (mark & RD_ADMIT_TRIM) {
		pl->vq |= RD_VQ_TRIMMED;
		mark >>= RD_ADMIT_DSCP_SHIFT;
		if ((mark & 0xff) != ROCEDP_TRIM_DSCP_FROM_TC)
			pl->tos_out = (mark & 0x3f) << 2 | (pl->tos_out & 3);
	} else if (mark) {
		pl->tos_out |= 3;
	}
}

/* CE into the plan when RED on the egress port's virtual queue says so. */
static __always_inline void rd_ecn_plan(struct rd_flow *fl, struct rd_plan *pl,
					const struct rocedp_config *cfg,
					const int express)
{
	int mark;

	if (express) /* inlined: no call, no second config lookup */
		mark = rd_ecn_decide_body(fl, pl->egress_ifindex, fl->frame_len,
					  fl->tos, pl->now, cfg, &pl->ctr_ecn,
					  0);
	else
		mark = rd_ecn_decide(fl, pl->egress_ifindex, fl->frame_len,
				     fl->tos, pl->now);
	/*
	 * A frame the buffer refuses: rd_ingress_admit decides after this
	 * copy, from the entry (a call here grew the entry's frame).
	 */
	if (mark == RD_ECN_OUT_OF_LINE)
		pl->vq |= RD_VQ_ASK;
	else
		rd_ecn_apply(mark, pl);
}

/*
 * Every ingress decision, from scalars: class, remark, RTT, route, member.
 * express: this copy is inlined after rd_parse_express, so route and
 * member are inlined too (the flowlet choice is a static subprogram);
 * xdp: it is inlined into the XDP entry, so the member step may redirect.
 */
static __always_inline void
rd_ingress_decide_body(struct rd_flow *fl, struct rd_plan *pl,
		       const struct rocedp_config *cfg, const int express,
		       const int xdp)
{
	__u32 pass = ROCEDP_PASS_NO_FORWARD;

	/*
	 * The clock is dear (tens of ns in a VM): read up front only for
	 * flowlets, which need it on every frame; RTT and telemetry read it on
	 * first use (rd_plan_clock), ECN only when a decision depends on it.
	 */
	rd_plan_settings(pl, cfg);
	if (cfg_trace || pl->flowlets)
		pl->now = rd_now();
	rd_classify(fl, cfg, 1);
	pl->tos_out = fl->tos;
	/* a probe dropped here leaves as it came (probe.h) */
	if ((cfg->features & ROCEDP_F_REMARK) &&
	    (express || pl->verdict != ROCEDP_VERDICT_DROP))
		rd_remark_decide(fl, pl);
	if (rd_rtt_wanted(fl, cfg))
		rd_rtt_observe(fl, pl->in_ifindex, rd_plan_clock(pl));
	if (!express && pl->verdict == ROCEDP_VERDICT_DROP) {
		pass = ROCEDP_PASS_NONE; /* a probe, taken or refused (probe.h) */
	} else if (cfg->features & ROCEDP_F_FORWARD) {
		pass = rd_fwd_precheck(fl, pl->in_ifindex, express);
		if (!pass && express) {
			pass = rd_fwd_express(fl, pl, cfg, xdp);
		} else if (!pass) {
			pass = rd_fwd_route(fl, pl);
			if (!pass)
				pass = rd_fwd_member(fl, pl);
		}
		if (!pass) {
			pl->verdict = ROCEDP_VERDICT_REDIRECT;
			pl->rewrite_l2 = 1;
			/* the precheck let only a priority tag through */
			pl->strip_tag = fl->vlan_tags != 0;
		}
	}
	/*
	 * XDP redirects skip the qdisc, and the egress port is known here:
	 * RED on its virtual queue now costs no second parse, classification
	 * or program run on the way out (tc frames are marked at tc egress).
	 */
	if (!pass && (pl->vq & RD_VQ_INGRESS) &&
	    (cfg->features & ROCEDP_F_ECN) &&
	    (express || pl->verdict == ROCEDP_VERDICT_REDIRECT))
		rd_ecn_plan(fl, pl, cfg, express);
	pl->pass = pass;
	if (pass) {
		pl->egress_ifindex = 0;
		pl->slot = ROCEDP_NO_MEMBER;
	}
	if (fl->is_roce && rd_tel_on(cfg))
		rd_tel_frame(fl, pl, cfg, express);
	if (!(pl->vq & RD_VQ_ASK)) /* else rd_ingress_admit counts */
		rd_account(fl, pl, cfg);
}

/*
 * The refusal the express copy handed on (RD_VQ_ASK): the buffer's
 * discard action, then the accounting, which needs its verdict. Called
 * from the entry after the decisions, where the plan's cache pointer is
 * no longer used.
 */
__attribute__((noinline)) int rd_ingress_admit(struct rd_flow *fl,
					       struct rd_plan *pl)
{
	struct rocedp_config *cfg = rd_config_get();

	if (!fl || !pl || !cfg)
		return 0;
	rd_ecn_apply(rd_trim_admit(fl, pl->egress_ifindex, fl->frame_len), pl);
	rd_account(fl, pl, cfg);
	return 0;
}

/* Out of line: verified once for every outcome of the general parser. */
__attribute__((noinline)) int rd_ingress_decide(struct rd_flow *fl,
						struct rd_plan *pl)
{
	struct rocedp_config *cfg = rd_config_get();

	if (!fl || !pl || !cfg)
		return 0;
	rd_ingress_decide_body(fl, pl, cfg, 0, 0);
	return 0;
}

/* Egress decisions: ECN and admission. */
__attribute__((noinline)) int rd_egress_decide(struct rd_flow *fl,
					       struct rd_plan *pl)
{
	struct rocedp_config *cfg = rd_config_get();

	if (!fl || !pl || !cfg)
		return 0;
	if (cfg_trace)
		pl->now = rd_now();
	rd_classify(fl, cfg, 0);
	pl->tos_out = fl->tos;
	if ((cfg->features & ROCEDP_F_ECN) && fl->family && !fl->malformed)
		rd_ecn_plan(fl, pl, cfg, 0);
	if (cfg_trace)
		rd_account(fl, pl, cfg);
	return 0;
}

/* The only place that writes the frame: offsets re-checked against data_end. */
static __always_inline void rd_apply(void *data, void *data_end,
				     const struct rd_pkt *p,
				     const struct rd_plan *pl)
{
	if (pl->tos_out != p->fl.tos)
		rd_write_tos(data, data_end, p->l3_off, p->fl.family,
			     pl->tos_out);
	if (pl->pcp != 0xff && p->vlan0_off)
		rd_write_pcp(data, data_end, p->vlan0_off, pl->pcp);
	if (pl->rewrite_l2)
		rd_write_fwd(data, data_end, p->l3_off, p->fl.family, pl);
}

static __always_inline void rd_pkt_init(struct rd_pkt *p,
					const struct rd_hook_in *in)
{
	p->fl.vlan_in_meta = in->vlan_in_meta;
	p->fl.vlan_tags = in->vlan_in_meta;
	p->fl.outer_tci = in->meta_tci;
}

static __always_inline void rd_ingress(void *data, void *data_end,
				       const struct rd_hook_in *in,
				       struct rd_result *res, const int xdp)
{
	struct rd_plan pl = { .slot = ROCEDP_NO_MEMBER,
			      .pcp = 0xff,
			      .ingress = 1 };
	struct rocedp_config *cfg;
	struct rd_pkt p = {};

	pl.in_ifindex = in->ifindex;
	pl.vq = in->ecn_at_ingress ? RD_VQ_INGRESS : 0;
	rd_pkt_init(&p, in);
	/*
	 * The usual RoCE frame takes the express path: fixed offsets, the
	 * decisions inlined (about 15% less per frame than the cursor parser
	 * and three calls). The verifier walks it as one more, straight path.
	 */
	cfg = rd_config_get();
	if (cfg_express && cfg &&
	    rd_parse_express(data, data_end, in->wire_len, &p)) {
		rd_ingress_decide_body(&p.fl, &pl, cfg, 1, xdp);
		if (pl.vq & RD_VQ_ASK)
			rd_ingress_admit(&p.fl, &pl);
	} else {
		rd_parse(data, data_end, in->wire_len, &p);
		/* probes are UDP but never RoCE: the express path has none */
		if (p.fl.l4_proto == IPPROTO_UDP && !p.fl.is_roce &&
		    (xdp ? rd_probe_xdp(in->ctx, &p, in->ifindex) :
			   rd_probe_tc(in->ctx, &p, in->ifindex)) ==
			    RD_PROBE_DROP)
			pl.verdict = ROCEDP_VERDICT_DROP;
		rd_ingress_decide(&p.fl, &pl);
	}
	rd_apply(data, data_end, &p, &pl);
	res->verdict = pl.verdict;
	res->egress_ifindex = pl.egress_ifindex;
	/* a tag in skb metadata is re-pushed by the tc hook */
	res->pcp_push = p.fl.vlan_in_meta && !pl.strip_tag ? pl.pcp : 0xff;
	res->strip_tag = pl.strip_tag;
	res->redirected = pl.redirected;
	res->trim = pl.vq & RD_VQ_TRIMMED ? rd_flow_l4_off(&p.fl) : 0;
}

/* Egress: ECN marking and the buffer's admission (drop or cut). */
static __always_inline void rd_egress(void *data, void *data_end,
				      const struct rd_hook_in *in,
				      struct rd_result *res)
{
	struct rd_plan pl = { .slot = ROCEDP_NO_MEMBER, .pcp = 0xff };
	struct rd_pkt p = {};

	pl.egress_ifindex = in->ifindex;
	rd_pkt_init(&p, in);
	/* the usual frame at fixed offsets here too (it fills p alike) */
	if (!cfg_express || !rd_parse_express(data, data_end, in->wire_len, &p))
		rd_parse(data, data_end, in->wire_len, &p);
	rd_egress_decide(&p.fl, &pl);
	rd_apply(data, data_end, &p, &pl);
	/* the buffer's admission may refuse or cut the frame */
	res->verdict = pl.verdict == ROCEDP_VERDICT_DROP ? ROCEDP_VERDICT_DROP :
							   ROCEDP_VERDICT_PASS;
	res->trim = pl.vq & RD_VQ_TRIMMED ? rd_flow_l4_off(&p.fl) : 0;
	res->egress_ifindex = in->ifindex;
	res->pcp_push = 0xff;
	res->strip_tag = 0;
}

#endif
