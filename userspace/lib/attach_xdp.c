// SPDX-License-Identifier: GPL-2.0
/*
 * XDP through a pinned bpf_link: the link outlives rocedp, and an upgrade
 * swaps the program in it (no frame sees "no program").
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "attach_xdp.h"
#include "pindir.h"

static void xdp_link_path(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/links/xdp_%u", rd_pin_dir(), ifindex);
}

int rd_xdp_attach(int prog_fd, unsigned int ifindex, bool native)
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

int rd_xdp_detach(unsigned int ifindex)
{
	char path[256];
	int fd, err = 0;

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

bool rd_xdp_present(unsigned int ifindex)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	char path[256];
	int fd, err;

	xdp_link_path(path, sizeof(path), ifindex);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return false;
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	close(fd);
	/* a link whose device went away reports ifindex 0 */
	return !err && info.type == BPF_LINK_TYPE_XDP &&
	       info.xdp.ifindex == ifindex;
}
