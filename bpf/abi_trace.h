/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Replay and test maps: the per-frame trace and the injected clock.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_TRACE_H
#define ROCEDP_ABI_TRACE_H

#include "abi_verdict.h"

/* rocedp_clock: ARRAY[1] __u64 ns, read when cfg_clock_from_map is set. */

/*
 * rocedp_trace: ARRAY[1], written for every frame when cfg_trace is set
 * (replay and tests only; the live loader never sets it).
 */
struct rocedp_trace {
	__u32 verdict; /* enum rocedp_verdict */
	__u32 cls; /* enum rocedp_class */
	__u32 malformed; /* enum rocedp_malformed */
	__u32 pass_reason; /* enum rocedp_pass_reason */
	__u32 egress_ifindex; /* 0 = none */
	__u32 group_id;
	__u16 member; /* slot, ROCEDP_NO_MEMBER = none */
	__u8 dscp_in;
	__u8 dscp_out;
	__u8 ecn_in;
	__u8 ecn_out;
	__u8 bth_opcode;
	__u8 aeth_kind; /* enum rocedp_aeth_kind */
	__u32 dest_qp;
	__u32 psn;
	__u32 hash;
	__u8 aeth_code; /* syndrome low 5 bits */
	__u8 cts_rule; /* 0xff = none */
	__u8 is_roce;
	__u8 ack_req;
	__u32 vlan_tags;
	__u64 now_ns;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_trace) == 64, "trace");

#endif /* ROCEDP_ABI_TRACE_H */
