/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `rocedp sonic sync --redis URL` daemon (sonic_sync.c): CONFIG_DB
 * followed live and applied as `config load` does, STATE_DB status and
 * COUNTERS_DB counters written back (docs/sonic.md).
 */
#ifndef ROCEDP_SONIC_SYNC_H
#define ROCEDP_SONIC_SYNC_H

#include <stdbool.h>

#include "sonic_dbconf.h"
#include "sonic.h"
#include "sonic_tls.h"

/* What `rocedp sonic sync` was asked for (the CLI parses the options). */
struct rd_sonic_sync_opts {
	const char *url; /* unix:PATH or HOST:PORT, already checked */
	const char *auth_file; /* AUTH [user and] password, or NULL */
	bool tls; /* TLS to HOST:PORT with these files and name */
	struct rd_stls_opts tls_opts;
	struct rd_sonic_opts conv; /* --ports, --strict */
	long port_ms, queue_ms, quiet_ms; /* counter periods, event quiet */
	unsigned int qp_top; /* QPs with COUNTERS_ROCEDP_QP keys */
	bool once; /* apply once and return */
	struct rd_sdb_ids ids; /* database numbers (rd_sdb_ids_default) */
	const char *db_config, *ns; /* where ids came from, for the log */
};

/* the defaults of rd_sonic_sync_opts */
#define RD_SONIC_PORT_MS 1000
#define RD_SONIC_QUEUE_MS 10000
#define RD_SONIC_QUIET_MS 100

/*
 * Run the daemon until SIGTERM/SIGINT (or one apply with once). Returns
 * the exit code: 1 when once applied nothing or was refused, 2 when the
 * auth file cannot be used, else 0.
 */
int rd_sonic_sync_run(const struct rd_sonic_sync_opts *o);

#endif
