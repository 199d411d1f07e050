/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * RTT from the wire: pending requests and learned QP pairings.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_RTT_H
#define ROCEDP_ABI_RTT_H

#include "abi_base.h"

/*
 * rocedp_rtt_pending: LRU_HASH (requester, responder, PSN) -> one slot per
 * responder QP with a request pending at that PSN. A request names the
 * responder's QP, its ACK only the requester's, and NCCL starts every QP
 * at PSN 0: the ACK is matched through a learned QP pairing
 * (rocedp_rtt_pairs), by the UDP source ports of the request and the ACK
 * (rtt.h), or by elimination when only one slot can be its; otherwise no
 * sample is taken (docs/flowlet.md, "Auto RTT").
 */
struct rocedp_rtt_key {
	__u32 requester[4];
	__u32 responder[4];
	__u32 psn;
	__u32 family;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_rtt_key) == 40, "rtt key");

#define ROCEDP_RTT_SLOTS 4
/* Older requests give no sample: the largest RTT the gap clamps can use. */
#define ROCEDP_RTT_MAX_AGE_NS (1ull << 22) /* 4.19 ms */
/* A pairing not confirmed for this long is learned again (QPs are reused). */
#define ROCEDP_RTT_PAIR_TTL_NS (1000ull * 1000 * 1000)
#define ROCEDP_RTT_QP_MASK 0xffffffu
#define ROCEDP_RTT_QPF_VALID (1u << 31)
#define ROCEDP_RTT_QPF_RETX (1u << 30) /* sent again: no sample (Karn) */
#define ROCEDP_RTT_QPF_BUSY (1u << 29) /* being claimed: not live, not free */

/* 64-bit words: the programs are built for BPF v1, no 32-bit atomics */
struct rocedp_rtt_slot {
	__u64 sent_ns;
	/*
	 * ifindex the data frame arrived on << 32 | ROCEDP_RTT_QPF_* |
	 * responder QP; 0 = free. Claimed and released by compare-and-swap.
	 */
	__u64 qpf;
};

struct rocedp_rtt_pending {
	struct rocedp_rtt_slot slot[ROCEDP_RTT_SLOTS];
	__u64 full_ns; /* a request found every slot taken: ambiguous */
	__u16 sport[ROCEDP_RTT_SLOTS]; /* each slot's request's UDP source port */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_rtt_pending) == 80, "rtt pend");

/*
 * rocedp_rtt_pairs: LRU_HASH. dir 0: requester QP -> responder QP (what
 * an ACK needs); dir 1: responder QP -> requester QP, to rule slots out
 * and to retire a stale pairing when a QP number is paired anew.
 */
struct rocedp_rtt_pair_key {
	__u32 requester[4];
	__u32 responder[4];
	__u32 qp;
	__u8 family;
	__u8 dir;
	__u16 pad;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_rtt_pair_key) == 40, "pair key");

struct rocedp_rtt_pair {
	__u64 seen_ns; /* learned or last confirmed */
	__u32 qp; /* the other end's QP */
	__u32 pad;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_rtt_pair) == 16, "rtt pair");

#endif /* ROCEDP_ABI_RTT_H */
