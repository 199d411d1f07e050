/* SPDX-License-Identifier: GPL-2.0 */
/* What `rocedp qps` (cmd_qps.c) and `rocedp top` (cmd_top.c) share. */
#ifndef ROCEDP_QPS_CLI_H
#define ROCEDP_QPS_CLI_H

#include <stdbool.h>
#include "qps.h"

/* a whole decimal number 0..max; false for anything else */
bool rd_cli_parse_count(const char *s, unsigned long max, unsigned long *out);
/* --sort's word into *by; false after the one error line for obj */
bool rd_cli_parse_sort(const char *obj, const char *arg, enum rd_qp_sort *by);

#endif
