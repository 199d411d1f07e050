/* SPDX-License-Identifier: GPL-2.0 */
/* A config document validated into a staged config (config_parse.c). */
#ifndef ROCEDP_CONFIG_PARSE_H
#define ROCEDP_CONFIG_PARSE_H

#include <json-c/json.h>
#include "config.h"

/* Validate a parsed document into s; one error line per bad key. -EINVAL. */
int rd_config_parse(struct json_object *root, struct rd_staged *s);
/* Read and validate a file ("-" = stdin); changes nothing. -errno. */
int rd_config_check_file(const char *path);

#endif
