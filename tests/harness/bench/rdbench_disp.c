// SPDX-License-Identifier: GPL-2.0
/*
 * libxdp's multi-program dispatcher, for the cost section's "dispatcher"
 * row: what sharing a port costs a frame on top of rocedp's own program.
 *
 * The dispatcher is loaded from libxdp's own object with one slot enabled,
 * configured as libxdp configures it for rocedp alone (chain on XDP_PASS).
 * Then the kernel is asked to attach an extension (freplace) into the
 * slot, as libxdp does: the object's own xdp_pass program. Where it may
 * (6.1), the timed program is the dispatcher calling that extension, the
 * whole per-frame overhead of the dispatcher. Where it may not (6.18 with
 * libxdp 1.3.1: EPERM, the reason libxdp falls back), the slot keeps its
 * stub, a global function the dispatcher calls the same way, and the row
 * says so.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/prog_dispatcher.h>
#include "rdbench.h"

/* libxdp's dispatcher object, where Debian's libxdp1 installs it. */
static int disp_path(char *buf, size_t len)
{
	glob_t g;
	int err = -ENOENT;

	if (!glob("/usr/lib/*/bpf/xdp-dispatcher.o", 0, NULL, &g) &&
	    g.gl_pathc) {
		snprintf(buf, len, "%s", g.gl_pathv[0]);
		err = 0;
	}
	globfree(&g);
	return err;
}

static struct bpf_object *disp_open(const char *path, const char *keep)
{
	struct bpf_object *o = bpf_object__open_file(path, NULL);
	struct bpf_program *p;

	if (!o)
		return NULL;
	bpf_object__for_each_program(p, o) bpf_program__set_autoload(
		p, !strcmp(bpf_program__name(p), keep));
	return o;
}

int rd_disp_load(struct rd_disp *d)
{
	struct xdp_dispatcher_config conf = {
		.magic = XDP_DISPATCHER_MAGIC,
		.dispatcher_version = XDP_DISPATCHER_VERSION,
		.num_progs_enabled = 1,
		.chain_call_actions = { 1u << XDP_PASS |
					1u << XDP_DISPATCHER_RETVAL },
		.run_prios = { 100 },
	};
	struct bpf_program *p;
	struct bpf_map *rodata;
	char path[256];
	int err;

	memset(d, 0, sizeof(*d));
	err = disp_path(path, sizeof(path));
	if (err)
		return err;
	d->obj = disp_open(path, "xdp_dispatcher");
	if (!d->obj)
		return -errno;
	rodata = bpf_object__next_map(d->obj, NULL);
	if (!rodata)
		return -ENOENT;
	err = bpf_map__set_initial_value(rodata, &conf, sizeof(conf));
	if (!err)
		err = bpf_object__load(d->obj);
	if (err)
		return err;
	p = bpf_object__find_program_by_name(d->obj, "xdp_dispatcher");
	d->fd = bpf_program__fd(p);

	/* an extension into slot 0, as libxdp attaches a program */
	d->ext_obj = disp_open(path, "xdp_pass");
	if (!d->ext_obj)
		return -errno;
	p = bpf_object__find_program_by_name(d->ext_obj, "xdp_pass");
	if (!p)
		return -ENOENT;
	bpf_program__set_type(p, BPF_PROG_TYPE_EXT);
	bpf_program__set_expected_attach_type(p, 0);
	err = bpf_program__set_attach_target(p, d->fd, "prog0");
	if (!err)
		err = bpf_object__load(d->ext_obj);
	if (!err) {
		d->link = bpf_program__attach_freplace(p, d->fd, "prog0");
		err = d->link ? 0 : -errno;
	}
	d->ext_err = err;
	return 0;
}

void rd_disp_close(struct rd_disp *d)
{
	bpf_link__destroy(d->link);
	bpf_object__close(d->ext_obj);
	bpf_object__close(d->obj);
	memset(d, 0, sizeof(*d));
}
