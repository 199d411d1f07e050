/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link flaps per port (docs/telemetry.md, Link flaps): the one writer of
 * rd_port_flaps. `rocedp sync` feeds it every link message it reads.
 */
#ifndef ROCEDP_FLAPS_H
#define ROCEDP_FLAPS_H

#include <stdbool.h>
#include <stdint.h>
#include "rocedp_abi.h"

enum rd_flap_state { RD_FLAP_UNKNOWN = 0, RD_FLAP_DOWN, RD_FLAP_UP };

struct rd_flaps {
	int map_fd; /* rd_port_flaps; < 0: nothing is written */
	uint8_t state[ROCEDP_PORT_SLOTS]; /* enum rd_flap_state */
};

void rd_flaps_init(struct rd_flaps *f, int map_fd);
/*
 * A link message for ifindex with its ifi_flags (deleted: RTM_DELLINK) at
 * CLOCK_REALTIME now_ns. The first message of a port only learns its
 * state; a change between up (IFF_UP and IFF_LOWER_UP) and down after it
 * is one flap. Returns 1 when one was recorded, 0 when not, -errno when
 * the map write failed.
 */
int rd_flaps_link(struct rd_flaps *f, uint32_t ifindex, unsigned int flags,
		  bool deleted, uint64_t now_ns);
uint64_t rd_flaps_now(void);

#endif
