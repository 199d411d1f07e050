/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one RoCEv2 frame builder: Ethernet / IPv4 or IPv6 / UDP 4791 / BTH /
 * extension headers / payload / pad / ICRC, with consistent lengths, BTH
 * PadCnt and a valid IPv4 header checksum. rocegen (which ships), lbeval,
 * rdbench and the C tests all build their frames here; opcodes are the
 * ABI's (ROCEDP_OP_* in bpf/rocedp_abi.h). The Python fixture generator
 * (tests/gen_fixtures.py) stays an independent model on purpose.
 */
#ifndef ROCEDP_FRAME_H
#define ROCEDP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RD_FRAME_ETH_LEN 14
#define RD_FRAME_IP4_LEN 20
#define RD_FRAME_IP6_LEN 40
#define RD_FRAME_UDP_LEN 8
/* Ethernet preamble, SFD and inter-frame gap: wire time, not frame bytes */
#define RD_FRAME_WIRE_OVERHEAD 20

enum {
	RD_FRAME_ICRC = 1 << 0, /* compute the ICRC (else it stays zero) */
	RD_FRAME_UDP6_CSUM = 1 << 1, /* IPv6: a real UDP checksum, not 0 */
	RD_FRAME_NO_DF = 1 << 2, /* IPv4: clear DF (RoCE NICs set it) */
};

struct rd_frame {
	uint8_t dmac[6];
	uint8_t smac[6];
	bool v6;
	uint32_t src4, dst4; /* IPv4, host order */
	uint8_t src6[16], dst6[16];
	uint8_t tos; /* DSCP << 2 | ECN; IPv6 traffic class */
	uint8_t ttl; /* 0: 64 */
	uint16_t ip_id;
	uint32_t flow_label; /* IPv6, 20 bits */
	uint16_t sport; /* UDP source port the NIC chose */
	uint8_t opcode; /* ROCEDP_OP_* */
	bool becn;
	bool ack_req;
	uint32_t dest_qp; /* 24 bits */
	uint32_t psn; /* 24 bits */
	/*
	 * Extension headers after the BTH: ext_len bytes of ext when ext is
	 * set; else what the opcode carries (rd_frame_ext_len()), a RETH
	 * holding dma_len or an AETH holding aeth, the rest zero.
	 */
	const void *ext;
	size_t ext_len;
	uint32_t dma_len; /* RETH DMA length: the whole message */
	uint32_t aeth; /* syndrome << 24 | MSN */
	uint32_t payload; /* bytes after the extension headers */
	uint8_t fill; /* payload byte */
	unsigned int flags; /* RD_FRAME_* */
};

/* Extension header bytes an RC opcode carries when ext is not given. */
size_t rd_frame_ext_len(uint8_t opcode);
/* Bytes the frame will take (without preamble and IFG). */
size_t rd_frame_len(const struct rd_frame *f);
/* Write the frame into buf; its length, or 0 if buf is too small. */
size_t rd_frame_build(uint8_t *buf, size_t size, const struct rd_frame *f);
/*
 * A plain IPv4 UDP datagram of f's addresses, TOS, TTL and sport to
 * dport, carrying plen bytes of payload (UDP checksum 0): the probes'
 * frame (docs/paths.md). Its length, or 0 if buf is too small.
 */
size_t rd_frame_build_udp4(uint8_t *buf, size_t size, const struct rd_frame *f,
			   uint16_t dport, const void *payload, size_t plen);
/* Internet checksum of len bytes: 0 over a header whose checksum is right. */
uint16_t rd_frame_csum(const uint8_t *p, size_t len);

#endif
