// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus exposition of a switch (promexp.h): the counters
 * (stats.c), the top-K QPs (qps.c) and the ports (porttab.c). Names
 * follow Prometheus's conventions: counters end in _total, units are
 * base units in the name (_bytes, _seconds), each family is typed and
 * described once, before its samples.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "escape.h"
#include "paths.h"
#include "porttab.h"
#include "promexp.h"
#include "qps.h"
#include "stats.h"
#include "util.h"

int rd_hwm_window_take(struct rd_hwm_window *w, const struct rd_maps *m)
{
	struct rd_porttab *pt = malloc(sizeof(*pt));
	unsigned int i;
	int err;

	if (!pt)
		return -ENOMEM;
	err = rd_porttab_read(m, pt, true);
	if (!err) {
		memset(w->prev, 0, sizeof(w->prev));
		for (i = 0; i < pt->n; i++)
			if (pt->rows[i].ifindex < ROCEDP_PORT_SLOTS)
				w->prev[pt->rows[i].ifindex] = pt->rows[i].hwm;
	}
	free(pt);
	return err;
}

static unsigned long long port_val(const struct rocedp_port_stats *p,
				   size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

#define NO_DIR ((size_t)-1)

/* One per-port family: with rx/tx as its dir label, or tx NO_DIR. */
static void prom_ports(FILE *f, const struct rd_stats_snapshot *s,
		       const char *metric, const char *help, size_t rx,
		       size_t tx)
{
	char name[RD_ESC_IFNAME];
	unsigned int i;

	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", metric, help, metric);
	for (i = 0; i < s->n_ports; i++) {
		const struct rocedp_port_stats *p = &s->ports[i].st;

		rd_ifname_esc(s->ports[i].ifindex, RD_ESC_PROM, name);
		if (tx == NO_DIR) {
			fprintf(f, "%s{port=\"%s\"} %llu\n", metric, name,
				port_val(p, rx));
			continue;
		}
		fprintf(f, "%s{port=\"%s\",dir=\"rx\"} %llu\n", metric, name,
			port_val(p, rx));
		fprintf(f, "%s{port=\"%s\",dir=\"tx\"} %llu\n", metric, name,
			port_val(p, tx));
	}
}

/* One of SAI's trim counters per port (rocedp_trim_stats at off). */
static void prom_trim(FILE *f, const struct rd_stats_snapshot *s,
		      const char *metric, const char *help, size_t off)
{
	char name[RD_ESC_IFNAME];
	unsigned int i;
	__u64 v;

	fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", metric, help, metric);
	for (i = 0; i < s->n_ports; i++) {
		memcpy(&v, (const char *)&s->ports[i].trim + off, sizeof(v));
		rd_ifname_esc(s->ports[i].ifindex, RD_ESC_PROM, name);
		fprintf(f, "%s{port=\"%s\"} %llu\n", metric, name,
			(unsigned long long)v);
	}
}

static void prom_counters(FILE *f, const struct rd_stats_snapshot *s)
{
	unsigned int i, k;

	for (k = 0; k < rd_ctr_n_families; k++) {
		const struct rd_ctr_family *fm = &rd_ctr_families[k];

		fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", fm->metric,
			fm->help, fm->metric);
		for (i = fm->first; i < fm->n; i++)
			fprintf(f, "%s{%s=\"%s\"} %llu\n", fm->metric,
				fm->label, fm->name(i),
				(unsigned long long)s->ctr[fm->base + i]);
	}
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f,
			"# HELP rocedp_%s_total %s\n# TYPE rocedp_%s_total counter\nrocedp_%s_total %llu\n",
			rd_counter_misc_name(i), rd_counter_misc_help(i),
			rd_counter_misc_name(i), rd_counter_misc_name(i),
			(unsigned long long)s->ctr[i]);
	fprintf(f,
		"# HELP rocedp_cts_rule_hits_total Frames each CTS rule matched.\n"
		"# TYPE rocedp_cts_rule_hits_total counter\n");
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		fprintf(f, "rocedp_cts_rule_hits_total{rule=\"%u\"} %llu\n", i,
			(unsigned long long)s->cts_hits[i]);
}

static void prom_groups(FILE *f, const struct rd_stats_snapshot *s)
{
	char name[RD_ESC_IFNAME];
	unsigned int i, j;

	fprintf(f,
		"# HELP rocedp_member_bytes_total Bytes sent through each member of each group.\n"
		"# TYPE rocedp_member_bytes_total counter\n");
	for (i = 0; i < s->n_groups; i++)
		for (j = 0; j < s->groups[i].n_members; j++)
			fprintf(f,
				"rocedp_member_bytes_total{group=\"%u\",member=\"%u\",port=\"%s\"} %llu\n",
				s->groups[i].id, j,
				rd_ifname_esc(s->groups[i].members[j].ifindex,
					      RD_ESC_PROM, name),
				(unsigned long long)s->groups[i]
					.members[j]
					.st.bytes);
	fprintf(f,
		"# HELP rocedp_group_imbalance Busiest member bytes / mean (Meta's metric).\n"
		"# TYPE rocedp_group_imbalance gauge\n");
	for (i = 0; i < s->n_groups; i++)
		fprintf(f, "rocedp_group_imbalance{group=\"%u\"} %.4f\n",
			s->groups[i].id, s->groups[i].imbalance);
}

/*
 * The window's marks into the rows: each port's the larger of the last
 * window's and the live one; a port whose only news is the last window's
 * mark gets a row of its own.
 */
static void hwm_merge(struct rd_porttab *pt, const struct rd_hwm_window *w)
{
	bool seen[ROCEDP_PORT_SLOTS] = { false };
	struct rd_port_row *r;
	unsigned int i;
	__u32 k;

	pt->hwm_window_s = w->window_s;
	for (i = 0; i < pt->n; i++) {
		k = pt->rows[i].ifindex;
		if (k >= ROCEDP_PORT_SLOTS)
			continue;
		seen[k] = true;
		if (w->prev[k] > pt->rows[i].hwm)
			pt->rows[i].hwm = w->prev[k];
	}
	for (k = 1; k < ROCEDP_PORT_SLOTS && pt->n < RD_PORTTAB_MAX; k++) {
		if (seen[k] || !w->prev[k])
			continue;
		r = &pt->rows[pt->n++];
		memset(r, 0, sizeof(*r));
		r->ifindex = k;
		r->hwm = w->prev[k];
		rd_ifname(k, r->name);
	}
}

/* The telemetry (docs/telemetry.md): the top-K QPs and totals, the ports. */
static void prom_telemetry(FILE *f, const struct rd_maps *m,
			   const struct rd_prom_opts *o)
{
	struct rd_qp_snap qs = { 0 };
	struct rd_porttab *pt;

	if (!rd_qps_read(m, &qs))
		rd_qps_prometheus(f, &qs, o->top_qps);
	rd_qps_free(&qs);
	pt = malloc(sizeof(*pt));
	/* never a resetting read: a scrape changes nothing */
	if (pt && !rd_porttab_read(m, pt, false)) {
		if (o->hwm)
			hwm_merge(pt, o->hwm);
		rd_porttab_prometheus(f, pt);
	}
	free(pt);
}

/* Path quality (docs/paths.md), while this switch has a probe role. */
static void prom_paths(FILE *f, const struct rd_maps *m)
{
	struct timespec ts;
	struct rd_paths p;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (rd_paths_read(m, (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec, &p))
		return;
	if (p.cfg.role != ROCEDP_PROBE_ROLE_NONE)
		rd_paths_prometheus(f, &p);
	rd_paths_free(&p);
}

int rd_prom_write(FILE *f, const struct rd_maps *m,
		  const struct rd_prom_opts *o)
{
	struct rd_stats_snapshot *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = rd_stats_read(m, s);
	if (err) {
		free(s);
		return err;
	}
	prom_counters(f, s);
	prom_ports(f, s, "rocedp_port_packets_total",
		   "Frames per port and direction.",
		   offsetof(struct rocedp_port_stats, rx_pkts),
		   offsetof(struct rocedp_port_stats, tx_pkts));
	prom_ports(f, s, "rocedp_port_bytes_total",
		   "Bytes per port and direction.",
		   offsetof(struct rocedp_port_stats, rx_bytes),
		   offsetof(struct rocedp_port_stats, tx_bytes));
	prom_ports(f, s, "rocedp_port_ecn_marked_total",
		   "Frames marked CE on their way out of the port.",
		   offsetof(struct rocedp_port_stats, ecn_marked), NO_DIR);
	prom_ports(
		f, s, "rocedp_port_ecn_marked_bytes_total",
		"Bytes of the frames marked CE on their way out of the port.",
		offsetof(struct rocedp_port_stats, ecn_marked_bytes), NO_DIR);
	prom_ports(f, s, "rocedp_port_ecn_would_mark_total",
		   "Not-ECT frames RED would have marked on the port.",
		   offsetof(struct rocedp_port_stats, ecn_would_mark), NO_DIR);
	prom_trim(f, s, "rocedp_port_trim_packets_total",
		  "Frames the port's trim action took (SAI TRIM_PACKETS).",
		  offsetof(struct rocedp_trim_stats, trim_pkts));
	prom_trim(f, s, "rocedp_port_tx_trim_packets_total",
		  "Frames the port sent cut (SAI TX_TRIM_PACKETS).",
		  offsetof(struct rocedp_trim_stats, tx_trim_pkts));
	prom_trim(
		f, s, "rocedp_port_dropped_trim_packets_total",
		"Frames the trim action took and dropped (SAI DROPPED_TRIM_PACKETS).",
		offsetof(struct rocedp_trim_stats, dropped_trim_pkts));
	prom_trim(f, s, "rocedp_port_tail_drop_packets_total",
		  "Frames the port's full buffer refused and did not cut.",
		  offsetof(struct rocedp_trim_stats, tail_drop_pkts));
	prom_groups(f, s);
	free(s);
	prom_telemetry(f, m, o);
	prom_paths(f, m);
	return 0;
}
