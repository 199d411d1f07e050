/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC's Redis databases through hiredis (docs/sonic.md, "Live"):
 * sonic_redis.c talks to Redis (connect, CONFIG_DB as a config_db.json
 * shaped object, keyspace notifications, hash writes); sonic_sync.c is the
 * `rocedp sonic sync` daemon on top (apply, STATE_DB, COUNTERS_DB).
 *
 * Nothing the server sends is trusted: every reply's type is checked, one
 * reply may hold at most RD_RESP_REPLY_MAX bytes (sonic_resp.h), a SCAN at most
 * RD_SREDIS_SCAN_ROUNDS rounds, and every wait ends on *stop.
 */
#ifndef ROCEDP_SONIC_REDIS_H
#define ROCEDP_SONIC_REDIS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "sonic_dbconf.h"
#include "sonic_resp.h"

/* SONiC's database numbers (sonic-swss-common database_config.json) */
#define RD_SONIC_APPL_DB 0
#define RD_SONIC_COUNTERS_DB 2
#define RD_SONIC_CONFIG_DB 4
#define RD_SONIC_STATE_DB 6
/* The number in use on r: database_config.json's, else the above */
#define RD_SDB_COUNTERS(r) \
	((r)->ids ? (r)->ids->counters : RD_SONIC_COUNTERS_DB)
#define RD_SDB_CONFIG(r) ((r)->ids ? (r)->ids->config : RD_SONIC_CONFIG_DB)
#define RD_SDB_STATE(r) ((r)->ids ? (r)->ids->state : RD_SONIC_STATE_DB)

/* SCAN rounds and keys per CONFIG_DB read. */
#define RD_SREDIS_SCAN_ROUNDS 4096u
#define RD_SREDIS_KEYS_MAX 500000u

struct redisContext;
struct rd_stls;
struct rd_stls_conn;

/* AUTH [user] password, from a file (rd_sredis_auth_load), never argv. */
struct rd_sredis_auth {
	char user[128]; /* "" for the default user (requirepass) */
	char pass[512];
};

struct rd_sredis {
	struct redisContext *cmd; /* commands (SELECT per use) */
	struct redisContext *sub; /* keyspace notifications only */
	int db; /* database cmd has selected, -1 unknown */
	unsigned int pending; /* pipelined commands not yet answered */
	struct rd_resp_budget bcmd, bsub; /* one per context */
	/* set by the caller before connecting; kept across reconnects */
	const volatile sig_atomic_t *stop; /* every wait ends once *stop */
	const struct rd_sredis_auth *auth; /* NULL: no AUTH */
	const struct rd_sdb_ids *ids; /* database_config.json; NULL: 0/2/4/6 */
	const struct rd_stls *tls; /* NULL: plain TCP (sonic_tls.h) */
	struct rd_stls_conn *tcmd, *tsub; /* their TLS sessions */
	/* the last failure: the server's own text when it sent one */
	char err[256];
	/* notify-keyspace-events as found and as this daemon set it ("" if
	 * it set nothing), for rd_sredis_restore_events() */
	char events_old[64], events_set[64];
	bool no_config; /* CONFIG refused: events assumed on */
	/* a reply wait ended by *stop: the command connection is out of
	 * step or closed (kept across rd_sredis_close) */
	bool cut;
};

/* Before the first connect: *r zeroed, stop and auth kept. */
void rd_sredis_init(struct rd_sredis *r, const volatile sig_atomic_t *stop,
		    const struct rd_sredis_auth *auth);

/* "unix:/path/sock" or "HOST:PORT" (or "[v6]:PORT"); -EINVAL if neither,
 * -EPERM for a URL carrying a password (user:pass@...). */
int rd_sredis_parse_url(const char *url, char *host, size_t hlen, int *port);
/* The auth file: one line PASSWORD, or two lines USER and PASSWORD. The
 * file must not be readable by others. -errno and a reason (never the
 * password) in err. */
int rd_sredis_auth_load(const char *path, struct rd_sredis_auth *a, char *err,
			size_t elen);
/* Connect both contexts (AUTH first when set) and subscribe to CONFIG_DB's
 * keyspace events, turning the events on in the server when they are off.
 * -errno and the reason in r->err on failure (the daemon retries). */
int rd_sredis_connect(struct rd_sredis *r, const char *url);
/* After r->cut, with stop cleared: a fresh command connection only (AUTH,
 * no events set, no subscription) for the last words to the server. */
int rd_sredis_reopen_cmd(struct rd_sredis *r, const char *url);
void rd_sredis_close(struct rd_sredis *r);
/* Put notify-keyspace-events back as it was if this daemon changed it and
 * nobody changed it since. */
void rd_sredis_restore_events(struct rd_sredis *r);
/* The subscription's socket, to poll; -1 when not connected. */
int rd_sredis_sub_fd(const struct rd_sredis *r);
/* Read what arrived on the subscription: >0 if CONFIG_DB changed, 0 if
 * nothing did, -errno when the connection is lost. */
int rd_sredis_sub_drain(struct rd_sredis *r);

/* SONiC's "CONFIG_DB loaded" signal: 1 if CONFIG_DB_INITIALIZED is "1",
 * 0 if not (r->err says what it holds), -errno. */
int rd_sredis_configdb_ready(struct rd_sredis *r);
/* CONFIG_DB as {"TABLE": {"key": {"field": "value"}}}: keys split at the
 * first '|', ConfigDBConnector's "field@" lists back to arrays, its "NULL"
 * placeholder dropped. *n_keys counts the table entries read. -errno, the
 * reason in r->err; the connection is closed on a protocol error. */
int rd_sredis_read_configdb(struct rd_sredis *r, struct json_object **out,
			    unsigned int *n_keys);

/* One CONFIG_DB hash (n field/value pairs in fv) into root as
 * root[TABLE][rest]; -EINVAL (nothing added) for a key without "TABLE|",
 * -ENOMEM. */
int rd_sredis_add_hash(struct json_object *root, const char *key,
		       const char *const *fv, size_t n);

/* HSET key f1 v1 f2 v2 ... (n pairs, at most RD_SREDIS_HSET_MAX) in db, pipelined with what follows
 * until rd_sredis_flush(). */
#define RD_SREDIS_HSET_MAX 48
int rd_sredis_hset(struct rd_sredis *r, int db, const char *key,
		   const char *const *fv, unsigned int n);
/* DEL key in db, pipelined like rd_sredis_hset(). */
int rd_sredis_del(struct rd_sredis *r, int db, const char *key);
/*
 * SCAN db MATCH pattern and DEL each key that keep() says no to: at most
 * RD_SREDIS_SCAN_ROUNDS rounds and max_keys keys (-E2BIG past them, what
 * was seen so far deleted). *n_del counts the deletions. -errno.
 */
int rd_sredis_scan_del(struct rd_sredis *r, int db, const char *pattern,
		       unsigned int max_keys,
		       bool (*keep)(void *ctx, const char *key), void *ctx,
		       unsigned int *n_del);
/* HINCRBY key field 1 in db, pipelined like rd_sredis_hset(). */
int rd_sredis_hincr(struct rd_sredis *r, int db, const char *key,
		    const char *field);
/* Wait for every pipelined reply; -errno if one failed or the link did. */
int rd_sredis_flush(struct rd_sredis *r);
/* HGETALL key in db as {"field": "value"} ({} when there is no key):
 * -EPROTO for a reply that is not a flat array of strings or holds more
 * than max_fields fields, -EIO when the link failed. */
int rd_sredis_hgetall(struct rd_sredis *r, int db, const char *key,
		      size_t max_fields, struct json_object **out);

#endif
