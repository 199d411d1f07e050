/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC's packet trimming into the rocedp document (sonic_trim.c):
 * BUFFER_PROFILE.packet_discard_action through BUFFER_QUEUE and
 * SWITCH_TRIMMING|GLOBAL -> ecn.ports.X's discard and trim keys.
 */
#ifndef ROCEDP_SONIC_TRIM_H
#define ROCEDP_SONIC_TRIM_H

#include "sonic_db.h"

/* After sn_convert_ecn: it adds to the ports that one made. */
void sn_convert_trim(struct sn_ctx *c);

#endif
