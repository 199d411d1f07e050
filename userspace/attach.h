/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transitional: attach.c was split into attach_state.h (records),
 * attach_xdp.h, attach_tc.h, attach_hint.h, liveload.h (the live object
 * and its pins) and cmd_attach.c (the commands); ROCEDP_RUN_DIR and the
 * sync lock path are pindir.h's. This header only keeps the files that
 * still include it building; include the module headers instead, then
 * delete it.
 */
#ifndef ROCEDP_ATTACH_H
#define ROCEDP_ATTACH_H

#include "pindir.h"

struct rd_maps;
struct rocedp;
/* engine.c's: declared here until its includers take engine.h's */
void rd_maps_from_skel(struct rd_maps *m, struct rocedp *skel);

#endif
