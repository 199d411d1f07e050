/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Forwarding: route tries, next-hop groups, their members and buckets.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_FWD_H
#define ROCEDP_ABI_FWD_H

#include "abi_base.h"

/* rocedp_routes4 / rocedp_routes6: LPM_TRIE. */
struct rocedp_route4_key {
	__u32 prefixlen;
	__u32 addr; /* network order */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_route4_key) == 8, "route4 key");

struct rocedp_route6_key {
	__u32 prefixlen;
	__u8 addr[16];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_route6_key) == 20, "route6 key");

#define ROCEDP_ROUTEF_LOCAL (1u << 0) /* deliver to the kernel */
#define ROCEDP_ROUTEF_STATIC (1u << 1) /* from the config file */
/*
 * A more-specific route under this one could not be written (ENOSPC,
 * ENOMEM): the dataplane passes what it matches to the kernel, which
 * knows the route, until the writer lands it (docs/maps.md, Full tries).
 */
#define ROCEDP_ROUTEF_KERNEL (1u << 2)

struct rocedp_route {
	__u32 group_id; /* key into rocedp_groups */
	__u32 flags; /* ROCEDP_ROUTEF_* */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_route) == 8, "route");

/*
 * rocedp_groups: HASH u32 group id (< ROCEDP_MAX_GROUPS) -> group, the
 * control plane's record (stats, config show, sync, bpftool read it). The
 * dataplane never reads it: a HASH update recycles the old element at once
 * while an XDP run may still read it. It reads rocedp_group_banks instead:
 * ARRAY[2 * ROCEDP_MAX_GROUPS], bank b of group id at b * MAX_GROUPS + id,
 * and rocedp_group_live: ARRAY[ROCEDP_MAX_GROUPS] of one __u32 word per
 * group, ROCEDP_GROUP_LIVE: present bit and a sequence whose low bit is the
 * live bank. The one writer (userspace/lib/fib/groupw.c) writes the bank that is
 * not live, then stores the next word; a reader takes the word, reads that
 * bank, copies out what it needs and re-reads the word: changed, it passes
 * the frame (ROCEDP_PASS_GROUP_BUSY) instead of trusting what it read.
 */
#define ROCEDP_GROUP_LIVE_PRESENT (1u << 31)
#define ROCEDP_GROUP_LIVE_SEQ(v) ((v) & ~ROCEDP_GROUP_LIVE_PRESENT)
#define ROCEDP_GROUP_LIVE_BANK(v) ((v)&1u)
#define ROCEDP_GROUP_BANKS (2 * ROCEDP_MAX_GROUPS)

/*
 * rd_route_gen: ARRAY[1] of one __u32, mmapped by its one writer
 * (userspace/lib/fib/routew.c): a count that every route write moves, which
 * the decision cache checks its entries against (bpf/fwdcache.h), and in
 * the top bit the writers' mark: set only while every route writer of the
 * pin directory is one that moves the count. A sync from before the cache
 * writes routes without it; with the mark clear the dataplane uses no
 * cache at all. Setting or clearing the mark moves the count too, so no
 * entry made before is trusted after.
 */
#define ROCEDP_ROUTE_GEN_MARK (1u << 31)

/*
 * members[] are stable slots (per-member counters are keyed by slot);
 * active[0..n_active) lists the slots eligible now (the least-loaded scan
 * walks it). The member of a hash is one array index: bucket
 * (hash * n_buckets) >> 32 of buckets[], which names a slot (resilient
 * hashing: a member going down hands over only its own buckets; see
 * docs/sync.md, Resilient groups). Userspace fills the table, either as a
 * pure function of members, weights and states (rd_buckets_build) or from
 * the kernel's own table for NHA_RES_GROUP groups (bucket_src KERNEL).
 */
#define ROCEDP_MEMBERF_UP (1u << 0) /* link up */
#define ROCEDP_MEMBERF_RESOLVED (1u << 1) /* neighbour MAC known */
#define ROCEDP_MEMBERF_STATIC (1u << 2)

struct rocedp_member {
	__u32 ifindex; /* egress */
	__u8 smac[6];
	__u8 dmac[6];
	__u16 weight;
	__u16 flags; /* ROCEDP_MEMBERF_* */
	__u32 nh_addr[4]; /* gateway, network order; IPv4 uses [0] */
	__u8 nh_family; /* AF_INET / AF_INET6 */
	__u8 pad;
	/*
	 * Drained (weight 0 with this set): the weight the bucket table keeps
	 * laying the member out with, so a drain moves only its own buckets,
	 * like a member that is down (userspace only; 0 = not drained).
	 */
	__u16 drain_weight;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_member) == 40, "member");

/*
 * Bucket table size per group: ROCEDP_DEFAULT_BUCKETS unless the config
 * (groups[].buckets) or the kernel's resilient group says otherwise, at most
 * ROCEDP_MAX_BUCKETS (a power of two: the index mask restates the bound).
 */
#define ROCEDP_MAX_BUCKETS 1024
#define ROCEDP_DEFAULT_BUCKETS 128 /* docs/config.md: why 128 */
#define ROCEDP_BUCKET_NONE 0xff /* no usable member */
#define ROCEDP_BUCKETS_OWN 0 /* bucket_src: rd_buckets_build's table */
#define ROCEDP_BUCKETS_KERNEL 1 /* mirrors a kernel NHA_RES_GROUP table */

struct rocedp_group {
	__u16 n_members; /* configured slots [0, n_members) */
	__u16 n_active;
	__u32 total_weight; /* of active members */
	__u32 rtt_us; /* flowlet RTT override, 0 = config default */
	__u32 flags;
	__u16 n_buckets; /* 1..ROCEDP_MAX_BUCKETS */
	__u8 bucket_src; /* ROCEDP_BUCKETS_* */
	__u8 pad;
	__u8 active[ROCEDP_MAX_MEMBERS]; /* slot indices */
	struct rocedp_member members[ROCEDP_MAX_MEMBERS];
	__u8 buckets[ROCEDP_MAX_BUCKETS]; /* slot, or ROCEDP_BUCKET_NONE */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_group) ==
			     16 + 4 + 64 + 40 * 64 + ROCEDP_MAX_BUCKETS,
		     "group");
ROCEDP_STATIC_ASSERT((ROCEDP_MAX_BUCKETS & (ROCEDP_MAX_BUCKETS - 1)) == 0,
		     "buckets: a power of two");

/* rocedp_member_stats: PERCPU_ARRAY[group * ROCEDP_MAX_MEMBERS + slot] */
struct rocedp_member_stats {
	__u64 pkts;
	__u64 bytes;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_member_stats) == 16, "mstats");

#endif /* ROCEDP_ABI_FWD_H */
