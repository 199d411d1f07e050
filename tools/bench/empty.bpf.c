// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * Baselines for the per-packet cost benchmark: programs that do nothing,
 * timed in the same run as rocedp so that ratios cancel the test-run loop.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

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

char LICENSE[] SEC("license") = "Dual BSD/GPL";
