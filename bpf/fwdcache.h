/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The forwarding decision cache: a known flow's route, hash and member
 * without the trie lookup, the hash or the group's buckets (with
 * flowlets on, route and hash only: the flowlet step picks the member). Per CPU, one
 * 64-byte entry a slot, the last flow that landed there (an IPv6 flow's
 * addresses whole in rd_fwd_cache6 beside it). An entry holds
 * only what the full path computed, with the words that prove it still
 * holds: the route generation (rd_route_gen, bumped by every route write),
 * the group's live word (rd_group_live: any change to the group moves it)
 * and the hash settings. A frame whose entry fails any of them takes the
 * full path and refills the slot, so a hit gives the same plan, bytes and
 * counters as the full path would (docs/design.md, "Decision cache").
 * The plan keeps the entry (rd_plan.fc) for telemetry's slot hint.
 */
#ifndef ROCEDP_FWDCACHE_H
#define ROCEDP_FWDCACHE_H

#include "fwd.h"

/* In rd_fc_ent.hash_mode: an IPv6 flow's entry (an IPv4 key never matches) */
#define RD_FC_V6 0x80

/*
 * Not with the trace on: replay's trace records the full path's steps.
 * Offline engines without it use the cache as the live programs do
 * (tests/fwdcache_test.c compares the two). Not unless the route
 * generation carries the writers' mark: a route writer that does not bump
 * it (a sync from before the cache) may be running (routew.h).
 */
static __always_inline int rd_fc_usable(const struct rd_plan *f, __u32 gen)
{
	return !cfg_trace && (gen & ROCEDP_ROUTE_GEN_MARK) &&
	       f->hash_mode != ROCEDP_HASH_SPRAY;
}

/* The UDP ports as one key word. */
static __always_inline __u32 rd_fc_ports(const struct rd_flow *fl)
{
	return (__u32)fl->sport << 16 | fl->dport;
}

/* An address as the line's key word: IPv4 itself, IPv6 folded. */
static __always_inline __u32 rd_fc_addr(const __u32 *a, const int v6)
{
	return v6 ? a[0] ^ a[1] ^ a[2] ^ a[3] : a[0];
}

/* The slot: the key's words mixed, the top bits taken. */
static __always_inline __u32 rd_fc_index(const struct rd_flow *fl, const int v6)
{
	__u32 h = rd_fc_addr(fl->src, v6) * 0x9e3779b1u ^
		  rd_fc_addr(fl->dst, v6) * 0x85ebca77u ^
		  fl->dest_qp * 0xc2b2ae3du ^ rd_fc_ports(fl) * 0x27d4eb2fu;

	return (h ^ h >> 15) * 0x2c1b3c6du >> (32 - RD_FC_BITS);
}

static __always_inline __u32 rd_route_gen_now(void)
{
	__u32 zero = 0, *g = bpf_map_lookup_elem(&rd_route_gen, &zero);

	return g ? *(const volatile __u32 *)g : 0;
}

/* Does e hold this flow's route and flow hash, still valid? */
static __always_inline int rd_fc_route_valid(const struct rd_fc_ent *e,
					     const struct rd_flow *fl,
					     const struct rd_plan *f, __u32 gen,
					     const int v6)
{
	return e->egress && e->src == rd_fc_addr(fl->src, v6) &&
	       e->dst == rd_fc_addr(fl->dst, v6) && e->qp == fl->dest_qp &&
	       e->ports == rd_fc_ports(fl) && e->route_gen == gen &&
	       e->hash_seed == f->hash_seed && e->hash_flags == f->hash_flags &&
	       e->hash_mode == (f->hash_mode | (v6 ? RD_FC_V6 : 0));
}

/* The IPv6 key in full: the line holds only its fold. */
static __always_inline int rd_fc_key6_same(const struct rd_fc_key6 *k,
					   const struct rd_flow *fl)
{
	return !((k->src[0] ^ fl->src[0]) | (k->src[1] ^ fl->src[1]) |
		 (k->src[2] ^ fl->src[2]) | (k->src[3] ^ fl->src[3]) |
		 (k->dst[0] ^ fl->dst[0]) | (k->dst[1] ^ fl->dst[1]) |
		 (k->dst[2] ^ fl->dst[2]) | (k->dst[3] ^ fl->dst[3]));
}

/* A valid entry into the plan; 0, or the port is gone (take the full path). */
static __always_inline int rd_fc_take(const struct rd_fc_ent *e,
				      struct rd_flow *fl, struct rd_plan *f,
				      const int xdp_redirect)
{
	__u32 egress = e->egress;

	if (rd_fwd_port_ready(f, &egress, xdp_redirect))
		return -1;
	fl->hash = e->hash;
	f->group_id = e->group_id;
	f->slot = e->slot;
	f->egress_ifindex = egress;
	__builtin_memcpy(f->dmac, e->macs, sizeof(e->macs));
	return 0;
}

/* Everything from the plan's settings snapshot: what the decision used. */
static __always_inline void
rd_fc_fill(struct rd_fc_ent *e, struct rd_fc_key6 *k6, const struct rd_flow *fl,
	   const struct rd_plan *f, __u32 gen, const int v6)
{
	e->egress = 0; /* empty while it is written: a hit needs all of it */
	if (k6) { /* an IPv6 flow's (none for IPv4) */
		__builtin_memcpy(k6->src, fl->src, sizeof(k6->src));
		__builtin_memcpy(k6->dst, fl->dst, sizeof(k6->dst));
	}
	e->src = rd_fc_addr(fl->src, v6);
	e->dst = rd_fc_addr(fl->dst, v6);
	e->qp = fl->dest_qp;
	e->ports = rd_fc_ports(fl);
	e->route_gen = gen;
	e->group_live = f->group_seq;
	e->hash_seed = f->hash_seed;
	e->hash_flags = f->hash_flags;
	e->hash_mode = f->hash_mode | (v6 ? RD_FC_V6 : 0);
	e->route_only = f->flowlets;
	e->group_id = f->group_id;
	e->hash = fl->hash;
	e->slot = f->slot;
	__builtin_memcpy(e->macs, f->dmac, sizeof(e->macs));
	e->qp_ref = 0; /* a new flow: telemetry finds its slot again */
	e->egress = f->egress_ifindex;
}

/*
 * Route and member for the express path: from the cache when it holds
 * the flow, else the full steps, whose result then fills the slot. The
 * route generation is read before the trie: a route written after it
 * leaves the entry stale from the start. The hash settings and the
 * flowlet switch are the plan's (rd_plan_settings), read once before.
 */
static __always_inline int rd_fwd_express(struct rd_flow *fl, struct rd_plan *f,
					  const struct rocedp_config *cfg,
					  const int xdp)
{
	const int v6 = fl->family == 6;
	struct rd_fc_key6 *k6 = NULL;
	struct rd_fc_ent *e = NULL;
	__u32 gen, idx;
	int pass;

	gen = rd_route_gen_now();
	if (rd_fc_usable(f, gen)) {
		idx = rd_fc_index(fl, v6);
		e = bpf_map_lookup_elem(&rd_fwd_cache, &idx);
		if (e && v6) {
			k6 = bpf_map_lookup_elem(&rd_fwd_cache6, &idx);
			if (!k6)
				e = NULL;
		}
		if (e && rd_fc_route_valid(e, fl, f, gen, v6) &&
		    (!k6 || rd_fc_key6_same(k6, fl))) { /* k6: IPv6 only */
			if (f->flowlets) {
				/* the route from the cache, the member the
				 * flowlet's; the entry stays as it is */
				fl->hash = e->hash;
				f->group_id = e->group_id;
				f->from_cache = 1;
				f->fc = e;
				return rd_fwd_member_body(fl, f, cfg, 2, xdp);
			}
			if (!e->route_only &&
			    rd_group_same(e->group_id, e->group_live) &&
			    !rd_fc_take(e, fl, f, xdp)) {
				f->from_cache = 1;
				f->fc = e;
				return 0;
			}
		}
	}
	pass = rd_fwd_route_body(fl, f, cfg);
	if (!pass)
		pass = rd_fwd_member_body(fl, f, cfg, 2, xdp);
	if (!pass && e) {
		rd_fc_fill(e, k6, fl, f, gen, v6);
		f->fc = e;
	}
	return pass;
}

#endif
