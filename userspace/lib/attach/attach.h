/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attach and detach as library calls (attach.c): the order of the steps
 * over the hook, record and load modules, which `rocedp attach`, `detach`,
 * `start` and `stop` are thin commands over. Each prints the one line
 * naming the port and the reason (rd_err, object "attach" or "detach")
 * and returns -errno.
 */
#ifndef ROCEDP_ATTACH_H
#define ROCEDP_ATTACH_H

#include <stdbool.h>
#include <linux/types.h>
#include "attach_state.h"

struct rd_attach_opts {
	enum rd_attach_mode mode;
	/* XDP: rocedp's own pinned bpf_link, not libxdp's dispatcher */
	bool exclusive;
	/* XDP: replace a program of someone else that cannot share the port */
	bool force;
	/* set rd_config's features to features (through the config writer) */
	bool set_features;
	__u32 features;
};

/*
 * Load the programs (pinned maps reused) and attach them to the n ports
 * named. Every name must resolve and none may be attached in another mode
 * before anything changes; the ports before a failing one stay attached
 * and recorded.
 */
int rd_attach(const char *const *ifnames, unsigned int n,
	      const struct rd_attach_opts *o);

/*
 * Detach the n ports named, or every port with all. With nothing left
 * attached, stop the pin directory's sync and remove every pin, record
 * and directory. The first error; the other ports are still detached.
 */
int rd_detach(const char *const *ifnames, unsigned int n, bool all);

#endif
