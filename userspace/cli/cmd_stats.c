// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp stats [--watch SEC] [--prometheus] [--textfile DIR] [--top-qps K]:
 * the counters the library reads (stats.c) as text, JSON, Prometheus
 * exposition 0.0.4 or a node_exporter textfile; the Prometheus forms add
 * the telemetry of the top K QPs and the ports (qps.c, porttab.c).
 */
#include <errno.h>
#include <stdio.h>
#include <net/if.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "escape.h"
#include "cli.h"
#include "names.h"
#include "porttab.h"
#include "qps.h"
#include "safefile.h"
#include "stats.h"
#include "util.h"

/* The counter families of rd_stats, as each format names them. */
static const struct family {
	const char *text, *json; /* text line label, JSON key */
	const char *metric, *label, *help; /* Prometheus */
	unsigned int base, first, n; /* counters base + [first, n) */
	bool sparse; /* text shows only the counters that are not 0 */
	const char *(*name)(unsigned int);
} families[] = {
	{ "classes", "classes", "rocedp_class_packets_total", "class",
	  "Frames per traffic class.", ROCEDP_CTR_CLASS_BASE, 0,
	  ROCEDP_CLASS_MAX, false, rd_class_name },
	{ "verdicts", "verdicts", "rocedp_verdict_packets_total", "verdict",
	  "Frames by verdict.", ROCEDP_CTR_VERDICT_BASE, 0, ROCEDP_VERDICT_MAX,
	  false, rd_verdict_name },
	/* reason 0 of these two is "none": never counted */
	{ "malformed", "malformed", "rocedp_malformed_packets_total", "reason",
	  "Malformed frames by reason.", ROCEDP_CTR_MAL_BASE, 1, ROCEDP_MAL_MAX,
	  true, rd_malformed_name },
	{ "passed to kernel", "pass", "rocedp_passed_packets_total", "reason",
	  "Frames handed to the kernel, by reason.", ROCEDP_CTR_PASS_BASE, 1,
	  ROCEDP_PASS_MAX, true, rd_pass_name },
};

#define N_FAMILIES (sizeof(families) / sizeof(families[0]))

/* The per-port counters: text column, JSON key, field. */
static const struct port_col {
	const char *head, *json;
	size_t off;
	int width;
} port_cols[] = {
	{ "rx_pkts", "rx_pkts", offsetof(struct rocedp_port_stats, rx_pkts),
	  12 },
	{ "rx_bytes", "rx_bytes", offsetof(struct rocedp_port_stats, rx_bytes),
	  14 },
	{ "tx_pkts", "tx_pkts", offsetof(struct rocedp_port_stats, tx_pkts),
	  12 },
	{ "tx_bytes", "tx_bytes", offsetof(struct rocedp_port_stats, tx_bytes),
	  14 },
	{ "ce_marked", "ecn_marked",
	  offsetof(struct rocedp_port_stats, ecn_marked), 10 },
	{ "ce_bytes", "ecn_marked_bytes",
	  offsetof(struct rocedp_port_stats, ecn_marked_bytes), 14 },
	{ "would_mark", "ecn_would_mark",
	  offsetof(struct rocedp_port_stats, ecn_would_mark), 10 },
};

#define N_PORT_COLS (sizeof(port_cols) / sizeof(port_cols[0]))

static unsigned long long port_val(const struct rocedp_port_stats *p,
				   size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

static bool member_up(const struct rd_member_snapshot *m)
{
	return (m->flags & ROCEDP_MEMBERF_UP) &&
	       (m->flags & ROCEDP_MEMBERF_RESOLVED);
}

static void print_text(FILE *f, const struct rd_stats_snapshot *s)
{
	char name[RD_ESC_IFNAME];
	unsigned int i, j, k;

	for (k = 0; k < N_FAMILIES; k++) {
		const struct family *fm = &families[k];

		fprintf(f, "%s:", fm->text);
		for (i = fm->first; i < fm->n; i++)
			if (!fm->sparse || s->ctr[fm->base + i])
				fprintf(f, " %s %llu", fm->name(i),
					(unsigned long long)
						s->ctr[fm->base + i]);
		fprintf(f, "\n");
	}
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f, "%-24s %llu\n", rd_counter_misc_name(i),
			(unsigned long long)s->ctr[i]);
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		if (s->cts_hits[i])
			fprintf(f, "cts rule %-2u hits %llu\n", i,
				(unsigned long long)s->cts_hits[i]);
	if (s->n_ports) {
		fprintf(f, "%-16s", "port");
		for (k = 0; k < N_PORT_COLS; k++)
			fprintf(f, " %*s", port_cols[k].width,
				port_cols[k].head);
		fprintf(f, "\n");
	}
	for (i = 0; i < s->n_ports; i++) {
		fprintf(f, "%-16s",
			rd_ifname_esc(s->ports[i].ifindex, RD_ESC_TERM, name));
		for (k = 0; k < N_PORT_COLS; k++)
			fprintf(f, " %*llu", port_cols[k].width,
				port_val(&s->ports[i].st, port_cols[k].off));
		fprintf(f, "\n");
	}
	for (i = 0; i < s->n_groups; i++) {
		const struct rd_group_stats *g = &s->groups[i];

		fprintf(f, "group %u: imbalance %.3f (busiest / mean)\n", g->id,
			g->imbalance);
		for (j = 0; j < g->n_members; j++)
			fprintf(f,
				"  member %-2u %-16s weight %-5u %s pkts %llu bytes %llu\n",
				j,
				rd_ifname_esc(g->members[j].ifindex,
					      RD_ESC_TERM, name),
				g->members[j].weight,
				member_up(&g->members[j]) ? "up  " : "held",
				(unsigned long long)g->members[j].st.pkts,
				(unsigned long long)g->members[j].st.bytes);
	}
}

static void print_json(FILE *f, const struct rd_stats_snapshot *s)
{
	char name[RD_ESC_IFNAME];
	unsigned int i, j, k;

	fprintf(f, "{");
	for (k = 0; k < N_FAMILIES; k++) {
		const struct family *fm = &families[k];

		fprintf(f, "\"%s\":{", fm->json);
		for (i = fm->first; i < fm->n; i++)
			fprintf(f, "%s\"%s\":%llu", i > fm->first ? "," : "",
				fm->name(i),
				(unsigned long long)s->ctr[fm->base + i]);
		fprintf(f, "},");
	}
	fprintf(f, "\"counters\":{");
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i > ROCEDP_CTR_MISC_BASE ? "," : "",
			rd_counter_misc_name(i), (unsigned long long)s->ctr[i]);
	fprintf(f, "},\"cts_rules\":[");
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		fprintf(f, "%s%llu", i ? "," : "",
			(unsigned long long)s->cts_hits[i]);
	fprintf(f, "],\"ports\":[");
	for (i = 0; i < s->n_ports; i++) {
		fprintf(f, "%s{\"ifindex\":%u,\"name\":\"%s\"", i ? "," : "",
			s->ports[i].ifindex,
			rd_ifname_esc(s->ports[i].ifindex, RD_ESC_JSON, name));
		for (k = 0; k < N_PORT_COLS; k++)
			fprintf(f, ",\"%s\":%llu", port_cols[k].json,
				port_val(&s->ports[i].st, port_cols[k].off));
		/* JSON only: the text table keeps its width */
		fprintf(f, ",\"rx_mcast\":%llu,\"rx_bcast\":%llu",
			(unsigned long long)s->ports[i].st.rx_mcast,
			(unsigned long long)s->ports[i].st.rx_bcast);
		fprintf(f, "}");
	}
	fprintf(f, "],\"groups\":[");
	for (i = 0; i < s->n_groups; i++) {
		const struct rd_group_stats *g = &s->groups[i];

		fprintf(f, "%s{\"id\":%u,\"imbalance\":%.4f,\"members\":[",
			i ? "," : "", g->id, g->imbalance);
		for (j = 0; j < g->n_members; j++)
			fprintf(f,
				"%s{\"slot\":%u,\"ifindex\":%u,\"weight\":%u,"
				"\"flags\":%u,\"pkts\":%llu,\"bytes\":%llu}",
				j ? "," : "", j, g->members[j].ifindex,
				g->members[j].weight, g->members[j].flags,
				(unsigned long long)g->members[j].st.pkts,
				(unsigned long long)g->members[j].st.bytes);
		fprintf(f, "]}");
	}
	fprintf(f, "]}\n");
}

#define NO_DIR ((size_t)-1)

/* One per-port series: with rx/tx as its dir label, or tx NO_DIR. */
static void prom_ports(FILE *f, const struct rd_stats_snapshot *s,
		       const char *metric, size_t rx, size_t tx)
{
	char name[RD_ESC_IFNAME];
	unsigned int i;

	fprintf(f, "# TYPE %s counter\n", metric);
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

/*
 * Per-QP and per-port telemetry (docs/telemetry.md): the top-K QPs and
 * totals; a scrape takes the ports' high-water marks (read, then 0), so
 * each scrape shows the mark of its own interval.
 */
static void prom_telemetry(FILE *f, const struct rd_maps *m,
			   unsigned int top_qps)
{
	struct rd_qp_snap qs = { 0 };
	struct rd_porttab *pt;

	if (!rd_qps_read(m, &qs))
		rd_qps_prometheus(f, &qs, top_qps);
	rd_qps_free(&qs);
	pt = malloc(sizeof(*pt));
	if (pt && !rd_porttab_read(m, pt, true))
		rd_porttab_prometheus(f, pt);
	free(pt);
}

/*
 * Prometheus text exposition format 0.0.4: the one place it is written,
 * for --prometheus and for --textfile alike. m is open, for series read
 * here rather than in the snapshot: a new family is one more call at the
 * end.
 */
static void print_prometheus(FILE *f, const struct rd_maps *m,
			     const struct rd_stats_snapshot *s,
			     unsigned int top_qps)
{
	char name[RD_ESC_IFNAME];
	unsigned int i, j, k;

	for (k = 0; k < N_FAMILIES; k++) {
		const struct family *fm = &families[k];

		fprintf(f, "# HELP %s %s\n# TYPE %s counter\n", fm->metric,
			fm->help, fm->metric);
		for (i = fm->first; i < fm->n; i++)
			fprintf(f, "%s{%s=\"%s\"} %llu\n", fm->metric,
				fm->label, fm->name(i),
				(unsigned long long)s->ctr[fm->base + i]);
	}
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f,
			"# TYPE rocedp_%s_total counter\nrocedp_%s_total %llu\n",
			rd_counter_misc_name(i), rd_counter_misc_name(i),
			(unsigned long long)s->ctr[i]);
	fprintf(f, "# TYPE rocedp_cts_rule_hits_total counter\n");
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		fprintf(f, "rocedp_cts_rule_hits_total{rule=\"%u\"} %llu\n", i,
			(unsigned long long)s->cts_hits[i]);
	prom_ports(f, s, "rocedp_port_packets_total",
		   offsetof(struct rocedp_port_stats, rx_pkts),
		   offsetof(struct rocedp_port_stats, tx_pkts));
	prom_ports(f, s, "rocedp_port_bytes_total",
		   offsetof(struct rocedp_port_stats, rx_bytes),
		   offsetof(struct rocedp_port_stats, tx_bytes));
	prom_ports(f, s, "rocedp_port_ecn_marked_total",
		   offsetof(struct rocedp_port_stats, ecn_marked), NO_DIR);
	prom_ports(f, s, "rocedp_port_ecn_marked_bytes_total",
		   offsetof(struct rocedp_port_stats, ecn_marked_bytes),
		   NO_DIR);
	fprintf(f, "# TYPE rocedp_member_bytes_total counter\n");
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
	/* series read from the maps here go below */
	prom_telemetry(f, m, top_qps);
}

/*
 * The collector's directory may belong to another user (prometheus): a
 * fresh temp file created with O_EXCL|O_NOFOLLOW each time, then rename,
 * so nothing planted there is ever followed (safefile.h), and the
 * collector never reads a half-written file.
 */
static int write_textfile(const char *dir, const struct rd_maps *m,
			  const struct rd_stats_snapshot *s,
			  unsigned int top_qps)
{
	struct rd_safefile sf;
	char path[4096];
	int err;

	if (snprintf(path, sizeof(path), "%s/rocedp.prom", dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	err = rd_safefile_open(&sf, path, 0644);
	if (err)
		return err;
	print_prometheus(sf.f, m, s, top_qps);
	return rd_safefile_commit(&sf);
}

struct stats_opts {
	unsigned int watch; /* seconds; 0: once */
	bool prom;
	const char *textfile;
	unsigned int top_qps; /* QPs with series of their own */
};

/* 0, or the exit code after one error line */
static int parse_opts(const struct cli_call *c, struct stats_opts *o)
{
	const char *w = cli_val(c, "watch"), *k = cli_val(c, "top-qps");
	char *end;

	o->prom = cli_set(c, "prometheus");
	o->textfile = cli_val(c, "textfile");
	if (w) {
		o->watch = strtoul(w, &end, 10);
		if (*end || !o->watch || *w == '-')
			return cli_usage_err(
				c,
				"--watch: '%s' is not a positive number of seconds",
				w);
	}
	if (k) {
		o->top_qps = strtoul(k, &end, 10);
		if (*end || !*k || *k == '-' || o->top_qps > 10000)
			return cli_usage_err(
				c,
				"--top-qps: '%s' is not a number from 0 to 10000",
				k);
	}
	return 0;
}

/* One snapshot in the chosen form; 0 or -errno (printed). */
static int stats_once(const struct stats_opts *o, const struct rd_maps *m)
{
	static struct rd_stats_snapshot snap;
	int err;

	err = rd_stats_read(m, &snap);
	if (err) {
		rd_err("stats", "reading counters: %s", strerror(-err));
		return err;
	}
	if (o->textfile) {
		err = write_textfile(o->textfile, m, &snap, o->top_qps);
		if (err)
			rd_err("stats", "%s: %s", o->textfile,
			       rd_safefile_strerror(err));
		return err;
	}
	if (o->prom) {
		print_prometheus(stdout, m, &snap, o->top_qps);
	} else if (rd_json) {
		print_json(stdout, &snap);
	} else {
		if (o->watch)
			printf("\033[H\033[2J");
		print_text(stdout, &snap);
	}
	fflush(stdout);
	return 0;
}

int cmd_stats(const struct cli_call *c)
{
	struct stats_opts o = { .top_qps = RD_QPS_PROM_TOP_DEFAULT };
	struct rd_maps m;
	int ret;

	ret = parse_opts(c, &o);
	if (ret)
		return ret;
	if (cli_maps_open(&m, "stats"))
		return 1;
	while (!(ret = stats_once(&o, &m)) && o.watch)
		sleep(o.watch);
	rd_maps_close(&m);
	return ret ? 1 : 0;
}
