// SPDX-License-Identifier: GPL-2.0
/*
 * A config group member's drain: the member carries no traffic (weight 0,
 * which the dataplane reads) and keeps its weight as drain_weight, which
 * only the bucket table reads, so it leaves the table like a member that
 * is down and moves no other member's bucket (docs/design.md, Member
 * choice).
 */
#include <stdbool.h>

#include "config_member.h"

void rd_cfg_parse_drain(struct rd_json_ctx *c, const char *path,
			struct json_object *v, struct rocedp_member *mb)
{
	char p[RD_JSON_PATH_LEN];
	struct json_object *x;
	bool drain = false;

	x = rd_json_child(v, "drain", path, p);
	if (!x || rd_json_get_bool(c, p, x, &drain) || !drain)
		return;
	if (!mb->weight) {
		rd_json_err(
			c, p,
			"a drained member needs the weight it keeps its buckets with (1..65535)");
		return;
	}
	mb->drain_weight = mb->weight;
	mb->weight = 0;
}
