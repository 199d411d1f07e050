/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Classifier: parsed frame -> enum rocedp_class. CTS is no IBTA opcode, so
 * it is recognised by operator rules (opcode set, QP range, size, prefixes);
 * the first matching rule wins.
 */
#ifndef ROCEDP_CLASSIFY_H
#define ROCEDP_CLASSIFY_H

#include "parse.h"
#include "maps.h"

static __always_inline int rd_word_match(__u32 a, __u32 pfx, __u32 plen,
					 __u32 word)
{
	__u32 bits = plen > 32 * word ? plen - 32 * word : 0, mask;

	if (!bits)
		return 1;
	mask = bits >= 32 ? 0xffffffff : ~(0xffffffffu >> bits);
	return ((bpf_ntohl(a) ^ bpf_ntohl(pfx)) & mask) == 0;
}

/* Written out word by word: no loop for the verifier to unroll. */
static __always_inline int rd_prefix_match(const __u32 *addr, const __u32 *pfx,
					   __u8 plen, int words)
{
	if (!rd_word_match(addr[0], pfx[0], plen, 0))
		return 0;
	if (words == 1)
		return 1;
	return rd_word_match(addr[1], pfx[1], plen, 1) &&
	       rd_word_match(addr[2], pfx[2], plen, 2) &&
	       rd_word_match(addr[3], pfx[3], plen, 3);
}

static __always_inline int rd_cts_rule_match(const struct rocedp_cts_rule *r,
					     const struct rd_flow *p)
{
	int words = p->family == 6 ? 4 : 1;
	int want6 = !!(r->flags & ROCEDP_CTSF_IPV6);

	if (!((r->opcode_bitmap[(p->opcode >> 6) & 3] >> (p->opcode & 63)) & 1))
		return 0;
	if (p->dest_qp < r->qp_min || p->dest_qp > r->qp_max)
		return 0;
	if (p->bth_payload > r->max_payload)
		return 0;
	if ((r->flags & (ROCEDP_CTSF_SRC_PREFIX | ROCEDP_CTSF_DST_PREFIX)) &&
	    want6 != (p->family == 6))
		return 0;
	if ((r->flags & ROCEDP_CTSF_SRC_PREFIX) &&
	    !rd_prefix_match(p->src, r->src_addr, r->src_plen, words))
		return 0;
	if ((r->flags & ROCEDP_CTSF_DST_PREFIX) &&
	    !rd_prefix_match(p->dst, r->dst_addr, r->dst_plen, words))
		return 0;
	return 1;
}

/*
 * Returns the first matching rule's index, or -1; counts the hit when
 * count is set. Out of line: verified once, not once per parse path.
 */
__attribute__((noinline)) int rd_cts_match(struct rd_flow *p, int count)
{
	struct rocedp_cts_rule *r;
	struct rocedp_config *cfg;
	__u32 i, n, key, bank, live;
	__u64 *hits;

	cfg = rd_config_get();
	if (!p || !cfg)
		return -1;
	/* bank and count from one load of one word (see rocedp_abi.h) */
	live = *(volatile __u32 *)&cfg->cts_live;
	n = ROCEDP_CTS_LIVE_N(live);
	if (n > ROCEDP_MAX_CTS_RULES)
		n = ROCEDP_MAX_CTS_RULES;
	bank = ROCEDP_CTS_LIVE_BANK(live) * ROCEDP_MAX_CTS_RULES;
	for (i = 0; i < n; i++) {
		/* a separate key: a counter that lives on the stack as a map
		 * key loses its bounds and the verifier sees a loop */
		key = bank + i;
		r = bpf_map_lookup_elem(&rd_cts_rules, &key);
		if (!r || !rd_cts_rule_match(r, p))
			continue;
		key = i; /* hits count per list position */
		hits = count ? bpf_map_lookup_elem(&rd_cts_stats, &key) : NULL;
		if (hits)
			*hits += 1;
		return i;
	}
	return -1;
}

static __always_inline __u8 rd_classify_roce(struct rd_flow *fl,
					     const struct rocedp_config *cfg,
					     int count)
{
	int rule;

	switch (fl->opcode) {
	case ROCEDP_OP_CNP:
		return ROCEDP_CLASS_CNP;
	case ROCEDP_OP_RC_ACK:
	case ROCEDP_OP_RC_ATOMIC_ACK:
	case ROCEDP_OP_XRC_ACK:
	case ROCEDP_OP_XRC_ATOMIC_ACK:
		if (fl->aeth_kind == ROCEDP_AETH_ACK)
			return ROCEDP_CLASS_ACK;
		if (fl->aeth_kind == ROCEDP_AETH_NAK ||
		    fl->aeth_kind == ROCEDP_AETH_RNR_NAK)
			return ROCEDP_CLASS_NAK;
		return ROCEDP_CLASS_ROCE_OTHER;
	}
	if (!rocedp_opcode_is_data(fl->opcode))
		return ROCEDP_CLASS_ROCE_OTHER;
	/* no rules, the usual case: skip the call */
	if (!ROCEDP_CTS_LIVE_N(cfg->cts_live))
		return ROCEDP_CLASS_DATA;
	rule = rd_cts_match(fl, count);
	if (rule >= 0) {
		fl->cts_rule = rule;
		return ROCEDP_CLASS_CTS;
	}
	return ROCEDP_CLASS_DATA;
}

/* UEC: ACKs and NACKs apart, as RoCE's, so they can be remarked alike. */
static __always_inline __u8 rd_classify_uec(const struct rd_flow *fl)
{
	switch (fl->opcode) {
	case ROCEDP_PDS_ACK:
	case ROCEDP_PDS_ACK_CC:
	case ROCEDP_PDS_ACK_CCX:
		return ROCEDP_CLASS_UEC_ACK;
	case ROCEDP_PDS_NACK:
	case ROCEDP_PDS_NACK_CCX:
		return ROCEDP_CLASS_UEC_NACK;
	}
	return ROCEDP_CLASS_UEC;
}

/*
 * Sets fl->cls (and fl->cts_rule). count: bump the CTS rule counters
 * (ingress only, not again on egress).
 */
static __always_inline void
rd_classify(struct rd_flow *fl, const struct rocedp_config *cfg, int count)
{
	fl->cts_rule = 0xff;
	if (fl->malformed)
		fl->cls = ROCEDP_CLASS_MALFORMED;
	else if (!fl->family)
		fl->cls = ROCEDP_CLASS_NON_IP;
	else if (fl->is_roce)
		fl->cls = rd_classify_roce(fl, cfg, count);
	else if (rd_flow_uec(fl))
		fl->cls = rd_classify_uec(fl);
	else
		fl->cls = ROCEDP_CLASS_IP;
}

#endif
