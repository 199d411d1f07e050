/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The attachment records (attach_state.c): what rocedp attached in this
 * network namespace, kept in ROCEDP_RUN_DIR/attached.c<netns cookie>.
 */
#ifndef ROCEDP_ATTACH_STATE_H
#define ROCEDP_ATTACH_STATE_H

#include <stdbool.h>
#include <net/if.h>
#include "pindir.h"

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

const char *rd_mode_name(enum rd_attach_mode m);
/* native|drv, generic|skb, tc; -EINVAL otherwise */
int rd_parse_mode(const char *s, enum rd_attach_mode *m);
/* This namespace's record file. */
const char *rd_state_file(void);
/* Read the records, each checked against what is really attached. */
int rd_state_read(struct rd_attach_state *st);
/* Write them (atomically); no records: no file. */
int rd_state_write(const struct rd_attach_state *st);
struct rd_attached *rd_state_find(struct rd_attach_state *st,
				  unsigned int ifindex);

#endif
