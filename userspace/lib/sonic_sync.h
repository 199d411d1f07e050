/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `rocedp sonic sync --redis URL` daemon (sonic_sync.c): CONFIG_DB
 * followed live and applied as `config load` does, STATE_DB status and
 * COUNTERS_DB counters written back (docs/sonic.md).
 */
#ifndef ROCEDP_SONIC_SYNC_H
#define ROCEDP_SONIC_SYNC_H

/* `rocedp sonic sync ...`: argv[0] is "sync". Returns the exit code. */
int rd_sonic_sync_main(int argc, char **argv);

#endif
