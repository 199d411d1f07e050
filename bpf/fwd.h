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

/*
 * Replay and tests model ports that need not exist on the machine running
 * them: skip the devmap check (the live loader never sets this).
 */
const volatile bool cfg_offline = false;

/* The forwarding decision and what the accounting step needs, as scalars. */
struct rd_fwd {
	__u64 now;
	__u32 in_ifindex;
	__u32 egress_ifindex; /* 0 = not forwarded */
	__u32 len;
	__u32 group_id;
	__u32 pass; /* enum rocedp_pass_reason, 0 = none */
	__u32 verdict;
	__u16 slot;
	__u8 smac[ETH_ALEN];
	__u8 dmac[ETH_ALEN];
	__u8 malformed;
	__u8 tos_in;
	__u8 tos_out;
	__u8 aeth_kind;
	__u8 aeth_code;
	__u8 cts_rule;
	__u8 vlan_tags;
	__u8 ingress; /* 1: ingress pipeline (rx, fwd counters) */
};

static __always_inline int rd_fwd_precheck(const struct rd_pkt *p)
{
	struct icmp6hdr *icmp6;

	if (p->malformed)
		return ROCEDP_PASS_MALFORMED;
	if (!p->fl.family)
		return ROCEDP_PASS_NON_IP;
	if (p->vlan_tags)
		return ROCEDP_PASS_VLAN;
	if (p->eth->h_dest[0] & 1)
		return ROCEDP_PASS_MCAST;
	if (p->is_fragment)
		return ROCEDP_PASS_FRAGMENT;
	if (p->has_options)
		return ROCEDP_PASS_IP_OPTIONS;
	if (p->fl.family == 4) {
		/* multicast 224/4, limited broadcast */
		if ((bpf_ntohl(p->fl.dst[0]) >> 28) == 0xe ||
		    p->fl.dst[0] == 0xffffffff)
			return ROCEDP_PASS_MCAST;
	} else {
		if ((bpf_ntohl(p->fl.dst[0]) >> 24) == 0xff)
			return ROCEDP_PASS_MCAST;
		/* link-local fe80::/10 is never routed */
		if ((bpf_ntohl(p->fl.dst[0]) >> 22) == (0xfe80 >> 6))
			return ROCEDP_PASS_ND;
		if (p->fl.l4_proto == IPPROTO_ICMPV6 && p->l4) {
			icmp6 = p->l4;
			if ((void *)(icmp6 + 1) <= p->end &&
			    icmp6->icmp6_type >= 133 && icmp6->icmp6_type <= 137)
				return ROCEDP_PASS_ND;
		}
	}
	if (p->ttl <= 1)
		return ROCEDP_PASS_TTL;
	return 0;
}

static __always_inline struct rocedp_route *rd_route_lookup(const struct rd_flow *p)
{
	struct rocedp_route6_key k6;
	struct rocedp_route4_key k4;

	if (p->family == 4) {
		k4.prefixlen = 32;
		k4.addr = p->dst[0];
		return bpf_map_lookup_elem(&rd_routes4, &k4);
	}
	k6.prefixlen = 128;
	__builtin_memcpy(k6.addr, p->dst, 16);
	return bpf_map_lookup_elem(&rd_routes6, &k6);
}

/*
 * Route, group and member for a routable frame. Out of line (a BPF global
 * function) so the verifier checks it once. Returns 0 with f filled, or a
 * pass reason.
 */
__attribute__((noinline)) int rd_fwd_select(struct rd_flow *p, __u32 ifindex,
					    __u64 now, struct rd_fwd *f)
{
	struct rocedp_config *cfg;
	struct rocedp_member *m;
	struct rocedp_route *rt;
	struct rocedp_group *g;
	__u32 mode, zero = 0;
	int slot;

	cfg = bpf_map_lookup_elem(&rd_config, &zero);
	if (!p || !f || !cfg)
		return ROCEDP_PASS_NO_ROUTE;
	mode = cfg->hash_mode;
	rt = rd_route_lookup(p);
	if (!rt)
		return ROCEDP_PASS_NO_ROUTE;
	if (rt->flags & ROCEDP_ROUTEF_LOCAL)
		return ROCEDP_PASS_LOCAL;
	f->group_id = rt->group_id;
	g = bpf_map_lookup_elem(&rd_groups, &f->group_id);
	if (!g)
		return ROCEDP_PASS_NO_GROUP;
	if (!g->n_active)
		return ROCEDP_PASS_NO_MEMBER;

	p->hash = rd_flow_hash(p, mode == ROCEDP_HASH_FLOWLET ?
					  ROCEDP_HASH_QP_ONLY : mode,
			       cfg->hash_seed, cfg->hash_flags);
	if (mode == ROCEDP_HASH_SPRAY) {
		rd_count(ROCEDP_CTR_SPRAY_PKTS);
		slot = rd_pick_weighted(g, bpf_get_prandom_u32());
	} else if (mode == ROCEDP_HASH_FLOWLET ||
		   (cfg->features & ROCEDP_F_FLOWLET)) {
		slot = rd_flowlet_select(cfg, g, f->group_id, p, p->hash,
					 ifindex, now);
	} else {
		slot = rd_pick_weighted(g, p->hash);
	}
	if (slot < 0 || slot >= ROCEDP_MAX_MEMBERS)
		return ROCEDP_PASS_NO_MEMBER;
	/* the mask restates the bound for the verifier */
	m = &g->members[slot & (ROCEDP_MAX_MEMBERS - 1)];
	f->slot = slot;
	f->egress_ifindex = m->ifindex;
	__builtin_memcpy(f->smac, m->smac, ETH_ALEN);
	__builtin_memcpy(f->dmac, m->dmac, ETH_ALEN);
	if (!cfg_offline &&
	    !bpf_map_lookup_elem(&rd_tx_ports, &f->egress_ifindex))
		return ROCEDP_PASS_REDIRECT_FAILED;
	return 0;
}

static __always_inline void rd_rewrite_l2(struct rd_pkt *p,
					  const struct rd_fwd *f)
{
	__builtin_memcpy(p->eth->h_source, f->smac, ETH_ALEN);
	__builtin_memcpy(p->eth->h_dest, f->dmac, ETH_ALEN);
}

static __always_inline void rd_dec_ttl(struct rd_pkt *p)
{
	__be16 old, new;

	if (p->ip4) {
		old = *(__be16 *)&p->ip4->ttl;
		p->ip4->ttl--;
		new = *(__be16 *)&p->ip4->ttl;
		rd_csum_replace2(&p->ip4->check, old, new);
	} else if (p->ip6) {
		p->ip6->hop_limit--;
	}
}

static __always_inline void rd_member_count(const struct rd_fwd *f, __u32 len)
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
