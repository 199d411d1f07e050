// SPDX-License-Identifier: GPL-2.0
/*
 * Redis for `rocedp sonic sync` (hiredis, synchronous API): two
 * connections, one for commands and one subscribed to CONFIG_DB's keyspace
 * events; CONFIG_DB read back into the shape of config_db.json. Every
 * reply goes through sonic_resp.c's bounds and its type is checked before
 * use: the server may be faulty, hostile, or still loading.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <hiredis/hiredis.h>

#include "sonic_redis.h"
#include "sonic_tls.h"

#define RD_SREDIS_TIMEOUT_MS 2000
#define RD_SREDIS_SCAN_COUNT "512"
#define INIT_KEY "CONFIG_DB_INITIALIZED"

void rd_sredis_init(struct rd_sredis *r, const volatile sig_atomic_t *stop,
		    const struct rd_sredis_auth *auth)
{
	memset(r, 0, sizeof(*r));
	r->db = -1;
	r->stop = stop;
	r->auth = auth;
}

int rd_sredis_parse_url(const char *url, char *host, size_t hlen, int *port)
{
	const char *colon;
	char *end;
	long p;

	/* user:password@host would show in ps and the log */
	if (strchr(url, '@'))
		return -EPERM;
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

int rd_sredis_auth_load(const char *path, struct rd_sredis_auth *a, char *err,
			size_t elen)
{
	char buf[sizeof(a->user) + sizeof(a->pass) + 4], *nl, *pass = buf;
	struct stat st;
	ssize_t n;
	int fd, e = 0;

	memset(a, 0, sizeof(*a));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		e = -errno;
		snprintf(err, elen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (st.st_mode & S_IROTH) {
		snprintf(err, elen, "%s: readable by everyone: chmod o-r it",
			 path);
		e = -EPERM;
		goto out;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		e = -errno;
		snprintf(err, elen, "%s: %s", path, strerror(errno));
		goto out;
	}
	buf[n] = 0;
	if ((size_t)n == sizeof(buf) - 1 || strlen(buf) != (size_t)n) {
		snprintf(err, elen, "%s: not one or two short text lines",
			 path);
		e = -EINVAL;
		goto out;
	}
	/* two lines: USER then PASSWORD; one: PASSWORD (spaces are its own) */
	nl = strchr(buf, '\n');
	if (nl && nl[1] && strcspn(nl + 1, "\n") > 0) {
		*nl = 0;
		if (strlen(buf) >= sizeof(a->user)) {
			snprintf(err, elen, "%s: the user name is too long",
				 path);
			e = -EINVAL;
			goto out;
		}
		snprintf(a->user, sizeof(a->user), "%s", buf);
		pass = nl + 1;
	}
	pass[strcspn(pass, "\r\n")] = 0;
	if (!pass[0] || strlen(pass) >= sizeof(a->pass)) {
		snprintf(err, elen, "%s: no password, or one over %zu bytes",
			 path, sizeof(a->pass) - 1);
		e = -EINVAL;
		goto out;
	}
	memcpy(a->pass, pass, strlen(pass) + 1);
out:
	explicit_bzero(buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	if (e)
		explicit_bzero(a, sizeof(*a));
	return e;
}

static redisContext *open_one(struct rd_sredis *r, const char *host, int port,
			      struct rd_resp_budget *b, struct rd_stls_conn **t)
{
	struct timeval tv = { RD_SREDIS_TIMEOUT_MS / 1000,
			      (RD_SREDIS_TIMEOUT_MS % 1000) * 1000 };
	redisContext *c;
	int fd;

	if (r->tls) {
		/* hiredis on the plain end of the TLS pump (sonic_tls.c) */
		if (rd_stls_connect(r->tls, host, port, RD_SREDIS_TIMEOUT_MS,
				    &fd, t, r->err, sizeof(r->err)))
			return NULL;
		c = redisConnectFd(fd);
		if (!c) {
			close(fd);
			rd_stls_close(*t);
			*t = NULL;
		}
	} else {
		c = port < 0 ? redisConnectUnixWithTimeout(host, tv) :
			       redisConnectWithTimeout(host, port, tv);
	}
	if (!c) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return NULL;
	}
	if (c->err) {
		snprintf(r->err, sizeof(r->err), "%s", c->errstr);
		redisFree(c);
		return NULL;
	}
	if (rd_resp_bound(c, b)) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		redisFree(c);
		return NULL;
	}
	/* a hung server must not hang the daemon: replies time out too */
	redisSetTimeout(c, tv);
	return c;
}

/* The server's error reply as -errno, its text in r->err. */
static int server_err(struct rd_sredis *r, const redisReply *rep)
{
	static const struct {
		const char *pfx;
		int e;
	} map[] = { { "NOPERM", -EACCES },    { "NOAUTH", -EACCES },
		    { "WRONGPASS", -EACCES }, { "LOADING", -EBUSY },
		    { "BUSY", -EBUSY },	      { "MASTERDOWN", -EBUSY } };
	size_t i;

	snprintf(r->err, sizeof(r->err), "server says: %.*s",
		 (int)(rep->len < 200 ? rep->len : 200), rep->str);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(rep->str, map[i].pfx, strlen(map[i].pfx)))
			return map[i].e;
	return -EIO;
}

/* The next reply on c, bounded; an error reply is -errno (text in r->err)
 * unless keep_err. */
static int reply(struct rd_sredis *r, redisContext *c, redisReply **out,
		 bool keep_err)
{
	void *rep = NULL;
	int e;

	*out = NULL;
	e = rd_resp_get(c, r->stop, &rep, r->err, sizeof(r->err));
	if (e == -EINTR) /* its reply unread: c is out of step now */
		r->cut = true;
	if (e)
		return e;
	*out = rep;
	if (!keep_err && (*out)->type == REDIS_REPLY_ERROR) {
		e = server_err(r, *out);
		freeReplyObject(*out);
		*out = NULL;
	}
	return e;
}

/* One command and its reply (argv form: no format surprises). */
static int cmdv(struct rd_sredis *r, redisContext *c, redisReply **out,
		int argc, const char **argv)
{
	if (redisAppendCommandArgv(c, argc, argv, NULL) != REDIS_OK) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -ENOMEM;
	}
	return reply(r, c, out, false);
}

#define CMD(r, c, out, ...)                                                  \
	cmdv(r, c, out,                                                      \
	     sizeof((const char *[]){ __VA_ARGS__ }) / sizeof(const char *), \
	     (const char *[]){ __VA_ARGS__ })

static int auth(struct rd_sredis *r, redisContext *c)
{
	redisReply *rep;
	char why[sizeof(r->err)];
	int e;

	if (!r->auth)
		return 0;
	e = r->auth->user[0] ?
		    CMD(r, c, &rep, "AUTH", r->auth->user, r->auth->pass) :
		    CMD(r, c, &rep, "AUTH", r->auth->pass);
	if (e) {
		snprintf(why, sizeof(why), "%s", r->err);
		snprintf(r->err, sizeof(r->err), "AUTH%s%.64s refused: %.160s",
			 r->auth->user[0] ? " as " : "", r->auth->user, why);
		return e;
	}
	freeReplyObject(rep);
	return 0;
}

/* Keyspace events (K) for hash, generic and string commands (h, g, $:
 * CONFIG_DB_INITIALIZED is a string), added to what the server already
 * has: SONiC's redis.conf sets "AKE" itself. A server without CONFIG
 * (renamed away, or an ACL without it) is taken to have them on, as
 * SONiC's does; the log says so. */
static int events_on(struct rd_sredis *r)
{
	const volatile sig_atomic_t *stop;
	char want[64], cur[64] = "";
	redisReply *rep;
	bool all;
	int e;

	e = CMD(r, r->cmd, &rep, "CONFIG", "GET", "notify-keyspace-events");
	/* a lost connection is not a refused CONFIG, nor is a server that
	 * wants a password first (NOAUTH: it refuses everything) */
	if ((e == -EIO && r->cmd->err) ||
	    (e == -EACCES && strstr(r->err, "says: NOAUTH")))
		return e;
	if (e == -EIO || e == -EACCES) {
		r->no_config = true;
		return 0;
	}
	if (e)
		return e;
	r->no_config = false;
	if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 2 &&
	    rep->element[1]->type == REDIS_REPLY_STRING &&
	    rep->element[1]->len < sizeof(cur) - 4)
		snprintf(cur, sizeof(cur), "%s", rep->element[1]->str);
	freeReplyObject(rep);
	all = strchr(cur, 'A');
	if (strchr(cur, 'K') &&
	    (all || (strchr(cur, 'h') && strchr(cur, 'g') && strchr(cur, '$'))))
		return 0;
	snprintf(want, sizeof(want), "%s%s%s%s%s", cur,
		 strchr(cur, 'K') ? "" : "K",
		 all || strchr(cur, 'h') ? "" : "h",
		 all || strchr(cur, 'g') ? "" : "g",
		 all || strchr(cur, '$') ? "" : "$");
	/* the SET and its read-back are one step, not cut by a stop: a SET
	 * done but not recorded would never be restored (2 s timeouts) */
	stop = r->stop;
	r->stop = NULL;
	e = CMD(r, r->cmd, &rep, "CONFIG", "SET", "notify-keyspace-events",
		want);
	if (!e) {
		freeReplyObject(rep);
		/* Redis normalises the string: keep what it says for restore */
		e = CMD(r, r->cmd, &rep, "CONFIG", "GET",
			"notify-keyspace-events");
	}
	r->stop = stop;
	if (e)
		return e;
	if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 2 &&
	    rep->element[1]->type == REDIS_REPLY_STRING &&
	    rep->element[1]->len < sizeof(want)) {
		snprintf(r->events_old, sizeof(r->events_old), "%s", cur);
		snprintf(r->events_set, sizeof(r->events_set), "%s",
			 rep->element[1]->str);
	}
	freeReplyObject(rep);
	return 0;
}

void rd_sredis_restore_events(struct rd_sredis *r)
{
	redisReply *rep;
	bool same;

	if (!r->cmd || !r->events_set[0])
		return;
	if (CMD(r, r->cmd, &rep, "CONFIG", "GET", "notify-keyspace-events"))
		return;
	same = rep->type == REDIS_REPLY_ARRAY && rep->elements == 2 &&
	       rep->element[1]->type == REDIS_REPLY_STRING &&
	       !strcmp(rep->element[1]->str, r->events_set);
	freeReplyObject(rep);
	/* someone else changed it since: theirs now, left alone */
	if (same && !CMD(r, r->cmd, &rep, "CONFIG", "SET",
			 "notify-keyspace-events", r->events_old))
		freeReplyObject(rep);
	r->events_set[0] = 0;
}

/* A TLS session the server ended (an alert after the handshake: TLS 1.3
 * refuses a client certificate only then) says why, not hiredis' "Server
 * closed the connection". */
static void tls_why(struct rd_sredis *r)
{
	char why[200];

	rd_stls_reason(r->tcmd, why, sizeof(why));
	if (!why[0])
		rd_stls_reason(r->tsub, why, sizeof(why));
	if (why[0])
		snprintf(r->err, sizeof(r->err), "TLS: %s", why);
}

static int connect_(struct rd_sredis *r, const char *url, bool cmd_only)
{
	char host[256], pat[32];
	redisReply *rep;
	int port, e;

	rd_sredis_close(r);
	r->err[0] = 0;
	e = rd_sredis_parse_url(url, host, sizeof(host), &port);
	if (e) {
		snprintf(r->err, sizeof(r->err),
			 "the address is neither unix:PATH nor HOST:PORT");
		return e;
	}
	if (r->tls && port < 0) {
		snprintf(
			r->err, sizeof(r->err),
			"TLS needs HOST:PORT: Redis has no TLS on unix sockets");
		return -EINVAL;
	}
	r->cmd = open_one(r, host, port, &r->bcmd, &r->tcmd);
	if (!r->cmd) {
		rd_sredis_close(r);
		return -ECONNREFUSED;
	}
	/* the first connection proven (AUTH, a round trip) before a second
	 * is opened: a server that refuses it (a password, a client
	 * certificate) sees one connection a try */
	e = auth(r, r->cmd);
	if (!e && !cmd_only)
		e = events_on(r);
	if (e)
		goto fail;
	if (cmd_only)
		return 0;
	r->sub = open_one(r, host, port, &r->bsub, &r->tsub);
	if (!r->sub) {
		e = -ECONNREFUSED;
		goto fail;
	}
	e = auth(r, r->sub);
	if (e)
		goto fail;
	snprintf(pat, sizeof(pat), "__keyspace@%d__:*", RD_SDB_CONFIG(r));
	e = CMD(r, r->sub, &rep, "PSUBSCRIBE", pat);
	if (e)
		goto fail;
	/* ["psubscribe", pattern, count] */
	if (rep->type != REDIS_REPLY_ARRAY || rep->elements != 3 ||
	    rep->element[0]->type != REDIS_REPLY_STRING ||
	    strcmp(rep->element[0]->str, "psubscribe")) {
		snprintf(r->err, sizeof(r->err),
			 "PSUBSCRIBE: not a subscription reply");
		e = -EPROTO;
	}
	freeReplyObject(rep);
	if (e)
		goto fail;
	return 0;
fail:
	tls_why(r);
	rd_sredis_close(r);
	return e;
}

int rd_sredis_connect(struct rd_sredis *r, const char *url)
{
	return connect_(r, url, false);
}

int rd_sredis_reopen_cmd(struct rd_sredis *r, const char *url)
{
	r->cut = false;
	return connect_(r, url, true);
}

void rd_sredis_close(struct rd_sredis *r)
{
	if (r->cmd)
		redisFree(r->cmd);
	if (r->sub)
		redisFree(r->sub);
	/* after redisFree closed the plain ends: the pumps end */
	rd_stls_close(r->tcmd);
	rd_stls_close(r->tsub);
	r->tcmd = r->tsub = NULL;
	r->cmd = r->sub = NULL;
	r->db = -1;
	r->pending = 0;
}

int rd_sredis_sub_fd(const struct rd_sredis *r)
{
	return r->sub ? r->sub->fd : -1;
}

int rd_sredis_sub_drain(struct rd_sredis *r)
{
	redisReply *rep;
	int changed = 0, e;

	if (!r->sub)
		return -ENOTCONN;
	if (redisBufferRead(r->sub) != REDIS_OK) {
		snprintf(r->err, sizeof(r->err), "%s", r->sub->errstr);
		return -ECONNRESET;
	}
	for (;;) {
		e = rd_resp_next(r->sub, (void **)&rep, r->err, sizeof(r->err));
		if (e)
			return e;
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
	char n[16];
	redisReply *rep;
	int e;

	if (r->db == db)
		return 0;
	snprintf(n, sizeof(n), "%d", db);
	e = CMD(r, r->cmd, &rep, "SELECT", n);
	if (e)
		return e;
	freeReplyObject(rep);
	r->db = db;
	return 0;
}

int rd_sredis_configdb_ready(struct rd_sredis *r)
{
	redisReply *rep;
	int e;

	if (!r->cmd)
		return -ENOTCONN;
	e = select_db(r, RD_SDB_CONFIG(r));
	if (!e)
		e = CMD(r, r->cmd, &rep, "GET", INIT_KEY);
	if (e)
		return e;
	if (rep->type == REDIS_REPLY_STRING && !strcmp(rep->str, "1")) {
		freeReplyObject(rep);
		return 1;
	}
	if (rep->type == REDIS_REPLY_NIL)
		snprintf(r->err, sizeof(r->err), INIT_KEY " is not set");
	else if (rep->type == REDIS_REPLY_STRING)
		snprintf(r->err, sizeof(r->err), INIT_KEY " is \"%.32s\"",
			 rep->str);
	else
		e = -EPROTO;
	if (e)
		snprintf(r->err, sizeof(r->err),
			 "GET " INIT_KEY ": not a string reply");
	freeReplyObject(rep);
	return e;
}

/* o[k] = v, v dropped if the add fails (json-c leaves it to us). */
static int add_obj(struct json_object *o, const char *k, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, k, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

/* ConfigDBConnector's raw -> typed: "f@" holds a comma-joined list. */
static int add_field(struct json_object *h, const char *f, const char *v)
{
	size_t flen = strlen(f);
	struct json_object *arr, *s;
	char *dup, *t, *save = NULL;
	int e = 0;

	if (!strcmp(f, "NULL")) /* placeholder of an empty entry */
		return 0;
	if (flen < 2 || f[flen - 1] != '@')
		return add_obj(h, f, json_object_new_string(v));
	arr = json_object_new_array();
	dup = strdup(v);
	if (!arr || !dup) {
		json_object_put(arr);
		free(dup);
		return -ENOMEM;
	}
	for (t = strtok_r(dup, ",", &save); t && !e;
	     t = strtok_r(NULL, ",", &save)) {
		s = json_object_new_string(t);
		if (!s || json_object_array_add(arr, s)) {
			json_object_put(s);
			e = -ENOMEM;
		}
	}
	free(dup);
	dup = e ? NULL : strndup(f, flen - 1);
	if (!dup) {
		json_object_put(arr);
		return -ENOMEM;
	}
	e = add_obj(h, dup, arr);
	free(dup);
	return e;
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
		if (add_obj(root, table, tbl))
			return -ENOMEM;
	}
	h = json_object_new_object();
	if (!h)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (add_field(h, fv[2 * i], fv[2 * i + 1])) {
			json_object_put(h);
			return -ENOMEM;
		}
	return add_obj(tbl, bar + 1, h);
}

/* One key's HGETALL reply into root[TABLE][rest]: 1 added, 0 not a
 * table entry (WRONGTYPE, no "TABLE|"), -errno. */
static int add_key(struct rd_sredis *r, struct json_object *root,
		   const char *key, const redisReply *rep)
{
	const char **fv;
	size_t i;
	int e;

	/* WRONGTYPE: a string such as INIT_KEY, no table entry. Any other
	 * error (NOPERM on one key) fails the read: a config missing keys
	 * must not be applied. */
	if (rep->type == REDIS_REPLY_ERROR &&
	    !strncmp(rep->str, "WRONGTYPE", 9))
		return 0;
	if (rep->type == REDIS_REPLY_ERROR) {
		e = server_err(r, rep);
		snprintf(r->err + strlen(r->err),
			 sizeof(r->err) - strlen(r->err), " (HGETALL %.48s)",
			 key);
		return e;
	}
	if (rep->type != REDIS_REPLY_ARRAY || rep->elements % 2) {
		snprintf(r->err, sizeof(r->err),
			 "HGETALL %.64s: not a field/value list", key);
		return -EPROTO;
	}
	fv = calloc(rep->elements + 1, sizeof(*fv));
	if (!fv) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < rep->elements; i++) {
		if (rep->element[i]->type != REDIS_REPLY_STRING) {
			free(fv);
			snprintf(r->err, sizeof(r->err),
				 "HGETALL %.64s: element %zu is not a string",
				 key, i);
			return -EPROTO;
		}
		fv[i] = rep->element[i]->str;
	}
	e = rd_sredis_add_hash(root, key, fv, rep->elements / 2);
	free(fv);
	if (e == -ENOMEM)
		snprintf(r->err, sizeof(r->err), "out of memory");
	return e == -EINVAL ? 0 : e ? e : 1;
}

static const char *type_name(int t)
{
	return t == REDIS_REPLY_NIL	? "a nil" :
	       t == REDIS_REPLY_INTEGER ? "an integer" :
	       t == REDIS_REPLY_ARRAY	? "an array" :
	       t == REDIS_REPLY_ERROR	? "an error" :
					  "a status";
}

/* A SCAN reply: [cursor, [key, ...]], the cursor digits, keys strings. */
static int scan_ok(struct rd_sredis *r, const redisReply *s)
{
	const redisReply *c, *k;
	size_t i;

	if (s->type != REDIS_REPLY_ARRAY || s->elements != 2) {
		snprintf(r->err, sizeof(r->err),
			 "SCAN: not a [cursor, keys] reply");
		return -EPROTO;
	}
	c = s->element[0];
	k = s->element[1];
	if (c->type != REDIS_REPLY_STRING || !c->len || c->len > 20 ||
	    strspn(c->str, "0123456789") != c->len) {
		snprintf(r->err, sizeof(r->err),
			 "SCAN: the cursor is no number");
		return -EPROTO;
	}
	if (k->type != REDIS_REPLY_ARRAY) {
		snprintf(r->err, sizeof(r->err), "SCAN: the keys are no list");
		return -EPROTO;
	}
	for (i = 0; i < k->elements; i++)
		if (k->element[i]->type != REDIS_REPLY_STRING) {
			snprintf(r->err, sizeof(r->err),
				 "SCAN: key %zu is not a string but %s", i,
				 type_name(k->element[i]->type));
			return -EPROTO;
		}
	return 0;
}

/* One SCAN page's keys, their HGETALLs pipelined, into root. */
static int read_page(struct rd_sredis *r, struct json_object *root,
		     const redisReply *keys, unsigned int *n_keys)
{
	const char *argv[2] = { "HGETALL" };
	size_t i, lens[2] = { 7 };
	redisReply *rep;
	int e = 0, added;

	for (i = 0; i < keys->elements; i++) {
		argv[1] = keys->element[i]->str;
		lens[1] = keys->element[i]->len;
		if (redisAppendCommandArgv(r->cmd, 2, argv, lens) != REDIS_OK) {
			snprintf(r->err, sizeof(r->err), "out of memory");
			return -ENOMEM;
		}
	}
	/* every reply is read, even after a bad one: the pipeline stays
	 * in step (a lost connection ends it) */
	for (i = 0; i < keys->elements; i++) {
		added = reply(r, r->cmd, &rep, true);
		if (added == -EIO || added == -EINTR || added == -EMSGSIZE ||
		    added == -EPROTO)
			return added;
		added = add_key(r, root, keys->element[i]->str, rep);
		freeReplyObject(rep);
		if (added < 0 && !e)
			e = added;
		if (added > 0)
			(*n_keys)++;
	}
	return e;
}

int rd_sredis_read_configdb(struct rd_sredis *r, struct json_object **out,
			    unsigned int *n_keys)
{
	char cursor[32] = "0";
	struct json_object *root;
	unsigned int rounds = 0, seen = 0;
	redisReply *scan = NULL;
	int e;

	*out = NULL;
	*n_keys = 0;
	if (!r->cmd)
		return -ENOTCONN;
	e = select_db(r, RD_SDB_CONFIG(r));
	if (e)
		goto lost;
	root = json_object_new_object();
	if (!root) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -ENOMEM;
	}
	/* SCAN, not KEYS: a big CONFIG_DB must not stall the server. A
	 * cursor that never comes back to 0 ends after a bounded number of
	 * rounds. */
	do {
		if (++rounds > RD_SREDIS_SCAN_ROUNDS) {
			snprintf(r->err, sizeof(r->err),
				 "SCAN: no end after %u rounds",
				 RD_SREDIS_SCAN_ROUNDS);
			e = -E2BIG;
			break;
		}
		e = CMD(r, r->cmd, &scan, "SCAN", cursor, "COUNT",
			RD_SREDIS_SCAN_COUNT);
		if (!e)
			e = scan_ok(r, scan);
		if (e)
			break;
		seen += scan->element[1]->elements;
		if (seen > RD_SREDIS_KEYS_MAX) {
			snprintf(r->err, sizeof(r->err),
				 "SCAN: over %u keys in CONFIG_DB",
				 RD_SREDIS_KEYS_MAX);
			e = -E2BIG;
			break;
		}
		snprintf(cursor, sizeof(cursor), "%s", scan->element[0]->str);
		e = read_page(r, root, scan->element[1], n_keys);
		freeReplyObject(scan);
		scan = NULL;
	} while (!e && strcmp(cursor, "0"));
	freeReplyObject(scan);
	if (!e) {
		*out = root;
		return 0;
	}
	json_object_put(root);
lost:
	/* a server that sent nonsense gets a fresh connection: hiredis'
	 * reader cannot go on after a protocol error */
	if (e != -EACCES && e != -EBUSY && e != -ENOMEM)
		rd_sredis_close(r);
	return e;
}

static int count_pending(struct rd_sredis *r, int e)
{
	if (e != REDIS_OK) {
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -ENOMEM;
	}
	r->pending++;
	return 0;
}

static int pipe_select(struct rd_sredis *r, int db)
{
	char n[16];
	const char *argv[] = { "SELECT", n };

	if (r->db == db)
		return 0;
	snprintf(n, sizeof(n), "%d", db);
	r->db = db;
	return count_pending(r, redisAppendCommandArgv(r->cmd, 2, argv, NULL));
}

int rd_sredis_hset(struct rd_sredis *r, int db, const char *key,
		   const char *const *fv, unsigned int n)
{
	const char *argv[2 + 2 * RD_SREDIS_HSET_MAX];
	unsigned int i;
	int e;

	if (!r->cmd)
		return -ENOTCONN;
	if (!n || n > RD_SREDIS_HSET_MAX)
		return -EINVAL;
	e = pipe_select(r, db);
	if (e)
		return e;
	argv[0] = "HSET";
	argv[1] = key;
	for (i = 0; i < 2 * n; i++)
		argv[2 + i] = fv[i];
	return count_pending(r, redisAppendCommandArgv(r->cmd, 2 + 2 * n, argv,
						       NULL));
}

int rd_sredis_hincr(struct rd_sredis *r, int db, const char *key,
		    const char *field)
{
	const char *argv[] = { "HINCRBY", key, field, "1" };
	int e;

	if (!r->cmd)
		return -ENOTCONN;
	e = pipe_select(r, db);
	if (e)
		return e;
	return count_pending(r, redisAppendCommandArgv(r->cmd, 4, argv, NULL));
}

int rd_sredis_del(struct rd_sredis *r, int db, const char *key)
{
	const char *argv[] = { "DEL", key };
	int e;

	if (!r->cmd)
		return -ENOTCONN;
	e = pipe_select(r, db);
	if (e)
		return e;
	return count_pending(r, redisAppendCommandArgv(r->cmd, 2, argv, NULL));
}

int rd_sredis_scan_del(struct rd_sredis *r, int db, const char *pattern,
		       unsigned int max_keys,
		       bool (*keep)(void *ctx, const char *key), void *ctx,
		       unsigned int *n_del)
{
	char cursor[32] = "0";
	unsigned int rounds = 0, seen = 0;
	redisReply *scan = NULL, *k;
	size_t i;
	int e;

	*n_del = 0;
	if (!r->cmd)
		return -ENOTCONN;
	e = rd_sredis_flush(r); /* no pipelined reply may come first */
	if (e == -EIO)
		return e;
	e = select_db(r, db);
	/* the same bounds as a CONFIG_DB read: a cursor that never ends,
	 * a database far bigger than what rocedp writes */
	while (!e) {
		if (++rounds > RD_SREDIS_SCAN_ROUNDS) {
			snprintf(r->err, sizeof(r->err),
				 "SCAN: no end after %u rounds",
				 RD_SREDIS_SCAN_ROUNDS);
			e = -E2BIG;
			break;
		}
		e = CMD(r, r->cmd, &scan, "SCAN", cursor, "MATCH", pattern,
			"COUNT", RD_SREDIS_SCAN_COUNT);
		if (!e)
			e = scan_ok(r, scan);
		if (e)
			break;
		k = scan->element[1];
		for (i = 0; !e && i < k->elements; i++) {
			if (++seen > max_keys) {
				snprintf(r->err, sizeof(r->err),
					 "SCAN: over %u keys match %.64s",
					 max_keys, pattern);
				e = -E2BIG;
			} else if (!keep(ctx, k->element[i]->str)) {
				e = rd_sredis_del(r, db, k->element[i]->str);
				(*n_del) += !e;
			}
		}
		snprintf(cursor, sizeof(cursor), "%s", scan->element[0]->str);
		freeReplyObject(scan);
		scan = NULL;
		if (rd_sredis_flush(r) == -EIO)
			return -EIO;
		if (!strcmp(cursor, "0"))
			break;
	}
	freeReplyObject(scan);
	if (e && e != -E2BIG && e != -EACCES && e != -EBUSY && e != -ENOMEM)
		rd_sredis_close(r);
	return e;
}

int rd_sredis_flush(struct rd_sredis *r)
{
	redisReply *rep;
	int e = 0, e1;

	if (!r->cmd)
		return -ENOTCONN;
	while (r->pending) {
		e1 = reply(r, r->cmd, &rep, true);
		if (e1) {
			rd_sredis_close(r);
			return -EIO;
		}
		r->pending--;
		if (rep->type == REDIS_REPLY_ERROR && !e)
			e = server_err(r, rep);
		freeReplyObject(rep);
	}
	return e ? (e == -EIO ? -EINVAL : e) : 0;
}

int rd_sredis_hgetall(struct rd_sredis *r, int db, const char *key,
		      size_t max_fields, struct json_object **out)
{
	redisReply *rep;
	size_t i;
	int e;

	*out = NULL;
	if (!r->cmd)
		return -ENOTCONN;
	e = rd_sredis_flush(r); /* no pipelined reply may come first */
	if (e == -EIO)
		return -EIO;
	e = select_db(r, db);
	if (!e)
		e = CMD(r, r->cmd, &rep, "HGETALL", key);
	if (e)
		return e == -EACCES || e == -EBUSY ? e : -EIO;
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
		if (add_obj(*out, rep->element[i]->str,
			    json_object_new_string(rep->element[i + 1]->str))) {
			json_object_put(*out);
			*out = NULL;
		}
	freeReplyObject(rep);
	return *out ? 0 : -ENOMEM;
}
