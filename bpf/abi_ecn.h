/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The rocedp_ecn module's kfunc contract and the default thresholds.
 * Standalone (only <linux/types.h>): the module's DKMS source ships this
 * one header.
 */
#ifndef ROCEDP_ABI_ECN_H
#define ROCEDP_ABI_ECN_H

#include <linux/types.h>

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

/* Thresholds of a port or profile nobody set (the module's and the maps') */
#define ROCEDP_DEFAULT_KMIN_BYTES (100 * 1024) /* HPCC-derived presets, 25G */
#define ROCEDP_DEFAULT_KMAX_BYTES (400 * 1024)
#define ROCEDP_DEFAULT_PMAX_PERCENT 20

#endif /* ROCEDP_ABI_ECN_H */
