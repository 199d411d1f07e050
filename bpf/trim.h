/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Packet trimming: admission to an egress port's buffer (the ECN virtual
 * queue capped at buffer_bytes) and the cut. A port with a discard action
 * refuses a frame the queue cannot hold: tail drop, or with the trim
 * action an eligible frame (UDP, its DSCP in the port's set) is cut to the
 * port's size, its IP and UDP lengths and checksums fixed and its DSCP
 * rewritten. The decision (rd_trim_admit) runs only when the queue is
 * full; a port without a discard action pays one test of its flags.
 */
#ifndef ROCEDP_TRIM_H
#define ROCEDP_TRIM_H

#include "parse.h"
#include "csum.h"
#include "maps.h"

/* rd_trim_admit's answer, beside RED's mark (1) */
#define RD_ADMIT_DROP 2
#define RD_ADMIT_TRIM 4
#define RD_ADMIT_DSCP_SHIFT 8 /* the cut frame's DSCP, 0xff = the class's */

/* Where the UDP header of a frame the cut can rewrite sits: no tag in
 * the frame, no IPv4 options, no IPv6 extension header. */
#define RD_TRIM_L4_IP4 (ETH_HLEN + 20)
#define RD_TRIM_L4_IP6 (ETH_HLEN + 40)

/*
 * Can the frame be cut to size? A whole UDP datagram right after its IP
 * header (fixed offsets: the cut writes them without a variable packet
 * offset, which 6.1's verifier loses track of), its headers inside
 * size, its DSCP in the set. Default set: empty (docs/trim.md).
 */
static __always_inline int rd_trim_eligible(const struct rd_flow *fl,
					    const struct rocedp_trim_port *tp,
					    __u32 len)
{
	__u32 l4 = rd_flow_l4_off(fl);

	if (fl->malformed || fl->l4_proto != IPPROTO_UDP || fl->is_fragment ||
	    fl->has_options || fl->vlan_tags != fl->vlan_in_meta)
		return 0;
	if (l4 != (fl->family == 4 ? RD_TRIM_L4_IP4 : RD_TRIM_L4_IP6))
		return 0;
	if (!((tp->eligible_dscp >> (fl->tos >> 2)) & 1))
		return 0;
	return l4 + 8 <= tp->size && tp->size < len;
}

/*
 * A frame of len bytes found the port's queue too full to join (the ECN
 * step left the queue without it). Returns RD_ADMIT_DROP, or
 * RD_ADMIT_TRIM with the DSCP; the queue then holds what was admitted.
 * Out of line: called from the entry's frame, it must not grow it.
 */
__attribute__((noinline)) int rd_trim_admit(struct rd_flow *fl, __u32 ifindex,
					    __u32 len)
{
	struct rocedp_trim_stats *ts;
	struct rocedp_port_state *st;
	struct rocedp_trim_port *tp;
	struct rocedp_port_cfg *pc;
	__u64 q, cap;
	int held;

	tp = bpf_map_lookup_elem(&rd_trim_ports, &ifindex);
	pc = bpf_map_lookup_elem(&rd_port_cfg, &ifindex);
	st = rd_port_state_get(ifindex);
	if (!fl || !tp || !pc || !st)
		return RD_ADMIT_DROP;
	if (!tp->action) /* a flag without an action: join as before */
		return 0;
	ts = bpf_map_lookup_elem(&rd_trim_stats, &ifindex);
	held = pc->flags & ROCEDP_PORTF_HOLD_QUEUE;
	q = st->vq_over_q;
	cap = pc->buffer_bytes;
	if (!held)
		st->vq_bytes = q; /* without this frame, until admitted */
	if (tp->action == ROCEDP_DISCARD_TRIM &&
	    rd_trim_eligible(fl, tp, len)) {
		if (ts)
			ts->trim_pkts++;
		if (q + tp->size <= cap) {
			if (!held)
				st->vq_bytes = q + tp->size;
			if (ts)
				ts->tx_trim_pkts++;
			return RD_ADMIT_TRIM | (__u32)tp->dscp
						       << RD_ADMIT_DSCP_SHIFT;
		}
		if (ts)
			ts->dropped_trim_pkts++;
	} else if (ts) {
		ts->tail_drop_pkts++;
	}
	return RD_ADMIT_DROP;
}

/*
 * The cut's header half, on an untagged frame: IP length and checksum,
 * UDP length; the UDP checksum becomes 0 on IPv4 (RFC 768 allows it, and
 * RoCEv2 sends 0); on IPv6 a zero one stays zero and a set one cannot be
 * kept without reading every byte kept: -1, and the frame is dropped.
 */
static __always_inline int rd_trim_headers(void *data, void *data_end,
					   __u32 size, __u32 l4_off)
{
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = data + ETH_HLEN;
	struct iphdr *ip = data + ETH_HLEN;
	struct udphdr *udp;
	__be16 old, new;

	if (size > ROCEDP_TRIM_SIZE_MAX || (void *)(eth + 1) > data_end)
		return -1;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		udp = (void *)(ip + 1);
		if (l4_off != RD_TRIM_L4_IP4 || (void *)(udp + 1) > data_end ||
		    size < RD_TRIM_L4_IP4 + sizeof(*udp))
			return -1;
		old = ip->tot_len;
		new = bpf_htons(size - ETH_HLEN);
		ip->tot_len = new;
		rd_csum_replace2(&ip->check, old, new);
		udp->check = 0;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		udp = (void *)(ip6 + 1);
		if (l4_off != RD_TRIM_L4_IP6 || (void *)(udp + 1) > data_end ||
		    size < RD_TRIM_L4_IP6 + sizeof(*udp) || udp->check)
			return -1;
		ip6->payload_len = bpf_htons(size - RD_TRIM_L4_IP6);
	} else {
		return -1;
	}
	udp->len = bpf_htons(size - l4_off);
	return 0;
}

/* A cut that could not be made after all: counted as dropped, not sent. */
static __always_inline void rd_trim_undo(__u32 ifindex)
{
	struct rocedp_trim_stats *ts;

	ts = bpf_map_lookup_elem(&rd_trim_stats, &ifindex);
	if (ts && ts->tx_trim_pkts) {
		ts->tx_trim_pkts--;
		ts->dropped_trim_pkts++;
	}
}

static __always_inline __u32 rd_trim_size(__u32 ifindex)
{
	struct rocedp_trim_port *tp;

	tp = bpf_map_lookup_elem(&rd_trim_ports, &ifindex);
	return tp ? tp->size : 0;
}

/* XDP: the cut (bpf_xdp_adjust_tail); 0, or -1: drop the frame. */
__attribute__((noinline)) int rd_xdp_trim(struct xdp_md *ctx, __u32 ifindex,
					  __u32 l4_off)
{
	__u32 size = rd_trim_size(ifindex), len;

	if (!ctx)
		return -1;
	len = bpf_xdp_get_buff_len(ctx);
	if (!size || size >= len ||
	    rd_trim_headers((void *)(long)ctx->data,
			    (void *)(long)ctx->data_end, size, l4_off) ||
	    bpf_xdp_adjust_tail(ctx, (int)size - (int)len)) {
		rd_trim_undo(ifindex);
		return -1;
	}
	return 0;
}

/* tc: the same with bpf_skb_change_tail. */
__attribute__((noinline)) int rd_tc_trim(struct __sk_buff *skb, __u32 ifindex,
					 __u32 l4_off)
{
	__u32 size = rd_trim_size(ifindex);

	if (!skb)
		return -1;
	if (!size || size >= skb->len ||
	    rd_trim_headers((void *)(long)skb->data,
			    (void *)(long)skb->data_end, size, l4_off) ||
	    bpf_skb_change_tail(skb, size, 0)) {
		rd_trim_undo(ifindex);
		return -1;
	}
	return 0;
}

#endif
