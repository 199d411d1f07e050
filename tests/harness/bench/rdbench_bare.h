/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bare forwarders' tables (empty.bpf.c), for the cost section and
 * for `rdbench barefwd` alike.
 */
#ifndef RDBENCH_BARE_H
#define RDBENCH_BARE_H

#include "rocedp_abi.h"
#include "empty.skel.h"

struct empty *bare_open(void);
void setup_bare_fwd(struct empty *eo, char **ports);
void setup_bare_default(struct empty *eo, const struct rocedp_port_cfg *pc,
			const struct rocedp_qos *data);
/* the kernel-FIB forwarder's devmap: every port the FIB may choose */
void setup_fib_fwd(struct empty *eo, char **ports, int n);

#endif
