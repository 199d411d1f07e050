// SPDX-License-Identifier: GPL-2.0
/*
 * The CONFIG_DB document for the SONiC converter (docs/sonic.md): its shape
 * check, typed reads of its fields, table and port lookups, and the one
 * warning and error line format.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <net/if.h>
#include "rocedp.h"
#include "sonic_db.h"

void sn_warn(struct sn_ctx *c, const char *key, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* rd_err: a key from CONFIG_DB cannot split or forge a line */
	rd_err("sonic: warning", "%s: %s", key, msg);
	c->warnings++;
}

void sn_fail(struct sn_ctx *c, const char *key, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (c->err)
		return;
	c->err = -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rd_err("sonic", "%s: %s", key, msg);
}

struct json_object *sn_table(struct sn_ctx *c, const char *name)
{
	struct json_object *t;

	return json_object_object_get_ex(c->db, name, &t) ? t : NULL;
}

/* "f", else the Redis list form "f@" (hiredis sees leaf-lists that way) */
static struct json_object *field(struct json_object *e, const char *f)
{
	char at[64];
	struct json_object *v;

	if (json_object_object_get_ex(e, f, &v))
		return v;
	snprintf(at, sizeof(at), "%s@", f);
	return json_object_object_get_ex(e, at, &v) ? v : NULL;
}

bool sn_has(struct json_object *e, const char *f)
{
	return field(e, f) != NULL;
}

const char *sn_str(struct sn_ctx *c, const char *key, struct json_object *e,
		   const char *f)
{
	struct json_object *v = field(e, f);

	if (!v)
		return NULL;
	if (json_object_is_type(v, json_type_int))
		return json_object_get_string(v);
	if (!json_object_is_type(v, json_type_string)) {
		sn_fail(c, key, "%s: expected a string, got %s", f,
			json_object_to_json_string(v));
		return NULL;
	}
	return json_object_get_string(v);
}

int sn_uint(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *f, unsigned long long min, unsigned long long max,
	    unsigned long long *out)
{
	const char *s = sn_str(c, key, e, f);
	char *end;

	if (!s)
		return c->err ? -1 : 0;
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end || errno) {
		sn_fail(c, key, "%s: \"%s\" is not a whole number", f, s);
		return -1;
	}
	if (*out < min || *out > max) {
		sn_fail(c, key, "%s: %s is out of range %llu..%llu", f, s, min,
			max);
		return -1;
	}
	return 1;
}

struct json_object *sn_section(struct sn_ctx *c, const char *name)
{
	struct json_object *s;

	if (json_object_object_get_ex(c->out, name, &s))
		return s;
	s = json_object_new_object();
	json_object_object_add(c->out, name, s);
	return s;
}

int sn_enum(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *field, const char *const *names)
{
	const char *s = sn_str(c, key, e, field);
	char all[256] = "";
	int i;

	if (!s)
		return c->err ? -1 : -2;
	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	for (i = 0; names[i]; i++)
		if (!strcasecmp(s, names[i])) {
			sn_warn(c, key,
				"%s: %s taken as %s, the YANG's spelling",
				field, s, names[i]);
			return i;
		}
	for (i = 0; names[i]; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
			 i ? (names[i + 1] ? ", " : " or ") : "", names[i]);
	sn_fail(c, key, "%s: \"%s\" is not %s", field, s, all);
	return -1;
}

int sn_bool(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *f, bool *out)
{
	const char *s = sn_str(c, key, e, f);

	if (!s)
		return c->err ? -1 : 0;
	if (strcasecmp(s, "true") && strcasecmp(s, "false")) {
		sn_fail(c, key, "%s: \"%s\" is not true or false", f, s);
		return -1;
	}
	*out = !strcasecmp(s, "true");
	return 1;
}

static int list_add(struct sn_ctx *c, const char *key, const char *f,
		    const char *s, size_t len, char out[][32], int n, int max)
{
	while (len && (*s == ' ')) {
		s++;
		len--;
	}
	while (len && s[len - 1] == ' ')
		len--;
	if (!len || len >= 32 || n >= max) {
		sn_fail(c, key,
			"%s: bad list element (empty, too long or too many)",
			f);
		return -1;
	}
	memcpy(out[n], s, len);
	out[n][len] = 0;
	return n + 1;
}

int sn_list(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *f, char out[][32], int max)
{
	struct json_object *v = field(e, f), *x;
	const char *s, *comma;
	int n = 0;
	size_t i;

	if (!v)
		return 0;
	if (json_object_is_type(v, json_type_array)) {
		for (i = 0; i < json_object_array_length(v) && n >= 0; i++) {
			x = json_object_array_get_idx(v, i);
			if (!json_object_is_type(x, json_type_string)) {
				sn_fail(c, key,
					"%s: list elements must be strings", f);
				return -1;
			}
			s = json_object_get_string(x);
			n = list_add(c, key, f, s, strlen(s), out, n, max);
		}
		if (!i)
			sn_fail(c, key, "%s: empty list", f);
		return i ? n : -1;
	}
	s = sn_str(c, key, e, f);
	if (!s)
		return -1;
	while (n >= 0) {
		comma = strchr(s, ',');
		n = list_add(c, key, f, s,
			     comma ? (size_t)(comma - s) : strlen(s), out, n,
			     max);
		if (!comma)
			break;
		s = comma + 1;
	}
	return n;
}

int sn_ref(struct sn_ctx *c, const char *key, const char *table, const char *v,
	   char *out, size_t len)
{
	size_t tl = strlen(table), n = strlen(v);

	/* "[WRED_PROFILE|AZURE]" (older releases; ':' older still) */
	if (v[0] == '[') {
		if (n < tl + 3 || strncmp(v + 1, table, tl) ||
		    (v[tl + 1] != '|' && v[tl + 1] != ':') || v[n - 1] != ']') {
			sn_fail(c, key, "\"%s\" is no reference to %s", v,
				table);
			return -1;
		}
		v += tl + 2;
		n -= tl + 3;
	}
	if (!n || n >= len) {
		sn_fail(c, key, "bad %s name \"%s\"", table, v);
		return -1;
	}
	memcpy(out, v, n);
	out[n] = 0;
	return 0;
}

const char *sn_dev(struct sn_ctx *c, const char *key, const char *port)
{
	int i;

	if (!c->have_ports)
		return port;
	for (i = 0; i < c->n_pm; i++)
		if (!strcmp(c->pm[i].sonic, port))
			return c->pm[i].dev;
	sn_warn(c, key, "port %s has no --ports entry: skipped", port);
	return NULL;
}

static int natural_cmp(const void *a, const void *b)
{
	return strverscmp(*(const char *const *)a, *(const char *const *)b);
}

int sn_sorted_keys(struct json_object *t, const char ***keys)
{
	int n = 0;

	*keys = calloc(json_object_object_length(t) + 1, sizeof(**keys));
	if (!*keys)
		return -ENOMEM;
	json_object_object_foreach(t, k, v)
	{
		(void)v;
		(*keys)[n++] = k;
	}
	qsort(*keys, n, sizeof(**keys), natural_cmp);
	return n;
}

void sn_rows_open(struct sn_rows *r, struct sn_ctx *c, const char *table)
{
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->table = table;
	r->t = sn_table(c, table);
	r->i = -1;
	if (r->t)
		r->n = sn_sorted_keys(r->t, &r->names);
}

bool sn_rows_next(struct sn_rows *r)
{
	if (++r->i >= r->n || r->c->err)
		return false;
	r->name = r->names[r->i];
	r->e = json_object_object_get(r->t, r->name);
	snprintf(r->key, sizeof(r->key), "%s|%s", r->table, r->name);
	return true;
}

void sn_rows_close(struct sn_rows *r)
{
	free(r->names);
	r->names = NULL;
}

/* config_db.json is {"TABLE": {"key": {"field": "value"|[...]}}} */
void sn_check_shape(struct sn_ctx *c)
{
	char key[SN_KEY_LEN];

	if (!json_object_is_type(c->db, json_type_object)) {
		sn_fail(c, "document", "expected an object of tables");
		return;
	}
	json_object_object_foreach(c->db, t, tv)
	{
		if (!json_object_is_type(tv, json_type_object)) {
			sn_fail(c, t, "expected an object of keys");
			return;
		}
		json_object_object_foreach(tv, k, kv)
		{
			snprintf(key, sizeof(key), "%s|%s", t, k);
			if (!json_object_is_type(kv, json_type_object)) {
				sn_fail(c, key, "expected an object of fields");
				return;
			}
			json_object_object_foreach(kv, f, fv)
			{
				if (json_object_is_type(fv, json_type_string) ||
				    json_object_is_type(fv, json_type_int) ||
				    json_object_is_type(fv, json_type_array))
					continue;
				sn_fail(c, key,
					"%s: expected a string or a list", f);
				return;
			}
		}
	}
}

/* "Ethernet0=eth1,Ethernet4=eth2" */
int sn_parse_ports(struct sn_ctx *c, const char *s)
{
	const char *p = s, *eq, *end;
	int cap = 1, i;

	for (eq = s; *eq; eq++)
		cap += *eq == ',';
	c->pm = calloc(cap, sizeof(*c->pm));
	if (!c->pm)
		return -ENOMEM;
	while (*p) {
		struct sn_portmap *m = &c->pm[c->n_pm];

		end = strchrnul(p, ',');
		eq = memchr(p, '=', end - p);
		if (!eq || eq == p || eq + 1 == end ||
		    (size_t)(eq - p) >= sizeof(m->sonic) ||
		    (size_t)(end - eq - 1) >= IF_NAMESIZE) {
			sn_fail(c, "--ports",
				"\"%.*s\" is not SONICPORT=DEV (DEV at most %d chars)",
				(int)(end - p), p, IF_NAMESIZE - 1);
			return -EINVAL;
		}
		memcpy(m->sonic, p, eq - p);
		memcpy(m->dev, eq + 1, end - eq - 1);
		for (i = 0; i < c->n_pm; i++)
			if (!strcmp(c->pm[i].sonic, m->sonic) ||
			    !strcmp(c->pm[i].dev, m->dev)) {
				sn_fail(c, "--ports",
					"%s=%s: port or device given twice",
					m->sonic, m->dev);
				return -EINVAL;
			}
		c->n_pm++;
		p = *end ? end + 1 : end;
	}
	return 0;
}
