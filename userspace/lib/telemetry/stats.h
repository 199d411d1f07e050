/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counter readers (stats.c): per-CPU counters summed, for the stats
 * command, the SONiC daemon, benchmarks and tests.
 */
#ifndef ROCEDP_STATS_H
#define ROCEDP_STATS_H

#include <stdbool.h>
#include "mapset.h"

#define RD_STATS_MAX_PORTS ROCEDP_MAX_PORTS
#define RD_STATS_MAX_GROUPS 256

struct rd_port_snapshot {
	unsigned int ifindex;
	struct rocedp_port_stats st;
	struct rocedp_trim_stats trim; /* SAI's trim counters (abi_trim.h) */
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

/* One key of a per-CPU map whose value is n_u64 counters, summed over the
 * CPUs into out; -errno. */
int rd_percpu_sum(int fd, const void *key, __u64 *out, unsigned int n_u64);
/*
 * Slots 0..n-1 of an array map (per-CPU with percpu: each slot's n_u64
 * counters summed over the CPUs) into out[slot * n_u64]: batched
 * lookups, a few bpf() calls for the whole map, or slot by slot where
 * the kernel has none; -errno.
 */
int rd_array_read(int fd, __u32 n, bool percpu, __u64 *out, unsigned int n_u64);
/* Every counter of the rd_stats block (fd), ROCEDP_CTR_MAX of them. */
int rd_counters_read(int fd, __u64 *ctr);
/* One counter of the rd_stats block; *v is 0 on an error. */
int rd_counter_get(int fd, unsigned int idx, __u64 *v);
/* The counters, CTS hits, ports with traffic and groups of the maps m. */
int rd_stats_read(const struct rd_maps *m, struct rd_stats_snapshot *s);
/* Whether a port's buffer refused anything (the trim counters show). */
bool rd_trim_any(const struct rocedp_trim_stats *t);
/* The name of a counter from ROCEDP_CTR_MISC_BASE on ("unknown" else). */
const char *rd_counter_misc_name(unsigned int idx);
/*
 * The counter families of the rd_stats block that have a label (class,
 * verdict, reason), as each output names them: counters base + [first, n).
 */
struct rd_ctr_family {
	const char *text, *json; /* text line label, JSON key */
	const char *metric, *label, *help; /* Prometheus */
	unsigned int base, first, n;
	bool sparse; /* text shows only the counters that are not 0 */
	const char *(*name)(unsigned int);
};
extern const struct rd_ctr_family rd_ctr_families[];
extern const unsigned int rd_ctr_n_families;
/* One sentence on what it counts, for a Prometheus HELP line. */
const char *rd_counter_misc_help(unsigned int idx);

#endif
