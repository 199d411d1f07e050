/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * rocedp ABI: every map key/value, enum and limit shared by the BPF programs
 * and userspace. Both sides include this file and nothing else for layouts,
 * so a size change here is caught at compile time on both sides.
 *
 * Limits are overridable at build time (-DROCEDP_MAX_GROUPS=...), as the
 * defaults are sized for a ToR/leaf, not for a large router.
 */
#ifndef ROCEDP_ABI_H
#define ROCEDP_ABI_H

#include <linux/types.h>

#ifndef __cplusplus
#define ROCEDP_STATIC_ASSERT(c, m) _Static_assert(c, m)
#else
#define ROCEDP_STATIC_ASSERT(c, m) static_assert(c, m)
#endif

/* ---------------------------------------------------------------- wire */

#define ROCEDP_ROCEV2_PORT 4791
#define ROCEDP_BTH_LEN 12
#define ROCEDP_AETH_LEN 4
#define ROCEDP_ICRC_LEN 4
#define ROCEDP_CNP_PAYLOAD_LEN 16

/* BTH opcodes the classifier names explicitly (IBTA vol 1, 9.2) */
#define ROCEDP_OP_RC_ACK 0x11
#define ROCEDP_OP_RC_ATOMIC_ACK 0x12
#define ROCEDP_OP_CNP 0x81
#define ROCEDP_OP_RC_READ_RESP_FIRST 0x0d
#define ROCEDP_OP_RC_READ_RESP_MIDDLE 0x0e
#define ROCEDP_OP_RC_READ_RESP_LAST 0x0f
#define ROCEDP_OP_RC_READ_RESP_ONLY 0x10
/* XRC (IBTA vol 1 table 38): 0xA0 + the RC function code */
#define ROCEDP_OP_XRC_BASE 0xa0
#define ROCEDP_OP_XRC_ACK 0xb1
#define ROCEDP_OP_XRC_ATOMIC_ACK 0xb2
#define ROCEDP_XRCETH_LEN 4 /* after the BTH of every XRC request */
/* RC requests the test and tool frame builders send (userspace/lib/frame.h) */
#define ROCEDP_OP_RC_SEND_FIRST 0x00
#define ROCEDP_OP_RC_SEND_ONLY 0x04
#define ROCEDP_OP_RC_SEND_ONLY_IMM 0x05
#define ROCEDP_OP_RC_WRITE_FIRST 0x06
#define ROCEDP_OP_RC_WRITE_MIDDLE 0x07
#define ROCEDP_OP_RC_WRITE_LAST 0x08
#define ROCEDP_OP_RC_WRITE_LAST_IMM 0x09
#define ROCEDP_OP_RC_WRITE_ONLY 0x0a
#define ROCEDP_OP_RC_WRITE_ONLY_IMM 0x0b
#define ROCEDP_RETH_LEN 16

/*
 * The payload-carrying opcodes: RC/XRC requests and read responses, UC
 * sends and RDMA writes, UD sends. Class data (or cts), and the only ones
 * CTS rules are checked on: the classifier and the config check share
 * this one definition.
 */
static inline int rocedp_opcode_is_data(__u8 op)
{
	__u8 fn = op & 0x1f;

	switch (op >> 5) {
	case 0: /* RC */
	case 5: /* XRC: RC's function codes */
		return fn <= 0x10 || fn == 0x13 || fn == 0x14 || fn == 0x16 ||
		       fn == 0x17;
	case 1: /* UC: sends and RDMA writes */
		return fn <= 0x0b;
	case 3: /* UD: send only (with immediate) */
		return fn == 0x04 || fn == 0x05;
	}
	return 0;
}

/* ---------------------------------------------------------------- limits */

#ifndef ROCEDP_MAX_VLAN_TAGS
#define ROCEDP_MAX_VLAN_TAGS 2
#endif
/* IPv6 extension headers walked before giving up (counted as malformed) */
#ifndef ROCEDP_MAX_IPV6_EXT
#define ROCEDP_MAX_IPV6_EXT 4
#endif
#ifndef ROCEDP_MAX_CTS_RULES
#define ROCEDP_MAX_CTS_RULES 16
#endif
#ifndef ROCEDP_MAX_GROUPS
#define ROCEDP_MAX_GROUPS 1024
#endif
#define ROCEDP_MAX_MEMBERS 64 /* per next-hop group, a hard ABI limit */
#ifndef ROCEDP_MAX_ROUTES4
#define ROCEDP_MAX_ROUTES4 131072
#endif
#ifndef ROCEDP_MAX_ROUTES6
#define ROCEDP_MAX_ROUTES6 131072
#endif
#ifndef ROCEDP_MAX_PORTS
#define ROCEDP_MAX_PORTS 512
#endif
/*
 * Per-port stats, settings and state are arrays indexed by ifindex (an
 * inlined lookup, where a hash cost ~9 ns per frame and map); frames of
 * ports with a larger ifindex get no per-port stats, ECN or load estimate
 * and are counted in ROCEDP_CTR_PORT_UNTRACKED instead.
 */
#ifndef ROCEDP_PORT_SLOTS
#define ROCEDP_PORT_SLOTS 1024
#endif
#ifndef ROCEDP_MAX_FLOWLETS
#define ROCEDP_MAX_FLOWLETS 65536
#endif
#ifndef ROCEDP_MAX_RTT_PENDING
#define ROCEDP_MAX_RTT_PENDING 8192
#endif
#define ROCEDP_MEMBER_STATS_ENTRIES (ROCEDP_MAX_GROUPS * ROCEDP_MAX_MEMBERS)
#define ROCEDP_NO_MEMBER 0xffff

#define ROCEDP_PIN_DIR "/sys/fs/bpf/rocedp"

/* ---------------------------------------------------------------- enums */

/* Traffic classes: the classifier's output, the QoS profile's index. */
enum rocedp_class {
	ROCEDP_CLASS_DATA = 0, /* RC/UC/UD requests and read responses */
	ROCEDP_CLASS_ACK, /* ACKNOWLEDGE / ATOMIC ACK with ACK syndrome */
	ROCEDP_CLASS_NAK, /* NAK and RNR NAK */
	ROCEDP_CLASS_CNP,
	ROCEDP_CLASS_CTS, /* matched a CTS rule */
	ROCEDP_CLASS_ROCE_OTHER, /* valid BTH, none of the above */
	ROCEDP_CLASS_IP, /* IP, not RoCEv2 */
	ROCEDP_CLASS_NON_IP,
	ROCEDP_CLASS_MALFORMED,
	ROCEDP_CLASS_MAX,
};

/* Why a frame was malformed; ROCEDP_MAL_NONE for a well-formed one. */
enum rocedp_malformed {
	ROCEDP_MAL_NONE = 0,
	ROCEDP_MAL_TRUNC_ETH,
	ROCEDP_MAL_TRUNC_VLAN,
	ROCEDP_MAL_TOO_MANY_VLAN,
	ROCEDP_MAL_TRUNC_IP4,
	ROCEDP_MAL_BAD_IP_VERSION,
	ROCEDP_MAL_BAD_IHL,
	ROCEDP_MAL_BAD_IP_LEN, /* total/payload length vs frame */
	ROCEDP_MAL_TRUNC_IP6,
	ROCEDP_MAL_TRUNC_EXT,
	ROCEDP_MAL_TOO_MANY_EXT,
	ROCEDP_MAL_TRUNC_UDP,
	ROCEDP_MAL_BAD_UDP_LEN,
	ROCEDP_MAL_TRUNC_BTH,
	ROCEDP_MAL_TRUNC_AETH,
	ROCEDP_MAL_TRUNC_CNP,
	ROCEDP_MAL_BAD_BTH_VERSION, /* TVer != 0 */
	ROCEDP_MAL_NOT_LINEAR, /* a header lies past the linear part */
	ROCEDP_MAL_TRUNC_XRCETH, /* XRC request shorter than its XRCETH */
	ROCEDP_MAL_MAX,
};

/* Why a well-formed frame was handed to the kernel instead of forwarded. */
enum rocedp_pass_reason {
	ROCEDP_PASS_NONE = 0,
	ROCEDP_PASS_NO_FORWARD, /* forwarding feature off (remark-only) */
	ROCEDP_PASS_NON_IP, /* ARP and other ethertypes */
	ROCEDP_PASS_MALFORMED,
	ROCEDP_PASS_VLAN, /* tagged frames are routed by the kernel */
	ROCEDP_PASS_MCAST, /* multicast/broadcast destination */
	ROCEDP_PASS_TTL, /* TTL / hop limit <= 1 */
	ROCEDP_PASS_NO_ROUTE,
	ROCEDP_PASS_LOCAL, /* route says local/kernel */
	ROCEDP_PASS_IP_OPTIONS, /* IPv4 options */
	ROCEDP_PASS_FRAGMENT,
	ROCEDP_PASS_ND, /* ICMPv6 neighbour discovery, link-local */
	ROCEDP_PASS_NO_MEMBER, /* group empty / all members down */
	ROCEDP_PASS_NO_GROUP,
	ROCEDP_PASS_REDIRECT_FAILED,
	ROCEDP_PASS_MARTIAN_SRC, /* source Linux never routes (127/8, ::1, ...) */
	ROCEDP_PASS_MARTIAN_DST, /* destination Linux never routes */
	ROCEDP_PASS_OTHER_HOST, /* unicast MAC not the ingress port's */
	ROCEDP_PASS_GROUP_BUSY, /* group rewritten while read: not trusted */
	ROCEDP_PASS_ROUTE_PENDING, /* a more-specific route is not installed */
	ROCEDP_PASS_MAX,
};

/* The dataplane's decision, independent of the hook. */
enum rocedp_verdict {
	ROCEDP_VERDICT_PASS = 0,
	ROCEDP_VERDICT_DROP,
	ROCEDP_VERDICT_TX,
	ROCEDP_VERDICT_REDIRECT,
	ROCEDP_VERDICT_ABORTED,
	ROCEDP_VERDICT_MAX,
};

/* AETH syndrome decoded (bits 6:5 type, 4:0 value) */
enum rocedp_aeth_kind {
	ROCEDP_AETH_NONE = 0,
	ROCEDP_AETH_ACK,
	ROCEDP_AETH_RNR_NAK,
	ROCEDP_AETH_NAK,
	ROCEDP_AETH_RESERVED,
};

enum rocedp_nak_code {
	ROCEDP_NAK_PSN_SEQ = 0,
	ROCEDP_NAK_INVALID_REQ = 1,
	ROCEDP_NAK_REMOTE_ACCESS = 2,
	ROCEDP_NAK_REMOTE_OP = 3,
	ROCEDP_NAK_INVALID_RD_REQ = 4,
};

enum rocedp_hash_mode {
	ROCEDP_HASH_5TUPLE = 0, /* the Linux kernel's L4 policy */
	ROCEDP_HASH_QP, /* 5-tuple + BTH destination QP */
	ROCEDP_HASH_QP_ONLY, /* addresses + destination QP, no UDP sport */
	ROCEDP_HASH_FLOWLET, /* qp-only key, member held per flowlet */
	ROCEDP_HASH_SPRAY, /* per packet, for comparison only */
	ROCEDP_HASH_MODE_MAX,
};

#define ROCEDP_HASHF_SYMMETRIC (1u << 0)

/* Features, switchable at run time through rocedp_config.features */
#define ROCEDP_F_FORWARD (1u << 0)
#define ROCEDP_F_REMARK (1u << 1)
#define ROCEDP_F_FLOWLET (1u << 2)
#define ROCEDP_F_ECN (1u << 3)
#define ROCEDP_F_ALL \
	(ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_FLOWLET | ROCEDP_F_ECN)

/* How a new flowlet picks its member */
enum rocedp_flowlet_choice {
	ROCEDP_FLOWLET_LEAST_LOADED = 0, /* CONGA-like, ties broken by hash */
	ROCEDP_FLOWLET_RANDOM, /* LetFlow-like */
	ROCEDP_FLOWLET_HASH, /* keep the qp-only hash member */
};

#define ROCEDP_FLOWLETF_AUTO_GAP (1u << 0) /* gap follows measured RTT/2 */

/* ---------------------------------------------------------------- counters */

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

/* ---------------------------------------------------------------- maps */

/* rocedp_config: ARRAY[1]. Runtime switch-wide settings. */
struct rocedp_config {
	__u32 features; /* ROCEDP_F_* */
	__u32 hash_mode; /* enum rocedp_hash_mode */
	__u32 hash_seed; /* per switch, so tiers do not polarise */
	__u32 hash_flags; /* ROCEDP_HASHF_* */
	__u32 flowlet_rtt_us; /* default RTT; gap = rtt / 2 */
	__u32 flowlet_gap_min_us;
	__u32 flowlet_gap_max_us;
	__u32 flowlet_flags; /* ROCEDP_FLOWLETF_* */
	__u32 flowlet_choice; /* enum rocedp_flowlet_choice */
	__u32 load_tau_us; /* DRE time constant */
	__u32 rtt_ewma_shift; /* RTT EWMA weight 1/2^shift */
	__u32 ecn_class_optout; /* bitmask of 1 << enum rocedp_class */
	__u32 n_cts_rules; /* number of live rules (what the CLI shows) */
	__u32 cts_live; /* ROCEDP_CTS_LIVE(bank, n): what the classifier reads */
	__u32 fib_gen; /* bumped by a config load/set that wrote routes or
			* groups: rocedp sync re-reads the maps before its next
			* write (it never sees the config's writes otherwise) */
	__u32 qp_stall_us; /* telemetry: an ACK wait this long is a stall;
			    * 0 = ROCEDP_DEFAULT_QP_STALL_US */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_config) == 64, "rocedp_config");

#define ROCEDP_DEFAULT_RTT_US 22 /* Meta's unloaded fabric RTT */
#define ROCEDP_DEFAULT_GAP_MIN_US 2
#define ROCEDP_DEFAULT_GAP_MAX_US 2047 /* SONiC flowlet_idle_time max */
#define ROCEDP_DEFAULT_LOAD_TAU_US \
	10 /* about the flowlet gap: see docs/flowlet.md */
#define ROCEDP_DEFAULT_RTT_EWMA_SHIFT 3

/*
 * rocedp_cts_rules: ARRAY[ROCEDP_CTS_SLOTS], two banks of
 * ROCEDP_MAX_CTS_RULES. Rule i of the live list is slot
 * bank * ROCEDP_MAX_CTS_RULES + i; a writer fills the other bank, then
 * flips to it with one rocedp_config update. Bank and count are one 32-bit
 * word, cts_live, as an array value is copied without a lock: two fields
 * could be read half updated, one aligned word cannot. So readers see the
 * old list or the new one, never a mix. rocedp_cts_stats stays indexed by
 * list position.
 * First match wins. CTS is no IBTA opcode: collective libraries send it
 * as a small SEND or RDMA WRITE on known QPs, so a rule matches on opcode
 * set, QP range, payload length and optional prefixes.
 */
#define ROCEDP_CTS_SLOTS (2 * ROCEDP_MAX_CTS_RULES)
#define ROCEDP_CTS_LIVE(bank, n) ((__u32)(bank) << 16 | (n))
#define ROCEDP_CTS_LIVE_BANK(v) (((v) >> 16) & 1)
#define ROCEDP_CTS_LIVE_N(v) ((v)&0xffff)
#define ROCEDP_CTSF_SRC_PREFIX (1u << 0)
#define ROCEDP_CTSF_DST_PREFIX (1u << 1)
#define ROCEDP_CTSF_IPV6 (1u << 2) /* prefixes are IPv6 */

struct rocedp_cts_rule {
	__u64 opcode_bitmap[4]; /* bit n set: BTH opcode n matches */
	__u32 qp_min; /* destination QP range, inclusive */
	__u32 qp_max;
	__u32 max_payload; /* BTH payload bytes (without ICRC) */
	__u32 flags; /* ROCEDP_CTSF_* */
	__u32 src_addr[4]; /* network order; IPv4 uses [0] */
	__u32 dst_addr[4];
	__u8 src_plen;
	__u8 dst_plen;
	__u8 pad[6];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_cts_rule) == 88, "cts rule");

/* rocedp_qos: ARRAY[ROCEDP_CLASS_MAX]. Per-class remark action. */
enum rocedp_qos_action {
	ROCEDP_QOS_LEAVE = 0,
	ROCEDP_QOS_SET_DSCP,
};

struct rocedp_qos {
	__u8 action; /* enum rocedp_qos_action */
	__u8 dscp; /* 0..63 */
	__u8 set_pcp; /* also rewrite the outer 802.1p PCP if tagged */
	__u8 pcp; /* 0..7 */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_qos) == 4, "qos");

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
 * live bank. The one writer (userspace/lib/groupw.c) writes the bank that is
 * not live, then stores the next word; a reader takes the word, reads that
 * bank, copies out what it needs and re-reads the word: changed, it passes
 * the frame (ROCEDP_PASS_GROUP_BUSY) instead of trusting what it read.
 */
#define ROCEDP_GROUP_LIVE_PRESENT (1u << 31)
#define ROCEDP_GROUP_LIVE_SEQ(v) ((v) & ~ROCEDP_GROUP_LIVE_PRESENT)
#define ROCEDP_GROUP_LIVE_BANK(v) ((v)&1u)
#define ROCEDP_GROUP_BANKS (2 * ROCEDP_MAX_GROUPS)

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
	__u8 pad[3];
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

/* rocedp_cts_stats: PERCPU_ARRAY[ROCEDP_MAX_CTS_RULES] of __u64 hits */

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

#define ROCEDP_DEFAULT_KMIN_BYTES (100 * 1024) /* HPCC-derived presets, 25G */
#define ROCEDP_DEFAULT_KMAX_BYTES (400 * 1024)
#define ROCEDP_DEFAULT_PMAX_PERCENT 20

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
	__u64 reserved1;
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
 * gets it, as its IP layer drops PACKET_OTHERHOST. No MAC set (offline
 * replay, a port not attached): no check.
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

/*
 * rocedp_rtt_pending: LRU_HASH (requester, responder, PSN) -> one slot per
 * responder QP with a request pending at that PSN. A request names the
 * responder's QP, its ACK only the requester's, and NCCL starts every QP
 * at PSN 0: the ACK is matched through a learned QP pairing
 * (rocedp_rtt_pairs), or by elimination when only one slot can be its;
 * otherwise no sample is taken (docs/flowlet.md, "Auto RTT").
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
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_rtt_pending) == 72, "rtt pend");

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

/* ---------------------------------------------------------------- telemetry */

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

/* ---------------------------------------------------------------- ECN kfunc */

/*
 * Thresholds handed out by the rocedp_ecn module's kfunc
 * rocedp_ecn_thresholds(profile) packed in one u64 so that the kfunc takes
 * and returns scalars only (works unchanged on 6.1):
 *   bits 0..27 kmin bytes, 28..55 kmax bytes (so at most 256 MiB, more
 *   than any switch buffer), 56..62 pmax percent, bit 63 valid.
 *   0 means "no such profile".
 */
#define ROCEDP_ECN_PACK(kmin, kmax, pmax)              \
	((1ull << 63) | ((__u64)((pmax)&0x7f) << 56) | \
	 ((__u64)((kmax)&0xfffffff) << 28) | ((__u64)((kmin)&0xfffffff)))
#define ROCEDP_ECN_VALID(v) (((v) >> 63) & 1)
#define ROCEDP_ECN_KMIN(v) ((__u32)((v)&0xfffffff))
#define ROCEDP_ECN_KMAX(v) ((__u32)(((v) >> 28) & 0xfffffff))
#define ROCEDP_ECN_PMAX(v) ((__u32)(((v) >> 56) & 0x7f))
#define ROCEDP_ECN_MAX_PROFILES 8
#define ROCEDP_ECN_MAX_BYTES 0xfffffff

#endif /* ROCEDP_ABI_H */
