/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The path-quality table and the probe counters as read from the maps,
 * and their three renderings: text, JSON, Prometheus (paths.c,
 * docs/paths.md).
 */
#ifndef ROCEDP_PATHS_H
#define ROCEDP_PATHS_H

#include <stdio.h>
#include "rocedp.h"

struct rd_path_row {
	__u32 leaf;
	__u32 ifindex;
	struct rocedp_pathq e;
	__u64 age_ns; /* now - last seen */
	__u32 band; /* as the dataplane counts it: ROCEDP_PROBE_BAND_FAILED
		     * once older than the timeout */
};

struct rd_paths {
	struct rocedp_probe_cfg cfg;
	struct rd_path_row *rows; /* by leaf, then ifindex */
	unsigned int n;
	struct rocedp_probe_stats ctr; /* summed over CPUs */
	__u64 now_ns;
};

extern const char *const rd_probe_ctr_names[ROCEDP_PROBE_CTR_MAX];

/* now_ns: the dataplane's clock (CLOCK_MONOTONIC live). 0 or -errno. */
int rd_paths_read(const struct rd_maps *m, __u64 now_ns, struct rd_paths *p);
void rd_paths_free(struct rd_paths *p);
void rd_paths_text(FILE *f, const struct rd_paths *p);
void rd_paths_json(FILE *f, const struct rd_paths *p);
void rd_paths_prometheus(FILE *f, const struct rd_paths *p);

#endif
