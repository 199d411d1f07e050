/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types of rocedp sync's API (sync.h) that its state (sync_state.h)
 * holds too: options, statistics and the latency hook. A header of its own
 * so that the daemon's modules need not include the daemon's API.
 */
#ifndef ROCEDP_SYNCOPTS_H
#define ROCEDP_SYNCOPTS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "group.h"
#include "group_commit.h"

struct rd_sync_opts {
	const char *pin_dir; /* NULL: ROCEDP_PIN_DIR */
	uint32_t table; /* 0: RT_TABLE_MAIN */
	bool latency_log; /* one line per committed batch on stdout */
	bool verbose;
	int rcvbuf; /* event socket buffer, 0: 32 MiB (small: overrun tests) */
	/*
	 * Set by a signal handler to stop: a wait for the writers' lock or a
	 * resync backoff then gives up without writing (NULL: never).
	 */
	volatile sig_atomic_t *stop;
};

struct rd_sync_stats {
	uint64_t events; /* netlink messages handled */
	uint64_t batches; /* commits that wrote something */
	uint64_t resyncs; /* full dumps (start, overrun, link change) */
	uint64_t overruns; /* ENOBUFS on the event socket */
	uint64_t dump_retries; /* interrupted or failed dumps, retried */
	uint64_t deferred_drops; /* deferred-event buffer full: resync */
	uint64_t unknown_attrs, bad_attrs, ignored_msgs;
	uint64_t neigh_probes;
	uint64_t nl_refused; /* datagrams not from the kernel, or malformed */
	uint64_t handoffs; /* static route sets committed for a config load */
	uint64_t lat_last_ns, lat_max_ns, lat_sum_ns, lat_n;
	struct rd_fib_counts writes;
	unsigned int routes, groups;
};

/*
 * Latency hook for benchmarks: called after every commit that wrote to the
 * maps, with the time from the first message's arrival to the last write.
 */
typedef void (*rd_sync_latency_fn)(void *ctx, uint64_t ns,
				   const char *first_event);

#endif
