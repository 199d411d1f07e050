/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal pcap (not pcapng) reader and writer for Ethernet captures. */
#ifndef ROCEDP_PCAP_H
#define ROCEDP_PCAP_H

#include <stdint.h>
#include <stdio.h>

#define RD_PCAP_MAX_FRAME 65535

struct rd_pcap {
	FILE *f;
	const char *path;
	int swapped; /* file written on the other endianness */
	int nsec; /* nanosecond timestamps */
	uint32_t snaplen;
};

struct rd_pcap_rec {
	uint64_t ts_ns;
	uint32_t caplen;
	uint32_t origlen;
	uint8_t data[RD_PCAP_MAX_FRAME];
};

/* -errno; -EPROTO for a file that is not an Ethernet pcap */
int rd_pcap_open_read(struct rd_pcap *p, const char *path);
/* 1 = record read, 0 = clean end of file, -EPROTO = truncated/corrupt */
int rd_pcap_read(struct rd_pcap *p, struct rd_pcap_rec *r);
int rd_pcap_open_write(struct rd_pcap *p, const char *path);
int rd_pcap_write(struct rd_pcap *p, uint64_t ts_ns, const void *data,
		  uint32_t len);
int rd_pcap_close(struct rd_pcap *p);

#endif
