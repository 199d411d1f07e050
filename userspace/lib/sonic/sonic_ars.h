/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SONiC's adaptive routing tables into the rocedp document (sonic_ars.c,
 * docs/sonic.md): ARS_PROFILE, ARS_OBJECT, ARS_INTERFACE, ARS_NEXTHOP as
 * the ARS HLD rev 1.4 and sonic-ars.yang lay them out, and the older
 * shape without object references -> flowlet and hash.mode spray.
 */
#ifndef ROCEDP_SONIC_ARS_H
#define ROCEDP_SONIC_ARS_H

#include "sonic_db.h"

void sn_convert_ars(struct sn_ctx *c);

#endif
