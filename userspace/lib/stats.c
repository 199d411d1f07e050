// SPDX-License-Identifier: GPL-2.0
/*
 * stats and flows: per-CPU counters summed, per port, per group member
 * (with Meta's imbalance metric: busiest member / mean), CTS rule hits;
 * text, JSON, Prometheus exposition and node_exporter textfile output.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "names.h"
#include "pindir.h"
#include "safefile.h"
#include "stats.h"

static const char *const misc_names[ROCEDP_CTR_MAX - ROCEDP_CTR_MISC_BASE] = {
	[ROCEDP_CTR_RX_PKTS - ROCEDP_CTR_MISC_BASE] = "rx_packets",
	[ROCEDP_CTR_RX_BYTES - ROCEDP_CTR_MISC_BASE] = "rx_bytes",
	[ROCEDP_CTR_FWD_PKTS - ROCEDP_CTR_MISC_BASE] = "forwarded_packets",
	[ROCEDP_CTR_FWD_BYTES - ROCEDP_CTR_MISC_BASE] = "forwarded_bytes",
	[ROCEDP_CTR_REMARKED - ROCEDP_CTR_MISC_BASE] = "remarked",
	[ROCEDP_CTR_REMARK_SAME - ROCEDP_CTR_MISC_BASE] = "remark_unchanged",
	[ROCEDP_CTR_FLOWLET_NEW - ROCEDP_CTR_MISC_BASE] = "flowlets_started",
	[ROCEDP_CTR_FLOWLET_FLOW_NEW - ROCEDP_CTR_MISC_BASE] = "flows_new",
	[ROCEDP_CTR_FLOWLET_MOVE - ROCEDP_CTR_MISC_BASE] =
		"flowlet_path_changes",
	[ROCEDP_CTR_FLOWLET_REORDER_RISK - ROCEDP_CTR_MISC_BASE] =
		"flowlet_reorder_risk",
	[ROCEDP_CTR_FLOWLET_INSERT_FAIL - ROCEDP_CTR_MISC_BASE] =
		"flowlet_insert_failed",
	[ROCEDP_CTR_FLOWLET_MEMBER_GONE - ROCEDP_CTR_MISC_BASE] =
		"flowlet_member_gone",
	[ROCEDP_CTR_RTT_SAMPLES - ROCEDP_CTR_MISC_BASE] = "rtt_samples",
	[ROCEDP_CTR_ECN_MARKED - ROCEDP_CTR_MISC_BASE] = "ecn_marked",
	[ROCEDP_CTR_ECN_WOULD_MARK - ROCEDP_CTR_MISC_BASE] = "ecn_would_mark",
	[ROCEDP_CTR_ECN_ALREADY_CE - ROCEDP_CTR_MISC_BASE] = "ecn_already_ce",
	[ROCEDP_CTR_ECN_OPTOUT - ROCEDP_CTR_MISC_BASE] = "ecn_class_optout",
	[ROCEDP_CTR_ECN_SRC_KFUNC - ROCEDP_CTR_MISC_BASE] =
		"ecn_thresholds_module",
	[ROCEDP_CTR_ECN_SRC_MAP - ROCEDP_CTR_MISC_BASE] = "ecn_thresholds_map",
	[ROCEDP_CTR_SPRAY_PKTS - ROCEDP_CTR_MISC_BASE] = "spray_packets",
	[ROCEDP_CTR_PORT_UNTRACKED - ROCEDP_CTR_MISC_BASE] = "port_untracked",
	[ROCEDP_CTR_RTT_AMBIGUOUS - ROCEDP_CTR_MISC_BASE] = "rtt_ambiguous",
	[ROCEDP_CTR_RTT_RETX - ROCEDP_CTR_MISC_BASE] = "rtt_retransmitted",
	[ROCEDP_CTR_RTT_EXPIRED - ROCEDP_CTR_MISC_BASE] = "rtt_expired",
	[ROCEDP_CTR_RTT_PEND_FULL - ROCEDP_CTR_MISC_BASE] = "rtt_pending_full",
	[ROCEDP_CTR_RTT_PAIR_LEARNED - ROCEDP_CTR_MISC_BASE] =
		"rtt_qp_pairs_learned",
	[ROCEDP_CTR_FLOWLET_CLAIM_LOST - ROCEDP_CTR_MISC_BASE] =
		"flowlet_claim_lost",
	[ROCEDP_CTR_FLOWLET_EVICT_KEPT - ROCEDP_CTR_MISC_BASE] =
		"flowlet_evicted_kept",
};

const char *rd_counter_misc_name(unsigned int idx)
{
	if (idx < ROCEDP_CTR_MISC_BASE || idx >= ROCEDP_CTR_MAX)
		return "unknown";
	return misc_names[idx - ROCEDP_CTR_MISC_BASE] ?: "unknown";
}

/* Sum one key of a per-CPU map whose value is n_u64 counters. */
int rd_percpu_sum(int fd, const void *key, __u64 *out, unsigned int n_u64)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *buf;
	unsigned int i;
	int c;

	if (ncpu <= 0)
		return -EINVAL;
	buf = calloc((size_t)ncpu * n_u64, sizeof(__u64));
	if (!buf)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, key, buf)) {
		free(buf);
		return -errno;
	}
	memset(out, 0, n_u64 * sizeof(__u64));
	for (c = 0; c < ncpu; c++)
		for (i = 0; i < n_u64; i++)
			out[i] += buf[c * n_u64 + i];
	free(buf);
	return 0;
}

/* Every counter of the rd_stats block (fd), summed over the CPUs. */
int rd_counters_read(int fd, __u64 *ctr)
{
	__u32 zero = 0;

	return rd_percpu_sum(fd, &zero, ctr, ROCEDP_CTR_MAX);
}

/* One counter of the rd_stats block (fd), summed over the CPUs. */
int rd_counter_get(int fd, unsigned int idx, __u64 *v)
{
	__u64 ctr[ROCEDP_CTR_MAX];
	int err;

	*v = 0;
	if (idx >= ROCEDP_CTR_MAX)
		return -EINVAL;
	err = rd_counters_read(fd, ctr);
	if (!err)
		*v = ctr[idx];
	return err;
}

int rd_stats_read(const struct rd_maps *m, struct rd_stats_snapshot *s)
{
	struct rocedp_port_stats ps;
	struct rocedp_member_stats ms;
	struct rocedp_group g;
	__u32 key, next, *prev = NULL, i, idx;
	int err;

	memset(s, 0, sizeof(*s));
	err = rd_counters_read(m->fd[RD_MAP_STATS], s->ctr);
	if (err)
		return err;
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		rd_percpu_sum(m->fd[RD_MAP_CTS_STATS], &i, &s->cts_hits[i], 1);
	while (s->n_ports < RD_STATS_MAX_PORTS &&
	       !bpf_map_get_next_key(m->fd[RD_MAP_PORT_STATS], prev, &next)) {
		key = next;
		prev = &key;
		if (rd_percpu_sum(m->fd[RD_MAP_PORT_STATS], &key, (__u64 *)&ps,
				  sizeof(ps) / 8))
			continue;
		/* an array: every slot exists, only ports with traffic show */
		if (!ps.rx_pkts && !ps.tx_pkts && !ps.ecn_marked &&
		    !ps.ecn_would_mark)
			continue;
		s->ports[s->n_ports].ifindex = key;
		s->ports[s->n_ports].st = ps;
		s->n_ports++;
	}
	prev = NULL;
	while (s->n_groups < RD_STATS_MAX_GROUPS &&
	       !bpf_map_get_next_key(m->fd[RD_MAP_GROUPS], prev, &next)) {
		struct rd_group_stats *gs = &s->groups[s->n_groups];
		__u64 total = 0, max = 0;
		unsigned int n = 0;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS], &key, &g) ||
		    key >= ROCEDP_MAX_GROUPS)
			continue;
		gs->id = key;
		gs->n_members = g.n_members > ROCEDP_MAX_MEMBERS ?
					ROCEDP_MAX_MEMBERS :
					g.n_members;
		for (i = 0; i < gs->n_members; i++) {
			idx = key * ROCEDP_MAX_MEMBERS + i;
			if (rd_percpu_sum(m->fd[RD_MAP_MEMBER_STATS], &idx,
					  (__u64 *)&ms, 2))
				memset(&ms, 0, sizeof(ms));
			gs->members[i].ifindex = g.members[i].ifindex;
			gs->members[i].flags = g.members[i].flags;
			gs->members[i].weight = g.members[i].weight;
			gs->members[i].st = ms;
			total += ms.bytes;
			if (ms.bytes > max)
				max = ms.bytes;
			n++;
		}
		gs->imbalance = total && n ? (double)max / ((double)total / n) :
					     0;
		s->n_groups++;
	}
	return 0;
}

static const char *port_name(unsigned int ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

static void print_text(FILE *f, const struct rd_stats_snapshot *s)
{
	char name[IF_NAMESIZE];
	unsigned int i, j;

	fprintf(f, "classes:");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++)
		fprintf(f, " %s %llu", rd_class_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_CLASS_BASE + i]);
	fprintf(f, "\nverdicts:");
	for (i = 0; i < ROCEDP_VERDICT_MAX; i++)
		fprintf(f, " %s %llu", rd_verdict_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_VERDICT_BASE + i]);
	fprintf(f, "\nmalformed:");
	for (i = 1; i < ROCEDP_MAL_MAX; i++)
		if (s->ctr[ROCEDP_CTR_MAL_BASE + i])
			fprintf(f, " %s %llu", rd_malformed_name(i),
				(unsigned long long)
					s->ctr[ROCEDP_CTR_MAL_BASE + i]);
	fprintf(f, "\npassed to kernel:");
	for (i = 1; i < ROCEDP_PASS_MAX; i++)
		if (s->ctr[ROCEDP_CTR_PASS_BASE + i])
			fprintf(f, " %s %llu", rd_pass_name(i),
				(unsigned long long)
					s->ctr[ROCEDP_CTR_PASS_BASE + i]);
	fprintf(f, "\n");
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f, "%-24s %llu\n", rd_counter_misc_name(i),
			(unsigned long long)s->ctr[i]);
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		if (s->cts_hits[i])
			fprintf(f, "cts rule %-2u hits %llu\n", i,
				(unsigned long long)s->cts_hits[i]);
	if (s->n_ports)
		fprintf(f, "%-16s %12s %14s %12s %14s %10s %14s %10s\n", "port",
			"rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes",
			"ce_marked", "ce_bytes", "would_mark");
	for (i = 0; i < s->n_ports; i++) {
		const struct rocedp_port_stats *p = &s->ports[i].st;

		fprintf(f,
			"%-16s %12llu %14llu %12llu %14llu %10llu %14llu %10llu\n",
			port_name(s->ports[i].ifindex, name),
			(unsigned long long)p->rx_pkts,
			(unsigned long long)p->rx_bytes,
			(unsigned long long)p->tx_pkts,
			(unsigned long long)p->tx_bytes,
			(unsigned long long)p->ecn_marked,
			(unsigned long long)p->ecn_marked_bytes,
			(unsigned long long)p->ecn_would_mark);
	}
	for (i = 0; i < s->n_groups; i++) {
		const struct rd_group_stats *g = &s->groups[i];

		fprintf(f, "group %u: imbalance %.3f (busiest / mean)\n", g->id,
			g->imbalance);
		for (j = 0; j < g->n_members; j++)
			fprintf(f,
				"  member %-2u %-16s weight %-5u %s pkts %llu bytes %llu\n",
				j, port_name(g->members[j].ifindex, name),
				g->members[j].weight,
				(g->members[j].flags & ROCEDP_MEMBERF_UP) &&
						(g->members[j].flags &
						 ROCEDP_MEMBERF_RESOLVED) ?
					"up  " :
					"held",
				(unsigned long long)g->members[j].st.pkts,
				(unsigned long long)g->members[j].st.bytes);
	}
}

static void print_json(FILE *f, const struct rd_stats_snapshot *s)
{
	char name[IF_NAMESIZE];
	unsigned int i, j;

	fprintf(f, "{\"classes\":{");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", rd_class_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_CLASS_BASE + i]);
	fprintf(f, "},\"malformed\":{");
	for (i = 1; i < ROCEDP_MAL_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i > 1 ? "," : "",
			rd_malformed_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_MAL_BASE + i]);
	fprintf(f, "},\"pass\":{");
	for (i = 1; i < ROCEDP_PASS_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i > 1 ? "," : "", rd_pass_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_PASS_BASE + i]);
	fprintf(f, "},\"verdicts\":{");
	for (i = 0; i < ROCEDP_VERDICT_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", rd_verdict_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_VERDICT_BASE + i]);
	fprintf(f, "},\"counters\":{");
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i > ROCEDP_CTR_MISC_BASE ? "," : "",
			rd_counter_misc_name(i), (unsigned long long)s->ctr[i]);
	fprintf(f, "},\"cts_rules\":[");
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		fprintf(f, "%s%llu", i ? "," : "",
			(unsigned long long)s->cts_hits[i]);
	fprintf(f, "],\"ports\":[");
	for (i = 0; i < s->n_ports; i++) {
		const struct rocedp_port_stats *p = &s->ports[i].st;

		fprintf(f,
			"%s{\"ifindex\":%u,\"name\":\"%s\",\"rx_pkts\":%llu,"
			"\"rx_bytes\":%llu,\"tx_pkts\":%llu,\"tx_bytes\":%llu,"
			"\"ecn_marked\":%llu,\"ecn_marked_bytes\":%llu,"
			"\"ecn_would_mark\":%llu}",
			i ? "," : "", s->ports[i].ifindex,
			port_name(s->ports[i].ifindex, name),
			(unsigned long long)p->rx_pkts,
			(unsigned long long)p->rx_bytes,
			(unsigned long long)p->tx_pkts,
			(unsigned long long)p->tx_bytes,
			(unsigned long long)p->ecn_marked,
			(unsigned long long)p->ecn_marked_bytes,
			(unsigned long long)p->ecn_would_mark);
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

/* Prometheus text exposition format 0.0.4 */
static void print_prometheus(FILE *f, const struct rd_stats_snapshot *s)
{
	char name[IF_NAMESIZE];
	unsigned int i, j;

	fprintf(f,
		"# HELP rocedp_class_packets_total Frames per traffic class.\n"
		"# TYPE rocedp_class_packets_total counter\n");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++)
		fprintf(f, "rocedp_class_packets_total{class=\"%s\"} %llu\n",
			rd_class_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_CLASS_BASE + i]);
	fprintf(f,
		"# HELP rocedp_malformed_packets_total Malformed frames by reason.\n"
		"# TYPE rocedp_malformed_packets_total counter\n");
	for (i = 1; i < ROCEDP_MAL_MAX; i++)
		fprintf(f,
			"rocedp_malformed_packets_total{reason=\"%s\"} %llu\n",
			rd_malformed_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_MAL_BASE + i]);
	fprintf(f,
		"# HELP rocedp_passed_packets_total Frames handed to the kernel, by reason.\n"
		"# TYPE rocedp_passed_packets_total counter\n");
	for (i = 1; i < ROCEDP_PASS_MAX; i++)
		fprintf(f, "rocedp_passed_packets_total{reason=\"%s\"} %llu\n",
			rd_pass_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_PASS_BASE + i]);
	fprintf(f, "# HELP rocedp_verdict_packets_total Frames by verdict.\n"
		   "# TYPE rocedp_verdict_packets_total counter\n");
	for (i = 0; i < ROCEDP_VERDICT_MAX; i++)
		fprintf(f,
			"rocedp_verdict_packets_total{verdict=\"%s\"} %llu\n",
			rd_verdict_name(i),
			(unsigned long long)s->ctr[ROCEDP_CTR_VERDICT_BASE + i]);
	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX; i++)
		fprintf(f,
			"# TYPE rocedp_%s_total counter\nrocedp_%s_total %llu\n",
			rd_counter_misc_name(i), rd_counter_misc_name(i),
			(unsigned long long)s->ctr[i]);
	fprintf(f, "# TYPE rocedp_cts_rule_hits_total counter\n");
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		fprintf(f, "rocedp_cts_rule_hits_total{rule=\"%u\"} %llu\n", i,
			(unsigned long long)s->cts_hits[i]);
	fprintf(f, "# TYPE rocedp_port_packets_total counter\n");
	for (i = 0; i < s->n_ports; i++) {
		const struct rocedp_port_stats *p = &s->ports[i].st;

		port_name(s->ports[i].ifindex, name);
		fprintf(f,
			"rocedp_port_packets_total{port=\"%s\",dir=\"rx\"} %llu\n"
			"rocedp_port_packets_total{port=\"%s\",dir=\"tx\"} %llu\n",
			name, (unsigned long long)p->rx_pkts, name,
			(unsigned long long)p->tx_pkts);
	}
	fprintf(f, "# TYPE rocedp_port_bytes_total counter\n");
	for (i = 0; i < s->n_ports; i++) {
		const struct rocedp_port_stats *p = &s->ports[i].st;

		port_name(s->ports[i].ifindex, name);
		fprintf(f,
			"rocedp_port_bytes_total{port=\"%s\",dir=\"rx\"} %llu\n"
			"rocedp_port_bytes_total{port=\"%s\",dir=\"tx\"} %llu\n",
			name, (unsigned long long)p->rx_bytes, name,
			(unsigned long long)p->tx_bytes);
	}
	fprintf(f, "# TYPE rocedp_port_ecn_marked_total counter\n");
	for (i = 0; i < s->n_ports; i++)
		fprintf(f, "rocedp_port_ecn_marked_total{port=\"%s\"} %llu\n",
			port_name(s->ports[i].ifindex, name),
			(unsigned long long)s->ports[i].st.ecn_marked);
	fprintf(f, "# TYPE rocedp_port_ecn_marked_bytes_total counter\n");
	for (i = 0; i < s->n_ports; i++)
		fprintf(f,
			"rocedp_port_ecn_marked_bytes_total{port=\"%s\"} %llu\n",
			port_name(s->ports[i].ifindex, name),
			(unsigned long long)s->ports[i].st.ecn_marked_bytes);
	fprintf(f, "# TYPE rocedp_member_bytes_total counter\n");
	for (i = 0; i < s->n_groups; i++)
		for (j = 0; j < s->groups[i].n_members; j++)
			fprintf(f,
				"rocedp_member_bytes_total{group=\"%u\",member=\"%u\",port=\"%s\"} %llu\n",
				s->groups[i].id, j,
				port_name(s->groups[i].members[j].ifindex,
					  name),
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
 * The collector's directory may belong to another user (prometheus): a
 * fresh temp file created with O_EXCL|O_NOFOLLOW each time, then rename,
 * so nothing planted there is ever followed (safefile.h), and the
 * collector never reads a half-written file.
 */
static int write_textfile(const char *dir, const struct rd_stats_snapshot *s)
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
	print_prometheus(sf.f, s);
	return rd_safefile_commit(&sf);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "watch", required_argument, NULL, 'w' },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "textfile", required_argument, NULL, 't' },
		{}
	};
	static struct rd_stats_snapshot snap;
	const char *textfile = NULL;
	bool prom = false;
	unsigned int watch = 0;
	struct rd_maps m;
	char *end;
	int c, err, ret = 1;

	optind = 1;
	opterr = 0; /* getopt's own message would be a second error line */
	while ((c = getopt_long(argc, argv, "w:Pt:", lo, NULL)) != -1) {
		switch (c) {
		case 'w':
			watch = strtoul(optarg, &end, 10);
			if (*end || !watch) {
				rd_err("stats",
				       "--watch: '%s' is not a positive number of seconds",
				       optarg);
				return 2;
			}
			break;
		case 'P':
			prom = true;
			break;
		case 't':
			textfile = optarg;
			break;
		default:
			rd_err("stats",
			       "bad arguments (see 'rocedp stats help')");
			return 2;
		}
	}
	if (optind < argc) {
		rd_err("stats", "unexpected argument '%s'", argv[optind]);
		return 2;
	}
	rd_maps_init(&m);
	err = rd_maps_open_pinned(&m, rd_pin_dir());
	if (err) {
		rd_err("stats", "%s: %s (is rocedp attached?)", rd_pin_dir(),
		       strerror(-err));
		return 1;
	}
	for (;;) {
		err = rd_stats_read(&m, &snap);
		if (err) {
			rd_err("stats", "reading counters: %s", strerror(-err));
			goto out;
		}
		if (textfile) {
			err = write_textfile(textfile, &snap);
			if (err) {
				rd_err("stats", "%s: %s", textfile,
				       strerror(-err));
				goto out;
			}
		} else if (prom) {
			print_prometheus(stdout, &snap);
		} else if (rd_json) {
			print_json(stdout, &snap);
		} else {
			if (watch)
				printf("\033[H\033[2J");
			print_text(stdout, &snap);
		}
		fflush(stdout);
		if (!watch)
			break;
		sleep(watch);
	}
	ret = 0;
out:
	rd_maps_close(&m);
	return ret;
}

/* ---------------------------------------------------------------- flows */

static void addr_str(const struct rocedp_flow_key *k, const __u32 *a, char *buf,
		     size_t len)
{
	inet_ntop(k->family == 6 ? AF_INET6 : AF_INET, a, buf, len);
}

int cmd_flows(int argc, char **argv)
{
	struct rocedp_flow_key key, next, *prev = NULL;
	struct rocedp_flowlet fl;
	struct rd_maps m;
	struct timespec ts;
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	unsigned long limit = ~0ul, n = 0;
	__u64 now;
	char *end;
	int err;

	if (argc == 3 && !strcmp(argv[1], "--limit")) {
		limit = strtoul(argv[2], &end, 10);
		if (*end) {
			rd_err("flows", "--limit: '%s' is not a number",
			       argv[2]);
			return 2;
		}
	} else if (argc > 1) {
		rd_err("flows", "unexpected argument '%s'", argv[1]);
		return 2;
	}
	rd_maps_init(&m);
	err = rd_maps_open_pinned(&m, rd_pin_dir());
	if (err) {
		rd_err("flows", "%s: %s (is rocedp attached?)", rd_pin_dir(),
		       strerror(-err));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	if (rd_json)
		printf("[");
	else
		printf("%-39s %-39s %-12s %5s %4s %10s %8s %6s %10s\n", "src",
		       "dst", "qp/ports", "group", "slot", "pkts", "flowlets",
		       "moves", "idle_us");
	while (n < limit &&
	       !bpf_map_get_next_key(m.fd[RD_MAP_FLOWLETS], prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(m.fd[RD_MAP_FLOWLETS], &key, &fl))
			continue;
		addr_str(&key, key.src, s, sizeof(s));
		addr_str(&key, key.dst, d, sizeof(d));
		if (rd_json) {
			printf("%s{\"src\":\"%s\",\"dst\":\"%s\",\"roce\":%s,"
			       "\"%s\":%u,\"group\":%u,\"member\":%u,"
			       "\"pkts\":%llu,\"flowlets\":%llu,\"moves\":%llu,"
			       "\"idle_ns\":%llu}",
			       n ? "," : "", s, d,
			       key.proto == ROCEDP_FLOW_PROTO_ROCE ? "true" :
								     "false",
			       key.proto == ROCEDP_FLOW_PROTO_ROCE ? "dest_qp" :
								     "ports",
			       key.l4, fl.group_id, fl.slot,
			       (unsigned long long)fl.pkts,
			       (unsigned long long)fl.flowlets,
			       (unsigned long long)fl.moves,
			       (unsigned long long)(now > fl.last_ns ?
							    now - fl.last_ns :
							    0));
		} else {
			char l4[24];

			if (key.proto == ROCEDP_FLOW_PROTO_ROCE)
				snprintf(l4, sizeof(l4), "qp 0x%x", key.l4);
			else
				snprintf(l4, sizeof(l4), "%u>%u", key.l4 >> 16,
					 key.l4 & 0xffff);
			printf("%-39s %-39s %-12s %5u %4u %10llu %8llu %6llu %10llu\n",
			       s, d, l4, fl.group_id, fl.slot,
			       (unsigned long long)fl.pkts,
			       (unsigned long long)fl.flowlets,
			       (unsigned long long)fl.moves,
			       (unsigned long long)(now > fl.last_ns ?
							    (now - fl.last_ns) /
								    1000 :
							    0));
		}
		n++;
	}
	if (rd_json)
		printf("]\n");
	rd_maps_close(&m);
	return 0;
}
