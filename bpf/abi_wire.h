/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * RoCEv2 wire constants: port, header lengths, the BTH opcodes the
 * classifier and the frame builders name.
 * Part of the rocedp ABI (rocedp_abi.h).
 */
#ifndef ROCEDP_ABI_WIRE_H
#define ROCEDP_ABI_WIRE_H

#include "abi_base.h"

#define ROCEDP_ROCEV2_PORT 4791
#define ROCEDP_BTH_LEN 12
#define ROCEDP_AETH_LEN 4
#define ROCEDP_ICRC_LEN 4
#define ROCEDP_CNP_PAYLOAD_LEN 16

/* BTH opcodes the classifier names explicitly (IBTA vol 1, 9.2) */
#define ROCEDP_OP_RC_ACK 0x11
#define ROCEDP_OP_RC_ATOMIC_ACK 0x12
#define ROCEDP_OP_CNP 0x81
#define ROCEDP_OP_RC_READ_RESP_FIRST 0x0d
#define ROCEDP_OP_RC_READ_RESP_MIDDLE 0x0e
#define ROCEDP_OP_RC_READ_RESP_LAST 0x0f
#define ROCEDP_OP_RC_READ_RESP_ONLY 0x10
/* XRC (IBTA vol 1 table 38): 0xA0 + the RC function code */
#define ROCEDP_OP_XRC_BASE 0xa0
#define ROCEDP_OP_XRC_ACK 0xb1
#define ROCEDP_OP_XRC_ATOMIC_ACK 0xb2
#define ROCEDP_XRCETH_LEN 4 /* after the BTH of every XRC request */
/* RC requests the test and tool frame builders send (userspace/lib/wire/frame.h) */
#define ROCEDP_OP_RC_SEND_FIRST 0x00
#define ROCEDP_OP_RC_SEND_ONLY 0x04
#define ROCEDP_OP_RC_SEND_ONLY_IMM 0x05
#define ROCEDP_OP_RC_WRITE_FIRST 0x06
#define ROCEDP_OP_RC_WRITE_MIDDLE 0x07
#define ROCEDP_OP_RC_WRITE_LAST 0x08
#define ROCEDP_OP_RC_WRITE_LAST_IMM 0x09
#define ROCEDP_OP_RC_WRITE_ONLY 0x0a
#define ROCEDP_OP_RC_WRITE_ONLY_IMM 0x0b
#define ROCEDP_RETH_LEN 16

/*
 * The payload-carrying opcodes: RC/XRC requests and read responses, UC
 * sends and RDMA writes, UD sends. Class data (or cts), and the only ones
 * CTS rules are checked on: the classifier and the config check share
 * this one definition.
 */
static inline int rocedp_opcode_is_data(__u8 op)
{
	__u8 fn = op & 0x1f;

	switch (op >> 5) {
	case 0: /* RC */
	case 5: /* XRC: RC's function codes */
		return fn <= 0x10 || fn == 0x13 || fn == 0x14 || fn == 0x16 ||
		       fn == 0x17;
	case 1: /* UC: sends and RDMA writes */
		return fn <= 0x0b;
	case 3: /* UD: send only (with immediate) */
		return fn == 0x04 || fn == 0x05;
	}
	return 0;
}

#endif /* ROCEDP_ABI_WIRE_H */
