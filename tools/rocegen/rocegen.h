/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocegen: RoCEv2 RC traffic generator (requester) and NIC-like responder
 * over AF_PACKET, for labs built from network namespaces. See docs/rocegen.md.
 */
#ifndef ROCEGEN_H
#define ROCEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Opcodes and header lengths: the ABI's (ROCEDP_*) and frame.h's */
#include "rocedp_abi.h"
#include "frame.h"

#define RG_FRAME_MAX 9216
#define RG_PSN_MASK 0xffffffu
#define RG_QPN_MASK 0xffffffu
/* Responder QPN = requester QPN | RG_QPN_RESP (see docs: no CM exchange). */
#define RG_QPN_RESP 0x800000u

#define RG_AETH_ACK 0x1f /* ACK, credit count "unlimited" */
#define RG_AETH_NAK_PSN 0x60 /* NAK, PSN sequence error */

struct rg_addr {
	bool v6;
	uint8_t a[16]; /* IPv4 in a[0..3] */
};

/* The L2/L3/L4 headers of one direction of a QP. */
struct rg_path {
	uint8_t smac[6];
	uint8_t dmac[6];
	struct rg_addr src;
	struct rg_addr dst;
	uint8_t tos; /* DSCP << 2 | ECN */
	uint8_t ttl;
	uint16_t sport;
};

struct rg_bth {
	uint8_t opcode;
	uint8_t padcnt;
	bool becn;
	bool ackreq;
	uint32_t dqpn;
	uint32_t psn;
};

/* A parsed received RoCEv2 frame. */
struct rg_pkt {
	uint8_t smac[6];
	uint8_t dmac[6];
	struct rg_addr src;
	struct rg_addr dst;
	uint8_t tos;
	uint16_t sport;
	struct rg_bth bth;
	const uint8_t *ext; /* after BTH */
	size_t ext_len; /* up to the ICRC */
	uint8_t aeth_syndrome;
	uint32_t aeth_msn;
	uint32_t reth_rkey;
};

/* wire.c */
size_t rg_hdr_len(bool v6);
size_t rg_build(uint8_t *buf, const struct rg_path *p, const struct rg_bth *b,
		const void *ext, size_t ext_len, size_t payload_len);
int rg_parse(const uint8_t *buf, size_t len, struct rg_pkt *pkt);
uint16_t rg_udp_sport(uint32_t qpn_a, uint32_t qpn_b);
uint32_t rg_psn0(uint32_t requester_qpn);
/* 24-bit serial number distance b - a, signed. */
static inline int32_t rg_psn_diff(uint32_t b, uint32_t a)
{
	int32_t d = (int32_t)((b - a) & RG_PSN_MASK);

	return d >= 0x800000 ? d - 0x1000000 : d;
}
int rg_addr_parse(const char *s, struct rg_addr *a);
const char *rg_addr_str(const struct rg_addr *a, char *buf, size_t len);
bool rg_addr_eq(const struct rg_addr *a, const struct rg_addr *b);
int rg_mac_parse(const char *s, uint8_t mac[6]);

/* net.c */
uint64_t rg_now_ns(void);
enum rg_role { RG_ROLE_SEND, RG_ROLE_SERVE };
int rg_packet_socket(int ifindex, int rcvbuf, enum rg_role role);
int rg_udp_sink(bool v6);
int rg_if_mac(int ifindex, uint8_t mac[6]);
int rg_if_mtu(int ifindex);
/* Route + neighbour lookup: egress ifindex, source, next-hop MAC. */
int rg_resolve(const struct rg_addr *dst, int *ifindex, struct rg_addr *src,
	       uint8_t dmac[6], int timeout_ms);
bool rg_is_local(const struct rg_addr *a);
int rg_ifindex_of_addr(const struct rg_addr *a);
uint64_t rg_socket_drops(int fd);
/*
 * n messages for one recvmmsg(), each into its len-byte slot of bufs (laid
 * end to end) and, with from, its sender's address into from[i]. The
 * batch's fields are cleared: the kernel rewrites namelen and flags.
 */
struct mmsghdr;
struct iovec;
struct sockaddr_ll;
void rg_rx_batch_init(struct mmsghdr *msgs, struct iovec *iov, void *bufs,
		      size_t len, struct sockaddr_ll *from, int n);

/* ---- sender ---- */
struct rg_send_opts {
	char dev[32];
	int ifindex;
	struct rg_addr src;
	struct rg_addr dst[64];
	int ndst;
	uint8_t dmac[6];
	bool dmac_set;
	int qps;
	uint64_t msg;
	uint64_t count;
	int mtu; /* IP MTU; 0 = the interface's */
	double rate_mbps; /* line rate of this virtual NIC */
	int sport; /* -1: hash of the QP numbers */
	int dscp;
	bool ecn;
	uint64_t drop_every;
	uint64_t ce_every;
	int window;
	int rto_us;
	int retries;
	int dcqcn_timer_us;
	double dcqcn_g;
	uint32_t qpn_base;
	double timeout_s;
	bool json;
	bool verbose;
};

/* ---- responder ---- */
struct rg_serve_opts {
	char dev[32];
	int ifindex; /* 0: all interfaces */
	int ack_every;
	int ack_delay_us;
	int cnp_interval_us;
	int cnp_dscp; /* -1: same DSCP as the data */
	int ack_dscp; /* -1: same DSCP as the data */
	double duration_s;
	double idle_s;
	const char *ready_file;
	int ready_fd;
	bool json;
};

/* Totals a sender / responder hands to the pattern runner. */
struct rg_send_totals {
	uint64_t qps, qps_failed, messages, bytes, frames, retx_frames;
	uint64_t drops_injected, ce_injected, acks, naks, cnps, rate_cuts;
	uint64_t timeouts, icrc_errors;
	uint64_t start_ns, done_ns;
	uint64_t rx_dscp_ack[64], rx_dscp_nak[64], rx_dscp_cnp[64];
};

struct rg_serve_totals {
	uint64_t qps, frames, bytes, messages, oos, naks, dups, acks;
	uint64_t ce, ect, cnps, cnps_suppressed, icrc_errors, bad_qp;
	uint64_t socket_drops;
	/* the request PSN stream as seen on the wire (serve.c, rg_wire_psn) */
	uint64_t wire_gaps, wire_gap_psns, wire_rewinds, wire_dups;
};

/* Payload bytes per frame for an IP MTU, or -EMSGSIZE. */
int rg_payload_mtu(int ip_mtu, bool v6);
int rg_send_run(const struct rg_send_opts *o, FILE *out,
		struct rg_send_totals *t);
int rg_serve_run(const struct rg_serve_opts *o, FILE *out,
		 struct rg_serve_totals *t);

#endif
