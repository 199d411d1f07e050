/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shape of the command table (objects, commands, options with their
 * help; the table itself is cmdtab.c) and the one parser that reads a
 * command line against it (cliargs.c). Commands get a parsed cli_call:
 * operands and option values, nothing left to parse but the values.
 */
#ifndef ROCEDP_CLIARGS_H
#define ROCEDP_CLIARGS_H

#include <stdbool.h>
#include <stdio.h>

/* exit codes, the same for every command (rocedp(8), EXIT STATUS) */
#define CLI_OK 0
#define CLI_FAIL 1 /* it was understood, and did not succeed */
#define CLI_USAGE 2 /* bad syntax, unknown option, bad option value */
#define CLI_NOT_ATTACHED 3 /* status: nothing attached (LSB's "not running") */

/* cli_opt.flags */
#define CLI_REQUIRED 0x1u /* must be given: printed without [ ] */

/* cli_cmd.flags */
#define CLI_ROOT 0x1u /* needs root (CAP_BPF, CAP_NET_ADMIN) */
#define CLI_HIDDEN 0x2u /* a test hook: runs, kept out of the user docs */
#define CLI_DEFAULT 0x4u /* the verb run when the object is given alone */

#define CLI_MAX_OPTS 16

struct cli_opt {
	const char *name; /* long name, without "--" */
	char short_name; /* -x, or 0 */
	const char *arg; /* its value's placeholder; NULL for a flag */
	unsigned int flags;
	const char *help;
};

struct cli_call;
struct cli_table;

struct cli_cmd {
	const char *obj;
	const char *verb; /* NULL: the object is the command */
	/* operands in synopsis form; alternative forms split by a top-level
	 * '|' ("CLASS dscp D [pcp P]|CLASS leave") */
	const char *args;
	int min_args, max_args; /* operand count; max -1: no limit */
	unsigned int flags;
	int (*fn)(const struct cli_call *c);
	const char *summary; /* one line */
	const char *desc; /* the man page's paragraph; plain text */
	const struct cli_opt *opts; /* ends with { NULL } */
};

/* The whole command line: its commands and the global options. */
struct cli_table {
	const struct cli_cmd *cmds;
	unsigned int n_cmds;
	const struct cli_opt *globals; /* ends with { NULL } */
};

/* One parsed command line: its operands and option values. */
struct cli_call {
	const struct cli_table *tab; /* what it was parsed against */
	const struct cli_cmd *cmd;
	int argc; /* operands only, options taken out */
	char **argv;
	const char *val[CLI_MAX_OPTS]; /* by option index; last one wins */
	bool set[CLI_MAX_OPTS];
};

/* The value of option name ("mode"), NULL when not given; a name the
 * command does not have is a bug: abort(). */
const char *cli_val(const struct cli_call *c, const char *name);
/* Whether option name was given. */
bool cli_set(const struct cli_call *c, const char *name);

/*
 * Parse argv (argv[0] the command's last word) against cmd into *c: 0,
 * CLI_USAGE after the one error line, or -1 when help was asked for
 * (printed, exit 0).
 */
int cli_parse(const struct cli_table *tab, const struct cli_cmd *cmd, int argc,
	      char **argv, struct cli_call *c);

/* The one error line of a usage mistake in c's command; CLI_USAGE. */
int cli_usage_err(const struct cli_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The command obj [verb] of tab; NULL if there is none. */
const struct cli_cmd *cli_find(const struct cli_table *tab, const char *obj,
			       const char *verb);
/* Whether obj has verbs (rows with a verb). */
bool cli_has_verbs(const struct cli_table *tab, const char *obj);

#endif
