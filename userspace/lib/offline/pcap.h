/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal pcap (not pcapng) reader and writer for Ethernet captures. */
#ifndef ROCEDP_PCAP_H
#define ROCEDP_PCAP_H

#include <stdint.h>
#include <stdio.h>
#include "safefile.h"

#define RD_PCAP_MAX_FRAME 65535

struct rd_pcap {
	FILE *f;
	const char *path;
	int swapped; /* file written on the other endianness */
	int nsec; /* nanosecond timestamps */
	uint32_t snaplen;
	struct rd_safefile out; /* a writer's temp file until close */
	int writing;
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
/* Written to a temp file beside path; close renames it over path. */
int rd_pcap_open_write(struct rd_pcap *p, const char *path);
int rd_pcap_write(struct rd_pcap *p, uint64_t ts_ns, const void *data,
		  uint32_t len);
/* A writer's file replaces path only now (-errno: path unchanged). */
int rd_pcap_close(struct rd_pcap *p);
/* A writer's temp file is dropped; path is left as it was. */
void rd_pcap_discard(struct rd_pcap *p);

#endif
