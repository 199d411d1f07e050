/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The config's JSON layer (config_json.c): text to a document, and typed
 * reads of its values that report each bad one on one line, named by its
 * JSON path (hash.mode, groups[2].members[0].dev). The config checks
 * (config_parse.c) are written in these terms.
 */
#ifndef ROCEDP_CONFIG_JSON_H
#define ROCEDP_CONFIG_JSON_H

#include <stdbool.h>
#include <json-c/json.h>
#include "rocedp.h"
#include "jsonstrict.h"

#define RD_JSON_PATH_LEN 256

/* The errors found in one document so far. */
struct rd_host;

struct rd_json_ctx {
	int errors;
	/* how port names resolve (config_parse.h); NULL: this netns */
	const struct rd_host *host;
};

/* One error line "rocedp: config: PATH: ..."; use rd_json_err. */
void __attribute__((format(printf, 2, 3)))
rd_json_err_print(const char *path, const char *fmt, ...);

/*
 * Every error is counted, the first RD_JSON_MAX_ERRORS printed: a 10 MB
 * file of errors once printed 5M lines. A macro, so that the arguments
 * (rd_json_text() renders a value) are not even computed past the cap.
 */
#define rd_json_err(c, path, ...)                               \
	do {                                                    \
		if (++(c)->errors <= RD_JSON_MAX_ERRORS)        \
			rd_json_err_print((path), __VA_ARGS__); \
	} while (0)

/* JSON paths for error lines; an absurdly deep one is cut with "..." */
void rd_json_path_key(char *out, const char *parent, const char *key);
void rd_json_path_idx(char *out, const char *parent, unsigned int i);
/* A value as compact JSON text, for messages. */
const char *rd_json_text(struct json_object *v);

/* Typed reads: false / -EINVAL with the error reported. */
bool rd_json_want_type(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, enum json_type t,
		       const char *what);
int rd_json_get_int(struct rd_json_ctx *c, const char *path,
		    struct json_object *v, long long min, long long max,
		    long long *out);
int rd_json_get_u32(struct rd_json_ctx *c, const char *path,
		    struct json_object *v, long long min, long long max,
		    __u32 *out);
int rd_json_get_bool(struct rd_json_ctx *c, const char *path,
		     struct json_object *v, bool *out);
/* The index of v's string in names[0..n), or -EINVAL (lists them). */
int rd_json_get_name(struct rd_json_ctx *c, const char *path,
		     struct json_object *v, const char *what,
		     const char *const *names, unsigned int n);
/* Report keys of obj not in allowed (NULL-terminated). */
void rd_json_check_keys(struct rd_json_ctx *c, const char *path,
			struct json_object *obj, const char *const *allowed);
/*
 * Element k of the array v, which must be an object with only the allowed
 * keys; its path goes to p. NULL (reported) when it is no object.
 */
struct json_object *rd_json_array_object(struct rd_json_ctx *c,
					 const char *path,
					 struct json_object *v, size_t k,
					 const char *const *allowed, char *p);
/*
 * A table for n entries of size bytes, zeroed; never NULL for n = 0 (so
 * NULL means no memory). NULL reported at path.
 */
void *rd_json_calloc(struct rd_json_ctx *c, const char *path, size_t n,
		     size_t size);
/* obj's member key, its path into path; NULL when absent. */
struct json_object *rd_json_child(struct json_object *obj, const char *key,
				  const char *parent, char *path);

/* "aa:bb:cc:dd:ee:ff": 0 or -EINVAL. */
int rd_parse_mac(const char *s, __u8 *mac);
/* A whole unsigned number (0x... too) no greater than max. */
bool rd_parse_uint_str(const char *s, unsigned long long max,
		       unsigned long long *out);
/* A prefix string into family, addr (16 bytes) and plen; -EINVAL. */
int rd_json_get_prefix(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, __u8 *family, __u8 *addr,
		       __u8 *plen);

/* Read a JSON file ("-" = stdin); I/O and syntax errors are printed. */
int rd_config_read_json(const char *path, struct json_object **root);
/* Parse JSON text; syntax errors are printed under the name path. */
int rd_config_parse_text(const char *path, const char *buf, size_t len,
			 struct json_object **root);

#endif
