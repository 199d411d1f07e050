/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of next-hop groups: the control plane's record (rd_groups)
 * and what the dataplane reads (rd_group_banks, rd_group_live), so that an
 * XDP run reads the old group or the new one, never a mix and never
 * another group's (docs/maps.md, Whole-value rewrites).
 */
#ifndef ROCEDP_GROUPW_H
#define ROCEDP_GROUPW_H

#include "rocedp.h"
#include "buckets.h" /* rd_group_build: what rd_groupw_put takes */

/* Map fds; all -1 is a dry run. Callers hold the writers lock: one writer
 * at a time is what makes the live word's sequence unique. */
struct rd_groupw {
	int hash, banks, live;
};

void rd_groupw_from_maps(struct rd_groupw *w, const struct rd_maps *m);
/* Write group id (< ROCEDP_MAX_GROUPS); -errno, nothing live changed on
 * a failed rd_groups write. */
int rd_groupw_put(const struct rd_groupw *w, __u32 id,
		  const struct rocedp_group *g);
/* The same with the fds of m (tests, benches). */
int rd_groupw_put_maps(const struct rd_maps *m, __u32 id,
		       const struct rocedp_group *g);
/* Remove group id (absent is no error); -errno. */
int rd_groupw_del(const struct rd_groupw *w, __u32 id);
/* Make every group in rd_groups live that is not (banks created after
 * the record, as by an upgrade); the number published or -errno. */
int rd_groupw_adopt(const struct rd_groupw *w);

#endif
