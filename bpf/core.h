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
#include "fwd.h"
#include "rtt.h"
#include "ecn.h"
#include "clock.h"

/* Set by replay and tests only: record every frame in rd_trace. */
const volatile bool cfg_trace = false;

struct rd_hook_in {
	__u32 ifindex;
	__u8 vlan_in_meta;
	__u16 meta_tci;
};

struct rd_result {
	__u32 verdict; /* enum rocedp_verdict */
	__u32 egress_ifindex;
	__u8 pcp_push; /* tc: new PCP for the metadata tag, 0xff none */
};

static __always_inline const struct rocedp_config *rd_config_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_config, &zero);
}

/*
 * Counters, per-port and per-member stats, the load estimate and the
 * trace. Out of line: the verifier checks it once instead of once per
 * parse outcome.
 */
__attribute__((noinline)) int rd_account(struct rd_flow *fl, struct rd_fwd *a)
{
	struct rocedp_port_stats *ps;
	struct rocedp_config *cfg;
	struct rocedp_trace *t;
	__u32 zero = 0;

	cfg = bpf_map_lookup_elem(&rd_config, &zero);
	if (!fl || !a || !cfg)
		return 0;
	if (a->ingress) {
		rd_count(ROCEDP_CTR_RX_PKTS);
		rd_count_n(ROCEDP_CTR_RX_BYTES, a->len);
		rd_count(ROCEDP_CTR_CLASS_BASE + (fl->cls % ROCEDP_CLASS_MAX));
		if (a->malformed)
			rd_count(ROCEDP_CTR_MAL_BASE +
				 (a->malformed % ROCEDP_MAL_MAX));
		ps = rd_port_stats_get(a->in_ifindex);
		if (ps) {
			ps->rx_pkts++;
			ps->rx_bytes += a->len;
		}
		if (a->pass)
			rd_count(ROCEDP_CTR_PASS_BASE +
				 (a->pass % ROCEDP_PASS_MAX));
		rd_count(ROCEDP_CTR_VERDICT_BASE +
			 (a->verdict % ROCEDP_VERDICT_MAX));
	}
	if (a->ingress && a->verdict == ROCEDP_VERDICT_REDIRECT) {
		rd_member_count(a, a->len);
		rd_load_add(a->egress_ifindex, a->len, a->now, cfg->load_tau_us);
		rd_count(ROCEDP_CTR_FWD_PKTS);
		rd_count_n(ROCEDP_CTR_FWD_BYTES, a->len);
		ps = rd_port_stats_get(a->egress_ifindex);
		if (ps) {
			ps->tx_pkts++;
			ps->tx_bytes += a->len;
		}
	}
	if (!cfg_trace)
		return 0;
	t = bpf_map_lookup_elem(&rd_trace, &zero);
	if (!t)
		return 0;
	t->verdict = a->verdict;
	t->cls = fl->cls;
	t->malformed = a->malformed;
	t->pass_reason = a->pass;
	t->egress_ifindex = a->egress_ifindex;
	t->group_id = a->group_id;
	t->member = a->verdict == ROCEDP_VERDICT_REDIRECT ? a->slot :
							   ROCEDP_NO_MEMBER;
	t->dscp_in = a->tos_in >> 2;
	t->dscp_out = a->tos_out >> 2;
	t->ecn_in = a->tos_in & 3;
	t->ecn_out = a->tos_out & 3;
	t->bth_opcode = fl->opcode;
	t->aeth_kind = a->aeth_kind;
	t->aeth_code = a->aeth_code;
	t->dest_qp = fl->dest_qp;
	t->psn = fl->psn;
	t->hash = fl->hash;
	t->cts_rule = a->cts_rule;
	t->is_roce = fl->is_roce;
	t->ack_req = fl->ack_req;
	t->vlan_tags = a->vlan_tags;
	t->now_ns = a->now;
	return 0;
}

static __always_inline void rd_acct_fill(struct rd_fwd *a,
					 const struct rd_pkt *p, __u8 tos_in)
{
	a->len = p->frame_len;
	a->malformed = p->malformed;
	a->tos_in = tos_in;
	a->tos_out = p->tos;
	a->aeth_kind = p->aeth_kind;
	a->aeth_code = p->aeth_code;
	a->cts_rule = p->cts_rule;
	a->vlan_tags = p->vlan_tags;
}

static __always_inline void rd_ingress(void *data, void *data_end,
				       const struct rd_hook_in *in,
				       struct rd_result *res)
{
	const struct rocedp_config *cfg = rd_config_get();
	struct rd_fwd a = { .slot = ROCEDP_NO_MEMBER };
	struct rd_pkt p = {};
	__u32 pass = ROCEDP_PASS_NO_FORWARD;
	__u8 tos_in;

	res->verdict = ROCEDP_VERDICT_PASS;
	res->egress_ifindex = 0;
	res->pcp_push = 0xff;
	if (!cfg)
		return;
	a.now = rd_now();
	a.in_ifindex = in->ifindex;
	a.ingress = 1;
	p.vlan_in_meta = in->vlan_in_meta;
	p.meta_tci = in->meta_tci;
	p.vlan_tags = in->vlan_in_meta;
	rd_parse(data, data_end, &p);
	rd_classify(&p, 1);
	tos_in = p.tos;

	if (cfg->features & ROCEDP_F_REMARK)
		rd_remark(&p, &res->pcp_push);
	if (p.fl.is_roce && !p.malformed &&
	    (cfg->features & ROCEDP_F_FLOWLET) &&
	    (cfg->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP))
		rd_rtt_observe(&p.fl, in->ifindex, a.now);

	if (cfg->features & ROCEDP_F_FORWARD) {
		pass = rd_fwd_precheck(&p);
		if (!pass)
			pass = rd_fwd_select(&p.fl, in->ifindex, a.now, &a);
		if (!pass) {
			rd_rewrite_l2(&p, &a);
			rd_dec_ttl(&p);
			res->verdict = ROCEDP_VERDICT_REDIRECT;
			res->egress_ifindex = a.egress_ifindex;
		}
	}
	rd_acct_fill(&a, &p, tos_in);
	a.pass = pass;
	a.verdict = res->verdict;
	if (!pass)
		a.egress_ifindex = res->egress_ifindex;
	else
		a.slot = ROCEDP_NO_MEMBER;
	rd_account(&p.fl, &a);
}

/* Egress: ECN marking only; never changes the verdict. */
static __always_inline void rd_egress(void *data, void *data_end,
				      const struct rd_hook_in *in,
				      struct rd_result *res)
{
	const struct rocedp_config *cfg = rd_config_get();
	struct rd_fwd a = {};
	struct rd_pkt p = {};
	__u8 tos_in;

	res->verdict = ROCEDP_VERDICT_PASS;
	res->egress_ifindex = in->ifindex;
	res->pcp_push = 0xff;
	if (!cfg)
		return;
	a.now = rd_now();
	p.vlan_in_meta = in->vlan_in_meta;
	p.vlan_tags = in->vlan_in_meta;
	rd_parse(data, data_end, &p);
	rd_classify(&p, 0);
	tos_in = p.tos;
	if (cfg->features & ROCEDP_F_ECN)
		rd_ecn_egress(&p, in->ifindex, a.now);
	if (!cfg_trace)
		return;
	rd_acct_fill(&a, &p, tos_in);
	a.egress_ifindex = in->ifindex;
	a.slot = ROCEDP_NO_MEMBER;
	rd_account(&p.fl, &a);
}

#endif
