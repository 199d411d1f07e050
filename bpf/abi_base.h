/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The ABI's basics: fixed-width types, the size-assert macro and the
 * limits every other ABI header sizes its maps by. Limits are overridable
 * at build time (-DROCEDP_MAX_GROUPS=...), as the defaults are sized for a
 * ToR/leaf, not for a large router.
 */
#ifndef ROCEDP_ABI_BASE_H
#define ROCEDP_ABI_BASE_H

#include <linux/types.h>

#ifndef __cplusplus
#define ROCEDP_STATIC_ASSERT(c, m) _Static_assert(c, m)
#else
#define ROCEDP_STATIC_ASSERT(c, m) static_assert(c, m)
#endif

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

#endif /* ROCEDP_ABI_BASE_H */
