// SPDX-License-Identifier: GPL-2.0
/*
 * Help, usage and the man page's generated sections, all from the table
 * (cliargs.h). `rocedp help` prints one line per object, the spec the bash
 * completion reads (docs/cli.md): commands split by '|', options in [ ]
 * by their long names, upper-case words for what an operand is.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "clihelp.h"
#include "commands.h"
#include "config_keys.h"
#include "rocedp.h"

static bool first_of_obj(const struct cli_table *tab, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (!strcmp(tab->cmds[j].obj, tab->cmds[i].obj))
			return false;
	return true;
}

static void opts_spec(FILE *f, const struct cli_cmd *c, bool lead)
{
	const struct cli_opt *o;

	for (o = c->opts; o->name; o++) {
		bool req = o->flags & CLI_REQUIRED;

		fprintf(f, "%s%s--%s%s%s%s", lead ? " " : "", req ? "" : "[",
			o->name, o->arg ? " " : "", o->arg ? o->arg : "",
			req ? "" : "]");
		lead = true;
	}
}

/*
 * One command's usage: each of its forms (args split at the top-level
 * '|') as "[verb ]form [opts]", joined by sep; the options after the
 * first form.
 */
static void cmd_spec(FILE *f, const struct cli_cmd *c, const char *sep)
{
	const char *p = c->args, *end;
	int depth;
	bool first = true;

	do {
		for (end = p, depth = 0; *end && (*end != '|' || depth); end++)
			depth += (*end == '[') - (*end == ']');
		fprintf(f, "%s%s", first ? "" : sep, c->verb ? c->verb : "");
		if (end > p)
			fprintf(f, "%s%.*s", c->verb ? " " : "", (int)(end - p),
				p);
		if (first)
			opts_spec(f, c, c->verb || end > p);
		first = false;
		p = *end ? end + 1 : end;
	} while (*p);
}

/* the object's line: every verb's spec, joined by '|' */
static void obj_spec(FILE *f, const struct cli_table *tab, const char *obj)
{
	unsigned int i;
	bool first = true;

	for (i = 0; i < tab->n_cmds; i++) {
		if (strcmp(tab->cmds[i].obj, obj) ||
		    (tab->cmds[i].flags & CLI_HIDDEN))
			continue;
		if (!first)
			fputc('|', f);
		cmd_spec(f, &tab->cmds[i], "|");
		first = false;
	}
}

void cli_help_all(FILE *f, const struct cli_table *tab)
{
	unsigned int i;

	fprintf(f,
		"Usage: rocedp [-j|--json] [-p|--pretty] [--pin-dir DIR] OBJECT { COMMAND | help }\n"
		"       rocedp help [OBJECT [COMMAND]]\n"
		"Objects and commands:\n");
	for (i = 0; i < tab->n_cmds; i++) {
		if (!first_of_obj(tab, i) || (tab->cmds[i].flags & CLI_HIDDEN))
			continue;
		fprintf(f, "  %-14s", tab->cmds[i].obj);
		obj_spec(f, tab, tab->cmds[i].obj);
		fputc('\n', f);
	}
	fprintf(f, "Exit status: 0 ok, 1 failure, 2 usage error; "
		   "status: 3 when nothing is attached.\n"
		   "See rocedp(8) and 'rocedp help OBJECT'.\n");
}

static void opt_line(FILE *f, const struct cli_opt *o)
{
	char name[96];
	int n;

	if (o->short_name)
		n = snprintf(name, sizeof(name), "-%c, --%s", o->short_name,
			     o->name);
	else
		n = snprintf(name, sizeof(name), "    --%s", o->name);
	if (o->arg)
		snprintf(name + n, sizeof(name) - n, " %s", o->arg);
	if (strlen(name) > 24)
		fprintf(f, "  %s\n  %-24s %s\n", name, "", o->help);
	else
		fprintf(f, "  %-24s %s\n", name, o->help);
}

int cli_help_obj(FILE *f, const struct cli_table *tab, const char *obj,
		 const char *verb)
{
	const struct cli_opt *o;
	unsigned int i, n = 0;
	char sep[64];

	snprintf(sep, sizeof(sep), "\n       rocedp %s ", obj);
	for (i = 0; i < tab->n_cmds; i++) {
		const struct cli_cmd *c = &tab->cmds[i];

		if (strcmp(c->obj, obj) ||
		    (verb && c->verb && strcmp(c->verb, verb)))
			continue;
		fprintf(f, "%sUsage: rocedp %s ", n ? "\n" : "", c->obj);
		cmd_spec(f, c, sep);
		fprintf(f, "\n%s\n", c->summary);
		if (c->opts->name)
			fprintf(f, "Options:\n");
		for (o = c->opts; o->name; o++)
			opt_line(f, o);
		n++;
	}
	if (!n)
		return -1;
	return 0;
}

/* ------------------------------------------------------------ man page */

/* text for roff: "\" escaped, "-" as a minus, no line starting with '.' */
static void roff_text(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/*
 * A synopsis in roff: options and literal keywords bold, placeholders
 * (upper-case words) italic, brackets and bars roman.
 */
static void roff_spec(FILE *f, const char *s)
{
	char word[128];
	size_t n;

	while (*s) {
		n = strcspn(s, " []|{}");
		if (!n) {
			fputc(*s++, f);
			continue;
		}
		snprintf(word, sizeof(word), "%.*s", (int)n, s);
		fputs(word[0] >= 'A' && word[0] <= 'Z' ? "\\fI" : "\\fB", f);
		roff_text(f, word);
		fputs("\\fR", f);
		s += n;
	}
}

static void man_synopsis(FILE *f, const struct cli_table *tab)
{
	unsigned int i;

	fprintf(f, ".SH SYNOPSIS\n"
		   ".B rocedp\n"
		   ".RB [ \\-j | \\-\\-json ]\n"
		   ".RB [ \\-p | \\-\\-pretty ]\n"
		   ".RB [ \\-\\-pin\\-dir\n"
		   ".IR DIR ]\n"
		   ".I OBJECT\n"
		   ".RI { \" COMMAND \" | \" \" help \" }\"\n");
	for (i = 0; i < tab->n_cmds; i++) {
		const struct cli_cmd *c = &tab->cmds[i];
		char spec[1024], *line;
		FILE *m;

		if (c->flags & CLI_HIDDEN)
			continue;
		spec[0] = 0;
		m = fmemopen(spec, sizeof(spec), "w");
		if (!m)
			continue;
		cmd_spec(m, c, "\n");
		fclose(m);
		/* one synopsis line per form ("status": none, the name alone) */
		line = strtok(spec, "\n");
		do {
			fprintf(f, ".br\n\\fBrocedp %s\\fR", c->obj);
			if (line) {
				fputc(' ', f);
				roff_spec(f, line);
			}
			fputc('\n', f);
		} while (line && (line = strtok(NULL, "\n")));
	}
}

static void man_opt(FILE *f, const struct cli_opt *o)
{
	fprintf(f, ".TP\n");
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
	fputs("\\fB\\-\\-", f);
	roff_text(f, o->name);
	fputs("\\fR", f);
	if (o->arg) {
		fputc(' ', f);
		roff_spec(f, o->arg);
	}
	fputc('\n', f);
	roff_text(f, o->help);
	fputc('\n', f);
}

static void man_commands(FILE *f, const struct cli_table *tab)
{
	const struct cli_opt *o;
	unsigned int i;

	fprintf(f, ".SH COMMANDS\n");
	for (i = 0; i < tab->n_cmds; i++) {
		const struct cli_cmd *c = &tab->cmds[i];

		if (c->flags & CLI_HIDDEN)
			continue;
		fprintf(f, ".TP\n\\fB%s%s%s\\fR ", c->obj, c->verb ? " " : "",
			c->verb ? c->verb : "");
		roff_spec(f, c->args);
		fputc('\n', f);
		roff_text(f, c->summary);
		fputs(c->desc ? ".\n" : "\n", f);
		if (c->desc) {
			roff_text(f, c->desc);
			fputc('\n', f);
		}
		if (!c->opts->name)
			continue;
		fprintf(f, ".RS\n");
		for (o = c->opts; o->name; o++)
			man_opt(f, o);
		fprintf(f, ".RE\n");
	}
}

static void man_options(FILE *f, const struct cli_table *tab)
{
	const struct cli_opt *o;

	fprintf(f, ".SH OPTIONS\n"
		   "These may come before or after the object.\n");
	for (o = tab->globals; o->name; o++)
		man_opt(f, o);
}

static const struct {
	const char *name;
	void (*gen)(FILE *f, const struct cli_table *tab);
} sections[] = {
	{ "SYNOPSIS", man_synopsis },
	{ "OPTIONS", man_options },
	{ "COMMANDS", man_commands },
};

#define GEN_BEGIN ".\\\" generated from the command table: "
#define GEN_END ".\\\" end of generated section"

int cli_help_man(FILE *out, const struct cli_table *tab, const char *template)
{
	char line[4096];
	bool skip = false;
	unsigned int k;
	FILE *f;

	f = fopen(template, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (skip) {
			skip = strncmp(line, GEN_END, strlen(GEN_END));
			if (!skip)
				fputs(line, out);
			continue;
		}
		fputs(line, out);
		if (strncmp(line, GEN_BEGIN, strlen(GEN_BEGIN)))
			continue;
		for (k = 0; k < sizeof(sections) / sizeof(sections[0]); k++)
			if (!strncmp(line + strlen(GEN_BEGIN), sections[k].name,
				     strlen(sections[k].name)))
				sections[k].gen(out, tab);
		skip = true;
	}
	fclose(f);
	return skip ? -1 : 0; /* a section left open: a broken template */
}

/* `rocedp help [OBJECT [COMMAND]]`, --config-keys, --man FILE */
int cmd_help(const struct cli_call *c)
{
	const char *man = cli_val(c, "man");

	if (cli_set(c, "config-keys"))
		return rd_config_keys_print(stdout) ? CLI_FAIL : CLI_OK;
	if (man) {
		if (cli_help_man(stdout, c->tab, man)) {
			rd_err("help", "%s: not a man page template (%s)", man,
			       strerror(errno ? errno : EINVAL));
			return CLI_FAIL;
		}
		return CLI_OK;
	}
	if (!c->argc) {
		cli_help_all(stdout, c->tab);
		return CLI_OK;
	}
	if (cli_help_obj(stdout, c->tab, c->argv[0],
			 c->argc > 1 ? c->argv[1] : NULL)) {
		rd_err("help", "%s%s%s: no such object or command", c->argv[0],
		       c->argc > 1 ? " " : "", c->argc > 1 ? c->argv[1] : "");
		return CLI_USAGE;
	}
	return CLI_OK;
}
