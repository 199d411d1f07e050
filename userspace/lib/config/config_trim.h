/* SPDX-License-Identifier: GPL-2.0 */
/* A port's buffer discard action (trimming) from the config: config_trim.c */
#ifndef ROCEDP_CONFIG_TRIM_H
#define ROCEDP_CONFIG_TRIM_H

#include "config.h"
#include "config_json.h"

/* ecn.ports.X's keys: the ECN ones (config_parse.c), then the action's */
#define RD_CFG_PORT_KEYS                                                      \
	"rate_mbps", "kmin_bytes", "kmax_bytes", "pmax_percent", "profile",   \
		"hold_queue_bytes", "buffer_bytes", "exact_clock", "discard", \
		"trim_size", "trim_dscp", "trim_eligible_dscp"

/*
 * The keys of ecn.ports.X v about its discard action into pt->trim; sets
 * ROCEDP_PORTF_ADMIT in pt->pc.flags when there is one. Call after the
 * port's ECN keys (it checks buffer_bytes and rate_mbps).
 */
void rd_cfg_parse_trim(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, struct rd_cfg_port *pt);

#endif
