/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Prometheus text exposition (format 0.0.4) of one switch: the one
 * place it is written, for `stats --prometheus`, `--textfile` and the
 * exporter (promexp.c; the families: docs/metrics.md). Every family has
 * HELP and TYPE, values are in base units (seconds, bytes), label values
 * are escaped, and writing it changes nothing in the maps.
 */
#ifndef ROCEDP_PROMEXP_H
#define ROCEDP_PROMEXP_H

#include <stdio.h>
#include "mapset.h"

/*
 * The ECN queue high-water marks over a window, for a long-running
 * reader (the exporter): it takes the marks (read, then 0) once a window
 * on its own clock, never on a scrape, and a scrape shows for each port
 * the larger of the last window's mark and the mark since, so every
 * scraper sees the same value and none resets another's.
 */
struct rd_hwm_window {
	double window_s;
	__u64 prev[ROCEDP_PORT_SLOTS]; /* the mark of the last whole window */
};

/* Take the marks into w->prev; 0 or -errno. */
int rd_hwm_window_take(struct rd_hwm_window *w, const struct rd_maps *m);

struct rd_prom_opts {
	unsigned int top_qps; /* QPs with series of their own */
	/* NULL: the marks as the map holds them (since their last take) */
	const struct rd_hwm_window *hwm;
};

/* The exposition of the maps m; 0, or -errno when the counters could not
 * be read (nothing written then). */
int rd_prom_write(FILE *f, const struct rd_maps *m,
		  const struct rd_prom_opts *o);

#endif
