// SPDX-License-Identifier: GPL-2.0
/* rocegen: building and parsing RoCEv2 frames. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rocegen.h"
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

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	while (len > 1) {
		sum += get16(p);
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

size_t rg_hdr_len(bool v6)
{
	return RG_ETH_HLEN + (v6 ? RG_IP6_HLEN : RG_IP4_HLEN) + RG_UDP_HLEN +
	       RG_BTH_LEN;
}

/*
 * Frame = Ethernet / IP / UDP / BTH / ext / payload / pad / ICRC. The
 * payload is a fixed pattern; pad bytes round it up to 4 as BTH PadCnt says.
 * Returns the frame length (0 if it would not fit RG_FRAME_MAX).
 */
size_t rg_build(uint8_t *buf, const struct rg_path *p, const struct rg_bth *b,
		const void *ext, size_t ext_len, size_t payload_len)
{
	size_t pad = (4 - payload_len % 4) % 4;
	size_t l4 = RG_UDP_HLEN + RG_BTH_LEN + ext_len + payload_len + pad +
		    RG_ICRC_LEN;
	bool v6 = p->dst.v6;
	size_t l3 = RG_ETH_HLEN, len;
	uint8_t *ip = buf + l3, *udp, *bth;

	len = l3 + (v6 ? RG_IP6_HLEN : RG_IP4_HLEN) + l4;
	if (len > RG_FRAME_MAX)
		return 0;
	memcpy(buf, p->dmac, 6);
	memcpy(buf + 6, p->smac, 6);
	put16(buf + 12, v6 ? 0x86dd : 0x0800);
	if (!v6) {
		ip[0] = 0x45;
		ip[1] = p->tos;
		put16(ip + 2, (uint16_t)(RG_IP4_HLEN + l4));
		put16(ip + 4, 0);
		put16(ip + 6, 0x4000); /* DF, as RoCE NICs send */
		ip[8] = p->ttl;
		ip[9] = 17;
		put16(ip + 10, 0);
		memcpy(ip + 12, p->src.a, 4);
		memcpy(ip + 16, p->dst.a, 4);
		put16(ip + 10, csum_fold(csum_add(0, ip, RG_IP4_HLEN)));
		udp = ip + RG_IP4_HLEN;
	} else {
		/* Flow label from the port, so it is stable per QP. */
		uint32_t fl = p->sport & 0xfffff;

		put32(ip, 6u << 28 | (uint32_t)p->tos << 20 | fl);
		put16(ip + 4, (uint16_t)l4);
		ip[6] = 17;
		ip[7] = p->ttl;
		memcpy(ip + 8, p->src.a, 16);
		memcpy(ip + 24, p->dst.a, 16);
		udp = ip + RG_IP6_HLEN;
	}
	put16(udp, p->sport);
	put16(udp + 2, RG_UDP_PORT);
	put16(udp + 4, (uint16_t)l4);
	put16(udp + 6, 0);
	bth = udp + RG_UDP_HLEN;
	bth[0] = b->opcode;
	bth[1] = (uint8_t)(pad << 4);
	put16(bth + 2, RG_PKEY);
	bth[4] = b->becn ? 0x40 : 0;
	put24(bth + 5, b->dqpn & RG_QPN_MASK);
	bth[8] = b->ackreq ? 0x80 : 0;
	put24(bth + 9, b->psn & RG_PSN_MASK);
	if (ext_len)
		memcpy(bth + RG_BTH_LEN, ext, ext_len);
	memset(bth + RG_BTH_LEN + ext_len, 0x5a, payload_len);
	memset(bth + RG_BTH_LEN + ext_len + payload_len, 0, pad + RG_ICRC_LEN);
	if (v6) {
		/* IPv6 forbids a zero UDP checksum; the ICRC masks it anyway. */
		uint32_t sum = csum_add(0, ip + 8, 32);
		uint16_t c;

		sum += (uint32_t)l4 + 17;
		sum = csum_add(sum, udp, l4 - RG_ICRC_LEN);
		/* The ICRC is part of the datagram: fill it first. */
		rd_icrc_set(buf, len);
		sum = csum_add(sum, udp + l4 - RG_ICRC_LEN, RG_ICRC_LEN);
		c = csum_fold(sum);
		put16(udp + 6, c ? c : 0xffff);
	} else {
		rd_icrc_set(buf, len);
	}
	return len;
}

int rg_parse(const uint8_t *buf, size_t len, struct rg_pkt *pkt)
{
	size_t off = RG_ETH_HLEN, end, udp_len;
	const uint8_t *ip, *udp, *bth;
	uint16_t proto;

	memset(pkt, 0, sizeof(*pkt));
	if (len < RG_ETH_HLEN)
		return -EBADMSG;
	memcpy(pkt->dmac, buf, 6);
	memcpy(pkt->smac, buf + 6, 6);
	proto = get16(buf + 12);
	ip = buf + off;
	if (proto == 0x0800) {
		size_t hl;

		if (len < off + RG_IP4_HLEN || ip[0] >> 4 != 4)
			return -EBADMSG;
		hl = (size_t)(ip[0] & 0xf) * 4;
		end = off + get16(ip + 2);
		if (hl < RG_IP4_HLEN || end > len || end < off + hl)
			return -EBADMSG;
		if (ip[9] != 17 || (get16(ip + 6) & 0x3fff))
			return -EPROTONOSUPPORT;
		pkt->tos = ip[1];
		pkt->src.v6 = pkt->dst.v6 = false;
		memcpy(pkt->src.a, ip + 12, 4);
		memcpy(pkt->dst.a, ip + 16, 4);
		udp = ip + hl;
	} else if (proto == 0x86dd) {
		if (len < off + RG_IP6_HLEN || ip[0] >> 4 != 6)
			return -EBADMSG;
		end = off + RG_IP6_HLEN + get16(ip + 4);
		if (end > len)
			return -EBADMSG;
		if (ip[6] != 17)
			return -EPROTONOSUPPORT;
		pkt->tos = (uint8_t)((ip[0] & 0xf) << 4 | ip[1] >> 4);
		pkt->src.v6 = pkt->dst.v6 = true;
		memcpy(pkt->src.a, ip + 8, 16);
		memcpy(pkt->dst.a, ip + 24, 16);
		udp = ip + RG_IP6_HLEN;
	} else {
		return -EPROTONOSUPPORT;
	}
	if ((size_t)(udp - buf) + RG_UDP_HLEN > end)
		return -EBADMSG;
	if (get16(udp + 2) != RG_UDP_PORT)
		return -EPROTONOSUPPORT;
	udp_len = get16(udp + 4);
	if (udp_len < RG_UDP_HLEN + RG_BTH_LEN + RG_ICRC_LEN ||
	    (size_t)(udp - buf) + udp_len > end)
		return -EBADMSG;
	pkt->sport = get16(udp);
	bth = udp + RG_UDP_HLEN;
	pkt->bth.opcode = bth[0];
	pkt->bth.padcnt = (bth[1] >> 4) & 3;
	pkt->bth.becn = bth[4] & 0x40;
	pkt->bth.dqpn = get24(bth + 5);
	pkt->bth.ackreq = bth[8] & 0x80;
	pkt->bth.psn = get24(bth + 9);
	pkt->ext = bth + RG_BTH_LEN;
	pkt->ext_len = udp_len - RG_UDP_HLEN - RG_BTH_LEN - RG_ICRC_LEN;
	if (pkt->bth.opcode == RG_OP_ACK) {
		if (pkt->ext_len < RG_AETH_LEN)
			return -EBADMSG;
		pkt->aeth_syndrome = pkt->ext[0];
		pkt->aeth_msn = get24(pkt->ext + 1);
	}
	if (pkt->bth.opcode == RG_OP_WRITE_FIRST ||
	    pkt->bth.opcode == RG_OP_WRITE_ONLY ||
	    pkt->bth.opcode == RG_OP_WRITE_ONLY_IMM) {
		if (pkt->ext_len < RG_RETH_LEN)
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
