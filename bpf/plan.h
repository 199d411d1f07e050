/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The plan: what the out-of-line decisions want done to a frame, and what
 * the accounting step needs. Filled from scalars, applied in one place.
 */
#ifndef ROCEDP_PLAN_H
#define ROCEDP_PLAN_H

#include <linux/if_ether.h>
#include <linux/types.h>

struct rd_fc_ent;

#define RD_VQ_INGRESS 1 /* in, XDP hook: queue, RED and admission here */
#define RD_VQ_TRIMMED 2 /* out: admission cut the frame (trim.h) */
#define RD_VQ_ASK 4 /* express copy: rd_ingress_admit decides (core.h) */

struct rd_plan {
	__u64 now;
	__u32 in_ifindex;
	__u32 egress_ifindex; /* 0 = not forwarded */
	__u32 group_id;
	__u32 pass; /* enum rocedp_pass_reason, 0 = none */
	__u8 verdict; /* enum rocedp_verdict */
	/*
	 * Counters the decisions leave to rd_account (a ROCEDP_CTR_* index,
	 * 0 = none), which adds them to the frame's one counter block: a
	 * block lookup of their own each cost the express path two per-CPU
	 * lookups a frame. The word verdict held before: no stack added.
	 */
	__u8 ctr_remark; /* remarked, or already right */
	__u8 ctr_ecn; /* RED's threshold source, or the class opted out */
	__u8 spare;
	__u16 slot;
	__u8 tos_out; /* TOS to write; equal to the flow's when unchanged */
	__u8 pcp; /* outer PCP to write, 0xff = leave */
	/*
	 * The frame's order, 8-aligned: rd_write_fwd moves both MACs as one
	 * 64-bit and one 32-bit word (a byte-wise copy was 24 instructions).
	 */
	__u8 dmac[ETH_ALEN];
	__u8 smac[ETH_ALEN];
	__u8 rewrite_l2; /* forwarded: MACs and TTL / hop limit */
	__u8 ingress; /* 1: ingress pipeline (rx, fwd counters) */
	__u8 vq; /* RD_VQ_*: the virtual queue's in and out flags */
	__u8 strip_tag; /* forwarded with a priority tag: send it untagged */
	__u8 redirected; /* XDP: bpf_redirect_map done, the verdict stands */
	__u8 from_cache; /* route (member too without flowlets) from the cache */
	/*
	 * The forwarding settings, read from rd_config once a frame
	 * (rd_plan_settings): the route, the member and the decision cache's
	 * fill all use this copy, so a writer changing them mid-frame cannot
	 * file a decision under settings it was not made with.
	 */
	__u8 hash_mode;
	__u8 flowlets; /* rd_flowlets_on */
	__u32 hash_seed;
	__u32 hash_flags;
	__u32 group_seq; /* the group's live word its member was read under */
	struct rd_fc_ent *fc; /* that cache's entry when it holds this flow */
};

_Static_assert(__builtin_offsetof(struct rd_plan, dmac) % 8 == 0 &&
		       __builtin_offsetof(struct rd_plan, smac) ==
			       __builtin_offsetof(struct rd_plan, dmac) +
				       ETH_ALEN,
	       "rd_plan MACs: one 8-aligned run, frame order");

#endif
