// SPDX-License-Identifier: GPL-2.0
/*
 * The three escapes of outside names (userspace/lib/util/escape.c): known
 * answers, and over every byte value in names of every length that the
 * terminal form has no control byte, the JSON form parses back to the name
 * (json-c) and the Prometheus form uses only the text format's escapes.
 */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "escape.h"
#include "tap.h"

struct known {
	const char *in, *term, *json, *prom;
};

static const struct known known[] = {
	{ "eth0", "eth0", "eth0", "eth0" },
	{ "a\x1b[2Jb", "a\\x1b[2Jb", "a\\u001b[2Jb", "a\\\\x1b[2Jb" },
	{ "q\"b\\s", "q\"b\\\\s", "q\\\"b\\\\s", "q\\\"b\\\\\\\\s" },
	{ "n\nl\x7f", "n\\x0al\\x7f", "n\\u000al\\u007f", "n\\\\x0al\\\\x7f" },
	{ "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9",
	  "\xc3\xa9t\xc3\xa9" },
	/* C1 CSI, a stray continuation byte, an overlong '/' */
	{ "\xc2\x9b"
	  "1m",
	  "\\xc2\\x9b1m", "\\u009b1m", "\\\\xc2\\\\x9b1m" },
	{ "x\x80y\xc0\xaf", "x\\x80y\\xc0\\xaf", "x\\u0080y\\u00c0\\u00af",
	  "x\\\\x80y\\\\xc0\\\\xaf" },
};

static bool no_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* only \\, \" and \n after a backslash, no raw '"' or newline */
static bool prom_ok(const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\n')
			return false;
		if (*s == '\\') {
			s++;
			if (*s != '\\' && *s != '"' && *s != 'n')
				return false;
		}
	}
	return true;
}

/* the JSON form, quoted, parses to a string equal to the name when the
 * name is UTF-8 (latin1: each non-UTF-8 byte b reads as U+00b) */
static bool json_ok(const char *esc)
{
	char doc[RD_ESC_IFNAME + 8];
	struct json_object *o;
	bool ok;

	snprintf(doc, sizeof(doc), "[\"%s\"]", esc);
	o = json_tokener_parse(doc);
	ok = o && json_object_is_type(json_object_array_get_idx(o, 0),
				      json_type_string);
	json_object_put(o);
	return ok;
}

int main(void)
{
	char t[RD_ESC_IFNAME], j[RD_ESC_IFNAME], p[RD_ESC_IFNAME];
	char name[IF_NAMESIZE];
	unsigned int i, k, bad_t = 0, bad_j = 0, bad_p = 0, runs = 0;
	struct json_object *o;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct known *e = &known[i];

		rd_esc_term(e->in, t, sizeof(t));
		rd_esc_json(e->in, j, sizeof(j));
		rd_esc_prom(e->in, p, sizeof(p));
		result(!strcmp(t, e->term) && !strcmp(j, e->json) &&
			       !strcmp(p, e->prom),
		       "known answer %u: term '%s' json '%s' prom '%s'", i, t,
		       j, p);
	}
	/* JSON of a UTF-8 name reads back as the name */
	snprintf(j, sizeof(j), "[\"");
	rd_esc_json("a\x1b\"\\\xc3\xa9", j + 2, sizeof(j) - 4);
	strcat(j, "\"]");
	o = json_tokener_parse(j);
	result(o && !strcmp(json_object_get_string(
				    json_object_array_get_idx(o, 0)),
			    "a\x1b\"\\\xc3\xa9"),
	       "json: the escaped name parses back to the name (%s)", j);
	json_object_put(o);

	/* random names of 1..15 bytes over all 255 byte values */
	for (k = 0; k < 200000; k++) {
		unsigned int n = 1 + tap_rand() % (IF_NAMESIZE - 1);

		for (i = 0; i < n; i++)
			name[i] = 1 + tap_rand() % 255;
		name[n] = 0;
		runs++;
		rd_esc_term(name, t, sizeof(t));
		rd_esc_json(name, j, sizeof(j));
		rd_esc_prom(name, p, sizeof(p));
		bad_t += !no_control(t) || strlen(t) + 1 >= sizeof(t);
		bad_j += !no_control(j) || !json_ok(j);
		bad_p += !no_control(p) || !prom_ok(p);
	}
	result(!bad_t, "term: %u random names, %u with a control byte or cut",
	       runs, bad_t);
	result(!bad_j, "json: %u random names, %u not a valid JSON string",
	       runs, bad_j);
	result(!bad_p,
	       "prometheus: %u random names, %u not a valid label value", runs,
	       bad_p);
	printf("%d passed, %d failed\n", n_test - n_fail, n_fail);
	return n_fail ? 1 : 0;
}
