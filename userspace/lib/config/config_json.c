// SPDX-License-Identifier: GPL-2.0
/*
 * The config's JSON layer: a document read from text (errors with line and
 * column; duplicate keys and NULs refused by jsonstrict.c), and typed reads
 * of its values, each bad one reported on one line named by its JSON path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "config_json.h"

#define CFG_MAX_FILE (64u << 20)

void rd_json_err_print(const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* rd_err keeps it one line, whatever the key holds */
	rd_err("config", "%s: %s", *path ? path : "(top level)", msg);
}

/* JSON paths for error lines; an absurdly deep one is cut with "..." */
void rd_json_path_key(char *out, const char *parent, const char *key)
{
	if (snprintf(out, RD_JSON_PATH_LEN, "%s%s%s", parent,
		     *parent ? "." : "", key) >= RD_JSON_PATH_LEN)
		strcpy(out + RD_JSON_PATH_LEN - 4, "...");
}

void rd_json_path_idx(char *out, const char *parent, unsigned int i)
{
	if (snprintf(out, RD_JSON_PATH_LEN, "%s[%u]", parent, i) >=
	    RD_JSON_PATH_LEN)
		strcpy(out + RD_JSON_PATH_LEN - 4, "...");
}

const char *rd_json_text(struct json_object *v)
{
	return json_object_to_json_string_ext(
		v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

static const char *jtype(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a number with a fraction";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "?";
}

bool rd_json_want_type(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, enum json_type t,
		       const char *what)
{
	if (json_object_is_type(v, t))
		return true;
	rd_json_err(c, path, "expected %s, got %s %s", what, jtype(v),
		    rd_json_text(v));
	return false;
}

int rd_json_get_int(struct rd_json_ctx *c, const char *path,
		    struct json_object *v, long long min, long long max,
		    long long *out)
{
	long long x;

	if (!rd_json_want_type(c, path, v, json_type_int, "an integer"))
		return -EINVAL;
	x = json_object_get_int64(v);
	/* json-c saturates huge literals, which then fail the range check */
	if (x < min || x > max) {
		rd_json_err(c, path, "%s is out of range %lld..%lld",
			    rd_json_text(v), min, max);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

int rd_json_get_u32(struct rd_json_ctx *c, const char *path,
		    struct json_object *v, long long min, long long max,
		    __u32 *out)
{
	long long x;

	if (rd_json_get_int(c, path, v, min, max, &x))
		return -EINVAL;
	*out = x;
	return 0;
}

int rd_json_get_bool(struct rd_json_ctx *c, const char *path,
		     struct json_object *v, bool *out)
{
	if (!rd_json_want_type(c, path, v, json_type_boolean, "true or false"))
		return -EINVAL;
	*out = json_object_get_boolean(v);
	return 0;
}

static void join_names(char *buf, size_t len, const char *const *names,
		       unsigned int n)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = 0;
	for (i = 0; i < n && off < len; i++)
		if (names[i])
			off += snprintf(buf + off, len - off, "%s%s",
					off ? " " : "", names[i]);
}

int rd_json_get_name(struct rd_json_ctx *c, const char *path,
		     struct json_object *v, const char *what,
		     const char *const *names, unsigned int n)
{
	char all[256];
	unsigned int i;

	if (!rd_json_want_type(c, path, v, json_type_string, "a string"))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], json_object_get_string(v)))
			return i;
	join_names(all, sizeof(all), names, n);
	rd_json_err(c, path, "unknown %s %s (expected one of: %s)", what,
		    rd_json_text(v), all);
	return -EINVAL;
}

/* Report keys of obj not in allowed (NULL-terminated). */
void rd_json_check_keys(struct rd_json_ctx *c, const char *path,
			struct json_object *obj, const char *const *allowed)
{
	char p[RD_JSON_PATH_LEN], all[256];
	unsigned int n = 0, i;

	while (allowed[n])
		n++;
	join_names(all, sizeof(all), allowed, n);
	json_object_object_foreach(obj, key, val)
	{
		(void)val;
		for (i = 0; i < n; i++)
			if (!strcmp(key, allowed[i]))
				break;
		if (i == n) {
			rd_json_path_key(p, path, key);
			rd_json_err(c, p, "unknown key (expected one of: %s)",
				    all);
		}
	}
}

/*
 * Element k of the array v, which must be an object with only the allowed
 * keys; its path goes to p. NULL (reported) when it is no object.
 */
struct json_object *rd_json_array_object(struct rd_json_ctx *c,
					 const char *path,
					 struct json_object *v, size_t k,
					 const char *const *allowed, char *p)
{
	struct json_object *o = json_object_array_get_idx(v, k);

	rd_json_path_idx(p, path, k);
	if (!rd_json_want_type(c, p, o, json_type_object, "an object"))
		return NULL;
	rd_json_check_keys(c, p, o, allowed);
	return o;
}

void *rd_json_calloc(struct rd_json_ctx *c, const char *path, size_t n,
		     size_t size)
{
	void *t = calloc(n ? n : 1, size);

	if (!t)
		rd_json_err(c, path, "%s", strerror(ENOMEM));
	return t;
}

struct json_object *rd_json_child(struct json_object *obj, const char *key,
				  const char *parent, char *path)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	rd_json_path_key(path, parent, key);
	return v;
}

int rd_parse_mac(const char *s, __u8 *mac)
{
	unsigned int b[6], i;
	int n = 0;

	if (strlen(s) != 17 ||
	    sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%n", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &n) != 6 ||
	    n != 17)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = b[i];
	return 0;
}

bool rd_parse_uint_str(const char *s, unsigned long long max,
		       unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !errno && !*end && *out <= max;
}

/*
 * "10.0.0.0/8", "2001:db8::/32" or a bare address (a host prefix). Host bits
 * must be clear: "10.1.2.3/16" is almost certainly a typo.
 */
int rd_json_get_prefix(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, __u8 *family, __u8 *addr,
		       __u8 *plen)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash;
	unsigned long long len;
	unsigned int max, i;

	if (!rd_json_want_type(c, path, v, json_type_string, "a prefix string"))
		return -EINVAL;
	if (snprintf(buf, sizeof(buf), "%s", json_object_get_string(v)) >=
	    (int)sizeof(buf))
		goto bad;
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = 0;
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, buf, addr) == 1) {
		*family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, buf, addr) == 1) {
		*family = AF_INET6;
		max = 128;
	} else {
		goto bad;
	}
	len = max;
	if (slash && (!strchr("0123456789", *slash) || strlen(slash) > 3 ||
		      !rd_parse_uint_str(slash, max, &len)))
		goto bad;
	*plen = len;
	for (i = 0; i < max / 8; i++) {
		int keep = (int)len - (int)i * 8;
		__u8 mask = keep >= 8 ? 0xff :
			    keep <= 0 ? 0 :
					0xff << (8 - keep);

		if (addr[i] & ~mask) {
			rd_json_err(c, path,
				    "%s has host bits set beyond /%llu",
				    rd_json_text(v), len);
			return -EINVAL;
		}
	}
	return 0;
bad:
	rd_json_err(c, path, "%s is not an IPv4 or IPv6 prefix (ADDR/LEN)",
		    rd_json_text(v));
	return -EINVAL;
}

static void offset_to_line(const char *buf, size_t off, unsigned int *line,
			   unsigned int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int rd_config_read_json(const char *path, struct json_object **root)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;
	ssize_t r;
	int fd, err = 0;

	*root = NULL;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0) {
		err = -errno;
		rd_err("config", "%s: %s", path, strerror(-err));
		return err;
	}
	for (;;) {
		if (len + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
			nb = cap > CFG_MAX_FILE ? NULL : realloc(buf, cap);
			if (!nb) {
				err = cap > CFG_MAX_FILE ? -EFBIG : -ENOMEM;
				break;
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		if (!r)
			break;
		len += r;
	}
	if (fd)
		close(fd);
	if (err) {
		rd_err("config", "%s: %s", path, strerror(-err));
		free(buf);
		return err;
	}
	err = rd_config_parse_text(path, buf ? buf : "", len, root);
	free(buf);
	return err;
}

int rd_config_parse_text(const char *path, const char *buf, size_t len,
			 struct json_object **root)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	unsigned int line, col;
	size_t end;
	int err = 0;

	*root = NULL;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	*root = json_tokener_parse_ex(tok, buf, len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (*root && jerr == json_tokener_success) {
		while (end < len && strchr(" \t\r\n", buf[end]))
			end++;
		if (end < len) {
			offset_to_line(buf, end, &line, &col);
			rd_err("config",
			       "%s:%u:%u: unexpected text after the JSON document",
			       path, line, col);
			err = -EINVAL;
		} else {
			/* duplicate keys and NULs, which the tree hides */
			err = rd_json_strict(path, buf, len);
		}
	} else if (jerr == json_tokener_continue ||
		   jerr == json_tokener_success) {
		rd_err("config", "%s: unexpected end of file (incomplete JSON)",
		       path);
		err = -EINVAL;
	} else {
		offset_to_line(buf, end, &line, &col);
		rd_err("config", "%s:%u:%u: JSON syntax error: %s", path, line,
		       col, json_tokener_error_desc(jerr));
		err = -EINVAL;
	}
	json_tokener_free(tok);
	if (err) {
		json_object_put(*root);
		*root = NULL;
	}
	return err;
}
