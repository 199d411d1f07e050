/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-QP telemetry table (rd_qps) read into a snapshot: values derived
 * at read time (how long the oldest request has waited, stalled now or
 * not), sorted, limited, per-second rates between two snapshots, and its
 * text, JSON and bounded Prometheus forms (qps.c; docs/telemetry.md).
 */
#ifndef ROCEDP_QPS_H
#define ROCEDP_QPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>
#include "rocedp.h"

enum rd_qp_sort {
	RD_QP_SORT_BYTES = 0,
	RD_QP_SORT_REWINDS,
	RD_QP_SORT_GAPS,
	RD_QP_SORT_STALLS,
	RD_QP_SORT_RTT,
	RD_QP_SORT_MAX,
};

/* per second, between two snapshots (rd_qps_rates) */
struct rd_qp_rate {
	bool valid; /* false: the first snapshot, nothing to compare */
	double pkts, bytes, gaps, rewinds, naks, stalls, cnps, ce;
};

struct rd_qp {
	struct rocedp_qp_key key;
	struct rocedp_qp_stat st;
	__u64 wait_ns; /* age of the oldest unacked request; 0 = none */
	__u64 idle_ns; /* since the last frame */
	__u64 naks; /* all syndromes */
	bool stalled; /* wait_ns over the threshold at read time */
	struct rd_qp_rate rate;
};

struct rd_qp_snap {
	struct rd_qp *qps;
	size_t n, cap;
	__u64 mono_ns; /* CLOCK_MONOTONIC at the read (the dataplane's clock) */
	__u64 stall_ns; /* the threshold in effect (rd_config.qp_stall_us) */
};

/* "bytes" ... "rtt"; -EINVAL for another word */
int rd_qp_sort_parse(const char *s);
const char *rd_qp_sort_name(enum rd_qp_sort by);
/* "bytes|rewinds|gaps|stalls|rtt", for usage and errors */
#define RD_QP_SORT_WORDS "bytes|rewinds|gaps|stalls|rtt"

/* Read the whole table (fds from rd_maps_open_pinned); -errno. */
int rd_qps_read(const struct rd_maps *m, struct rd_qp_snap *s);
void rd_qps_free(struct rd_qp_snap *s);
/* One QP's entry where the dataplane keeps it: 0, or -ENOENT / -errno. */
int rd_qps_lookup(const struct rd_maps *m, const struct rocedp_qp_key *k,
		  struct rocedp_qp_stat *st);
/*
 * Largest first; ties by key, so equal tables print alike. by_rate sorts
 * on the rates (rd_qps_rates) where the metric has one (rtt has none).
 */
void rd_qps_sort(struct rd_qp_snap *s, enum rd_qp_sort by, bool by_rate);
/* Sick first (stalled now, then problems per second), then busiest. */
void rd_qps_sort_sick(struct rd_qp_snap *s);
/* a QP with any gap, rewind, NAK or stall, or stalled now */
bool rd_qp_sick(const struct rd_qp *q);
/* cur's rates against prev (reorders prev); dt from their read times */
void rd_qps_rates(struct rd_qp_snap *prev, struct rd_qp_snap *cur);

/* "10.0.0.1" / "fd00::1" */
void rd_qp_addr_str(const struct rocedp_qp_key *k, const __u32 *a, char *buf,
		    size_t len);
/* the wait in us, "!" after it when stalled, "-" when nothing waits */
void rd_qp_wait_str(const struct rd_qp *q, char *buf, size_t len);
struct json_object *rd_qp_json(const struct rd_qp *q);
/* {"stall_threshold_us":..,"count":..,"totals":{..},"qps":[first limit]} */
struct json_object *rd_qps_json(const struct rd_qp_snap *s, size_t limit);
void rd_qps_print_text(FILE *f, const struct rd_qp_snap *s, size_t limit);

/* "12.3k" style (kilo = 1000), so that a row fits a terminal */
const char *rd_human(double v, char *buf, size_t len);

/* sums over every QP in the snapshot */
struct rd_qp_totals {
	__u64 qps, stalled, pkts, bytes, gaps, rewinds, dups, cnps, ce, stalls;
	__u64 naks[ROCEDP_QP_NAK_MAX];
};
void rd_qps_totals(const struct rd_qp_snap *s, struct rd_qp_totals *t);

#define RD_QPS_PROM_TOP_DEFAULT 10
/*
 * Prometheus exposition with bounded cardinality: totals over every QP,
 * and per-QP series for at most top_k QPs (the sickest, then the
 * busiest), never one series per QP ever seen.
 */
void rd_qps_prometheus(FILE *f, const struct rd_qp_snap *s, unsigned int top_k);

#endif
