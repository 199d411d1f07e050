/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XDP attachment (attach_xdp.c), two ways: one of the programs of libxdp's
 * dispatcher (the default: other XDP programs share the port), or alone
 * through a bpf_link pinned at <pin dir>/links/xdp_<ifindex> (exclusive,
 * and where the dispatcher is unavailable). Never over a program that is
 * not rocedp's unless forced. -errno.
 */
#ifndef ROCEDP_ATTACH_XDP_H
#define ROCEDP_ATTACH_XDP_H

#include <stdbool.h>
#include <linux/types.h>

struct bpf_object;
struct xdp_program;

/* The name rocedp's program has in the kernel and in a dispatcher. */
#define RD_XDP_PROG_NAME "rocedp_xdp"

/* What XDP a port has, as rocedp sees it. */
struct rd_xdp_port {
	bool our_link; /* our pinned link is there */
	bool dispatcher; /* libxdp's dispatcher runs there */
	__u32 our_id; /* rocedp's program in the dispatcher, 0: none */
	unsigned int n_foreign; /* programs there that are not rocedp's */
	char foreign[64]; /* the first of them: "NAME id N" */
};

/* Where the programs come from, for one attach command. */
struct rd_xdp_src {
	int prog_fd; /* loaded XDP program: for our own link */
	struct bpf_object *obj; /* opened, not loaded: libxdp loads it as a
				 * dispatcher program; NULL: links only */
	struct xdp_program *xp; /* made from obj at its first use */
	bool no_dispatcher; /* libxdp fell back to a single program here */
};

/* What a port has now; 0 also when it has no XDP at all. */
int rd_xdp_inspect(unsigned int ifindex, struct rd_xdp_port *p);
/*
 * Attach rocedp's program (native or generic), or upgrade it where it is.
 * *dispatcher: in, how a new attachment should be made; out, how it was
 * made (false after a fallback: src->no_dispatcher then says why).
 * -EBUSY: another program is there that rocedp may not join or replace
 * (seen says which); force replaces it.
 */
int rd_xdp_attach(struct rd_xdp_src *src, unsigned int ifindex, bool native,
		  bool force, bool *dispatcher, struct rd_xdp_port *seen);
/* Remove rocedp's program only; 0 when it was not there. */
int rd_xdp_detach(unsigned int ifindex);
/* Is rocedp's program there, the way the record says? */
bool rd_xdp_present(unsigned int ifindex, bool dispatcher);
/* Free what libxdp holds for src (the object stays the caller's). */
void rd_xdp_src_close(struct rd_xdp_src *src);

#endif
