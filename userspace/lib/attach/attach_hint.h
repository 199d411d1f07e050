/* SPDX-License-Identifier: GPL-2.0 */
/* The line attach prints for a hook it could not attach (attach_hint.c). */
#ifndef ROCEDP_ATTACH_HINT_H
#define ROCEDP_ATTACH_HINT_H

#include "attach_state.h"

/* The one line for a hook the kernel or driver refused (names the MTU). */
void rd_attach_refused(const char *name, enum rd_attach_mode mode, int err);

#endif
