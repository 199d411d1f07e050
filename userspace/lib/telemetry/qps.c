// SPDX-License-Identifier: GPL-2.0
/*
 * rd_qps read into a snapshot, with what only the reader can know: the
 * dataplane updates an entry when a frame passes, so a QP whose ACK never
 * comes is not re-examined there. Its oldest request's age is taken here,
 * against CLOCK_MONOTONIC (what bpf_ktime_get_ns counts), and compared
 * with the stall threshold of rd_config.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "escape.h"
#include "names.h"
#include "qps.h"

static const char *const sort_names[RD_QP_SORT_MAX] = {
	[RD_QP_SORT_BYTES] = "bytes", [RD_QP_SORT_REWINDS] = "rewinds",
	[RD_QP_SORT_GAPS] = "gaps",   [RD_QP_SORT_STALLS] = "stalls",
	[RD_QP_SORT_RTT] = "rtt",
};

int rd_qp_sort_parse(const char *s)
{
	int i;

	for (i = 0; i < RD_QP_SORT_MAX; i++)
		if (!strcmp(s, sort_names[i]))
			return i;
	return -EINVAL;
}

const char *rd_qp_sort_name(enum rd_qp_sort by)
{
	return by < RD_QP_SORT_MAX ? sort_names[by] : "unknown";
}

static __u64 mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static __u64 stall_threshold_ns(const struct rd_maps *m)
{
	struct rocedp_config cfg;
	__u32 zero = 0;

	if (m->fd[RD_MAP_CONFIG] < 0 ||
	    bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &zero, &cfg) ||
	    !cfg.qp_stall_us)
		return ROCEDP_DEFAULT_QP_STALL_US * 1000ull;
	return cfg.qp_stall_us * 1000ull;
}

static int snap_grow(struct rd_qp_snap *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256;
	struct rd_qp *q;

	q = realloc(s->qps, cap * sizeof(*q));
	if (!q)
		return -ENOMEM;
	s->qps = q;
	s->cap = cap;
	return 0;
}

static void derive(struct rd_qp *q, __u64 now, __u64 stall_ns)
{
	unsigned int i;

	q->wait_ns = q->st.unacked_ns && now > q->st.unacked_ns ?
			     now - q->st.unacked_ns :
			     0;
	q->idle_ns =
		q->st.last_ns && now > q->st.last_ns ? now - q->st.last_ns : 0;
	q->stalled = q->st.unacked_ns && q->wait_ns > stall_ns;
	q->naks = 0;
	for (i = 0; i < ROCEDP_QP_NAK_MAX; i++)
		q->naks += q->st.naks[i];
	memset(&q->rate, 0, sizeof(q->rate));
}

/* Slots read per batch syscall. */
#define QPS_BATCH 256

/* One slot of the table into the snapshot, unless empty (family 0). */
static int snap_add(const void *value, void *ctx)
{
	const struct rocedp_qp_slot *slot = value;
	struct rd_qp_snap *s = ctx;
	int err;

	if (!slot->key.family)
		return 0;
	if (s->n == s->cap && (err = snap_grow(s)))
		return err;
	s->qps[s->n].key = slot->key;
	s->qps[s->n].st = slot->st;
	s->n++;
	return 0;
}

/*
 * The array read in batches. A slot the dataplane takes over during the
 * read shows its old or its new QP, never both: each slot is copied once.
 * Every live entry is in some slot, so the walk finds all of them
 * whatever set they hashed to.
 */
int rd_qps_read(const struct rd_maps *m, struct rd_qp_snap *s)
{
	int err;

	s->n = 0;
	if (m->fd[RD_MAP_QPS] < 0)
		return -EBADF;
	s->stall_ns = stall_threshold_ns(m);
	err = rd_array_each(m->fd[RD_MAP_QPS], sizeof(struct rocedp_qp_slot),
			    QPS_BATCH, snap_add, s);
	if (err)
		return err;
	s->mono_ns = mono_now();
	for (size_t i = 0; i < s->n; i++)
		derive(&s->qps[i], s->mono_ns, s->stall_ns);
	return 0;
}

int rd_qps_lookup(const struct rd_maps *m, const struct rocedp_qp_key *k,
		  struct rocedp_qp_stat *st)
{
	struct rocedp_qp_slot v;
	__u32 i = rocedp_qp_set_of(k->src, k->dst, k->dqp) * ROCEDP_QP_WAYS;
	int w;

	for (w = 0; w < ROCEDP_QP_WAYS; w++, i++) {
		if (bpf_map_lookup_elem(m->fd[RD_MAP_QPS], &i, &v))
			return -errno;
		if (v.key.family && !memcmp(&v.key, k, sizeof(*k))) {
			*st = v.st;
			return 0;
		}
	}
	return -ENOENT;
}

void rd_qps_free(struct rd_qp_snap *s)
{
	free(s->qps);
	memset(s, 0, sizeof(*s));
}

static int key_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct rd_qp *)a)->key,
		      &((const struct rd_qp *)b)->key,
		      sizeof(struct rocedp_qp_key));
}

static double metric(const struct rd_qp *q, enum rd_qp_sort by, bool by_rate)
{
	switch (by) {
	case RD_QP_SORT_BYTES:
		return by_rate ? q->rate.bytes : (double)q->st.bytes;
	case RD_QP_SORT_REWINDS:
		return by_rate ? q->rate.rewinds : (double)q->st.rewinds;
	case RD_QP_SORT_GAPS:
		return by_rate ? q->rate.gaps : (double)q->st.gaps;
	case RD_QP_SORT_STALLS:
		/* a QP stalled now outranks one that merely stalled before */
		return (by_rate ? q->rate.stalls : (double)q->st.stalls) +
		       (q->stalled ? 1e18 : 0);
	case RD_QP_SORT_RTT:
		return (double)q->st.rtt_ewma_ns;
	default:
		return 0;
	}
}

static enum rd_qp_sort cmp_by;
static bool cmp_by_rate;

static int metric_cmp(const void *a, const void *b)
{
	double x = metric(a, cmp_by, cmp_by_rate);
	double y = metric(b, cmp_by, cmp_by_rate);

	if (x != y)
		return x < y ? 1 : -1;
	/* equal rates: the larger total first */
	if (cmp_by_rate) {
		x = metric(a, cmp_by, false);
		y = metric(b, cmp_by, false);
		if (x != y)
			return x < y ? 1 : -1;
	}
	return key_cmp(a, b);
}

void rd_qps_sort(struct rd_qp_snap *s, enum rd_qp_sort by, bool by_rate)
{
	cmp_by = by;
	cmp_by_rate = by_rate;
	if (s->n)
		qsort(s->qps, s->n, sizeof(*s->qps), metric_cmp);
}

bool rd_qp_sick(const struct rd_qp *q)
{
	return q->stalled || q->st.gaps || q->st.rewinds || q->naks ||
	       q->st.stalls || q->st.resp_gaps || q->st.resp_rewinds;
}

/* problems now weigh most, then problems per second, then in total */
static double sickness(const struct rd_qp *q)
{
	double now =
		q->rate.gaps + q->rate.rewinds + q->rate.naks + q->rate.stalls;
	double ever =
		(double)(q->st.gaps + q->st.rewinds + q->naks + q->st.stalls +
			 q->st.resp_gaps + q->st.resp_rewinds);

	return (q->stalled ? 1e15 : 0) + now * 1e6 + ever;
}

static int sick_cmp(const void *a, const void *b)
{
	const struct rd_qp *p = a, *q = b;
	bool sp = rd_qp_sick(p), sq = rd_qp_sick(q);
	double x, y;

	if (sp != sq)
		return sp ? -1 : 1;
	x = sp ? sickness(p) : p->rate.bytes;
	y = sq ? sickness(q) : q->rate.bytes;
	if (x != y)
		return x < y ? 1 : -1;
	if (p->st.bytes != q->st.bytes)
		return p->st.bytes < q->st.bytes ? 1 : -1;
	return key_cmp(a, b);
}

void rd_qps_sort_sick(struct rd_qp_snap *s)
{
	if (s->n)
		qsort(s->qps, s->n, sizeof(*s->qps), sick_cmp);
}

static double per_s(__u64 cur, __u64 prev, double dt)
{
	return cur > prev ? (double)(cur - prev) / dt : 0;
}

void rd_qps_rates(struct rd_qp_snap *prev, struct rd_qp_snap *cur)
{
	static const struct rd_qp zero;
	double dt;
	size_t i;

	if (!prev || !prev->mono_ns || cur->mono_ns <= prev->mono_ns)
		return;
	dt = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	if (prev->n)
		qsort(prev->qps, prev->n, sizeof(*prev->qps), key_cmp);
	for (i = 0; i < cur->n; i++) {
		struct rd_qp *c = &cur->qps[i];
		const struct rd_qp *p;

		p = prev->n ? bsearch(c, prev->qps, prev->n, sizeof(*c),
				      key_cmp) :
			      NULL;
		/* new, or evicted and made again: counted from zero */
		if (!p || p->st.first_ns != c->st.first_ns)
			p = &zero;
		c->rate.valid = true;
		c->rate.pkts = per_s(c->st.pkts, p->st.pkts, dt);
		c->rate.bytes = per_s(c->st.bytes, p->st.bytes, dt);
		c->rate.gaps = per_s(c->st.gaps, p->st.gaps, dt);
		c->rate.rewinds = per_s(c->st.rewinds, p->st.rewinds, dt);
		c->rate.naks = per_s(c->naks, p->naks, dt);
		c->rate.stalls = per_s(c->st.stalls, p->st.stalls, dt);
		c->rate.cnps = per_s(c->st.cnps, p->st.cnps, dt);
		c->rate.ce = per_s(c->st.ce, p->st.ce, dt);
	}
}

void rd_qp_addr_str(const struct rocedp_qp_key *k, const __u32 *a, char *buf,
		    size_t len)
{
	if (!inet_ntop(k->family == AF_INET6 ? AF_INET6 : AF_INET, a, buf, len))
		snprintf(buf, len, "?");
}

/* 0: the frames went to the kernel, no port of ours */
/*
 * buf: RD_ESC_IFNAME bytes; the name escaped for a terminal, or raw for
 * json-c (which escapes it itself)
 */
static void port_str(__u32 ifindex, bool term, char *buf)
{
	if (!ifindex)
		snprintf(buf, RD_ESC_IFNAME, "-");
	else if (term)
		rd_ifname_esc(ifindex, RD_ESC_TERM, buf);
	else
		rd_ifname(ifindex, buf);
}

static void add_u64(struct json_object *o, const char *k, __u64 v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void add_rate(struct json_object *o, const char *k, double v)
{
	/* two decimals are plenty for a per-second figure */
	json_object_object_add(
		o, k,
		json_object_new_double((double)(__s64)(v * 100 + 0.5) / 100));
}

struct json_object *rd_qp_json(const struct rd_qp *q)
{
	struct json_object *o = json_object_new_object(), *n, *r;
	char a[INET6_ADDRSTRLEN], ifn[RD_ESC_IFNAME];
	unsigned int i;

	rd_qp_addr_str(&q->key, q->key.src, a, sizeof(a));
	json_object_object_add(o, "src", json_object_new_string(a));
	rd_qp_addr_str(&q->key, q->key.dst, a, sizeof(a));
	json_object_object_add(o, "dst", json_object_new_string(a));
	json_object_object_add(o, "dest_qp", json_object_new_int64(q->key.dqp));
	add_u64(o, "pkts", q->st.pkts);
	add_u64(o, "bytes", q->st.bytes);
	add_u64(o, "req_pkts", q->st.req_pkts);
	add_u64(o, "gaps", q->st.gaps);
	add_u64(o, "gap_psns", q->st.gap_psns);
	add_u64(o, "rewinds", q->st.rewinds);
	add_u64(o, "dups", q->st.dups);
	add_u64(o, "resp_pkts", q->st.resp_pkts);
	add_u64(o, "resp_gaps", q->st.resp_gaps);
	add_u64(o, "resp_rewinds", q->st.resp_rewinds);
	add_u64(o, "acks", q->st.acks);
	n = json_object_new_object();
	for (i = 0; i < ROCEDP_QP_NAK_MAX; i++)
		add_u64(n, rd_qp_nak_name(i), q->st.naks[i]);
	json_object_object_add(o, "naks", n);
	add_u64(o, "cnps", q->st.cnps);
	add_u64(o, "ce", q->st.ce);
	add_u64(o, "rtt_samples", q->st.rtt_samples);
	json_object_object_add(
		o, "rtt_min_us",
		q->st.rtt_samples ?
			json_object_new_double(q->st.rtt_min_ns / 1000.0) :
			NULL);
	json_object_object_add(
		o, "rtt_ewma_us",
		q->st.rtt_samples ?
			json_object_new_double(q->st.rtt_ewma_ns / 1000.0) :
			NULL);
	/* null: nothing waits for an ACK */
	json_object_object_add(
		o, "unacked_wait_us",
		q->st.unacked_ns ? json_object_new_uint64(q->wait_ns / 1000) :
				   NULL);
	json_object_object_add(o, "stalled",
			       json_object_new_boolean(q->stalled));
	json_object_object_add(o, "last_wait_stalled",
			       json_object_new_boolean(q->st.flags &
						       ROCEDP_QPF_STALLED));
	add_u64(o, "stalls", q->st.stalls);
	add_u64(o, "idle_us", q->idle_ns / 1000);
	port_str(q->st.in_ifindex, false, ifn);
	json_object_object_add(o, "in_port", json_object_new_string(ifn));
	port_str(q->st.out_ifindex, false, ifn);
	json_object_object_add(o, "out_port", json_object_new_string(ifn));
	if (q->rate.valid) {
		r = json_object_new_object();
		add_rate(r, "pkts", q->rate.pkts);
		add_rate(r, "bytes", q->rate.bytes);
		add_rate(r, "gaps", q->rate.gaps);
		add_rate(r, "rewinds", q->rate.rewinds);
		add_rate(r, "naks", q->rate.naks);
		add_rate(r, "stalls", q->rate.stalls);
		add_rate(r, "cnps", q->rate.cnps);
		add_rate(r, "ce", q->rate.ce);
		json_object_object_add(o, "per_second", r);
	}
	return o;
}

void rd_qps_totals(const struct rd_qp_snap *s, struct rd_qp_totals *t)
{
	size_t i;
	unsigned int k;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < s->n; i++) {
		const struct rd_qp *q = &s->qps[i];

		t->qps++;
		t->stalled += q->stalled;
		t->pkts += q->st.pkts;
		t->bytes += q->st.bytes;
		t->gaps += q->st.gaps;
		t->rewinds += q->st.rewinds;
		t->dups += q->st.dups;
		t->cnps += q->st.cnps;
		t->ce += q->st.ce;
		t->stalls += q->st.stalls;
		for (k = 0; k < ROCEDP_QP_NAK_MAX; k++)
			t->naks[k] += q->st.naks[k];
	}
}

struct json_object *rd_qps_json(const struct rd_qp_snap *s, size_t limit)
{
	struct json_object *o = json_object_new_object(), *a, *t, *n;
	struct rd_qp_totals tot;
	unsigned int k;
	size_t i;

	add_u64(o, "stall_threshold_us", s->stall_ns / 1000);
	add_u64(o, "count", s->n);
	rd_qps_totals(s, &tot);
	t = json_object_new_object();
	add_u64(t, "stalled", tot.stalled);
	add_u64(t, "pkts", tot.pkts);
	add_u64(t, "bytes", tot.bytes);
	add_u64(t, "gaps", tot.gaps);
	add_u64(t, "rewinds", tot.rewinds);
	add_u64(t, "dups", tot.dups);
	n = json_object_new_object();
	for (k = 0; k < ROCEDP_QP_NAK_MAX; k++)
		add_u64(n, rd_qp_nak_name(k), tot.naks[k]);
	json_object_object_add(t, "naks", n);
	add_u64(t, "cnps", tot.cnps);
	add_u64(t, "ce", tot.ce);
	add_u64(t, "stalls", tot.stalls);
	json_object_object_add(o, "totals", t);
	a = json_object_new_array();
	for (i = 0; i < s->n && i < limit; i++)
		json_object_array_add(a, rd_qp_json(&s->qps[i]));
	json_object_object_add(o, "qps", a);
	return o;
}

const char *rd_human(double v, char *buf, size_t len)
{
	static const char unit[] = " kMGTPE";
	unsigned int u = 0;

	while (v >= 1000 && u < sizeof(unit) - 2) {
		v /= 1000;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f%c", v, unit[u]);
	return buf;
}

void rd_qp_wait_str(const struct rd_qp *q, char *buf, size_t len)
{
	if (!q->st.unacked_ns)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu%s",
			 (unsigned long long)(q->wait_ns / 1000),
			 q->stalled ? "!" : "");
}

static void rtt_str(const struct rd_qp *q, char *buf, size_t len)
{
	if (!q->st.rtt_samples)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f/%.1f", q->st.rtt_min_ns / 1000.0,
			 q->st.rtt_ewma_ns / 1000.0);
}

void rd_qps_print_text(FILE *f, const struct rd_qp_snap *s, size_t limit)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], ifn[RD_ESC_IFNAME];
	char b1[16], b2[16], rtt[32], wait[24];
	int ws = 3, wd = 3, l;
	size_t i, n = s->n < limit ? s->n : limit;

	for (i = 0; i < n; i++) {
		rd_qp_addr_str(&s->qps[i].key, s->qps[i].key.src, src,
			       sizeof(src));
		rd_qp_addr_str(&s->qps[i].key, s->qps[i].key.dst, dst,
			       sizeof(dst));
		if ((l = strlen(src)) > ws)
			ws = l;
		if ((l = strlen(dst)) > wd)
			wd = l;
	}
	fprintf(f,
		"%-*s %-*s %8s %7s %7s %6s %7s %5s %5s %5s %13s %8s %6s %s\n",
		ws, "src", wd, "dst", "qp", "pkts", "bytes", "gaps", "rewinds",
		"dups", "naks", "cnps", "rtt_us", "wait_us", "stalls",
		"in>out");
	for (i = 0; i < n; i++) {
		const struct rd_qp *q = &s->qps[i];

		rd_qp_addr_str(&q->key, q->key.src, src, sizeof(src));
		rd_qp_addr_str(&q->key, q->key.dst, dst, sizeof(dst));
		rtt_str(q, rtt, sizeof(rtt));
		rd_qp_wait_str(q, wait, sizeof(wait));
		fprintf(f,
			"%-*s %-*s %#8x %7s %7s %6llu %7llu %5llu %5llu %5llu %13s %8s %6llu ",
			ws, src, wd, dst, q->key.dqp,
			rd_human(q->st.pkts, b1, sizeof(b1)),
			rd_human(q->st.bytes, b2, sizeof(b2)),
			(unsigned long long)q->st.gaps,
			(unsigned long long)q->st.rewinds,
			(unsigned long long)q->st.dups,
			(unsigned long long)q->naks,
			(unsigned long long)q->st.cnps, rtt, wait,
			(unsigned long long)q->st.stalls);
		port_str(q->st.in_ifindex, true, ifn);
		fprintf(f, "%s>", ifn);
		port_str(q->st.out_ifindex, true, ifn);
		fprintf(f, "%s\n", ifn);
	}
	if (s->n > n)
		fprintf(f, "(%zu more QPs; --limit N shows more)\n", s->n - n);
	else if (!s->n)
		fprintf(f,
			"(no QPs seen: is telemetry on? docs/telemetry.md)\n");
}

/* ---------------------------------------------------------------- prometheus */

/*
 * A QP's label set: its key, and the ports its requests come in and leave
 * by (in_port, out_port: "-" for none), which the recording rules join
 * with each port's description to name the link a gap appeared behind
 * (docs/metrics.md). Port names are escaped; addresses need not be.
 */
static void prom_labels(const struct rd_qp *q, char *buf, size_t len)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	char in[RD_ESC_IFNAME], out[RD_ESC_IFNAME];

	rd_qp_addr_str(&q->key, q->key.src, src, sizeof(src));
	rd_qp_addr_str(&q->key, q->key.dst, dst, sizeof(dst));
	if (q->st.in_ifindex)
		rd_ifname_esc(q->st.in_ifindex, RD_ESC_PROM, in);
	else
		strcpy(in, "-");
	if (q->st.out_ifindex)
		rd_ifname_esc(q->st.out_ifindex, RD_ESC_PROM, out);
	else
		strcpy(out, "-");
	snprintf(
		buf, len,
		"src=\"%s\",dst=\"%s\",qp=\"0x%x\",in_port=\"%s\",out_port=\"%s\"",
		src, dst, q->key.dqp, in, out);
}

/* one metric family over the top-K QPs: an integer value or seconds */
static void prom_family(FILE *f, const char *name, const char *type,
			const char *help, const struct rd_qp *qps, size_t n,
			__u64 (*get)(const struct rd_qp *), bool ns_to_s)
{
	char lab[2 * INET6_ADDRSTRLEN + 2 * RD_ESC_IFNAME + 96];
	size_t i;

	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	for (i = 0; i < n; i++) {
		prom_labels(&qps[i], lab, sizeof(lab));
		if (ns_to_s)
			fprintf(f, "%s{%s} %.9g\n", name, lab,
				get(&qps[i]) / 1e9);
		else
			fprintf(f, "%s{%s} %llu\n", name, lab,
				(unsigned long long)get(&qps[i]));
	}
}

static __u64 g_bytes(const struct rd_qp *q)
{
	return q->st.bytes;
}
static __u64 g_pkts(const struct rd_qp *q)
{
	return q->st.pkts;
}
static __u64 g_gaps(const struct rd_qp *q)
{
	return q->st.gaps;
}
static __u64 g_rewinds(const struct rd_qp *q)
{
	return q->st.rewinds;
}
static __u64 g_naks(const struct rd_qp *q)
{
	return q->naks;
}
static __u64 g_stalls(const struct rd_qp *q)
{
	return q->st.stalls;
}
static __u64 g_cnps(const struct rd_qp *q)
{
	return q->st.cnps;
}
static __u64 g_ce(const struct rd_qp *q)
{
	return q->st.ce;
}
static __u64 g_rtt_samples(const struct rd_qp *q)
{
	return q->st.rtt_samples;
}
static __u64 g_wait(const struct rd_qp *q)
{
	return q->wait_ns;
}
static __u64 g_rtt(const struct rd_qp *q)
{
	return q->st.rtt_ewma_ns;
}
static __u64 g_rtt_min(const struct rd_qp *q)
{
	return q->st.rtt_min_ns;
}

/*
 * Which QPs get series: the sick ones first (the operator's question is
 * "which QP suffers"), then the busiest. The set may change between
 * scrapes, but a scrape never holds more than top_k label sets per family,
 * so the series the server keeps grow with time only as the set turns
 * over, not with every QP the switch has ever seen.
 */
void rd_qps_prometheus(FILE *f, const struct rd_qp_snap *s, unsigned int top_k)
{
	struct rd_qp_snap top = { 0 };
	struct rd_qp_totals t;
	size_t n;
	unsigned int k;

	rd_qps_totals(s, &t);
	fprintf(f,
		"# HELP rocedp_qps Queue pairs in the telemetry table.\n"
		"# TYPE rocedp_qps gauge\nrocedp_qps %llu\n"
		"# HELP rocedp_qps_stalled QPs whose oldest request waits longer than the stall threshold.\n"
		"# TYPE rocedp_qps_stalled gauge\nrocedp_qps_stalled %llu\n"
		"# HELP rocedp_qp_stall_threshold_seconds ACK wait that counts as a stall.\n"
		"# TYPE rocedp_qp_stall_threshold_seconds gauge\n"
		"rocedp_qp_stall_threshold_seconds %g\n",
		(unsigned long long)t.qps, (unsigned long long)t.stalled,
		s->stall_ns / 1e9);
	/* totals over the QPs the table holds now (evicted ones drop out) */
	fprintf(f,
		"# HELP rocedp_qps_gaps Request PSN gaps, summed over the QPs in the table.\n"
		"# TYPE rocedp_qps_gaps gauge\nrocedp_qps_gaps %llu\n"
		"# HELP rocedp_qps_rewinds Request PSN rewinds (go-back-N), summed over the QPs in the table.\n"
		"# TYPE rocedp_qps_rewinds gauge\nrocedp_qps_rewinds %llu\n"
		"# HELP rocedp_qps_stalls ACK waits over the threshold, summed over the QPs in the table.\n"
		"# TYPE rocedp_qps_stalls gauge\nrocedp_qps_stalls %llu\n"
		"# HELP rocedp_qps_cnps CNPs, summed over the QPs in the table.\n"
		"# TYPE rocedp_qps_cnps gauge\nrocedp_qps_cnps %llu\n"
		"# HELP rocedp_qps_naks NAKs by syndrome, summed over the QPs in the table.\n"
		"# TYPE rocedp_qps_naks gauge\n",
		(unsigned long long)t.gaps, (unsigned long long)t.rewinds,
		(unsigned long long)t.stalls, (unsigned long long)t.cnps);
	for (k = 0; k < ROCEDP_QP_NAK_MAX; k++)
		fprintf(f, "rocedp_qps_naks{syndrome=\"%s\"} %llu\n",
			rd_qp_nak_name(k), (unsigned long long)t.naks[k]);

	n = s->n < top_k ? s->n : top_k;
	if (n) {
		top.qps = malloc(s->n * sizeof(*s->qps));
		if (!top.qps)
			return;
		memcpy(top.qps, s->qps, s->n * sizeof(*s->qps));
		top.n = s->n;
		rd_qps_sort_sick(&top);
	}
	prom_family(f, "rocedp_qp_bytes_total", "counter",
		    "Bytes of the top-K QPs (sickest, then busiest).", top.qps,
		    n, g_bytes, false);
	prom_family(f, "rocedp_qp_packets_total", "counter",
		    "Frames of the top-K QPs.", top.qps, n, g_pkts, false);
	prom_family(f, "rocedp_qp_gaps_total", "counter",
		    "Request PSN gaps (loss upstream) of the top-K QPs.",
		    top.qps, n, g_gaps, false);
	prom_family(f, "rocedp_qp_rewinds_total", "counter",
		    "Request PSN rewinds (go-back-N) of the top-K QPs.",
		    top.qps, n, g_rewinds, false);
	prom_family(f, "rocedp_qp_naks_total", "counter",
		    "NAKs of the top-K QPs.", top.qps, n, g_naks, false);
	prom_family(f, "rocedp_qp_stalls_total", "counter",
		    "ACK waits over the threshold of the top-K QPs.", top.qps,
		    n, g_stalls, false);
	prom_family(f, "rocedp_qp_cnps_total", "counter",
		    "CNPs sent back to the top-K QPs' senders.", top.qps, n,
		    g_cnps, false);
	prom_family(f, "rocedp_qp_ce_total", "counter",
		    "Request frames of the top-K QPs that left CE-marked.",
		    top.qps, n, g_ce, false);
	prom_family(f, "rocedp_qp_rtt_samples_total", "counter",
		    "RTT samples of the top-K QPs.", top.qps, n, g_rtt_samples,
		    false);
	prom_family(
		f, "rocedp_qp_unacked_wait_seconds", "gauge",
		"Age of the oldest unacknowledged request of the top-K QPs (0: none).",
		top.qps, n, g_wait, true);
	prom_family(f, "rocedp_qp_rtt_seconds", "gauge",
		    "RTT EWMA of the top-K QPs (0: no sample).", top.qps, n,
		    g_rtt, true);
	prom_family(f, "rocedp_qp_rtt_min_seconds", "gauge",
		    "Lowest RTT sample of the top-K QPs (0: no sample).",
		    top.qps, n, g_rtt_min, true);
	free(top.qps);
}
