/* SPDX-License-Identifier: GPL-2.0 */
/* Live loading and attachment state, shared by attach/status and tools. */
#ifndef ROCEDP_ATTACH_H
#define ROCEDP_ATTACH_H

#include <net/if.h>
#include "rocedp.h"
#include "pindir.h"

#define ROCEDP_RUN_DIR "/run/rocedp"
#define RD_MAX_ATTACH 256

enum rd_attach_mode {
	RD_MODE_NATIVE,
	RD_MODE_GENERIC,
	RD_MODE_TC,
};

struct rd_attached {
	char name[IF_NAMESIZE + 1];
	unsigned int ifindex;
	enum rd_attach_mode mode;
	unsigned int created_clsact; /* detach removes the qdisc too */
	bool gone; /* the interface was deleted: only pins left to clean */
	bool missing; /* recorded, but our link or filter is not there */
};

struct rd_attach_state {
	unsigned int n;
	struct rd_attached ifs[RD_MAX_ATTACH];
};

struct rocedp;

const char *rd_state_file(void);
int rd_sync_lock_path(const char *dir, char *buf, size_t len);
const char *rd_mode_name(enum rd_attach_mode m);
/* The one line for a hook the kernel or driver refused (names the MTU). */
void rd_attach_refused(const char *name, enum rd_attach_mode mode, int err);
int rd_parse_features(const char *s, __u32 *out);
int rd_pin_dir_prepare(void);
bool rd_ecn_module_loaded(void);
int rd_live_load(struct rocedp **out, bool pin);
int rd_state_read(struct rd_attach_state *st);
void rd_maps_from_skel(struct rd_maps *m, struct rocedp *skel);

#endif
