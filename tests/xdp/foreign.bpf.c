// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for an operator's own XDP program (a filter loaded with
 * xdp-loader): counts every frame it sees and passes it on. Its run
 * config puts it before rocedp in libxdp's dispatcher, as a filter would
 * be. The coexistence tests read xf_count with bpftool.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} xf_count SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(xdp_foreign);

SEC("xdp")
int xdp_foreign(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&xf_count, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
