/* SPDX-License-Identifier: GPL-2.0 */
/* lbeval: what the trace builder, the runner and the report share. */
#ifndef ROCEDP_LBEVAL_H
#define ROCEDP_LBEVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pcapin.h"

#define LB_MAX_MEMBERS 64
#define LB_MAX_HOSTS 1024
#define LB_GROUP_ID 1
#define LB_IFINDEX_BASE 100 /* modelled egress ports 100.. */
#define LB_INGRESS_IFINDEX 1 /* lo: test runs need a real receiving device */
#define LB_TOS 0x6a /* DSCP 26, ECT(0): a typical RoCE data class */
/* a 9216-byte jumbo frame with two VLAN tags: rocedp_xdp is xdp.frags, so
 * test runs take multi-buffer frames */
#define LB_MAX_FRAME 9238
#define LB_PS_PER_NS 1000ull
#define LB_MAX_PCAPS 16

/* The CLI's error helper lives in main.c, which tools do not link. */

enum lb_pattern { LB_RING, LB_ALLTOALL, LB_INCAST };
extern const char *const pattern_names[];

enum lb_mode {
	LB_5TUPLE,
	LB_QP,
	LB_QP_ONLY,
	LB_FLOWLET,
	LB_FLOWLET_RANDOM,
	LB_SPRAY,
	LB_MODE_MAX,
};
extern const char *const mode_names[];

struct lb_opts {
	enum lb_pattern pattern;
	unsigned int hosts, pairs, qps, iters, members;
	unsigned int msg, mtu;
	double gap_us, skew_us, rate_gbps, jitter_us;
	unsigned int rtt_us, tau_us; /* tau 0: the ABI default */
	unsigned int modes; /* 1 << enum lb_mode */
	unsigned int seed;
	bool json, standard, check;
	const char *png;
	const char *pcap[LB_MAX_PCAPS]; /* trace input instead of a pattern */
	unsigned int n_pcap;
	double window_us; /* --pcap: the "phases" are windows of this length */
};

struct lb_pair {
	unsigned int src, dst; /* host indices */
	uint16_t sport;
};

struct lb_qp {
	unsigned int pair;
	uint32_t qpn;
	uint32_t psn;
};

/* One frame of the trace, in send order. */
struct lb_ev {
	uint64_t t_ps; /* first bit on the wire */
	uint32_t qp;
	uint32_t psn;
	uint32_t dma_len;
	uint16_t payload;
	uint8_t opcode;
	uint8_t ack_req;
	uint32_t phase;
	uint32_t seq; /* tie-break: generation order */
};

struct lb_trace {
	struct lb_pair *pairs;
	unsigned int n_pairs;
	struct lb_qp *qps;
	unsigned int n_qps;
	struct lb_ev *ev;
	size_t n_ev, cap;
	unsigned int n_phases;
	uint64_t bytes; /* frame bytes */
	uint64_t end_ps;
	struct lb_raw *raw; /* --pcap: n_ev captured frames, no ev/qps */
};

struct lb_result {
	enum lb_mode mode;
	uint64_t bytes[LB_MAX_MEMBERS];
	uint64_t pkts[LB_MAX_MEMBERS];
	double imbalance, phase_imbalance;
	uint64_t moves, flowlets, flows, reorder_risk, member_gone;
	uint64_t insert_fail, reordered, not_forwarded;
	double seconds;
};

double imbalance_of(const uint64_t *bytes, unsigned int n);
double flowlet_gap_us(const struct lb_opts *o);
void print_table(const struct lb_trace *t, const struct lb_opts *o,
		 const struct lb_result *res, int n);
void print_json(const struct lb_trace *t, const struct lb_opts *o,
		const struct lb_result *res, int n);
int write_png(const struct lb_trace *t, const struct lb_opts *o,
	      const struct lb_result *res, int n);

#endif
