/* SPDX-License-Identifier: GPL-2.0 */
/* rocedp userspace: the interfaces shared by the CLI's object files. */
#ifndef ROCEDP_USER_H
#define ROCEDP_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rocedp_abi.h"

#define ROCEDP_VERSION "0.1.0"

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
	RD_MAP_MAX,
};

extern const char *const rd_map_names[RD_MAP_MAX];

/* A set of map fds: from pinned paths (live) or from a loaded object. */
struct rd_maps {
	int fd[RD_MAP_MAX];
};

void rd_maps_init(struct rd_maps *m);
/* Open every pinned map; -ENOENT when rocedp is not attached. */
int rd_maps_open_pinned(struct rd_maps *m, const char *pin_dir);
void rd_maps_close(struct rd_maps *m);
/* the one message for a port the dataplane's ifindex arrays cannot hold */
#define RD_PORT_SLOTS_ERR \
	"ifindex %u is beyond the %d port slots (build with -DROCEDP_PORT_SLOTS=N)"
/* 0 and *pc if ifindex has ECN settings; -ENOENT unset, -E2BIG beyond the slots */
int rd_port_cfg_get(int fd, __u32 ifindex, struct rocedp_port_cfg *pc);
/* The one place a port's default ECN settings are made (docs/config.md). */
void rd_port_defaults(struct rocedp_port_cfg *pc);

/*
 * Recompute a group's active list and cumulative weights from its members'
 * flags and weights: a member is active when UP and RESOLVED and weight > 0.
 */
/* Clear the host bits of addr beyond plen (AF_INET: 4 bytes, else 16). */
void rd_prefix_mask(uint8_t *addr, uint8_t family, uint8_t plen);
void rd_group_build(struct rocedp_group *g);

/* Print one error line "rocedp: OBJECT: reason" to stderr. */
void rd_err(const char *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* argv[1..] less -j/-p (setting rd_json/rd_pretty) into args; count left */
int rd_take_output_opts(int argc, char **argv, char **args);

extern bool rd_json; /* -j */
extern bool rd_pretty; /* -p */

/* Subcommand entry points; argv[0] is the object name. Return exit code. */
int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sync(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_qos(int argc, char **argv);
int cmd_ecn(int argc, char **argv);
int cmd_flows(int argc, char **argv);
int cmd_selftest_load(int argc, char **argv);

#endif
