/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The per-CPU counter block and the names of its slots.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_COUNTERS_H
#define ROCEDP_ABI_COUNTERS_H

#include "abi_verdict.h"

/*
 * One flat per-CPU block of counters (struct rocedp_stats). Sections are
 * laid out by base offset so that userspace can name every slot from these
 * enums alone.
 */
enum rocedp_counter_base {
	ROCEDP_CTR_CLASS_BASE = 0,
	ROCEDP_CTR_MAL_BASE = ROCEDP_CTR_CLASS_BASE + ROCEDP_CLASS_MAX,
	ROCEDP_CTR_PASS_BASE = ROCEDP_CTR_MAL_BASE + ROCEDP_MAL_MAX,
	ROCEDP_CTR_VERDICT_BASE = ROCEDP_CTR_PASS_BASE + ROCEDP_PASS_MAX,
	ROCEDP_CTR_MISC_BASE = ROCEDP_CTR_VERDICT_BASE + ROCEDP_VERDICT_MAX,
};

enum rocedp_counter_misc {
	ROCEDP_CTR_RX_PKTS = ROCEDP_CTR_MISC_BASE,
	ROCEDP_CTR_RX_BYTES,
	ROCEDP_CTR_FWD_PKTS,
	ROCEDP_CTR_FWD_BYTES,
	ROCEDP_CTR_FWD_CACHE_HIT, /* of those, route from the decision cache */
	ROCEDP_CTR_REMARKED, /* DSCP (or PCP) actually changed */
	ROCEDP_CTR_REMARK_SAME, /* action set, value already right */
	ROCEDP_CTR_FLOWLET_NEW, /* a flowlet started (new flow or gap) */
	ROCEDP_CTR_FLOWLET_FLOW_NEW, /* first frame of a flow */
	ROCEDP_CTR_FLOWLET_MOVE, /* a new flowlet took another member */
	ROCEDP_CTR_FLOWLET_REORDER_RISK, /* moved within the gap: must stay 0 */
	ROCEDP_CTR_FLOWLET_INSERT_FAIL,
	ROCEDP_CTR_FLOWLET_MEMBER_GONE, /* held member left the group */
	ROCEDP_CTR_RTT_SAMPLES,
	ROCEDP_CTR_ECN_MARKED,
	ROCEDP_CTR_ECN_WOULD_MARK, /* Not-ECT frames RED would have marked */
	ROCEDP_CTR_ECN_ALREADY_CE,
	ROCEDP_CTR_ECN_OPTOUT, /* class exempt from marking */
	ROCEDP_CTR_ECN_SRC_KFUNC, /* thresholds came from the module */
	ROCEDP_CTR_ECN_SRC_MAP, /* thresholds came from the map */
	ROCEDP_CTR_SPRAY_PKTS,
	ROCEDP_CTR_PORT_UNTRACKED, /* frames of a port with ifindex >= ROCEDP_PORT_SLOTS */
	ROCEDP_CTR_RTT_AMBIGUOUS, /* ACK could close several QPs' samples: none taken */
	ROCEDP_CTR_RTT_RETX, /* ACK of a retransmitted request: no sample (Karn) */
	ROCEDP_CTR_RTT_EXPIRED, /* ACK of a request older than ROCEDP_RTT_MAX_AGE_NS */
	ROCEDP_CTR_RTT_PEND_FULL, /* > ROCEDP_RTT_SLOTS QPs pending one PSN */
	ROCEDP_CTR_RTT_PAIR_LEARNED, /* requester QP <-> responder QP learned */
	ROCEDP_CTR_FLOWLET_CLAIM_LOST, /* another CPU started the flowlet first */
	ROCEDP_CTR_FLOWLET_EVICT_KEPT, /* evicted flow back: its member kept */
	ROCEDP_CTR_QP_UNPAIRED, /* telemetry: response with no known QP entry */
	ROCEDP_CTR_QP_NEW, /* telemetry: rocedp_qps entries created */
	ROCEDP_CTR_QP_REPLACED, /* telemetry: a live entry replaced by a new QP */
	ROCEDP_CTR_FLOWLET_REPLACED, /* a new flow took a live flow's way */
	ROCEDP_CTR_RTT_PAIR_SYM_PORT, /* of the pairs learned: by ib_core's port */
	ROCEDP_CTR_RTT_PAIR_RXE_PORT, /* by Soft-RoCE's port rule */
	ROCEDP_CTR_MAX,
};

/*
 * rd_stats: PERCPU_ARRAY[1] -> this block. One block, not one slot per
 * counter: the accounting step looks it up once per frame and adds at fixed
 * offsets (a lookup per counter cost about 1 ns each, six or more a frame).
 */
struct rocedp_stats {
	__u64 ctr[ROCEDP_CTR_MAX];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_stats) == ROCEDP_CTR_MAX * 8,
		     "stats block");

#endif /* ROCEDP_ABI_COUNTERS_H */
