/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 frame builder shared by the load-balance evaluator and the flowlet
 * tests: Ethernet / IPv4 / UDP 4791 / BTH (+RETH or AETH) / payload / ICRC,
 * with consistent IP and UDP lengths and a valid IPv4 header checksum. The
 * ICRC is left zero: forwarding does not check it.
 */
#ifndef ROCEDP_LBEVAL_FRAME_H
#define ROCEDP_LBEVAL_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* IBTA vol 1, 9.2: RC opcodes the traces use */
#define LB_OP_SEND_ONLY 0x04
#define LB_OP_WRITE_FIRST 0x06
#define LB_OP_WRITE_MIDDLE 0x07
#define LB_OP_WRITE_LAST 0x08
#define LB_OP_WRITE_ONLY 0x0a
#define LB_OP_ACK 0x11

#define LB_ETH_LEN 14
#define LB_IP4_LEN 20
#define LB_UDP_LEN 8
#define LB_BTH_LEN 12
#define LB_RETH_LEN 16
#define LB_AETH_LEN 4
#define LB_ICRC_LEN 4
/* Ethernet preamble, SFD and inter-frame gap: wire time, not frame bytes */
#define LB_WIRE_OVERHEAD 20

struct lb_frame_spec {
	uint8_t smac[6];
	uint8_t dmac[6];
	uint32_t src; /* IPv4, host order */
	uint32_t dst;
	uint16_t sport; /* UDP source port the NIC chose */
	uint8_t tos;
	uint8_t opcode;
	uint32_t dest_qp; /* 24 bits */
	uint32_t psn; /* 24 bits */
	bool ack_req;
	uint32_t payload; /* bytes after the BTH extension headers */
	uint32_t dma_len; /* RETH: the whole message */
	uint32_t aeth; /* ACK: syndrome << 24 | MSN */
};

static inline uint32_t lb_ext_len(uint8_t opcode)
{
	switch (opcode) {
	case LB_OP_WRITE_FIRST:
	case LB_OP_WRITE_ONLY:
		return LB_RETH_LEN;
	case LB_OP_ACK:
		return LB_AETH_LEN;
	default:
		return 0;
	}
}

/* Bytes the frame will take (without preamble/IFG). */
static inline uint32_t lb_frame_len(const struct lb_frame_spec *s)
{
	uint32_t pad = (4 - (s->payload & 3)) & 3;

	return LB_ETH_LEN + LB_IP4_LEN + LB_UDP_LEN + LB_BTH_LEN +
	       lb_ext_len(s->opcode) + s->payload + pad + LB_ICRC_LEN;
}

static inline void lb_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void lb_put24(uint8_t *p, uint32_t v)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

static inline void lb_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint16_t lb_ip_csum(const uint8_t *h, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i < len; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

/* Write the frame into buf; returns its length, 0 if buf is too small. */
static inline uint32_t lb_build_frame(uint8_t *buf, size_t size,
				      const struct lb_frame_spec *s)
{
	uint32_t len = lb_frame_len(s), pad = (4 - (s->payload & 3)) & 3;
	uint32_t l4 = len - LB_ETH_LEN - LB_IP4_LEN;
	uint8_t *ip = buf + LB_ETH_LEN, *udp = ip + LB_IP4_LEN;
	uint8_t *bth = udp + LB_UDP_LEN, *ext = bth + LB_BTH_LEN;

	if (len > size)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, s->dmac, 6);
	memcpy(buf + 6, s->smac, 6);
	lb_put16(buf + 12, 0x0800);

	ip[0] = 0x45;
	ip[1] = s->tos;
	lb_put16(ip + 2, len - LB_ETH_LEN);
	lb_put16(ip + 6, 0x4000); /* DF, as RoCE NICs send */
	ip[8] = 64;
	ip[9] = 17;
	lb_put32(ip + 12, s->src);
	lb_put32(ip + 16, s->dst);
	lb_put16(ip + 10, lb_ip_csum(ip, LB_IP4_LEN));

	lb_put16(udp, s->sport);
	lb_put16(udp + 2, 4791);
	lb_put16(udp + 4, l4);
	/* UDP checksum 0: RoCEv2 over IPv4 does not use it */

	bth[0] = s->opcode;
	bth[1] = pad << 4; /* SE=0 M=0 PadCnt TVer=0 */
	lb_put16(bth + 2, 0xffff); /* default P_Key */
	lb_put24(bth + 5, s->dest_qp);
	bth[8] = s->ack_req ? 0x80 : 0;
	lb_put24(bth + 9, s->psn);
	if (s->opcode == LB_OP_ACK)
		lb_put32(ext, s->aeth);
	else if (lb_ext_len(s->opcode) == LB_RETH_LEN)
		lb_put32(ext + 12, s->dma_len); /* RETH DMA length */
	return len;
}

#endif
