/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Probe handling (docs/paths.md). A probe is an IPv4 UDP datagram to the
 * probe port; only the general path sees one (the express path takes UDP
 * 4791 only), so probes cost the express path nothing, on or off. With
 * the role NONE every such frame is plain IP, as before probes existed.
 *
 * A spine checks a probe, stamps into it the band of the port it came in
 * on (the port a frame toward the probe's origin leaves by), counts the
 * hop, writes a new authenticator and lets the pipeline route it. A leaf
 * checks it and takes it into rd_pathq: per (origin, uplink) the worse of
 * its own band on that uplink and the probe's. Every probe a leaf sees,
 * and every probe refused anywhere, is dropped: none reaches a host.
 */
#ifndef ROCEDP_PROBE_H
#define ROCEDP_PROBE_H

#include <linux/ip.h>
#include <linux/udp.h>
#include "pathq.h"
#include "probe_auth.h"
#include "parse.h"
#include "remark.h"
#include "clock.h"

enum rd_probe_outcome {
	RD_PROBE_NONE = 0, /* not a probe, or probes off */
	RD_PROBE_ON, /* a spine's probe, stamped: route it */
	RD_PROBE_DROP, /* consumed or refused */
};

static __always_inline int rd_probe_done(__u32 ctr)
{
	rd_probe_count(ctr);
	return RD_PROBE_DROP;
}

/* A leaf takes an accepted probe into its table. */
static __always_inline int rd_probe_take(struct rocedp_probe_hdr *h,
					 __u32 in_ifindex, __u64 now, __u64 ts)
{
	struct rocedp_pathq_key key = { .leaf = bpf_ntohs(h->origin),
					.ifindex = in_ifindex };
	struct rocedp_pathq *e, ne = {};
	__u32 seq = bpf_ntohl(h->seq);
	__u8 own, pb = h->band > 7 ? 7 : h->band;

	e = bpf_map_lookup_elem(&rd_pathq, &key);
	if (e && (__s32)(seq - e->seq) <= 0)
		return rd_probe_done(ROCEDP_PROBE_CTR_REPLAY);
	own = rd_port_band(in_ifindex, now);
	if (!e) {
		if (bpf_map_update_elem(&rd_pathq, &key, &ne, BPF_NOEXIST) &&
		    !bpf_map_lookup_elem(&rd_pathq, &key))
			return rd_probe_done(ROCEDP_PROBE_CTR_TABLE_FULL);
		e = bpf_map_lookup_elem(&rd_pathq, &key);
		if (!e)
			return rd_probe_done(ROCEDP_PROBE_CTR_TABLE_FULL);
	}
	/*
	 * Plain stores: one CPU per uplink usually receives its probes, and a
	 * reader that sees a torn entry sees a band of one probe or the next.
	 */
	e->seq = seq;
	e->probe_band = pb;
	e->own_band = own;
	e->band = own > pb ? own : pb;
	e->hops = h->hops;
	e->probe_ts_ns = ts;
	e->last_ns = now;
	e->accepted++;
	return rd_probe_done(ROCEDP_PROBE_CTR_ACCEPTED);
}

/* The probe step on the frame [data, data_end), parsed into *p. */
static __always_inline int rd_probe_body(void *data, void *data_end,
					 struct rd_pkt *p, __u32 in_ifindex)
{
	struct rocedp_probe_cfg *pc = rd_probe_cfg_get();
	struct rocedp_probe_port *pp;
	struct rocedp_probe_hdr *h;
	__u64 now, ts, tmo, *w;
	struct udphdr *udp;
	__u32 l3 = p->l3_off;
	__u8 band;

	if (!pc || !pc->role || p->fl.dport != pc->udp_port)
		return RD_PROBE_NONE;
	rd_probe_count(ROCEDP_PROBE_CTR_SEEN);
	pp = bpf_map_lookup_elem(&rd_probe_port, &in_ifindex);
	if (!pp || !(pp->flags & ROCEDP_PROBE_PORT_FABRIC))
		return rd_probe_done(ROCEDP_PROBE_CTR_HOST_PORT);
	if (p->fl.family != 4 || p->fl.malformed || p->fl.has_options ||
	    p->fl.is_fragment || l3 > 64)
		return rd_probe_done(ROCEDP_PROBE_CTR_MALFORMED);
	udp = data + l3 + sizeof(struct iphdr);
	h = (void *)(udp + 1);
	if ((void *)(h + 1) > data_end ||
	    bpf_ntohs(udp->len) < sizeof(*udp) + sizeof(*h) ||
	    h->magic != bpf_htons(ROCEDP_PROBE_MAGIC) ||
	    h->version != ROCEDP_PROBE_VERSION)
		return rd_probe_done(ROCEDP_PROBE_CTR_MALFORMED);
	w = (__u64 *)h;
	if (rd_probe_auth(pc->key[0], pc->key[1], w[0], w[1], w[2]) != w[3])
		return rd_probe_done(ROCEDP_PROBE_CTR_BAD_AUTH);
	now = rd_now();
	ts = bpf_be64_to_cpu(h->ts_ns);
	tmo = (__u64)pc->timeout_us * 1000;
	if ((pc->flags & ROCEDP_PROBEF_CHECK_AGE) &&
	    (ts + tmo < now || ts > now + tmo))
		return rd_probe_done(ROCEDP_PROBE_CTR_STALE);
	if (h->hops >= pc->max_hops)
		return rd_probe_done(ROCEDP_PROBE_CTR_HOPS);
	if (pc->role == ROCEDP_PROBE_ROLE_LEAF) {
		if (bpf_ntohs(h->origin) == pc->leaf_id)
			return rd_probe_done(ROCEDP_PROBE_CTR_SELF);
		return rd_probe_take(h, in_ifindex, now, ts);
	}
	/* spine: what a frame toward the origin meets here */
	band = rd_port_band(in_ifindex, now);
	if (band > h->band)
		h->band = band;
	h->hops++;
	w[3] = rd_probe_auth(pc->key[0], pc->key[1], w[0], w[1], w[2]);
	udp->check = 0; /* the payload changed; optional over IPv4 */
	if (pc->dscp < 64 && (p->fl.tos >> 2) != pc->dscp) {
		/* like control traffic: its own queue on the way */
		rd_write_tos(data, data_end, l3, 4,
			     (pc->dscp << 2) | (p->fl.tos & 3));
		p->fl.tos = (pc->dscp << 2) | (p->fl.tos & 3);
	}
	rd_probe_count(ROCEDP_PROBE_CTR_FORWARDED);
	return RD_PROBE_ON;
}

/*
 * The probe step as GLOBAL functions, one per context type (a global
 * function takes no packet pointer, only its program's context): each is
 * verified once, on its own, instead of once for every parser state that
 * reaches it, which kept the general path's verification under the 1M
 * instruction budget. Called for UDP frames that are not RoCE; p is the
 * caller's parse, its TOS updated when a spine remarks. The frame keeps
 * its length, so the caller's packet pointers stay valid.
 */
__attribute__((noinline)) int rd_probe_xdp(struct xdp_md *ctx, struct rd_pkt *p,
					   __u32 in_ifindex)
{
	if (!ctx || !p)
		return RD_PROBE_NONE;
	return rd_probe_body((void *)(long)ctx->data,
			     (void *)(long)ctx->data_end, p, in_ifindex);
}

__attribute__((noinline)) int rd_probe_tc(struct __sk_buff *skb,
					  struct rd_pkt *p, __u32 in_ifindex)
{
	if (!skb || !p)
		return RD_PROBE_NONE;
	return rd_probe_body((void *)(long)skb->data,
			     (void *)(long)skb->data_end, p, in_ifindex);
}

#endif
