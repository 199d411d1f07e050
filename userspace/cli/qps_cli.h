/* SPDX-License-Identifier: GPL-2.0 */
/* What `rocedp qps` (cmd_qps.c) and `rocedp top` (cmd_top.c) share. */
#ifndef ROCEDP_QPS_CLI_H
#define ROCEDP_QPS_CLI_H

#include <stdbool.h>

/* a whole decimal number 0..max; false for anything else */
bool rd_cli_parse_count(const char *s, unsigned long max, unsigned long *out);

#endif
