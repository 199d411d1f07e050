/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The flowlet table: flow key, record, set-associative layout, shadow.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_FLOWLET_H
#define ROCEDP_ABI_FLOWLET_H

#include "abi_base.h"

/*
 * rocedp_flowlets: flow -> flowlet, a set-associative ARRAY (below). RoCE
 * flows are keyed on addresses + destination QP (the NIC-chosen UDP
 * source port is ignored); other IP flows on their 5-tuple.
 */
struct rocedp_flow_key {
	__u32 src[4];
	__u32 dst[4];
	__u32 l4; /* RoCE: destination QP; else sport << 16 | dport */
	__u8 proto; /* IPPROTO_UDP etc., 0xff marks RoCE */
	__u8 family;
	__u16 pad;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_flow_key) == 40, "flow key");
#define ROCEDP_FLOW_PROTO_ROCE 0xff

struct rocedp_flowlet {
	__u64 last_ns; /* last frame seen */
	__u64 flowlets; /* flowlets started */
	__u64 pkts;
	__u64 moves; /* flowlets that changed member */
	__u32 group_id;
	__u16 slot; /* current member slot (copy of claim's, for userspace) */
	__u16 pad;
	__u64 first_ns;
	/*
	 * Flowlet start (ns mod 2^48) << 16 | slot: a new flowlet is claimed
	 * by compare-and-swap on this word, so CPUs that both saw the gap
	 * expire agree on one member (the loser takes the winner's).
	 */
	__u64 claim;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_flowlet) == 56, "flowlet");

/*
 * The table: ARRAY[ROCEDP_FLOWLET_SETS] of sets of ROCEDP_FLOWLET_WAYS
 * ways, a flow in one way of set rocedp_flow_set_of(key), its key stored
 * and compared in place. The key's last 8 bytes (l4, proto, family, pad)
 * are the way's tag: 0 = empty, ROCEDP_FLOWLET_TAG_BUSY = being written
 * (family 0: neither matches a key); the tag is stored last, after the
 * key and the record (docs/flowlet.md, "Table"). A new flow takes an
 * empty way, else the one idle longest (ROCEDP_CTR_FLOWLET_REPLACED).
 */
#define ROCEDP_FLOWLET_WAYS 4
#define ROCEDP_FLOWLET_SETS (ROCEDP_MAX_FLOWLETS / ROCEDP_FLOWLET_WAYS)
ROCEDP_STATIC_ASSERT(ROCEDP_FLOWLET_SETS >= 1 &&
			     !(ROCEDP_FLOWLET_SETS & (ROCEDP_FLOWLET_SETS - 1)),
		     "ROCEDP_MAX_FLOWLETS: a power of two, at least 4");
#define ROCEDP_FLOWLET_TAG_BUSY (0xffffull << 48) /* pad 0xffff, family 0 */

struct rocedp_flowlet_way {
	struct rocedp_flow_key key;
	struct rocedp_flowlet fl;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_flowlet_way) == 96, "flowlet way");

struct rocedp_flowlet_set {
	struct rocedp_flowlet_way way[ROCEDP_FLOWLET_WAYS];
};

/*
 * The set of a key, from its five 64-bit words as stored (w4 the tag):
 * multiply-xor, then MurmurHash3's 64-bit finaliser. No seed: readers
 * and tests place and find keys with it. Not the frame's flow hash: with
 * hash mode 5tuple or qp that includes the RoCE UDP source port, which
 * the key leaves out, and one flow could land in two sets.
 */
static inline __u32 rocedp_flow_set_of(__u64 w0, __u64 w1, __u64 w2, __u64 w3,
				       __u64 w4)
{
	__u64 h = (w0 ^ w1) * 0x9e3779b97f4a7c15ull ^
		  (w2 ^ w3) * 0xc2b2ae3d27d4eb4full ^
		  w4 * 0x165667b19e3779f9ull;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (__u32)h & (ROCEDP_FLOWLET_SETS - 1);
}

/*
 * rocedp_flowlet_shadow: ARRAY[ROCEDP_FLOWLET_SHADOW], by flow hash: the
 * member a flow's last flowlet took. A new flow can replace a live
 * flow's way; if that flow returns while its record is still here, it keeps
 * that member instead of moving inside its gap (ROCEDP_CTR_FLOWLET_EVICT_KEPT).
 * 8 bytes, written as one word; 4 records per table entry, so a record
 * outlives the table's churn (docs/flowlet.md gives the odds).
 */
struct rocedp_flowlet_shadow {
	__u32 hash; /* the flow hash: the tag; 0 = empty */
	__u16 group; /* group id, low 16 bits */
	__u16 slot;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_flowlet_shadow) == 8, "shadow");
#define ROCEDP_FLOWLET_SHADOW (4 * ROCEDP_MAX_FLOWLETS) /* power of two */

#endif /* ROCEDP_ABI_FLOWLET_H */
