/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The offline dataplane engine: the real BPF programs loaded with the test
 * rodata flags (trace + map-driven clock) and driven by BPF_PROG_TEST_RUN.
 * Used by `rocedp replay`, the fixture tests, the evaluator and benchmarks.
 */
#ifndef ROCEDP_ENGINE_H
#define ROCEDP_ENGINE_H

#include "rocedp.h"

enum rd_hook {
	RD_HOOK_XDP = 0, /* rocedp_xdp */
	RD_HOOK_TC, /* rocedp_tc_ingress */
	RD_HOOK_XDP_EGRESS, /* egress pipeline, port = ingress_ifindex
			     * (rocedp_egress_tr: the tc egress pipeline with
			     * the port from skb->mark; XDP has no egress
			     * program, it marks ECN at ingress) */
	RD_HOOK_TC_EGRESS, /* rocedp_tc_egress, port = skb->ifindex: must
			    * exist (0 means lo) */
	RD_HOOK_TC_RX, /* rocedp_tc_ingress_rx: tc ingress with the outer
			* tag in skb metadata, as the receive path hands
			* it over; the output has that tag written back */
	RD_HOOK_MAX,
};

struct rd_engine;

struct rd_engine_opts {
	bool trace; /* write rd_trace per frame (default on for replay) */
	bool map_clock; /* time from rd_clock */
	bool ecn_kfunc; /* use the module's kfunc (only if loaded) */
	bool general_path; /* no express path: every frame through the
			    * general parser (tests compare the two) */
	bool bind_cpu; /* keep the calling thread on its CPU while open */
	unsigned int hooks; /* RD_HOOK_BIT()s to load, 0: all. Each program
			     * is verified at load, most of an open's cost:
			     * a caller that runs one hook loads one */
};

#define RD_HOOK_BIT(h) (1u << (h))
/* no program at all: the maps alone */
#define RD_HOOKS_NONE RD_HOOK_BIT(RD_HOOK_MAX)

/*
 * Load the object; -errno. Maps are private (not pinned) and modelled
 * (rd_maps.modelled). Only with o->bind_cpu, and while any such engine is
 * open, the calling thread is bound to the CPU it opened the first on
 * (the per-CPU load estimate must see every frame, as a replay of
 * flowlets needs); closing the last one restores the thread's CPU mask.
 * Without it the caller's affinity is left alone.
 */
int rd_engine_open(struct rd_engine **e, const struct rd_engine_opts *o);
/* A hook left out of o->hooks: rd_engine_run and rd_engine_prog_fd give
 * -ENOENT. */
void rd_engine_close(struct rd_engine *e);
/* Map fds of the engine's object, in rd_map_id order. */
const struct rd_maps *rd_engine_maps(struct rd_engine *e);
int rd_engine_prog_fd(struct rd_engine *e, enum rd_hook h);

/* Set the deterministic clock (ns); only meaningful with map_clock. */
int rd_engine_set_time(struct rd_engine *e, uint64_t ns);

/*
 * Run one frame. out/out_len: buffer and its size in, bytes written out.
 * ingress_ifindex is what the program sees as the receiving port (0 = lo).
 * *verdict gets the ROCEDP_VERDICT_* the hook's return code maps to.
 */
struct rd_run {
	const void *in;
	uint32_t in_len;
	void *out;
	uint32_t out_size;
	uint32_t out_len; /* out */
	uint32_t ingress_ifindex;
	uint32_t retval; /* out: raw program return */
	uint32_t verdict; /* out: enum rocedp_verdict */
	struct rocedp_trace trace; /* out, when trace is on */
};
int rd_engine_run(struct rd_engine *e, enum rd_hook h, struct rd_run *r);

struct rocedp;
/* The map fds of a loaded skeleton, in rd_map_id order. */
void rd_maps_from_skel(struct rd_maps *m, struct rocedp *skel);

#endif
