/* SPDX-License-Identifier: GPL-2.0 */
/* A config group member's drain (config_member.c). */
#ifndef ROCEDP_CONFIG_MEMBER_H
#define ROCEDP_CONFIG_MEMBER_H

#include <json-c/json.h>

#include "config_json.h"
#include "rocedp.h"

/* every key of a member object (groups[].members[]) */
#define RD_CFG_MEMBER_KEYS \
	"dev", "ifindex", "smac", "dmac", "weight", "via", "drain"

/*
 * "drain": true takes the member out of service with its weight kept for
 * the bucket table (weight 0, drain_weight = weight): call after the
 * weight is parsed. A drain without a weight to keep is an error.
 */
void rd_cfg_parse_drain(struct rd_json_ctx *c, const char *path,
			struct json_object *v, struct rocedp_member *mb);

#endif
