// SPDX-License-Identifier: GPL-2.0
/*
 * A full IPv4 trie. The kernel routes 10/8 via port 2
 * and 10.1.2/24 via port 3; rocedp sync's FIB (group*.c) installs the /8,
 * the trie fills up (filler /32s written beside it), then the /24 cannot
 * be written (ENOSPC). Frames to 10.1.2.5 must not leave on port 2 where
 * the kernel would use port 3: the /8 is marked ROUTEF_KERNEL and its
 * frames are passed (route_pending). Space freed, the next commit (as
 * sync's tick makes) lands the /24, unmarks the /8, and forwarding
 * follows the kernel again. A config load into the full trie fails as a
 * whole and leaves the maps as they were.
 *
 * Usage: route_full [-q]   (root). TAP output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "engine.h"
#include "config_txn.h"
#include "sync.h"
#include "frame.h"
#include "routew.h"
#include "tap.h"

#define FRAMES 500 /* per destination and phase */

/* -DROUTE_FULL_OLD builds against a tree without the pending routes */
#ifdef ROUTE_FULL_OLD
#define ROUTEF_KERNEL 0xffffffffu
#define N_PENDING(f) 0
#else
#define ROUTEF_KERNEL ROCEDP_ROUTEF_KERNEL
#define N_PENDING(f) rd_fib_n_pending(f)
#endif

struct fwd {
	unsigned int right, wrong, passed, pending;
};

static void fill(void *ctx, struct rocedp_member *m)
{
	(void)ctx;
	m->smac[0] = m->dmac[0] = 2;
	m->smac[5] = m->dmac[5] = m->ifindex;
	m->flags |= ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED;
}

/* FRAMES flows to dst (host order); kernel_port: where Linux sends them. */
static struct fwd fwd_frames(struct rd_engine *e, uint32_t dst,
			     uint32_t kernel_port)
{
	struct rd_frame spec = { .src4 = 0x0a090001,
				 .dst4 = dst,
				 .sport = 49152,
				 .opcode = ROCEDP_OP_RC_SEND_ONLY,
				 .payload = 16 };
	uint8_t in[256], out[512];
	struct fwd w = { 0 };
	struct rd_run r;
	int i;

	for (i = 0; i < FRAMES; i++) {
		spec.dest_qp = 0x100 + i * 7919u;
		memset(&r, 0, sizeof(r));
		r.in = in;
		r.in_len = rd_frame_build(in, sizeof(in), &spec);
		r.out = out;
		r.out_size = sizeof(out);
		if (rd_engine_run(e, RD_HOOK_TC, &r)) {
			w.wrong++;
			continue;
		}
		if (r.verdict == ROCEDP_VERDICT_PASS) {
			w.passed++;
#ifndef ROUTE_FULL_OLD
			w.pending += r.trace.pass_reason ==
				     ROCEDP_PASS_ROUTE_PENDING;
#endif
		} else if (r.trace.egress_ifindex == kernel_port) {
			w.right++;
		} else {
			w.wrong++;
		}
	}
	return w;
}

static struct rocedp_route4_key key4(uint32_t addr, uint32_t plen)
{
	return (struct rocedp_route4_key){ .prefixlen = plen,
					   .addr = htonl(addr) };
}

int main(int argc, char **argv)
{
	struct rd_engine_opts eo = { .trace = true,
				     .map_clock = true,
				     .bind_cpu = true,
				     .hooks = RD_HOOK_BIT(RD_HOOK_TC) };
	struct rd_hop a = { .ifindex = 2, .weight = 1, .family = AF_INET };
	struct rd_hop b = { .ifindex = 3, .weight = 1, .family = AF_INET };
	uint32_t net8 = htonl(0x0a000000), net24 = htonl(0x0a010200);
	struct rocedp_route v, filler_val = { .group_id = 1 };
	struct rocedp_route4_key k;
	struct rocedp_group g;
	struct rd_fib_counts cnt = { 0 };
	const struct rd_maps *m;
	struct rd_fib_maps fm;
	struct rd_engine *e;
	struct rd_fib *fib;
	unsigned int n_fill = 0, i, g8;
	struct fwd w1, w2;
	int err, fd4;
	static const char cfg_fwd[] = "{\"features\": [\"forward\"]}";
	static const char cfg_route[] =
		"{\"features\": [\"forward\"], \"groups\": [{\"id\": 50,"
		" \"members\": [{\"ifindex\": 4, \"smac\": \"02:00:00:00:00:04\","
		" \"dmac\": \"02:00:00:00:00:14\", \"weight\": 1}]}],"
		" \"routes\": [{\"prefix\": \"10.7.0.0/16\", \"group\": 50}]}";

	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	err = rd_engine_open(&e, &eo);
	if (!result(!err, "engine ready%s%s", err ? ": " : "",
		    err ? strerror(-err) : ""))
		return 1;
	m = rd_engine_maps(e);
	fd4 = m->fd[RD_MAP_ROUTES4];
	err = rd_config_apply_text("route_full", cfg_fwd, sizeof(cfg_fwd) - 1,
				   m);
	fib = rd_fib_new();
	if (!result(!err && fib, "config and FIB model"))
		return 1;
	fm = (struct rd_fib_maps){ .routes4 = fd4,
				   .routes6 = m->fd[RD_MAP_ROUTES6],
				   .groups = m->fd[RD_MAP_GROUPS],
				   .group_banks = m->fd[RD_MAP_GROUP_BANKS],
				   .group_live = m->fd[RD_MAP_GROUP_LIVE],
				   .tx_ports = -1,
				   .port_cfg = -1 };
	if (!result(!rd_routew_gen_map(m->fd[RD_MAP_ROUTE_GEN], &fm.route_gen),
		    "rd_route_gen mapped"))
		return 1;
	rd_fib_set_maps(fib, &fm);
	err = rd_fib_route_set(fib, AF_INET, 8, &net8, 0, &a, 1) ?:
		      rd_fib_commit(fib, false, fill, NULL, &cnt);
	w1 = fwd_frames(e, 0x0a010205, 2);
	k = key4(0x0a000000, 8);
	if (!err && bpf_map_lookup_elem(fd4, &k, &v))
		err = -errno;
	g8 = v.group_id;
	result(!err && w1.right == FRAMES,
	       "10/8 via port 2 installed: %u of %u frames to 10.1.2.5 on port 2",
	       w1.right, FRAMES);

	/* fill the trie with /32s under 172.16/12 until it refuses */
	for (i = 0;; i++) {
		k = key4(0xac100000 + i, 32);
		if (bpf_map_update_elem(fd4, &k, &filler_val, BPF_ANY))
			break;
		n_fill++;
	}
	err = errno;
	result(err == ENOSPC, "trie full after %u filler routes (%s)", n_fill,
	       strerror(err));

	/* the kernel now routes 10.1.2/24 via port 3: the write fails */
	memset(&cnt, 0, sizeof(cnt));
	err = rd_fib_route_set(fib, AF_INET, 24, &net24, 0, &b, 1) ?:
		      rd_fib_commit(fib, false, fill, NULL, &cnt);
	k = key4(0x0a010200, 24);
	result(err && !bpf_map_lookup_elem(fd4, &k, &v) && v.group_id == g8 &&
		       (v.flags & ROUTEF_KERNEL),
	       "10.1.2.0/24 refused by the full trie (commit says so); 10.1.2.0 matches the /8, marked for the kernel");
	w1 = fwd_frames(e, 0x0a010205, 3);
	w2 = fwd_frames(e, 0x0a050001, 2);
	printf("# full: to 10.1.2.5: %u right, %u wrong, %u passed (%u route_pending); to 10.5.0.1: %u right, %u wrong, %u passed\n",
	       w1.right, w1.wrong, w1.passed, w1.pending, w2.right, w2.wrong,
	       w2.passed);
	result(w1.wrong == 0 && w2.wrong == 0,
	       "0 frames forwarded where the kernel would forward differently (%u of %u to 10.1.2.5 followed the /8)",
	       w1.wrong, FRAMES);
#ifndef ROUTE_FULL_OLD
	result(w1.pending == FRAMES && w2.pending == FRAMES &&
		       rd_fib_n_pending(fib) == 1 && cnt.route_fails == 1,
	       "the /8 is the kernel's meanwhile: %u + %u frames passed as route_pending, 1 route pending",
	       w1.pending, w2.pending);
#endif

	/* free one entry: the next commit (sync's tick) lands the /24 */
	k = key4(0xac100000, 32);
	bpf_map_delete_elem(fd4, &k);
	memset(&cnt, 0, sizeof(cnt));
	err = rd_fib_commit(fib, false, fill, NULL, &cnt);
	k = key4(0x0a010200, 24);
	result(!err && !bpf_map_lookup_elem(fd4, &k, &v) && v.group_id != g8 &&
		       !N_PENDING(fib),
	       "space freed: the retry installs 10.1.2.0/24");
	k = key4(0x0a000000, 8);
	result(!bpf_map_lookup_elem(fd4, &k, &v) && !(v.flags & ROUTEF_KERNEL),
	       "and gives 10/8 back to the dataplane");
	w1 = fwd_frames(e, 0x0a010205, 3);
	w2 = fwd_frames(e, 0x0a050001, 2);
	result(w1.right == FRAMES && w2.right == FRAMES,
	       "forwarding follows the kernel: %u of %u to 10.1.2.5 on port 3, %u of %u to 10.5.0.1 on port 2",
	       w1.right, FRAMES, w2.right, FRAMES);

	/* a config load into a full trie fails whole, maps as they were */
	k = key4(0xac100000, 32);
	bpf_map_update_elem(fd4, &k, &filler_val, BPF_ANY);
	err = rd_config_apply_text("route_full", cfg_route,
				   sizeof(cfg_route) - 1, m);
	k = key4(0x0a070000, 16);
	i = 50;
	result(err == -ENOSPC && !bpf_map_lookup_elem(fd4, &k, &v) &&
		       v.group_id == g8 &&
		       bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS], &i, &g),
	       "config load into the full trie: refused (%s), its group rolled back",
	       strerror(-err));
	rd_fib_free(fib);
	rd_engine_close(e);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
