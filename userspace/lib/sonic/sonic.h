/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC CONFIG_DB -> rocedp config document converter (docs/sonic.md).
 * Used by `rocedp sonic import` (file) and `rocedp sonic sync` (live Redis).
 */
#ifndef ROCEDP_SONIC_H
#define ROCEDP_SONIC_H

#include <json-c/json.h>

struct rd_sonic_opts {
	/* "Ethernet0=eth1,Ethernet4=eth2" or NULL (keep SONiC names) */
	const char *ports;
	int strict; /* warnings become a refusal */
};

/*
 * configdb: a config_db.json-shaped object {"TABLE": {"key": {"field": "value"}}}
 * (keys joined with '|' as in config_db.json). On success *out is a new rocedp
 * config document (json object, valid for rd config check) and *n_warnings the
 * number of warning lines printed to stderr (each naming the key).
 * Returns 0, or -EINVAL (malformed / strict refusal, one clear error line printed).
 */
int rd_sonic_convert(struct json_object *configdb,
		     const struct rd_sonic_opts *o, struct json_object **out,
		     int *n_warnings);

#endif
