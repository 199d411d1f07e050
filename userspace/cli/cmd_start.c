// SPDX-License-Identifier: GPL-2.0
/*
 * The commands start / stop: the dataplane from one config file, as
 * rocedp.service brings it up at boot. start attaches the ports named in
 * the file's "attach" section in its mode, then loads the file (the same
 * attach and config load an operator would type, in that order: the
 * config's ECN ports must have their programs). A second start keeps
 * the programs of ports already attached in that mode and loads the file
 * again, so it is idempotent. stop detaches everything (rd_detach, as
 * detach --all): no programs, pins, qdiscs or sync left.
 */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "rocedp.h"
#include "config.h"
#include "config_json.h"
#include "config_parse.h"
#include "attach.h"
#include "attach_state.h"

#define RD_START_CONFIG "/etc/rocedp/rocedp.json"

static const char *const mode_names[] = { "native", "generic", "tc" };

/*
 * Run the table's command obj [verb] on av (av[0] its last word), as if
 * typed: parsed by the same parser, so start does what config load does.
 * Attach and detach are library calls (attach.h).
 */
static int run(const struct cli_call *c, const char *obj, const char *verb,
	       int n, char **av)
{
	const struct cli_cmd *cmd = cli_find(c->tab, obj, verb);
	struct cli_call sub;
	int ret;

	if (!cmd)
		return CLI_FAIL;
	ret = cli_parse(c->tab, cmd, n, av, &sub);
	if (ret)
		return ret < 0 ? CLI_FAIL : ret;
	return cmd->fn(&sub);
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

int cmd_start(const struct cli_call *c)
{
	const char *file = cli_val(c, "config");
	struct json_object *root;
	struct rd_staged s;
	unsigned int i;
	int ret = CLI_OK;

	if (!file)
		file = RD_START_CONFIG;
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
	if (!all_attached(&s)) {
		struct rd_attach_opts o = { .mode = s.attach_mode };
		const char **names = calloc(s.n_attach, sizeof(*names));

		if (!names) {
			rd_staged_free(&s);
			rd_err("start", "out of memory");
			return 1;
		}
		for (i = 0; i < s.n_attach; i++)
			names[i] = s.attach_ports[i];
		ret = rd_attach(names, s.n_attach, &o) ? CLI_FAIL : CLI_OK;
		free(names);
	}
	if (!ret) {
		char *lv[] = { "load", (char *)file, NULL };

		ret = run(c, "config", "load", 2, lv);
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

int cmd_stop(const struct cli_call *c)
{
	(void)c;
	return rd_detach(NULL, 0, true) ? CLI_FAIL : CLI_OK;
}
