/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The probe's authenticator: SipHash-2-4 (Aumasson and Bernstein) of the
 * probe's first 24 bytes, read as three little-endian 64-bit words, under
 * the fabric's 128-bit key. A keyed PRF cheap enough for every probe (ten
 * rounds of adds, rotates and xors, no loop), shared by the dataplane, the
 * sender and the tests, so the three cannot disagree.
 */
#ifndef ROCEDP_PROBE_AUTH_H
#define ROCEDP_PROBE_AUTH_H

#include <linux/types.h>

#define RD_SIP_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define RD_SIP_ROUND(v0, v1, v2, v3)      \
	do {                              \
		v0 += v1;                 \
		v1 = RD_SIP_ROTL(v1, 13); \
		v1 ^= v0;                 \
		v0 = RD_SIP_ROTL(v0, 32); \
		v2 += v3;                 \
		v3 = RD_SIP_ROTL(v3, 16); \
		v3 ^= v2;                 \
		v0 += v3;                 \
		v3 = RD_SIP_ROTL(v3, 21); \
		v3 ^= v0;                 \
		v2 += v1;                 \
		v1 = RD_SIP_ROTL(v1, 17); \
		v1 ^= v2;                 \
		v2 = RD_SIP_ROTL(v2, 32); \
	} while (0)

/* One message word: two compression rounds. */
#define RD_SIP_WORD(v0, v1, v2, v3, m)        \
	do {                                  \
		v3 ^= (m);                    \
		RD_SIP_ROUND(v0, v1, v2, v3); \
		RD_SIP_ROUND(v0, v1, v2, v3); \
		v0 ^= (m);                    \
	} while (0)

/* SipHash-2-4 of the 24 bytes m0 m1 m2 (little-endian words). */
static inline __u64 rd_probe_auth(__u64 k0, __u64 k1, __u64 m0, __u64 m1,
				  __u64 m2)
{
	__u64 v0 = k0 ^ 0x736f6d6570736575ull;
	__u64 v1 = k1 ^ 0x646f72616e646f6dull;
	__u64 v2 = k0 ^ 0x6c7967656e657261ull;
	__u64 v3 = k1 ^ 0x7465646279746573ull;

	RD_SIP_WORD(v0, v1, v2, v3, m0);
	RD_SIP_WORD(v0, v1, v2, v3, m1);
	RD_SIP_WORD(v0, v1, v2, v3, m2);
	/* the last block: the length (24) in the top byte, no tail bytes */
	RD_SIP_WORD(v0, v1, v2, v3, 24ull << 56);
	v2 ^= 0xff;
	RD_SIP_ROUND(v0, v1, v2, v3);
	RD_SIP_ROUND(v0, v1, v2, v3);
	RD_SIP_ROUND(v0, v1, v2, v3);
	RD_SIP_ROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

#endif
