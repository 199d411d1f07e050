/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocedp userspace: the umbrella most library files include. It declares
 * nothing itself but the version; mapset.h and util.h hold what it used to.
 * A module's own API is in the header named after its file; the commands'
 * entry points are the CLI's (userspace/cli/commands.h).
 */
#ifndef ROCEDP_USER_H
#define ROCEDP_USER_H

/* the standard headers it always brought, kept for its includers */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rocedp_abi.h"
#include "mapset.h"
#include "util.h"

#define ROCEDP_VERSION "0.1.0"

#endif
