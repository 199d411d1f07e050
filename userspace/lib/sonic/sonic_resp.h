/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounded replies from a Redis server nobody vouches for (sonic_resp.c):
 * hiredis 0.14 has no limit on a reply's size (no maxelements), so its
 * reader gets reply functions that count what one reply takes, and the
 * wait for a reply checks the unparsed buffer and a stop flag.
 */
#ifndef ROCEDP_SONIC_RESP_H
#define ROCEDP_SONIC_RESP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* One reply's bytes (strings and elements) and elements per array. */
#define RD_RESP_REPLY_MAX (16u << 20)
#define RD_RESP_ELEMS_MAX (1 << 20)

struct redisContext;

/* What the reply being read has taken so far (the reader's privdata). */
struct rd_resp_budget {
	size_t used;
	bool over;
};

/* Give c's reader the counting reply functions, charged to b. -ENOMEM. */
int rd_resp_bound(struct redisContext *c, struct rd_resp_budget *b);
/* Send what is pipelined, then read until one whole reply is in *out
 * (free with freeReplyObject). -EINTR once *stop, -EMSGSIZE over the
 * bounds, -EPROTO, -EIO; why in err. */
int rd_resp_get(struct redisContext *c, const volatile sig_atomic_t *stop,
		void **out, char *err, size_t elen);
/* The next reply already read into c's buffer, or *out NULL: no wait.
 * -EMSGSIZE, -EPROTO; why in err. */
int rd_resp_next(struct redisContext *c, void **out, char *err, size_t elen);

#endif
