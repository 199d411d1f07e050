/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Switch-wide settings: hash and flowlet modes, features, rocedp_config,
 * CTS rules, per-class remarking (QoS).
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_CONFIG_H
#define ROCEDP_ABI_CONFIG_H

#include "abi_base.h"

enum rocedp_hash_mode {
	ROCEDP_HASH_5TUPLE = 0, /* the Linux kernel's L4 policy */
	ROCEDP_HASH_QP, /* 5-tuple + BTH destination QP */
	ROCEDP_HASH_QP_ONLY, /* addresses + destination QP, no UDP sport */
	ROCEDP_HASH_FLOWLET, /* qp-only key, member held per flowlet */
	ROCEDP_HASH_SPRAY, /* per packet, for comparison only */
	ROCEDP_HASH_MODE_MAX,
};

#define ROCEDP_HASHF_SYMMETRIC (1u << 0)

/* Features, switchable at run time through rocedp_config.features */
#define ROCEDP_F_FORWARD (1u << 0)
#define ROCEDP_F_REMARK (1u << 1)
#define ROCEDP_F_FLOWLET (1u << 2)
#define ROCEDP_F_ECN (1u << 3)
#define ROCEDP_F_ALL \
	(ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_FLOWLET | ROCEDP_F_ECN)

/* How a new flowlet picks its member */
enum rocedp_flowlet_choice {
	ROCEDP_FLOWLET_LEAST_LOADED = 0, /* CONGA-like, ties broken by hash */
	ROCEDP_FLOWLET_RANDOM, /* LetFlow-like */
	ROCEDP_FLOWLET_HASH, /* keep the qp-only hash member */
};

#define ROCEDP_FLOWLETF_AUTO_GAP (1u << 0) /* gap follows measured RTT/2 */

/* rocedp_config: ARRAY[1]. Runtime switch-wide settings. */
struct rocedp_config {
	__u32 features; /* ROCEDP_F_* */
	__u32 hash_mode; /* enum rocedp_hash_mode */
	__u32 hash_seed; /* per switch, so tiers do not polarise */
	__u32 hash_flags; /* ROCEDP_HASHF_* */
	__u32 flowlet_rtt_us; /* default RTT; gap = rtt / 2 */
	__u32 flowlet_gap_min_us;
	__u32 flowlet_gap_max_us;
	__u32 flowlet_flags; /* ROCEDP_FLOWLETF_* */
	__u32 flowlet_choice; /* enum rocedp_flowlet_choice */
	__u32 load_tau_us; /* DRE time constant */
	__u32 rtt_ewma_shift; /* RTT EWMA weight 1/2^shift */
	__u32 ecn_class_optout; /* bitmask of 1 << enum rocedp_class */
	__u32 n_cts_rules; /* number of live rules (what the CLI shows) */
	__u32 cts_live; /* ROCEDP_CTS_LIVE(bank, n): what the classifier reads */
	__u32 fib_gen; /* bumped by a config load/set that wrote routes or
			* groups: rocedp sync re-reads the maps before its next
			* write (it never sees the config's writes otherwise) */
	__u32 qp_stall_us; /* telemetry: an ACK wait this long is a stall;
			    * 0 = ROCEDP_DEFAULT_QP_STALL_US */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_config) == 64, "rocedp_config");

#define ROCEDP_DEFAULT_RTT_US 22 /* Meta's unloaded fabric RTT */
#define ROCEDP_DEFAULT_GAP_MIN_US 2
#define ROCEDP_DEFAULT_GAP_MAX_US 2047 /* SONiC flowlet_idle_time max */
#define ROCEDP_DEFAULT_LOAD_TAU_US \
	10 /* about the flowlet gap: see docs/flowlet.md */
#define ROCEDP_DEFAULT_RTT_EWMA_SHIFT 3

/*
 * rocedp_cts_rules: ARRAY[ROCEDP_CTS_SLOTS], two banks of
 * ROCEDP_MAX_CTS_RULES. Rule i of the live list is slot
 * bank * ROCEDP_MAX_CTS_RULES + i; a writer fills the other bank, then
 * flips to it with one rocedp_config update. Bank and count are one 32-bit
 * word, cts_live, as an array value is copied without a lock: two fields
 * could be read half updated, one aligned word cannot. So readers see the
 * old list or the new one, never a mix. rocedp_cts_stats stays indexed by
 * list position.
 * First match wins. CTS is no IBTA opcode: collective libraries send it
 * as a small SEND or RDMA WRITE on known QPs, so a rule matches on opcode
 * set, QP range, payload length and optional prefixes.
 */
#define ROCEDP_CTS_SLOTS (2 * ROCEDP_MAX_CTS_RULES)
#define ROCEDP_CTS_LIVE(bank, n) ((__u32)(bank) << 16 | (n))
#define ROCEDP_CTS_LIVE_BANK(v) (((v) >> 16) & 1)
#define ROCEDP_CTS_LIVE_N(v) ((v)&0xffff)
#define ROCEDP_CTSF_SRC_PREFIX (1u << 0)
#define ROCEDP_CTSF_DST_PREFIX (1u << 1)
#define ROCEDP_CTSF_IPV6 (1u << 2) /* prefixes are IPv6 */

struct rocedp_cts_rule {
	__u64 opcode_bitmap[4]; /* bit n set: BTH opcode n matches */
	__u32 qp_min; /* destination QP range, inclusive */
	__u32 qp_max;
	__u32 max_payload; /* BTH payload bytes (without ICRC) */
	__u32 flags; /* ROCEDP_CTSF_* */
	__u32 src_addr[4]; /* network order; IPv4 uses [0] */
	__u32 dst_addr[4];
	__u8 src_plen;
	__u8 dst_plen;
	__u8 pad[6];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_cts_rule) == 88, "cts rule");

/* rocedp_qos: ARRAY[ROCEDP_CLASS_MAX]. Per-class remark action. */
enum rocedp_qos_action {
	ROCEDP_QOS_LEAVE = 0,
	ROCEDP_QOS_SET_DSCP,
};

struct rocedp_qos {
	__u8 action; /* enum rocedp_qos_action */
	__u8 dscp; /* 0..63 */
	__u8 set_pcp; /* also rewrite the outer 802.1p PCP if tagged */
	__u8 pcp; /* 0..7 */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_qos) == 4, "qos");

/* rocedp_cts_stats: PERCPU_ARRAY[ROCEDP_MAX_CTS_RULES] of __u64 hits */

#endif /* ROCEDP_ABI_CONFIG_H */
