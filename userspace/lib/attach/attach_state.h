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

/*
 * What an attachment changed and how it was made (the record's fourth
 * column; older versions wrote 0 or 1 there, which is RD_AF_CLSACT).
 */
enum {
	RD_AF_CLSACT = 1 << 0, /* tc: we added the clsact qdisc */
	RD_AF_DISPATCHER = 1 << 1, /* XDP: in libxdp's dispatcher */
	RD_AF_NO_DISPATCHER = 1
			      << 2, /* XDP: own link, dispatcher unavailable */
	RD_AF_VLAN_CTAG = 1 << 3, /* we turned rx-vlan-hw-parse off */
	RD_AF_VLAN_STAG = 1 << 4, /* we turned rx-vlan-stag-hw-parse off */
	RD_AF_PEER_CTAG = 1
			  << 5, /* veth peer: we turned tx-vlan-hw-insert off */
	RD_AF_PEER_STAG = 1 << 6, /* veth peer: tx-vlan-stag-hw-insert off */
};

struct rd_attached {
	char name[IF_NAMESIZE + 1];
	unsigned int ifindex;
	enum rd_attach_mode mode;
	unsigned int flags; /* RD_AF_*: what detach undoes */
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
