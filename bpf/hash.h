/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Flow hash for member selection. Each hashed word, in host order, is
 * multiplied by its own odd constant and the products are xor-folded:
 * about three instructions a word, none dependent on the previous word
 * (MurmurHash3's block mix costs eleven, in one chain, about 10 ns a frame
 * here). The per-switch seed goes in before MurmurHash3's finaliser, which
 * spreads every input bit over the whole output, as the member choice
 * (hash * total) >> 32 needs; uniformity is checked by tests/hash_uniformity.
 */
#ifndef ROCEDP_HASH_H
#define ROCEDP_HASH_H

#include "parse.h"

/* host order first, so the varying low octets spread upwards in the product */
static __always_inline __u32 rd_hash_mul(__u32 be_word, __u32 k)
{
	return bpf_ntohl(be_word) * k;
}

static __always_inline __u32 rd_hash_fmix(__u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/* Is address a after b (numerically, network order)? For symmetric mode. */
static __always_inline int rd_addr_after(const __u32 *a, const __u32 *b,
					 int words)
{
	int i;

	for (i = 0; i < 4; i++) {
		if (i >= words)
			break;
		if (a[i] != b[i])
			return bpf_ntohl(a[i]) > bpf_ntohl(b[i]);
	}
	return 0;
}

/*
 * The hashed fields, by mode. RoCE frames in qp / qp-only / flowlet /
 * spray modes add the BTH destination QP; qp-only and flowlet leave out the
 * UDP source port that NICs choose (a CNP may even carry 0). Non-RoCE
 * traffic always hashes on its 5-tuple. Ultra Ethernet (UDP 4793) puts
 * its entropy value in the UDP source port, the part of its 5-tuple that
 * varies, so every mode hashes, holds flowlets of and sprays UEC by its
 * entropy as it does RoCE by its QP.
 */
static __always_inline __u32 rd_flow_hash(const struct rd_flow *p, __u32 mode,
					  __u32 seed, __u32 flags)
{
	const __u32 *a = p->src, *b = p->dst;
	__u16 pa = p->sport, pb = p->dport;
	int words = p->family == 6 ? 4 : 1;
	__u32 h;

	if (flags & ROCEDP_HASHF_SYMMETRIC) {
		/* Order the endpoints so that both directions agree. */
		if (rd_addr_after(p->src, p->dst, words)) {
			a = p->dst;
			b = p->src;
		}
		if (pa > pb) {
			pa = p->dport;
			pb = p->sport;
		}
	}
	h = seed ^ rd_hash_mul(a[0], 0x9e3779b1) ^
	    rd_hash_mul(b[0], 0x85ebca77);
	if (words == 4)
		h ^= rd_hash_mul(a[1], 0xc2b2ae3d) ^
		     rd_hash_mul(b[1], 0x27d4eb2f) ^
		     rd_hash_mul(a[2], 0x165667b1) ^
		     rd_hash_mul(b[2], 0xd3a2646d) ^
		     rd_hash_mul(a[3], 0xfd7046c5) ^
		     rd_hash_mul(b[3], 0xb55a4f09);
	h ^= p->l4_proto * 0x2c1b3c6du;
	if (!p->is_roce || mode == ROCEDP_HASH_5TUPLE || mode == ROCEDP_HASH_QP)
		h ^= (((__u32)pa << 16) | pb) * 0x297a2d39;
	if (p->is_roce && mode != ROCEDP_HASH_5TUPLE)
		h ^= p->dest_qp * 0x7feb352d;
	return rd_hash_fmix(h);
}

#endif
