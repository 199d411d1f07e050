/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC QoS tables into the rocedp document (sonic_qos.c, docs/sonic.md):
 * WRED_PROFILE bound through QUEUE -> ecn.ports; the DSCP/TC maps with
 * PORT_QOS_MAP -> qos.ack/nak/cnp/cts.
 */
#ifndef ROCEDP_SONIC_QOS_H
#define ROCEDP_SONIC_QOS_H

#include "sonic_db.h"

#define SN_MAX_TC 16
#define SN_NAME_LEN 64

/* A port's QoS maps (PORT_QOS_MAP and the maps it names) */
struct sn_portqos {
	unsigned int lossless_tc; /* bit per TC in pfc_enable */
	bool has_pfc;
	int tc2q[SN_MAX_TC];
	int dscp2tc[64]; /* -1: not in the map */
	char dscp_map[SN_NAME_LEN], tc_map[SN_NAME_LEN];
};

/* PORT_QOS_MAP|port (and |global's DSCP map) into q; c->err (reported) */
int sn_load_portqos(struct sn_ctx *c, const char *port, struct sn_portqos *q);

void sn_convert_ecn(struct sn_ctx *c);
void sn_convert_qos(struct sn_ctx *c);

#endif
