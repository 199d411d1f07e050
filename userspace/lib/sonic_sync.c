// SPDX-License-Identifier: GPL-2.0
/*
 * `rocedp sonic sync --redis URL`: CONFIG_DB -> rocedp's maps, live.
 * Reads CONFIG_DB, converts it (sonic.c), applies it through the same
 * validated atomic path as `config load`, and again after every burst of
 * keyspace events. A refused change leaves the running config as it is and
 * says why in STATE_DB ROCEDP|status. rocedp's counters go to COUNTERS_DB
 * the way SONiC's flex counters write them. Redis going away only pauses
 * this daemon: the maps, and so forwarding, stay as they are.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "rocedp.h"
#include "config.h"
#include "config_parse.h"
#include "config_read.h"
#include "config_txn.h"
#include "pindir.h"
#include "sonic.h"
#include "sonic_redis.h"
#include "sonic_sync.h"
#include "stats.h"
#include "syncguard.h"

#define OBJ "sonic"
#define MAX_PORTS 256
#define N_QUEUES 8 /* SONiC's unicast queues per port */
#define BURST_MAX_MS 1000 /* a steady stream of events still applies */

/* SAI object types in the top byte of an OID, as syncd numbers them */
#define OID_PORT (0x01ull << 48)
#define OID_NHG (0x05ull << 48)
#define OID_QUEUE (0x15ull << 48)

/* What rocedp can hash on (docs/sonic.md): the 5-tuple, and the BTH
 * destination QP on top (hash.mode qp). */
static const char hash_fields[] =
	"SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP";

struct sport {
	char name[64]; /* SONiC's name, Ethernet0 */
	unsigned int ifindex;
	int roce_queue; /* where ECN marks are counted */
};

struct syncd {
	const char *url;
	struct rd_sonic_opts opts;
	long port_ms, queue_ms, quiet_ms;
	bool once;
	struct rd_sredis r;
	struct rd_maps m;
	bool maps_open;
	char *applied; /* the document last applied, to skip no-op events */
	char ars_name[64];
	struct sport ports[MAX_PORTS];
	unsigned int n_ports;
	unsigned long applies, refusals, reconnects;
	bool state_stale; /* STATE_DB to rewrite even if nothing changes */
	bool detached; /* rocedp not attached at the last try */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void stamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	char ts[32];
	va_list ap;

	stamp(ts, sizeof(ts));
	fprintf(stderr, "%s rocedp: sonic sync: ", ts);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * The converter and the config parser say why they refuse on stderr; the
 * daemon keeps that text for STATE_DB as well as the log: stderr goes to a
 * temporary file for the call and is copied back afterwards.
 */
struct capture {
	FILE *tmp;
	int saved;
};

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->saved = -1;
	c->tmp = tmpfile();
	if (!c->tmp)
		return;
	c->saved = dup(STDERR_FILENO);
	if (c->saved < 0 || dup2(fileno(c->tmp), STDERR_FILENO) < 0) {
		if (c->saved >= 0)
			close(c->saved);
		c->saved = -1;
	}
}

/* Back to the real stderr, the text copied there; the last line in last. */
static void capture_end(struct capture *c, char *last, size_t llen)
{
	char line[512];

	last[0] = 0;
	fflush(stderr);
	if (c->saved >= 0) {
		dup2(c->saved, STDERR_FILENO);
		close(c->saved);
	}
	if (!c->tmp)
		return;
	rewind(c->tmp);
	while (fgets(line, sizeof(line), c->tmp)) {
		fputs(line, stderr);
		line[strcspn(line, "\n")] = 0;
		if (line[0]) {
			strncpy(last, line, llen - 1);
			last[llen - 1] = 0;
		}
	}
	fclose(c->tmp);
}

static void state_write(struct syncd *d, const char *state, const char *err)
{
	char ts[32], n1[24], n2[24], n3[24];
	const char *fv[] = { "state",	   state, "updated",  ts,
			     "applies",	   n1,	  "refusals", n2,
			     "reconnects", n3,	  "error",    err ? err : "" };

	stamp(ts, sizeof(ts));
	snprintf(n1, sizeof(n1), "%lu", d->applies);
	snprintf(n2, sizeof(n2), "%lu", d->refusals);
	snprintf(n3, sizeof(n3), "%lu", d->reconnects);
	/* a refusal keeps the last error; success clears it */
	rd_sredis_hset(&d->r, RD_SONIC_STATE_DB, "ROCEDP|status", fv,
		       err || !strcmp(state, "ok") ? 6 : 5);
	rd_sredis_flush(&d->r);
}

/* Validated, atomic, as `rocedp config load` does it. -errno. */
static int apply_doc(struct json_object *doc)
{
	struct rd_staged s;
	struct rd_maps m;
	int err, lock;

	err = rd_config_parse(doc, &s);
	if (err)
		return err;
	err = rd_config_open_maps(OBJ, &m);
	if (err) {
		rd_staged_free(&s);
		return -EAGAIN; /* not attached (yet): nothing refused */
	}
	lock = rd_config_lock(OBJ);
	if (lock < 0) {
		err = lock;
	} else {
		err = rd_config_apply(&m, &s);
		if (!err)
			rd_cts_names_save(m.fd[RD_MAP_CTS_RULES], &s);
		close(lock);
	}
	rd_staged_free(&s);
	rd_maps_close(&m);
	return err;
}

static int queue_of(const char *s)
{
	return *s >= '0' && *s < '0' + N_QUEUES ? *s - '0' : -1;
}

/* Add SONiC port name (len chars) to the ports once. */
static void add_port(struct syncd *d, const char *name, size_t len)
{
	unsigned int i;

	if (len >= sizeof(d->ports[0].name) || d->n_ports >= MAX_PORTS)
		return;
	for (i = 0; i < d->n_ports; i++)
		if (!strncmp(d->ports[i].name, name, len) &&
		    !d->ports[i].name[len])
			return;
	snprintf(d->ports[d->n_ports++].name, sizeof(d->ports[0].name), "%.*s",
		 (int)len, name);
}

/* The Linux device of a SONiC port: its --ports entry, else its own name
 * (as on a SONiC box). Kept in buf. */
static const char *port_dev(const struct syncd *d, const char *name, char *buf,
			    size_t len)
{
	const char *t = d->opts.ports;
	size_t n = strlen(name), m;

	while (t && *t) {
		m = strcspn(t, ",");
		if (m > n + 1 && !strncmp(t, name, n) && t[n] == '=') {
			snprintf(buf, len, "%.*s", (int)(m - n - 1), t + n + 1);
			return buf;
		}
		t += m + (t[m] == ',');
	}
	return name;
}

/*
 * The ports to count: PORT table keys and --ports names whose Linux device
 * exists here. ECN marks go to the port's lowest WRED-bound queue (the
 * lossless RoCE queue, 3 in SONiC's templates): rocedp marks per port.
 */
static void learn_ports(struct syncd *d, struct json_object *db)
{
	struct json_object *tbl = NULL, *obj;
	const char *t, *q;
	char dev[IF_NAMESIZE];
	unsigned int i;
	size_t n;

	d->n_ports = 0;
	for (t = d->opts.ports; t && *t; t += n + (t[n] == ',')) {
		n = strcspn(t, ",");
		if (memchr(t, '=', n))
			add_port(d, t, (const char *)memchr(t, '=', n) - t);
	}
	if (json_object_object_get_ex(db, "PORT", &tbl)) {
		json_object_object_foreach(tbl, key, val)
		{
			(void)val;
			add_port(d, key, strlen(key));
		}
	}
	for (i = 0; i < d->n_ports; i++) {
		struct sport *p = &d->ports[i];

		n = strlen(p->name);
		p->ifindex =
			if_nametoindex(port_dev(d, p->name, dev, sizeof(dev)));
		p->roce_queue = -1;
		if (!json_object_object_get_ex(db, "QUEUE", &tbl))
			continue;
		json_object_object_foreach(tbl, key, val)
		{
			if (strncmp(key, p->name, n) || key[n] != '|' ||
			    !json_object_object_get_ex(val, "wred_profile",
						       &obj))
				continue;
			q = key + n + 1;
			if (queue_of(q) >= 0 &&
			    (p->roce_queue < 0 || queue_of(q) < p->roce_queue))
				p->roce_queue = queue_of(q);
		}
	}
	for (i = 0; i < d->n_ports; i++)
		if (d->ports[i].roce_queue < 0)
			d->ports[i].roce_queue = 3;
	snprintf(d->ars_name, sizeof(d->ars_name), "rocedp");
	if (json_object_object_get_ex(db, "ARS_OBJECT", &tbl)) {
		json_object_object_foreach(tbl, key, val)
		{
			(void)val;
			snprintf(d->ars_name, sizeof(d->ars_name), "%s", key);
			break;
		}
	}
}

static void oid(char *buf, size_t len, unsigned long long v)
{
	snprintf(buf, len, "oid:0x%llx", v);
}

/* A queue's OID: its port's ifindex and the queue number inside. */
static unsigned long long queue_oid(unsigned int ifindex, unsigned int q)
{
	return OID_QUEUE | (unsigned long long)ifindex << 8 | q;
}

/* COUNTERS_*_NAME_MAP and SWITCH_CAPABILITY: after each (re)sync */
static void publish_names(struct syncd *d)
{
	char key[80], o[40];
	const char *fv[2] = { key, o };
	const char *cap[] = { "HASH|NATIVE_HASH_FIELD_LIST", hash_fields,
			      "ECMP_HASH_CAPABLE", "true", "LAG_HASH_CAPABLE",
			      "false",
			      /* one hash function, none of SAI's names */
			      "ECMP_HASH_ALGORITHM_CAPABLE", "false",
			      "LAG_HASH_ALGORITHM_CAPABLE", "false" };
	unsigned int i, q;

	for (i = 0; i < d->n_ports; i++) {
		const struct sport *p = &d->ports[i];

		if (!p->ifindex)
			continue;
		snprintf(key, sizeof(key), "%s", p->name);
		oid(o, sizeof(o), OID_PORT | p->ifindex);
		rd_sredis_hset(&d->r, RD_SONIC_COUNTERS_DB,
			       "COUNTERS_PORT_NAME_MAP", fv, 1);
		for (q = 0; q < N_QUEUES; q++) {
			snprintf(key, sizeof(key), "%s:%u", p->name, q);
			oid(o, sizeof(o), queue_oid(p->ifindex, q));
			rd_sredis_hset(&d->r, RD_SONIC_COUNTERS_DB,
				       "COUNTERS_QUEUE_NAME_MAP", fv, 1);
		}
	}
	snprintf(key, sizeof(key), "%s", d->ars_name);
	oid(o, sizeof(o), OID_NHG | 1);
	rd_sredis_hset(&d->r, RD_SONIC_COUNTERS_DB, "COUNTERS_ARS_NAME_MAP", fv,
		       1);
	rd_sredis_hset(&d->r, RD_SONIC_STATE_DB, "SWITCH_CAPABILITY|switch",
		       cap, ARRAY_LEN(cap) / 2);
	rd_sredis_flush(&d->r);
}

static bool maps_ready(struct syncd *d)
{
	if (!d->maps_open && !rd_maps_open_pinned(&d->m, rd_pin_dir()))
		d->maps_open = true;
	return d->maps_open;
}

static void maps_drop(struct syncd *d)
{
	if (d->maps_open)
		rd_maps_close(&d->m);
	d->maps_open = false;
}

static void u64s(char *buf, __u64 v)
{
	snprintf(buf, 24, "%llu", (unsigned long long)v);
}

/* Port i's counters; false when it has no device or cannot be read. */
static bool port_stats(struct syncd *d, unsigned int i,
		       struct rocedp_port_stats *ps)
{
	__u32 k = d->ports[i].ifindex;

	return k && !rd_percpu_sum(d->m.fd[RD_MAP_PORT_STATS], &k, (__u64 *)ps,
				   sizeof(*ps) / 8);
}

/* "COUNTERS:oid:0x..." */
static void ctr_key(char *key, size_t len, unsigned long long v)
{
	snprintf(key, len, "COUNTERS:oid:0x%llx", v);
}

static void publish_ports(struct syncd *d)
{
	char key[64], v[4][24];
	const char *fv[] = { "SAI_PORT_STAT_IF_IN_UCAST_PKTS",	v[0],
			     "SAI_PORT_STAT_IF_IN_OCTETS",	v[1],
			     "SAI_PORT_STAT_IF_OUT_UCAST_PKTS", v[2],
			     "SAI_PORT_STAT_IF_OUT_OCTETS",	v[3] };
	struct rocedp_port_stats ps;
	__u64 ctr[ROCEDP_CTR_MAX];
	unsigned int i;

	if (!maps_ready(d))
		return;
	for (i = 0; i < d->n_ports; i++) {
		if (!port_stats(d, i, &ps))
			continue;
		u64s(v[0], ps.rx_pkts);
		u64s(v[1], ps.rx_bytes);
		u64s(v[2], ps.tx_pkts);
		u64s(v[3], ps.tx_bytes);
		ctr_key(key, sizeof(key), OID_PORT | d->ports[i].ifindex);
		rd_sredis_hset(&d->r, RD_SONIC_COUNTERS_DB, key, fv, 4);
	}
	/* ARS: rocedp counts flowlet moves for the whole switch */
	if (!rd_counters_read(d->m.fd[RD_MAP_STATS], ctr)) {
		const char *av[] = {
			"SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS",
			v[0],
			"SAI_NEXT_HOP_GROUP_ATTR_ARS_PORT_REASSIGNMENTS",
			v[1],
			"SAI_NEXT_HOP_GROUP_ATTR_ARS_PACKET_DROPS",
			"0",
		};

		u64s(v[0], ctr[ROCEDP_CTR_FLOWLET_MOVE]);
		u64s(v[1], ctr[ROCEDP_CTR_FLOWLET_MEMBER_GONE]);
		ctr_key(key, sizeof(key), OID_NHG | 1);
		rd_sredis_hset(&d->r, RD_SONIC_COUNTERS_DB, key, av, 3);
	}
	if (rd_sredis_flush(&d->r) == -EIO)
		logf_("redis: lost while writing counters");
}

static void publish_queues(struct syncd *d)
{
	char key[64], v[2][24];
	const char *fv[] = { "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS", v[0],
			     "SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES", v[1] };
	bool roce;
	struct rocedp_port_stats ps;
	unsigned int i, q;

	if (!maps_ready(d))
		return;
	for (i = 0; i < d->n_ports; i++) {
		if (!port_stats(d, i, &ps))
			continue;
		for (q = 0; q < N_QUEUES; q++) {
			ctr_key(key, sizeof(key),
				queue_oid(d->ports[i].ifindex, q));
			/* rocedp marks on one queue: the port's RoCE queue */
			roce = (int)q == d->ports[i].roce_queue;
			u64s(v[0], roce ? ps.ecn_marked : 0);
			u64s(v[1], roce ? ps.ecn_marked_bytes : 0);
			rd_sredis_hset(&d->r, RD_SONIC_COUNTERS_DB, key, fv, 2);
		}
	}
	rd_sredis_flush(&d->r);
	/* reopened next time: a detach and attach pins new maps */
	maps_drop(d);
}

/* CONFIG_DB -> maps. 0 applied or unchanged, -EINVAL refused, -EIO lost,
 * -EAGAIN rocedp not attached. */
static int resync(struct syncd *d)
{
	struct json_object *db = NULL, *doc = NULL;
	char why[400] = "";
	struct capture cap;
	unsigned int n_keys;
	const char *text;
	int err, warn = 0;

	err = rd_sredis_read_configdb(&d->r, &db, &n_keys);
	if (err) {
		logf_("redis: cannot read CONFIG_DB: %s", strerror(-err));
		return -EIO;
	}
	learn_ports(d, db);
	publish_names(d);
	/* an empty CONFIG_DB is one not loaded yet (a Redis restarted
	 * without its data): keep running what runs now */
	if (!n_keys) {
		logf_("CONFIG_DB is empty: keeping the running config");
		json_object_put(db);
		state_write(d, "waiting", NULL);
		return 0;
	}
	capture_begin(&cap);
	err = rd_sonic_convert(db, &d->opts, &doc, &warn);
	text = err ? NULL :
		     json_object_to_json_string_ext(doc,
						    JSON_C_TO_STRING_PLAIN);
	if (text && d->applied && !strcmp(text, d->applied)) {
		capture_end(&cap, why, sizeof(why));
		/* back to what runs (after a refusal), or a new connection */
		if (d->state_stale)
			state_write(d, "ok", NULL);
		d->state_stale = false;
		json_object_put(doc);
		json_object_put(db);
		return 0;
	}
	if (!err)
		err = apply_doc(doc);
	capture_end(&cap, why, sizeof(why));
	if (err == -EINTR && stop) { /* SIGTERM while waiting for the lock */
		json_object_put(doc);
		json_object_put(db);
		return 0;
	}
	if (err == -EAGAIN) {
		if (!d->detached)
			logf_("no maps to apply to; trying every second");
		d->detached = true;
		state_write(d, "waiting", why);
		d->state_stale = true;
		json_object_put(doc);
		json_object_put(db);
		return -EAGAIN;
	}
	d->detached = false;
	if (err) {
		d->refusals++;
		if (!why[0])
			snprintf(why, sizeof(why), "%s", strerror(-err));
		logf_("change refused, running config kept: %s", why);
		state_write(d, "refused", why);
		d->state_stale = true;
	} else {
		free(d->applied);
		d->applied = strdup(text);
		d->applies++;
		logf_("CONFIG_DB applied (%u keys, %d warnings)", n_keys, warn);
		state_write(d, "ok", NULL);
		d->state_stale = false;
		maps_drop(d); /* reopen: a re-attach pins new maps */
	}
	json_object_put(doc);
	json_object_put(db);
	return err ? -EINVAL : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rocedp sonic sync --redis unix:PATH|HOST:PORT [--ports MAP] [--strict]\n"
		"         [--port-interval SEC] [--queue-interval SEC] [--quiet-ms MS] [--once]\n"
		"  MAP: Ethernet0=eth1,Ethernet4=eth2 (default: SONiC's names are the devices)\n"
		"  counters: per port every 1 s, per queue every 10 s by default\n");
}

static int parse_opts(struct syncd *d, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "redis", required_argument, NULL, 'r' },
		{ "ports", required_argument, NULL, 'P' },
		{ "strict", no_argument, NULL, 's' },
		{ "port-interval", required_argument, NULL, 'i' },
		{ "queue-interval", required_argument, NULL, 'q' },
		{ "quiet-ms", required_argument, NULL, 'Q' },
		{ "once", no_argument, NULL, '1' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end, host[256];
	double sec;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'r':
			d->url = optarg;
			break;
		case 'P':
			d->opts.ports = optarg;
			break;
		case 's':
			d->opts.strict = 1;
			break;
		case 'i':
		case 'q':
		case 'Q':
			sec = strtod(optarg, &end);
			if (*end || end == optarg || !(sec > 0) || sec > 3600) {
				rd_err(OBJ, "sync: bad value '%s' for --%s",
				       optarg,
				       c == 'Q' ? "quiet-ms" :
				       c == 'i' ? "port-interval" :
						  "queue-interval");
				return 2;
			}
			if (c == 'Q')
				d->quiet_ms = (long)sec;
			else
				*(c == 'i' ? &d->port_ms : &d->queue_ms) =
					(long)(sec * 1000);
			break;
		case '1':
			d->once = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		rd_err(OBJ, "sync: unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (!d->url || rd_sredis_parse_url(d->url, host, sizeof(host), &c)) {
		rd_err(OBJ, "sync: --redis %s: want unix:PATH or HOST:PORT",
		       d->url ? d->url : "missing");
		return 2;
	}
	return 0;
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static void run(struct syncd *d)
{
	long long now, next_try = 0, next_port = 0, next_queue = 0;
	long long dirty_at = -1, first_dirty = -1;
	unsigned int failures = 0;
	long backoff = 0;
	bool was_up = false;
	char err[256];
	struct pollfd pfd;
	int n;

	while (!stop) {
		now = now_ms();
		if (!d->r.cmd && now >= next_try) {
			if (!rd_sredis_connect(&d->r, d->url, err,
					       sizeof(err))) {
				if (was_up)
					d->reconnects++;
				logf_("redis: connected to %s", d->url);
				was_up = true;
				d->state_stale = true;
				failures = 0;
				backoff = 0;
				dirty_at = first_dirty = now; /* full resync */
			} else {
				/* sync's pacing: 10 ms doubling to 1 s */
				backoff = (long)(rd_backoff_ns(++failures) /
						 1000000);
				/* the first failure of an outage, then each minute */
				if (failures % 60 == 1)
					logf_("redis: %s: %s (retrying every %ld ms at most)",
					      d->url, err, backoff);
				if (d->once) {
					d->refusals++; /* exit 1 */
					break;
				}
				next_try = now + backoff;
			}
		}
		if (d->r.cmd && dirty_at >= 0 &&
		    (now >= dirty_at || now - first_dirty >= BURST_MAX_MS)) {
			dirty_at = first_dirty = -1;
			n = resync(d);
			if (n == -EIO)
				rd_sredis_close(&d->r);
			if (d->once)
				break;
			if (n == -EAGAIN) /* attach may come: look again */
				dirty_at = first_dirty = now + 1000;
		}
		if (d->r.cmd && now >= next_port) {
			publish_ports(d);
			next_port = now + d->port_ms;
		}
		if (d->r.cmd && now >= next_queue) {
			publish_queues(d);
			next_queue = now + d->queue_ms;
		}
		if (!d->r.cmd) {
			/* connection lost here or in a write */
			if (!next_try || next_try < now)
				next_try = now + backoff;
			poll(NULL, 0,
			     (int)(next_try - now_ms() > 0 ?
					   next_try - now_ms() :
					   0));
			continue;
		}
		now = now_ms();
		n = (int)(min_ll(min_ll(next_port, next_queue),
				 dirty_at >= 0 ? dirty_at : next_port) -
			  now);
		pfd.fd = rd_sredis_sub_fd(&d->r);
		pfd.events = POLLIN;
		n = poll(&pfd, 1, n < 0 ? 0 : n);
		if (n > 0) {
			n = rd_sredis_sub_drain(&d->r);
			if (n < 0) {
				logf_("redis: connection lost; maps kept, reconnecting");
				rd_sredis_close(&d->r);
				next_try = now_ms();
			} else if (n > 0) {
				dirty_at = now_ms() + d->quiet_ms;
				if (first_dirty < 0)
					first_dirty = now_ms();
			}
		}
	}
}

int rd_sonic_sync_main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct syncd d = { .port_ms = 1000,
			   .queue_ms = 10000,
			   .quiet_ms = 100 };
	int rc = parse_opts(&d, argc, argv);

	if (rc)
		return rc < 0 ? 0 : rc;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stderr, NULL, _IOLBF, 0);
	rd_maps_init(&d.m);
	logf_("following CONFIG_DB at %s", d.url);
	run(&d);
	if (d.r.cmd && !d.once)
		state_write(&d, "stopped", NULL);
	rd_sredis_close(&d.r);
	maps_drop(&d);
	free(d.applied);
	logf_("stopped: %lu applied, %lu refused, %lu reconnects", d.applies,
	      d.refusals, d.reconnects);
	return d.once && (d.refusals || !d.applies) ? 1 : 0;
}
