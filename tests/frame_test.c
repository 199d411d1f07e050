// SPDX-License-Identifier: GPL-2.0
/*
 * The shared frame builder (userspace/lib/wire/frame.c). Known answers: frames
 * captured from the three builders it replaced (ecn_test's, lbeval's,
 * rocegen's), byte for byte. Then a grid of families, opcodes, payloads
 * and flags, each frame checked for what a receiver checks: lengths, BTH
 * PadCnt, IPv4 header checksum, IPv6 UDP checksum, ICRC. No BPF, no root.
 * Prints TAP lines; the last line is "N passed, M failed".
 */
#include <stdio.h>
#include <string.h>

#include "rocedp_abi.h"
#include "frame.h"
#include "icrc.h"
#include "tap.h"

/* clang-format off */
/* ecn_test's ACK: IPv4, ECT(0), DF clear, AETH ACK, ICRC */
static const uint8_t ecn_ack4[62] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x00, 0x45, 0x02, 0x00, 0x30, 0x00, 0x00, 0x00, 0x00, 0x40, 0x11,
	0x63, 0xb8, 0x0a, 0x00, 0x01, 0x02, 0x0a, 0x00, 0x02, 0x02, 0xc0, 0x00,
	0x12, 0xb7, 0x00, 0x1c, 0x00, 0x00, 0x11, 0x00, 0xff, 0xff, 0x00, 0x00,
	0x00, 0x42, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00, 0xce, 0x45,
	0xfc, 0x3b,
};

/* lbeval's RDMA WRITE FIRST: RETH DMA length 4096, 13 bytes + 3 of pad */
static const uint8_t lb_write_first4[90] = {
	0x02, 0xcc, 0x00, 0x00, 0x00, 0x01, 0x02, 0xee, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x00, 0x45, 0x68, 0x00, 0x4c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0x26, 0x25, 0x0a, 0x09, 0x00, 0x06, 0x0a, 0x01, 0x00, 0x05, 0xc0, 0x01,
	0x12, 0xb7, 0x00, 0x38, 0x00, 0x00, 0x06, 0x30, 0xff, 0xff, 0x00, 0x00,
	0x09, 0x00, 0x80, 0x12, 0x34, 0x56, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* rocegen's RDMA WRITE LAST: IPv6, BECN, flow label, UDP checksum, ICRC */
static const uint8_t rg_write_last6[86] = {
	0x02, 0xbb, 0x00, 0x00, 0x00, 0x02, 0x02, 0xaa, 0x00, 0x00, 0x00, 0x01,
	0x86, 0xdd, 0x66, 0x90, 0xc1, 0x23, 0x00, 0x20, 0x11, 0x40, 0x20, 0x01,
	0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xc1, 0x23, 0x12, 0xb7, 0x00, 0x20,
	0x46, 0x55, 0x08, 0x30, 0xff, 0xff, 0x40, 0x81, 0x23, 0x45, 0x80, 0xab,
	0xcd, 0xef, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x00, 0x00, 0x00, 0xe1, 0x62,
	0xdf, 0x5f,
};
/* clang-format on */

static void same(const char *what, const struct rd_frame *f,
		 const uint8_t *want, size_t want_len)
{
	uint8_t got[256];
	size_t len = rd_frame_build(got, sizeof(got), f);

	result(len == want_len && !memcmp(got, want, want_len),
	       "known answer: %s (%zu bytes, want %zu)", what, len, want_len);
}

static void known_answers(void)
{
	struct rd_frame ack = {
		.dmac = { 2, 0, 0, 0, 0, 2 },
		.smac = { 2, 0, 0, 0, 0, 1 },
		.src4 = 0x0a000102,
		.dst4 = 0x0a000202,
		.tos = 0x02,
		.sport = 0xc000,
		.opcode = ROCEDP_OP_RC_ACK,
		.dest_qp = 0x42,
		.aeth = 0x1f000000,
		.flags = RD_FRAME_ICRC | RD_FRAME_NO_DF,
	};
	struct rd_frame wf = {
		.dmac = { 2, 0xcc, 0, 0, 0, 1 },
		.smac = { 2, 0xee, 0, 0, 0, 1 },
		.src4 = 0x0a090006,
		.dst4 = 0x0a010005,
		.sport = 0xc001,
		.tos = 0x68,
		.opcode = ROCEDP_OP_RC_WRITE_FIRST,
		.dest_qp = 0x900,
		.psn = 0x123456,
		.ack_req = true,
		.payload = 13,
		.dma_len = 4096,
	};
	struct rd_frame wl = {
		.dmac = { 2, 0xbb, 0, 0, 0, 2 },
		.smac = { 2, 0xaa, 0, 0, 0, 1 },
		.v6 = true,
		.src6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
		.dst6 = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 },
		.tos = 0x69,
		.flow_label = 0xc123,
		.sport = 0xc123,
		.opcode = ROCEDP_OP_RC_WRITE_LAST,
		.becn = true,
		.ack_req = true,
		.dest_qp = 0x812345,
		.psn = 0xabcdef,
		.ext = "",
		.payload = 5,
		.fill = 0x5a,
		.flags = RD_FRAME_ICRC | RD_FRAME_UDP6_CSUM,
	};

	same("ecn_test's IPv4 ACK", &ack, ecn_ack4, sizeof(ecn_ack4));
	same("lbeval's IPv4 WRITE FIRST", &wf, lb_write_first4,
	     sizeof(lb_write_first4));
	same("rocegen's IPv6 WRITE LAST", &wl, rg_write_last6,
	     sizeof(rg_write_last6));
}

static unsigned int be16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

/* Internet checksum of the IPv6 pseudo header and the UDP datagram: 0 */
static unsigned int udp6_residual(const uint8_t *ip, size_t l4)
{
	uint8_t ph[40 + 9216] = { 0 };

	memcpy(ph, ip + 8, 32);
	ph[34] = l4 >> 8;
	ph[35] = l4 & 0xff;
	ph[39] = 17;
	memcpy(ph + 40, ip + 40, l4);
	return rd_frame_csum(ph, 40 + l4);
}

struct bad {
	unsigned int frames, len, iplen, udplen, pad, ipcsum, udpcsum, icrc,
		ext;
};

/* What a receiver checks, on one frame; counts what is wrong. */
static void check(const struct rd_frame *f, struct bad *b)
{
	uint8_t buf[2048];
	size_t len = rd_frame_build(buf, sizeof(buf), f), l3 = f->v6 ? 40 : 20;
	const uint8_t *ip = buf + 14, *udp = ip + l3, *bth = udp + 8;
	size_t l4 = len - 14 - l3,
	       ext = f->ext ? f->ext_len : rd_frame_ext_len(f->opcode);
	unsigned int pad = (bth[1] >> 4) & 3;

	b->frames++;
	if (!len || len != rd_frame_len(f)) {
		b->len++;
		return;
	}
	if (be16(ip + (f->v6 ? 4 : 2)) != (f->v6 ? l4 : l3 + l4))
		b->iplen++;
	if (be16(udp + 4) != l4)
		b->udplen++;
	if (pad != (4 - f->payload % 4) % 4 || (l4 - 8) % 4 ||
	    l4 != 8 + 12 + ext + f->payload + pad + 4)
		b->pad++;
	if (!f->v6 && rd_frame_csum(ip, 20))
		b->ipcsum++;
	if (f->v6 && (f->flags & RD_FRAME_UDP6_CSUM) &&
	    (!be16(udp + 6) || udp6_residual(ip, l4)))
		b->udpcsum++;
	if ((f->flags & RD_FRAME_ICRC) && rd_icrc_verify(buf, len, NULL, NULL))
		b->icrc++;
	if (f->ext && memcmp(bth + 12, f->ext, f->ext_len))
		b->ext++;
}

static void grid(void)
{
	static const uint8_t ops[] = {
		ROCEDP_OP_RC_SEND_ONLY,	   ROCEDP_OP_RC_WRITE_FIRST,
		ROCEDP_OP_RC_WRITE_MIDDLE, ROCEDP_OP_RC_WRITE_ONLY,
		ROCEDP_OP_RC_ACK,	   ROCEDP_OP_CNP,
	};
	static const uint32_t pays[] = { 0, 1, 2, 3, 4, 5, 255, 1021, 1024 };
	static const uint8_t ext[20] = { 1,  2,	 3,  4,	 5,  6,	 7,  8,	 9, 10,
					 11, 12, 13, 14, 15, 16, 17, 18, 19 };
	struct bad b = { 0 };
	unsigned int v6, o, p, fl, x;

	for (v6 = 0; v6 < 2; v6++)
		for (o = 0; o < sizeof(ops); o++)
			for (p = 0; p < sizeof(pays) / sizeof(pays[0]); p++)
				for (fl = 0; fl < 8; fl++)
					for (x = 0; x < 2; x++) {
						struct rd_frame f = {
							.v6 = v6,
							.src4 = 0x0a000001,
							.dst4 = 0x0a010002,
							.src6 = { 0xfd, [15] = 1 },
							.dst6 = { 0xfd, [15] = 2 },
							.tos = 0x6a,
							.sport = 0xc000 + p,
							.opcode = ops[o],
							.dest_qp = 0x100 + o,
							.psn = p,
							.ext = x ? ext : NULL,
							.ext_len = x ? 20 : 0,
							.dma_len = 1 << 20,
							.payload = pays[p],
							.fill = 0xa5,
							.flags = fl,
						};
						check(&f, &b);
					}
	result(b.len == 0, "grid: %u frames, length as rd_frame_len (%u bad)",
	       b.frames, b.len);
	result(b.iplen == 0 && b.udplen == 0,
	       "grid: IP and UDP lengths match the frame (%u, %u bad)", b.iplen,
	       b.udplen);
	result(b.pad == 0,
	       "grid: BTH PadCnt pads the payload to 4 bytes (%u bad)", b.pad);
	result(b.ipcsum == 0, "grid: IPv4 header checksum right (%u bad)",
	       b.ipcsum);
	result(b.udpcsum == 0,
	       "grid: IPv6 UDP checksum, when asked, right and not 0 (%u bad)",
	       b.udpcsum);
	result(b.icrc == 0, "grid: ICRC, when asked, verifies (%u bad)",
	       b.icrc);
	result(b.ext == 0, "grid: given extension bytes copied (%u bad)",
	       b.ext);
}

/* A buffer too small is refused whole: 0, and nothing written. */
static void too_small(void)
{
	struct rd_frame f = { .opcode = ROCEDP_OP_RC_WRITE_ONLY,
			      .payload = 100 };
	uint8_t buf[256];
	size_t need = rd_frame_len(&f), i;
	bool untouched = true;

	memset(buf, 0xee, sizeof(buf));
	for (i = 0; i < need; i++)
		untouched &= rd_frame_build(buf, i, &f) == 0;
	for (i = 0; i < sizeof(buf); i++)
		untouched &= buf[i] == 0xee;
	result(untouched && rd_frame_build(buf, need, &f) == need,
	       "a buffer under %zu bytes gets 0 and is not written", need);
}

int main(void)
{
	known_answers();
	grid();
	too_small();
	printf("%d passed, %d failed\n", n_test - n_fail, n_fail);
	return n_fail != 0;
}
