/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/* Incremental Internet checksum update (RFC 1624, eqn. 3). */
#ifndef ROCEDP_CSUM_H
#define ROCEDP_CSUM_H

#include <linux/types.h>

static __always_inline __u16 rd_csum_fold(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)sum;
}

/* Replace 16-bit word old by new (both network order) in *csum. */
static __always_inline void rd_csum_replace2(__sum16 *csum, __be16 old,
					     __be16 new)
{
	__u32 sum = (__u16) ~*csum;

	sum += (__u16)~old;
	sum += (__u16) new;
	*csum = ~rd_csum_fold(sum);
}

#endif
