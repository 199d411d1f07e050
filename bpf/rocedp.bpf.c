// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * rocedp entry programs. Thin by design: each hook maps its context onto
 * the shared core (core.h) and the core's verdict back onto its codes.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>
#include "core.h"

/* tc: how much of a non-linear skb to make readable for the parser */
#define RD_TC_PULL_LEN 256

/*
 * The whole frame's length. bpf_xdp_get_buff_len() cost 8 ns a frame in
 * the cost benchmark (5% of the default path), so an untagged IP frame
 * whose datagram ends inside the linear part skips it: fragments could
 * only hold bytes after the datagram, which no decision reads. Any other
 * frame, multi-buffer ones included, asks the kernel.
 */
static __always_inline __u32 rd_xdp_wire_len(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + ETH_HLEN;
	struct ipv6hdr *ip6 = data + ETH_HLEN;
	__u32 lin = data_end - data, end = 0;

	if ((void *)(ip6 + 1) > data_end)
		return bpf_xdp_get_buff_len(ctx);
	if (eth->h_proto == bpf_htons(ETH_P_IP))
		end = ETH_HLEN + bpf_ntohs(ip->tot_len);
	else if (eth->h_proto == bpf_htons(ETH_P_IPV6))
		end = ETH_HLEN + sizeof(*ip6) + bpf_ntohs(ip6->payload_len);
	if (end && end <= lin)
		return lin;
	return bpf_xdp_get_buff_len(ctx);
}

/*
 * xdp.frags: the program takes multi-buffer frames, so native mode works
 * at jumbo MTUs (drivers refuse a program without it once a frame no
 * longer fits one page). Headers are read from the linear part only; the
 * frame's length, for IP length checks, counters and ECN, is the whole.
 */
/*
 * libxdp's dispatcher reads this (BTF of .xdp_run_config): rocedp runs
 * after programs of a lower priority number (filters, at libxdp's default
 * 50) and hands on only what it passes, so the next program sees every
 * frame rocedp leaves to the kernel and none that it forwarded.
 */
struct {
	__uint(priority, 100);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(rocedp_xdp);

SEC("xdp.frags")
int rocedp_xdp(struct xdp_md *ctx)
{
	struct rd_hook_in in = { .ctx = ctx,
				 .ifindex = ctx->ingress_ifindex,
				 .ecn_at_ingress = 1 };
	struct rd_result res;

	in.wire_len = rd_xdp_wire_len(ctx);
	rd_ingress((void *)(long)ctx->data, (void *)(long)ctx->data_end, &in,
		   &res, 1);
	if (res.verdict == ROCEDP_VERDICT_DROP) /* a probe, or the buffer's */
		return XDP_DROP;
	if (res.verdict != ROCEDP_VERDICT_REDIRECT)
		return XDP_PASS;
	if (res.strip_tag && rd_xdp_strip_tag(ctx)) /* cannot fail: rewritten */
		return XDP_ABORTED;
	/* no tag inside a frame to cut (rd_trim_eligible) */
	if (res.trim && rd_xdp_trim(ctx, res.egress_ifindex, res.trim))
		return XDP_DROP;
	if (res.redirected) /* the member step's bpf_redirect_map */
		return XDP_REDIRECT;
	if (cfg_offline) /* test runs stop at the verdict */
		return bpf_redirect(res.egress_ifindex, 0);
	return bpf_redirect_map(&rd_tx_ports, res.egress_ifindex, XDP_PASS);
}

static __always_inline void rd_tc_prepare(struct __sk_buff *skb,
					  struct rd_hook_in *in)
{
	__u32 want = skb->len < RD_TC_PULL_LEN ? skb->len : RD_TC_PULL_LEN;

	if (skb->data_end - skb->data < want)
		bpf_skb_pull_data(skb, want);
	in->vlan_in_meta = !!skb->vlan_present;
	in->meta_tci = skb->vlan_tci;
	in->wire_len = skb->len;
}

static __always_inline int rd_tc_ingress(struct __sk_buff *skb)
{
	struct rd_hook_in in = { .ctx = skb, .ifindex = skb->ingress_ifindex };
	struct rd_result res;
	__be16 tpid;
	__u16 tci;

	rd_tc_prepare(skb, &in);
	rd_ingress((void *)(long)skb->data, (void *)(long)skb->data_end, &in,
		   &res, 0);
	if (res.pcp_push != 0xff) {
		/*
		 * The tag lives in metadata: re-push it with the new PCP and
		 * its own TPID, read before the pop (which clears it, or with
		 * QinQ moves the inner tag, and its TPID, into metadata).
		 */
		tpid = skb->vlan_proto ?: bpf_htons(0x8100);
		tci = (skb->vlan_tci & 0x1fff) | (res.pcp_push << 13);
		if (!bpf_skb_vlan_pop(skb))
			bpf_skb_vlan_push(skb, tpid, tci);
	}
	if (res.verdict == ROCEDP_VERDICT_DROP) /* a probe (probe.h) */
		return TC_ACT_SHOT;
	if (res.verdict != ROCEDP_VERDICT_REDIRECT)
		return TC_ACT_OK;
	/* a priority tag, in metadata or (test runs) in the frame, goes */
	if (res.strip_tag && bpf_skb_vlan_pop(skb))
		return TC_ACT_SHOT; /* cannot fail; the frame is rewritten */
	return bpf_redirect(res.egress_ifindex, 0);
}

SEC("tc")
int rocedp_tc_ingress(struct __sk_buff *skb)
{
	return rd_tc_ingress(skb);
}

/*
 * The receive path's untag, for the test entry below (a call of its own,
 * so the entry's packet pointers are fresh after the helpers).
 */
static __attribute__((noinline)) int rd_tc_rx_untag(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	__be16 *tag = data + 12; /* TPID, TCI */
	__be16 tpid;
	__u16 tci;

	if (data + 16 > data_end || !rd_is_vlan(bpf_ntohs(tag[0])))
		return 0;
	tpid = tag[0];
	tci = bpf_ntohs(tag[1]);
	if (bpf_skb_vlan_pop(skb) || bpf_skb_vlan_push(skb, tpid, tci))
		return -1;
	return 0;
}

/*
 * Test entry: tc ingress as the receive path hands it a tagged frame. The
 * kernel moves the outer tag into skb metadata (skb_vlan_untag) before tc
 * ingress; a test run does not, so this entry does, with the same helpers
 * (pop, then push: a QinQ inner tag stays in the frame). The metadata tag
 * left at the end goes to cb[0] (present) and cb[1] (TPID << 16 | TCI),
 * for the engine to write back into the output frame. Never loaded live.
 */
SEC("tc")
int rocedp_tc_ingress_rx(struct __sk_buff *skb)
{
	int ret;

	if (rd_tc_rx_untag(skb))
		return TC_ACT_SHOT;
	ret = rd_tc_ingress(skb);
	skb->cb[0] = skb->vlan_present;
	skb->cb[1] = bpf_ntohs(skb->vlan_proto) << 16 | skb->vlan_tci;
	return ret;
}

/* The egress buffer's admission: refused, or cut, or as it was. */
static __always_inline int rd_tc_egress_verdict(struct __sk_buff *skb,
						const struct rd_result *res)
{
	if (res->verdict == ROCEDP_VERDICT_DROP)
		return TC_ACT_SHOT;
	if (res->trim && rd_tc_trim(skb, res->egress_ifindex, res->trim))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc")
int rocedp_tc_egress(struct __sk_buff *skb)
{
	struct rd_hook_in in = { .ifindex = skb->ifindex };
	struct rd_result res;

	rd_tc_prepare(skb, &in);
	rd_egress((void *)(long)skb->data, (void *)(long)skb->data_end, &in,
		  &res);
	return rd_tc_egress_verdict(skb, &res);
}

/*
 * A tc egress test run needs a real device for skb->ifindex, so replay and
 * tests drive the egress pipeline through this entry, which takes the port
 * from skb->mark. The live loader never loads
 * it.
 */
SEC("tc")
int rocedp_egress_tr(struct __sk_buff *skb)
{
	struct rd_hook_in in = { .ifindex = skb->mark };
	struct rd_result res;

	rd_tc_prepare(skb, &in);
	rd_egress((void *)(long)skb->data, (void *)(long)skb->data_end, &in,
		  &res);
	return rd_tc_egress_verdict(skb, &res);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
