// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp config show|dump|check|load|set: arguments in, the config modules
 * (config_*.h) called, results printed. Schema: docs/config.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "rocedp.h"
#include "config.h"
#include "config_json.h"
#include "config_parse.h"
#include "config_read.h"
#include "config_render.h"
#include "config_txn.h"
#include "escape.h"

static void print_json(struct json_object *o, int flags)
{
	puts(json_object_to_json_string_ext(o, flags));
}

/* A value given on the command line: JSON if it is a whole JSON scalar or
 * container, else a string (so that mode=qp needs no quotes), or for the
 * list keys, comma-separated words. */
static int cli_value(const char *key, const char *val, struct json_object **out)
{
	const char *last = strrchr(key, '.');
	struct json_tokener *tok;
	size_t len = strlen(val);
	bool is_null, ok;
	char *buf;

	last = last ? last + 1 : key;
	*out = NULL;
	/* a list as words (features=forward,remark); one that starts with
	 * '[' is JSON, as in the file, and is parsed below */
	if ((!strcmp(last, "features") || !strcmp(last, "class_optout")) &&
	    val[strspn(val, " \t")] != '[') {
		char *dup = strdup(val), *save = NULL, *t;

		if (!dup)
			return -ENOMEM;
		*out = json_object_new_array();
		for (t = strtok_r(dup, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			json_object_array_add(*out, json_object_new_string(t));
		free(dup);
		return 0;
	}
	/* the trailing space ends a bare number or literal ("48", "null") */
	if (asprintf(&buf, "%s ", val) < 0)
		return -ENOMEM;
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return -ENOMEM;
	}
	*out = json_tokener_parse_ex(tok, buf, len + 1);
	ok = json_tokener_get_error(tok) == json_tokener_success &&
	     json_tokener_get_parse_end(tok) >= len;
	is_null = ok && !*out;
	if (!ok) {
		json_object_put(*out);
		*out = NULL;
	}
	json_tokener_free(tok);
	/* a NUL or a key twice in a JSON value, as in a file */
	if (ok && rd_json_strict(key, buf, len + 1)) {
		json_object_put(*out);
		*out = NULL;
		free(buf);
		return -EINVAL;
	}
	free(buf);
	if (is_null)
		return 1; /* null: remove the key, back to its default */
	if (!*out)
		*out = json_object_new_string(val);
	return 0;
}

static int set_pair(struct json_object *root, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct json_object *node = root, *next, *v;
	char *key, *seg, *save = NULL, *nseg;
	unsigned long long idx;
	int err;

	if (!eq || eq == arg) {
		rd_err("config", "%s: expected KEY=VALUE (e.g. hash.mode=qp)",
		       arg);
		return -EINVAL;
	}
	key = strndup(arg, eq - arg);
	if (!key)
		return -ENOMEM;
	err = cli_value(key, eq + 1, &v);
	if (err < 0)
		goto out;
	seg = strtok_r(key, ".", &save);
	for (; seg; seg = nseg) {
		nseg = strtok_r(NULL, ".", &save);
		if (json_object_is_type(node, json_type_array)) {
			if (!rd_parse_uint_str(seg, INT_MAX, &idx) ||
			    idx >= json_object_array_length(node)) {
				rd_err("config", "%.*s: no element %s",
				       (int)(eq - arg), arg, seg);
				json_object_put(v);
				err = -EINVAL;
				goto out;
			}
			if (!nseg) {
				if (err == 1)
					json_object_array_del_idx(node, idx, 1);
				else
					json_object_array_put_idx(node, idx, v);
				break;
			}
			node = json_object_array_get_idx(node, idx);
			continue;
		}
		if (!nseg) {
			if (err == 1)
				json_object_object_del(node, seg);
			else
				json_object_object_add(node, seg, v);
			break;
		}
		if (!json_object_object_get_ex(node, seg, &next) ||
		    (!json_object_is_type(next, json_type_object) &&
		     !json_object_is_type(next, json_type_array))) {
			/* e.g. qos.cnp.dscp=48 while qos.cnp is "leave" */
			next = json_object_new_object();
			json_object_object_add(node, seg, next);
		}
		node = next;
	}
	err = 0;
out:
	free(key);
	return err;
}

static int config_show(bool dump)
{
	struct json_object *o;
	struct rd_staged s;
	struct rd_maps m;
	int err;

	err = rd_config_open_maps("config", &m);
	if (err)
		return 1;
	err = rd_config_read_running(&m, &s);
	rd_maps_close(&m);
	if (err) {
		rd_err("config", "cannot read the running config: %s",
		       strerror(-err));
		return 1;
	}
	if (dump || rd_json) {
		o = rd_config_to_json(&s);
		print_json(o, dump ? JSON_C_TO_STRING_NOSLASHESCAPE |
					      JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED :
				     rd_json_flags());
		json_object_put(o);
	} else {
		rd_config_print_text(&s);
	}
	rd_staged_free(&s);
	return 0;
}

/* load FILE or set K=V...: validate everything, then apply once */
static int config_change(int argc, char **argv, bool load)
{
	struct json_object *root = NULL;
	struct rd_staged s, cur;
	struct rd_maps m;
	int err, lock, i;

	/* a file is validated before anything is opened or locked */
	if (load && rd_config_read_json(argv[0], &root))
		return 1;
	if (load && rd_config_parse(root, &s)) {
		json_object_put(root);
		return 1;
	}
	if (rd_config_open_maps("config", &m)) {
		if (load)
			rd_staged_free(&s);
		json_object_put(root);
		return 1;
	}
	lock = rd_config_lock("config");
	if (lock < 0) {
		err = lock;
		goto out;
	}
	if (!load) {
		err = rd_config_read_running(&m, &cur);
		if (err) {
			rd_err("config", "cannot read the running config: %s",
			       strerror(-err));
			goto out;
		}
		root = rd_config_to_json(&cur);
		rd_staged_free(&cur);
		for (i = 0, err = 0; i < argc; i++)
			if (set_pair(root, argv[i]))
				err = -EINVAL;
		if (err)
			goto out;
		err = rd_config_parse(root, &s);
		if (err)
			goto out;
	}
	err = rd_config_apply(&m, &s);
	if (!err)
		rd_cts_names_save(m.fd[RD_MAP_CTS_RULES], &s);
	rd_staged_free(&s);
out:
	if (lock >= 0)
		close(lock);
	json_object_put(root);
	rd_maps_close(&m);
	return err ? 1 : 0;
}

int cmd_config_show(const struct cli_call *c)
{
	(void)c;
	return config_show(false);
}

int cmd_config_dump(const struct cli_call *c)
{
	(void)c;
	return config_show(true);
}

int cmd_config_check(const struct cli_call *c)
{
	static struct rd_host_offline off; /* 16 KB of names */
	bool offline = cli_set(c, "offline");
	const char *file = c->argv[0];
	size_t l = RD_ESC_LEN(strlen(file));
	char *esc;

	/* the table lets it run without root: only --offline may */
	if (!offline && geteuid() != 0) {
		rd_err("config", "needs root (CAP_BPF and CAP_NET_ADMIN); "
				 "check --offline needs none");
		return CLI_FAIL;
	}
	if (offline)
		rd_host_offline_init(&off);
	if (rd_config_check_file_host(file, offline ? &off.h : NULL))
		return CLI_FAIL;
	esc = malloc(l);
	if (!esc)
		return CLI_FAIL;
	if (rd_json)
		printf("{\"file\":\"%s\",\"valid\":true}\n",
		       rd_esc_json(file, esc, l));
	else
		printf("%s: valid\n", rd_esc_term(file, esc, l));
	free(esc);
	return CLI_OK;
}

int cmd_config_load(const struct cli_call *c)
{
	return config_change(c->argc, c->argv, true);
}

int cmd_config_set(const struct cli_call *c)
{
	return config_change(c->argc, c->argv, false);
}
