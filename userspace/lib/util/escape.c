// SPDX-License-Identifier: GPL-2.0
/* Names from outside, escaped for a terminal, JSON or Prometheus (escape.h). */
#include <stdio.h>
#include <string.h>
#include "escape.h"
#include "util.h"

/*
 * The length of the valid UTF-8 sequence at s (1..4), or 0 when s does not
 * start one (overlong forms and surrogates count as invalid).
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], cp;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* A C1 control character (U+0080..U+009F): as dangerous as ESC */
static int is_c1(const unsigned char *s, size_t n)
{
	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

/* Append piece (n bytes) to buf at *o, unless it would not fit whole */
static int put(char *buf, size_t len, size_t *o, const char *piece, size_t n)
{
	if (*o + n + 1 > len)
		return -1;
	memcpy(buf + *o, piece, n);
	*o += n;
	buf[*o] = 0;
	return 0;
}

const char *rd_esc_term(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char e[8];
	size_t o = 0, n;

	if (!len)
		return buf;
	buf[0] = 0;
	while (*p) {
		n = utf8_len(p);
		if (n == 1 && *p == '\\') {
			if (put(buf, len, &o, "\\\\", 2))
				break;
		} else if (n == 1 && *p >= 0x20 && *p != 0x7f) {
			if (put(buf, len, &o, (const char *)p, 1))
				break;
		} else if (n > 1 && !is_c1(p, n)) {
			if (put(buf, len, &o, (const char *)p, n))
				break;
		} else {
			/* one byte at a time: a C1 character is two */
			n = 1;
			snprintf(e, sizeof(e), "\\x%02x", *p);
			if (put(buf, len, &o, e, 4))
				break;
		}
		p += n;
	}
	return buf;
}

const char *rd_esc_json(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char e[8];
	size_t o = 0, n;

	if (!len)
		return buf;
	buf[0] = 0;
	while (*p) {
		n = utf8_len(p);
		if (n == 1 && (*p == '"' || *p == '\\')) {
			e[0] = '\\';
			e[1] = *p;
			if (put(buf, len, &o, e, 2))
				break;
		} else if (n == 1 && *p >= 0x20 && *p != 0x7f) {
			if (put(buf, len, &o, (const char *)p, 1))
				break;
		} else if (n > 1 && !is_c1(p, n)) {
			if (put(buf, len, &o, (const char *)p, n))
				break;
		} else if (n == 2) { /* C1: its code point is the second byte */
			snprintf(e, sizeof(e), "\\u%04x", p[1]);
			if (put(buf, len, &o, e, 6))
				break;
		} else {
			n = 1;
			snprintf(e, sizeof(e), "\\u%04x", *p);
			if (put(buf, len, &o, e, 6))
				break;
		}
		p += n;
	}
	return buf;
}

const char *rd_esc_prom(const char *s, char *buf, size_t len)
{
	char t[RD_ESC_LEN(64)];
	const char *p;
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	/* names here are short; a longer one is cut, never mis-escaped */
	rd_esc_term(s, t, sizeof(t));
	for (p = t; *p; p++) {
		if (*p == '\\' || *p == '"') {
			char e[2] = { '\\', *p };

			if (put(buf, len, &o, e, 2))
				break;
		} else if (put(buf, len, &o, p, 1)) {
			break;
		}
	}
	return buf;
}

const char *rd_esc(enum rd_esc kind, const char *s, char *buf, size_t len)
{
	switch (kind) {
	case RD_ESC_JSON:
		return rd_esc_json(s, buf, len);
	case RD_ESC_PROM:
		return rd_esc_prom(s, buf, len);
	default:
		return rd_esc_term(s, buf, len);
	}
}

const char *rd_ifname_esc(unsigned int ifindex, enum rd_esc kind, char *buf)
{
	char name[IF_NAMESIZE];

	return rd_esc(kind, rd_ifname(ifindex, name), buf, RD_ESC_IFNAME);
}
