/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hand-off of a config's static routes and groups to the running
 * `rocedp sync` of the same maps (config_handoff.c), so that its
 * group_commit stays the one committer of routes and groups
 * (docs/design.md, "One committer of routes and groups").
 *
 * The channel is a unix stream socket in ROCEDP_RUN_DIR (0700), the
 * socket itself 0600 and root's, named by the kernel's id of the maps'
 * rd_config; the daemon also refuses a peer without CAP_NET_ADMIN. One
 * request a connection: a header, the groups, the routes; one reply.
 */
#ifndef ROCEDP_CONFIG_HANDOFF_H
#define ROCEDP_CONFIG_HANDOFF_H

#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "config_static.h"

#define RD_HANDOFF_MAGIC 0x72646831u /* "rdh1" */
/* a request beyond this is refused unread (a config has far fewer) */
#define RD_HANDOFF_MAX_ROUTES (1u << 20)

struct rd_handoff_req {
	uint32_t magic;
	/* this build's record sizes: a daemon of another build refuses */
	uint32_t group_size, route_size;
	uint32_t n_groups, n_routes;
};

struct rd_handoff_reply {
	uint32_t magic;
	int32_t err; /* 0 or -errno of the commit */
	uint8_t wrote; /* struct rd_config_static's */
	uint8_t pad[3];
	char msg[200]; /* the daemon's line for a failure */
};

/* The socket of the sync that writes the maps whose rd_config has map
 * id config_id. -ENAMETOOLONG. */
int rd_handoff_path(int config_id, char *buf, size_t len);
/* Read exactly len bytes of the hand-off stream (both ends use it):
 * 0, or -errno (-ECONNRESET when the peer closed first). */
int rd_handoff_recv_all(int fd, void *p, size_t len);

/*
 * Hand s's static routes and groups to the sync of m and wait for its
 * answer. 1: no sync listens (the caller commits them itself); 0: the
 * sync committed them; -errno: it did not, or it died before it said so
 * (named on stderr; run->wrote then says some may have been written).
 */
int rd_handoff_commit(const struct rd_maps *m, const struct rd_staged *s,
		      struct rd_config_static *run);

/*
 * Commit s's static routes and groups through the one committer: the
 * running rocedp sync of m when one runs, else this process
 * (rd_config_static_apply). The caller holds the writers' lock either
 * way. -errno; the failure was named.
 */
int rd_config_static_commit(const struct rd_maps *m, const struct rd_staged *s,
			    struct rd_config_static *run);

#endif
