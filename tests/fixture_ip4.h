/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture runner's IPv4 header checks (the "ipcsum" key): where the
 * header is behind up to two tags, and whether its checksum holds.
 * Included by tests/fixture_runner.c only.
 */
#ifndef ROCEDP_FIXTURE_IP4_H
#define ROCEDP_FIXTURE_IP4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Offset of the IPv4 header after up to two tags, or -1. */
static int ip4_offset(const uint8_t *f, size_t len)
{
	size_t off = 12;
	int tags = 0;
	uint16_t et;

	for (;;) {
		if (off + 2 > len)
			return -1;
		et = f[off] << 8 | f[off + 1];
		if ((et != 0x8100 && et != 0x88a8) || tags == 2)
			break;
		off += 4;
		tags++;
	}
	if (et != 0x0800 || off + 2 + 20 > len)
		return -1;
	return off + 2;
}

static bool ip4_csum_ok(const uint8_t *f, size_t len, char *why, size_t wl)
{
	int off = ip4_offset(f, len);
	uint32_t sum = 0;
	size_t i, hl;

	if (off < 0) {
		snprintf(why, wl, "no IPv4 header");
		return false;
	}
	hl = (f[off] & 0xf) * 4;
	if (hl < 20 || off + hl > len) {
		snprintf(why, wl, "bad IHL");
		return false;
	}
	for (i = 0; i < hl; i += 2)
		sum += f[off + i] << 8 | f[off + i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	snprintf(why, wl, "header sums to %#x", sum);
	return sum == 0xffff;
}

#endif
