/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of one rocedp sync daemon (struct rd_sync), shared by the sync
 * modules and private to them: the kernel view (sync_view.c), route choice
 * (sync_route.c), message handlers (sync_msg.c), map commits and probes
 * (sync_commit.c) and the event loop (sync.c). Also the small helpers they
 * all use (sync_state.c).
 */
#ifndef ROCEDP_SYNCSTATE_H
#define ROCEDP_SYNCSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "rocedp.h"
#include "nl.h"
#include "group.h"
#include "sync_opts.h"
#include "flaps.h"

/* The kernel view's tables (sync_view.h has their records). */
#define LINK_BUCKETS 256
#define NEIGH_BUCKETS 4096
#define NH_BUCKETS 1024
#define ROUTE_BUCKETS 65536
struct slink;
struct sneigh;
struct snh;
struct sroute;

#define RESYNC_DELAY_NS (50 * 1000 * 1000ull) /* coalesce link flaps */
#define PROBE_INTERVAL_NS (1000 * 1000 * 1000ull)
#define MAX_DGRAMS_PER_BATCH 1024
#define EVENT_RCVBUF (32 << 20)

struct rd_sync {
	struct rd_sync_opts opts;
	struct rd_maps maps;
	struct rd_nl req; /* dumps and probes */
	struct rd_nl mon; /* events */
	struct rd_fib *fib;
	struct rd_fib_maps fm;
	int lock_fd;
	char lock_path[96]; /* removed as the lock is let go */
	int dir_fd; /* the pin directory: `config load` locks it, so do we */
	__u32 config_map_id; /* rd_config as opened: still pinned? (pins_gone) */
	char *pin_abs; /* the pin directory, absolute: daemon() moves to / */
	unsigned int gone_ticks; /* ticks in a row that found it unpinned */
	bool reload; /* a hand-off wrote the maps: read them before a commit */
	bool full_next; /* the maps were re-read: the next commit is full */
	int serve_fd; /* the hand-off socket (sync_serve.h), -1: none */
	pid_t serve_pid; /* who bound it: it alone removes the file */
	char serve_path[108];
	struct slink *links[LINK_BUCKETS];
	struct sneigh *neighs[NEIGH_BUCKETS];
	struct snh *nhs[NH_BUCKETS];
	struct sroute **routes; /* ROUTE_BUCKETS */
	bool in_dump;
	bool defer_all; /* between dump tries: links and neighbours too */
	size_t nh_vars; /* route variants naming a nexthop object */
	bool service_ok; /* links and neighbours are loaded: serve events */
	bool overrun_in_resync;
	unsigned int resync_failures; /* in a row: paces the next try */
	unsigned int svc_count;
	char *deferred; /* route/nexthop events that arrived during a dump */
	size_t n_deferred, cap_deferred;
	bool dirty; /* something to commit */
	uint64_t resync_at; /* 0 = none scheduled */
	uint64_t next_tick;
	unsigned int unresolved; /* members held out at the last commit */
	struct sneigh **probe_q;
	size_t n_probe, cap_probe;
	char first_event[96];
	uint64_t batch_events;
	rd_sync_latency_fn lat_fn;
	void *lat_ctx;
	bool warned_unknown;
	bool res_dump; /* a resilient group changed: dump its buckets */
	struct rd_sync_stats st;
	struct rd_flaps flaps; /* link flaps per port (flaps.c) */
};

uint64_t rd_now_ns(void);
/* Name the batch's first event (for the latency line); verbose: each. */
void rd_note_event(struct rd_sync *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *rd_addr_str(uint8_t family, const void *addr, char *buf,
			size_t len);
/* A full resync in delay_ns at the latest (none during a dump). */
void rd_schedule_resync(struct rd_sync *s, uint64_t delay_ns);

#endif
