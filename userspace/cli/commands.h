/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rocedp command's entry points, one per object, dispatched by main.c.
 * argv[0] is the object's name; each returns the exit code. Only
 * userspace/cli includes this: the library never calls a command.
 */
#ifndef ROCEDP_COMMANDS_H
#define ROCEDP_COMMANDS_H

int cmd_attach(int argc, char **argv); /* cmd_attach.c */
int cmd_detach(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_selftest_load(int argc, char **argv);
int cmd_config(int argc, char **argv); /* cmd_config.c */
int cmd_ecn(int argc, char **argv); /* ecn.c */
int cmd_qos(int argc, char **argv); /* qos.c */
int cmd_replay(int argc, char **argv); /* replay.c */
int cmd_sonic(int argc, char **argv); /* cmd_sonic.c */
int cmd_stats(int argc, char **argv); /* cmd_stats.c */
int cmd_flows(int argc, char **argv); /* cmd_flows.c */
int cmd_qps(int argc, char **argv); /* cmd_qps.c */
int cmd_top(int argc, char **argv); /* cmd_top.c */
int cmd_sync(int argc, char **argv); /* sync_cli.c */
int cmd_start(int argc, char **argv); /* cmd_start.c */
int cmd_stop(int argc, char **argv);

#endif
