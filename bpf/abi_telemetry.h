/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Per-QP and per-port health telemetry.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_TELEMETRY_H
#define ROCEDP_ABI_TELEMETRY_H

#include "abi_base.h"

/*
 * Per-QP and per-port health (docs/telemetry.md). Switched by
 * ROCEDP_F_TELEMETRY in rocedp_config.features.
 */
#define ROCEDP_F_TELEMETRY (1u << 4)
#ifndef ROCEDP_MAX_QPS
#define ROCEDP_MAX_QPS 16384
#endif
/* about the shortest local ACK timeout NICs use (rxe, mlx5) */
#define ROCEDP_DEFAULT_QP_STALL_US 4000
#define ROCEDP_PSN_MASK 0xffffffu /* PSN arithmetic is modulo 2^24 */

/*
 * rocedp_qps: ARRAY[ROCEDP_MAX_QPS] of struct rocedp_qp_slot, one entry per
 * (source, destination, destination QP) as a request frame carries them:
 * one direction of one
 * QP connection, the requester's PSN stream. Responses to those requests
 * (ACK, NAK, read responses, CNPs) travel the other way naming the
 * requester's QP; they are counted on this entry through the learned QP
 * pairing (rocedp_rtt_pairs) only. Without a pairing (or with the entry
 * gone) they are counted in ROCEDP_CTR_QP_UNPAIRED: the key they carry
 * names the reverse request stream of the same connection, which is not
 * theirs. Entries are created by requests only.
 */
struct rocedp_qp_key {
	__u32 src[4]; /* network order; IPv4 uses [0] */
	__u32 dst[4];
	__u32 dqp; /* BTH destination QP (24 bits) */
	__u8 family; /* AF_INET / AF_INET6 */
	__u8 pad[3];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_qp_key) == 40, "qp key");

enum rocedp_qp_nak {
	ROCEDP_QP_NAK_PSN_SEQ = 0,
	ROCEDP_QP_NAK_RNR,
	ROCEDP_QP_NAK_REMOTE_ACCESS,
	ROCEDP_QP_NAK_REMOTE_OP,
	ROCEDP_QP_NAK_OTHER, /* invalid request, invalid RD request, reserved */
	ROCEDP_QP_NAK_MAX,
};

#define ROCEDP_QP_PSN_VALID (1u << 31) /* the PSN word holds an expectation */
#define ROCEDP_QPF_STALLED (1u << 0) /* last ACK wait over the threshold */
/* the dataplane's own state bits, not for display */
#define ROCEDP_QPF_STALL_COUNTED (1u << 1) /* this wait is in stalls */
#define ROCEDP_QPF_AFTER_READ (1u << 2) /* last request a read request */
#define ROCEDP_QPF_IN_READ (1u << 3) /* read response first/middle seen */

struct rocedp_qp_stat {
	__u64 pkts; /* every frame counted on this entry */
	__u64 bytes;
	__u64 first_ns;
	__u64 last_ns;
	/* the request stream */
	__u64 req_pkts;
	__u64 gaps; /* a request PSN ahead of the expected one */
	__u64 gap_psns; /* PSNs skipped by those gaps */
	__u64 rewinds; /* a request PSN behind the expected one (go-back-N) */
	__u64 dups; /* a request PSN equal to the previous one */
	/* read responses to this stream's read requests */
	__u64 resp_pkts;
	__u64 resp_gaps;
	__u64 resp_rewinds;
	/* acknowledgements of this stream */
	__u64 acks;
	__u64 naks[ROCEDP_QP_NAK_MAX];
	__u64 cnps; /* CNPs sent back to this stream's sender */
	__u64 ce; /* request frames that left CE (arrived so or marked here) */
	__u64 rtt_min_ns; /* 0 = no sample */
	__u64 rtt_ewma_ns;
	__u64 rtt_samples;
	__u64 unacked_ns; /* oldest request still waiting for an ACK; 0 = none */
	__u64 stalls; /* ACK waits over the stall threshold */
	__u32 next_psn; /* expected request PSN | ROCEDP_QP_PSN_VALID */
	__u32 resp_psn; /* expected read-response PSN | ROCEDP_QP_PSN_VALID */
	__u32 unacked_psn; /* PSN of the request unacked_ns belongs to */
	__u32 flags; /* ROCEDP_QPF_* */
	__u32 in_ifindex; /* port the requests arrive on */
	__u32 out_ifindex; /* port they leave by; 0 = passed to the kernel */
	/* one past the highest PSN seen | ROCEDP_QP_PSN_VALID (gap rules) */
	__u32 high_psn;
	__u32 resp_high_psn; /* the same for read responses */
	__u64 reserved;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_qp_stat) == 8 * 25 + 24 + 16,
		     "qp stat");

/*
 * The table is set associative: a key lives in one of the ROCEDP_QP_WAYS
 * slots of set rocedp_qp_set_of(key), slot index set * ROCEDP_QP_WAYS +
 * way. A new QP takes an empty way, else the way idle longest (oldest
 * last_ns), counted in ROCEDP_CTR_QP_REPLACED. family 0: an empty slot.
 * A slot is five cache lines, the key and the hot counters in the first.
 */
#define ROCEDP_QP_WAYS 2
#define ROCEDP_QP_SETS (ROCEDP_MAX_QPS / ROCEDP_QP_WAYS)
ROCEDP_STATIC_ASSERT(ROCEDP_QP_SETS >= 1 &&
			     !(ROCEDP_QP_SETS & (ROCEDP_QP_SETS - 1)),
		     "ROCEDP_MAX_QPS: a power of two, at least 2");

struct rocedp_qp_slot {
	struct rocedp_qp_key key;
	struct rocedp_qp_stat st;
	__u64 pad[5];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_qp_slot) == 320, "qp slot");

/*
 * The set of (src, dst, dqp): each address's words as stored (network
 * order, IPv4 in [0], the rest 0) xor-folded, each part multiplied by its
 * odd constant (as in bpf/hash.h), then MurmurHash3's finaliser. No seed:
 * readers and tools (tests/qps_fill.py) place and find keys with it.
 */
static inline __u32 rocedp_qp_set_of(const __u32 *src, const __u32 *dst,
				     __u32 dqp)
{
	__u32 h = (src[0] ^ src[1] ^ src[2] ^ src[3]) * 0x9e3779b1u ^
		  (dst[0] ^ dst[1] ^ dst[2] ^ dst[3]) * 0x85ebca77u ^
		  (dqp & ROCEDP_PSN_MASK) * 0x7feb352du;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h & (ROCEDP_QP_SETS - 1);
}

/*
 * rocedp_port_hwm: ARRAY[ROCEDP_PORT_SLOTS] __u64, the ECN virtual queue's
 * high-water mark in bytes since userspace last read it (it reads, then
 * writes 0: a mark raised in between is lost, never invented).
 */

/*
 * rocedp_port_flaps: ARRAY[ROCEDP_PORT_SLOTS], written by userspace only
 * (the link watcher, one writer): carrier changes and when the last few
 * happened, in CLOCK_REALTIME ns.
 */
#define ROCEDP_FLAP_HISTORY 4
struct rocedp_port_flaps {
	__u64 downs;
	__u64 ups;
	__u64 last_ns[ROCEDP_FLAP_HISTORY]; /* ring, newest at (n - 1) % H */
	__u32 n; /* events recorded */
	__u32 pad;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_port_flaps) == 56, "port flaps");

#endif /* ROCEDP_ABI_TELEMETRY_H */
