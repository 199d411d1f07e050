/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocedp's own CONFIG_DB tables (sonic_rocedp.c; model
 * tools/sonic/sonic-rocedp.yang; docs/sonic.md, "rocedp's own tables"):
 * ROCEDP|global, ROCEDP_QOS|<class>, ROCEDP_CTS_RULE|<name> -> the
 * document's features, hash, flowlet, telemetry, qos and cts_rules. They
 * are read last and win over what SONiC's own tables gave.
 */
#ifndef ROCEDP_SONIC_ROCEDP_H
#define ROCEDP_SONIC_ROCEDP_H

#include "sonic_db.h"

void sn_convert_rocedp(struct sn_ctx *c);

#endif
