/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * DSCP (and optionally 802.1p PCP) remarking per class. Only the DSCP bits
 * change; ECN stays. The RoCEv2 ICRC masks the TOS / traffic-class byte, so
 * the ICRC stays valid; the IPv4 header checksum is updated incrementally.
 * The decision is taken on scalars; the writes go through offsets.
 */
#ifndef ROCEDP_REMARK_H
#define ROCEDP_REMARK_H

#include "parse.h"
#include "csum.h"
#include "counters.h"
#include "plan.h"

/* The class's QoS action: pl->tos_out and pl->pcp. */
static __always_inline void rd_remark_decide(const struct rd_flow *fl,
					     struct rd_plan *pl)
{
	__u32 cls = fl->cls;
	struct rocedp_qos *q;
	int changed;

	if (!fl->family || fl->malformed)
		return;
	q = bpf_map_lookup_elem(&rd_qos, &cls);
	if (!q || q->action != ROCEDP_QOS_SET_DSCP)
		return;
	pl->tos_out = ((q->dscp & 0x3f) << 2) | (fl->tos & 3);
	changed = pl->tos_out != fl->tos;
	if (q->set_pcp && fl->vlan_tags &&
	    (fl->outer_tci >> 13) != (q->pcp & 7)) {
		pl->pcp = q->pcp & 7;
		changed = 1;
	}
	/* counted by rd_account, in the frame's counter block */
	pl->ctr_remark = changed ? ROCEDP_CTR_REMARKED : ROCEDP_CTR_REMARK_SAME;
}

/* New TOS / traffic class at l3_off; the IPv4 checksum follows. */
static __always_inline void rd_write_tos(void *data, void *data_end,
					 __u32 l3_off, __u8 family, __u8 tos)
{
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	__be16 old, new;

	if (l3_off > 64) /* two tags at most: restates the bound */
		return;
	if (family == 4) {
		ip = data + l3_off;
		if ((void *)(ip + 1) > data_end)
			return;
		/* (version/IHL, TOS) as one word, computed not re-read */
		old = *(volatile __be16 *)ip;
		new = bpf_htons((bpf_ntohs(old) & 0xff00) | tos);
		*(volatile __be16 *)ip = new;
		rd_csum_replace2(&ip->check, old, new);
	} else if (family == 6) {
		ip6 = data + l3_off;
		if ((void *)(ip6 + 1) > data_end)
			return;
		ip6->priority = tos >> 4;
		ip6->flow_lbl[0] = (ip6->flow_lbl[0] & 0x0f) | (tos << 4);
	}
}

/* PCP of the outermost in-packet tag */
static __always_inline void rd_write_pcp(void *data, void *data_end,
					 __u32 vlan_off, __u8 pcp)
{
	struct rd_vlan_hdr *vh;
	__u16 tci;

	if (!vlan_off || vlan_off > 64)
		return;
	vh = data + vlan_off;
	if ((void *)(vh + 1) > data_end)
		return;
	tci = bpf_ntohs(vh->tci);
	vh->tci = bpf_htons((tci & 0x1fff) | ((__u16)(pcp & 7) << 13));
}

#endif
