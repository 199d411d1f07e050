/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `rocedp sonic sync` writes back to SONiC (sonic_counters.c): the
 * ports it counts, their counters in COUNTERS_DB and rocedp's capabilities
 * in STATE_DB (docs/sonic.md, "Counters"). The daemon (sonic_sync.c) calls
 * it after each resync and on its polling intervals.
 */
#ifndef ROCEDP_SONIC_COUNTERS_H
#define ROCEDP_SONIC_COUNTERS_H

#include <stdbool.h>
#include <json-c/json.h>

#include "mapset.h"
#include "sonic_qps.h"

#define RD_SCTR_MAX_PORTS 256

struct rd_sredis;

/*
 * Who owns SONiC's counter tables. Beside syncd (an ASIC's name maps are
 * in COUNTERS_DB) rocedp writes only its own tables; as the dataplane (no
 * syncd) it writes SONiC's name maps and counters too. Unknown (not read
 * yet, or unreadable) writes only rocedp's own tables: the safe side.
 */
enum rd_srole {
	RD_SROLE_UNKNOWN = 0,
	RD_SROLE_DATAPLANE,
	RD_SROLE_BESIDE_SYNCD,
};

struct rd_sport {
	char name[64]; /* SONiC's name, Ethernet0 */
	char dev[16]; /* its Linux device */
	unsigned int ifindex;
	int roce_queue; /* where ECN marks are counted */
	/* the previous port poll, for RATES */
	unsigned long long prev_ms,
		prev[4]; /* rx pkts, bytes, tx pkts, bytes */
};

struct rd_scounters {
	const char *ports_opt; /* --ports "Ethernet0=eth1,..." or NULL */
	struct rd_maps m;
	bool maps_open;
	char ars_name[64];
	struct rd_sport ports[RD_SCTR_MAX_PORTS];
	unsigned int n_ports;
	enum rd_srole role;
	struct rd_sqps qps; /* COUNTERS_ROCEDP_QP: the top K QPs */
};

/* qp_top: how many QPs get COUNTERS_ROCEDP_QP keys (0: none) */
void rd_scounters_init(struct rd_scounters *c, const char *ports_opt,
		       unsigned int qp_top);
void rd_scounters_close(struct rd_scounters *c);
/* The ports to count, from CONFIG_DB (PORT, QUEUE, ARS_OBJECT) and --ports */
void rd_scounters_learn(struct rd_scounters *c, struct json_object *db);
/* Look at COUNTERS_DB again; true when the role changed. */
bool rd_scounters_detect(struct rd_scounters *c, struct rd_sredis *r);
const char *rd_srole_name(enum rd_srole role);
/* Role, name maps and capabilities: after each (re)sync */
void rd_scounters_names(struct rd_scounters *c, struct rd_sredis *r);
/* Per-port and per-QP counters: -EIO when Redis was lost while writing */
int rd_scounters_ports(struct rd_scounters *c, struct rd_sredis *r);
/* Per-queue counters */
void rd_scounters_queues(struct rd_scounters *c, struct rd_sredis *r);
/* Reopen the maps next time: a detach and attach pins new ones */
void rd_scounters_reopen(struct rd_scounters *c);

#endif
