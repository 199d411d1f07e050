/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* Map definitions; layouts and meaning are documented in docs/maps.md. */
#ifndef ROCEDP_MAPS_H
#define ROCEDP_MAPS_H

#include <stdbool.h>
#include "rocedp_abi.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rocedp_config);
} rd_config SEC(".maps");

/* The config (NULL only to the verifier: one-entry array). */
static __always_inline struct rocedp_config *rd_config_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_config, &zero);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rocedp_stats);
} rd_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_CTS_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_cts_rule);
} rd_cts_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ROCEDP_MAX_CTS_RULES);
	__type(key, __u32);
	__type(value, __u64);
} rd_cts_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_CLASS_MAX);
	__type(key, __u32);
	__type(value, struct rocedp_qos);
} rd_qos SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, ROCEDP_MAX_ROUTES4);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct rocedp_route4_key);
	__type(value, struct rocedp_route);
} rd_routes4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, ROCEDP_MAX_ROUTES6);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct rocedp_route6_key);
	__type(value, struct rocedp_route);
} rd_routes6 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ROCEDP_MAX_GROUPS);
	__type(key, __u32);
	__type(value, struct rocedp_group);
} rd_groups SEC(".maps");

/* What the dataplane reads of a group: two banks and a live word per id
 * (rocedp_abi.h, rocedp_groups; docs/maps.md, Whole-value rewrites). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_GROUP_BANKS);
	__type(key, __u32);
	__type(value, struct rocedp_group);
} rd_group_banks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_MAX_GROUPS);
	__type(key, __u32);
	__type(value, __u32);
} rd_group_live SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, ROCEDP_MAX_PORTS);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} rd_tx_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ROCEDP_MEMBER_STATS_ENTRIES);
	__type(key, __u32);
	__type(value, struct rocedp_member_stats);
} rd_mbr_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_port_cfg);
} rd_port_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_port_state);
} rd_port_state SEC(".maps");

/* The port's slot; NULL beyond ROCEDP_PORT_SLOTS (the port stats count those). */
static __always_inline struct rocedp_port_state *
rd_port_state_get(__u32 ifindex)
{
	return bpf_map_lookup_elem(&rd_port_state, &ifindex);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_port_load);
} rd_port_load SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_port_stats);
} rd_port_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_port_l2);
} rd_port_l2 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_FLOWLET_SETS);
	__type(key, __u32);
	__type(value, struct rocedp_flowlet_set);
} rd_flowlets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ROCEDP_MAX_RTT_PENDING);
	__type(key, struct rocedp_rtt_key);
	__type(value, struct rocedp_rtt_pending);
} rd_rtt_pend SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ROCEDP_MAX_RTT_PENDING);
	__type(key, struct rocedp_rtt_pair_key);
	__type(value, struct rocedp_rtt_pair);
} rd_rtt_pairs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_FLOWLET_SHADOW);
	__type(key, __u32);
	__type(value, struct rocedp_flowlet_shadow);
} rd_fl_shadow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rd_clock SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rocedp_trace);
} rd_trace SEC(".maps");

/* Set by replay and tests only: record every frame in rd_trace. */
const volatile bool cfg_trace = false;

/* The route generation (rocedp_abi.h): mapped by its writer, routew.c. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u32);
} rd_route_gen SEC(".maps");

/*
 * The decision cache's entries (fwdcache.h), one cache line each. Per CPU,
 * so an entry is never written while another CPU reads it; not pinned:
 * each load starts empty. Direct-mapped, so N flows live on one CPU keep
 * about exp(-N / entries) of their entries: 16384 (1 MiB a CPU) hold 78%
 * of 4096 flows, where 4096 held 37% and every other frame paid a miss
 * and a refill on top of the full path (docs/design.md, Decision cache).
 */
#ifndef RD_FC_BITS
#define RD_FC_BITS 14
#endif
struct rd_fc_ent {
	__u32 src; /* the key: IPv4 addresses (IPv6: folded, rd_fc_key6 */
	__u32 dst; /* holds them whole), ports, destination QP */
	__u32 ports; /* sport << 16 | dport */
	__u32 qp;
	__u32 route_gen; /* what it was computed under */
	__u32 group_live;
	__u32 hash_seed;
	__u32 hash_flags;
	__u32 group_id; /* the decision */
	__u32 egress; /* 0: empty */
	__u32 hash;
	__u16 slot;
	__u8 hash_mode; /* | RD_FC_V6 for an IPv6 flow's entry */
	__u8 route_only; /* made under flowlets: the member is not for reuse */
	__u8 macs[12]; /* destination, source MAC */
	__u32 qp_ref; /* telemetry's hint: the flow's rd_qps slot + 1, or 0 */
};

_Static_assert(sizeof(struct rd_fc_ent) == 64, "rd_fc_ent: one line");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1 << RD_FC_BITS);
	__type(key, __u32);
	__type(value, struct rd_fc_ent);
} rd_fwd_cache SEC(".maps");

/*
 * An IPv6 entry's addresses, whole, at its rd_fwd_cache index: the rest
 * of the key and the answer stay in the one line, so an IPv4 frame never
 * touches this (32 B a slot, 512 KiB a CPU; not pinned either).
 */
struct rd_fc_key6 {
	__u32 src[4];
	__u32 dst[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1 << RD_FC_BITS);
	__type(key, __u32);
	__type(value, struct rd_fc_key6);
} rd_fwd_cache6 SEC(".maps");

/* Telemetry (telemetry.h; rocedp_abi.h gives the layouts). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_MAX_QPS);
	__type(key, __u32);
	__type(value, struct rocedp_qp_slot);
} rd_qps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} rd_port_hwm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_port_flaps);
} rd_port_flaps SEC(".maps");

/*
 * Per-CPU scratch for what the stack has no room for: Linux 6.1 sums the
 * frames of the deepest call chain (entry, rd_ingress_decide,
 * rd_fwd_member or rd_rtt_observe, the least-loaded scan's callback)
 * against 512 bytes, and the keys and new entries of the flowlet choice
 * and the RTT pairing, with the scan's scalars, broke it (tests/bpf_stack.sh
 * guards it). A program runs to its end on its CPU
 * before the next one starts there (softirq), so a slot is never shared.
 * Not pinned: nothing outside reads it.
 */
struct rd_ll_vars { /* the least-loaded scan (member.h) */
	__u64 now;
	__u64 now_tick; /* now's DRE tick, RD_DRE_NO_TICK until needed */
	__u64 step; /* DRE tick length, ns */
	__u64 best_load;
	__u32 start;
	__u32 n;
	__u32 best_w;
	int best;
	/*
	 * Path quality (pathq.h): the member slots on the best path toward
	 * the frame's remote leaf (0: all, by load alone), and the keys of
	 * the lookups that find them, here because 6.1 takes no key from a
	 * global function's argument memory and the stack is full.
	 */
	__u64 pq_mask;
	__u64 pq_tmo_ns; /* the scratch of rd_pathq_steer: its registers */
	__u64 pq_now; /* spilled past the 6.1 budget */
	__u32 pq_best;
	__u32 pq_pad;
	struct rocedp_pathq_key pq_key;
	struct rocedp_leaf4_key leaf_key;
};

struct rd_fl_ins { /* a flowlet table insert (flowlet.h) */
	__u64 now;
	__u64 tag; /* the flow key's last word */
	__u32 hash;
	__u32 group_id;
	__u32 set; /* the set's index */
	__s32 slot; /* the member chosen */
};

struct rd_scratch {
	struct rd_fl_ins fl;
	struct rd_ll_vars ll;
	/* RTT pairing (rtt.h): keys and new entries */
	struct rocedp_rtt_key rtt_key;
	struct rocedp_rtt_pair_key pair_key;
	struct rocedp_rtt_pending rtt_new;
	struct rocedp_rtt_pair pair_new;
	/* telemetry (telemetry.h): the ACK's sample */
	__u64 rtt_sample_ns;
	__u32 rtt_sample_qp; /* responder QP of the request it closed */
	__u32 rtt_sample_ok; /* set by rd_rtt_observe for this frame */
	/* the CPU's last clock reading and the tick it was in (clock.h) */
	__u64 tick_jiffies;
	__u64 tick_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rd_scratch);
} rd_scratch SEC(".maps");

/* The CPU's scratch (NULL only to the verifier: one-entry array). */
static __always_inline struct rd_scratch *rd_scratch_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_scratch, &zero);
}

#include "maps_probe.h"

/* Packet trimming: the discard action and SAI's counters per egress port
 * (abi_trim.h, trim.h) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_trim_port);
} rd_trim_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_trim_stats);
} rd_trim_stats SEC(".maps");

#endif
