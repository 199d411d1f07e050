// SPDX-License-Identifier: GPL-2.0
/*
 * A port's buffer discard action in the config (ecn.ports.X: discard,
 * trim_size, trim_dscp, trim_eligible_dscp), checked into the staged
 * port: struct rocedp_trim_port and the ROCEDP_PORTF_ADMIT flag
 * (docs/config.md; the dataplane: docs/trim.md).
 */
#include <string.h>

#include "config_trim.h"

/*
 * The buffer's discard action (docs/config.md, ecn.ports): drop or trim a
 * frame buffer_bytes cannot hold. Trimming's eligible DSCP set is empty
 * unless given: a trimmed RoCEv2 frame fails its ICRC at the NIC.
 */
void rd_cfg_parse_trim(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, struct rd_cfg_port *pt)
{
	static const char *const actions[] = { "none", "drop", "trim", NULL };
	struct rocedp_trim_port *tp = &pt->trim;
	struct json_object *x, *e;
	char p[RD_JSON_PATH_LEN], pe[RD_JSON_PATH_LEN + 24];
	const char *s;
	size_t i, n;
	__u32 u;

	memset(tp, 0, sizeof(*tp));
	tp->size = ROCEDP_TRIM_SIZE_DEFAULT;
	tp->dscp = ROCEDP_TRIM_DSCP_FROM_TC;
	if ((x = rd_json_child(v, "discard", path, p))) {
		s = json_object_is_type(x, json_type_string) ?
			    json_object_get_string(x) :
			    "";
		for (i = 0; actions[i] && strcmp(actions[i], s); i++)
			;
		if (!actions[i])
			rd_json_err(c, p,
				    "want \"none\", \"drop\" or \"trim\"");
		else
			tp->action = i;
		if (tp->action && !pt->pc.buffer_bytes)
			rd_json_err(c, p,
				    "needs buffer_bytes: the buffer it guards");
		if (tp->action && !pt->pc.rate_bps &&
		    !(pt->pc.flags & ROCEDP_PORTF_HOLD_QUEUE))
			rd_json_err(c, p,
				    "needs rate_mbps: the queue drains at it");
	}
	if ((x = rd_json_child(v, "trim_size", path, p)) &&
	    !rd_json_get_u32(c, p, x, ROCEDP_TRIM_SIZE_MIN,
			     ROCEDP_TRIM_SIZE_MAX, &u))
		tp->size = u;
	if ((x = rd_json_child(v, "trim_dscp", path, p))) {
		if (json_object_is_type(x, json_type_string) &&
		    !strcmp(json_object_get_string(x), "from_tc"))
			tp->dscp = ROCEDP_TRIM_DSCP_FROM_TC;
		else if (!rd_json_get_u32(c, p, x, 0, 63, &u))
			tp->dscp = u;
	}
	if ((x = rd_json_child(v, "trim_eligible_dscp", path, p)) &&
	    rd_json_want_type(c, p, x, json_type_array, "an array")) {
		n = json_object_array_length(x);
		for (i = 0; i < n; i++) {
			e = json_object_array_get_idx(x, i);
			snprintf(pe, sizeof(pe), "%s[%zu]", p, i);
			if (!rd_json_get_u32(c, pe, e, 0, 63, &u))
				tp->eligible_dscp |= 1ull << u;
		}
	}
	if (tp->action)
		pt->pc.flags |= ROCEDP_PORTF_ADMIT;
	else
		memset(tp, 0, sizeof(*tp));
}
