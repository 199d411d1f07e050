/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC's Redis databases through hiredis (docs/sonic.md, "Live"):
 * sonic_redis.c talks to Redis (connect, CONFIG_DB as a config_db.json
 * shaped object, keyspace notifications, hash writes); sonic_sync.c is the
 * `rocedp sonic sync` daemon on top (apply, STATE_DB, COUNTERS_DB).
 */
#ifndef ROCEDP_SONIC_REDIS_H
#define ROCEDP_SONIC_REDIS_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

/* SONiC's database numbers (sonic-swss-common database_config.json) */
#define RD_SONIC_APPL_DB 0
#define RD_SONIC_COUNTERS_DB 2
#define RD_SONIC_CONFIG_DB 4
#define RD_SONIC_STATE_DB 6

struct redisContext;

struct rd_sredis {
	struct redisContext *cmd; /* commands (SELECT per use) */
	struct redisContext *sub; /* keyspace notifications only */
	int db; /* database cmd has selected, -1 unknown */
};

/* "unix:/path/sock" or "HOST:PORT" (or "[v6]:PORT"); -EINVAL if neither. */
int rd_sredis_parse_url(const char *url, char *host, size_t hlen, int *port);
/* Connect both contexts and subscribe to CONFIG_DB's keyspace events,
 * turning the events on in the server when they are off. -errno and a
 * reason in err on failure (the daemon retries). */
int rd_sredis_connect(struct rd_sredis *r, const char *url, char *err,
		      size_t elen);
void rd_sredis_close(struct rd_sredis *r);
/* The subscription's socket, to poll; -1 when not connected. */
int rd_sredis_sub_fd(const struct rd_sredis *r);
/* Read what arrived on the subscription: >0 if CONFIG_DB changed, 0 if
 * nothing did, -errno when the connection is lost. */
int rd_sredis_sub_drain(struct rd_sredis *r);

/* CONFIG_DB as {"TABLE": {"key": {"field": "value"}}}: keys split at the
 * first '|', ConfigDBConnector's "field@" lists back to arrays, its "NULL"
 * placeholder dropped. *n_keys counts the keys read. -errno. */
int rd_sredis_read_configdb(struct rd_sredis *r, struct json_object **out,
			    unsigned int *n_keys);

/* One CONFIG_DB hash (n field/value pairs in fv) into root as
 * root[TABLE][rest]; -EINVAL (nothing added) for a key without "TABLE|". */
int rd_sredis_add_hash(struct json_object *root, const char *key,
		       const char *const *fv, size_t n);

/* HSET key f1 v1 f2 v2 ... (n pairs) in db, pipelined with what follows
 * until rd_sredis_flush(). */
int rd_sredis_hset(struct rd_sredis *r, int db, const char *key,
		   const char *const *fv, unsigned int n);
/* Wait for every pipelined reply; -errno if one failed or the link did. */
int rd_sredis_flush(struct rd_sredis *r);
/* HGETALL key in db as {"field": "value"} ({} when there is no key):
 * -EPROTO for a reply that is not a flat array of strings or holds more
 * than max_fields fields, -EIO when the link failed. */
int rd_sredis_hgetall(struct rd_sredis *r, int db, const char *key,
		      size_t max_fields, struct json_object **out);

#endif
