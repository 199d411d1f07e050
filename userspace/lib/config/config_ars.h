/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The config's "ars" section (docs/ars.md): SAI's ARS modes per group,
 * quality bands, selective opt-in, into struct rocedp_ars (bpf/abi_ars.h).
 */
#ifndef ROCEDP_CONFIG_ARS_H
#define ROCEDP_CONFIG_ARS_H

#include <json-c/json.h>
#include "config_json.h"
#include "rocedp_abi.h"

/* SAI's mode names, by enum rocedp_ars_mode ("off" for none) */
extern const char *const rd_ars_mode_names[ROCEDP_ARS_MODE_MAX];

void rd_cfg_ars_defaults(struct rocedp_ars *a);
/* The section at path into *a; errors reported through c. */
void rd_cfg_ars_parse(struct rd_json_ctx *c, const char *path,
		      struct json_object *v, struct rocedp_ars *a);
/* Is any group in an ARS mode? (the dataplane's ROCEDP_FLOWLETF_ARS) */
int rd_cfg_ars_on(const struct rocedp_ars *a);
/* The section as the config document has it (NULL: no memory). */
struct json_object *rd_cfg_ars_to_json(const struct rocedp_ars *a);

#endif
