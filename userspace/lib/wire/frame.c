// SPDX-License-Identifier: GPL-2.0
/* Building RoCEv2 frames: see frame.h. */
#include <string.h>

#include "rocedp_abi.h"
#include "frame.h"
#include "icrc.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put24(uint8_t *p, uint32_t v)
{
	p[0] = (v >> 16) & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = v & 0xff;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	while (len > 1) {
		sum += (uint32_t)p[0] << 8 | p[1];
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t rd_frame_csum(const uint8_t *p, size_t len)
{
	return csum_fold(csum_add(0, p, len));
}

size_t rd_frame_ext_len(uint8_t opcode)
{
	switch (opcode) {
	case ROCEDP_OP_RC_WRITE_FIRST:
	case ROCEDP_OP_RC_WRITE_ONLY:
		return ROCEDP_RETH_LEN;
	case ROCEDP_OP_RC_ACK:
		return ROCEDP_AETH_LEN;
	case ROCEDP_OP_CNP:
		return ROCEDP_CNP_PAYLOAD_LEN;
	default:
		return 0;
	}
}

static size_t ext_len(const struct rd_frame *f)
{
	return f->ext ? f->ext_len : rd_frame_ext_len(f->opcode);
}

static size_t pad_len(const struct rd_frame *f)
{
	return (4 - f->payload % 4) % 4;
}

/* UDP header to the end of the ICRC */
static size_t l4_len(const struct rd_frame *f)
{
	return RD_FRAME_UDP_LEN + ROCEDP_BTH_LEN + ext_len(f) + f->payload +
	       pad_len(f) + ROCEDP_ICRC_LEN;
}

size_t rd_frame_len(const struct rd_frame *f)
{
	return RD_FRAME_ETH_LEN +
	       (f->v6 ? RD_FRAME_IP6_LEN : RD_FRAME_IP4_LEN) + l4_len(f);
}

static uint8_t *put_ip4(uint8_t *ip, const struct rd_frame *f, size_t l4)
{
	ip[0] = 0x45;
	ip[1] = f->tos;
	put16(ip + 2, (uint16_t)(RD_FRAME_IP4_LEN + l4));
	put16(ip + 4, f->ip_id);
	put16(ip + 6, f->flags & RD_FRAME_NO_DF ? 0 : 0x4000);
	ip[8] = f->ttl ? f->ttl : 64;
	ip[9] = 17;
	put32(ip + 12, f->src4);
	put32(ip + 16, f->dst4);
	put16(ip + 10, rd_frame_csum(ip, RD_FRAME_IP4_LEN));
	return ip + RD_FRAME_IP4_LEN;
}

static uint8_t *put_ip6(uint8_t *ip, const struct rd_frame *f, size_t l4)
{
	put32(ip,
	      6u << 28 | (uint32_t)f->tos << 20 | (f->flow_label & 0xfffff));
	put16(ip + 4, (uint16_t)l4);
	ip[6] = 17;
	ip[7] = f->ttl ? f->ttl : 64;
	memcpy(ip + 8, f->src6, 16);
	memcpy(ip + 24, f->dst6, 16);
	return ip + RD_FRAME_IP6_LEN;
}

static void put_ext(uint8_t *ext, const struct rd_frame *f)
{
	if (f->ext) {
		memcpy(ext, f->ext, f->ext_len);
		return;
	}
	/* the frame is zeroed: only the fields a caller sets */
	if (f->opcode == ROCEDP_OP_RC_ACK)
		put32(ext, f->aeth);
	else if (rd_frame_ext_len(f->opcode) == ROCEDP_RETH_LEN)
		put32(ext + 12, f->dma_len);
}

/* IPv6 forbids a zero UDP checksum; the ICRC masks it, so it comes last. */
static void put_udp6_csum(uint8_t *ip, uint8_t *udp, size_t l4)
{
	uint32_t sum = csum_add(0, ip + 8, 32) + (uint32_t)l4 + 17;
	uint16_t c = csum_fold(csum_add(sum, udp, l4));

	put16(udp + 6, c ? c : 0xffff);
}

size_t rd_frame_build(uint8_t *buf, size_t size, const struct rd_frame *f)
{
	size_t len = rd_frame_len(f), l4 = l4_len(f), ext = ext_len(f);
	uint8_t *ip = buf + RD_FRAME_ETH_LEN, *udp, *bth;

	if (len > size || len > 0xffff)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, f->dmac, 6);
	memcpy(buf + 6, f->smac, 6);
	put16(buf + 12, f->v6 ? 0x86dd : 0x0800);
	udp = f->v6 ? put_ip6(ip, f, l4) : put_ip4(ip, f, l4);
	put16(udp, f->sport);
	put16(udp + 2, ROCEDP_ROCEV2_PORT);
	put16(udp + 4, (uint16_t)l4);
	/* UDP checksum 0: RoCEv2 over IPv4 does not use it */

	bth = udp + RD_FRAME_UDP_LEN;
	bth[0] = f->opcode;
	bth[1] = (uint8_t)(pad_len(f) << 4); /* SE=0 M=0 PadCnt TVer=0 */
	put16(bth + 2, 0xffff); /* default P_Key */
	bth[4] = f->becn ? 0x40 : 0;
	put24(bth + 5, f->dest_qp & 0xffffff);
	bth[8] = f->ack_req ? 0x80 : 0;
	put24(bth + 9, f->psn & 0xffffff);
	put_ext(bth + ROCEDP_BTH_LEN, f);
	memset(bth + ROCEDP_BTH_LEN + ext, f->fill, f->payload);

	if (f->flags & RD_FRAME_ICRC)
		rd_icrc_set(buf, len);
	if (f->v6 && (f->flags & RD_FRAME_UDP6_CSUM))
		put_udp6_csum(ip, udp, l4);
	return len;
}

size_t rd_frame_build_udp4(uint8_t *buf, size_t size, const struct rd_frame *f,
			   uint16_t dport, const void *payload, size_t plen)
{
	size_t l4 = RD_FRAME_UDP_LEN + plen;
	size_t len = RD_FRAME_ETH_LEN + RD_FRAME_IP4_LEN + l4;
	uint8_t *udp;

	if (len > size || len > 0xffff || f->v6)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, f->dmac, 6);
	memcpy(buf + 6, f->smac, 6);
	put16(buf + 12, 0x0800);
	udp = put_ip4(buf + RD_FRAME_ETH_LEN, f, l4);
	put16(udp, f->sport);
	put16(udp + 2, dport);
	put16(udp + 4, (uint16_t)l4);
	memcpy(udp + RD_FRAME_UDP_LEN, payload, plen);
	return len;
}
