// SPDX-License-Identifier: GPL-2.0
/*
 * SONiC's packet trimming -> rocedp (docs/sonic.md, docs/trim.md): an
 * egress BUFFER_PROFILE's packet_discard_action, bound to a port's queues
 * through BUFFER_QUEUE, and SWITCH_TRIMMING|GLOBAL (size, dscp_value,
 * tc_value) -> ecn.ports.X's discard, buffer_bytes, rate_mbps and trim
 * keys. rocedp has one buffer per port: the queues with an action give
 * it, and only their DSCPs may be cut.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rocedp.h"
#include "sonic_qos.h"
#include "sonic_trim.h"

#define SN_TRIM_MAX_PORTS 256

enum { ACT_NONE, ACT_DROP, ACT_TRIM };

/* SWITCH_TRIMMING|GLOBAL */
struct sn_trim_glob {
	unsigned long long size;
	int dscp; /* -1: from-tc */
	int tc; /* with from-tc: the class whose DSCP a cut frame takes */
};

/* One port's queues with a discard action */
struct sn_trim_port {
	char name[SN_NAME_LEN];
	int action; /* ACT_TRIM over ACT_DROP */
	unsigned long long buffer; /* the smallest profile's */
	unsigned long long trim_queues; /* bit per queue with ACT_TRIM */
	char key[SN_KEY_LEN]; /* its first BUFFER_QUEUE row, for messages */
};

static void read_global(struct sn_ctx *c, struct sn_trim_glob *g)
{
	static const char key[] = "SWITCH_TRIMMING|GLOBAL";
	struct json_object *t = sn_table(c, "SWITCH_TRIMMING"), *e;
	unsigned long long v;
	const char *s;

	g->size = ROCEDP_TRIM_SIZE_DEFAULT;
	g->dscp = -1;
	g->tc = -1;
	if (!t || !json_object_object_get_ex(t, "GLOBAL", &e))
		return;
	if (sn_uint(c, key, e, "size", ROCEDP_TRIM_SIZE_MIN,
		    ROCEDP_TRIM_SIZE_MAX, &g->size) < 0)
		return;
	s = sn_str(c, key, e, "dscp_value");
	if (s && strcmp(s, "from-tc")) {
		if (sn_uint(c, key, e, "dscp_value", 0, 63, &v) < 0)
			return;
		g->dscp = v;
	}
	if (sn_uint(c, key, e, "tc_value", 0, SN_MAX_TC - 1, &v) > 0)
		g->tc = v;
	if (sn_has(e, "queue_index"))
		sn_warn(c, key,
			"queue_index: rocedp has no egress queues; a cut frame leaves by its port");
}

/* BUFFER_PROFILE|name's action and buffer; ACT_NONE without an action */
static int read_profile(struct sn_ctx *c, const char *name,
			unsigned long long *buffer)
{
	static const char *const acts[] = { "drop", "trim", NULL };
	struct json_object *t = sn_table(c, "BUFFER_PROFILE"), *e;
	char key[SN_KEY_LEN];
	int a;

	snprintf(key, sizeof(key), "BUFFER_PROFILE|%s", name);
	if (!t || !json_object_object_get_ex(t, name, &e)) {
		sn_fail(c, key, "does not exist (bound in BUFFER_QUEUE)");
		return -1;
	}
	a = sn_enum(c, key, e, "packet_discard_action", acts);
	if (a < 0)
		return a == -2 ? ACT_NONE : -1;
	/* static_th: the most its queue may hold; else the reserved size */
	*buffer = 0;
	if (sn_uint(c, key, e, "static_th", 0, UINT32_MAX, buffer) < 0 ||
	    (!*buffer && sn_uint(c, key, e, "size", 0, UINT32_MAX, buffer) < 0))
		return -1;
	if (!*buffer) {
		sn_warn(c, key,
			"packet_discard_action without static_th or size: no buffer to guard, ignored");
		return ACT_NONE;
	}
	return a == 1 ? ACT_TRIM : ACT_DROP;
}

static struct sn_trim_port *port_of(struct sn_trim_port *p, int *n,
				    const char *name, size_t len)
{
	int i;

	for (i = 0; i < *n; i++)
		if (strlen(p[i].name) == len && !strncmp(p[i].name, name, len))
			return &p[i];
	if (*n >= SN_TRIM_MAX_PORTS || len >= sizeof(p->name))
		return NULL;
	memset(&p[*n], 0, sizeof(*p));
	memcpy(p[*n].name, name, len);
	return &p[(*n)++];
}

/* BUFFER_QUEUE|Ethernet0,Ethernet4|3-4 -> the ports' actions */
static int collect(struct sn_ctx *c, struct sn_trim_port *p)
{
	char name[SN_NAME_LEN];
	unsigned long long buf;
	const char *prof, *bar, *t, *end;
	struct sn_trim_port *tp;
	struct sn_rows r;
	unsigned long lo, hi;
	int n = 0, act;
	size_t len;
	char *e;

	for (sn_rows_open(&r, c, "BUFFER_QUEUE"); sn_rows_next(&r);) {
		prof = sn_str(c, r.key, r.e, "profile");
		if (!prof)
			continue;
		if (sn_ref(c, r.key, "BUFFER_PROFILE", prof, name,
			   sizeof(name)))
			break;
		act = read_profile(c, name, &buf);
		if (act <= ACT_NONE)
			continue;
		bar = strrchr(r.name, '|');
		lo = bar ? strtoul(bar + 1, &e, 10) : 64;
		hi = bar && *e == '-' ? strtoul(e + 1, &e, 10) : lo;
		if (!bar || bar == r.name || *e || hi < lo || hi > 63) {
			sn_fail(c, r.key, "expected BUFFER_QUEUE|PORTS|QUEUES");
			break;
		}
		for (t = r.name; t < bar; t = end + 1) {
			end = memchr(t, ',', bar - t) ?: bar;
			len = end - t;
			tp = port_of(p, &n, t, len);
			if (!tp) {
				sn_warn(c, r.key,
					"too many ports: %.*s skipped",
					(int)len, t);
				continue;
			}
			if (!tp->action)
				snprintf(tp->key, sizeof(tp->key), "%s", r.key);
			if (act > tp->action)
				tp->action = act;
			if (!tp->buffer || buf < tp->buffer)
				tp->buffer = buf;
			if (act == ACT_TRIM)
				tp->trim_queues |= ((2ull << (hi - lo)) - 1)
						   << lo;
		}
	}
	sn_rows_close(&r);
	return c->err ? -1 : n;
}

/* from-tc: the class's DSCP on this port (TC_TO_DSCP_MAP), else -1 */
static int port_tc_dscp(struct sn_ctx *c, const char *port, int tc)
{
	struct json_object *t = sn_table(c, "PORT_QOS_MAP"), *e, *m;
	char key[SN_KEY_LEN], name[SN_NAME_LEN], f[12];
	unsigned long long v;
	const char *s;

	if (tc < 0 || !t || !json_object_object_get_ex(t, port, &e))
		return -1;
	snprintf(key, sizeof(key), "PORT_QOS_MAP|%s", port);
	s = sn_str(c, key, e, "tc_to_dscp_map");
	if (!s || sn_ref(c, key, "TC_TO_DSCP_MAP", s, name, sizeof(name)))
		return -1;
	t = sn_table(c, "TC_TO_DSCP_MAP");
	if (!t || !json_object_object_get_ex(t, name, &m)) {
		sn_fail(c, key, "TC_TO_DSCP_MAP|%s does not exist", name);
		return -1;
	}
	snprintf(key, sizeof(key), "TC_TO_DSCP_MAP|%s", name);
	snprintf(f, sizeof(f), "%d", tc);
	return sn_uint(c, key, m, f, 0, 63, &v) > 0 ? (int)v : -1;
}

static int add_int(struct json_object *o, const char *k, long long v)
{
	struct json_object *x = json_object_new_int64(v);

	if (!x || json_object_object_add(o, k, x)) {
		json_object_put(x);
		return -ENOMEM;
	}
	return 0;
}

/* ecn.ports.dev, created on first use */
static struct json_object *port_entry(struct sn_ctx *c, const char *dev)
{
	struct json_object *ecn = sn_section(c, "ecn"), *ports, *pe;

	if (!ecn)
		return NULL;
	if (!json_object_object_get_ex(ecn, "ports", &ports)) {
		ports = json_object_new_object();
		if (!ports || json_object_object_add(ecn, "ports", ports)) {
			json_object_put(ports);
			return NULL;
		}
	}
	if (json_object_object_get_ex(ports, dev, &pe))
		return pe;
	pe = json_object_new_object();
	if (!pe || json_object_object_add(ports, dev, pe)) {
		json_object_put(pe);
		return NULL;
	}
	return pe;
}

/* The trim keys: size, the port's DSCP, the DSCPs of the trim queues. */
static int add_trim(struct sn_ctx *c, struct json_object *pe,
		    const struct sn_trim_port *tp, const struct sn_trim_glob *g)
{
	struct json_object *a = json_object_new_array(), *x;
	struct sn_portqos q;
	int d, tc, dscp = g->dscp;
	bool lossless = false;

	if (!a || sn_load_portqos(c, tp->name, &q)) {
		json_object_put(a);
		return -1;
	}
	for (d = 0; d < 64; d++) {
		tc = q.dscp2tc[d];
		if (tc < 0 || q.tc2q[tc] > 63 ||
		    !((tp->trim_queues >> q.tc2q[tc]) & 1))
			continue;
		lossless |= (q.lossless_tc >> tc) & 1;
		json_object_array_add(a, json_object_new_int(d));
	}
	if (!json_object_array_length(a))
		sn_warn(c, tp->key,
			"no DSCP maps to the trimmed queues: nothing is cut, a full buffer drops");
	if (lossless)
		sn_warn(c, tp->key,
			"trims a lossless (PFC) queue: a cut RoCEv2 frame fails its ICRC, so only endpoints that consume trimmed packets gain");
	if (dscp < 0) /* asymmetric: this port's DSCP of tc_value */
		dscp = port_tc_dscp(c, tp->name, g->tc);
	x = dscp < 0 ? json_object_new_string("from_tc") :
		       json_object_new_int(dscp);
	if (c->err || json_object_object_add(pe, "trim_eligible_dscp", a)) {
		json_object_put(a);
		json_object_put(x);
		return -1;
	}
	if (!x || json_object_object_add(pe, "trim_dscp", x) ||
	    add_int(pe, "trim_size", g->size)) {
		json_object_put(x);
		return -1;
	}
	return 0;
}

static void convert_port(struct sn_ctx *c, const struct sn_trim_port *tp,
			 const struct sn_trim_glob *g)
{
	struct json_object *t = sn_table(c, "PORT"), *e = NULL, *pe, *k;
	unsigned long long speed = 0, kmax = ROCEDP_DEFAULT_KMAX_BYTES;
	char key[SN_KEY_LEN];
	const char *dev;

	snprintf(key, sizeof(key), "PORT|%s", tp->name);
	if (t)
		json_object_object_get_ex(t, tp->name, &e);
	if (!e || sn_uint(c, key, e, "speed", 1, UINT32_MAX, &speed) <= 0) {
		if (!c->err)
			sn_warn(c, tp->key,
				"%s has no speed: its buffer cannot drain, no discard action",
				tp->name);
		return;
	}
	dev = sn_dev(c, tp->key, tp->name);
	if (!dev)
		return;
	pe = port_entry(c, dev);
	if (!pe) {
		sn_fail(c, tp->key, "out of memory");
		return;
	}
	if (json_object_object_get_ex(pe, "kmax_bytes", &k))
		kmax = json_object_get_int64(k);
	if (tp->buffer < kmax || tp->buffer > UINT32_MAX) {
		sn_warn(c, tp->key,
			"buffer %llu is below the port's ECN Kmax %llu: no discard action",
			tp->buffer, kmax);
		return;
	}
	if (add_int(pe, "rate_mbps", speed) ||
	    add_int(pe, "buffer_bytes", tp->buffer) ||
	    json_object_object_add(
		    pe, "discard",
		    json_object_new_string(tp->action == ACT_TRIM ? "trim" :
								    "drop")) ||
	    (tp->action == ACT_TRIM && add_trim(c, pe, tp, g))) {
		if (!c->err)
			sn_fail(c, tp->key, "out of memory");
	}
}

void sn_convert_trim(struct sn_ctx *c)
{
	struct sn_trim_port *p;
	struct sn_trim_glob g;
	int n, i;

	p = calloc(SN_TRIM_MAX_PORTS, sizeof(*p));
	if (!p) {
		sn_fail(c, "BUFFER_QUEUE", "out of memory");
		return;
	}
	read_global(c, &g);
	n = c->err ? -1 : collect(c, p);
	for (i = 0; i < n && !c->err; i++)
		convert_port(c, &p[i], &g);
	free(p);
}
