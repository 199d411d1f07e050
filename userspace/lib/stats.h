/* SPDX-License-Identifier: GPL-2.0 */
/* Summed counters, for stats output, benchmarks and tests. */
#ifndef ROCEDP_STATS_H
#define ROCEDP_STATS_H

#include "rocedp.h"

#define RD_STATS_MAX_PORTS ROCEDP_MAX_PORTS
#define RD_STATS_MAX_GROUPS 256

struct rd_port_snapshot {
	unsigned int ifindex;
	struct rocedp_port_stats st;
};

struct rd_member_snapshot {
	unsigned int ifindex;
	unsigned int flags;
	unsigned int weight;
	struct rocedp_member_stats st;
};

struct rd_group_stats {
	unsigned int id;
	unsigned int n_members;
	double imbalance; /* busiest member's bytes / mean */
	struct rd_member_snapshot members[ROCEDP_MAX_MEMBERS];
};

struct rd_stats_snapshot {
	__u64 ctr[ROCEDP_CTR_MAX];
	__u64 cts_hits[ROCEDP_MAX_CTS_RULES];
	unsigned int n_ports;
	struct rd_port_snapshot ports[RD_STATS_MAX_PORTS];
	unsigned int n_groups;
	struct rd_group_stats groups[RD_STATS_MAX_GROUPS];
};

int rd_percpu_sum(int fd, const void *key, __u64 *out, unsigned int n_u64);
int rd_counters_read(int fd, __u64 *ctr);
int rd_counter_get(int fd, unsigned int idx, __u64 *v);
int rd_stats_read(const struct rd_maps *m, struct rd_stats_snapshot *s);
const char *rd_counter_misc_name(unsigned int idx);

#endif
