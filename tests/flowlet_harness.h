/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the flowlet and RTT tests share: a config with four equal members
 * and helper groups, an engine on the deterministic clock, and frames
 * sent at a chosen time through the real XDP program.
 */
#ifndef ROCEDP_FLOWLET_HARNESS_H
#define ROCEDP_FLOWLET_HARNESS_H

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#include "stats.h"
#include "frame.h"
#include "tap.h"

#define US 1000ull
#define T0 (5000 * US) /* traces start at 5 ms: 0 is no time */
#define IN_IFINDEX 1 /* lo: a test run needs a real receiving device */
#define PORT0 100 /* modelled egress ports 100..103 */
#define N_MEMBERS 4

/* ---------------------------------------------------------------- setup */

/*
 * Group 1: four equal members on ports 100..103 (10.1.0.0/16). Groups 2..5
 * hold one of those ports each (10.2..10.5/16): traffic routed there loads
 * exactly that port, which is how the tests preload the DRE. Group 6
 * (10.6/16) has rtt_us 2 and group 7 (10.7/16) rtt_us 1000, to hit the
 * gap clamps from below and above.
 */
static inline void write_config(FILE *f, const char *flowlet)
{
	static const char *const groups[] = {
		"{\"id\": 1, \"members\": [%s, %s, %s, %s]}",
		"{\"id\": 2, \"members\": [%s]}",
		"{\"id\": 3, \"members\": [%s]}",
		"{\"id\": 4, \"members\": [%s]}",
		"{\"id\": 5, \"members\": [%s]}",
		"{\"id\": 6, \"rtt_us\": 2, \"members\": [%s, %s]}",
		"{\"id\": 7, \"rtt_us\": 1000, \"members\": [%s, %s]}",
	};
	char mb[N_MEMBERS][128];
	unsigned int i;

	for (i = 0; i < N_MEMBERS; i++)
		snprintf(mb[i], sizeof(mb[i]),
			 "{\"ifindex\": %u, \"smac\": \"02:aa:00:00:00:%02x\", "
			 "\"dmac\": \"02:bb:00:00:00:%02x\", \"weight\": 1}",
			 PORT0 + i, i, i);
	fprintf(f,
		"{\"features\": [\"forward\", \"flowlet\"],\n"
		" \"hash\": {\"mode\": \"flowlet\"},\n"
		" \"flowlet\": %s,\n \"groups\": [\n",
		flowlet);
	fprintf(f, groups[0], mb[0], mb[1], mb[2], mb[3]);
	for (i = 0; i < N_MEMBERS; i++) {
		fputs(",\n", f);
		fprintf(f, groups[1 + i], mb[i]);
	}
	fputs(",\n", f);
	fprintf(f, groups[5], mb[0], mb[1]);
	fputs(",\n", f);
	fprintf(f, groups[6], mb[0], mb[1]);
	fputs("],\n \"routes\": [", f);
	for (i = 1; i <= 7; i++)
		fprintf(f, "%s{\"prefix\": \"10.%u.0.0/16\", \"group\": %u}",
			i > 1 ? ", " : "", i, i);
	/* the hosts' own subnet, for ACKs travelling back */
	fputs(", {\"prefix\": \"10.9.0.0/16\", \"group\": 1}]}\n", f);
}

/* The test config with this flowlet section, onto engine e's maps. */
static inline int apply_flowlet(struct rd_engine *e, const char *flowlet)
{
	char *json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	int err;

	if (!f)
		return -errno;
	write_config(f, flowlet);
	err = fclose(f) ? -errno : 0;
	if (!err)
		err = rd_config_apply_text("flowlet_test config", json, len,
					   rd_engine_maps(e));
	free(json);
	return err;
}

static inline struct rd_engine *engine_open_with(const char *flowlet,
						 bool map_clock)
{
	struct rd_engine_opts eo = { .trace = true,
				     .map_clock = map_clock,
				     .bind_cpu = true,
				     .hooks = RD_HOOK_BIT(RD_HOOK_XDP) };
	struct rd_engine *e;
	int err;

	err = rd_engine_open(&e, &eo);
	if (err) {
		printf("# cannot load the BPF object: %s\n", strerror(-err));
		return NULL;
	}
	err = apply_flowlet(e, flowlet);
	if (err) {
		printf("# config rejected: %s\n", strerror(-err));
		rd_engine_close(e);
		return NULL;
	}
	return e;
}

/* the deterministic clock: rd_clock, set before every frame */
static inline struct rd_engine *engine_with(const char *flowlet)
{
	return engine_open_with(flowlet, true);
}

/* ---------------------------------------------------------------- frames */

struct tx {
	uint32_t src, dst; /* host order */
	uint32_t qp, psn;
	uint16_t sport; /* UDP source port; 0: 0xc001 */
	uint8_t opcode;
	bool ack_req;
	uint32_t payload;
};

static inline uint32_t ip4(unsigned int a, unsigned int b, unsigned int c,
			   unsigned int d)
{
	return a << 24 | b << 16 | c << 8 | d;
}

/* x as a frame: Ethernet, IPv4, UDP 4791, BTH (RDMA WRITE by default). */
static inline void tx_frame(const struct tx *x, struct rd_frame *f)
{
	struct rd_frame s = {
		.smac = { 2, 0xee, 0, 0, 0, 1 },
		.dmac = { 2, 0xcc, 0, 0, 0, 1 },
		.src4 = x->src,
		.dst4 = x->dst,
		.sport = x->sport ? x->sport : 0xc001,
		.tos = 0x68,
		.opcode = x->opcode ? x->opcode : ROCEDP_OP_RC_WRITE_MIDDLE,
		.dest_qp = x->qp,
		.psn = x->psn,
		.ack_req = x->ack_req,
		.payload = x->opcode == ROCEDP_OP_RC_ACK ? 0 :
			   x->payload			 ? x->payload :
							   1024,
		.aeth = 0x1f000000 | (x->psn & 0xffffff),
	};

	*f = s;
}

/* Run one frame at time t; returns the member slot, -1 if not forwarded. */
static inline int send_at(struct rd_engine *e, uint64_t t, const struct tx *x,
			  uint32_t *len)
{
	struct rd_frame s;
	uint8_t in[2048], out[2048];
	struct rd_run r = { .in = in,
			    .out = out,
			    .out_size = sizeof(out),
			    .ingress_ifindex = IN_IFINDEX };

	tx_frame(x, &s);
	r.in_len = rd_frame_build(in, sizeof(in), &s);
	if (len)
		*len = r.in_len;
	if (rd_engine_set_time(e, t) || rd_engine_run(e, RD_HOOK_XDP, &r))
		return -1;
	if (r.verdict != ROCEDP_VERDICT_REDIRECT)
		return -1;
	return r.trace.member;
}

static inline uint64_t ctr(struct rd_engine *e, uint32_t key)
{
	__u64 v;

	if (rd_counter_get(rd_engine_maps(e)->fd[RD_MAP_STATS], key, &v))
		return ~0ull;
	return v;
}

static inline int port_state(struct rd_engine *e, uint32_t ifindex,
			     struct rocedp_port_state *st)
{
	memset(st, 0, sizeof(*st));
	return bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_STATE],
				   &ifindex, st);
}

/* The load estimate of ifindex on this thread's CPU (the engine's). */
static inline int port_load(struct rd_engine *e, uint32_t ifindex,
			    struct rocedp_port_load *ld)
{
	int ncpu = libbpf_num_possible_cpus(), cpu = sched_getcpu(), err;
	struct rocedp_port_load *all;

	memset(ld, 0, sizeof(*ld));
	if (ncpu <= 0 || cpu < 0 || cpu >= ncpu)
		return -EINVAL;
	all = calloc(ncpu, sizeof(*all));
	if (!all)
		return -ENOMEM;
	err = bpf_map_lookup_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_LOAD],
				  &ifindex, all);
	if (!err)
		*ld = all[cpu];
	free(all);
	return err;
}

#endif
