// SPDX-License-Identifier: GPL-2.0
/*
 * XDP attachment. By default rocedp's program joins libxdp's multi-program
 * dispatcher (the convention xdp-loader and other XDP tools follow), so a
 * filter and rocedp share a port and each is removed alone. Exclusive mode
 * is a bpf_link of our own, pinned: it outlives rocedp, and an upgrade
 * swaps the program in it (no frame sees "no program"). Where libxdp's
 * dispatcher is unavailable (its compatibility check fails on some
 * kernels, and libxdp then loads a single program), rocedp takes its own
 * link and the record says why. A program that is not rocedp's is never
 * replaced unless the caller forces it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include "attach_xdp.h"
#include "pindir.h"

static void xdp_link_path(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/links/xdp_%u", rd_pin_dir(), ifindex);
}

/* libxdp's own lines (its fallback notice among them) only when debugging:
 * the CLI says what happened in one line of its own */
static int libxdp_print(enum libxdp_print_level level, const char *fmt,
			va_list ap)
{
	if (!getenv("ROCEDP_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * create: the dispatcher will be pinned (attach); otherwise only read.
 * 0, or -EPERM when <bpffs>/xdp is not root's alone.
 */
static int libxdp_setup(bool create)
{
	int err;

	libxdp_set_print(libxdp_print);
	/*
	 * libxdp keeps each dispatcher's links pinned under <bpffs>/xdp; under
	 * `ip netns exec` /sys/fs/bpf is gone, so point it at the bpffs our
	 * pins are on (the host's), where they outlive this command.
	 */
	setenv("LIBXDP_BPFFS", rd_bpffs_root(), 0);
	/*
	 * libxdp makes that directory with no owner check: on a bpffs others
	 * may write (mode 1777), whoever made it first could remove or swap
	 * the dispatcher's pins. Make it ourselves, root's and 0700, or refuse.
	 */
	err = rd_bpffs_dir_check("xdp", create);
	return err == -ENOENT ? 0 : err;
}

/* The id of the program in our pinned link, 0 when there is none. */
static __u32 link_prog_id(unsigned int ifindex)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	char path[256];
	int fd, err;

	xdp_link_path(path, sizeof(path), ifindex);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return 0;
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	close(fd);
	/* a link whose device went away reports ifindex 0 */
	if (err || info.type != BPF_LINK_TYPE_XDP ||
	    info.xdp.ifindex != ifindex)
		return 0;
	return info.prog_id;
}

static bool is_ours(struct xdp_program *prog)
{
	return !strcmp(xdp_program__name(prog), RD_XDP_PROG_NAME);
}

static void note_foreign(struct rd_xdp_port *p, struct xdp_program *prog)
{
	if (!p->n_foreign++)
		snprintf(p->foreign, sizeof(p->foreign), "%s id %u",
			 xdp_program__name(prog), xdp_program__id(prog));
}

/* The port's XDP state through libxdp; NULL when it has no program. */
static int port_multiprog(unsigned int ifindex, struct xdp_multiprog **out)
{
	struct xdp_multiprog *mp;
	long err;

	*out = NULL;
	err = libxdp_setup(false);
	if (err)
		return (int)err;
	mp = xdp_multiprog__get_from_ifindex(ifindex);
	err = libxdp_get_error(mp);
	/* no program, or no such device (a deleted port's record) */
	if (err || !mp)
		return !err || err == -ENOENT || err == -ENODEV ? 0 : (int)err;
	*out = mp;
	return 0;
}

int rd_xdp_inspect(unsigned int ifindex, struct rd_xdp_port *p)
{
	struct xdp_multiprog *mp;
	struct xdp_program *prog;
	__u32 link_id;
	int err;

	memset(p, 0, sizeof(*p));
	link_id = link_prog_id(ifindex);
	err = port_multiprog(ifindex, &mp);
	if (err || !mp)
		return err;
	if (xdp_multiprog__is_legacy(mp)) {
		prog = xdp_multiprog__main_prog(mp);
		if (prog && link_id && xdp_program__id(prog) == link_id)
			p->our_link = true;
		else if (prog)
			note_foreign(p, prog);
	} else {
		p->dispatcher = true;
		for (prog = xdp_multiprog__next_prog(NULL, mp); prog;
		     prog = xdp_multiprog__next_prog(prog, mp)) {
			if (!is_ours(prog))
				note_foreign(p, prog);
			else if (!p->our_id)
				p->our_id = xdp_program__id(prog);
		}
	}
	xdp_multiprog__close(mp);
	return 0;
}

/* Our own link: created and pinned, or its program swapped. */
static int link_attach(int prog_fd, unsigned int ifindex, bool native)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	char path[256];
	int fd, err;

	xdp_link_path(path, sizeof(path), ifindex);
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		/* upgrade in place: atomic for the frames in flight */
		err = bpf_link_update(fd, prog_fd, NULL) ? -errno : 0;
		close(fd);
		if (err != -ENOLINK)
			return err;
		/* the link's device was deleted; the ifindex is a new one's */
		if (unlink(path))
			return -errno;
	}
	lo.flags = native ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE;
	fd = bpf_link_create(prog_fd, ifindex, BPF_XDP, &lo);
	if (fd < 0)
		return -errno;
	err = bpf_obj_pin(fd, path) ? -errno : 0;
	close(fd);
	return err;
}

static int link_detach(unsigned int ifindex)
{
	char path[256];
	int fd, err = rd_pin_dir_check(NULL);

	/* never through a directory someone else could have swapped in */
	if (err == -EPERM)
		return err;
	err = 0;
	xdp_link_path(path, sizeof(path), ifindex);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	/* detach now even if someone else holds the link open */
	if (bpf_link_detach(fd) && errno != ENOENT && errno != ENOLINK)
		err = -errno;
	close(fd);
	if (unlink(path) && errno != ENOENT && !err)
		err = -errno;
	return err;
}

/*
 * Take rocedp's programs out of the port's dispatcher (libxdp swaps in a
 * dispatcher without them, or removes it when nothing else is left), or
 * a lone rocedp program not in our link (left by a fallback cut short).
 * keep_id: an id to leave in (the new program of an upgrade).
 */
static int remove_ours(unsigned int ifindex, __u32 keep_id)
{
	struct xdp_multiprog *mp;
	struct xdp_program *prog;
	enum xdp_attach_mode mode;
	int err, rounds;

	for (rounds = 0; rounds < 8; rounds++) {
		err = port_multiprog(ifindex, &mp);
		if (err || !mp)
			return err;
		mode = xdp_multiprog__attach_mode(mp);
		if (xdp_multiprog__is_legacy(mp)) {
			prog = xdp_multiprog__main_prog(mp);
			err = prog && is_ours(prog) &&
					      xdp_program__id(prog) !=
						      link_prog_id(ifindex) ?
				      xdp_multiprog__detach(mp) :
				      0;
			xdp_multiprog__close(mp);
			return err;
		}
		for (prog = xdp_multiprog__next_prog(NULL, mp); prog;
		     prog = xdp_multiprog__next_prog(prog, mp))
			if (is_ours(prog) && xdp_program__id(prog) != keep_id)
				break;
		err = prog ? xdp_program__detach(prog, ifindex, mode, 0) : 0;
		xdp_multiprog__close(mp);
		if (err || !prog)
			return err;
	}
	return -EBUSY;
}

static int xp_get(struct rd_xdp_src *src)
{
	DECLARE_LIBXDP_OPTS(xdp_program_opts, o, .obj = src->obj,
			    .prog_name = RD_XDP_PROG_NAME);
	struct xdp_program *xp;
	long err;

	if (src->xp)
		return 0;
	xp = xdp_program__create(&o);
	err = libxdp_get_error(xp);
	if (err || !xp)
		return err ? (int)err : -ENOENT;
	src->xp = xp;
	return 0;
}

/* Into the port's dispatcher (libxdp makes one if there is none). */
static int dispatcher_attach(struct rd_xdp_src *src, unsigned int ifindex,
			     bool native, bool *dispatcher)
{
	struct xdp_multiprog *mp;
	struct rd_xdp_port p;
	int err;

	err = xp_get(src);
	if (err)
		return err;
	err = libxdp_setup(true);
	if (err)
		return err;
	err = xdp_program__attach(src->xp, ifindex,
				  native ? XDP_MODE_NATIVE : XDP_MODE_SKB, 0);
	if (err)
		return err;
	err = rd_xdp_inspect(ifindex, &p);
	if (err)
		return err;
	if (p.dispatcher) {
		*dispatcher = true;
		return 0;
	}
	/*
	 * libxdp fell back to the program alone (attached by netlink): take
	 * it off and use our own link, which upgrades atomically.
	 */
	src->no_dispatcher = true;
	*dispatcher = false;
	err = port_multiprog(ifindex, &mp);
	if (!err && mp) {
		err = xdp_multiprog__detach(mp);
		xdp_multiprog__close(mp);
	}
	return err ?: link_attach(src->prog_fd, ifindex, native);
}

/* Everything on the port, whoever put it there (forced attach only). */
static int remove_all(unsigned int ifindex)
{
	struct xdp_multiprog *mp;
	int err;

	err = port_multiprog(ifindex, &mp);
	if (err || !mp)
		return err;
	err = xdp_multiprog__detach(mp);
	xdp_multiprog__close(mp);
	return err;
}

int rd_xdp_attach(struct rd_xdp_src *src, unsigned int ifindex, bool native,
		  bool force, bool *dispatcher, struct rd_xdp_port *seen)
{
	bool can_join = *dispatcher && src->obj && !src->no_dispatcher;
	int err;

	err = rd_xdp_inspect(ifindex, seen);
	if (err)
		return err;
	if (seen->our_link) { /* an upgrade keeps the way it was made */
		*dispatcher = false;
		return link_attach(src->prog_fd, ifindex, native);
	}
	if (seen->our_id) {
		if (!src->obj)
			return -EOPNOTSUPP;
		/* the new program in first, then the old one out: no gap */
		err = dispatcher_attach(src, ifindex, native, dispatcher);
		if (err)
			return err;
		return remove_ours(ifindex, xdp_program__id(src->xp));
	}
	if (seen->n_foreign && !(can_join && seen->dispatcher)) {
		if (!force)
			return -EBUSY;
		err = remove_all(ifindex);
		if (err)
			return err;
	}
	if (can_join)
		return dispatcher_attach(src, ifindex, native, dispatcher);
	*dispatcher = false;
	return link_attach(src->prog_fd, ifindex, native);
}

/* Both ways are tried: a record of an older version knows only links. */
int rd_xdp_detach(unsigned int ifindex)
{
	int err = link_detach(ifindex);
	int err2 = remove_ours(ifindex, 0);

	return err ?: err2;
}

bool rd_xdp_present(unsigned int ifindex, bool dispatcher)
{
	struct rd_xdp_port p;

	if (!dispatcher)
		return link_prog_id(ifindex) != 0;
	return !rd_xdp_inspect(ifindex, &p) && p.our_id;
}

void rd_xdp_src_close(struct rd_xdp_src *src)
{
	/* made from the caller's object: closing it leaves the object */
	xdp_program__close(src->xp);
	src->xp = NULL;
}
