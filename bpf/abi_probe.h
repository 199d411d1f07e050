/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Path-quality probes (HULA-style): the probe's wire format, the probe
 * settings, the per-port probe role, the path-quality table and the probe
 * counters. docs/paths.md describes them.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_PROBE_H
#define ROCEDP_ABI_PROBE_H

#include "abi_base.h"

/*
 * The probe: an IPv4 UDP datagram to rocedp_probe_cfg.udp_port whose
 * payload is this, every field in network order. auth is SipHash-2-4
 * (probe_auth.h) under the fabric's 128-bit key of bytes 0..23, so a spine
 * that stamps band and hops writes a new one, and a frame from anyone
 * without the key is refused.
 */
#define ROCEDP_PROBE_MAGIC 0x5250 /* "RP" */
#define ROCEDP_PROBE_VERSION 1
#define ROCEDP_PROBE_DEFAULT_PORT 47000
#define ROCEDP_PROBE_BANDS 8 /* band 0 (idle) .. 7 (full) */
#define ROCEDP_PROBE_BAND_FAILED 8 /* what a timed-out entry counts as */
#define ROCEDP_PROBE_DEFAULT_MAX_HOPS 4
#define ROCEDP_PROBE_DEFAULT_TIMEOUT_US 50000 /* well under BGP's 3 s */
#define ROCEDP_PROBE_DEFAULT_INTERVAL_US 500
#define ROCEDP_PROBE_DEFAULT_DSCP 48 /* a control class's queue */
#define ROCEDP_PROBE_AUTH_LEN 24 /* bytes the authenticator covers */

struct rocedp_probe_hdr {
	__be16 magic;
	__u8 version;
	__u8 hops; /* switches that stamped it */
	__u8 band; /* worst band stamped on the way, 0..7 */
	__u8 flags; /* 0 */
	__be16 origin; /* the originating leaf's id */
	__be32 seq; /* per origin, one more every probe round */
	__be32 reserved; /* 0 */
	__be64 ts_ns; /* the origin's clock at sending */
	__be64 auth;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_probe_hdr) == 32, "probe hdr");

/* What this switch is to probes. */
enum rocedp_probe_role {
	ROCEDP_PROBE_ROLE_NONE = 0, /* probes off */
	ROCEDP_PROBE_ROLE_LEAF, /* keeps the table, consumes probes */
	ROCEDP_PROBE_ROLE_SPINE, /* stamps and forwards by routes */
};

/* Probe a timestamp that far from this switch's clock: stale (refused). */
#define ROCEDP_PROBEF_CHECK_AGE (1u << 0)
/* the flowlet choice weighs members by path quality (pathq.h) */
#define ROCEDP_PROBEF_STEER (1u << 1)

/* rd_probe_cfg: ARRAY[1], written by `rocedp paths set` (probew.c). */
struct rocedp_probe_cfg {
	__u32 role; /* enum rocedp_probe_role; NONE: every probe is IP */
	__u32 flags; /* ROCEDP_PROBEF_* */
	__u16 udp_port; /* host order */
	__u16 leaf_id; /* this leaf's id (leaf role) */
	__u8 dscp; /* probes leave with this DSCP; 0xff: leave */
	__u8 max_hops;
	__u16 pad;
	__u32 timeout_us; /* an entry this old counts as failed */
	__u32 interval_us; /* the sender's period (userspace only) */
	__u64 key[2]; /* SipHash key: k0, k1 */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_probe_cfg) == 40, "probe cfg");

/*
 * rd_probe_port: ARRAY[ROCEDP_PORT_SLOTS], ifindex -> the port's probe
 * role. Only fabric ports take probes; a probe on any other port is a
 * host's, dropped and counted. band_floor is the least band the port
 * reports (an operator's knob for a link known degraded, and the tests').
 */
#define ROCEDP_PROBE_PORT_FABRIC (1u << 0)

struct rocedp_probe_port {
	__u8 flags; /* ROCEDP_PROBE_PORT_* */
	__u8 band_floor; /* 0..7 */
	__u16 pad;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_probe_port) == 4, "probe port");

/*
 * rd_pathq: HASH (remote leaf, uplink ifindex) -> path quality, written
 * by the dataplane only (a leaf's accepted probes). band is the worse of
 * this leaf's band on the uplink and the probe's; an entry whose last_ns
 * is older than timeout_us counts as ROCEDP_PROBE_BAND_FAILED.
 */
#ifndef ROCEDP_MAX_PATHQ
#define ROCEDP_MAX_PATHQ 4096
#endif

struct rocedp_pathq_key {
	__u32 leaf;
	__u32 ifindex;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_pathq_key) == 8, "pathq key");

struct rocedp_pathq {
	__u64 last_ns; /* this switch's clock when the last probe came */
	__u64 probe_ts_ns; /* that probe's timestamp */
	__u64 accepted; /* probes taken into this entry */
	__u32 seq; /* last accepted sequence (replays are refused) */
	__u8 band; /* max(own, probe) */
	__u8 probe_band;
	__u8 own_band;
	__u8 hops;
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_pathq) == 32, "pathq");

/*
 * rd_leaf4: LPM_TRIE IPv4 prefix -> remote leaf id, written by `rocedp
 * paths leaf` (probew.c): where a destination lives, for the flowlet
 * choice's path quality and the sender's probe destinations.
 */
#ifndef ROCEDP_MAX_LEAF_PREFIXES
#define ROCEDP_MAX_LEAF_PREFIXES 1024
#endif

struct rocedp_leaf4_key {
	__u32 prefixlen;
	__u32 addr; /* network order */
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_leaf4_key) == 8, "leaf4 key");

/* rd_probe_stats: PERCPU_ARRAY[1] -> these counters */
enum rocedp_probe_counter {
	ROCEDP_PROBE_CTR_SEEN = 0, /* frames to the probe port */
	ROCEDP_PROBE_CTR_ACCEPTED, /* a leaf took it into rd_pathq */
	ROCEDP_PROBE_CTR_FORWARDED, /* a spine stamped it and routed it on */
	ROCEDP_PROBE_CTR_HOST_PORT, /* came on a port that is not fabric */
	ROCEDP_PROBE_CTR_MALFORMED, /* short, options, fragment, IPv6, bad magic */
	ROCEDP_PROBE_CTR_BAD_AUTH, /* authenticator wrong: spoofed */
	ROCEDP_PROBE_CTR_REPLAY, /* sequence not newer than the entry's */
	ROCEDP_PROBE_CTR_STALE, /* timestamp older than the timeout */
	ROCEDP_PROBE_CTR_HOPS, /* more hops than max_hops */
	ROCEDP_PROBE_CTR_SELF, /* a leaf's own probe came back */
	ROCEDP_PROBE_CTR_TABLE_FULL, /* no room for a new rd_pathq entry */
	ROCEDP_PROBE_CTR_STEERED, /* flowlet choices weighed by path quality */
	ROCEDP_PROBE_CTR_MAX,
};

struct rocedp_probe_stats {
	__u64 ctr[ROCEDP_PROBE_CTR_MAX];
};
ROCEDP_STATIC_ASSERT(sizeof(struct rocedp_probe_stats) ==
			     8 * ROCEDP_PROBE_CTR_MAX,
		     "probe stats");

#endif /* ROCEDP_ABI_PROBE_H */
