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

/*
 * Unit costs that explain the totals: one clock read, one per-CPU counter
 * (lookup + add, as every rocedp counter), one LPM lookup (the route).
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

char LICENSE[] SEC("license") = "Dual BSD/GPL";
