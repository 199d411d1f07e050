/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lbeval's trace input: frames captured on a live fabric (pcap, Ethernet),
 * merged from several files by timestamp, so that the evaluator sees what
 * the live switch saw, at the times it saw it.
 */
#ifndef ROCEDP_LBEVAL_PCAPIN_H
#define ROCEDP_LBEVAL_PCAPIN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Only the headers are kept: forwarding reads no payload (the ICRC is not
 * checked), so a frame is rebuilt as these bytes padded with zeros to its
 * original length. 160 B covers Ethernet + 2 VLAN tags + IPv6 + UDP + BTH
 * + RETH.
 */
#define LB_RAW_HDR 160

struct lb_raw {
	uint64_t t_ns; /* capture time, from the first frame of the trace */
	uint32_t len; /* the frame's length on the wire (pcap origlen) */
	uint16_t caplen; /* bytes kept in hdr */
	uint8_t hdr[LB_RAW_HDR];
};

/*
 * Reads every file, merges them by timestamp (stable: a file's own order is
 * kept on ties) and rebases times to the first frame. *bytes: the sum of
 * len. Returns -errno after one rd_err line naming the file.
 */
int lb_pcap_load(const char *const *paths, unsigned int n, struct lb_raw **out,
		 size_t *n_out, uint64_t *bytes);

#endif
