/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Help, usage and the man page's generated sections, from a command table
 * (clihelp.c). `rocedp help` itself is cmd_help (commands.h).
 */
#ifndef ROCEDP_CLIHELP_H
#define ROCEDP_CLIHELP_H

#include <stdio.h>
#include "cliargs.h"

/* `rocedp help`: every object that is not hidden, one line each */
void cli_help_all(FILE *f, const struct cli_table *tab);
/* one object's usage and options (verb NULL: every verb); -1: none */
int cli_help_obj(FILE *f, const struct cli_table *tab, const char *obj,
		 const char *verb);
/* template (rocedp.8) with its generated sections rebuilt from tab, to f:
 * 0, or -1 when it cannot be read or is malformed */
int cli_help_man(FILE *f, const struct cli_table *tab, const char *template);

#endif
