/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rocedp command's entry points, one per row of the command table
 * (cmdtab.c), dispatched by main.c with the parsed line (cliargs.h); each
 * returns the exit code (CLI_OK, CLI_FAIL, CLI_USAGE). Only userspace/cli
 * includes this: the library never calls a command.
 */
#ifndef ROCEDP_COMMANDS_H
#define ROCEDP_COMMANDS_H

#include "cliargs.h"

int cmd_attach(const struct cli_call *c); /* cmd_attach.c */
int cmd_detach(const struct cli_call *c);
int cmd_status(const struct cli_call *c);
int cmd_selftest_load(const struct cli_call *c);
int cmd_routes(const struct cli_call *c); /* cmd_routes.c */
/* cmd_paths.c */
int cmd_paths_show(const struct cli_call *c);
int cmd_paths_set(const struct cli_call *c);
int cmd_paths_port(const struct cli_call *c);
int cmd_paths_leaf(const struct cli_call *c);
int cmd_paths_clear(const struct cli_call *c);
int cmd_paths_send(const struct cli_call *c);
int cmd_config_show(const struct cli_call *c); /* cmd_config.c */
int cmd_config_dump(const struct cli_call *c);
int cmd_config_check(const struct cli_call *c);
int cmd_config_load(const struct cli_call *c);
int cmd_config_set(const struct cli_call *c);
int cmd_ecn_show(const struct cli_call *c); /* ecn.c */
int cmd_ecn_set(const struct cli_call *c);
int cmd_qos_show(const struct cli_call *c); /* qos.c */
int cmd_qos_set(const struct cli_call *c);
int cmd_qos_rules(const struct cli_call *c);
int cmd_replay(const struct cli_call *c); /* replay.c */
int cmd_sonic_import(const struct cli_call *c); /* cmd_sonic.c */
int cmd_sonic_sync(const struct cli_call *c);
int cmd_stats(const struct cli_call *c); /* cmd_stats.c */
int cmd_exporter(const struct cli_call *c); /* cmd_exporter.c */
int cmd_ipfix(const struct cli_call *c); /* cmd_ipfix.c */
int cmd_flows(const struct cli_call *c); /* cmd_flows.c */
int cmd_qps(const struct cli_call *c); /* cmd_qps.c */
int cmd_top(const struct cli_call *c); /* cmd_top.c */
int cmd_sync(const struct cli_call *c); /* sync_cli.c */
int cmd_start(const struct cli_call *c); /* cmd_start.c */
int cmd_stop(const struct cli_call *c);
int cmd_help(const struct cli_call *c); /* clihelp.c */

#endif
