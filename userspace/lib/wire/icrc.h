/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 invariant CRC (ICRC): the 4 bytes that end every RoCEv2 packet.
 *
 * The CRC-32 (the Ethernet/zlib polynomial) runs over 8 bytes of 0xff that
 * stand in for the InfiniBand LRH, then the IP header, UDP header, BTH and
 * the rest of the UDP payload up to the ICRC, with every field a router may
 * rewrite read as all ones: IPv4 TOS, TTL and header checksum; IPv6 traffic
 * class, flow label and hop limit; the UDP checksum; BTH byte 4 (FECN, BECN
 * and reserved bits). The result goes on the wire least significant byte
 * first, as NICs and scapy.contrib.roce do.
 *
 * Pure functions: no state, no allocation; safe on any input length.
 */
#ifndef ROCEDP_ICRC_H
#define ROCEDP_ICRC_H

#include <stddef.h>
#include <stdint.h>

#define RD_ICRC_LEN 4

/* zlib-compatible CRC-32: start with crc = 0, chain by passing the result. */
uint32_t rd_icrc_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * Locate the RoCEv2 part of an Ethernet frame (up to two 802.1Q/802.1ad
 * tags, then IPv4 or IPv6 with UDP as the next header, no IPv6 extension
 * headers, no IPv4 fragments). The ICRC sits in the last 4 bytes of the UDP
 * payload as given by the UDP length; Ethernet padding after it is ignored.
 * @frame/@len: the frame from the destination MAC, without FCS.
 * @icrc_off: (optional) offset of the ICRC in the frame.
 * Returns 0, -EINVAL (NULL frame), -EPROTONOSUPPORT (not IP/UDP, a
 * fragment, IPv6 extension header) or -EBADMSG (truncated, lengths that do
 * not fit, UDP payload shorter than BTH + ICRC).
 */
int rd_icrc_locate(const void *frame, size_t len, size_t *icrc_off);

/* Compute the ICRC the frame should carry; errors as rd_icrc_locate(). */
int rd_icrc_compute(const void *frame, size_t len, uint32_t *icrc);

/* Compute and store the ICRC in place; errors as rd_icrc_locate(). */
int rd_icrc_set(void *frame, size_t len);

/*
 * Check the stored ICRC: 0 when it matches, -EILSEQ when it does not,
 * other errors as rd_icrc_locate(). @found/@want (optional) receive the
 * stored and the computed value.
 */
int rd_icrc_verify(const void *frame, size_t len, uint32_t *found,
		   uint32_t *want);

#endif
