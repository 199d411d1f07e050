// SPDX-License-Identifier: GPL-2.0
/* rocegen: building and parsing RoCEv2 frames. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rocegen.h"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

size_t rg_hdr_len(bool v6)
{
	return RD_FRAME_ETH_LEN + (v6 ? RD_FRAME_IP6_LEN : RD_FRAME_IP4_LEN) +
	       RD_FRAME_UDP_LEN + ROCEDP_BTH_LEN;
}

/*
 * One direction of a QP to the shared builder (userspace/lib/wire/frame.c). The
 * payload is a fixed pattern; the IPv6 flow label comes from the port, so
 * it is stable per QP. Returns the frame length (0 if over RG_FRAME_MAX).
 */
size_t rg_build(uint8_t *buf, const struct rg_path *p, const struct rg_bth *b,
		const void *ext, size_t ext_len, size_t payload_len)
{
	struct rd_frame f = {
		.v6 = p->dst.v6,
		.tos = p->tos,
		.ttl = p->ttl,
		.flow_label = p->sport & 0xfffff,
		.sport = p->sport,
		.opcode = b->opcode,
		.becn = b->becn,
		.ack_req = b->ackreq,
		.dest_qp = b->dqpn,
		.psn = b->psn,
		.ext = ext ? ext : "",
		.ext_len = ext_len,
		.payload = (uint32_t)payload_len,
		.fill = 0x5a,
		.flags = RD_FRAME_ICRC | RD_FRAME_UDP6_CSUM,
	};

	memcpy(f.dmac, p->dmac, 6);
	memcpy(f.smac, p->smac, 6);
	if (f.v6) {
		memcpy(f.src6, p->src.a, 16);
		memcpy(f.dst6, p->dst.a, 16);
	} else {
		f.src4 = get32(p->src.a);
		f.dst4 = get32(p->dst.a);
	}
	return rd_frame_build(buf, RG_FRAME_MAX, &f);
}

int rg_parse(const uint8_t *buf, size_t len, struct rg_pkt *pkt)
{
	size_t off = RD_FRAME_ETH_LEN, end, udp_len;
	const uint8_t *ip, *udp, *bth;
	uint16_t proto;

	memset(pkt, 0, sizeof(*pkt));
	if (len < RD_FRAME_ETH_LEN)
		return -EBADMSG;
	memcpy(pkt->dmac, buf, 6);
	memcpy(pkt->smac, buf + 6, 6);
	proto = get16(buf + 12);
	ip = buf + off;
	if (proto == 0x0800) {
		size_t hl;

		if (len < off + RD_FRAME_IP4_LEN || ip[0] >> 4 != 4)
			return -EBADMSG;
		hl = (size_t)(ip[0] & 0xf) * 4;
		end = off + get16(ip + 2);
		if (hl < RD_FRAME_IP4_LEN || end > len || end < off + hl)
			return -EBADMSG;
		if (ip[9] != 17 || (get16(ip + 6) & 0x3fff))
			return -EPROTONOSUPPORT;
		pkt->tos = ip[1];
		pkt->src.v6 = pkt->dst.v6 = false;
		memcpy(pkt->src.a, ip + 12, 4);
		memcpy(pkt->dst.a, ip + 16, 4);
		udp = ip + hl;
	} else if (proto == 0x86dd) {
		if (len < off + RD_FRAME_IP6_LEN || ip[0] >> 4 != 6)
			return -EBADMSG;
		end = off + RD_FRAME_IP6_LEN + get16(ip + 4);
		if (end > len)
			return -EBADMSG;
		if (ip[6] != 17)
			return -EPROTONOSUPPORT;
		pkt->tos = (uint8_t)((ip[0] & 0xf) << 4 | ip[1] >> 4);
		pkt->src.v6 = pkt->dst.v6 = true;
		memcpy(pkt->src.a, ip + 8, 16);
		memcpy(pkt->dst.a, ip + 24, 16);
		udp = ip + RD_FRAME_IP6_LEN;
	} else {
		return -EPROTONOSUPPORT;
	}
	if ((size_t)(udp - buf) + RD_FRAME_UDP_LEN > end)
		return -EBADMSG;
	if (get16(udp + 2) != ROCEDP_ROCEV2_PORT)
		return -EPROTONOSUPPORT;
	udp_len = get16(udp + 4);
	if (udp_len < RD_FRAME_UDP_LEN + ROCEDP_BTH_LEN + ROCEDP_ICRC_LEN ||
	    (size_t)(udp - buf) + udp_len > end)
		return -EBADMSG;
	pkt->sport = get16(udp);
	bth = udp + RD_FRAME_UDP_LEN;
	pkt->bth.opcode = bth[0];
	pkt->bth.padcnt = (bth[1] >> 4) & 3;
	pkt->bth.becn = bth[4] & 0x40;
	pkt->bth.dqpn = get24(bth + 5);
	pkt->bth.ackreq = bth[8] & 0x80;
	pkt->bth.psn = get24(bth + 9);
	pkt->ext = bth + ROCEDP_BTH_LEN;
	pkt->ext_len =
		udp_len - RD_FRAME_UDP_LEN - ROCEDP_BTH_LEN - ROCEDP_ICRC_LEN;
	if (pkt->bth.opcode == ROCEDP_OP_RC_ACK) {
		if (pkt->ext_len < ROCEDP_AETH_LEN)
			return -EBADMSG;
		pkt->aeth_syndrome = pkt->ext[0];
		pkt->aeth_msn = get24(pkt->ext + 1);
	}
	if (pkt->bth.opcode == ROCEDP_OP_RC_WRITE_FIRST ||
	    pkt->bth.opcode == ROCEDP_OP_RC_WRITE_ONLY ||
	    pkt->bth.opcode == ROCEDP_OP_RC_WRITE_ONLY_IMM) {
		if (pkt->ext_len < ROCEDP_RETH_LEN)
			return -EBADMSG;
		pkt->reth_rkey = (uint32_t)get16(pkt->ext + 8) << 16 |
				 get16(pkt->ext + 10);
	}
	return 0;
}

/*
 * NICs derive the UDP source port of a QP from a hash of its QP numbers,
 * folded into the 0xC000..0xFFFF range (Linux: rdma_get_udp_sport). The
 * product makes it the same seen from either end.
 */
uint16_t rg_udp_sport(uint32_t qpn_a, uint32_t qpn_b)
{
	uint64_t v = (uint64_t)qpn_a * qpn_b;
	uint32_t h;

	v ^= v >> 20;
	v ^= v >> 40;
	h = (uint32_t)v & 0xfffff;
	return (uint16_t)(0xc000 | ((h & 0x3fff) ^ (h >> 14)));
}

/* Initial PSN of a QP, known to both ends without a CM exchange. */
uint32_t rg_psn0(uint32_t requester_qpn)
{
	uint32_t h = requester_qpn * 0x9e3779b1u;

	return (h ^ (h >> 13)) & RG_PSN_MASK;
}

int rg_addr_parse(const char *s, struct rg_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->a) == 1)
		return 0;
	if (inet_pton(AF_INET6, s, a->a) == 1) {
		a->v6 = true;
		return 0;
	}
	return -EINVAL;
}

const char *rg_addr_str(const struct rg_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->v6 ? AF_INET6 : AF_INET, a->a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

bool rg_addr_eq(const struct rg_addr *a, const struct rg_addr *b)
{
	return a->v6 == b->v6 && !memcmp(a->a, b->a, a->v6 ? 16 : 4);
}

int rg_mac_parse(const char *s, uint8_t mac[6])
{
	unsigned int m[6];
	char tail;
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3], &m[4],
		   &m[5], &tail) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (m[i] > 0xff)
			return -EINVAL;
		mac[i] = (uint8_t)m[i];
	}
	return 0;
}
