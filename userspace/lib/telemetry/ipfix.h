/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-QP flow records as IPFIX (RFC 7011) messages (ipfix.c;
 * docs/metrics.md, IPFIX): one template per address family, then one
 * data record per QP: standard information elements where IANA has them
 * (addresses, packet and octet totals), enterprise-specific ones under
 * RD_IPFIX_PEN for the rest (QP, gaps, rewinds, NAKs, CNPs, RTT min and
 * mean, stalls).
 */
#ifndef ROCEDP_IPFIX_H
#define ROCEDP_IPFIX_H

#include <stddef.h>
#include <linux/types.h>
#include "qps.h"

/* 32473: the enterprise number RFC 5612 reserves for documentation; an
 * operator with a number of its own sets it with --enterprise */
#define RD_IPFIX_PEN 32473
#define RD_IPFIX_TPL_V4 256
#define RD_IPFIX_TPL_V6 257
/* a UDP datagram that no path MTU splits (RFC 7011, 10.3.3) */
#define RD_IPFIX_MSG_MAX 1400

/* the enterprise-specific elements, by number */
enum rd_ipfix_ie {
	RD_IE_DEST_QP = 1,
	RD_IE_GAPS,
	RD_IE_REWINDS,
	RD_IE_NAKS,
	RD_IE_CNPS,
	RD_IE_RTT_MIN_NS,
	RD_IE_RTT_MEAN_NS,
	RD_IE_STALLS,
};

struct rd_ipfix {
	__u32 domain; /* observation domain id */
	__u32 pen; /* enterprise number of the rocedp elements */
	__u32 seq; /* data records sent so far (RFC 7011, 3.1) */
};

/*
 * The next message of a snapshot into buf (RD_IPFIX_MSG_MAX bytes): the
 * templates when *next is 0 and with_templates, then data records from
 * QP *next on, as many as fit; *next moves past them. Returns the message
 * length, 0 when nothing is left.
 */
size_t rd_ipfix_message(struct rd_ipfix *x, const struct rd_qp_snap *s,
			size_t *next, bool with_templates, __u32 export_time,
			__u8 *buf);

#endif
