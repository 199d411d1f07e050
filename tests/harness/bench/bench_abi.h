/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The reference forwarders' tables (empty.bpf.c), shared with rdbench,
 * which fills them: one definition for both sides, as rocedp_abi.h is for
 * rocedp's own maps.
 */
#ifndef ROCEDP_BENCH_ABI_H
#define ROCEDP_BENCH_ABI_H

#include <linux/types.h>
#include <linux/if_ether.h>

#define REF_FWD_MEMBERS 4 /* per group */
#define REF_FWD_GROUPS 16
#define REF_FWD_SLOTS (REF_FWD_GROUPS * REF_FWD_MEMBERS)

struct ref_fwd_member {
	__u32 ifindex;
	__u8 smac[ETH_ALEN];
	__u8 dmac[ETH_ALEN];
};

/* the bare default forwarder's classes: its ref_dscp index */
enum ref_class { REF_CLASS_DATA, REF_CLASS_ACK, REF_CLASS_CNP, REF_CLASSES };
#define REF_DSCP_LEAVE 0xff

/* a port's RED settings and virtual queue, one line */
struct ref_port {
	__u64 vq_bytes;
	__u64 last_ns;
	__u64 drain_fp; /* bytes per ns << ROCEDP_VQ_DRAIN_SHIFT, as rocedp */
	__u32 pending;
	__u32 kmin;
	__u32 kmax;
	__u32 pmax; /* percent */
};
_Static_assert(sizeof(struct ref_port) == 40, "one ref_port in a line");

#endif
