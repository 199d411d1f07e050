/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path-quality probes on the userspace side (probes.c): the settings'
 * defaults and their KEY VALUE syntax (`rocedp paths set`, the fixtures'
 * probe_set), and the probe frame as the sender builds it
 * (docs/paths.md).
 */
#ifndef ROCEDP_PROBES_H
#define ROCEDP_PROBES_H

#include <stddef.h>
#include <stdint.h>
#include "rocedp.h"

void rd_probe_cfg_defaults(struct rocedp_probe_cfg *pc);
/*
 * One setting KEY VALUE into *pc (keys: role, leaf-id, port, key,
 * timeout-us, interval-us, dscp, max-hops, check-age, steer): 0, or
 * -EINVAL with the reason in why and *pc unchanged. The callers walk
 * their own words and end with rd_probe_cfg_check.
 */
int rd_probe_cfg_set(struct rocedp_probe_cfg *pc, const char *key,
		     const char *value, char *why, size_t why_len);
/* The rules between settings: the interval below the timeout. */
int rd_probe_cfg_check(const struct rocedp_probe_cfg *pc, char *why,
		       size_t why_len);
/* 32 hex digits into the SipHash key (k0 from the first 16, LE bytes). */
int rd_probe_key_parse(const char *hex, __u64 key[2]);
const char *rd_probe_role_name(__u32 role);

/* One probe's header, authenticated under pc's key. */
void rd_probe_hdr_make(struct rocedp_probe_hdr *h,
		       const struct rocedp_probe_cfg *pc, __u16 origin,
		       __u32 seq, __u64 ts_ns, __u8 band, __u8 hops);
/* Whether h's authenticator is right under pc's key. */
bool rd_probe_hdr_ok(const struct rocedp_probe_hdr *h,
		     const struct rocedp_probe_cfg *pc);

/* Where one probe goes: the uplink's MACs and the addresses. */
struct rd_probe_dest {
	__u32 ifindex;
	__u8 smac[6], dmac[6];
	__u32 src4, dst4; /* host order */
};

/* The whole frame; its length, or 0 if buf is too small. */
size_t rd_probe_frame(uint8_t *buf, size_t size,
		      const struct rocedp_probe_cfg *pc,
		      const struct rd_probe_dest *d, __u32 seq, __u64 ts_ns);

/* On-wire bytes of one probe (frame, FCS, preamble and gap). */
#define RD_PROBE_WIRE_BYTES (14 + 20 + 8 + 32 + 4 + 20)

#endif
