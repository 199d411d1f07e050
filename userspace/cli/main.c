// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp [-j|--json] [-p|--pretty] [--pin-dir DIR] OBJECT [VERB] ...
 * (ip/bpftool style; the global options may follow the object too). The
 * objects, commands and options are the table's (cmdtab.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>
#include "rocedp.h"
#include "cliargs.h"
#include "clihelp.h"
#include "cmdtab.h"
#include "commands.h"
#include "pindir.h"
#include "config_render.h"

/* libbpf's own messages only with ROCEDP_DEBUG set: ours name the object */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG || !getenv("ROCEDP_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * Every error line goes through here: under -j it is a JSON object on
 * stdout, as bpftool prints it, so a script reading JSON sees it.
 */
static void err_sink(const char *prog, const char *obj, const char *msg)
{
	struct json_object *o;
	char *line;

	if (!rd_json || asprintf(&line, "%s: %s", obj, msg) < 0) {
		/* LOG_ERR for journald, as the library's own line */
		fprintf(stderr, "%s%s: %s: %s\n", rd_log_prio(3), prog, obj,
			msg);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "error", json_object_new_string(line));
	free(line);
	fflush(stdout);
	printf("%s\n",
	       json_object_to_json_string_ext(
		       o, rd_json_flags() | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(o);
}

/*
 * A global option at argv[i]: applied, and how many words it took (0: not
 * one). Accepted before or after the object, as bpftool does.
 */
static int global_opt(int argc, char **argv, int i)
{
	const char *a = argv[i];

	if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
		rd_json = true;
	} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
		rd_json = rd_pretty = true;
	} else if (!strncmp(a, "--pin-dir=", 10) && a[10]) {
		rd_pin_dir_set(a + 10);
	} else if (!strcmp(a, "--pin-dir")) {
		if (i + 1 >= argc || !argv[i + 1][0]) {
			rd_err("options", "--pin-dir needs a directory");
			return -1;
		}
		rd_pin_dir_set(argv[i + 1]);
		return 2;
	} else {
		return 0;
	}
	return 1;
}

/* Drop the global options after the object (up to "--"); new argc. */
static int take_global_opts(int argc, char **argv)
{
	int i = 2, n = 2, k;

	while (i < argc && strcmp(argv[i], "--")) {
		k = global_opt(argc, argv, i);
		if (k < 0)
			return -1;
		if (!k)
			argv[n++] = argv[i++];
		i += k;
	}
	while (i < argc)
		argv[n++] = argv[i++];
	argv[n] = NULL;
	return n;
}

static bool is_help(const char *a)
{
	return !strcmp(a, "help") || !strcmp(a, "--help") || !strcmp(a, "-h");
}

/* The object's verbs, for the error that names a wrong one. */
static void verbs(const char *obj, char *buf, size_t len)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = 0;
	for (i = 0; i < cli_table.n_cmds && n < len; i++)
		if (!strcmp(cli_table.cmds[i].obj, obj) &&
		    cli_table.cmds[i].verb)
			n += snprintf(buf + n, len - n, "%s ",
				      cli_table.cmds[i].verb);
	snprintf(buf + (n < len ? n : len - 1), len - (n < len ? n : len - 1),
		 "help");
}

/* The command of argv[1] [argv[2]]; *used: the words it took. */
static const struct cli_cmd *lookup(int argc, char **argv, int *used, int *ret)
{
	const struct cli_cmd *c;
	char buf[128];

	*used = 1;
	if (!cli_find(&cli_table, argv[1], NULL) &&
	    !cli_has_verbs(&cli_table, argv[1])) {
		rd_err(argv[1], "unknown object (try 'rocedp help')");
		*ret = CLI_USAGE;
		return NULL;
	}
	if (!cli_has_verbs(&cli_table, argv[1]))
		return cli_find(&cli_table, argv[1], NULL);
	if (argc > 2 && is_help(argv[2]) && argc == 3) {
		cli_help_obj(stdout, &cli_table, argv[1], NULL);
		*ret = CLI_OK;
		return NULL;
	}
	if (argc > 2 && argv[2][0] != '-') {
		c = cli_find(&cli_table, argv[1], argv[2]);
		if (c) {
			*used = 2;
			return c;
		}
	}
	/* no verb: the default one, if the object has one */
	for (c = cli_table.cmds; c < cli_table.cmds + cli_table.n_cmds; c++)
		if (!strcmp(c->obj, argv[1]) && (c->flags & CLI_DEFAULT) &&
		    argc == 2)
			return c;
	verbs(argv[1], buf, sizeof(buf));
	rd_err(argv[1], "unknown command '%s' (%s)", argc > 2 ? argv[2] : "",
	       buf);
	*ret = CLI_USAGE;
	return NULL;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;
	struct cli_call call;
	int k, used, ret = CLI_USAGE;

	libbpf_set_print(libbpf_print);
	rd_err_sink = err_sink;
	while (argc > 1 && argv[1][0] == '-') {
		k = global_opt(argc, argv, 1);
		if (k < 0)
			return CLI_USAGE;
		if (k) {
			argc -= k;
			argv += k;
			continue;
		}
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			cli_help_all(stdout, &cli_table);
			return CLI_OK;
		} else if (!strcmp(argv[1], "-V") ||
			   !strcmp(argv[1], "--version")) {
			printf("rocedp %s\n", ROCEDP_VERSION);
			return CLI_OK;
		} else {
			rd_err("options",
			       "unknown option '%s' (try 'rocedp help')",
			       argv[1]);
			return CLI_USAGE;
		}
	}
	if (argc < 2) {
		cli_help_all(stderr, &cli_table);
		return CLI_USAGE;
	}
	argc = take_global_opts(argc, argv);
	if (argc < 0)
		return CLI_USAGE;
	cmd = lookup(argc, argv, &used, &ret);
	if (!cmd)
		return ret;
	ret = cli_parse(&cli_table, cmd, argc - used, argv + used, &call);
	if (ret < 0) {
		cli_help_obj(stdout, &cli_table, cmd->obj, cmd->verb);
		return CLI_OK;
	}
	if (ret)
		return ret;
	if ((cmd->flags & CLI_ROOT) && geteuid() != 0) {
		rd_err(cmd->obj, "needs root (CAP_BPF and CAP_NET_ADMIN)");
		return CLI_FAIL;
	}
	return cmd->fn(&call);
}
