// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp sonic VERB ...: SONiC CONFIG_DB in (docs/sonic.md). One table row
 * per verb; `sync` (the live Redis daemon) adds its own row.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "rocedp.h"
#include "config_json.h"
#include "sonic.h"
#include "sonic_sync.h"

static int sonic_import(int argc, char **argv)
{
	struct rd_sonic_opts o = { 0 };
	struct json_object *db, *out;
	const char *file = NULL, *text;
	int i, err, warns;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--strict")) {
			o.strict = 1;
		} else if (!strcmp(argv[i], "--ports") && i + 1 < argc) {
			o.ports = argv[++i];
		} else if (!strncmp(argv[i], "--ports=", 8)) {
			o.ports = argv[i] + 8;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			rd_err("sonic", "import: unknown option %s", argv[i]);
			return 2;
		} else if (!file) {
			file = argv[i];
		} else {
			rd_err("sonic", "import: one CONFIG_DB.json only");
			return 2;
		}
	}
	if (!file) {
		rd_err("sonic",
		       "import CONFIG_DB.json [--ports MAP] [--strict]: no file");
		return 2;
	}
	if (rd_config_read_json(file, &db))
		return 1;
	err = rd_sonic_convert(db, &o, &out, &warns);
	json_object_put(db);
	if (err)
		return 1;
	text = json_object_to_json_string_ext(
		out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		rd_err("sonic", "import: out of memory");
		json_object_put(out);
		return 1;
	}
	printf("%s\n", text);
	json_object_put(out);
	return fflush(stdout) ? 1 : 0;
}

static const struct {
	const char *verb;
	int (*fn)(int argc, char **argv);
	const char *help;
} sonic_cmds[] = {
	{ "import", sonic_import,
	  "import CONFIG_DB.json [--ports MAP] [--strict]" },
	{ "sync", rd_sonic_sync_main,
	  "sync --redis unix:PATH|HOST:PORT [--ports MAP] [--strict] "
	  "[--port-interval SEC] [--queue-interval SEC]" },
};

int cmd_sonic(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < sizeof(sonic_cmds) / sizeof(sonic_cmds[0]);
	     i++)
		if (!strcmp(argv[1], sonic_cmds[i].verb))
			return sonic_cmds[i].fn(argc - 1, argv + 1);
	rd_err("sonic", "%s: unknown verb; one of:", argc > 1 ? argv[1] : "");
	for (i = 0; i < sizeof(sonic_cmds) / sizeof(sonic_cmds[0]); i++)
		fprintf(stderr, "  rocedp sonic %s\n", sonic_cmds[i].help);
	return 2;
}
