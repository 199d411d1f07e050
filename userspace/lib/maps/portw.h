/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of egress port entries: rd_port_cfg (ECN settings) and
 * rd_tx_ports (the devmap), as groupw.c is for groups. Callers hold the
 * writers' lock (the pin directory's flock): `config load/set`, `ecn set`
 * and `qos set` through config_txn.c, `rocedp sync` through group_commit.c
 * (docs/design.md, "Who writes which map").
 */
#ifndef ROCEDP_PORTW_H
#define ROCEDP_PORTW_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include "rocedp.h"

/* ifindex's ECN settings (pc) in rd_port_cfg; -errno. */
int rd_portw_cfg(int fd, __u32 ifindex, const struct rocedp_port_cfg *pc);
/* ifindex's rd_tx_ports entry (v), or none (v NULL, absent is no error). */
int rd_portw_tx(int fd, __u32 ifindex, const struct bpf_devmap_val *v);
/*
 * rocedp sync's egress ports: ifindex's rd_tx_ports entry (no program),
 * and the defaults in rd_port_cfg if unset; a set entry is left as a load
 * or `ecn set` made it. writes counts map writes; on -errno, what names
 * the entry. fd -1: that map is not written (dry run).
 */
int rd_portw_ensure(int tx_ports, int port_cfg, __u32 ifindex, uint64_t *writes,
		    char *what, size_t len);

#endif
