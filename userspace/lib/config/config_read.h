/* SPDX-License-Identifier: GPL-2.0 */
/* The running config read back from the maps (config_read.c). */
#ifndef ROCEDP_CONFIG_READ_H
#define ROCEDP_CONFIG_READ_H

#include "config.h"

/* What apply needs beyond the static config itself. */
struct rd_running {
	struct rocedp_cts_rule rules[ROCEDP_CTS_SLOTS]; /* both banks */
	struct rd_cfg_port *ports; /* every rd_port_cfg entry */
	unsigned int n_ports;
};

void rd_running_free(struct rd_running *x);

/* The running config into s and, if x, what a load needs besides. -errno. */
int rd_config_load_running(const struct rd_maps *m, struct rd_staged *s,
			   struct rd_running *x);
/* Read the running config (static routes and groups only) back. */
int rd_config_read_running(const struct rd_maps *m, struct rd_staged *s);
/* Keep s's CTS rule names beside the rule map fd (they are not in it). */
void rd_cts_names_save(int fd, const struct rd_staged *s);

#endif
