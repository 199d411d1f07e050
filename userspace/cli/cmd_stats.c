// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp stats [--watch SEC] [--prometheus] [--textfile DIR] [--top-qps K]:
 * the counters the library reads (stats.c) as text or JSON (with the time
 * of the read), or the Prometheus exposition (promexp.c) on stdout or as
 * a node_exporter textfile.
 */
#include <errno.h>
#include <stdio.h>
#include <net/if.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "escape.h"
#include "cli.h"
#include "names.h"
#include "porttab.h"
#include "promexp.h"
#include "qps.h"
#include "safefile.h"
#include "stats.h"
#include "util.h"

#define families rd_ctr_families
#define N_FAMILIES rd_ctr_n_families

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

/* SAI's trim counters of a port (abi_trim.h), by their SAI names */
static const struct trim_col {
	const char *name;
	size_t off;
} trim_cols[] = {
	{ "trim_packets", offsetof(struct rocedp_trim_stats, trim_pkts) },
	{ "tx_trim_packets", offsetof(struct rocedp_trim_stats, tx_trim_pkts) },
	{ "dropped_trim_packets",
	  offsetof(struct rocedp_trim_stats, dropped_trim_pkts) },
	{ "tail_drop_packets",
	  offsetof(struct rocedp_trim_stats, tail_drop_pkts) },
};

static unsigned long long port_val(const struct rocedp_port_stats *p,
				   size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

static unsigned long long trim_val(const struct rocedp_trim_stats *t,
				   size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)t + off, sizeof(v));
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
		const struct rd_ctr_family *fm = &families[k];

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
	/* a line of its own per port whose buffer refused frames */
	for (i = 0; i < s->n_ports; i++) {
		if (!rd_trim_any(&s->ports[i].trim))
			continue;
		fprintf(f, "%-16s buffer:",
			rd_ifname_esc(s->ports[i].ifindex, RD_ESC_TERM, name));
		for (k = 0; k < ARRAY_LEN(trim_cols); k++)
			fprintf(f, " %s %llu", trim_cols[k].name,
				trim_val(&s->ports[i].trim, trim_cols[k].off));
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

static void print_json(FILE *f, const struct rd_stats_snapshot *s,
		       const struct timespec *ts)
{
	char name[RD_ESC_IFNAME];
	unsigned int i, j, k;

	/* CLOCK_REALTIME of the read, seconds with ns */
	fprintf(f, "{\"timestamp\":%lld.%09ld,", (long long)ts->tv_sec,
		ts->tv_nsec);
	for (k = 0; k < N_FAMILIES; k++) {
		const struct rd_ctr_family *fm = &families[k];

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
		for (k = 0; k < ARRAY_LEN(trim_cols); k++)
			fprintf(f, ",\"%s\":%llu", trim_cols[k].name,
				trim_val(&s->ports[i].trim, trim_cols[k].off));
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

/*
 * The collector's directory may belong to another user (prometheus): a
 * fresh temp file created with O_EXCL|O_NOFOLLOW each time, then rename,
 * so nothing planted there is ever followed (safefile.h), and the
 * collector never reads a half-written file.
 */
static int write_textfile(const char *dir, const struct rd_maps *m,
			  const struct rd_prom_opts *po)
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
	err = rd_prom_write(sf.f, m, po);
	if (err) {
		rd_safefile_abort(&sf);
		return err;
	}
	return rd_safefile_commit(&sf);
}

struct stats_opts {
	double watch; /* seconds; 0: once */
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
		errno = 0;
		o->watch = strtod(w, &end);
		if (!*w || *end || errno || !(o->watch >= 0.1) ||
		    o->watch > 3600)
			return cli_usage_err(
				c,
				"--watch: '%s' is not a number of seconds from 0.1 to 3600",
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
	struct rd_prom_opts po = { .top_qps = o->top_qps };
	struct timespec now;
	int err;

	if (o->textfile) {
		err = write_textfile(o->textfile, m, &po);
		if (err)
			rd_err("stats", "%s: %s", o->textfile,
			       rd_safefile_strerror(err));
		return err;
	}
	if (o->prom) {
		err = rd_prom_write(stdout, m, &po);
		if (err)
			rd_err("stats", "reading counters: %s", strerror(-err));
		fflush(stdout);
		return err;
	}
	/* the time of the read, for samples a script keeps */
	clock_gettime(CLOCK_REALTIME, &now);
	err = rd_stats_read(m, &snap);
	if (err) {
		rd_err("stats", "reading counters: %s", strerror(-err));
		return err;
	}
	if (rd_json) {
		print_json(stdout, &snap, &now);
	} else {
		if (o->watch)
			printf("\033[H\033[2J");
		print_text(stdout, &snap);
	}
	fflush(stdout);
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
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
	while (!(ret = stats_once(&o, &m)) && o.watch > 0)
		sleep_s(o.watch);
	rd_maps_close(&m);
	return ret ? 1 : 0;
}
