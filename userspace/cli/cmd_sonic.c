// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp sonic import|sync: SONiC CONFIG_DB in (docs/sonic.md). The
 * options are parsed here; the converter (sonic.c) and the daemon
 * (sonic_sync.c) get them filled in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "rocedp.h"
#include "config_json.h"
#include "sonic.h"
#include "sonic_redis.h"
#include "sonic_dbconf.h"
#include "sonic_qps.h"
#include "sonic_sync.h"

int cmd_sonic_import(const struct cli_call *c)
{
	struct rd_sonic_opts o = { .ports = cli_val(c, "ports"),
				   .strict = cli_set(c, "strict") };
	struct json_object *db, *out;
	const char *text;
	int err, warns;

	if (rd_config_read_json(c->argv[0], &db))
		return CLI_FAIL;
	err = rd_sonic_convert(db, &o, &out, &warns);
	json_object_put(db);
	if (err)
		return CLI_FAIL;
	text = json_object_to_json_string_ext(
		out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		rd_err("sonic", "import: out of memory");
		json_object_put(out);
		return CLI_FAIL;
	}
	printf("%s\n", text);
	json_object_put(out);
	return fflush(stdout) ? CLI_FAIL : CLI_OK;
}

/*
 * --name VALUE into *out (ms): SEC in 0.1..3600 s (below, a busy loop
 * against the shared Redis), MS whole 1..10000.
 */
static int period(const struct cli_call *c, const char *name, bool ms,
		  long *out)
{
	const char *v = cli_val(c, name);
	char *end;
	double x;

	if (!v)
		return 0;
	errno = 0;
	x = strtod(v, &end);
	if (errno || *end || end == v || x != x ||
	    (ms ? (x < 1 || x > 10000 || x != (long)x) : (x < 0.1 || x > 3600)))
		return cli_usage_err(c, "--%s %s: want %s", name, v,
				     ms ? "whole milliseconds 1..10000" :
					  "seconds 0.1..3600");
	*out = ms ? (long)x : (long)(x * 1000);
	return 0;
}

/* --ports checked now, not at the first CONFIG_DB read: the converter's
 * own parser on an empty CONFIG_DB. */
static int check_ports(const struct rd_sonic_opts *o)
{
	struct json_object *empty = json_object_new_object(), *out = NULL;
	int warn, err;

	if (!empty)
		return CLI_FAIL;
	err = rd_sonic_convert(empty, o, &out, &warn);
	json_object_put(empty);
	json_object_put(out);
	return err ? CLI_USAGE : 0;
}

/* The --tls options agree with each other and the address (port < 0:
 * unix:PATH); the files themselves are read when the daemon starts. */
static int tls_opts(const struct cli_call *c,
		    const struct rd_sonic_sync_opts *o, int port)
{
	static const char *const names[] = { "tls-ca", "tls-cert", "tls-key",
					     "tls-server-name" };
	unsigned int i;

	for (i = 0; !o->tls && i < sizeof(names) / sizeof(names[0]); i++)
		if (cli_val(c, names[i]))
			return cli_usage_err(c, "--%s without --tls", names[i]);
	if (!o->tls)
		return 0;
	if (port < 0)
		return cli_usage_err(
			c,
			"--tls with --redis %s: Redis has no TLS on unix sockets, want HOST:PORT",
			o->url);
	if (!o->tls_opts.cert != !o->tls_opts.key)
		return cli_usage_err(c, "--tls-cert and --tls-key go together");
	if (o->tls_opts.server_name && !o->tls_opts.server_name[0])
		return cli_usage_err(c, "--tls-server-name: empty");
	return 0;
}

int cmd_sonic_sync(const struct cli_call *c)
{
	struct rd_sonic_sync_opts o = {
		.url = cli_val(c, "redis"),
		.auth_file = cli_val(c, "auth-file"),
		.conv = { .ports = cli_val(c, "ports"),
			  .strict = cli_set(c, "strict") },
		.port_ms = RD_SONIC_PORT_MS,
		.queue_ms = RD_SONIC_QUEUE_MS,
		.quiet_ms = RD_SONIC_QUIET_MS,
		.qp_top = RD_SQPS_TOP_DEFAULT,
		.once = cli_set(c, "once"),
		.tls = cli_set(c, "tls"),
		.tls_opts = { .ca = cli_val(c, "tls-ca"),
			      .cert = cli_val(c, "tls-cert"),
			      .key = cli_val(c, "tls-key"),
			      .server_name = cli_val(c, "tls-server-name") },
	};
	const char *top = cli_val(c, "qp-top");
	char host[256], err[600], url[128], *end;
	unsigned long k;
	int port, e;

	/* the database numbers: --db-config, else SONiC's own file when
	 * there is one, else 0/2/4/6; its socket is the default --redis */
	rd_sdb_ids_default(&o.ids);
	o.db_config = cli_val(c, "db-config");
	o.ns = cli_val(c, "namespace");
	if (!o.db_config && !access(RD_SDB_CONFIG_FILE, R_OK))
		o.db_config = RD_SDB_CONFIG_FILE;
	if (!o.db_config && o.ns)
		return cli_usage_err(c,
				     "--namespace %s: no %s and no --db-config",
				     o.ns, RD_SDB_CONFIG_FILE);
	if (o.db_config &&
	    rd_sdb_ids_load(&o.ids, o.db_config, o.ns, err, sizeof(err)))
		return cli_usage_err(c, "--db-config %s", err);
	if (!o.url && o.ids.sock[0]) {
		snprintf(url, sizeof(url), "unix:%s", o.ids.sock);
		o.url = url;
	}
	if (!o.url)
		return cli_usage_err(
			c,
			"--redis missing (and no database_config.json names a socket)");
	if (period(c, "port-interval", false, &o.port_ms) ||
	    period(c, "queue-interval", false, &o.queue_ms) ||
	    period(c, "quiet-ms", true, &o.quiet_ms))
		return CLI_USAGE;
	if (top) {
		errno = 0;
		k = strtoul(top, &end, 10);
		if (errno || *end || end == top || *top == '-' || *top == '+' ||
		    k > RD_SQPS_TOP_MAX)
			return cli_usage_err(c, "--qp-top %s: want 0..%u", top,
					     RD_SQPS_TOP_MAX);
		o.qp_top = (unsigned int)k;
	}
	e = rd_sredis_parse_url(o.url, host, sizeof(host), &port);
	if (e == -EPERM) /* the URL itself is not repeated: it has a secret */
		return cli_usage_err(
			c,
			"--redis: a password in the address is refused (it shows in ps and the log): use --auth-file");
	if (e)
		return cli_usage_err(
			c, "--redis %s: want unix:PATH or HOST:PORT", o.url);
	e = tls_opts(c, &o, port);
	if (e)
		return e;
	if (o.conv.ports && (e = check_ports(&o.conv)))
		return e;
	return rd_sonic_sync_run(&o);
}
