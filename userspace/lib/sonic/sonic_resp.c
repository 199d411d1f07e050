// SPDX-License-Identifier: GPL-2.0
/*
 * hiredis replies with bounds (sonic_resp.h). The reply functions are
 * hiredis' own (hiredis.c, 0.14) plus a charge per object: a reply over
 * RD_RESP_REPLY_MAX or an array over RD_RESP_ELEMS_MAX makes the reader
 * fail ("out of memory" to it) instead of growing. A bulk string is
 * buffered whole before its object is made, so the wait for a reply also
 * bounds the unparsed buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

#include "sonic_resp.h"

/* unparsed bytes beyond one reply: what one read may bring */
#define BUF_SLACK (64u << 10)

static redisReply *charge(const redisReadTask *t, int type, size_t cost)
{
	struct rd_resp_budget *b = t->privdata;
	redisReply *r;

	if (b) {
		if (b->over || cost > RD_RESP_REPLY_MAX - b->used) {
			b->over = true;
			return NULL;
		}
		b->used += cost;
	}
	r = calloc(1, sizeof(*r));
	if (r)
		r->type = type;
	return r;
}

static void *link_up(const redisReadTask *t, redisReply *r)
{
	if (t->parent) {
		redisReply *p = t->parent->obj;

		p->element[t->idx] = r;
	}
	return r;
}

static void *mk_string(const redisReadTask *t, char *str, size_t len)
{
	redisReply *r = charge(t, t->type, sizeof(*r) + len + 1);

	if (!r)
		return NULL;
	r->str = malloc(len + 1);
	if (!r->str) {
		free(r);
		return NULL;
	}
	memcpy(r->str, str, len);
	r->str[len] = 0;
	r->len = len;
	return link_up(t, r);
}

static void *mk_array(const redisReadTask *t, int n)
{
	struct rd_resp_budget *b = t->privdata;
	redisReply *r;

	if (n < 0 || n > RD_RESP_ELEMS_MAX) {
		if (b)
			b->over = true;
		return NULL;
	}
	r = charge(t, REDIS_REPLY_ARRAY, sizeof(*r) + n * sizeof(redisReply *));
	if (!r)
		return NULL;
	if (n) {
		r->element = calloc(n, sizeof(*r->element));
		if (!r->element) {
			free(r);
			return NULL;
		}
	}
	r->elements = n;
	return link_up(t, r);
}

static void *mk_integer(const redisReadTask *t, long long v)
{
	redisReply *r = charge(t, REDIS_REPLY_INTEGER, sizeof(*r));

	if (!r)
		return NULL;
	r->integer = v;
	return link_up(t, r);
}

static void *mk_nil(const redisReadTask *t)
{
	redisReply *r = charge(t, REDIS_REPLY_NIL, sizeof(*r));

	return r ? link_up(t, r) : NULL;
}

static redisReplyObjectFunctions bounded = {
	.createString = mk_string,
	.createArray = mk_array,
	.createInteger = mk_integer,
	.createNil = mk_nil,
	.freeObject = freeReplyObject,
};

int rd_resp_bound(redisContext *c, struct rd_resp_budget *b)
{
	redisReader *rd = redisReaderCreateWithFunctions(&bounded);

	if (!rd)
		return -ENOMEM;
	redisReaderFree(c->reader);
	c->reader = rd;
	rd->privdata = b;
	memset(b, 0, sizeof(*b));
	return 0;
}

static int reader_err(redisContext *c, char *err, size_t elen)
{
	struct rd_resp_budget *b = c->reader->privdata;

	if (b && b->over) {
		snprintf(err, elen,
			 "a reply over %u MB or %d elements: refused",
			 RD_RESP_REPLY_MAX >> 20, RD_RESP_ELEMS_MAX);
		return -EMSGSIZE;
	}
	snprintf(err, elen, "protocol error: %s",
		 c->err ? c->errstr : c->reader->errstr);
	return -EPROTO;
}

int rd_resp_next(redisContext *c, void **out, char *err, size_t elen)
{
	struct rd_resp_budget *b = c->reader->privdata;

	*out = NULL;
	if (b && !c->reader->reply && c->reader->ridx == -1) {
		b->used = 0; /* no reply under way: a new one starts */
		b->over = false;
	}
	if (redisGetReplyFromReader(c, out) != REDIS_OK)
		return reader_err(c, err, elen);
	if (!*out && c->reader->len - c->reader->pos >
			     (size_t)RD_RESP_REPLY_MAX + BUF_SLACK) {
		snprintf(err, elen, "a reply over %u MB: refused",
			 RD_RESP_REPLY_MAX >> 20);
		return -EMSGSIZE;
	}
	return 0;
}

int rd_resp_get(redisContext *c, const volatile sig_atomic_t *stop, void **out,
		char *err, size_t elen)
{
	int done = 0, e;

	*out = NULL;
	while (!done)
		if (redisBufferWrite(c, &done) != REDIS_OK) {
			snprintf(err, elen, "%s", c->errstr);
			return -EIO;
		}
	for (;;) {
		e = rd_resp_next(c, out, err, elen);
		if (e || *out)
			return e;
		if (stop && *stop) {
			snprintf(err, elen, "stopped");
			return -EINTR;
		}
		/* one read, 2 s at most (the socket's timeout); EINTR from a
		 * signal returns here so that stop is seen */
		if (redisBufferRead(c) != REDIS_OK) {
			snprintf(err, elen, "%s",
				 c->err ? c->errstr : "connection lost");
			return -EIO;
		}
	}
}
