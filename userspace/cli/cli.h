/* SPDX-License-Identifier: GPL-2.0 */
/* What the command files share (cli.c); the library never includes it. */
#ifndef ROCEDP_CLI_H
#define ROCEDP_CLI_H

#include <stdbool.h>
#include "mapset.h"

/*
 * Open this switch's pinned maps for the command obj: 0, or -errno after
 * printing the one line that names obj, the pin directory and the reason.
 */
int cli_maps_open(struct rd_maps *m, const char *obj);

#endif
