// SPDX-License-Identifier: GPL-2.0
/*
 * Operations per frame (docs/bench.md): the counting copies of rocedp's
 * and the reference forwarders' objects (built with opcount.h), their
 * maps copied from the timed objects, run over the same frames; the
 * counters over the rounds give each row's clock reads, lookups by kind
 * and helper calls per frame.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp_opc.skel.h"
#include "empty_opc.skel.h"
#include "rdbench.h"
#include "rdbench_ops.h"

const char *const rd_opc_names[RD_OPC_N] = { "clock",	     "percpu_lookup",
					     "array_lookup", "hash_lookup",
					     "lpm_lookup",   "helper_call" };

struct rd_opc_set {
	struct rocedp_opc *r;
	struct empty_opc *e;
};

/*
 * Every entry of from's maps into to's map of the same name. Per-CPU
 * maps hold counters and per-CPU state: they start empty, as on a fresh
 * attach. A devmap's value reads back a program id, which an update
 * would take for a file descriptor: none here.
 */
static void copy_maps(struct bpf_object *from, struct bpf_object *to)
{
	struct bpf_map *m, *t;
	char key[256], next[256], val[4096];
	void *prev;

	bpf_object__for_each_map(m, from)
	{
		enum bpf_map_type ty = bpf_map__type(m);
		int ffd = bpf_map__fd(m), tfd;

		if (ty == BPF_MAP_TYPE_PERCPU_ARRAY ||
		    ty == BPF_MAP_TYPE_PERCPU_HASH ||
		    ty == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
		    bpf_map__key_size(m) > sizeof(key) ||
		    bpf_map__value_size(m) > sizeof(val))
			continue;
		t = bpf_object__find_map_by_name(to, bpf_map__name(m));
		if (!t || bpf_map__value_size(t) != bpf_map__value_size(m) ||
		    (bpf_map__map_flags(t) & BPF_F_RDONLY_PROG))
			continue;
		tfd = bpf_map__fd(t);
		for (prev = NULL; !bpf_map_get_next_key(ffd, prev, next);
		     prev = key) {
			memcpy(key, next, bpf_map__key_size(m));
			if (bpf_map_lookup_elem(ffd, key, val))
				continue;
			if (ty == BPF_MAP_TYPE_DEVMAP ||
			    ty == BPF_MAP_TYPE_DEVMAP_HASH) {
				struct bpf_devmap_val *dv = (void *)val;

				if (bpf_map__value_size(m) >= sizeof(*dv))
					dv->bpf_prog.fd = -1;
			}
			bpf_map_update_elem(tfd, key, val, 0);
		}
	}
}

struct rd_opc_set *rd_opc_open(struct bpf_object *rocedp,
			       struct bpf_object *empty)
{
	struct rd_opc_set *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		die("rd_opc_open", ENOMEM);
	s->r = rocedp_opc__open();
	if (!s->r)
		die("rocedp_opc__open", errno);
	/* the live settings of the timed object (rdbench_cost.c) */
	s->r->rodata->cfg_trace = false;
	s->r->rodata->cfg_clock_from_map = false;
	s->r->rodata->cfg_offline = false;
	s->r->rodata->cfg_ecn_kfunc = false;
	err = rocedp_opc__load(s->r);
	if (err)
		die("rocedp_opc__load (the counting copy)", -err);
	s->e = empty_opc__open_and_load();
	if (!s->e)
		die("empty_opc (the counting copy)", errno);
	copy_maps(rocedp, s->r->obj);
	copy_maps(empty, s->e->obj);
	return s;
}

int rd_opc_map_fd(struct rd_opc_set *s, const char *map)
{
	return bpf_object__find_map_fd_by_name(s->r->obj, map);
}

/* counts, per frame, of the program named prog (either object) */
int rd_opc_count(struct rd_opc_set *s, const char *prog,
		 __u8 (*frames)[RD_OPC_FRAME_LEN], unsigned int n_frames,
		 unsigned int repeat, unsigned int ifindex, double *per_frame)
{
	struct bpf_program *p =
		bpf_object__find_program_by_name(s->r->obj, prog);
	volatile __u64 *c = s->r->bss->rd_opc;
	struct xdp_md xmd = { .data_end = RD_OPC_FRAME_LEN,
			      .ingress_ifindex = ifindex };
	__u64 before[RD_OPC_N];
	unsigned int i, r;

	if (!p) {
		p = bpf_object__find_program_by_name(s->e->obj, prog);
		c = s->e->bss->rd_opc;
	}
	if (!p)
		return -ENOENT;
	/*
	 * A warm-up round per frame first: the per-CPU decision cache starts
	 * empty in the copy, and the timed runs see it warm (a flow misses
	 * once in 200 rounds there).
	 */
	for (r = 0; r < 2; r++) {
		if (r)
			for (i = 0; i < RD_OPC_N; i++)
				before[i] = c[i];
		for (i = 0; i < n_frames; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frames[i],
				    .data_size_in = RD_OPC_FRAME_LEN,
				    .repeat = r ? repeat : 1, .ctx_in = &xmd,
				    .ctx_size_in = sizeof(xmd));

			if (bpf_prog_test_run_opts(bpf_program__fd(p), &o))
				return -errno;
		}
	}
	for (i = 0; i < RD_OPC_N; i++)
		per_frame[i] = (double)(c[i] - before[i]) /
			       ((double)n_frames * repeat);
	return 0;
}

void rd_opc_print(const char *row, const double *per_frame)
{
	unsigned int i;

	printf("\"%s\":{", row);
	for (i = 0; i < RD_OPC_N; i++)
		printf("%s\"%s\":%.3f", i ? "," : "", rd_opc_names[i],
		       per_frame[i]);
	printf("}");
}

void rd_opc_close(struct rd_opc_set *s)
{
	rocedp_opc__destroy(s->r);
	empty_opc__destroy(s->e);
	free(s);
}
