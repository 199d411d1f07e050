/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Per-port maps: settings, the ECN virtual queue, load estimate, own MAC,
 * counters.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_PORT_H
#define ROCEDP_ABI_PORT_H

#include "abi_verdict.h"
#include "abi_ecn.h"

/*
 * rocedp_port_cfg: HASH ifindex -> per egress port settings (userspace
 * writes). ECN thresholds here are the map fallback used when the rocedp_ecn
 * kernel module is not loaded.
 */
struct rocedp_port_cfg {
	__u64 rate_bps; /* virtual queue drain rate; 0 = no virtual queue */
	__u32 kmin_bytes;
	__u32 kmax_bytes;
	__u32 pmax_percent; /* 0..100 */
	__u32 ecn_profile; /* module profile index */
	__u32 flags;
	__u32 buffer_bytes; /* virtual queue cap; 0 = ROCEDP_VQ_CAP_KMAX x kmax */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_port_cfg) == 32, "port cfg");

/* Hold the queue estimate at rocedp_port_state.vq_bytes: a reference-model
 * knob for "what does RED do at depth D", used by the marking tests. */
#define ROCEDP_PORTF_HOLD_QUEUE (1u << 0)
/*
 * Read the clock for every frame that joins the virtual queue (a
 * reference-model knob): without it, frames that leave the queue far below
 * Kmin share one clock reading, see ROCEDP_VQ_DEFER_SHIFT.
 */
#define ROCEDP_PORTF_EXACT_CLOCK (1u << 1)
/*
 * The port has a discard action (rd_trim_ports): a frame the buffer
 * (buffer_bytes) cannot hold is dropped or cut instead of joining it.
 */
#define ROCEDP_PORTF_ADMIT (1u << 2)

/* ROCEDP_DEFAULT_KMIN_BYTES etc.: abi_ecn.h, shared with the module */

/*
 * rocedp_port_state: ARRAY ifindex -> dataplane-owned per-port state.
 * vq_drain_fp caches what would otherwise take a 64-bit divide per frame
 * (tens of cycles on a switch CPU); any value is safe there: a wrong one
 * is detected and recomputed. The reserved words held the load estimate
 * (now rd_port_load); a pin from before may still hold its values.
 */
struct rocedp_port_state {
	__u64 vq_bytes; /* virtual queue occupancy */
	__u64 vq_last_ns;
	__u64 reserved0[2];
	__u64 rtt_ewma_ns; /* 0 = no sample yet */
	__u32 rtt_samples;
	/*
	 * Bytes of frames that joined the queue without a clock read while it
	 * stayed far below Kmin: they count as arriving at the next reading
	 * (ROCEDP_VQ_DEFER_SHIFT). The queue estimate is vq_bytes + vq_pending.
	 */
	__u32 vq_pending;
	__u64 vq_drain_fp; /* drain, bytes per ns << ROCEDP_VQ_DRAIN_SHIFT */
	__u64 vq_over_q; /* the queue a frame too big for the buffer found */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_port_state) == 64, "port state");

/*
 * rocedp_port_load: PERCPU_ARRAY ifindex -> this CPU's load estimate of
 * the port (CONGA's DRE), for the least-loaded flowlet choice. Per CPU
 * because every frame sent updates it and every flowlet start reads all
 * of a group's members: one shared copy moved between CPUs on nearly
 * every frame, and two CPUs forwarded flowlets 1.2x what one did. Each
 * CPU balances what it forwards, blind to the others' bytes (RSS gives
 * each CPU flows of its own; the price: docs/flowlet.md, "Load").
 * dre_next_ns caches the next tick's start, which would take a divide
 * per frame.
 */
struct rocedp_port_load {
	__u64 dre_bytes; /* discounted bytes sent */
	__u64 dre_tick; /* the last update's tick: its time / dre_step_ns */
	__u64 dre_next_ns; /* when the tick after dre_tick starts */
	__u64 dre_step_ns; /* the tick's length then, tau / 8 */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_port_load) == 32, "port load");

/*
 * Drain rates above this (about 1.1 Tbit/s) count as this: no overflow.
 * The CLI and config accept up to ROCEDP_VQ_MAX_RATE_MBPS, below it.
 */
#define ROCEDP_VQ_MAX_RATE_BPS (1ull << 40)
#define ROCEDP_VQ_MAX_RATE_MBPS 1000000 /* 1 Tbit/s */
/*
 * Fraction bits of the drain multiplier: the largest idle times the largest
 * rate's multiplier stays below 2^64, and the drain is exact to 1 byte per
 * 134 ms of idle (8 bytes at the longest idle).
 */
#define ROCEDP_VQ_DRAIN_SHIFT 26
#define ROCEDP_VQ_DRAIN_FP_MAX (1ull << 34) /* above the largest rate's */
/*
 * The virtual queue cannot outgrow the port's buffer: it is capped at
 * rocedp_port_cfg.buffer_bytes, or without one at this many times the
 * map's Kmax (at and above Kmax RED marks every frame anyway; the cap only
 * keeps a burst from leaving a queue that takes seconds to drain).
 */
#define ROCEDP_VQ_CAP_KMAX 4
/*
 * A clock read costs about 30 ns in a VM, a third of a forwarded frame.
 * While the queue estimate with this frame stays below Kmin, and the bytes
 * waiting for a clock reading stay at most Kmin >> this, a frame joins the
 * queue without one: RED cannot mark it whatever the time, so its decision
 * is the exact one. The waiting bytes count as arriving at the next
 * reading, which drains them less than their real arrival would: the
 * estimate is high by at most Kmin / 8, never low (marks come early,
 * never late). docs/design.md, "Time".
 */
#define ROCEDP_VQ_DEFER_SHIFT 3
/* An idle of this long (about 1.07 s) counts as this long. */
#define ROCEDP_VQ_MAX_IDLE_NS (1ull << 30)

/*
 * rocedp_port_l2: ARRAY[ROCEDP_PORT_SLOTS], ingress ifindex -> the port's
 * own MAC, written by attach (one writer). A unicast frame to another MAC
 * is another host's (a promiscuous or bridged port sees them): the kernel
 * gets it, as its IP layer drops PACKET_OTHERHOST. Offline, replay sets
 * a port's MAC from the config's members' smac. No MAC set (a port not
 * attached, or one the config names no MAC for): no check.
 */
#define ROCEDP_PORTL2F_MAC (1u << 0) /* mac is the port's */

struct rocedp_port_l2 {
	__u8 mac[6];
	__u16 flags; /* ROCEDP_PORTL2F_* */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_port_l2) == 8, "port l2");

/* rocedp_port_stats: PERCPU_ARRAY[ROCEDP_PORT_SLOTS], ifindex -> counters */
struct rocedp_port_stats {
	__u64 rx_pkts;
	__u64 rx_bytes;
	__u64 tx_pkts;
	__u64 tx_bytes;
	__u64 ecn_marked;
	__u64 ecn_would_mark;
	__u64 ecn_marked_bytes; /* whole frames, as rx/tx_bytes */
	__u64 rx_class[ROCEDP_CLASS_MAX]; /* frames in, by class */
	__u64 tx_class[ROCEDP_CLASS_MAX]; /* frames out, by class */
	/* of rx_pkts, group-addressed (SONiC's IF_IN_NON_UCAST split);
	 * rocedp never forwards those, so tx has no such split */
	__u64 rx_mcast;
	__u64 rx_bcast;
	__u64 tx_roce_bytes; /* of tx_bytes, RoCE classes (DATA..ROCE_OTHER) */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_port_stats) ==
			     80 + 16 * ROCEDP_CLASS_MAX,
		     "port stats");

#endif /* ROCEDP_ABI_PORT_H */
