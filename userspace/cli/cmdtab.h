/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line as data: every object, command and option rocedp
 * takes, with its help text (cmdtab.c, in the shape of cliargs.h). The
 * parser (cliargs.c), `rocedp help`, the man page's SYNOPSIS, OPTIONS and
 * COMMANDS (clihelp.c) and the bash completion (which reads `rocedp
 * help`) are all built from it, so an option cannot be accepted without
 * being documented, or the reverse. A new option is one line in its
 * command's option list.
 */
#ifndef ROCEDP_CMDTAB_H
#define ROCEDP_CMDTAB_H

#include "cliargs.h"

extern const struct cli_table cli_table;

#endif
