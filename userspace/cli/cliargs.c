// SPDX-License-Identifier: GPL-2.0
/*
 * The one option parser of every command, driven by the table (cliargs.h):
 * long options as --name VALUE or --name=VALUE, short ones as -x VALUE or
 * -xVALUE, operands anywhere ("--" ends the options), -h/--help and a
 * trailing "help" for the command's usage. Global options (-j, -p,
 * --pin-dir) are taken by main.c before.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cliargs.h"
#include "util.h"

static int opt_index(const struct cli_cmd *cmd, const char *name, size_t len)
{
	int i;

	for (i = 0; cmd->opts[i].name; i++)
		if (strlen(cmd->opts[i].name) == len &&
		    !strncmp(cmd->opts[i].name, name, len))
			return i;
	return -1;
}

static int short_index(const struct cli_cmd *cmd, char c)
{
	int i;

	for (i = 0; c && cmd->opts[i].name; i++)
		if (cmd->opts[i].short_name == c)
			return i;
	return -1;
}

static int named(const struct cli_call *c, const char *name)
{
	int i = opt_index(c->cmd, name, strlen(name));

	if (i < 0) {
		/* a command asking for an option its row lacks: a bug */
		fprintf(stderr, "rocedp: %s: no option --%s in the table\n",
			c->cmd->obj, name);
		abort();
	}
	return i;
}

const char *cli_val(const struct cli_call *c, const char *name)
{
	return c->val[named(c, name)];
}

bool cli_set(const struct cli_call *c, const char *name)
{
	return c->set[named(c, name)];
}

static void verr(const struct cli_cmd *cmd, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (cmd->verb)
		rd_err(cmd->obj, "%s: %s", cmd->verb, msg);
	else
		rd_err(cmd->obj, "%s", msg);
}

static int usage_err(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int usage_err(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(cmd, fmt, ap);
	va_end(ap);
	return CLI_USAGE;
}

int cli_usage_err(const struct cli_call *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c->cmd, fmt, ap);
	va_end(ap);
	return CLI_USAGE;
}

/* "see 'rocedp sonic help'": where the usage of cmd is */
static const char *see(const struct cli_cmd *cmd, char *buf, size_t len)
{
	snprintf(buf, len, "see 'rocedp %s%s%s help'", cmd->obj,
		 cmd->verb ? " " : "", cmd->verb ? cmd->verb : "");
	return buf;
}

/* An option word at argv[*i]: its value taken, *i moved past it. */
static int take_opt(const struct cli_cmd *cmd, int argc, char **argv, int *i,
		    struct cli_call *c)
{
	const char *a = argv[*i], *eq = NULL, *val = NULL;
	char buf[96];
	int k;

	if (a[1] == '-') {
		eq = strchr(a + 2, '=');
		k = opt_index(cmd, a + 2,
			      eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (k < 0 && !strcmp(a, "--help"))
			return -1;
		if (k < 0)
			return usage_err(cmd, "unknown option '%s' (%s)", a,
					 see(cmd, buf, sizeof(buf)));
		if (eq && !cmd->opts[k].arg)
			return usage_err(cmd, "--%s takes no value",
					 cmd->opts[k].name);
		if (eq)
			val = eq + 1;
	} else {
		k = short_index(cmd, a[1]);
		if (k < 0 && !strcmp(a, "-h"))
			return -1;
		if (k < 0 || (a[2] && !cmd->opts[k].arg))
			return usage_err(cmd, "unknown option '%s' (%s)", a,
					 see(cmd, buf, sizeof(buf)));
		if (a[2])
			val = a + 2;
	}
	if (cmd->opts[k].arg && !val) {
		if (*i + 1 >= argc)
			return usage_err(cmd, "%s needs a value (%s)", a,
					 cmd->opts[k].arg);
		val = argv[++*i];
	}
	c->set[k] = true;
	c->val[k] = val;
	return 0;
}

int cli_parse(const struct cli_table *tab, const struct cli_cmd *cmd, int argc,
	      char **argv, struct cli_call *c)
{
	const char *last = argv[argc - 1];
	char buf[96];
	int i, n = 0, err;
	bool opts = true;

	memset(c, 0, sizeof(*c));
	c->tab = tab;
	c->cmd = cmd;
	/* operands are gathered in place: argv[1..n] */
	c->argv = argv + 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (opts && !strcmp(a, "--")) {
			opts = false;
		} else if (opts && a[0] == '-' && a[1]) {
			err = take_opt(cmd, argc, argv, &i, c);
			if (err)
				return err;
		} else {
			argv[1 + n++] = argv[i];
		}
	}
	c->argc = n;
	c->argv[n] = NULL;
	/* `rocedp attach help`, `rocedp config check help` */
	if (n == 1 && !strcmp(c->argv[0], "help") && !strcmp(last, "help"))
		return -1;
	for (i = 0; cmd->opts[i].name; i++)
		if ((cmd->opts[i].flags & CLI_REQUIRED) && !c->set[i])
			return usage_err(cmd, "--%s %s is required (%s)",
					 cmd->opts[i].name, cmd->opts[i].arg,
					 see(cmd, buf, sizeof(buf)));
	if (n < cmd->min_args)
		return usage_err(cmd, "%s: missing (%s)",
				 cmd->args[0] ? cmd->args : "an operand",
				 see(cmd, buf, sizeof(buf)));
	if (cmd->max_args >= 0 && n > cmd->max_args)
		return usage_err(cmd, "unexpected argument '%s' (%s)",
				 c->argv[cmd->max_args],
				 see(cmd, buf, sizeof(buf)));
	return 0;
}

const struct cli_cmd *cli_find(const struct cli_table *tab, const char *obj,
			       const char *verb)
{
	unsigned int i;

	for (i = 0; i < tab->n_cmds; i++) {
		const struct cli_cmd *c = &tab->cmds[i];

		if (strcmp(c->obj, obj))
			continue;
		if (!verb && !c->verb)
			return c;
		if (verb && c->verb && !strcmp(c->verb, verb))
			return c;
	}
	return NULL;
}

bool cli_has_verbs(const struct cli_table *tab, const char *obj)
{
	unsigned int i;

	for (i = 0; i < tab->n_cmds; i++)
		if (!strcmp(tab->cmds[i].obj, obj) && tab->cmds[i].verb)
			return true;
	return false;
}
