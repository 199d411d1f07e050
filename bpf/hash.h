/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Flow hash for member selection: MurmurHash3's 32-bit block mix over the
 * chosen fields, then its finaliser, keyed by the per-switch seed so tiers
 * do not polarise. Fast (a few multiplies per word) and well mixed in every
 * output bit, which the member choice (hash * total) >> 32 relies on; the
 * uniformity is checked by tests/hash_uniformity.
 */
#ifndef ROCEDP_HASH_H
#define ROCEDP_HASH_H

#include "parse.h"

static __always_inline __u32 rd_rotl32(__u32 x, int r)
{
	return (x << r) | (x >> (32 - r));
}

static __always_inline __u32 rd_hash_word(__u32 h, __u32 k)
{
	k *= 0xcc9e2d51;
	k = rd_rotl32(k, 15);
	k *= 0x1b873593;
	h ^= k;
	h = rd_rotl32(h, 13);
	return h * 5 + 0xe6546b64;
}

static __always_inline __u32 rd_hash_final(__u32 h, __u32 len)
{
	h ^= len;
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/*
 * The hashed fields, by mode. RoCE frames in qp / qp-only / flowlet /
 * spray modes add the BTH destination QP; qp-only and flowlet leave out the
 * UDP source port that NICs choose (a CNP may even carry 0). Non-RoCE
 * traffic always hashes on its 5-tuple.
 */
static __always_inline __u32 rd_flow_hash(const struct rd_flow *p, __u32 mode,
					  __u32 seed, __u32 flags)
{
	__u32 a[4], b[4], h = seed, n = 0;
	__u16 pa = p->sport, pb = p->dport;
	int words = p->family == 6 ? 4 : 1, i, swap = 0, use_qp, use_ports;

	use_qp = p->is_roce && mode != ROCEDP_HASH_5TUPLE;
	use_ports = !p->is_roce || mode == ROCEDP_HASH_5TUPLE ||
		    mode == ROCEDP_HASH_QP;

	__builtin_memcpy(a, p->src, sizeof(a));
	__builtin_memcpy(b, p->dst, sizeof(b));
	if (flags & ROCEDP_HASHF_SYMMETRIC) {
		/* Order the endpoints so that both directions agree. */
		for (i = 3; i >= 0; i--) {
			if (i >= words)
				continue;
			if (a[i] != b[i])
				swap = bpf_ntohl(a[i]) > bpf_ntohl(b[i]);
		}
		if (swap) {
			__builtin_memcpy(a, p->dst, sizeof(a));
			__builtin_memcpy(b, p->src, sizeof(b));
		}
		if (pa > pb) {
			pa = p->dport;
			pb = p->sport;
		}
	}
	for (i = 0; i < 4; i++) {
		if (i >= words)
			break;
		h = rd_hash_word(h, a[i]);
		h = rd_hash_word(h, b[i]);
		n += 8;
	}
	h = rd_hash_word(h, p->l4_proto);
	n += 4;
	if (use_ports) {
		h = rd_hash_word(h, ((__u32)pa << 16) | pb);
		n += 4;
	}
	if (use_qp) {
		h = rd_hash_word(h, p->dest_qp);
		n += 4;
	}
	return rd_hash_final(h, n);
}

#endif
