// SPDX-License-Identifier: GPL-2.0
/*
 * COUNTERS_ROCEDP_QP:<src>|<dst>|<dest_qp> in COUNTERS_DB: the telemetry
 * table's QPs (what `rocedp -j qps` shows) as `rocedp sonic sync` writes
 * them (docs/sonic.md). The table holds up to ROCEDP_MAX_QPS entries and
 * churns with the traffic; the database gets the top K only, and a QP
 * leaving the top K has its key deleted, so COUNTERS_DB never grows with
 * the number of QPs ever seen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "rocedp.h"
#include "names.h"
#include "sonic_qps.h"
#include "sonic_redis.h"
#include "util.h"

#define PREFIX "COUNTERS_ROCEDP_QP:"
/* keys of an earlier daemon: its K was at most RD_SQPS_TOP_MAX */
#define SWEEP_MAX (4 * RD_SQPS_TOP_MAX)

void rd_sqps_init(struct rd_sqps *q, unsigned int top_k)
{
	memset(q, 0, sizeof(*q));
	q->top_k = top_k;
}

void rd_sqps_free(struct rd_sqps *q)
{
	rd_qps_free(&q->prev);
	free(q->keys);
	q->keys = NULL;
	q->n_keys = 0;
}

void rd_sqps_key(const struct rocedp_qp_key *k, char *buf, size_t len)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];

	rd_qp_addr_str(k, k->src, s, sizeof(s));
	rd_qp_addr_str(k, k->dst, d, sizeof(d));
	snprintf(buf, len, PREFIX "%s|%s|%u", s, d, k->dqp);
}

static void u64s(char *buf, __u64 v)
{
	snprintf(buf, 24, "%llu", (unsigned long long)v);
}

/* A port as SONiC names it, else its Linux name, else "-" */
static void port_name(char *buf, unsigned int ifindex, rd_sqps_name_fn name,
		      void *ctx)
{
	const char *n = ifindex && name ? name(ctx, ifindex) : NULL;

	if (n)
		snprintf(buf, 64, "%s", n);
	else if (!ifindex || !rd_ifname(ifindex, buf))
		snprintf(buf, 64, "-");
}

/*
 * One QP's hash: the fields of `rocedp -j qps` under the same names
 * (naks split as naks_<syndrome>; RTT 0 while rtt_samples is 0; the wait
 * 0 while nothing waits), and its rates over the last interval.
 */
static int write_qp(struct rd_sredis *r, const struct rd_qp *q, const char *key,
		    rd_sqps_name_fn name, void *ctx)
{
	char v[40][64], nk[ROCEDP_QP_NAK_MAX][32];
	const char *fv[2 * RD_SREDIS_HSET_MAX];
	unsigned int n = 0, i;

#define F(field) (fv[2 * n] = (field), fv[2 * n + 1] = v[n], v[n])
#define U(field, val) (u64s(F(field), (val)), n++)
	rd_qp_addr_str(&q->key, q->key.src, F("src"), 64);
	n++;
	rd_qp_addr_str(&q->key, q->key.dst, F("dst"), 64);
	n++;
	U("dest_qp", q->key.dqp);
	U("pkts", q->st.pkts);
	U("bytes", q->st.bytes);
	U("req_pkts", q->st.req_pkts);
	U("gaps", q->st.gaps);
	U("gap_psns", q->st.gap_psns);
	U("rewinds", q->st.rewinds);
	U("dups", q->st.dups);
	U("resp_pkts", q->st.resp_pkts);
	U("resp_gaps", q->st.resp_gaps);
	U("resp_rewinds", q->st.resp_rewinds);
	U("acks", q->st.acks);
	for (i = 0; i < ROCEDP_QP_NAK_MAX; i++) {
		snprintf(nk[i], sizeof(nk[i]), "naks_%s", rd_qp_nak_name(i));
		U(nk[i], q->st.naks[i]);
	}
	U("cnps", q->st.cnps);
	U("ce", q->st.ce);
	U("rtt_samples", q->st.rtt_samples);
	snprintf(F("rtt_min_us"), 64, "%.3f",
		 q->st.rtt_samples ? q->st.rtt_min_ns / 1000.0 : 0.0);
	n++;
	snprintf(F("rtt_ewma_us"), 64, "%.3f",
		 q->st.rtt_samples ? q->st.rtt_ewma_ns / 1000.0 : 0.0);
	n++;
	U("unacked_wait_us", q->st.unacked_ns ? q->wait_ns / 1000 : 0);
	snprintf(F("stalled"), 64, "%s", q->stalled ? "true" : "false");
	n++;
	U("stalls", q->st.stalls);
	U("idle_us", q->idle_ns / 1000);
	port_name(F("in_port"), q->st.in_ifindex, name, ctx);
	n++;
	port_name(F("out_port"), q->st.out_ifindex, name, ctx);
	n++;
	snprintf(F("pkts_per_s"), 64, "%.2f", q->rate.pkts);
	n++;
	snprintf(F("bytes_per_s"), 64, "%.2f", q->rate.bytes);
	n++;
#undef U
#undef F
	return rd_sredis_hset(r, RD_SDB_COUNTERS(r), key, fv, n);
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* keys: sorted (bsearch) */
static bool in_keys(char (*keys)[RD_SQPS_KEY_LEN], unsigned int n,
		    const char *k)
{
	return n && bsearch(k, keys, n, RD_SQPS_KEY_LEN, key_cmp);
}

static bool keep_current(void *ctx, const char *key)
{
	struct rd_sqps *q = ctx;

	return in_keys(q->keys, q->n_keys, key);
}

int rd_sqps_write(struct rd_sqps *q, const struct rd_maps *m,
		  struct rd_sredis *r, rd_sqps_name_fn name, void *ctx)
{
	struct rd_qp_snap cur = { 0 };
	char(*keys)[RD_SQPS_KEY_LEN] = NULL;
	unsigned int n = 0, i, del;
	int e = 0;

	if (q->top_k) {
		e = rd_qps_read(m, &cur);
		if (e) {
			rd_qps_free(&cur);
			return e;
		}
		/* the exporter's choice (qps.c): stalled or losing first,
		 * then bytes per second, then bytes */
		rd_qps_rates(&q->prev, &cur);
		rd_qps_sort_sick(&cur);
		n = cur.n < q->top_k ? cur.n : q->top_k;
		keys = n ? calloc(n, RD_SQPS_KEY_LEN) : NULL;
		if (n && !keys) {
			rd_qps_free(&cur);
			return -ENOMEM;
		}
	}
	for (i = 0; i < n && !e; i++) {
		rd_sqps_key(&cur.qps[i].key, keys[i], RD_SQPS_KEY_LEN);
		e = write_qp(r, &cur.qps[i], keys[i], name, ctx);
	}
	if (n)
		qsort(keys, n, RD_SQPS_KEY_LEN, key_cmp);
	/* those that left the top K */
	for (i = 0; i < q->n_keys && !e; i++)
		if (!in_keys(keys, n, q->keys[i]))
			e = rd_sredis_del(r, RD_SDB_COUNTERS(r), q->keys[i]);
	rd_qps_free(&q->prev);
	q->prev = cur;
	free(q->keys);
	q->keys = keys;
	q->n_keys = n;
	if (e)
		return e;
	/* and whatever an earlier daemon left (it may have had a larger K,
	 * or QPs since gone), once */
	if (!q->swept) {
		e = rd_sredis_scan_del(r, RD_SDB_COUNTERS(r), PREFIX "*",
				       SWEEP_MAX, keep_current, q, &del);
		q->swept = !e;
	}
	return e;
}
