// SPDX-License-Identifier: GPL-2.0
/*
 * Smallest user of the rocedp_ecn kfunc: proves that a SCHED_CLS and an XDP
 * program can call it when the module is loaded, and that the very same
 * object still loads when it is not (weak ksym left unresolved, call guarded
 * by a loader-set rodata flag the verifier prunes as dead code).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

extern __u64 rocedp_ecn_thresholds(__u32 profile) __ksym __weak;

/* Set by the loader before load: true only if the module is present. */
const volatile int use_kfunc = 0;

/* Profile to query and the answer, per program type (set/read via .bss). */
__u32 probe_profile;
__u64 tc_result;
__u64 xdp_result;
__u32 tc_runs;
__u32 xdp_runs;
/* "race" verb: snapshots taken and torn ones (kmin > kmax or invalid). */
__u64 snapshots;
__u64 torn_snapshots;
__u64 changes; /* snapshots that differ from the one before: writer seen */
__u64 last_snapshot;

static __always_inline __u64 thresholds(__u32 profile)
{
	if (use_kfunc)
		return rocedp_ecn_thresholds(profile);
	return 0;
}

SEC("tc")
int kfunc_probe_tc(struct __sk_buff *skb)
{
	tc_result = thresholds(probe_profile);
	tc_runs++;
	return TC_ACT_OK;
}

/* Run with a large repeat count while a writer flips the thresholds. */
SEC("tc")
int kfunc_probe_race(struct __sk_buff *skb)
{
	__u64 v = thresholds(probe_profile);
	__u32 kmin = v & 0xfffffff, kmax = (v >> 28) & 0xfffffff;

	snapshots++;
	if (!(v >> 63) || kmin > kmax)
		torn_snapshots++;
	if (snapshots > 1 && v != last_snapshot)
		changes++;
	last_snapshot = v;
	return TC_ACT_OK;
}

SEC("xdp")
int kfunc_probe_xdp(struct xdp_md *ctx)
{
	xdp_result = thresholds(probe_profile);
	xdp_runs++;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
