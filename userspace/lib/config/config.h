/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON config file (docs/config.md) and the running config held in the
 * maps. Both are turned into one in-memory form, struct rd_staged, so that
 * check, load, set, show and dump share the code that validates, applies and
 * renders. This header (config.c) has that form; the stages have their own:
 *   config_json.h   JSON text and typed values with error paths
 *   config_parse.h  document -> rd_staged, validated (rd_config_parse)
 *   config_read.h   maps -> rd_staged (the running config)
 *   config_txn.h    rd_staged -> maps, one transaction; the writers' lock
 *   config_render.h rd_staged -> JSON or text
 */
#ifndef ROCEDP_CONFIG_H
#define ROCEDP_CONFIG_H

#include <net/if.h>

#include "rocedp.h"

#define RD_CTS_NAME_MAX 32
#define RD_CFG_N_FEATURES 5 /* ROCEDP_F_* bits, by name */
#define RD_CFG_N_CHOICES (ROCEDP_FLOWLET_HASH + 1)

struct rd_cfg_port {
	__u32 ifindex;
	struct rocedp_port_cfg pc;
	__u64 hold_bytes; /* with ROCEDP_PORTF_HOLD_QUEUE */
	struct rocedp_trim_port trim; /* with ROCEDP_PORTF_ADMIT */
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
	/* "attach": the ports `rocedp start` attaches; config load skips it */
	char (*attach_ports)[IF_NAMESIZE];
	unsigned int n_attach;
	int attach_mode; /* enum rd_attach_mode */
};

void rd_staged_defaults(struct rd_staged *s);
void rd_staged_free(struct rd_staged *s);

/* The config file's names: features, flowlet choices, classes (NULL end) */
extern const char *const rd_cfg_feature_names[RD_CFG_N_FEATURES];
extern const char *const rd_cfg_choice_names[RD_CFG_N_CHOICES];
extern const char *const rd_cfg_class_keys[ROCEDP_CLASS_MAX + 1];
/* A comma list of feature names (and hash, all, none) to ROCEDP_F_* bits;
 * -EINVAL for an unknown name. */
int rd_cfg_features_parse(const char *list, __u32 *out);
/* The reverse: the names of the bits set, comma-separated, "" for none. */
void rd_cfg_features_str(__u32 features, char *buf, size_t len);

/* The order of the staged tables (sorted, so they can be merged). */
int rd_cfg_route_cmp(const void *a, const void *b);
int rd_cfg_group_cmp(const void *a, const void *b);
int rd_cfg_port_cmp(const void *a, const void *b);
/* qsort() that accepts an empty table with a NULL base */
void rd_cfg_qsort(void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *));
/* Room for element n of *arr (capacity *cap, doubled as needed). -ENOMEM. */
int rd_cfg_grow(void **arr, unsigned int n, unsigned int *cap, size_t sz);
/* Does s define group id? (s->groups sorted) */
bool rd_cfg_has_group(const struct rd_staged *s, __u32 id);

/* Classes whose remark action can be set (not non_ip, not malformed). */
bool rd_qos_class_settable(int cls);
void rd_qos_settable_classes(char *buf, size_t len);

#endif
