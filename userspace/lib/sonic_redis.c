// SPDX-License-Identifier: GPL-2.0
/*
 * Redis for `rocedp sonic sync` (hiredis, synchronous API): two
 * connections, one for commands and one subscribed to CONFIG_DB's keyspace
 * events; CONFIG_DB read back into the shape of config_db.json.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <hiredis/hiredis.h>

#include "sonic_redis.h"

#define RD_SREDIS_TIMEOUT_MS 2000
#define RD_SREDIS_SCAN_COUNT "512"

static unsigned int pending; /* pipelined commands not yet answered */

int rd_sredis_parse_url(const char *url, char *host, size_t hlen, int *port)
{
	const char *colon;
	char *end;
	long p;

	if (!strncmp(url, "unix:", 5)) {
		if (!url[5] || strlen(url + 5) >= hlen)
			return -EINVAL;
		snprintf(host, hlen, "%s", url + 5);
		*port = -1;
		return 0;
	}
	if (url[0] == '[') {
		colon = strstr(url, "]:");
		if (!colon || colon == url + 1 || (size_t)(colon - url) > hlen)
			return -EINVAL;
		snprintf(host, hlen, "%.*s", (int)(colon - url - 1), url + 1);
		colon++;
	} else {
		colon = strrchr(url, ':');
		if (!colon || colon == url || (size_t)(colon - url) >= hlen)
			return -EINVAL;
		snprintf(host, hlen, "%.*s", (int)(colon - url), url);
	}
	errno = 0;
	p = strtol(colon + 1, &end, 10);
	if (errno || *end || end == colon + 1 || p < 1 || p > 65535)
		return -EINVAL;
	*port = (int)p;
	return 0;
}

static redisContext *open_one(const char *host, int port, char *err,
			      size_t elen)
{
	struct timeval tv = { RD_SREDIS_TIMEOUT_MS / 1000,
			      (RD_SREDIS_TIMEOUT_MS % 1000) * 1000 };
	redisContext *c;

	c = port < 0 ? redisConnectUnixWithTimeout(host, tv) :
		       redisConnectWithTimeout(host, port, tv);
	if (!c) {
		snprintf(err, elen, "out of memory");
		return NULL;
	}
	if (c->err) {
		snprintf(err, elen, "%s", c->errstr);
		redisFree(c);
		return NULL;
	}
	/* a hung server must not hang the daemon: replies time out too */
	redisSetTimeout(c, tv);
	return c;
}

/* One command, its reply checked; NULL (reason in err) on any failure. */
static redisReply *cmd(redisContext *c, char *err, size_t elen, const char *fmt,
		       ...)
{
	redisReply *rep;
	va_list ap;

	va_start(ap, fmt);
	rep = redisvCommand(c, fmt, ap);
	va_end(ap);
	if (!rep) {
		snprintf(err, elen, "%s", c->err ? c->errstr : "no reply");
		return NULL;
	}
	if (rep->type == REDIS_REPLY_ERROR) {
		snprintf(err, elen, "%s", rep->str);
		freeReplyObject(rep);
		return NULL;
	}
	return rep;
}

/* Keyspace events (K) for hash and generic commands (h, g), added to what
 * the server already has: SONiC's redis.conf sets "AKE" itself. */
static int events_on(redisContext *c, char *err, size_t elen)
{
	char want[64] = "";
	const char *cur = "";
	redisReply *rep, *r2;
	bool all;

	rep = cmd(c, err, elen, "CONFIG GET notify-keyspace-events");
	if (!rep)
		return -EIO;
	if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 2 &&
	    rep->element[1]->type == REDIS_REPLY_STRING)
		cur = rep->element[1]->str;
	all = strchr(cur, 'A');
	if (strchr(cur, 'K') &&
	    (all || (strchr(cur, 'h') && strchr(cur, 'g')))) {
		freeReplyObject(rep);
		return 0;
	}
	snprintf(want, sizeof(want), "%s%s%s%s", cur,
		 strchr(cur, 'K') ? "" : "K",
		 all || strchr(cur, 'h') ? "" : "h",
		 all || strchr(cur, 'g') ? "" : "g");
	freeReplyObject(rep);
	r2 = cmd(c, err, elen, "CONFIG SET notify-keyspace-events %s", want);
	if (!r2)
		return -EIO;
	freeReplyObject(r2);
	return 0;
}

int rd_sredis_connect(struct rd_sredis *r, const char *url, char *err,
		      size_t elen)
{
	char host[256];
	redisReply *rep;
	int port, e;

	memset(r, 0, sizeof(*r));
	r->db = -1;
	pending = 0;
	if (rd_sredis_parse_url(url, host, sizeof(host), &port)) {
		snprintf(err, elen, "'%s' is neither unix:PATH nor HOST:PORT",
			 url);
		return -EINVAL;
	}
	r->cmd = open_one(host, port, err, elen);
	if (!r->cmd)
		return -ECONNREFUSED;
	r->sub = open_one(host, port, err, elen);
	if (!r->sub)
		goto fail;
	e = events_on(r->cmd, err, elen);
	if (e)
		goto fail;
	rep = cmd(r->sub, err, elen, "PSUBSCRIBE __keyspace@%d__:*",
		  RD_SONIC_CONFIG_DB);
	if (!rep)
		goto fail;
	freeReplyObject(rep);
	return 0;
fail:
	rd_sredis_close(r);
	return -EIO;
}

void rd_sredis_close(struct rd_sredis *r)
{
	if (r->cmd)
		redisFree(r->cmd);
	if (r->sub)
		redisFree(r->sub);
	r->cmd = r->sub = NULL;
	r->db = -1;
	pending = 0;
}

int rd_sredis_sub_fd(const struct rd_sredis *r)
{
	return r->sub ? r->sub->fd : -1;
}

int rd_sredis_sub_drain(struct rd_sredis *r)
{
	redisReply *rep;
	int changed = 0;

	if (!r->sub)
		return -ENOTCONN;
	if (redisBufferRead(r->sub) != REDIS_OK)
		return -ECONNRESET;
	for (;;) {
		rep = NULL;
		if (redisGetReplyFromReader(r->sub, (void **)&rep) != REDIS_OK)
			return -EPROTO;
		if (!rep)
			break;
		/* ["pmessage", pattern, "__keyspace@4__:KEY", event] */
		if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 4 &&
		    rep->element[0]->type == REDIS_REPLY_STRING &&
		    !strcmp(rep->element[0]->str, "pmessage"))
			changed = 1;
		freeReplyObject(rep);
	}
	return changed;
}

static int select_db(struct rd_sredis *r, int db)
{
	char err[128];
	redisReply *rep;

	if (r->db == db)
		return 0;
	rep = cmd(r->cmd, err, sizeof(err), "SELECT %d", db);
	if (!rep)
		return -EIO;
	freeReplyObject(rep);
	r->db = db;
	return 0;
}

/* ConfigDBConnector's raw -> typed: "f@" holds a comma-joined list. */
static void add_field(struct json_object *h, const char *f, const char *v)
{
	size_t flen = strlen(f);
	struct json_object *arr;
	char *dup, *t, *save = NULL;

	if (!strcmp(f, "NULL")) /* placeholder of an empty entry */
		return;
	if (flen < 2 || f[flen - 1] != '@') {
		json_object_object_add(h, f, json_object_new_string(v));
		return;
	}
	arr = json_object_new_array();
	dup = strdup(v);
	if (dup)
		for (t = strtok_r(dup, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			json_object_array_add(arr, json_object_new_string(t));
	free(dup);
	dup = strndup(f, flen - 1);
	if (dup)
		json_object_object_add(h, dup, arr);
	else
		json_object_put(arr);
	free(dup);
}

int rd_sredis_add_hash(struct json_object *root, const char *key,
		       const char *const *fv, size_t n)
{
	struct json_object *tbl, *h;
	const char *bar = strchr(key, '|');
	char table[128];
	size_t i;

	/* not a TABLE|key hash (CONFIG_DB_INITIALIZED and the like) */
	if (!bar || bar == key || (size_t)(bar - key) >= sizeof(table))
		return -EINVAL;
	snprintf(table, sizeof(table), "%.*s", (int)(bar - key), key);
	if (!json_object_object_get_ex(root, table, &tbl)) {
		tbl = json_object_new_object();
		json_object_object_add(root, table, tbl);
	}
	h = json_object_new_object();
	for (i = 0; i < n; i++)
		add_field(h, fv[2 * i], fv[2 * i + 1]);
	json_object_object_add(tbl, bar + 1, h);
	return 0;
}

/* One key's HGETALL reply into root[TABLE][rest]. */
static void add_key(struct json_object *root, const char *key,
		    const redisReply *rep)
{
	const char **fv;
	size_t i, n = 0;

	if (rep->type != REDIS_REPLY_ARRAY)
		return; /* WRONGTYPE: not a CONFIG_DB table entry */
	fv = calloc(rep->elements + 1, sizeof(*fv));
	if (!fv)
		return;
	for (i = 0; i + 1 < rep->elements; i += 2) {
		if (rep->element[i]->type != REDIS_REPLY_STRING ||
		    rep->element[i + 1]->type != REDIS_REPLY_STRING)
			continue;
		fv[2 * n] = rep->element[i]->str;
		fv[2 * n + 1] = rep->element[i + 1]->str;
		n++;
	}
	rd_sredis_add_hash(root, key, fv, n);
	free(fv);
}

int rd_sredis_read_configdb(struct rd_sredis *r, struct json_object **out,
			    unsigned int *n_keys)
{
	char cursor[32] = "0", err[128];
	struct json_object *root;
	redisReply *scan, *rep;
	size_t i;
	int e = 0;

	*out = NULL;
	*n_keys = 0;
	if (!r->cmd)
		return -ENOTCONN;
	if (select_db(r, RD_SONIC_CONFIG_DB))
		return -EIO;
	root = json_object_new_object();
	/* SCAN, not KEYS: a big CONFIG_DB must not stall the server */
	do {
		scan = cmd(r->cmd, err, sizeof(err), "SCAN %s COUNT %s", cursor,
			   RD_SREDIS_SCAN_COUNT);
		if (!scan || scan->type != REDIS_REPLY_ARRAY ||
		    scan->elements != 2 ||
		    scan->element[0]->type != REDIS_REPLY_STRING ||
		    scan->element[1]->type != REDIS_REPLY_ARRAY) {
			e = -EIO;
			break;
		}
		snprintf(cursor, sizeof(cursor), "%s", scan->element[0]->str);
		for (i = 0; i < scan->element[1]->elements; i++)
			redisAppendCommand(r->cmd, "HGETALL %s",
					   scan->element[1]->element[i]->str);
		for (i = 0; i < scan->element[1]->elements; i++) {
			rep = NULL;
			if (redisGetReply(r->cmd, (void **)&rep) != REDIS_OK) {
				e = -EIO;
				break;
			}
			/* WRONGTYPE for non-hash keys: not CONFIG_DB tables */
			add_key(root, scan->element[1]->element[i]->str, rep);
			(*n_keys)++;
			freeReplyObject(rep);
		}
		freeReplyObject(scan);
		scan = NULL;
	} while (!e && strcmp(cursor, "0"));
	if (scan)
		freeReplyObject(scan);
	if (e) {
		json_object_put(root);
		rd_sredis_close(r);
		return e;
	}
	*out = root;
	return 0;
}

int rd_sredis_hset(struct rd_sredis *r, int db, const char *key,
		   const char *const *fv, unsigned int n)
{
	const char *argv[2 + 2 * 32];
	unsigned int i;

	if (!r->cmd)
		return -ENOTCONN;
	if (!n || n > 32)
		return -EINVAL;
	if (r->db != db) {
		if (redisAppendCommand(r->cmd, "SELECT %d", db) != REDIS_OK)
			return -EIO;
		pending++;
		r->db = db;
	}
	argv[0] = "HSET";
	argv[1] = key;
	for (i = 0; i < 2 * n; i++)
		argv[2 + i] = fv[i];
	if (redisAppendCommandArgv(r->cmd, 2 + 2 * n, argv, NULL) != REDIS_OK)
		return -EIO;
	pending++;
	return 0;
}

int rd_sredis_flush(struct rd_sredis *r)
{
	redisReply *rep;
	int e = 0;

	if (!r->cmd)
		return -ENOTCONN;
	while (pending) {
		rep = NULL;
		if (redisGetReply(r->cmd, (void **)&rep) != REDIS_OK) {
			rd_sredis_close(r);
			return -EIO;
		}
		pending--;
		if (rep->type == REDIS_REPLY_ERROR)
			e = -EINVAL;
		freeReplyObject(rep);
	}
	return e;
}

int rd_sredis_hgetall(struct rd_sredis *r, int db, const char *key,
		      size_t max_fields, struct json_object **out)
{
	char err[128];
	redisReply *rep;
	size_t i;
	int e;

	*out = NULL;
	if (!r->cmd)
		return -ENOTCONN;
	e = rd_sredis_flush(r); /* no pipelined reply may come first */
	if (e == -EIO || select_db(r, db))
		return -EIO;
	rep = cmd(r->cmd, err, sizeof(err), "HGETALL %s", key);
	if (!rep)
		return -EIO;
	if (rep->type != REDIS_REPLY_ARRAY || rep->elements % 2 ||
	    rep->elements / 2 > max_fields) {
		freeReplyObject(rep);
		return -EPROTO;
	}
	for (i = 0; i < rep->elements; i++)
		if (rep->element[i]->type != REDIS_REPLY_STRING) {
			freeReplyObject(rep);
			return -EPROTO;
		}
	*out = json_object_new_object();
	for (i = 0; *out && i < rep->elements; i += 2)
		json_object_object_add(
			*out, rep->element[i]->str,
			json_object_new_string(rep->element[i + 1]->str));
	freeReplyObject(rep);
	return *out ? 0 : -ENOMEM;
}
