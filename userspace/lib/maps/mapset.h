/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pinned maps by name, opened as one set of fds, an ARRAY read in
 * batches, and the port-slot helpers every reader and writer of
 * rd_port_cfg shares (mapset.c).
 * Not "maps.h": that name is the dataplane's (bpf/maps.h), which -Ibpf
 * finds first from any file outside userspace/lib.
 */
#ifndef ROCEDP_MAPSET_H
#define ROCEDP_MAPSET_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "rocedp_abi.h"

/* Names of the maps as pinned under ROCEDP_PIN_DIR (also the ELF names). */
enum rd_map_id {
	RD_MAP_CONFIG,
	RD_MAP_STATS,
	RD_MAP_CTS_RULES,
	RD_MAP_CTS_STATS,
	RD_MAP_QOS,
	RD_MAP_ROUTES4,
	RD_MAP_ROUTES6,
	RD_MAP_GROUPS,
	RD_MAP_TX_PORTS,
	RD_MAP_MEMBER_STATS,
	RD_MAP_PORT_CFG,
	RD_MAP_PORT_STATE,
	RD_MAP_PORT_STATS,
	RD_MAP_PORT_L2,
	RD_MAP_FLOWLETS,
	RD_MAP_RTT_PEND,
	RD_MAP_RTT_PAIRS,
	RD_MAP_FL_SHADOW,
	RD_MAP_CLOCK,
	RD_MAP_TRACE,
	RD_MAP_GROUP_BANKS, /* what the dataplane reads of groups */
	RD_MAP_GROUP_LIVE,
	RD_MAP_QPS, /* telemetry: per-QP health */
	RD_MAP_PORT_HWM,
	RD_MAP_PORT_FLAPS,
	RD_MAP_PORT_LOAD, /* per CPU: the flowlet choice's load estimate */
	RD_MAP_ROUTE_GEN, /* the decision cache's route generation */
	RD_MAP_PROBE_CFG, /* path-quality probes: settings (abi_probe.h) */
	RD_MAP_PROBE_PORT,
	RD_MAP_PATHQ,
	RD_MAP_LEAF4,
	RD_MAP_PROBE_STATS,
	RD_MAP_TRIM_PORTS, /* per port discard action (trimming) */
	RD_MAP_TRIM_STATS, /* per CPU: SAI's trim counters per port */
	RD_MAP_MAX,
};

extern const char *const rd_map_names[RD_MAP_MAX];

/* A set of map fds: from pinned paths (live) or from a loaded object. */
struct rd_maps {
	int fd[RD_MAP_MAX];
	/*
	 * The offline engine's private maps: the ports a config names are
	 * modelled, not devices of this host, so the config writer skips the
	 * devmap (the programs skip its check) and accepts any ifindex.
	 */
	bool modelled;
};

void rd_maps_init(struct rd_maps *m);
/* Open every pinned map; -ENOENT when rocedp is not attached. */
int rd_maps_open_pinned(struct rd_maps *m, const char *pin_dir);
void rd_maps_close(struct rd_maps *m);
/* The kernel's id of map fd; -errno. */
int rd_map_id(int fd);
/*
 * Every slot of the ARRAY map fd, in index order, read `batch` slots a
 * syscall (one lookup a slot made `rocedp flows` 16384 syscalls). Each
 * value goes to fn, which returns 0 to go on; anything else stops the
 * walk and is returned. -errno when a read fails.
 */
int rd_array_each(int fd, size_t value_size, unsigned int batch,
		  int (*fn)(const void *value, void *ctx), void *ctx);
/* the one message for a port the dataplane's ifindex arrays cannot hold */
#define RD_PORT_SLOTS_ERR \
	"ifindex %u is beyond the %d port slots (build with -DROCEDP_PORT_SLOTS=N)"
/* 0 and *pc if ifindex has ECN settings; -ENOENT unset, -E2BIG beyond the slots */
int rd_port_cfg_get(int fd, __u32 ifindex, struct rocedp_port_cfg *pc);
/* The one place a port's default ECN settings are made (docs/config.md). */
void rd_port_defaults(struct rocedp_port_cfg *pc);

#endif
