/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * rocedp ABI: every map key/value, enum and limit shared by the BPF programs,
 * userspace and the kernel module, one concept per abi_*.h header. Both
 * sides take their layouts from these headers only, so a size change is
 * caught at compile time on both sides (ROCEDP_STATIC_ASSERT). Including
 * this file gets all of them.
 */
#ifndef ROCEDP_ABI_H
#define ROCEDP_ABI_H

#include "abi_base.h"
#include "abi_wire.h"
#include "abi_verdict.h"
#include "abi_counters.h"
#include "abi_config.h"
#include "abi_fwd.h"
#include "abi_port.h"
#include "abi_flowlet.h"
#include "abi_rtt.h"
#include "abi_trace.h"
#include "abi_telemetry.h"
#include "abi_ecn.h"
#include "abi_uec.h"
#include "abi_probe.h"
#include "abi_trim.h"

#endif /* ROCEDP_ABI_H */
