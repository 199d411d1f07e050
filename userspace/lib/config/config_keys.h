/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCEDP_CONFIG_KEYS_H
#define ROCEDP_CONFIG_KEYS_H
#include <stdio.h>

/* Print every key `config set` takes, one a line (lists and maps by their
 * own name: routes, ecn.ports). 0 or -errno. */
int rd_config_keys_print(FILE *f);

#endif
