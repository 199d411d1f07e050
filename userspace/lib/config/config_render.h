/* SPDX-License-Identifier: GPL-2.0 */
/* A staged config as JSON or text (config_render.c). */
#ifndef ROCEDP_CONFIG_RENDER_H
#define ROCEDP_CONFIG_RENDER_H

#include <json-c/json.h>
#include "config.h"

/* json-c flags for output honouring -p */
int rd_json_flags(void);
/* The running config as a document rd_config_parse accepts. */
struct json_object *rd_config_to_json(const struct rd_staged *s);
/* One CTS rule as JSON (shared with `rocedp qos rules`). */
struct json_object *rd_cts_rule_to_json(const struct rocedp_cts_rule *r,
					const char *name);
/* config show's text form, on stdout. */
void rd_config_print_text(const struct rd_staged *s);

#endif
