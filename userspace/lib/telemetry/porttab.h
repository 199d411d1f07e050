/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-port telemetry table (porttab.c): frames in and out by class
 * summed over the CPUs, the ECN virtual queue's high-water mark, link
 * flaps from rd_port_flaps and the kernel's own carrier-change count, with
 * per-second rates between two reads and JSON, text and Prometheus forms.
 */
#ifndef ROCEDP_PORTTAB_H
#define ROCEDP_PORTTAB_H

#include <stdbool.h>
#include <stdio.h>
#include <net/if.h>
#include <json-c/json.h>
#include "rocedp.h"

#define RD_PORTTAB_MAX 256 /* rows shown: ports with traffic or events */

struct rd_port_row {
	__u32 ifindex;
	char name[IF_NAMESIZE];
	struct rocedp_port_stats st; /* summed over the CPUs */
	__u64 hwm; /* bytes: since the last resetting read */
	struct rocedp_port_flaps flaps; /* the link watcher's (rd_port_flaps) */
	__u32 carrier_changes; /* the kernel's IFLA_CARRIER_CHANGES */
	bool has_carrier; /* the port exists here and the kernel gave it */
	double rx_pps, tx_pps, rx_bps, tx_bps; /* rd_porttab_rates */
	bool rate_valid;
};

struct rd_porttab {
	unsigned int n;
	struct rd_port_row rows[RD_PORTTAB_MAX];
	__u64 mono_ns;
	bool hwm_reset; /* this read zeroed the marks it took */
	/* the Prometheus form: 0, the marks since the last take; else the
	 * rows' marks are the maximum over the last window_s..2 window_s
	 * seconds (promexp.h, rd_hwm_window) */
	double hwm_window_s;
};

/*
 * Read every port with traffic, a high-water mark or a flap. reset_hwm:
 * take the marks (read, then write 0), as only the interval readers do:
 * `rocedp top` and the Prometheus export (docs/telemetry.md, Reading it).
 */
int rd_porttab_read(const struct rd_maps *m, struct rd_porttab *t,
		    bool reset_hwm);
void rd_porttab_rates(const struct rd_porttab *prev, struct rd_porttab *cur);
/* flaps as the table shows them: the watcher's count, else the kernel's */
__u64 rd_port_flap_count(const struct rd_port_row *r);
struct json_object *rd_porttab_json(const struct rd_porttab *t);
void rd_porttab_print_text(FILE *f, const struct rd_porttab *t);
void rd_porttab_prometheus(FILE *f, const struct rd_porttab *t);

#endif
