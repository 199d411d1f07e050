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

#endif
