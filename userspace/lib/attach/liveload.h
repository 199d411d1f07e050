/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live object and its pins (liveload.c): what attach loads and detach
 * removes. -errno.
 */
#ifndef ROCEDP_LIVELOAD_H
#define ROCEDP_LIVELOAD_H

#include <stdbool.h>

struct rocedp;
struct rd_maps;

/* The netns's directory on the host's bpffs, with links/ and progs/. */
int rd_pin_dir_prepare(void);
/* Is the rocedp_ecn module (its kfunc) loaded? */
bool rd_ecn_module_loaded(void);
/* Open and load; pin: reuse (or create and pin) the maps. */
int rd_live_load(struct rocedp **out, bool pin);
/*
 * Groups in m's rd_groups that the banks lack made live (rd_groupw_adopt),
 * under the writers' lock. The number adopted, or -errno.
 */
int rd_live_adopt(const struct rd_maps *m);
/* Open (not load) the XDP program on the pinned maps, for libxdp. */
int rd_live_open_xdp(struct rocedp **out);
/* Drop devmap egress programs an older version left behind. */
int rd_strip_devmap_progs(struct rocedp *skel);
/* Unpin every map and program and remove the pin directories. */
int rd_pins_remove(void);

#endif
