// SPDX-License-Identifier: GPL-2.0
/*
 * IPFIX (RFC 7011) encoding of per-QP flow records (ipfix.h). Network
 * byte order throughout; a template set first when asked (the exporter
 * sends it again at every interval, as UDP export must: RFC 7011, 8.4),
 * then one data set per address family with as many records as fit.
 */
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include "ipfix.h"

#define ENTERPRISE 0x8000

/* one field specifier: IE number (| ENTERPRISE), length */
struct field {
	__u16 ie, len;
};

/* IANA's elements (https://www.iana.org/assignments/ipfix) */
#define IE_SRC4 8 /* sourceIPv4Address */
#define IE_DST4 12 /* destinationIPv4Address */
#define IE_SRC6 27 /* sourceIPv6Address */
#define IE_DST6 28 /* destinationIPv6Address */
#define IE_OCTETS 85 /* octetTotalCount */
#define IE_PACKETS 86 /* packetTotalCount */

#define PEN(ie, len)                   \
	{                              \
		ENTERPRISE | (ie), len \
	}
#define COMMON                                                                 \
	{ IE_PACKETS, 8 }, { IE_OCTETS, 8 }, PEN(RD_IE_DEST_QP, 4),            \
		PEN(RD_IE_GAPS, 8), PEN(RD_IE_REWINDS, 8), PEN(RD_IE_NAKS, 8), \
		PEN(RD_IE_CNPS, 8), PEN(RD_IE_RTT_MIN_NS, 8),                  \
		PEN(RD_IE_RTT_MEAN_NS, 8), PEN(RD_IE_STALLS, 8)

static const struct field v4[] = { { IE_SRC4, 4 }, { IE_DST4, 4 }, COMMON };
static const struct field v6[] = { { IE_SRC6, 16 }, { IE_DST6, 16 }, COMMON };
#define NF (sizeof(v4) / sizeof(v4[0]))
/* a record: addresses and 8 counters of 8 bytes, the QP's 4 */
#define REC4 (4 + 4 + 8 * 8 + 4)
#define REC6 (16 + 16 + 8 * 8 + 4)

static __u8 *put16(__u8 *p, __u16 v)
{
	v = htons(v);
	memcpy(p, &v, 2);
	return p + 2;
}

static __u8 *put32(__u8 *p, __u32 v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
	return p + 4;
}

static __u8 *put64(__u8 *p, __u64 v)
{
	p = put32(p, v >> 32);
	return put32(p, (__u32)v);
}

static __u8 *put_template(__u8 *p, __u16 id, const struct field *f, __u32 pen)
{
	unsigned int i;

	p = put16(p, id);
	p = put16(p, NF);
	for (i = 0; i < NF; i++) {
		p = put16(p, f[i].ie);
		p = put16(p, f[i].len);
		if (f[i].ie & ENTERPRISE)
			p = put32(p, pen);
	}
	return p;
}

static __u8 *put_record(__u8 *p, const struct rd_qp *q)
{
	size_t alen = q->key.family == AF_INET6 ? 16 : 4;
	__u64 naks = 0;
	unsigned int i;

	memcpy(p, q->key.src, alen); /* already network order */
	p += alen;
	memcpy(p, q->key.dst, alen);
	p += alen;
	for (i = 0; i < ROCEDP_QP_NAK_MAX; i++)
		naks += q->st.naks[i];
	p = put64(p, q->st.pkts);
	p = put64(p, q->st.bytes);
	p = put32(p, q->key.dqp);
	p = put64(p, q->st.gaps);
	p = put64(p, q->st.rewinds);
	p = put64(p, naks);
	p = put64(p, q->st.cnps);
	p = put64(p, q->st.rtt_min_ns);
	p = put64(p, q->st.rtt_ewma_ns);
	return put64(p, q->st.stalls);
}

size_t rd_ipfix_message(struct rd_ipfix *x, const struct rd_qp_snap *s,
			size_t *next, bool with_templates, __u32 export_time,
			__u8 *buf)
{
	__u8 *p = buf + 16, *set = NULL, *end = buf + RD_IPFIX_MSG_MAX;
	int fam = 0;
	__u32 n = 0;
	size_t rl;

	if (with_templates && !*next) {
		__u8 *t = p;

		p = put16(p, 2); /* template set */
		p += 2;
		p = put_template(p, RD_IPFIX_TPL_V4, v4, x->pen);
		p = put_template(p, RD_IPFIX_TPL_V6, v6, x->pen);
		put16(t + 2, p - t);
	}
	for (; *next < s->n; (*next)++) {
		const struct rd_qp *q = &s->qps[*next];

		if (q->key.family != AF_INET && q->key.family != AF_INET6)
			continue;
		rl = q->key.family == AF_INET6 ? REC6 : REC4;
		if (fam != q->key.family) {
			if (set)
				put16(set + 2, p - set);
			if (p + 4 + rl > end)
				break;
			set = p;
			p = put16(p, q->key.family == AF_INET6 ?
					     RD_IPFIX_TPL_V6 :
					     RD_IPFIX_TPL_V4);
			p += 2;
			fam = q->key.family;
		}
		if (p + rl > end)
			break;
		p = put_record(p, q);
		n++;
	}
	if (set)
		put16(set + 2, p - set);
	if (p == buf + 16)
		return 0;
	/* the header: version 10, length, export time, sequence, domain */
	put16(buf, 10);
	put16(buf + 2, p - buf);
	put32(buf + 4, export_time);
	put32(buf + 8, x->seq);
	put32(buf + 12, x->domain);
	x->seq += n;
	return p - buf;
}
