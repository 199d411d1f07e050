// SPDX-License-Identifier: GPL-2.0
/* What the command files share. */
#include <string.h>
#include "cli.h"
#include "pindir.h"
#include "util.h"

int cli_maps_open(struct rd_maps *m, const char *obj)
{
	int err;

	rd_maps_init(m);
	err = rd_maps_open_pinned(m, rd_pin_dir());
	if (err)
		rd_err(obj, "%s: %s (is rocedp attached?)", rd_pin_dir(),
		       strerror(-err));
	return err;
}
