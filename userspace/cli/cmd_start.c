// SPDX-License-Identifier: GPL-2.0
/*
 * The commands start / stop: the dataplane from one config file, as
 * rocedp.service brings it up at boot. start attaches the ports named in
 * the file's "attach" section in its mode, then loads the file (the same
 * attach and config load an operator would type, in that order: the
 * config's ECN ports must have their programs). A second start keeps
 * the programs of ports already attached in that mode and loads the file
 * again, so it is idempotent. stop detaches everything
 * (detach --all): no programs, pins, qdiscs or sync left.
 */
#include <getopt.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "rocedp.h"
#include "config.h"
#include "config_json.h"
#include "config_parse.h"
#include "attach_state.h"

#define RD_START_CONFIG "/etc/rocedp/rocedp.json"

static const char *const mode_names[] = { "native", "generic", "tc" };

/* --config FILE (or the default); NULL after a usage error */
static const char *config_arg(const char *obj, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "config", required_argument, NULL, 'c' },
		{},
	};
	const char *file = RD_START_CONFIG;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:", lo, NULL)) != -1) {
		if (c != 'c') {
			rd_err(obj, "bad arguments (see 'rocedp %s help')",
			       obj);
			return NULL;
		}
		file = optarg;
	}
	if (optind < argc) {
		rd_err(obj, "unexpected argument '%s'", argv[optind]);
		return NULL;
	}
	return file;
}

/*
 * Every port of the file attached in its mode, with its link or filter in
 * place: then a second start leaves the programs alone (attach would load
 * and swap in new ones, and their per-flow state starts over).
 */
static bool all_attached(const struct rd_staged *s)
{
	struct rd_attach_state *st = calloc(1, sizeof(*st));
	struct rd_attached *a;
	bool all = st && !rd_state_read(st);
	unsigned int i;

	for (i = 0; all && i < s->n_attach; i++) {
		a = rd_state_find(st, if_nametoindex(s->attach_ports[i]));
		all = a && !a->gone && !a->missing &&
		      (int)a->mode == s->attach_mode;
	}
	free(st);
	return all;
}

int cmd_start(int argc, char **argv)
{
	struct json_object *root;
	struct rd_staged s;
	const char *file = config_arg("start", argc, argv);
	char **av = NULL;
	unsigned int i;
	int n = 0, ret;

	if (!file)
		return 2;
	/* the whole file is checked before anything is attached */
	if (rd_config_read_json(file, &root))
		return 1;
	ret = rd_config_parse(root, &s);
	json_object_put(root);
	if (ret) {
		rd_err("start", "%s: not valid: nothing attached", file);
		return 1;
	}
	if (!s.n_attach) {
		rd_err("start",
		       "%s: no \"attach\": {\"ports\": [...]} section: nothing to attach",
		       file);
		rd_staged_free(&s);
		return 1;
	}
	av = calloc(s.n_attach + 4, sizeof(*av));
	if (!av) {
		rd_staged_free(&s);
		rd_err("start", "out of memory");
		return 1;
	}
	av[n++] = "attach";
	for (i = 0; i < s.n_attach; i++)
		av[n++] = s.attach_ports[i];
	av[n++] = "--mode";
	av[n++] = (char *)mode_names[s.attach_mode];
	ret = all_attached(&s) ? 0 : cmd_attach(n, av);
	free(av);
	if (!ret) {
		char *lv[] = { "config", "load", (char *)file, NULL };

		ret = cmd_config(3, lv);
		if (ret)
			rd_err("start",
			       "%s: attached, but the config did not load: the ports run the settings they had",
			       file);
	}
	if (!ret && !rd_json)
		printf("started: %u port%s in %s mode, %s loaded\n", s.n_attach,
		       s.n_attach == 1 ? "" : "s", mode_names[s.attach_mode],
		       file);
	rd_staged_free(&s);
	return ret ? 1 : 0;
}

int cmd_stop(int argc, char **argv)
{
	char *av[] = { "detach", "--all", NULL };

	if (argc > 1) {
		rd_err("stop", "unexpected argument '%s'", argv[1]);
		return 2;
	}
	return cmd_detach(2, av);
}
