/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc attachment (attach_tc.c): clsact + cls_bpf direct-action filters on
 * ingress and egress under our own handle and priority, upgraded in place
 * with BPF_TC_F_REPLACE. -errno.
 */
#ifndef ROCEDP_ATTACH_TC_H
#define ROCEDP_ATTACH_TC_H

#include <stdbool.h>

/* Attach (or replace) both filters; *created_clsact is set to 1 when the
 * clsact qdisc was added here (detach removes it then). */
int rd_tc_attach(int ingress_fd, int egress_fd, unsigned int ifindex,
		 unsigned int *created_clsact);
/* Remove our filters, and the qdisc when we created it. */
int rd_tc_detach(unsigned int ifindex, bool created_clsact);
/* Is our ingress filter there? */
bool rd_tc_present(unsigned int ifindex);

#endif
