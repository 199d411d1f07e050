/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON config file (docs/config.md) and the running config held in the
 * maps. Both are turned into one in-memory form, struct rd_staged, so that
 * check, load, set, show and dump share the code that validates, applies and
 * renders. The file-level entry points are declared in engine.h.
 */
#ifndef ROCEDP_CONFIG_H
#define ROCEDP_CONFIG_H

#include <json-c/json.h>
#include "rocedp.h"

#define RD_CTS_NAME_MAX 32

struct rd_cfg_port {
	__u32 ifindex;
	struct rocedp_port_cfg pc;
	__u64 hold_bytes; /* with ROCEDP_PORTF_HOLD_QUEUE */
};

struct rd_cfg_group {
	__u32 id;
	struct rocedp_group g; /* built (rd_group_build) */
};

struct rd_cfg_route {
	__u8 family; /* AF_INET / AF_INET6 */
	__u8 plen;
	__u8 addr[16]; /* network order, host bits clear */
	struct rocedp_route val;
};

/* A whole config: what the file asks for, or what the maps hold. */
struct rd_staged {
	struct rocedp_config cfg; /* n_cts_rules included */
	struct rocedp_qos qos[ROCEDP_CLASS_MAX];
	struct rocedp_cts_rule rules[ROCEDP_MAX_CTS_RULES];
	char rule_names[ROCEDP_MAX_CTS_RULES][RD_CTS_NAME_MAX];
	struct rd_cfg_port *ports; /* non-default ECN port settings */
	unsigned int n_ports;
	struct rd_cfg_group *groups; /* static groups */
	unsigned int n_groups;
	struct rd_cfg_route *routes; /* static routes */
	unsigned int n_routes;
};

void rd_staged_defaults(struct rd_staged *s);
void rd_staged_free(struct rd_staged *s);

/* Validate a parsed document into s; one error line per bad key. -EINVAL. */
int rd_config_parse(struct json_object *root, struct rd_staged *s);
/* Read a JSON file ("-" = stdin); I/O and syntax errors are printed. */
int rd_config_read_json(const char *path, struct json_object **root);
/* Parse JSON text; syntax errors are printed under the name path. */
int rd_config_parse_text(const char *path, const char *buf, size_t len,
			 struct json_object **root);
/* Read the running config (static routes and groups only) back. */
int rd_config_read_running(const struct rd_maps *m, struct rd_staged *s);
/* Make the maps hold s; on failure the maps are rolled back. -errno. */
int rd_config_apply(const struct rd_maps *m, const struct rd_staged *s);
/* The running config as a document rd_config_parse accepts. */
struct json_object *rd_config_to_json(const struct rd_staged *s);

/* One CTS rule as JSON (shared with `rocedp qos rules`). */
struct json_object *rd_cts_rule_to_json(const struct rocedp_cts_rule *r,
					const char *name);
/* Classes whose remark action can be set (not non_ip, not malformed). */
bool rd_qos_class_settable(int cls);
void rd_qos_settable_classes(char *buf, size_t len);
/* json-c flags for output honouring -p */
int rd_json_flags(void);
/* Open the pinned maps; prints "rocedp: OBJ: ..." on failure. -errno. */
int rd_config_open_maps(const char *obj, struct rd_maps *m);
/* Exclusive lock against other writers; returns the fd to close. */
int rd_config_lock(const char *obj);

#endif
