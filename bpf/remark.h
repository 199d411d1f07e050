/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * DSCP (and optionally 802.1p PCP) remarking per class. Only the DSCP bits
 * change; ECN stays. The RoCEv2 ICRC masks the TOS / traffic-class byte, so
 * the ICRC stays valid; the IPv4 header checksum is updated incrementally.
 */
#ifndef ROCEDP_REMARK_H
#define ROCEDP_REMARK_H

#include "parse.h"
#include "csum.h"
#include "counters.h"

/* Write a new TOS / traffic class keeping ECN. Returns 1 if it changed. */
static __always_inline int rd_set_dscp(struct rd_pkt *p, __u8 dscp)
{
	__u8 tos = (dscp << 2) | (p->tos & 3);
	__be16 old, new;

	if (tos == p->tos)
		return 0;
	if (p->ip4) {
		old = *(__be16 *)p->ip4;
		p->ip4->tos = tos;
		new = *(__be16 *)p->ip4;
		rd_csum_replace2(&p->ip4->check, old, new);
	} else if (p->ip6) {
		p->ip6->priority = tos >> 4;
		p->ip6->flow_lbl[0] = (p->ip6->flow_lbl[0] & 0x0f) | (tos << 4);
	} else {
		return 0;
	}
	p->tos = tos;
	return 1;
}

/*
 * Apply the class's QoS action. *pcp_out gets the PCP to push into a tag
 * held in skb metadata (tc only), or 0xff for none.
 */
static __always_inline void rd_remark(struct rd_pkt *p, __u8 *pcp_out)
{
	__u32 cls = p->fl.cls;
	struct rocedp_qos *q;
	int changed = 0;
	__u16 tci;

	*pcp_out = 0xff;
	if (!p->fl.family || p->malformed)
		return;
	q = bpf_map_lookup_elem(&rd_qos, &cls);
	if (!q || q->action != ROCEDP_QOS_SET_DSCP)
		return;
	changed = rd_set_dscp(p, q->dscp & 0x3f);
	if (q->set_pcp) {
		/* The outer tag is in skb metadata (tc) or in the frame. */
		if (p->vlan_in_meta) {
			if ((p->meta_tci >> 13) != (q->pcp & 7)) {
				*pcp_out = q->pcp & 7;
				changed = 1;
			}
		} else if (p->vlan0) {
			tci = bpf_ntohs(p->vlan0->tci);
			if ((tci >> 13) != (q->pcp & 7)) {
				tci = (tci & 0x1fff) | ((q->pcp & 7) << 13);
				p->vlan0->tci = bpf_htons(tci);
				changed = 1;
			}
		}
	}
	rd_count(changed ? ROCEDP_CTR_REMARKED : ROCEDP_CTR_REMARK_SAME);
}

#endif
