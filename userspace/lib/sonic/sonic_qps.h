/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-QP counters in COUNTERS_DB for `rocedp sonic sync` (sonic_qps.c,
 * docs/sonic.md): COUNTERS_ROCEDP_QP:<src>|<dst>|<dest_qp> for the top K
 * QPs of the telemetry table, in every role (SONiC has no QP counters of
 * its own). A QP that leaves the top K has its key deleted, so the
 * database holds at most K such keys whatever the table holds.
 */
#ifndef ROCEDP_SONIC_QPS_H
#define ROCEDP_SONIC_QPS_H

#include <stdbool.h>

#include "mapset.h"
#include "qps.h"

#define RD_SQPS_TOP_DEFAULT 64
#define RD_SQPS_TOP_MAX 1024
/* "COUNTERS_ROCEDP_QP:" + two IPv6 addresses + a QP number */
#define RD_SQPS_KEY_LEN 128

struct rd_sredis;

/* The SONiC name of a port (Ethernet0) by ifindex, or NULL. */
typedef const char *(*rd_sqps_name_fn)(void *ctx, unsigned int ifindex);

struct rd_sqps {
	unsigned int top_k; /* 0: no QP keys at all */
	struct rd_qp_snap prev; /* the last read, for the rates */
	char (*keys)[RD_SQPS_KEY_LEN]; /* the keys written last time */
	unsigned int n_keys;
	bool swept; /* keys left by an earlier daemon removed */
};

void rd_sqps_init(struct rd_sqps *q, unsigned int top_k);
void rd_sqps_free(struct rd_sqps *q);
/*
 * Read the QP table from m, write the top K (sickest, then busiest per
 * second, as the Prometheus exporter picks them) and delete the keys of
 * QPs that left it. Pipelined on r: the caller flushes. -errno.
 */
int rd_sqps_write(struct rd_sqps *q, const struct rd_maps *m,
		  struct rd_sredis *r, rd_sqps_name_fn name, void *ctx);
/* The key of one QP: "COUNTERS_ROCEDP_QP:10.0.0.1|10.0.0.2|291" */
void rd_sqps_key(const struct rocedp_qp_key *k, char *buf, size_t len);

#endif
