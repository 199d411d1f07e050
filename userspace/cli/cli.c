// SPDX-License-Identifier: GPL-2.0
/* What the command files share. */
#include "cli.h"
#include "config_txn.h"
#include "util.h"

/* the library's, so the daemons and every command print the same line */
int cli_maps_open(struct rd_maps *m, const char *obj)
{
	return rd_config_open_maps(obj, m);
}
