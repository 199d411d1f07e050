/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Forwarding: longest-prefix match -> next-hop group -> member (hash,
 * flowlet or spray) -> L2 rewrite and TTL / hop-limit decrement. Anything
 * the dataplane should not route goes to the kernel with a reason.
 */
#ifndef ROCEDP_FWD_H
#define ROCEDP_FWD_H

#include <linux/icmpv6.h>
#include "hash.h"
#include "flowlet.h"
#include "csum.h"
#include "plan.h"

/*
 * Replay and tests model ports that need not exist on the machine running
 * them: skip the devmap check (the live loader never sets this).
 */
const volatile bool cfg_offline = false;

/*
 * Martians: addresses Linux never routes, checked in its order. IPv4 as
 * ip_route_input_slow (net/ipv4/route.c): a multicast or limited
 * broadcast source, a 0/8 source, a 0/8 destination, a loopback
 * destination, a loopback source (loopback with route_localnet off, the
 * default; with it on, the kernel decides, which passing lets it do).
 * IPv6 as ip6_rcv_core (net/ipv6/ip6_input.c: ::1 either way, a multicast
 * source) and ip6_forward (net/ipv6/ip6_output.c, "security critical":
 * an unspecified, multicast, loopback or link-local source is never
 * forwarded), plus RFC 4291 2.5.2's unspecified destination. Multicast
 * destinations and link-local ones are passed before this (mcast, nd).
 */
static __always_inline int rd_martian(const struct rd_flow *fl)
{
	__u32 s0 = bpf_ntohl(fl->src[0]), d0 = bpf_ntohl(fl->dst[0]);
	int s_low0, d_low0;

	if (fl->family == 4) {
		if ((s0 >> 28) == 0xe || s0 == 0xffffffff)
			return ROCEDP_PASS_MARTIAN_SRC;
		/* broadcast input to Linux, like 255.255.255.255 */
		if (!s0 && !d0)
			return ROCEDP_PASS_MCAST;
		if (!(s0 >> 24))
			return ROCEDP_PASS_MARTIAN_SRC;
		if (!(d0 >> 24) || (d0 >> 24) == 127)
			return ROCEDP_PASS_MARTIAN_DST;
		if ((s0 >> 24) == 127)
			return ROCEDP_PASS_MARTIAN_SRC;
		return 0;
	}
	/* :: and ::1 share the first 96 bits of zeros */
	s_low0 = !(fl->src[0] | fl->src[1] | fl->src[2]);
	d_low0 = !(fl->dst[0] | fl->dst[1] | fl->dst[2]);
	if (s_low0 && bpf_ntohl(fl->src[3]) <= 1)
		return ROCEDP_PASS_MARTIAN_SRC;
	if (d_low0 && bpf_ntohl(fl->dst[3]) <= 1)
		return ROCEDP_PASS_MARTIAN_DST;
	if ((s0 >> 24) == 0xff || (s0 >> 22) == (0xfe80 >> 6))
		return ROCEDP_PASS_MARTIAN_SRC;
	return 0;
}

/*
 * Is a unicast frame for another host? Only when the ingress port's MAC is
 * known (rd_port_l2, written by attach); offline replay has none.
 */
static __always_inline int rd_other_host(const struct rd_flow *fl,
					 __u32 in_ifindex)
{
	const struct rocedp_port_l2 *l2;
	__u32 a_hi, b_hi;
	__u16 a_lo, b_lo;

	l2 = bpf_map_lookup_elem(&rd_port_l2, &in_ifindex);
	if (!l2 || !(l2->flags & ROCEDP_PORTL2F_MAC))
		return 0;
	/* both 4-aligned (rd_flow.dmac asserted, l2->mac at 0 of the value) */
	__builtin_memcpy(&a_hi, fl->dmac, sizeof(a_hi));
	__builtin_memcpy(&a_lo, fl->dmac + sizeof(a_hi), sizeof(a_lo));
	__builtin_memcpy(&b_hi, l2->mac, sizeof(b_hi));
	__builtin_memcpy(&b_lo, l2->mac + sizeof(b_hi), sizeof(b_lo));
	return (a_hi ^ b_hi) | (__u16)(a_lo ^ b_lo);
}

/*
 * 0, or why this frame is the kernel's to route: from the flow's scalars
 * and the ingress port. One tag of VID 0 (a priority tag) is no VLAN:
 * Linux strips it on receive and routes the frame untagged (net/core/dev.c,
 * __netif_receive_skb_core), so rocedp routes it too and sends it untagged
 * (rd_plan.strip_tag).
 */
static __always_inline int rd_fwd_precheck(const struct rd_flow *fl,
					   __u32 in_ifindex, const int express)
{
	__u32 d0 = bpf_ntohl(fl->dst[0]);
	__u32 s8 = bpf_ntohl(fl->src[0]) >> 24, d8 = d0 >> 24;
	int martian;

	/*
	 * The usual frame in fewer tests: untagged unicast IPv4, whole, no
	 * options, both addresses' first octet in 1..223 but not 127, TTL
	 * over 1. It passes every test below, whose order decides the
	 * reason for any other frame.
	 */
	if (!(fl->malformed | fl->vlan_tags | fl->dmac_group | fl->is_fragment |
	      fl->has_options) &&
	    fl->family == 4 && s8 - 1 < 223 && s8 != 127 && d8 - 1 < 223 &&
	    d8 != 127 && fl->ttl > 1)
		return rd_other_host(fl, in_ifindex) ? ROCEDP_PASS_OTHER_HOST :
						       0;
	/*
	 * And its IPv6 twin: UDP (no neighbour discovery), both addresses'
	 * first word non-zero (so neither is :: or ::1), neither multicast
	 * nor link-local, hop limit over 1. The express copy only: in the
	 * general path's it cost a stack slot past 6.1's budget
	 * (tests/bpf_stack.sh), and the tests below give the same answer.
	 */
	if (express &&
	    !(fl->malformed | fl->vlan_tags | fl->dmac_group | fl->is_fragment |
	      fl->has_options) &&
	    fl->family == 6 && fl->l4_proto == IPPROTO_UDP && fl->src[0] &&
	    fl->dst[0] && s8 != 0xff && d8 != 0xff &&
	    (bpf_ntohl(fl->src[0]) >> 22) != (0xfe80 >> 6) &&
	    (d0 >> 22) != (0xfe80 >> 6) && fl->ttl > 1)
		return rd_other_host(fl, in_ifindex) ? ROCEDP_PASS_OTHER_HOST :
						       0;

	if (fl->malformed)
		return ROCEDP_PASS_MALFORMED;
	if (!fl->family)
		return ROCEDP_PASS_NON_IP;
	if (fl->vlan_tags > 1 || (fl->vlan_tags && (fl->outer_tci & 0xfff)))
		return ROCEDP_PASS_VLAN;
	if (fl->dmac_group)
		return ROCEDP_PASS_MCAST;
	if (rd_other_host(fl, in_ifindex))
		return ROCEDP_PASS_OTHER_HOST;
	if (fl->is_fragment)
		return ROCEDP_PASS_FRAGMENT;
	if (fl->has_options)
		return ROCEDP_PASS_IP_OPTIONS;
	if (fl->family == 4) {
		/* multicast 224/4, limited broadcast */
		if ((d0 >> 28) == 0xe || d0 == 0xffffffff)
			return ROCEDP_PASS_MCAST;
	} else {
		if ((d0 >> 24) == 0xff)
			return ROCEDP_PASS_MCAST;
		/* link-local fe80::/10 and neighbour discovery stay local */
		if ((d0 >> 22) == (0xfe80 >> 6))
			return ROCEDP_PASS_ND;
		if (fl->l4_proto == IPPROTO_ICMPV6 && fl->icmp6_type >= 133 &&
		    fl->icmp6_type <= 137)
			return ROCEDP_PASS_ND;
	}
	martian = rd_martian(fl);
	if (martian)
		return martian;
	if (fl->ttl <= 1)
		return ROCEDP_PASS_TTL;
	return 0;
}

/*
 * Each lookup stays a call of its own. Merged into one call with the map
 * chosen before it (clang sinks the identical calls), the verifier cannot
 * bind the call to one map: it keeps the generic helper, an indirect call
 * through the map's ops (a retpoline here), not trie_lookup_elem. An
 * inline asm on the result is never sunk, so neither is the call.
 */
static __always_inline struct rocedp_route *
rd_route_lookup(const struct rd_flow *p)
{
	struct rocedp_route6_key k6;
	struct rocedp_route4_key k4;
	struct rocedp_route *rt;

	if (p->family == 4) {
		k4.prefixlen = 32;
		k4.addr = p->dst[0];
		rt = bpf_map_lookup_elem(&rd_routes4, &k4);
		barrier_var(rt);
		return rt;
	}
	k6.prefixlen = 128;
	__builtin_memcpy(k6.addr, p->dst, 16);
	rt = bpf_map_lookup_elem(&rd_routes6, &k6);
	barrier_var(rt);
	return rt;
}

/*
 * The settings a forwarding decision depends on, into the plan once a
 * frame, each word read once: the route, the member and the decision
 * cache's fill then agree on them even while a writer changes rd_config
 * (an array value is copied in place, field by field). The later steps
 * read the plan, never rd_config, for these.
 */
static __always_inline void rd_plan_settings(struct rd_plan *f,
					     const struct rocedp_config *cfg)
{
	const volatile struct rocedp_config *c = cfg;
	__u32 mode = c->hash_mode, features = c->features;

	f->hash_mode = mode;
	f->flowlets = (features & ROCEDP_F_FLOWLET) ||
		      mode == ROCEDP_HASH_FLOWLET;
	f->hash_seed = c->hash_seed;
	f->hash_flags = c->hash_flags;
}

/* The route: group id and flow hash into f, or a pass reason. */
static __always_inline int rd_fwd_route_body(struct rd_flow *p,
					     struct rd_plan *f,
					     const struct rocedp_config *cfg)
{
	struct rocedp_route *rt;
	__u32 mode;

	rt = rd_route_lookup(p);
	if (!rt)
		return ROCEDP_PASS_NO_ROUTE;
	/* one test on the forwarding path; a route that covers one the
	 * writer could not install is the kernel's (docs/maps.md) */
	if (rt->flags & (ROCEDP_ROUTEF_LOCAL | ROCEDP_ROUTEF_KERNEL))
		return rt->flags & ROCEDP_ROUTEF_LOCAL ?
			       ROCEDP_PASS_LOCAL :
			       ROCEDP_PASS_ROUTE_PENDING;
	f->group_id = rt->group_id;
	mode = f->hash_mode;
	p->hash = rd_flow_hash(
		p, mode == ROCEDP_HASH_FLOWLET ? ROCEDP_HASH_QP_ONLY : mode,
		f->hash_seed, f->hash_flags);
	return 0;
}

/*
 * Out of line (a BPF global function) so the verifier checks it once for
 * every parse outcome; kept apart from the member choice so the two stacks
 * are never live together.
 */
__attribute__((noinline)) int rd_fwd_route(struct rd_flow *p, struct rd_plan *f)
{
	struct rocedp_config *cfg = rd_config_get();

	if (!p || !f || !cfg)
		return ROCEDP_PASS_NO_ROUTE;
	return rd_fwd_route_body(p, f, cfg);
}

/*
 * The flowlet choice as a subprogram of its own (static: verified with
 * its caller's state). Its locals take its own frame: inlined into the
 * entry they grew the entry's frame by 64 bytes, and with it the general
 * path's call chain, past the 6.1 limit (tests/bpf_stack.sh).
 */
static __attribute__((noinline)) int
rd_flowlet_select_sub(const struct rocedp_config *cfg,
		      const struct rocedp_group *g, const struct rd_flow *p,
		      const struct rd_plan *f, __u32 group_id)
{
	return rd_flowlet_select(cfg, g, group_id, p, p->hash, f->in_ifindex,
				 f->now);
}

/*
 * Can the frame leave on *egress (a key on the caller's stack, which
 * the devmap lookup needs anyway: a copy here cost rd_fwd_member 32 more
 * bytes of 6.1's stack budget)? 0, or ROCEDP_PASS_REDIRECT_FAILED when
 * the devmap lacks the port. XDP (a constant where inlined): the redirect
 * is the devmap check, one devmap operation a frame instead of a lookup
 * here and the redirect in the entry. It only records the port; nothing
 * after this step turns a frame back, and an XDP_PASS verdict ignores it.
 */
static __always_inline int rd_fwd_port_ready(struct rd_plan *f, __u32 *egress,
					     const int xdp_redirect)
{
	if (cfg_offline)
		return 0;
	if (xdp_redirect) {
		if (bpf_redirect_map(&rd_tx_ports, *egress, XDP_PASS) !=
		    XDP_REDIRECT)
			return ROCEDP_PASS_REDIRECT_FAILED;
		f->redirected = 1;
		return 0;
	}
	if (!bpf_map_lookup_elem(&rd_tx_ports, egress))
		return ROCEDP_PASS_REDIRECT_FAILED;
	return 0;
}

/*
 * The member of f->group_id: slot, egress, MACs into f; or a pass reason.
 * with_flowlets 0 leaves the flowlet choice out of this copy (only for
 * callers that never reach it with flowlets on), 1 inlines it, 2 calls
 * rd_flowlet_select_sub.
 */
static __always_inline int rd_fwd_member_body(struct rd_flow *p,
					      struct rd_plan *f,
					      const struct rocedp_config *cfg,
					      const int with_flowlets,
					      const int xdp_redirect)
{
	__u32 mode, group_id, egress, seq;
	struct rocedp_member *m;
	struct rocedp_group *g;
	int slot;

	/* keys on the stack: 6.1 refuses a key in a global's argument memory */
	group_id = f->group_id;
	g = rd_group_bank(group_id, &seq);
	if (!g)
		return ROCEDP_PASS_NO_GROUP;
	if (!g->n_active)
		return ROCEDP_PASS_NO_MEMBER;
	mode = f->hash_mode;
	if (mode == ROCEDP_HASH_SPRAY) {
		rd_count(ROCEDP_CTR_SPRAY_PKTS);
		slot = rd_pick_weighted(g, bpf_get_prandom_u32());
	} else if (with_flowlets == 2 && f->flowlets) {
		slot = rd_flowlet_select_sub(cfg, g, p, f, group_id);
	} else if (with_flowlets && f->flowlets) {
		slot = rd_flowlet_select(cfg, g, group_id, p, p->hash,
					 f->in_ifindex, f->now);
	} else {
		slot = rd_pick_weighted(g, p->hash);
	}
	if (slot < 0 || slot >= ROCEDP_MAX_MEMBERS)
		return ROCEDP_PASS_NO_MEMBER;
	/* the mask restates the bound for the verifier */
	m = &g->members[slot & (ROCEDP_MAX_MEMBERS - 1)];
	f->slot = slot;
	f->group_seq = seq;
	egress = m->ifindex;
	f->egress_ifindex = egress;
	__builtin_memcpy(f->smac, m->smac, ETH_ALEN);
	__builtin_memcpy(f->dmac, m->dmac, ETH_ALEN);
	if (!rd_group_same(group_id, seq))
		return ROCEDP_PASS_GROUP_BUSY;
	return rd_fwd_port_ready(f, &egress, xdp_redirect);
}

__attribute__((noinline)) int rd_fwd_member(struct rd_flow *p,
					    struct rd_plan *f)
{
	struct rocedp_config *cfg = rd_config_get();

	if (!p || !f || !cfg)
		return ROCEDP_PASS_NO_GROUP;
	return rd_fwd_member_body(p, f, cfg, 1, 0);
}

/* Word stores into the frame (may alias its bytes; x86 and arm64 take
 * unaligned packet stores, which the verifier allows there). */
typedef __u64 __attribute__((may_alias)) rd_u64_alias;
typedef __u32 __attribute__((may_alias)) rd_u32_alias;

/* MACs from the chosen member, TTL / hop limit down by one. */
static __always_inline void rd_write_fwd(void *data, void *data_end,
					 __u32 l3_off, __u8 family,
					 const struct rd_plan *pl)
{
	struct ipv6hdr *ip6;
	struct iphdr *ip;
	__u64 macs_lo;
	__u32 macs_hi, csum;

	if (data + ETH_HLEN > data_end || l3_off > 64)
		return;
	/* destination then source, as in the plan (plan.h) */
	__builtin_memcpy(&macs_lo, pl->dmac, sizeof(macs_lo));
	__builtin_memcpy(&macs_hi, pl->dmac + sizeof(macs_lo), sizeof(macs_hi));
	*(rd_u64_alias *)data = macs_lo;
	*(rd_u32_alias *)(data + sizeof(macs_lo)) = macs_hi;
	if (family == 4) {
		ip = data + l3_off;
		if ((void *)(ip + 1) > data_end)
			return;
		/*
		 * TTL is the high byte of its 16-bit word: the word drops by
		 * 0x0100, so the checksum rises by as much, the carry folded
		 * back in (RFC 1624). Forwarded frames have TTL > 1, and then
		 * this gives eqn. 3's bytes for every old checksum, 0xffff
		 * and 0x0000 included (rd_csum_replace2 took 25 instructions).
		 */
		csum = ip->check + (__u32)bpf_htons(0x0100);
		ip->check = csum + (csum >= 0xffff);
		ip->ttl--;
	} else {
		ip6 = data + l3_off;
		if ((void *)(ip6 + 1) > data_end)
			return;
		ip6->hop_limit--;
	}
}

/*
 * XDP: send a forwarded priority-tagged frame untagged. Its MACs are
 * already rewritten (rd_write_fwd): they move over the tag, back to front,
 * and the head moves past the 4 bytes left in front.
 */
static __always_inline int rd_xdp_strip_tag(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	__u32 *w = data;

	if (data + ETH_HLEN + 4 > (void *)(long)ctx->data_end)
		return -1;
	w[3] = w[2];
	w[2] = w[1];
	w[1] = w[0];
	return bpf_xdp_adjust_head(ctx, 4);
}

static __always_inline void rd_member_count(const struct rd_plan *f, __u32 len)
{
	__u32 idx = f->group_id * ROCEDP_MAX_MEMBERS + f->slot;
	struct rocedp_member_stats *ms;

	if (f->group_id >= ROCEDP_MAX_GROUPS)
		return;
	ms = bpf_map_lookup_elem(&rd_mbr_stats, &idx);
	if (ms) {
		ms->pkts++;
		ms->bytes += len;
	}
}

#endif
