// SPDX-License-Identifier: GPL-2.0
/*
 * Duplicate keys and NUL characters in a JSON document (jsonstrict.h).
 *
 * json-c's tree cannot show either: an object keeps one value per key, and
 * keys are C strings. So the text is scanned again after json-c accepted
 * it: a small lexer (json-c's lenient syntax: comments, single quotes,
 * trailing commas) that tracks objects and which strings are keys. A
 * string with an escape is decoded by json-c itself, so two keys are the
 * same here exactly when they are the same for json-c ("a" and "\u0061").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "jsonstrict.h"
#include "rocedp.h"

struct skey {
	size_t off; /* of the opening quote */
	size_t len;
	const char *s; /* decoded; into the text when there was no escape */
	char *own; /* the decoded copy to free, if any */
};

struct frame {
	bool obj;
	bool expect_key;
	struct skey *keys;
	size_t n, cap;
};

struct scan {
	const char *name;
	const char *buf;
	size_t len;
	unsigned long errors;
	size_t *nl; /* offsets of '\n', built on the first error */
	size_t n_nl;
	bool nl_done;
	struct json_tokener *tok;
	struct frame *st;
	size_t depth, st_cap;
};

static void line_col(struct scan *s, size_t off, unsigned int *line,
		     unsigned int *col)
{
	size_t lo = 0, hi, i, n = 0;

	if (!s->nl_done) {
		s->nl_done = true;
		for (i = 0; i < s->len; i++)
			n += s->buf[i] == '\n';
		s->nl = malloc((n ? n : 1) * sizeof(*s->nl));
		if (s->nl)
			for (i = 0; i < s->len; i++)
				if (s->buf[i] == '\n')
					s->nl[s->n_nl++] = i;
	}
	/* lines before off = newlines at offsets < off */
	hi = s->n_nl;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->nl[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = off - (lo ? s->nl[lo - 1] + 1 : 0) + 1;
}

/* the key as written, cut to 60 bytes */
static void raw_text(const struct scan *s, size_t off, char *out, size_t sz)
{
	size_t i = off + 1, o = 0;
	char q = s->buf[off];

	while (i < s->len && s->buf[i] != q && o + 1 < sz) {
		if (s->buf[i] == '\\' && i + 1 < s->len && o + 2 < sz)
			out[o++] = s->buf[i++];
		out[o++] = s->buf[i++];
	}
	out[o] = 0;
	if (o + 1 >= sz && sz > 4)
		strcpy(out + sz - 4, "...");
}

static void __attribute__((format(printf, 3, 4)))
serr(struct scan *s, size_t off, const char *fmt, ...)
{
	unsigned int line, col;
	char msg[512];
	va_list ap;

	if (++s->errors > RD_JSON_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	line_col(s, off, &line, &col);
	rd_err("config", "%s:%u:%u: %s", s->name, line, col, msg);
}

void rd_json_more_errors(const char *obj, unsigned long n)
{
	if (n > RD_JSON_MAX_ERRORS)
		rd_err(obj,
		       "... and %lu more errors (only the first %u are shown)",
		       n - RD_JSON_MAX_ERRORS, RD_JSON_MAX_ERRORS);
}

/* The string at off (quote q, closing quote at end) decoded into k. */
static int decode(struct scan *s, size_t off, size_t end, struct skey *k)
{
	struct json_object *o;

	k->off = off;
	k->own = NULL;
	if (!memchr(s->buf + off + 1, '\\', end - off - 1)) {
		k->s = s->buf + off + 1;
		k->len = end - off - 1;
		return 0;
	}
	json_tokener_reset(s->tok);
	o = json_tokener_parse_ex(s->tok, s->buf + off, end - off + 1);
	if (!json_object_is_type(o, json_type_string)) {
		json_object_put(o);
		return -EINVAL; /* cannot be: json-c parsed it before */
	}
	k->len = json_object_get_string_len(o);
	k->own = malloc(k->len + 1);
	if (!k->own) {
		json_object_put(o);
		return -ENOMEM;
	}
	memcpy(k->own, json_object_get_string(o), k->len);
	k->s = k->own;
	json_object_put(o);
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct skey *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void close_object(struct scan *s, struct frame *f)
{
	unsigned int line = 0, col = 0;
	char raw[64] = "";
	size_t i, first = 0;

	qsort(f->keys, f->n, sizeof(*f->keys), key_cmp);
	for (i = 1; i < f->n; i++) {
		if (f->keys[i].len != f->keys[first].len ||
		    memcmp(f->keys[i].s, f->keys[first].s, f->keys[i].len)) {
			first = i;
			continue;
		}
		if (s->errors < RD_JSON_MAX_ERRORS) {
			raw_text(s, f->keys[i].off, raw, sizeof(raw));
			line_col(s, f->keys[first].off, &line, &col);
		}
		serr(s, f->keys[i].off,
		     "key \"%s\" is given twice in one object (first at %u:%u)",
		     raw, line, col);
	}
	for (i = 0; i < f->n; i++)
		free(f->keys[i].own);
	free(f->keys);
	f->keys = NULL;
	f->n = f->cap = 0;
}

static int push(struct scan *s, bool obj)
{
	struct frame *nf;

	if (s->depth == s->st_cap) {
		s->st_cap = s->st_cap ? s->st_cap * 2 : 16;
		nf = realloc(s->st, s->st_cap * sizeof(*s->st));
		if (!nf)
			return -ENOMEM;
		s->st = nf;
	}
	memset(&s->st[s->depth], 0, sizeof(s->st[0]));
	s->st[s->depth].obj = obj;
	s->st[s->depth].expect_key = obj;
	s->depth++;
	return 0;
}

static void pop(struct scan *s)
{
	if (!s->depth)
		return;
	s->depth--;
	if (s->st[s->depth].obj)
		close_object(s, &s->st[s->depth]);
}

/* One string token at i; returns the offset after it. */
static int string(struct scan *s, size_t i, size_t *next)
{
	struct frame *f = s->depth ? &s->st[s->depth - 1] : NULL;
	bool is_key = f && f->obj && f->expect_key;
	char q = s->buf[i];
	struct skey k, *nk;
	size_t j = i + 1;
	int err;

	while (j < s->len && s->buf[j] != q)
		j += s->buf[j] == '\\' ? 2 : 1;
	if (j >= s->len)
		j = s->len - 1; /* cannot be: json-c parsed it */
	*next = j + 1;
	err = decode(s, i, j, &k);
	if (err)
		return err;
	if (memchr(k.s, 0, k.len))
		serr(s, i, "%s holds a NUL character (\\u0000)",
		     is_key ? "a key" : "a string");
	if (!is_key) {
		free(k.own);
		return 0;
	}
	f->expect_key = false;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		nk = realloc(f->keys, f->cap * sizeof(*f->keys));
		if (!nk) {
			free(k.own);
			return -ENOMEM;
		}
		f->keys = nk;
	}
	f->keys[f->n++] = k;
	return 0;
}

static int scan_text(struct scan *s)
{
	size_t i = 0;
	const char *b = s->buf;
	int err = 0;

	while (i < s->len && !err) {
		char c = b[i];

		switch (c) {
		case '{':
		case '[':
			err = push(s, c == '{');
			i++;
			break;
		case '}':
		case ']':
			pop(s);
			i++;
			break;
		case ',':
			if (s->depth && s->st[s->depth - 1].obj)
				s->st[s->depth - 1].expect_key = true;
			i++;
			break;
		case '"':
		case '\'':
			err = string(s, i, &i);
			break;
		case '/':
			if (i + 1 < s->len && b[i + 1] == '*') {
				const char *e = memmem(b + i + 2,
						       s->len - i - 2, "*/", 2);

				i = e ? (size_t)(e - b) + 2 : s->len;
			} else if (i + 1 < s->len && b[i + 1] == '/') {
				const char *e = memchr(b + i, '\n', s->len - i);

				i = e ? (size_t)(e - b) + 1 : s->len;
			} else {
				i++;
			}
			break;
		default: /* spaces, ':', numbers, literals */
			i++;
		}
	}
	while (s->depth)
		pop(s);
	return err;
}

int rd_json_strict(const char *name, const char *buf, size_t len)
{
	struct scan s = { .name = name, .buf = buf, .len = len };
	int err;

	s.tok = json_tokener_new();
	if (!s.tok)
		return -ENOMEM;
	err = scan_text(&s);
	json_tokener_free(s.tok);
	free(s.st);
	free(s.nl);
	if (err)
		return err;
	rd_json_more_errors("config", s.errors);
	return s.errors ? -EINVAL : 0;
}
