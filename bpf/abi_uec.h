/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Ultra Ethernet (UEC 1.0) wire facts the classifier needs: the UDP port,
 * the PDS prologue's type field and the NACK codes that report a trimmed
 * packet. The layout (docs/uec.md): the PDS header
 * follows the UDP header; its first two bytes, big endian, hold the type
 * (bits 15..11), the next header or control type (10..7) and flags; a NACK
 * carries its code in byte 2. The entropy value is the UDP source port.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_UEC_H
#define ROCEDP_ABI_UEC_H

#include "abi_base.h"

#define ROCEDP_UEC_PORT 4793
#define ROCEDP_PDS_TYPE_SHIFT 3 /* of byte 0 */
#define ROCEDP_PDS_NACK_CODE_OFF 2

/* PDS types the classifier names (the rest: class uec) */
enum rocedp_pds_type {
	ROCEDP_PDS_TSS = 1, /* security header first: the PDS type is hidden */
	ROCEDP_PDS_ACK = 7,
	ROCEDP_PDS_ACK_CC = 8,
	ROCEDP_PDS_ACK_CCX = 9,
	ROCEDP_PDS_NACK = 10,
	ROCEDP_PDS_CONTROL = 11,
	ROCEDP_PDS_NACK_CCX = 12,
};

/* NACK codes that report a trimmed packet */
enum rocedp_pds_nack_code {
	ROCEDP_PDS_NACK_TRIMMED = 0x01,
	ROCEDP_PDS_NACK_TRIMMED_LASTHOP = 0x02,
	ROCEDP_PDS_NACK_TRIMMED_ACK = 0x03,
};

#endif /* ROCEDP_ABI_UEC_H */
