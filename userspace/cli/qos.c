// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp qos show|set|rules: the per-class remark profile (rd_qos) and the
 * CTS rules with their hit counters. The file form is the config's "qos"
 * and "cts_rules" sections (docs/config.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "commands.h"
#include "rocedp.h"
#include "engine.h"
#include "names.h"
#include "config.h"
#include "config_read.h"
#include "config_render.h"
#include "config_txn.h"
#include "stats.h"

/* Sum of one u64 slot of a per-CPU array; 0 when it cannot be read. */
static __u64 percpu_sum(int fd, __u32 key)
{
	__u64 sum = 0;

	return rd_percpu_sum(fd, &key, &sum, 1) ? 0 : sum;
}

static int qos_show(const struct rd_maps *m)
{
	struct json_object *root = NULL, *arr = NULL, *o;
	__u64 pkts, ctr[ROCEDP_CTR_MAX];
	struct rocedp_qos q;
	__u32 k;

	/* counters that cannot be read show as 0 */
	if (rd_counters_read(m->fd[RD_MAP_STATS], ctr))
		memset(ctr, 0, sizeof(ctr));
	if (rd_json) {
		root = json_object_new_object();
		arr = json_object_new_array();
	} else {
		printf("%-11s %-6s %4s %4s %16s\n", "class", "action", "dscp",
		       "pcp", "packets");
	}
	for (k = 0; k < ROCEDP_CLASS_MAX; k++) {
		if (!rd_qos_class_settable(k))
			continue;
		if (bpf_map_lookup_elem(m->fd[RD_MAP_QOS], &k, &q)) {
			rd_err("qos", "rd_qos %s: %s", rd_class_name(k),
			       strerror(errno));
			json_object_put(root);
			json_object_put(arr);
			return 1;
		}
		pkts = ctr[ROCEDP_CTR_CLASS_BASE + k];
		if (!rd_json) {
			if (q.action != ROCEDP_QOS_SET_DSCP)
				printf("%-11s %-6s %4s %4s %16llu\n",
				       rd_class_name(k), "leave", "-", "-",
				       (unsigned long long)pkts);
			else if (q.set_pcp)
				printf("%-11s %-6s %4u %4u %16llu\n",
				       rd_class_name(k), "set", q.dscp, q.pcp,
				       (unsigned long long)pkts);
			else
				printf("%-11s %-6s %4u %4s %16llu\n",
				       rd_class_name(k), "set", q.dscp, "-",
				       (unsigned long long)pkts);
			continue;
		}
		o = json_object_new_object();
		json_object_object_add(
			o, "class", json_object_new_string(rd_class_name(k)));
		json_object_object_add(
			o, "action",
			json_object_new_string(q.action == ROCEDP_QOS_SET_DSCP ?
						       "set" :
						       "leave"));
		if (q.action == ROCEDP_QOS_SET_DSCP) {
			json_object_object_add(o, "dscp",
					       json_object_new_int(q.dscp));
			if (q.set_pcp)
				json_object_object_add(
					o, "pcp", json_object_new_int(q.pcp));
		}
		json_object_object_add(o, "packets",
				       json_object_new_uint64(pkts));
		json_object_array_add(arr, o);
	}
	if (rd_json) {
		json_object_object_add(root, "classes", arr);
		json_object_object_add(
			root, "remarked",
			json_object_new_uint64(ctr[ROCEDP_CTR_REMARKED]));
		json_object_object_add(
			root, "remark_same",
			json_object_new_uint64(ctr[ROCEDP_CTR_REMARK_SAME]));
		puts(json_object_to_json_string_ext(root, rd_json_flags()));
		json_object_put(root);
	} else {
		printf("remarked %llu, already right %llu\n",
		       (unsigned long long)ctr[ROCEDP_CTR_REMARKED],
		       (unsigned long long)ctr[ROCEDP_CTR_REMARK_SAME]);
	}
	return 0;
}

static int parse_num(const char *what, const char *s, unsigned long max,
		     unsigned long *out)
{
	char *end;

	errno = 0;
	if (*s >= '0' && *s <= '9') {
		*out = strtoul(s, &end, 10);
		if (!errno && !*end && *out <= max)
			return 0;
		if ((!errno || errno == ERANGE) && !*end) {
			rd_err("qos", "%s %s is out of range 0..%lu", what, s,
			       max);
			return -EINVAL;
		}
	}
	rd_err("qos", "%s '%s' is not a number 0..%lu", what, s, max);
	return -EINVAL;
}

/* set CLASS dscp D [pcp P] | set CLASS leave: validated, then one write */
static int qos_set(int argc, char **argv)
{
	struct rocedp_qos q = { 0 };
	unsigned long v;
	struct rd_maps m;
	char all[128];
	int cls, i, err = 0;

	rd_qos_settable_classes(all, sizeof(all));
	if (argc < 2) {
		rd_err("qos",
		       "usage: rocedp qos set CLASS dscp D [pcp P] | CLASS leave");
		return 2;
	}
	cls = rd_class_from_name(argv[0]);
	if (cls < 0 || !rd_qos_class_settable(cls)) {
		rd_err("qos", "%s: unknown class (expected one of: %s)",
		       argv[0], all);
		return 2;
	}
	if (!strcmp(argv[1], "leave")) {
		if (argc > 2) {
			rd_err("qos", "leave: unexpected argument '%s'",
			       argv[2]);
			return 2;
		}
	} else {
		q.action = ROCEDP_QOS_SET_DSCP;
		for (i = 1; i < argc; i += 2) {
			bool dscp = !strcmp(argv[i], "dscp");

			if (!dscp && strcmp(argv[i], "pcp")) {
				rd_err("qos",
				       "%s: unknown keyword (expected dscp, pcp or leave)",
				       argv[i]);
				return 2;
			}
			if (i + 1 >= argc) {
				rd_err("qos", "%s: missing value", argv[i]);
				return 2;
			}
			if (parse_num(argv[i], argv[i + 1], dscp ? 63 : 7, &v))
				return 2;
			if (dscp) {
				q.dscp = v;
				err |= 1;
			} else {
				q.set_pcp = 1;
				q.pcp = v;
			}
		}
		if (!(err & 1)) {
			rd_err("qos", "%s: missing dscp D", argv[0]);
			return 2;
		}
	}
	if (rd_config_open_maps("qos", &m))
		return 1;
	/* the config's writer: under its lock, as a load writes rd_qos */
	err = rd_config_qos_set(&m, "qos", cls, &q);
	rd_maps_close(&m);
	return err ? 1 : 0;
}

static int qos_rules(const struct rd_maps *m)
{
	struct json_object *arr = NULL, *o, *root;
	struct rd_staged s;
	unsigned int i;
	__u64 hits;
	int err;

	err = rd_config_read_running(m, &s);
	if (err) {
		rd_err("qos", "cannot read the CTS rules: %s", strerror(-err));
		return 1;
	}
	if (rd_json)
		arr = json_object_new_array();
	else
		printf("%u CTS rules (first match wins)\n", s.cfg.n_cts_rules);
	for (i = 0; i < s.cfg.n_cts_rules; i++) {
		hits = percpu_sum(m->fd[RD_MAP_CTS_STATS], i);
		o = rd_cts_rule_to_json(&s.rules[i], s.rule_names[i]);
		if (rd_json) {
			json_object_object_add(o, "index",
					       json_object_new_int(i));
			json_object_object_add(o, "hits",
					       json_object_new_uint64(hits));
			json_object_array_add(arr, o);
			continue;
		}
		/* the name, if any, is part of the rule's JSON */
		printf("%2u %12llu hits  %s\n", i, (unsigned long long)hits,
		       json_object_to_json_string_ext(
			       o, JSON_C_TO_STRING_PLAIN |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
	if (rd_json) {
		root = json_object_new_object();
		json_object_object_add(root, "rules", arr);
		puts(json_object_to_json_string_ext(root, rd_json_flags()));
		json_object_put(root);
	}
	rd_staged_free(&s);
	return 0;
}

int cmd_qos_set(const struct cli_call *c)
{
	return qos_set(c->argc, c->argv);
}

/* show or rules: the maps opened for one reader */
static int qos_read(bool rules)
{
	struct rd_maps m;
	int ret;

	if (rd_config_open_maps("qos", &m))
		return CLI_FAIL;
	ret = rules ? qos_rules(&m) : qos_show(&m);
	rd_maps_close(&m);
	return ret;
}

int cmd_qos_show(const struct cli_call *c)
{
	(void)c;
	return qos_read(false);
}

int cmd_qos_rules(const struct cli_call *c)
{
	(void)c;
	return qos_read(true);
}
