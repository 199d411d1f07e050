/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Packet trimming (SAI 1.14, SONiC's SWITCH_TRIMMING): what an egress port
 * does with a frame its buffer cannot take, and the SAI port counters of
 * it. The buffer is the port's ECN virtual queue capped at
 * rocedp_port_cfg.buffer_bytes (docs/trim.md).
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_TRIM_H
#define ROCEDP_ABI_TRIM_H

#include "abi_base.h"

/* SAI's packet admission fail action, per port */
enum rocedp_discard_action {
	ROCEDP_DISCARD_NONE =
		0, /* no admission: the queue saturates (RED only) */
	ROCEDP_DISCARD_DROP, /* tail drop */
	ROCEDP_DISCARD_TRIM, /* cut eligible frames to size, drop the rest */
	ROCEDP_DISCARD_MAX,
};

#define ROCEDP_TRIM_DSCP_FROM_TC 0xff /* keep the class's DSCP */
#define ROCEDP_TRIM_SIZE_DEFAULT 128 /* SAI 1.14's default */
#define ROCEDP_TRIM_SIZE_MIN 64 /* Ethernet, IPv6 and UDP headers fit */
#define ROCEDP_TRIM_SIZE_MAX 4096

/*
 * rd_trim_ports: ARRAY[ROCEDP_PORT_SLOTS], egress ifindex -> its discard
 * action (one writer: userspace/lib/config/trim.c). dscp is resolved per
 * port by userspace, so a port toward hosts and one toward the fabric may
 * differ (SAI's asymmetric trim DSCP).
 */
struct rocedp_trim_port {
	__u64 eligible_dscp; /* bit d: a frame with DSCP d may be cut */
	__u16 size; /* a cut frame's length from its Ethernet header */
	__u8 action; /* enum rocedp_discard_action */
	__u8 dscp; /* DSCP of a cut frame, or ROCEDP_TRIM_DSCP_FROM_TC */
	__u32 reserved;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_trim_port) == 16, "trim port");

/* rd_trim_stats: PERCPU_ARRAY[ROCEDP_PORT_SLOTS], egress ifindex -> */
struct rocedp_trim_stats {
	__u64 trim_pkts; /* SAI_PORT_STAT_TRIM_PACKETS: frames the trim took */
	__u64 tx_trim_pkts; /* SAI_PORT_STAT_TX_TRIM_PACKETS: sent cut */
	__u64 dropped_trim_pkts; /* SAI_PORT_STAT_DROPPED_TRIM_PACKETS */
	__u64 tail_drop_pkts; /* refused, not cut (drop action or ineligible) */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_trim_stats) == 32, "trim stats");

#endif /* ROCEDP_ABI_TRIM_H */
