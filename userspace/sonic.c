// SPDX-License-Identifier: GPL-2.0
/* SONiC CONFIG_DB -> rocedp config document (docs/sonic.md). */
#include <errno.h>
#include <stdio.h>
#include "sonic.h"

int rd_sonic_convert(struct json_object *configdb,
		     const struct rd_sonic_opts *o, struct json_object **out,
		     int *n_warnings)
{
	(void)configdb;
	(void)o;
	*out = NULL;
	*n_warnings = 0;
	return -ENOSYS;
}
