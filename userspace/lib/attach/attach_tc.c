// SPDX-License-Identifier: GPL-2.0
/*
 * tc: clsact + cls_bpf direct-action on ingress and egress, under one
 * handle and priority of our own, so we find, replace and remove exactly
 * our filters and never someone else's.
 */
#include <errno.h>
#include <bpf/libbpf.h>
#include "attach_tc.h"

#define TC_HANDLE 0x52d /* "rd": our filter handle and priority */
#define TC_PRIO 0x52d

static int attach_tc_one(int prog_fd, unsigned int ifindex,
			 enum bpf_tc_attach_point where, bool replace)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = where);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE, .priority = TC_PRIO,
		    .prog_fd = prog_fd,
		    .flags = replace ? BPF_TC_F_REPLACE : 0);

	return bpf_tc_attach(&hook, &opts);
}

int rd_tc_attach(int ingress_fd, int egress_fd, unsigned int ifindex,
		 unsigned int *created_clsact)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS);
	int err;

	err = bpf_tc_hook_create(&hook);
	if (!err)
		*created_clsact = 1;
	else if (err != -EEXIST)
		return err;
	err = attach_tc_one(ingress_fd, ifindex, BPF_TC_INGRESS, true);
	if (err)
		return err;
	return attach_tc_one(egress_fd, ifindex, BPF_TC_EGRESS, true);
}

int rd_tc_detach(unsigned int ifindex, bool created_clsact)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE,
		    .priority = TC_PRIO);
	int err, err2;

	err = bpf_tc_detach(&hook, &opts);
	hook.attach_point = BPF_TC_EGRESS;
	err2 = bpf_tc_detach(&hook, &opts);
	if (err == -ENOENT || err == -ENODEV || err == -EINVAL)
		err = 0;
	if (!err && err2 != -ENOENT && err2 != -ENODEV && err2 != -EINVAL)
		err = err2;
	if (created_clsact) {
		/* only the qdisc we added; ours is the clsact, both hooks */
		hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		err2 = bpf_tc_hook_destroy(&hook);
		if (!err && err2 && err2 != -ENOENT && err2 != -ENODEV &&
		    err2 != -EINVAL)
			err = err2;
	}
	return err;
}

bool rd_tc_present(unsigned int ifindex)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE,
		    .priority = TC_PRIO);

	return !bpf_tc_query(&hook, &opts);
}
