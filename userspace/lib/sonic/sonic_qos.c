// SPDX-License-Identifier: GPL-2.0
/*
 * SONiC QoS tables -> rocedp (docs/sonic.md): WRED_PROFILE bound through
 * QUEUE on the lossless (RoCE) queue -> ecn.ports; DSCP_TO_TC_MAP,
 * TC_TO_QUEUE_MAP and PORT_QOS_MAP -> the DSCP of each remarked class.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rocedp.h"
#include "sonic_qos.h"

static int load_map(struct sn_ctx *c, const char *key, const char *table,
		    const char *ref, char *name, int *map, int n, int vmax)
{
	struct json_object *t = sn_table(c, table), *e;
	char mkey[SN_KEY_LEN], f[8];
	unsigned long long v;
	int i;

	if (sn_ref(c, key, table, ref, name, SN_NAME_LEN))
		return -1;
	snprintf(mkey, sizeof(mkey), "%s|%s", table, name);
	if (!t || !json_object_object_get_ex(t, name, &e)) {
		sn_fail(c, key, "%s does not exist", mkey);
		return -1;
	}
	json_object_object_foreach(e, k, kv)
	{
		(void)kv;
		unsigned long long x;
		char *end;

		x = strtoull(k, &end, 10);
		if (*end || k[0] < '0' || k[0] > '9' || x >= (unsigned)n) {
			sn_fail(c, mkey, "key \"%s\" is not 0..%d", k, n - 1);
			return -1;
		}
	}
	for (i = 0; i < n; i++) {
		snprintf(f, sizeof(f), "%d", i);
		switch (sn_uint(c, mkey, e, f, 0, vmax, &v)) {
		case 1:
			map[i] = v;
			break;
		case -1:
			return -1;
		}
	}
	return 0;
}

int sn_load_portqos(struct sn_ctx *c, const char *port, struct sn_portqos *q)
{
	struct json_object *t = sn_table(c, "PORT_QOS_MAP"), *e = NULL,
			   *g = NULL;
	char key[SN_KEY_LEN], l[SN_MAX_LIST][32];
	const char *s;
	int i, n;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < SN_MAX_TC; i++)
		q->tc2q[i] = i; /* SAI's default: queue = TC */
	for (i = 0; i < 64; i++)
		q->dscp2tc[i] = -1;
	if (t) {
		json_object_object_get_ex(t, port, &e);
		json_object_object_get_ex(t, "global", &g);
	}
	snprintf(key, sizeof(key), "PORT_QOS_MAP|%s", port);
	if (e) {
		n = sn_list(c, key, e, "pfc_enable", l, SN_MAX_LIST);
		for (i = 0; i < n; i++) {
			char *end;
			unsigned long tc = strtoul(l[i], &end, 10);

			if (*end || l[i][0] < '0' || l[i][0] > '9' ||
			    tc >= SN_MAX_TC) {
				sn_fail(c, key,
					"pfc_enable: \"%s\" is not 0..%d", l[i],
					SN_MAX_TC - 1);
				return -1;
			}
			q->lossless_tc |= 1u << tc;
			q->has_pfc = true;
		}
		if (n < 0)
			return -1;
		s = sn_str(c, key, e, "tc_to_queue_map");
		if (s && load_map(c, key, "TC_TO_QUEUE_MAP", s, q->tc_map,
				  q->tc2q, SN_MAX_TC, 255))
			return -1;
	}
	s = e ? sn_str(c, key, e, "dscp_to_tc_map") : NULL;
	if (!s && g) {
		snprintf(key, sizeof(key), "PORT_QOS_MAP|global");
		s = sn_str(c, key, g, "dscp_to_tc_map");
	}
	if (s && load_map(c, key, "DSCP_TO_TC_MAP", s, q->dscp_map, q->dscp2tc,
			  64, SN_MAX_TC - 1))
		return -1;
	return c->err;
}

/* ---- WRED_PROFILE via QUEUE -> ecn.ports ---- */

struct sn_prof {
	char name[SN_NAME_LEN];
	bool ok; /* usable: green is ECN-marked */
	unsigned long long kmin, kmax, pmax;
	bool has_pmax;
};

struct sn_bind {
	const char *port; /* into the document */
	int queue;
	char prof[SN_NAME_LEN];
};

/* ecn values and which colours they mark: green 1, yellow 2, red 4 */
static int ecn_colours(const char *s)
{
	static const struct {
		const char *n;
		int m;
	} v[] = {
		{ "ecn_none", 0 },	   { "ecn_green", 1 },
		{ "ecn_yellow", 2 },	   { "ecn_red", 4 },
		{ "ecn_green_yellow", 3 }, { "ecn_green_red", 5 },
		{ "ecn_yellow_red", 6 },   { "ecn_all", 7 },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(s, v[i].n))
			return v[i].m;
	return -1;
}

static void read_profile(struct sn_ctx *c, const char *name, struct sn_prof *p)
{
	struct json_object *t = sn_table(c, "WRED_PROFILE"), *e;
	char key[SN_KEY_LEN];
	const char *ecn, *col;
	int colours, k, h1, h2;
	bool en = false, has_en;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(key, sizeof(key), "WRED_PROFILE|%s", name);
	if (!t || !json_object_object_get_ex(t, name, &e)) {
		sn_fail(c, key, "does not exist (bound in QUEUE)");
		return;
	}
	ecn = sn_str(c, key, e, "ecn");
	colours = ecn ? ecn_colours(ecn) : 0;
	if (colours < 0) {
		sn_fail(c, key, "ecn: \"%s\" is not ecn_none..ecn_all", ecn);
		return;
	}
	/* the newer ECN-only thresholds win over the WRED ones */
	h1 = sn_uint(c, key, e, "ecn_green_min_threshold", 0, UINT64_MAX / 2,
		     &p->kmin);
	h2 = sn_uint(c, key, e, "ecn_green_max_threshold", 0, UINT64_MAX / 2,
		     &p->kmax);
	if (h1 <= 0 && !c->err)
		h1 = sn_uint(c, key, e, "green_min_threshold", 0,
			     UINT64_MAX / 2, &p->kmin);
	if (h2 <= 0 && !c->err)
		h2 = sn_uint(c, key, e, "green_max_threshold", 0,
			     UINT64_MAX / 2, &p->kmax);
	k = sn_uint(c, key, e, "ecn_green_mark_probability", 0, 100, &p->pmax);
	if (k <= 0 && !c->err)
		k = sn_uint(c, key, e, "green_drop_probability", 0, 100,
			    &p->pmax);
	p->has_pmax = k > 0;
	has_en = sn_bool(c, key, e, "wred_green_enable", &en) > 0;
	if (c->err)
		return;
	if (h1 > 0 && h2 > 0 && p->kmin > p->kmax) {
		sn_fail(c, key, "green min threshold %llu is above max %llu",
			p->kmin, p->kmax);
		return;
	}
	for (k = 0; k < 2; k++) {
		bool on = false;

		col = k ? "red" : "yellow";
		if (sn_bool(c, key, e,
			    k ? "wred_red_enable" : "wred_yellow_enable",
			    &on) < 0)
			return;
		if (on || (colours & (k ? 4 : 2)))
			sn_warn(c, key,
				"%s: rocedp has no packet colours; only the green settings are used",
				col);
	}
	/* green marks when ecn covers green and WRED (or ECN) runs on it */
	if (!(colours & 1) || !(en || sn_has(e, "ecn_green_min_threshold"))) {
		sn_warn(c, key,
			"green is not ECN-marked (ecn %s, wred_green_enable %s): rocedp marks and never drops; its ports keep rocedp's defaults",
			ecn ? ecn : "absent",
			has_en ? (en ? "true" : "false") : "absent");
		return;
	}
	if (h1 <= 0 || h2 <= 0) {
		sn_warn(c, key,
			"no green min/max threshold: its ports keep rocedp's defaults");
		return;
	}
	if (p->kmax > ROCEDP_ECN_MAX_BYTES) {
		sn_warn(c, key,
			"green max threshold %llu is above rocedp's %u: its ports keep rocedp's defaults",
			p->kmax, ROCEDP_ECN_MAX_BYTES);
		return;
	}
	p->ok = true;
}

/* "3" or "3-4" into lo..hi */
static int queue_range(struct sn_ctx *c, const char *key, const char *s,
		       int *lo, int *hi)
{
	char *end;
	unsigned long a, b;

	a = strtoul(s, &end, 10);
	b = a;
	if (*end == '-' && end[1] >= '0' && end[1] <= '9')
		b = strtoul(end + 1, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || a > b || b > 255) {
		sn_fail(c, key, "\"%s\" is not a queue or queue range (3, 3-4)",
			s);
		return -1;
	}
	*lo = a;
	*hi = b;
	return 0;
}

static int bind_cmp(const void *a, const void *b)
{
	const struct sn_bind *x = a, *y = b;
	int r = strverscmp(x->port, y->port);

	return r ? r : x->queue - y->queue;
}

/*
 * Port/queue pairs the QUEUE table may expand to: every port rocedp can
 * hold times SONiC's queue numbers, far above any switch. A key lists
 * ports and a range, so a small file could otherwise ask for millions
 * (a 129 KB file took 623 MB).
 */
#define SN_MAX_BINDS 65536

static void free_binds(struct sn_bind *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free((char *)b[i].port);
	free(b);
}

/* QUEUE|Ethernet0|3-4 (or Ethernet0,Ethernet4|3) -> wred_profile;
 * -ENOMEM or -E2BIG (c->err set, an error line printed). */
static int collect_binds(struct sn_ctx *c, struct sn_bind **out)
{
	struct json_object *t = sn_table(c, "QUEUE");
	struct sn_bind *b = NULL, *nb;
	char key[SN_KEY_LEN], pname[SN_NAME_LEN], *ports, *bar, *tok, *save;
	int n = 0, cap = 0, lo, hi, q;
	long want = 0;
	const char *prof;

	*out = NULL;
	if (!t)
		return 0;
	json_object_object_foreach(t, k, e)
	{
		snprintf(key, sizeof(key), "QUEUE|%s", k);
		prof = sn_str(c, key, e, "wred_profile");
		if (!prof)
			continue;
		bar = strrchr(k, '|');
		if (!bar || bar == k) {
			sn_fail(c, key, "expected QUEUE|PORT|QUEUES");
			break;
		}
		if (sn_ref(c, key, "WRED_PROFILE", prof, pname,
			   sizeof(pname)) ||
		    queue_range(c, key, bar + 1, &lo, &hi))
			break;
		for (tok = k, q = 1; tok < bar; tok++)
			q += *tok == ',';
		want += (long)q * (hi - lo + 1);
		if (want > SN_MAX_BINDS) {
			sn_fail(c, "QUEUE",
				"over %d port/queue pairs (ports times queue ranges): refused",
				SN_MAX_BINDS);
			free_binds(b, n);
			return -E2BIG;
		}
		ports = strndup(k, bar - k);
		if (!ports)
			goto oom;
		for (tok = strtok_r(ports, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			/* the key's own storage: it lives as long as the db */
			const char *port = k + (tok - ports);

			for (q = lo; q <= hi; q++) {
				if (n == cap) {
					cap = cap ? 2 * cap : 16;
					nb = realloc(b, cap * sizeof(*b));
					if (!nb) {
						free(ports);
						goto oom;
					}
					b = nb;
				}
				b[n].port = strndup(port, strlen(tok));
				if (!b[n].port) {
					free(ports);
					goto oom;
				}
				b[n].queue = q;
				snprintf(b[n].prof, sizeof(b[n].prof), "%s",
					 pname);
				n++;
			}
		}
		free(ports);
	}
	if (n)
		qsort(b, n, sizeof(*b), bind_cmp);
	*out = b;
	return n;
oom:
	free_binds(b, n);
	sn_fail(c, "QUEUE", "out of memory");
	return -ENOMEM;
}

static struct sn_prof *profile(struct sn_ctx *c, struct sn_prof **cache, int *n,
			       const char *name)
{
	struct sn_prof *p;
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*cache)[i].name, name))
			return &(*cache)[i];
	p = realloc(*cache, (*n + 1) * sizeof(**cache));
	if (!p)
		return NULL;
	*cache = p;
	read_profile(c, name, &p[*n]);
	return &p[(*n)++];
}

/* obj[k] = v; -ENOMEM (nothing added) */
static int sn_add_int(struct json_object *obj, const char *k, long long v)
{
	struct json_object *n = json_object_new_int64(v);

	if (!n || json_object_object_add(obj, k, n)) {
		json_object_put(n);
		return -ENOMEM;
	}
	return 0;
}

static void port_ecn(struct sn_ctx *c, struct json_object *ports,
		     struct sn_bind *b, int n, struct sn_prof **cache,
		     int *n_cache)
{
	struct sn_bind *pick = NULL;
	struct json_object *pe;
	struct sn_portqos q;
	unsigned int lossless_q = 0;
	char key[SN_KEY_LEN];
	struct sn_prof *p;
	const char *dev;
	int i;

	snprintf(key, sizeof(key), "QUEUE|%s", b[0].port);
	if (sn_load_portqos(c, b[0].port, &q))
		return;
	for (i = 0; i < SN_MAX_TC; i++)
		if (q.lossless_tc & (1u << i) && q.tc2q[i] < 32)
			lossless_q |= 1u << q.tc2q[i];
	/* RoCE data rides the lossless queues; without PFC, any queue */
	for (i = 0; i < n; i++) {
		if (q.has_pfc &&
		    (b[i].queue >= 32 || !(lossless_q & (1u << b[i].queue))))
			continue;
		if (!pick)
			pick = &b[i];
		else if (strcmp(pick->prof, b[i].prof)) {
			sn_warn(c, key,
				"queue %d has WRED_PROFILE %s, queue %d %s: rocedp has one ECN setting per port (%s)",
				pick->queue, pick->prof, b[i].queue, b[i].prof,
				pick->prof);
			break;
		}
	}
	if (!pick) {
		sn_warn(c, key,
			"WRED only on queues without PFC (not RoCE's): port keeps rocedp's defaults");
		return;
	}
	p = profile(c, cache, n_cache, pick->prof);
	if (!p || !p->ok || c->err)
		return;
	dev = sn_dev(c, key, b[0].port);
	if (!dev)
		return;
	if (json_object_object_get_ex(ports, dev, NULL)) {
		sn_fail(c, key, "device %s is given twice", dev);
		return;
	}
	pe = json_object_new_object();
	if (!pe || sn_add_int(pe, "kmin_bytes", p->kmin) ||
	    sn_add_int(pe, "kmax_bytes", p->kmax) ||
	    (p->has_pmax && sn_add_int(pe, "pmax_percent", p->pmax)) ||
	    json_object_object_add(ports, dev, pe)) {
		json_object_put(pe);
		sn_fail(c, key, "out of memory");
	}
}

void sn_convert_ecn(struct sn_ctx *c)
{
	struct json_object *ports = json_object_new_object(), *ecn;
	struct sn_prof *cache = NULL;
	struct sn_bind *b;
	int n, i, j, n_cache = 0;

	if (!ports) {
		sn_fail(c, "QUEUE", "out of memory");
		return;
	}
	n = collect_binds(c, &b);
	for (i = 0; i < n && !c->err; i = j) {
		for (j = i; j < n && !strcmp(b[j].port, b[i].port); j++)
			;
		port_ecn(c, ports, b + i, j - i, &cache, &n_cache);
	}
	if (n > 0)
		free_binds(b, n);
	free(cache);
	if (c->err || !json_object_object_length(ports)) {
		json_object_put(ports);
		return;
	}
	/* a failed add leaves the value to the caller */
	ecn = json_object_new_object();
	if (!ecn || json_object_object_add(ecn, "ports", ports)) {
		json_object_put(ports);
		json_object_put(ecn);
		sn_fail(c, "QUEUE", "out of memory");
	} else if (json_object_object_add(c->out, "ecn", ecn)) {
		json_object_put(ecn);
		sn_fail(c, "QUEUE", "out of memory");
	}
}

/* ---- DSCP maps -> qos ---- */

/*
 * A DSCP listed in the map whose queue is above every lossless queue (in
 * SONiC's templates the control queues sit above the RoCE ones: 46 -> 5,
 * 48 -> 6 over lossless 3 and 4): the lowest such DSCP of the highest queue.
 */
static int high_dscp(const struct sn_portqos *q, int top_lossless)
{
	int d, best = -1, bq = -1, qq;

	for (d = 0; d < 64; d++) {
		if (q->dscp2tc[d] < 0)
			continue;
		qq = q->tc2q[q->dscp2tc[d]];
		if (qq > top_lossless && qq > bq &&
		    !(q->lossless_tc & (1u << q->dscp2tc[d]))) {
			bq = qq;
			best = d;
		}
	}
	return best;
}

static bool dscp_high(const struct sn_portqos *q, int d, int top_lossless)
{
	int tc = q->dscp2tc[d];

	return tc >= 0 && q->tc2q[tc] > top_lossless &&
	       !(q->lossless_tc & (1u << tc));
}

static int lossless_dscp(const struct sn_portqos *q)
{
	int d;

	for (d = 0; d < 64; d++)
		if (q->dscp2tc[d] >= 0 &&
		    q->lossless_tc & (1u << q->dscp2tc[d]))
			return d;
	return -1;
}

void sn_convert_qos(struct sn_ctx *c)
{
	static const struct {
		const char *cls;
		int dflt; /* rocedp's default (docs/config.md) */
	} cls[] = { { "ack", 46 }, { "nak", 46 }, { "cnp", 48 }, { "cts", 46 } };
	struct sn_portqos ref, q;
	const char *refport = NULL;
	struct json_object *qos, *x;
	char key[SN_KEY_LEN];
	struct sn_rows r;
	int i, d, top = -1;

	for (sn_rows_open(&r, c, "PORT_QOS_MAP"); sn_rows_next(&r);) {
		if (sn_has(r.e, "pfcwd_sw_enable"))
			sn_warn(c, r.key,
				"pfcwd_sw_enable: the PFC watchdog is the switch's own");
		if (!strcmp(r.name, "global") ||
		    sn_load_portqos(c, r.name, &q) || q.dscp_map[0] == 0)
			continue;
		if (!refport) {
			ref = q;
			refport = r.name;
		} else if (memcmp(&q, &ref, sizeof(q)))
			sn_warn(c, r.key,
				"QoS maps differ from %s's: rocedp remarks each class to one DSCP on every port (%s's are used)",
				refport, refport);
	}
	sn_rows_close(&r);
	if (c->err || !refport)
		return;
	for (i = 0; i < SN_MAX_TC; i++)
		if (ref.lossless_tc & (1u << i) && ref.tc2q[i] > top)
			top = ref.tc2q[i];
	qos = json_object_new_object();
	for (i = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "PORT_QOS_MAP|%s", refport);
		d = cls[i].dflt;
		if (!ref.has_pfc) {
			/* no lossless queue known: nothing to aim at */
		} else if (dscp_high(&ref, d, top)) {
			/* rocedp's default already lands high: keep it */
		} else if ((d = high_dscp(&ref, top)) < 0 &&
			   (d = lossless_dscp(&ref)) < 0) {
			sn_warn(c, key,
				"no DSCP reaches a lossless or high-priority queue: %s keeps DSCP %d",
				cls[i].cls, cls[i].dflt);
			d = cls[i].dflt;
		}
		x = json_object_new_object();
		json_object_object_add(x, "dscp", json_object_new_int(d));
		json_object_object_add(qos, cls[i].cls, x);
	}
	json_object_object_add(c->out, "qos", qos);
}
