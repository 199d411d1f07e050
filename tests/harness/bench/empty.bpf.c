// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Baselines for the per-packet cost benchmark: programs that do nothing,
 * timed in the same run as rocedp so that ratios cancel the test-run loop,
 * unit costs, and a bare forwarder as the floor of what any XDP forwarder
 * with rocedp's table layout costs.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "rocedp_abi.h"
#include "bench_abi.h"

SEC("xdp")
int bench_empty_xdp(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/* the tc baseline for the egress (ECN) program, which test-runs on an skb */
SEC("tc")
int bench_empty_tc(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}

/*
 * Unit costs that explain the totals: one clock read, one per-CPU counter
 * (lookup + add, as every rocedp counter), one LPM lookup (the route), one
 * hash-map lookup (a flow or QP table), one helper call (a helper with
 * almost no body: what a call itself costs).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ref_ctr SEC(".maps");

struct ref_lpm_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct ref_lpm_key);
	__type(value, __u64);
} ref_lpm SEC(".maps");

__u64 ref_sink;

SEC("xdp")
int bench_ref_ktime(struct xdp_md *ctx)
{
	ref_sink = bpf_ktime_get_ns();
	return XDP_PASS;
}

SEC("xdp")
int bench_ref_counter(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *c = bpf_map_lookup_elem(&ref_ctr, &zero);

	if (c)
		(*c)++;
	return XDP_PASS;
}

SEC("xdp")
int bench_ref_lpm(struct xdp_md *ctx)
{
	struct ref_lpm_key k = { .prefixlen = 32, .addr = 0x0100090a };
	__u64 *v = bpf_map_lookup_elem(&ref_lpm, &k);

	if (v)
		ref_sink = *v;
	return XDP_PASS;
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} ref_hash SEC(".maps");

/* a hit: rdbench fills key 1 */
SEC("xdp")
int bench_ref_hash(struct xdp_md *ctx)
{
	__u32 k = 1;
	__u64 *v = bpf_map_lookup_elem(&ref_hash, &k);

	if (v)
		ref_sink = *v;
	return XDP_PASS;
}

SEC("xdp")
int bench_ref_helper(struct xdp_md *ctx)
{
	ref_sink = bpf_xdp_get_buff_len(ctx);
	return XDP_PASS;
}

/*
 * Bare forwarder: fixed-offset Ethernet/IPv4/UDP parse,
 * LPM on the destination -> group, 5-tuple hash, member among 4 from an
 * ARRAY, MAC rewrite, TTL - 1 with incremental checksum, devmap redirect.
 * No classification, no options, no counters beyond one plain global that
 * lets rdbench check that every round was redirected. rocedp's forward
 * path is reported as a multiple of this. IPv6 frames take ref_fwd6, the
 * same steps over IPv6 (the _v6 throughput rows).
 */
struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 64);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct ref_lpm_key);
	__type(value, __u32); /* group index */
} ref_fwd_routes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, REF_FWD_SLOTS);
	__type(key, __u32);
	__type(value, struct ref_fwd_member);
} ref_fwd_members SEC(".maps");

/* the IPv6 routes (the _v6 rows): the same groups */
struct ref_lpm6_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, 64);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct ref_lpm6_key);
	__type(value, __u32); /* group index */
} ref_fwd_routes6 SEC(".maps");

/* keyed by ifindex, like rocedp's rd_tx_ports */
struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} ref_fwd_tx SEC(".maps");

/* one test run at a time executes this program: a plain add is exact */
__u64 ref_fwd_redirected;

static __always_inline __u32 ref_fwd_hash(__u32 saddr, __u32 daddr, __u32 ports,
					  __u32 proto)
{
	/*
	 * Odd multipliers spread each word over the high bits; the
	 * xor-shifts fold them back down to the low bits that are used.
	 */
	__u32 h = saddr * 0x9e3779b1u;

	h ^= daddr * 0x85ebca77u;
	h ^= ports * 0xc2b2ae3du;
	h ^= proto;
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 13;
	return h;
}

/*
 * Bare flowlet forwarder: the bare forwarder plus what any flowlet switch
 * adds per frame, and nothing else: one clock read and one flow-table
 * access. The table is the cheapest kind, as switch ASICs keep theirs: an
 * ARRAY indexed by the flow hash, no key (colliding flows share an entry),
 * no insert. An idle gap over REF_FLOWLET_GAP_NS moves the flow to the
 * next member. The floor under rocedp's flowlet row, as ref_bare_fwd is
 * under the forward rows.
 */
#define REF_FLOWLET_GAP_NS 11000 /* half the default 22 us RTT */
#define REF_FLOWLET_SLOTS 65536 /* as rocedp's rd_flowlets */

struct ref_flowlet {
	__u64 last_ns;
	__u32 member;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, REF_FLOWLET_SLOTS);
	__type(key, __u32);
	__type(value, struct ref_flowlet);
} ref_flowlets SEC(".maps");

__u64 ref_flowlet_redirected;

/* The flow's member: kept within a flowlet, the next one after a gap. */
static __always_inline __u32 ref_flowlet_member(__u32 hash)
{
	__u32 slot = hash & (REF_FLOWLET_SLOTS - 1);
	__u64 now = bpf_ktime_get_ns();
	struct ref_flowlet *fl;

	fl = bpf_map_lookup_elem(&ref_flowlets, &slot);
	if (!fl)
		return hash;
	if (now - fl->last_ns > REF_FLOWLET_GAP_NS)
		fl->member = (fl->member + 1) & (REF_FWD_MEMBERS - 1);
	fl->last_ns = now;
	return fl->member;
}

/*
 * Bare default forwarder: the bare forwarder plus the least that rocedp's
 * default job (forward + remark + ECN, hash on the destination QP) needs
 * per frame, written as cheaply as this layout allows: the RoCE check and
 * BTH opcode for the class, the destination QP in the hash, one DSCP
 * action lookup per class, RED on the egress port's virtual queue (its
 * settings and state in one line, indexed by the member's slot, the clock
 * read only where rocedp's deferral reads it: ROCEDP_VQ_DEFER_SHIFT) and
 * one per-CPU counter line. No IPv6, VLAN, martian or other-host checks,
 * no per-port or per-member counters, no cap on the queue. The floor
 * under rocedp's default row, as ref_bare_flowlet is under the flowlet
 * row.
 */
struct ref_ctrs {
	__u64 rx_pkts;
	__u64 rx_bytes;
	__u64 fwd_pkts;
	__u64 fwd_bytes;
	__u64 ce_marked;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, REF_FWD_SLOTS);
	__type(key, __u32);
	__type(value, struct ref_port);
} ref_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, REF_CLASSES);
	__type(key, __u32);
	__type(value, __u32); /* DSCP, or REF_DSCP_LEAVE */
} ref_dscp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ref_ctrs);
} ref_default_ctrs SEC(".maps");

__u64 ref_default_redirected;

/* Queue before this frame (it joins); the clock only when it can matter. */
static __always_inline __u64 ref_vq(struct ref_port *pt, __u32 len)
{
	__u64 q = pt->vq_bytes + pt->pending, now, dt, drained;

	if (pt->last_ns && q + len < pt->kmin &&
	    pt->pending + len <= pt->kmin >> ROCEDP_VQ_DEFER_SHIFT) {
		pt->pending += len;
		return q;
	}
	now = bpf_ktime_get_ns();
	q = pt->vq_bytes;
	if (pt->last_ns && now > pt->last_ns) {
		dt = now - pt->last_ns;
		if (dt > 1000000000) /* keeps dt * fp within 64 bits */
			dt = 1000000000;
		drained = (dt * pt->drain_fp) >> ROCEDP_VQ_DRAIN_SHIFT;
		q = drained >= q ? 0 : q - drained;
	}
	q += pt->pending;
	pt->pending = 0;
	pt->last_ns = now;
	pt->vq_bytes = q + len;
	return q;
}

/* RED: 1 = mark, p = pmax * (q - kmin) / (kmax - kmin) between the bounds */
static __always_inline int ref_red(const struct ref_port *pt, __u64 q)
{
	__u64 p32;

	if (q < pt->kmin)
		return 0;
	if (q >= pt->kmax || pt->kmax <= pt->kmin)
		return 1;
	p32 = ((q - pt->kmin) << 32) / (pt->kmax - pt->kmin) * pt->pmax / 100;
	return bpf_get_prandom_u32() < p32;
}

/* New TOS into the header, the checksum adjusted for its 16-bit word. */
static __always_inline void ref_set_tos(struct iphdr *ip, __u8 tos)
{
	__u32 csum = (__u16)~ip->check;
	__u16 old = *(__u16 *)ip;

	ip->tos = tos;
	csum += (__u16)~old + *(__u16 *)ip;
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	ip->check = ~csum;
}

/* The bare forwarders; mode is a constant at each call. */
enum ref_mode { REF_PLAIN, REF_FLOWLET, REF_DEFAULT };

static __always_inline int ref_fwd(struct xdp_md *ctx, const int mode)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + ETH_HLEN;
	struct udphdr *udp = data + ETH_HLEN + sizeof(*ip);
	struct ref_lpm_key k = { .prefixlen = 32 };
	struct ref_fwd_member *mb;
	__u32 *grp, idx, h, csum, ports, cls = REF_CLASS_DATA, len = 0, *dscp,
					 zero = 0;
	__u8 *bth = (__u8 *)(udp + 1), tos;
	struct ref_ctrs *ctr = NULL;
	struct ref_port *pt;
	long ret;

	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || ip->ttl <= 1)
		return XDP_PASS;
	if (mode == REF_DEFAULT) {
		/* BTH: opcode at 0, destination QP in bytes 5..7 */
		if ((void *)(bth + 12) > data_end ||
		    udp->dest != bpf_htons(ROCEDP_ROCEV2_PORT))
			return XDP_PASS;
		len = ETH_HLEN + bpf_ntohs(ip->tot_len);
		ctr = bpf_map_lookup_elem(&ref_default_ctrs, &zero);
		if (ctr) {
			ctr->rx_pkts++;
			ctr->rx_bytes += len;
		}
		cls = bth[0] == ROCEDP_OP_RC_ACK ? REF_CLASS_ACK :
		      bth[0] == ROCEDP_OP_CNP	 ? REF_CLASS_CNP :
						   REF_CLASS_DATA;
	}
	k.addr = ip->daddr;
	grp = bpf_map_lookup_elem(&ref_fwd_routes, &k);
	if (!grp || *grp >= REF_FWD_GROUPS)
		return XDP_PASS;
	if (mode == REF_DEFAULT)
		ports = (__u32)bth[5] << 16 | (__u32)bth[6] << 8 | bth[7];
	else
		ports = (__u32)udp->source << 16 | udp->dest;
	h = ref_fwd_hash(ip->saddr, ip->daddr, ports, ip->protocol);
	if (mode == REF_FLOWLET)
		h = ref_flowlet_member(h);
	idx = *grp * REF_FWD_MEMBERS + (h & (REF_FWD_MEMBERS - 1));
	mb = bpf_map_lookup_elem(&ref_fwd_members, &idx);
	if (!mb || !mb->ifindex)
		return XDP_PASS;
	/* the devmap first: a port it lacks leaves the frame untouched */
	ret = bpf_redirect_map(&ref_fwd_tx, mb->ifindex, XDP_PASS);
	if (ret != XDP_REDIRECT)
		return ret;
	if (mode == REF_DEFAULT) {
		tos = ip->tos;
		dscp = bpf_map_lookup_elem(&ref_dscp, &cls);
		if (dscp && *dscp != REF_DSCP_LEAVE)
			tos = (*dscp << 2) | (tos & 3);
		pt = bpf_map_lookup_elem(&ref_ports, &idx);
		if (pt && pt->drain_fp && ref_red(pt, ref_vq(pt, len)) &&
		    (tos & 3) && (tos & 3) != 3) {
			tos |= 3;
			if (ctr)
				ctr->ce_marked++;
		}
		if (tos != ip->tos)
			ref_set_tos(ip, tos);
		if (ctr) {
			ctr->fwd_pkts++;
			ctr->fwd_bytes += len;
		}
	}
	__builtin_memcpy(eth->h_dest, mb->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mb->smac, ETH_ALEN);
	/*
	 * TTL is the high byte of its 16-bit header word: the word drops by
	 * 0x0100, so the one's complement checksum rises by as much, with
	 * the carry folded back in (RFC 1624).
	 */
	csum = ip->check + (__u32)bpf_htons(0x0100);
	ip->check = csum + (csum >= 0xffff);
	ip->ttl--;
	if (mode == REF_FLOWLET)
		ref_flowlet_redirected++;
	else if (mode == REF_DEFAULT)
		ref_default_redirected++;
	else
		ref_fwd_redirected++;
	return XDP_REDIRECT;
}

/*
 * The bare forwarder's IPv6 path (the _v6 throughput rows): fixed-offset
 * Ethernet/IPv6/UDP parse (no extension headers), LPM on the destination,
 * the hash of both addresses folded to a word each and the UDP ports,
 * member, MACs, hop limit - 1 (no checksum in IPv6), devmap redirect.
 */
static __always_inline int ref_fwd6(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = data + ETH_HLEN;
	struct udphdr *udp = data + ETH_HLEN + sizeof(*ip6);
	struct ref_lpm6_key k = { .prefixlen = 128 };
	struct ref_fwd_member *mb;
	__u32 *grp, idx, h, s, d, *w;
	long ret;

	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	if (ip6->nexthdr != IPPROTO_UDP || ip6->hop_limit <= 1)
		return XDP_PASS;
	__builtin_memcpy(k.addr, &ip6->daddr, 16);
	grp = bpf_map_lookup_elem(&ref_fwd_routes6, &k);
	if (!grp || *grp >= REF_FWD_GROUPS)
		return XDP_PASS;
	w = (__u32 *)&ip6->saddr;
	s = w[0] ^ w[1] ^ w[2] ^ w[3];
	w = (__u32 *)&ip6->daddr;
	d = w[0] ^ w[1] ^ w[2] ^ w[3];
	h = ref_fwd_hash(s, d, (__u32)udp->source << 16 | udp->dest,
			 IPPROTO_UDP);
	idx = *grp * REF_FWD_MEMBERS + (h & (REF_FWD_MEMBERS - 1));
	mb = bpf_map_lookup_elem(&ref_fwd_members, &idx);
	if (!mb || !mb->ifindex)
		return XDP_PASS;
	ret = bpf_redirect_map(&ref_fwd_tx, mb->ifindex, XDP_PASS);
	if (ret != XDP_REDIRECT)
		return ret;
	__builtin_memcpy(eth->h_dest, mb->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mb->smac, ETH_ALEN);
	ip6->hop_limit--;
	ref_fwd_redirected++;
	return XDP_REDIRECT;
}

/* frags, as rocedp_xdp: attached natively at MTU 9000 in the jumbo row;
 * IPv6 through ref_fwd6, everything else as before through ref_fwd */
SEC("xdp.frags")
int bench_ref_bare_fwd(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) <= (void *)(long)ctx->data_end &&
	    eth->h_proto == bpf_htons(ETH_P_IPV6))
		return ref_fwd6(ctx);
	return ref_fwd(ctx, REF_PLAIN);
}

SEC("xdp")
int bench_ref_bare_flowlet(struct xdp_md *ctx)
{
	return ref_fwd(ctx, REF_FLOWLET);
}

/* frags too: the jumbo row runs it beside the other two */
SEC("xdp.frags")
int bench_ref_bare_default(struct xdp_md *ctx)
{
	return ref_fwd(ctx, REF_DEFAULT);
}

/*
 * The kernel-FIB forwarder: what xdp-tools' xdp-forward does (after the
 * kernel's xdp_fwd sample), the forwarder a user would pick instead of
 * rocedp. Parse Ethernet + IPv4/IPv6, bpf_fib_lookup() in the kernel's
 * own tables (routes, multipath, neighbours; ports 0, as xdp-forward),
 * TTL/hop limit - 1, MACs from the result, redirect through a devmap
 * keyed by ifindex. No classification, no counters but the one plain
 * global that lets rdbench check every round was redirected.
 */
#define REF_AF_INET 2
#define REF_AF_INET6 10

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} ref_fib_tx SEC(".maps");

__u64 ref_fib_redirected;

SEC("xdp")
int bench_ref_fib_fwd(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct bpf_fib_lookup fib = {};
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	__u32 csum;
	long ret;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > data_end || ip->ttl <= 1)
			return XDP_PASS;
		fib.family = REF_AF_INET;
		fib.tos = ip->tos;
		fib.l4_protocol = ip->protocol;
		fib.tot_len = bpf_ntohs(ip->tot_len);
		fib.ipv4_src = ip->saddr;
		fib.ipv4_dst = ip->daddr;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > data_end || ip6->hop_limit <= 1)
			return XDP_PASS;
		fib.family = REF_AF_INET6;
		fib.flowinfo = *(__be32 *)ip6 & bpf_htonl(0x0fffffff);
		fib.l4_protocol = ip6->nexthdr;
		fib.tot_len = bpf_ntohs(ip6->payload_len);
		__builtin_memcpy(fib.ipv6_src, &ip6->saddr, 16);
		__builtin_memcpy(fib.ipv6_dst, &ip6->daddr, 16);
	} else {
		return XDP_PASS;
	}
	fib.ifindex = ctx->ingress_ifindex;
	if (bpf_fib_lookup(ctx, &fib, sizeof(fib), 0) !=
	    BPF_FIB_LKUP_RET_SUCCESS)
		return XDP_PASS;
	ret = bpf_redirect_map(&ref_fib_tx, fib.ifindex, XDP_PASS);
	if (ret != XDP_REDIRECT)
		return ret;
	if (fib.family == REF_AF_INET) {
		ip = (void *)(eth + 1);
		if ((void *)(ip + 1) > data_end)
			return XDP_PASS;
		/* as ref_fwd: RFC 1624 */
		csum = ip->check + (__u32)bpf_htons(0x0100);
		ip->check = csum + (csum >= 0xffff);
		ip->ttl--;
	} else {
		ip6 = (void *)(eth + 1);
		if ((void *)(ip6 + 1) > data_end)
			return XDP_PASS;
		ip6->hop_limit--;
	}
	__builtin_memcpy(eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, fib.smac, ETH_ALEN);
	ref_fib_redirected++;
	return XDP_REDIRECT;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
