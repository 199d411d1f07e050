/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Bounds-checked parser: Ethernet, up to two VLAN tags, IPv4/IPv6 (with
 * extension headers), UDP, and on port 4791 the RoCEv2 BTH plus AETH/CNP.
 * Every read is checked against data_end first, so a frame cut at any byte
 * parses safely and ends up with a malformed reason.
 */
#ifndef ROCEDP_PARSE_H
#define ROCEDP_PARSE_H

#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <linux/in.h>
#include <bpf/bpf_endian.h>
#include "rocedp_abi.h"

struct rd_vlan_hdr {
	__be16 tci;
	__be16 encap_proto;
};

struct rd_bth {
	__u8 opcode;
	__u8 flags; /* SE:1 M:1 Pad:2 TVer:4 */
	__be16 pkey;
	__u8 rsvd; /* byte 4: masked by the ICRC */
	__u8 dqp[3];
	__u8 apsn; /* A:1 rsvd:7 */
	__u8 psn[3];
};
_Static_assert(sizeof(struct rd_bth) == ROCEDP_BTH_LEN, "bth");

/*
 * pos/end bound what may be read (the linear part); off counts the bytes
 * consumed and wire_len is the whole frame, which on the tc path and for
 * XDP multi-buffer frames may be longer than the linear part: lengths in
 * headers are checked against it. not_linear: a header the frame holds
 * lies (partly) beyond the linear part, so the parser could not read it.
 */
struct rd_cursor {
	void *pos;
	void *end;
	__u32 off;
	__u32 wire_len;
	__u8 not_linear;
};

/* Can len bytes at ptr (cursor offset off) be read? If not, note whether
 * the frame has them past the linear part. */
static __always_inline int rd_cursor_fits(struct rd_cursor *c, void *ptr,
					  __u32 off, __u32 len)
{
	if (ptr + len <= c->end)
		return 1;
	if (off + len <= c->wire_len)
		c->not_linear = 1;
	return 0;
}

/*
 * Everything the parser learnt, as scalars. The decisions (class, remark,
 * route, member, ECN, counters) are taken from this alone by BPF global
 * functions, which the verifier checks once each instead of once per parse
 * outcome; only the byte rewrites go back to the packet, through offsets.
 */
struct rd_flow {
	__u32 src[4]; /* network order, IPv4 in [0] */
	__u32 dst[4];
	__u32 dest_qp;
	__u32 psn;
	__u32 bth_payload; /* bytes after BTH (and XRCETH), before ICRC */
	__u32 hash; /* out: the flow hash used for member choice */
	__u32 frame_len; /* the whole frame */
	__u16 sport;
	__u16 dport;
	__u16 outer_tci; /* outer VLAN TCI (in packet or skb metadata) */
	__u8 family; /* 4, 6 or 0 */
	__u8 l4_proto;
	__u8 is_roce;
	__u8 opcode;
	__u8 ack_req;
	__u8 cls; /* enum rocedp_class, set by the classifier */
	__u8 cts_rule; /* 0xff none */
	__u8 malformed; /* enum rocedp_malformed */
	__u8 aeth_kind;
	__u8 aeth_code;
	__u8 tos; /* DSCP << 2 | ECN */
	__u8 ttl;
	__u8 vlan_tags; /* in packet + in skb metadata */
	__u8 vlan_in_meta; /* tc: the outer tag lives in skb metadata */
	__u8 is_fragment;
	__u8 has_options; /* IPv4 options or IPv6 hop-by-hop */
	__u8 dmac_group; /* destination MAC is multicast/broadcast */
	__u8 icmp6_type;
	__u8 dmac[ETH_ALEN]; /* for the ingress port's MAC check */
	/*
	 * Two facts in one byte, so the struct keeps its size (rd_flow_uec,
	 * rd_flow_l4_off): bit 0 is UDP 4793 (Ultra Ethernet: opcode then
	 * holds the PDS type and aeth_code a NACK's code; the entropy value
	 * is sport); bits 7..1 the UDP header's offset in the frame, always
	 * even, 0 when past 254 (packet trimming cuts at it).
	 */
	__u8 l4_uec;
};

#define RD_FLOW_UEC 1
static __always_inline int rd_flow_uec(const struct rd_flow *fl)
{
	return fl->l4_uec & RD_FLOW_UEC;
}

static __always_inline __u32 rd_flow_l4_off(const struct rd_flow *fl)
{
	return fl->l4_uec & 0xfe;
}

_Static_assert(__builtin_offsetof(struct rd_flow, dmac) % 4 == 0,
	       "rd_flow.dmac: word loads");
/* on every entry's stack: a byte more costs a word of the 512 */
_Static_assert(sizeof(struct rd_flow) == 84, "rd_flow size");

/*
 * Word i (0..3) of the frame's addresses as the flow-keyed tables store
 * them: source, then destination (reverse: a response's, swapped back to
 * its request's), two little-endian 64-bit words each. The tables compare
 * stored keys with these in place, never building a key in memory.
 */
static __always_inline __u64 rd_flow_addr_word(const struct rd_flow *fl,
					       int reverse, int i)
{
	const __u32 *a = (i < 2) == !reverse ? fl->src : fl->dst;

	return (__u64)a[(i & 1) * 2] | (__u64)a[(i & 1) * 2 + 1] << 32;
}

/* The flow plus where the rewritable headers are. */
struct rd_pkt {
	struct rd_flow fl;
	__u16 l3_off; /* IP header */
	__u16 vlan0_off; /* outermost in-packet tag, 0 = none */
	__u16 l3_proto; /* host order ethertype after tags */
	__u16 pad;
};

#define RD_CURSOR_TAKE(c, type, var)                                         \
	({                                                                   \
		int __ok = 0;                                                \
		var = (type *)(c)->pos;                                      \
		if (rd_cursor_fits((c), (c)->pos, (c)->off, sizeof(type))) { \
			(c)->pos = (void *)(var + 1);                        \
			(c)->off += sizeof(type);                            \
			__ok = 1;                                            \
		}                                                            \
		__ok;                                                        \
	})

static __always_inline int rd_is_vlan(__u16 proto)
{
	return proto == ETH_P_8021Q || proto == ETH_P_8021AD;
}

static __always_inline __u32 rd_u24(const __u8 *p)
{
	return ((__u32)p[0] << 16) | ((__u32)p[1] << 8) | p[2];
}

/*
 * The destination MAC as one 32-bit and one 16-bit load and store (the
 * packet may be unaligned, which x86 and arm64 take; fl.dmac is 4-aligned,
 * asserted below): a byte-wise copy was a dozen instructions.
 */
static __always_inline void rd_take_dmac(const void *eth, struct rd_pkt *p)
{
	__u32 hi = *(const __u32 *)eth;
	__u16 lo = *(const __u16 *)(eth + 4);

	__builtin_memcpy(p->fl.dmac, &hi, sizeof(hi));
	__builtin_memcpy(p->fl.dmac + sizeof(hi), &lo, sizeof(lo));
}

/* What both parsers take from an IPv4 header: addresses, TTL, TOS. */
static __always_inline void rd_take_ip4(const struct iphdr *ip,
					struct rd_pkt *p)
{
	p->fl.family = 4;
	p->fl.ttl = ip->ttl;
	p->fl.tos = ip->tos;
	p->fl.src[0] = ip->saddr;
	p->fl.dst[0] = ip->daddr;
}

/* The same from an IPv6 header (traffic class as the TOS). */
static __always_inline void rd_take_ip6(const struct ipv6hdr *ip6,
					struct rd_pkt *p)
{
	p->fl.family = 6;
	p->fl.ttl = ip6->hop_limit;
	p->fl.tos = (ip6->priority << 4) | (ip6->flow_lbl[0] >> 4);
	__builtin_memcpy(p->fl.src, &ip6->saddr, 16);
	__builtin_memcpy(p->fl.dst, &ip6->daddr, 16);
}

/* The BTH fields; rest = the bytes after the BTH, before the ICRC. */
static __always_inline void rd_take_bth(const struct rd_bth *bth, __u32 rest,
					struct rd_pkt *p)
{
	p->fl.opcode = bth->opcode;
	p->fl.dest_qp = rd_u24(bth->dqp);
	p->fl.psn = rd_u24(bth->psn);
	p->fl.ack_req = bth->apsn >> 7;
	p->fl.bth_payload = rest;
}

/* Ethernet and up to ROCEDP_MAX_VLAN_TAGS tags; returns 0 or a reason. */
static __always_inline int rd_parse_eth(struct rd_cursor *c, struct rd_pkt *p)
{
	struct rd_vlan_hdr *vh;
	struct ethhdr *eth;
	__u16 proto;
	int i;

	if (!RD_CURSOR_TAKE(c, struct ethhdr, eth))
		return ROCEDP_MAL_TRUNC_ETH;
	proto = bpf_ntohs(eth->h_proto);
	p->fl.dmac_group = eth->h_dest[0] & 1;
	__builtin_memcpy(p->fl.dmac, eth->h_dest, ETH_ALEN);
#pragma unroll
	for (i = 0; i < ROCEDP_MAX_VLAN_TAGS; i++) {
		if (!rd_is_vlan(proto))
			break;
		if (p->fl.vlan_tags >= ROCEDP_MAX_VLAN_TAGS)
			return ROCEDP_MAL_TOO_MANY_VLAN;
		if (!RD_CURSOR_TAKE(c, struct rd_vlan_hdr, vh))
			return ROCEDP_MAL_TRUNC_VLAN;
		if (!p->vlan0_off && !p->fl.vlan_in_meta) {
			p->vlan0_off = c->off - sizeof(*vh);
			p->fl.outer_tci = bpf_ntohs(vh->tci);
		}
		p->fl.vlan_tags++;
		proto = bpf_ntohs(vh->encap_proto);
	}
	if (rd_is_vlan(proto))
		return ROCEDP_MAL_TOO_MANY_VLAN;
	p->l3_proto = proto;
	return 0;
}

/* *l4_len gets the L4 bytes the IP header announces. */
static __always_inline int rd_parse_ip4(struct rd_cursor *c, struct rd_pkt *p,
					__u32 *l4_len)
{
	struct iphdr *ip;
	__u32 hlen, tot, ip_off;

	if (!RD_CURSOR_TAKE(c, struct iphdr, ip))
		return ROCEDP_MAL_TRUNC_IP4;
	ip_off = c->off - sizeof(*ip);
	if (ip->version != 4)
		return ROCEDP_MAL_BAD_IP_VERSION;
	hlen = ip->ihl * 4;
	if (hlen < sizeof(*ip))
		return ROCEDP_MAL_BAD_IHL;
	tot = bpf_ntohs(ip->tot_len) & 0xffff; /* keep the verifier's bound */
	/* Ethernet padding may follow the datagram, a short frame may not. */
	if (tot < hlen || ip_off + tot > c->wire_len)
		return ROCEDP_MAL_BAD_IP_LEN;
	/* Options: step over them (they must be readable). */
	if (!rd_cursor_fits(c, (void *)ip, ip_off, hlen))
		return ROCEDP_MAL_BAD_IHL;
	c->pos = (void *)ip + hlen;
	c->off = ip_off + hlen;
	p->l3_off = ip_off;
	rd_take_ip4(ip, p);
	p->fl.l4_proto = ip->protocol;
	p->fl.has_options = hlen > sizeof(*ip);
	p->fl.is_fragment = (bpf_ntohs(ip->frag_off) & 0x3fff) != 0;
	*l4_len = tot - hlen;
	return 0;
}

struct rd_ipv6_opt_hdr {
	__u8 nexthdr;
	__u8 hdrlen;
	__u8 data[6];
};

static __always_inline int rd_ipv6_is_ext(__u8 nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
	       nh == IPPROTO_DSTOPTS || nh == IPPROTO_FRAGMENT;
}

static __always_inline int rd_parse_ip6(struct rd_cursor *c, struct rd_pkt *p,
					__u32 *l4_len)
{
	struct rd_ipv6_opt_hdr *oh;
	struct ipv6hdr *ip6;
	__u32 plen, len;
	__u8 nh;
	int i;

	if (!RD_CURSOR_TAKE(c, struct ipv6hdr, ip6))
		return ROCEDP_MAL_TRUNC_IP6;
	if (ip6->version != 6)
		return ROCEDP_MAL_BAD_IP_VERSION;
	plen = bpf_ntohs(ip6->payload_len) & 0xffff;
	if (c->off + plen > c->wire_len)
		return ROCEDP_MAL_BAD_IP_LEN;
	p->l3_off = c->off - sizeof(*ip6);
	rd_take_ip6(ip6, p);
	nh = ip6->nexthdr;
	p->fl.has_options = nh == IPPROTO_HOPOPTS;
#pragma unroll
	for (i = 0; i < ROCEDP_MAX_IPV6_EXT; i++) {
		if (!rd_ipv6_is_ext(nh))
			break;
		if (!RD_CURSOR_TAKE(c, struct rd_ipv6_opt_hdr, oh))
			return ROCEDP_MAL_TRUNC_EXT;
		if (nh == IPPROTO_FRAGMENT) {
			/* Offset or more-fragments set: not a whole datagram.
			 * Both clear is an atomic fragment, which RFC 6946
			 * says to process as the whole datagram it is. */
			p->fl.is_fragment =
				(bpf_ntohs(*(__be16 *)oh->data) & 0xfff9) != 0;
			len = 8;
		} else {
			len = (oh->hdrlen + 1) * 8;
		}
		if (!rd_cursor_fits(c, (void *)oh, c->off - sizeof(*oh), len))
			return ROCEDP_MAL_TRUNC_EXT;
		if (len > plen)
			return ROCEDP_MAL_BAD_IP_LEN;
		plen -= len;
		c->pos = (void *)oh + len;
		c->off += len - sizeof(*oh);
		nh = oh->nexthdr;
	}
	if (rd_ipv6_is_ext(nh))
		return ROCEDP_MAL_TOO_MANY_EXT;
	p->fl.l4_proto = nh;
	*l4_len = plen;
	return 0;
}

/*
 * XRC requests carry an XRCETH (XRC SRQ number) after the BTH, responses
 * do not (IBTA vol 1 9.2, table 38): sends, writes, read requests,
 * atomics and the sends with invalidate, as on RC.
 */
static __always_inline int rd_op_has_xrceth(__u8 op)
{
	__u8 fn = op & 0x1f;

	return (op & 0xe0) == ROCEDP_OP_XRC_BASE &&
	       (fn <= 0x0c || fn == 0x13 || fn == 0x14 || fn == 0x16 ||
		fn == 0x17);
}

/* BTH and what follows it; only reached for UDP port 4791. */
static __always_inline int rd_parse_bth(struct rd_cursor *c, struct rd_pkt *p,
					__u32 udp_payload)
{
	struct rd_bth *bth;
	__u8 *aeth;
	__u32 rest;

	if (udp_payload < ROCEDP_BTH_LEN + ROCEDP_ICRC_LEN)
		return ROCEDP_MAL_TRUNC_BTH;
	if (!RD_CURSOR_TAKE(c, struct rd_bth, bth))
		return ROCEDP_MAL_TRUNC_BTH;
	rest = udp_payload - ROCEDP_BTH_LEN - ROCEDP_ICRC_LEN;
	rd_take_bth(bth, rest, p);
	if ((bth->flags & 0x0f) != 0)
		return ROCEDP_MAL_BAD_BTH_VERSION;
	p->fl.is_roce = 1;

	switch (bth->opcode) {
	case ROCEDP_OP_RC_ACK:
	case ROCEDP_OP_RC_ATOMIC_ACK:
	case ROCEDP_OP_XRC_ACK:
	case ROCEDP_OP_XRC_ATOMIC_ACK:
		if (rest < ROCEDP_AETH_LEN)
			return ROCEDP_MAL_TRUNC_AETH;
		aeth = c->pos;
		if (!rd_cursor_fits(c, (void *)aeth, c->off, 1))
			return ROCEDP_MAL_TRUNC_AETH;
		switch ((aeth[0] >> 5) & 3) {
		case 0:
			p->fl.aeth_kind = ROCEDP_AETH_ACK;
			break;
		case 1:
			p->fl.aeth_kind = ROCEDP_AETH_RNR_NAK;
			break;
		case 3:
			p->fl.aeth_kind = ROCEDP_AETH_NAK;
			break;
		default:
			p->fl.aeth_kind = ROCEDP_AETH_RESERVED;
			break;
		}
		p->fl.aeth_code = aeth[0] & 0x1f;
		break;
	case ROCEDP_OP_CNP:
		if (rest < ROCEDP_CNP_PAYLOAD_LEN)
			return ROCEDP_MAL_TRUNC_CNP;
		break;
	}
	/* CTS rules measure what follows the XRCETH, as on RC */
	if (rd_op_has_xrceth(bth->opcode)) {
		if (rest < ROCEDP_XRCETH_LEN)
			return ROCEDP_MAL_TRUNC_XRCETH;
		p->fl.bth_payload = rest - ROCEDP_XRCETH_LEN;
	}
	/* The ICRC must be inside the frame too. */
	if (c->off + rest + ROCEDP_ICRC_LEN > c->wire_len)
		return ROCEDP_MAL_TRUNC_BTH;
	return 0;
}

/*
 * The PDS prologue of a UDP 4793 datagram: its type, and a NACK's code.
 * rocedp does not validate UEC: a datagram too short for a prologue, or
 * one whose prologue lies past the linear part, is class uec, type 0.
 */
static __always_inline void rd_parse_pds(struct rd_cursor *c, struct rd_pkt *p,
					 __u32 udp_payload)
{
	__u8 *h = c->pos;
	__u8 type;

	p->fl.l4_uec |= RD_FLOW_UEC;
	if (udp_payload < 2 || (void *)(h + 2) > c->end)
		return;
	type = h[0] >> ROCEDP_PDS_TYPE_SHIFT;
	p->fl.opcode = type;
	if ((type == ROCEDP_PDS_NACK || type == ROCEDP_PDS_NACK_CCX) &&
	    udp_payload > ROCEDP_PDS_NACK_CODE_OFF &&
	    (void *)(h + ROCEDP_PDS_NACK_CODE_OFF + 1) <= c->end)
		p->fl.aeth_code = h[ROCEDP_PDS_NACK_CODE_OFF];
}

static __always_inline int rd_parse_udp(struct rd_cursor *c, struct rd_pkt *p,
					__u32 l4_len)
{
	struct udphdr *udp;
	__u32 ulen;

	p->fl.l4_uec = c->off <= 254 && !(c->off & 1) ? c->off : 0;
	if (l4_len < sizeof(*udp) || !RD_CURSOR_TAKE(c, struct udphdr, udp))
		return ROCEDP_MAL_TRUNC_UDP;
	p->fl.sport = bpf_ntohs(udp->source);
	p->fl.dport = bpf_ntohs(udp->dest);
	ulen = bpf_ntohs(udp->len) & 0xffff;
	if (ulen < sizeof(*udp) || ulen > l4_len)
		return ROCEDP_MAL_BAD_UDP_LEN;
	if (p->fl.dport == ROCEDP_UEC_PORT) {
		rd_parse_pds(c, p, ulen - sizeof(*udp));
		return 0;
	}
	if (p->fl.dport != ROCEDP_ROCEV2_PORT)
		return 0;
	return rd_parse_bth(c, p, ulen - sizeof(*udp));
}

/* Ports of other L4 protocols for the 5-tuple hash; the ICMPv6 type. */
static __always_inline void rd_parse_ports(struct rd_cursor *c,
					   struct rd_pkt *p)
{
	__be16 *ports = c->pos;
	__u8 *type = c->pos;

	if (p->fl.l4_proto == IPPROTO_ICMPV6) {
		if ((void *)(type + 1) <= c->end)
			p->fl.icmp6_type = *type;
		return;
	}
	if (p->fl.l4_proto != IPPROTO_TCP && p->fl.l4_proto != IPPROTO_SCTP)
		return;
	if ((void *)(ports + 2) > c->end)
		return;
	p->fl.sport = bpf_ntohs(ports[0]);
	p->fl.dport = bpf_ntohs(ports[1]);
}

/*
 * Parse the whole frame. p->fl.malformed holds the first problem found;
 * fields before it stay valid (e.g. the IP header of a truncated BTH).
 */
static __always_inline void rd_parse(void *data, void *data_end, __u32 wire_len,
				     struct rd_pkt *p)
{
	struct rd_cursor c = { .pos = data,
			       .end = data_end,
			       .wire_len = wire_len };
	__u32 l4_len = 0;
	int err;

	p->fl.frame_len = wire_len;
	err = rd_parse_eth(&c, p);
	if (err)
		goto out;
	if (p->l3_proto == ETH_P_IP)
		err = rd_parse_ip4(&c, p, &l4_len);
	else if (p->l3_proto == ETH_P_IPV6)
		err = rd_parse_ip6(&c, p, &l4_len);
	else
		goto out;
	if (err || p->fl.is_fragment)
		goto out;
	if (p->fl.l4_proto == IPPROTO_UDP)
		err = rd_parse_udp(&c, p, l4_len);
	else
		rd_parse_ports(&c, p);
out:
	/* not broken, only unreadable here: the kernel gets it, counted */
	if (err && c.not_linear)
		err = ROCEDP_MAL_NOT_LINEAR;
	p->fl.malformed = err;
}

/*
 * UDP 4791 filling the datagram (ulen = the IP payload length), a BTH of
 * version 0 whose opcode carries no AETH or CNP payload and is no XRC
 * opcode (their XRCETH is the general parser's), the ICRC inside: the
 * RoCE part of the express shape, after either IP header.
 */
static __always_inline int rd_express_roce(struct udphdr *udp,
					   struct rd_bth *bth, __u32 ulen,
					   struct rd_pkt *p)
{
	if (udp->dest != bpf_htons(ROCEDP_ROCEV2_PORT) ||
	    bpf_ntohs(udp->len) != ulen ||
	    ulen < sizeof(*udp) + ROCEDP_BTH_LEN + ROCEDP_ICRC_LEN ||
	    (bth->flags & 0x0f) || (bth->opcode & 0xe0) == ROCEDP_OP_XRC_BASE)
		return 0;
	switch (bth->opcode) {
	case ROCEDP_OP_RC_ACK:
	case ROCEDP_OP_RC_ATOMIC_ACK:
	case ROCEDP_OP_CNP:
		return 0;
	}
	p->fl.l4_proto = IPPROTO_UDP;
	p->fl.sport = bpf_ntohs(udp->source);
	p->fl.dport = ROCEDP_ROCEV2_PORT;
	rd_take_bth(bth, ulen - sizeof(*udp) - ROCEDP_BTH_LEN - ROCEDP_ICRC_LEN,
		    p);
	p->fl.is_roce = 1;
	return 1;
}

/*
 * The usual frame at fixed offsets: untagged IPv4 without options or IPv6
 * without extension headers, a whole datagram, then rd_express_roce. Fills
 * p exactly as rd_parse would (tests run every fixture and fuzz input
 * through both) and returns 1; returns 0, p untouched, for any other
 * shape, which rd_parse then reads.
 */
static __always_inline int rd_parse_express(void *data, void *data_end,
					    __u32 wire_len, struct rd_pkt *p)
{
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = data + ETH_HLEN;
	struct iphdr *ip = data + ETH_HLEN;
	struct udphdr *udp;
	struct rd_bth *bth;
	__u32 len;

	if ((void *)(eth + 1) > data_end || p->fl.vlan_in_meta)
		return 0;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		udp = (void *)(ip + 1);
		bth = (void *)(udp + 1);
		if ((void *)(bth + 1) > data_end || *(__u8 *)ip != 0x45 ||
		    ip->protocol != IPPROTO_UDP ||
		    (ip->frag_off & bpf_htons(0x3fff)))
			return 0;
		len = bpf_ntohs(ip->tot_len);
		if (len < sizeof(*ip) || ETH_HLEN + len > wire_len ||
		    !rd_express_roce(udp, bth, len - sizeof(*ip), p))
			return 0;
		rd_take_ip4(ip, p);
		p->fl.l4_uec = ETH_HLEN + sizeof(*ip);
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		udp = (void *)(ip6 + 1);
		bth = (void *)(udp + 1);
		if ((void *)(bth + 1) > data_end || ip6->version != 6 ||
		    ip6->nexthdr != IPPROTO_UDP)
			return 0;
		len = bpf_ntohs(ip6->payload_len);
		if (ETH_HLEN + sizeof(*ip6) + len > wire_len ||
		    !rd_express_roce(udp, bth, len, p))
			return 0;
		rd_take_ip6(ip6, p);
		p->fl.l4_uec = ETH_HLEN + sizeof(*ip6);
	} else {
		return 0;
	}
	p->fl.frame_len = wire_len;
	p->fl.dmac_group = eth->h_dest[0] & 1;
	rd_take_dmac(data, p);
	p->l3_proto = bpf_ntohs(eth->h_proto);
	p->l3_off = ETH_HLEN;
	return 1;
}

#endif
