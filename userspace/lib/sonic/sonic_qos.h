/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC QoS tables into the rocedp document (sonic_qos.c, docs/sonic.md):
 * WRED_PROFILE bound through QUEUE -> ecn.ports; the DSCP/TC maps with
 * PORT_QOS_MAP -> qos.ack/nak/cnp/cts.
 */
#ifndef ROCEDP_SONIC_QOS_H
#define ROCEDP_SONIC_QOS_H

#include "sonic_db.h"

void sn_convert_ecn(struct sn_ctx *c);
void sn_convert_qos(struct sn_ctx *c);

#endif
