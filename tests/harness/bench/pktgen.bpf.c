// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Throughput benchmark traffic: a source run with BPF_PROG_TEST_RUN and
 * BPF_F_TEST_XDP_LIVE_FRAMES, and a counting sink.
 *
 * Source: live-frame pages are recycled with whatever bytes the forwarder
 * wrote into them (MACs, TTL, checksum), so every frame gets all of its
 * headers written afresh here, then goes out with XDP_TX (turned into a
 * redirect to the veth the test run names as ingress device).
 *
 * This is the one frame writer outside userspace/lib/wire/frame.c, on purpose: it
 * runs in the kernel on each recycled page, where userspace cannot reach,
 * and rewrites headers in place for any frame size. Its vocabulary
 * (port, BTH length, opcode) is the ABI's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "rocedp_abi.h"

#define HDRS_LEN (ETH_HLEN + 20 + 8 + ROCEDP_BTH_LEN)
#define HDRS6_LEN (ETH_HLEN + 40 + 8 + ROCEDP_BTH_LEN)

const volatile __u8 src_dmac[ETH_ALEN];
const volatile __u8 src_smac[ETH_ALEN];
const volatile __u32 src_saddr; /* network order */
const volatile __u32 src_daddr; /* network order; low byte varied */
const volatile __u32 src_n_dst = 64; /* destinations: daddr + 0..n-1 */
const volatile __u32 src_n_qp = 64; /* destination QPs per destination */
const volatile __u32 src_n_sport = 8; /* UDP source ports */
/* IPv6 frames instead (the _v6 rows): these addresses, the last byte of
 * the destination varied as daddr's low byte is */
const volatile __u8 src_v6;
const volatile __u8 src_saddr6[16];
const volatile __u8 src_daddr6[16];

__u64 src_seq;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} sink_count SEC(".maps");

static __always_inline __u16 ip_csum(const __u16 *w)
{
	__u32 s = 0;
	int i;

#pragma unroll
	for (i = 0; i < 10; i++)
		s += w[i];
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return ~s;
}

/* UDP, then BTH: RC RDMA WRITE ONLY, pkey default, dest QP, PSN */
static __always_inline void src_l4(struct udphdr *udp, __u8 *bth, __u32 seq,
				   __u32 udp_len)
{
	__u32 qp = 0x100 + (seq / src_n_dst) % src_n_qp;

	udp->source = bpf_htons(49152 + (seq / src_n_dst) % src_n_sport);
	udp->dest = bpf_htons(ROCEDP_ROCEV2_PORT);
	udp->len = bpf_htons(udp_len);
	udp->check = 0;
	bth[0] = ROCEDP_OP_RC_WRITE_ONLY;
	bth[1] = 0;
	bth[2] = 0xff;
	bth[3] = 0xff;
	bth[4] = 0;
	bth[5] = qp >> 16;
	bth[6] = qp >> 8;
	bth[7] = qp;
	bth[8] = 0;
	bth[9] = seq >> 16;
	bth[10] = seq >> 8;
	bth[11] = seq;
}

static __always_inline void src_eth(struct ethhdr *eth, __u16 proto)
{
	int i;

#pragma unroll
	for (i = 0; i < ETH_ALEN; i++) {
		eth->h_dest[i] = src_dmac[i];
		eth->h_source[i] = src_smac[i];
	}
	eth->h_proto = bpf_htons(proto);
}

/* RoCEv2 over IPv6: traffic class 0x02 (ECT(0)), as the IPv4 frames' TOS */
static __always_inline int src_frame6(void *data, void *end, __u32 seq)
{
	struct ipv6hdr *ip6 = data + ETH_HLEN;
	__u32 len = end - data;
	int i;

	if (data + HDRS6_LEN > end)
		return XDP_DROP;
	src_eth(data, ETH_P_IPV6);
	*(__be32 *)ip6 = bpf_htonl(0x60000000 | 0x02 << 20);
	ip6->payload_len = bpf_htons(len - ETH_HLEN - 40);
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = 64;
#pragma unroll
	for (i = 0; i < 16; i++) {
		ip6->saddr.in6_u.u6_addr8[i] = src_saddr6[i];
		ip6->daddr.in6_u.u6_addr8[i] = src_daddr6[i];
	}
	ip6->daddr.in6_u.u6_addr8[15] = src_daddr6[15] + seq % src_n_dst;
	src_l4(data + ETH_HLEN + 40, data + ETH_HLEN + 48, seq,
	       len - ETH_HLEN - 40);
	return XDP_TX;
}

SEC("xdp")
int bench_src(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = data + ETH_HLEN;
	__u32 len = end - data, seq;

	seq = src_seq++;
	if (src_v6)
		return src_frame6(data, end, seq);
	if (data + HDRS_LEN > end)
		return XDP_DROP;
	src_eth(data, ETH_P_IP);
	*(__u16 *)ip = bpf_htons(0x4502); /* v4, ihl 5, DSCP 0, ECT(0) */
	ip->tot_len = bpf_htons(len - ETH_HLEN);
	ip->id = bpf_htons(seq);
	ip->frag_off = bpf_htons(0x4000); /* DF */
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->check = 0;
	ip->saddr = src_saddr;
	ip->daddr = bpf_htonl(bpf_ntohl(src_daddr) + seq % src_n_dst);
	ip->check = ip_csum((__u16 *)ip);
	src_l4(data + ETH_HLEN + 20, data + ETH_HLEN + 28, seq,
	       len - ETH_HLEN - 20);
	return XDP_TX;
}

/* frags: the jumbo row runs the sinks' veths at MTU 9000 */
SEC("xdp.frags")
int bench_sink(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *c = bpf_map_lookup_elem(&sink_count, &zero);

	if (c)
		(*c)++;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
