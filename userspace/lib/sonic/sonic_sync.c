// SPDX-License-Identifier: GPL-2.0
/*
 * `rocedp sonic sync --redis URL`: CONFIG_DB -> rocedp's maps, live.
 * Reads CONFIG_DB once SONiC says it is loaded (CONFIG_DB_INITIALIZED),
 * converts it (sonic.c), applies it through the same validated atomic path
 * as `config load`, and again after every burst of keyspace events, when
 * the maps drift from it (a re-attach, a `config set`) and when a port's
 * device appears. A refused change leaves the running config as it is and
 * says why in STATE_DB ROCEDP|status. Redis going away or misbehaving only
 * pauses this daemon: the maps, and so forwarding, stay as they are.
 */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/rtnetlink.h>

#include "rocedp.h"
#include "config.h"
#include "config_parse.h"
#include "escape.h"
#include "config_read.h"
#include "config_render.h"
#include "config_txn.h"
#include "nl.h"
#include "pindir.h"
#include "sonic.h"
#include "sonic_counters.h"
#include "sonic_redis.h"
#include "sonic_sync.h"
#include "sdnotify.h"
#include "sync_guard.h"

#define OBJ "sonic"
#define BURST_MAX_MS 1000 /* a steady stream of events still applies */
#define RETRY_MS 1000 /* not attached, or CONFIG_DB not loaded: look again */
#define DRIFT_MS 1000 /* the maps compared with what was applied */
#define NOCONFIG_POLL_MS 10000 /* CONFIG refused: CONFIG_DB re-read anyway */
#define LOG_REPEAT_MS 60000 /* the same failure logged once a minute */
#define WARM_KEY "WARM_RESTART_TABLE|rocedp"

struct syncd {
	const char *url, *auth_file;
	struct rd_sdb_ids ids;
	struct rd_sredis_auth auth;
	struct rd_sonic_opts opts;
	long port_ms, queue_ms, quiet_ms;
	bool once;
	struct rd_sredis r;
	struct rd_stls *tls; /* NULL: no TLS */
	struct rd_scounters ctr; /* what goes back to COUNTERS_DB, STATE_DB */
	struct rd_nl nl; /* link events: a skipped port's device appears */
	bool nl_open;
	char *applied; /* the document last applied, to skip no-op events */
	char *running; /* the maps' config read back right after applying */
	int map_ids[RD_MAP_MAX]; /* and the maps' ids then */
	unsigned int skipped; /* ports left out: no device yet */
	unsigned long applies, refusals, reconnects, writes;
	bool state_stale; /* STATE_DB to rewrite even if nothing changes */
	bool detached; /* rocedp not attached at the last try */
	bool waiting_init; /* CONFIG_DB_INITIALIZED was not 1 */
	int warm; /* 0 nothing said yet, 1 restored said, 2 reconciled */
	char lastlog[300];
	long long lastlog_ms;
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
	/* Redis's strings in it too: escaped, so none forges a log line */
	char ts[32], line[512], esc[RD_ESC_LEN(sizeof(line))];
	va_list ap;

	/* under systemd the journal stamps the line: no time of our own */
	if (rd_log_journal()) {
		fprintf(stderr, "%srocedp: sonic sync: ", rd_log_prio(6));
	} else {
		stamp(ts, sizeof(ts));
		fprintf(stderr, "%s rocedp: sonic sync: ", ts);
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", rd_esc_term(line, esc, sizeof(esc)));
}

/* A failure that may repeat every retry: logged when it is new, and once
 * a minute while it lasts (not thousands of lines a second). */
static void log_fail(struct syncd *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void log_fail(struct syncd *d, const char *fmt, ...)
{
	char line[sizeof(d->lastlog)];
	long long now = now_ms();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!strcmp(line, d->lastlog) && now - d->lastlog_ms < LOG_REPEAT_MS)
		return;
	logf_("%s", line);
	snprintf(d->lastlog, sizeof(d->lastlog), "%s", line);
	d->lastlog_ms = now;
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
	char ts[32], n1[24], n2[24], n3[24], n4[24];
	const char *fv[] = { "state",	   state,
			     "updated",	   ts,
			     "applies",	   n1,
			     "refusals",   n2,
			     "reconnects", n3,
			     "map_writes", n4,
			     "error",	   err ? err : "" };

	stamp(ts, sizeof(ts));
	snprintf(n1, sizeof(n1), "%lu", d->applies);
	snprintf(n2, sizeof(n2), "%lu", d->refusals);
	snprintf(n3, sizeof(n3), "%lu", d->reconnects);
	snprintf(n4, sizeof(n4), "%lu", d->writes);
	/* a refusal keeps the last error; success clears it */
	rd_sredis_hset(&d->r, RD_SDB_STATE(&d->r), "ROCEDP|status", fv,
		       err || !strcmp(state, "ok") ? 7 : 6);
	rd_sredis_flush(&d->r);
}

/*
 * SONiC's warm-restart record (sonic-swss-common warm_restart.cpp:
 * STATE_DB WARM_RESTART_TABLE|<app>, `state` and `restore_count`). A
 * restart of this daemon is warm by construction: the maps stay pinned and
 * keep forwarding. "restored" when it finds them holding a config,
 * "reconciled" once CONFIG_DB has been applied (writing only what differs).
 */
static void warm_write(struct syncd *d, int warm)
{
	const char *fv[] = { "state", warm == 1 ? "restored" : "reconciled" };

	if (d->warm >= warm)
		return;
	if (warm == 1)
		rd_sredis_hincr(&d->r, RD_SDB_STATE(&d->r), WARM_KEY,
				"restore_count");
	rd_sredis_hset(&d->r, RD_SDB_STATE(&d->r), WARM_KEY, fv, 1);
	if (!rd_sredis_flush(&d->r)) {
		d->warm = warm;
		logf_("warm restart: %s", fv[1]);
	}
}

/* The maps' ids and their config read back (static part), for drift. */
static int snapshot(int *ids, char **running)
{
	struct json_object *j;
	struct rd_staged s;
	struct rd_maps m;
	int i, err;

	*running = NULL;
	rd_maps_init(&m);
	err = rd_maps_open_pinned(&m, rd_pin_dir());
	if (err)
		return err;
	for (i = 0; i < RD_MAP_MAX; i++)
		ids[i] = m.fd[i] >= 0 ? rd_map_id(m.fd[i]) : -1;
	err = rd_config_read_running(&m, &s);
	rd_maps_close(&m);
	if (err)
		return err;
	j = rd_config_to_json(&s);
	rd_staged_free(&s);
	if (!j)
		return -ENOMEM;
	*running = strdup(
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	return *running ? 0 : -ENOMEM;
}

/* Validated, atomic, as `rocedp config load` does it. -errno. */
static int apply_doc(struct syncd *d, struct json_object *doc)
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
		err = rd_config_apply_counted(&m, &s, &d->writes);
		if (!err)
			rd_cts_names_save(m.fd[RD_MAP_CTS_RULES], &s);
		close(lock);
	}
	rd_staged_free(&s);
	rd_maps_close(&m);
	if (!err) {
		free(d->running);
		snapshot(d->map_ids, &d->running);
	}
	return err;
}

/*
 * A port whose device does not exist (yet) is left out with a warning
 * instead of refusing the whole config; a link event brings it back.
 */
static unsigned int skip_missing_ports(struct json_object *doc)
{
	struct json_object *ecn, *ports;
	char gone[64][IF_NAMESIZE + 1];
	unsigned int n = 0, i;

	if (!json_object_object_get_ex(doc, "ecn", &ecn) ||
	    !json_object_object_get_ex(ecn, "ports", &ports) ||
	    !json_object_is_type(ports, json_type_object))
		return 0;
	json_object_object_foreach(ports, dev, v)
	{
		(void)v;
		if (strlen(dev) < IF_NAMESIZE && if_nametoindex(dev))
			continue;
		if (n < 64)
			snprintf(gone[n++], sizeof(gone[0]), "%.*s",
				 IF_NAMESIZE, dev);
	}
	for (i = 0; i < n; i++) {
		rd_err(OBJ,
		       "warning: ecn.ports.%s: no such device: skipped until it appears",
		       gone[i]);
		json_object_object_del(ports, gone[i]);
	}
	return n;
}

/* Not yet loaded (SONiC's own signal, or nothing at all): say so, keep
 * what runs. */
static int wait_init(struct syncd *d, const char *why)
{
	if (!d->waiting_init)
		logf_("CONFIG_DB not loaded (%s): running config kept, waiting",
		      why);
	d->waiting_init = true;
	state_write(d, "waiting", why);
	d->state_stale = true;
	return -EAGAIN;
}

/* CONFIG_DB -> maps. 0 applied or unchanged, -EINVAL refused, -EAGAIN
 * not now (not attached, CONFIG_DB not loaded), other -errno: Redis failed
 * (the reason logged; reconnect after a backoff). */
static int resync(struct syncd *d)
{
	struct json_object *db = NULL, *doc = NULL;
	char why[400] = "";
	struct capture cap;
	unsigned int n_keys;
	const char *text;
	int err, warn = 0;

	err = rd_sredis_configdb_ready(&d->r);
	if (!err)
		return wait_init(d, d->r.err);
	if (err > 0)
		err = rd_sredis_read_configdb(&d->r, &db, &n_keys);
	/* loaded before and after the read: a `config reload` that started
	 * meanwhile is not applied half way */
	if (!err) {
		err = rd_sredis_configdb_ready(&d->r);
		if (!err) {
			json_object_put(db);
			return wait_init(d, d->r.err);
		}
		err = err > 0 ? 0 : err;
	}
	if (err) {
		json_object_put(db);
		log_fail(d, "redis: cannot read CONFIG_DB: %s", d->r.err);
		return err == -EAGAIN ? -EIO : err;
	}
	if (d->waiting_init)
		logf_("CONFIG_DB loaded (CONFIG_DB_INITIALIZED 1)");
	d->waiting_init = false;
	rd_scounters_learn(&d->ctr, db);
	rd_scounters_names(&d->ctr, &d->r);
	/* no keys although SONiC says loaded: a Redis restarted without its
	 * data; keep running what runs now */
	if (!n_keys) {
		json_object_put(db);
		return wait_init(d, "CONFIG_DB is empty");
	}
	capture_begin(&cap);
	err = rd_sonic_convert(db, &d->opts, &doc, &warn);
	if (!err)
		d->skipped = skip_missing_ports(doc);
	text = err ? NULL :
		     json_object_to_json_string_ext(doc,
						    JSON_C_TO_STRING_PLAIN);
	if (text && d->applied && !strcmp(text, d->applied)) {
		capture_end(&cap, why, sizeof(why));
		/* back to what runs (after a refusal), or a new connection */
		if (d->state_stale)
			state_write(d, "ok", NULL);
		d->state_stale = false;
		warm_write(d, 2);
		json_object_put(doc);
		json_object_put(db);
		return 0;
	}
	if (!err)
		err = apply_doc(d, doc);
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
		logf_("CONFIG_DB applied (%u keys, %d warnings, %lu map writes)",
		      n_keys, warn, d->writes);
		state_write(d, "ok", NULL);
		d->state_stale = false;
		warm_write(d, 2);
		rd_scounters_reopen(&d->ctr); /* a re-attach pins new maps */
	}
	json_object_put(doc);
	json_object_put(db);
	return err ? -EINVAL : 0;
}

/*
 * The maps against what was applied: new map ids (rocedp detached and
 * attached again) or a running config that differs (`rocedp config set`
 * behind CONFIG_DB's back) get the last applied document again, without
 * Redis. Detached: nothing to compare until it is back.
 */
static void check_drift(struct syncd *d)
{
	int ids[RD_MAP_MAX], i;
	const char *what = NULL;
	struct json_object *doc;
	char *running = NULL;

	if (!d->applied || !d->running)
		return;
	if (snapshot(ids, &running))
		return;
	for (i = 0; i < RD_MAP_MAX && !what; i++)
		if (ids[i] != d->map_ids[i])
			what = "new maps (rocedp attached again)";
	if (!what && strcmp(running, d->running))
		what = "the running config differs from CONFIG_DB";
	free(running);
	if (!what)
		return;
	doc = json_tokener_parse(d->applied);
	if (!doc)
		return;
	i = apply_doc(d, doc);
	json_object_put(doc);
	if (i) {
		log_fail(d, "%s: re-applying CONFIG_DB failed: %s", what,
			 strerror(-i));
		return;
	}
	d->applies++;
	logf_("%s: CONFIG_DB applied again (%lu map writes)", what, d->writes);
	if (d->r.cmd)
		state_write(d, "ok", NULL);
	rd_scounters_reopen(&d->ctr);
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	if (nlh->nlmsg_type == RTM_NEWLINK || nlh->nlmsg_type == RTM_DELLINK)
		*(int *)data = 1;
	return MNL_CB_OK;
}

/* 1 if a device came or went, 0 if not. */
static int links_changed(struct syncd *d)
{
	int changed = 0, n;

	n = rd_nl_drain(&d->nl, link_cb, &changed, 64);
	return n == -ENOBUFS ? 1 : changed;
}

static long long min_ll(long long a, long long b)
{
	return a < b ? a : b;
}

static void run(struct syncd *d)
{
	long long now, next_try = 0, next_port = 0, next_queue = 0;
	long long dirty_at = -1, first_dirty = -1, next_drift = 0,
		  next_poll = 0;
	unsigned int failures = 0;
	bool was_up = false, quiet_connect = false;
	struct pollfd pfd[2];
	int n, running;

	while (!stop) {
		now = now_ms();
		if (!d->r.cmd && now >= next_try) {
			n = rd_sredis_connect(&d->r, d->url);
			if (!n) {
				if (was_up)
					d->reconnects++;
				/* a connection that then fails its resync is
				 * not news every second */
				if (!quiet_connect)
					logf_("redis: connected to %s", d->url);
				if (d->r.no_config)
					log_fail(
						d,
						"redis: CONFIG refused (%s): keyspace events taken to be on, as SONiC's redis.conf sets them; CONFIG_DB is read every 10 s too, in case they are not",
						d->r.err);
				was_up = true;
				d->state_stale = true;
				dirty_at = first_dirty = now; /* full resync */
				running = access(rd_pin_dir(), F_OK) == 0;
				if (running)
					warm_write(d, 1);
			} else {
				failures++;
				log_fail(d, "redis: %s: %s", d->url, d->r.err);
				if (d->once) {
					d->refusals++; /* exit 1 */
					break;
				}
				/* sync's pacing: 10 ms doubling to 1 s */
				next_try = now +
					   (long long)(rd_backoff_ns(failures) /
						       1000000);
			}
		}
		if (d->r.cmd && dirty_at >= 0 &&
		    (now >= dirty_at || now - first_dirty >= BURST_MAX_MS)) {
			dirty_at = first_dirty = -1;
			n = resync(d);
			if (d->once)
				break;
			if (n == 0 || n == -EINVAL || n == -EAGAIN) {
				/* a whole read: Redis is fine again */
				failures = 0;
				quiet_connect = false;
				d->lastlog[0] = 0;
			} else {
				/* connected but failing (NOPERM, LOADING,
				 * nonsense): no reconnect storm */
				rd_sredis_close(&d->r);
				failures++;
				quiet_connect = true;
				next_try = now +
					   (long long)(rd_backoff_ns(failures) /
						       1000000);
			}
			if (n == -EAGAIN) /* attach or loading: look again */
				dirty_at = first_dirty = now + RETRY_MS;
		}
		if (now >= next_drift) {
			check_drift(d);
			next_drift = now + DRIFT_MS;
		}
		/* CONFIG refused: the events may be off, and nothing would say
		 * so; a re-read equal to what runs writes nothing */
		if (d->r.cmd && d->r.no_config && dirty_at < 0 &&
		    now >= next_poll) {
			if (next_poll)
				dirty_at = first_dirty = now;
			next_poll = now + NOCONFIG_POLL_MS;
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
		now = now_ms();
		if (d->r.cmd)
			n = (int)(min_ll(min_ll(next_port, next_queue),
					 min_ll(dirty_at >= 0 ? dirty_at :
								next_port,
						next_drift)) -
				  now);
		else
			n = (int)(min_ll(next_try, next_drift) - now);
		pfd[0].fd = rd_sredis_sub_fd(&d->r);
		pfd[0].events = POLLIN;
		pfd[1].fd = d->nl_open ? rd_nl_fd(&d->nl) : -1;
		pfd[1].events = POLLIN;
		pfd[0].revents = pfd[1].revents = 0;
		if (poll(pfd, 2, n < 0 ? 0 : n) <= 0)
			continue;
		if (pfd[1].revents && links_changed(d) && d->skipped &&
		    d->r.cmd) {
			/* a skipped port may have its device now */
			dirty_at = now_ms() + d->quiet_ms;
			if (first_dirty < 0)
				first_dirty = now_ms();
		}
		if (!pfd[0].revents || !d->r.sub)
			continue;
		n = rd_sredis_sub_drain(&d->r);
		if (n < 0) {
			logf_("redis: connection lost (%s); maps kept, reconnecting",
			      d->r.err);
			rd_sredis_close(&d->r);
			next_try = now_ms();
		} else if (n > 0) {
			dirty_at = now_ms() + d->quiet_ms;
			if (first_dirty < 0)
				first_dirty = now_ms();
		}
	}
}

int rd_sonic_sync_run(const struct rd_sonic_sync_opts *o)
{
	static const unsigned int link_grp[] = { RTNLGRP_LINK };
	struct sigaction sa = { .sa_handler = on_signal };
	struct syncd d = { .url = o->url,
			   .auth_file = o->auth_file,
			   .opts = o->conv,
			   .port_ms = o->port_ms,
			   .queue_ms = o->queue_ms,
			   .quiet_ms = o->quiet_ms,
			   .once = o->once };
	char err[300];

	if (o->auth_file &&
	    rd_sredis_auth_load(o->auth_file, &d.auth, err, sizeof(err))) {
		explicit_bzero(&d.auth, sizeof(d.auth));
		rd_err(OBJ, "sync: --auth-file %s", err);
		return 2;
	}
	if (o->tls && rd_stls_new(&o->tls_opts, &d.tls, err, sizeof(err))) {
		explicit_bzero(&d.auth, sizeof(d.auth));
		rd_err(OBJ, "sync: %s", err);
		return 2;
	}
	/* no SA_RESTART: a blocked read returns and the loops see stop */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stderr, NULL, _IOLBF, 0);
	rd_sredis_init(&d.r, &stop, d.auth_file ? &d.auth : NULL);
	d.ids = o->ids;
	d.r.ids = &d.ids;
	d.r.tls = d.tls;
	rd_scounters_init(&d.ctr, d.opts.ports, o->qp_top);
	d.nl_open = !rd_nl_open(&d.nl, link_grp, 1, 0, "sonic sync");
	if (!d.nl_open)
		logf_("no link events: a port whose device appears later waits for the next CONFIG_DB change");
	logf_("following CONFIG_DB at %s%s%s", d.url, d.tls ? " over TLS" : "",
	      d.auth_file ? " (AUTH from the auth file)" : "");
	logf_("databases: CONFIG_DB %d, COUNTERS_DB %d, STATE_DB %d (%s%s%s)",
	      d.ids.config, d.ids.counters, d.ids.state,
	      o->db_config ? o->db_config : "SONiC's defaults",
	      o->ns ? ", namespace " : "", o->ns ? o->ns : "");
	/* Type=notify: set up and following (Redis may come later) */
	rd_sd_notify("READY=1");
	run(&d);
	rd_sd_notify("STOPPING=1");
	/* the last words to Redis are waited for (2 s timeout each) */
	d.r.stop = NULL;
	/* a signal that cut a reply wait left the command connection closed
	 * or out of step: a stale reply would be taken for CONFIG GET's and
	 * the events never restored. The last words go on a fresh one, as
	 * they do when the stop came between a lost connection and the
	 * next. */
	if ((d.r.cut || (!d.r.cmd && d.r.events_set[0])) &&
	    rd_sredis_reopen_cmd(&d.r, d.url))
		logf_("redis: %s: %s; notify-keyspace-events not restored",
		      d.url, d.r.err);
	if (d.r.cmd && !d.once)
		state_write(&d, "stopped", NULL);
	rd_sredis_restore_events(&d.r);
	rd_sredis_close(&d.r);
	rd_scounters_close(&d.ctr);
	rd_stls_free(d.tls);
	if (d.nl_open)
		rd_nl_close(&d.nl);
	explicit_bzero(&d.auth, sizeof(d.auth));
	free(d.applied);
	free(d.running);
	logf_("stopped: %lu applied, %lu refused, %lu reconnects", d.applies,
	      d.refusals, d.reconnects);
	return d.once && (d.refusals || !d.applies) ? 1 : 0;
}
