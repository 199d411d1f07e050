/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which Redis database is which, as SONiC names them in
 * database_config.json (sonic-swss-common), and the namespaces of a
 * multi-ASIC box from database_global.json beside it (sonic_dbconf.c;
 * docs/sonic.md, "Databases").
 */
#ifndef ROCEDP_SONIC_DBCONF_H
#define ROCEDP_SONIC_DBCONF_H

#include <stddef.h>

#define RD_SDB_CONFIG_FILE "/var/run/redis/sonic-db/database_config.json"

struct rd_sdb_ids {
	int appl, counters, config, state;
	char sock[108]; /* the instance's unix_socket_path, "" if none */
};

/* 0, 2, 4, 6: SONiC's numbers when no file says otherwise */
void rd_sdb_ids_default(struct rd_sdb_ids *ids);
/*
 * database_config.json FILE into ids; with ns, the namespace's own file
 * that database_global.json (FILE's directory) includes for it. -errno
 * with the reason (naming the file and key) in err.
 */
int rd_sdb_ids_load(struct rd_sdb_ids *ids, const char *file, const char *ns,
		    char *err, size_t elen);

#endif
