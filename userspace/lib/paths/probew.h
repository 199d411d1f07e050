/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of the probe maps (probew.c): rd_probe_cfg,
 * rd_probe_port, rd_leaf4, and the clearing of rd_pathq (which the
 * dataplane fills). docs/paths.md.
 */
#ifndef ROCEDP_PROBEW_H
#define ROCEDP_PROBEW_H

#include "rocedp.h"

int rd_probe_cfg_read(const struct rd_maps *m, struct rocedp_probe_cfg *pc);
/* An all-zero entry (never written) reads as the defaults, role none. */
int rd_probe_cfg_write(const struct rd_maps *m,
		       const struct rocedp_probe_cfg *pc);
int rd_probe_port_read(const struct rd_maps *m, __u32 ifindex,
		       struct rocedp_probe_port *pp);
int rd_probe_port_write(const struct rd_maps *m, __u32 ifindex,
			const struct rocedp_probe_port *pp);
/* prefix (network order) / plen -> leaf; -ENOENT deleting what is not there */
int rd_leaf4_set(const struct rd_maps *m, __u32 addr, __u8 plen, __u32 leaf);
int rd_leaf4_del(const struct rd_maps *m, __u32 addr, __u8 plen);
/* Forget every path-quality entry (a role or key change). */
int rd_pathq_clear(const struct rd_maps *m);

#endif
