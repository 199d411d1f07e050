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
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocedp.h"
#include "config.h"
#include "config_parse.h"
#include "config_read.h"
#include "config_txn.h"
#include "sonic.h"
#include "sonic_counters.h"
#include "sonic_redis.h"
#include "sonic_sync.h"
#include "syncguard.h"

#define OBJ "sonic"
#define BURST_MAX_MS 1000 /* a steady stream of events still applies */

struct syncd {
	const char *url;
	struct rd_sonic_opts opts;
	long port_ms, queue_ms, quiet_ms;
	bool once;
	struct rd_sredis r;
	struct rd_scounters ctr; /* what goes back to COUNTERS_DB, STATE_DB */
	char *applied; /* the document last applied, to skip no-op events */
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
	rd_scounters_learn(&d->ctr, db);
	rd_scounters_names(&d->ctr, &d->r);
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
		rd_scounters_reopen(&d->ctr); /* a re-attach pins new maps */
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
			if (rd_scounters_ports(&d->ctr, &d->r) == -EIO)
				logf_("redis: lost while writing counters");
			next_port = now + d->port_ms;
		}
		if (d->r.cmd && now >= next_queue) {
			rd_scounters_queues(&d->ctr, &d->r);
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
	rd_scounters_init(&d.ctr, d.opts.ports);
	logf_("following CONFIG_DB at %s", d.url);
	run(&d);
	if (d.r.cmd && !d.once)
		state_write(&d, "stopped", NULL);
	rd_sredis_close(&d.r);
	rd_scounters_close(&d.ctr);
	free(d.applied);
	logf_("stopped: %lu applied, %lu refused, %lu reconnects", d.applies,
	      d.refusals, d.reconnects);
	return d.once && (d.refusals || !d.applies) ? 1 : 0;
}
