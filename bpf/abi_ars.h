/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Adaptive routing and switching (ARS) as SAI names it: modes per group,
 * quality bands, selective opt-in, the per-group counters.
 * Part of the rocedp ABI (rocedp_abi.h); docs/ars.md.
 */
#ifndef ROCEDP_ABI_ARS_H
#define ROCEDP_ABI_ARS_H

#include "abi_base.h"

/* SAI_ARS_MODE_*; OFF: the switch's hash mode and flowlet setting */
enum rocedp_ars_mode {
	ROCEDP_ARS_OFF = 0,
	ROCEDP_ARS_FLOWLET_QUALITY, /* a new flowlet takes the best band */
	ROCEDP_ARS_FLOWLET_RANDOM, /* a new flowlet takes a random member */
	ROCEDP_ARS_PER_PACKET_QUALITY, /* each frame: a best-band member */
	ROCEDP_ARS_PER_PACKET_RANDOM, /* each frame: a random member */
	ROCEDP_ARS_FIXED, /* the hash member, flowlets or not */
	ROCEDP_ARS_MODE_MAX,
};

#define ROCEDP_ARS_BANDS 8 /* SAI's quantisation of a path's quality */
#define ROCEDP_ARS_PREFIXES 8 /* opt-in destination prefixes */

/* Opt-in matchers: with none set every frame of an ARS group is ARS's */
#define ROCEDP_ARSF_OPTIN_BTH (1u << 0) /* BTH byte 8 & mask == value */
#define ROCEDP_ARSF_OPTIN_OPCODE (1u << 1) /* RoCE opcode in the set */
#define ROCEDP_ARSF_OPTIN_DSCP (1u << 2) /* DSCP in the set */
#define ROCEDP_ARSF_OPTIN_PREFIX (1u << 3) /* destination in a prefix */

/* group_mode[id]: 0 = the switch's mode, else this flag | the mode */
#define ROCEDP_ARS_GROUP_SET 0x80

struct rocedp_ars_prefix {
	__u32 addr[4]; /* network order, host bits clear; IPv4 in [0] */
	__u8 plen;
	__u8 family; /* 4 or 6 */
	__u8 pad[2];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_ars_prefix) == 20, "ars prefix");

/*
 * rd_ars: ARRAY[1]. The one writer (config_txn.c) rewrites the value
 * whole; a reader may see a mix of two configs' fields for one frame
 * (each field is one aligned word), never a torn field.
 */
struct rocedp_ars {
	__u8 mode; /* enum rocedp_ars_mode: every group without its own */
	/*
	 * Flowlet modes when the flow's set holds only live flowlets
	 * (FBOSS's backupSwitchingMode): PER_PACKET_RANDOM or FIXED takes
	 * the frame without a table entry; OFF evicts the idlest (as the
	 * flowlet feature does).
	 */
	__u8 fallback;
	__u8 load_weight; /* percent of the band from past load (DRE) */
	__u8 queue_weight; /* percent from the current (virtual) queue */
	__u32 optin; /* ROCEDP_ARSF_OPTIN_* */
	__u32 sample_ns; /* a port's band is re-sampled this often; 0 = each frame */
	__u8 bth_mask; /* BTH byte 8 (FBOSS: 0x40) */
	__u8 bth_value;
	__u8 n_prefixes;
	__u8 pad;
	/* band b (1..7) starts at thr[b - 1]: the DRE's bytes, the queue's */
	__u64 load_thr[ROCEDP_ARS_BANDS - 1];
	__u64 queue_thr[ROCEDP_ARS_BANDS - 1];
	__u64 opcodes[4]; /* bit n: BTH opcode n opts in */
	__u64 dscp; /* bit n: DSCP n opts in */
	struct rocedp_ars_prefix prefix[ROCEDP_ARS_PREFIXES];
	__u8 group_mode[ROCEDP_MAX_GROUPS]; /* ROCEDP_ARS_GROUP_SET | mode */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_ars) ==
			     16 + 14 * 8 + 40 + 20 * ROCEDP_ARS_PREFIXES +
				     ROCEDP_MAX_GROUPS,
		     "rocedp_ars");

#define ROCEDP_ARS_DEFAULT_LOAD_WEIGHT 70 /* FBOSS's tests: load 70 */
#define ROCEDP_ARS_DEFAULT_QUEUE_WEIGHT 30 /* ... queue 30 */
#define ROCEDP_ARS_DEFAULT_SAMPLE_NS 16000 /* SAI's example: 16 us */

/*
 * rd_ars_stats: PERCPU_ARRAY[ROCEDP_MAX_GROUPS], SAI's next-hop group
 * counters (SAI_NEXT_HOP_GROUP_ATTR_ARS_*) and rocedp's own.
 */
struct rocedp_ars_stats {
	__u64 frames; /* forwarded by an ARS mode */
	__u64 base; /* in an ARS group but not opted in: hash or flowlet */
	__u64 nh_reassign; /* NEXT_HOP_REASSIGNMENTS (docs/ars.md) */
	__u64 port_reassign; /* PORT_REASSIGNMENTS: ... to another port */
	__u64 drops; /* PACKET_DROPS: no usable member (passed to the kernel) */
	__u64 fallback; /* flowlet modes: set full, the fallback mode chose */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_ars_stats) == 48, "ars stats");

/* rd_ars_band: PERCPU_ARRAY[ROCEDP_PORT_SLOTS], the programs' own */
struct rocedp_ars_band {
	__u64 at_ns; /* sampled then; 0 = never */
	__u32 band; /* 0 (best) .. ROCEDP_ARS_BANDS - 1 */
	__u32 pad;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_ars_band) == 16, "ars band");

#endif /* ROCEDP_ABI_ARS_H */
