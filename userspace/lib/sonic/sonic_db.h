/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CONFIG_DB document as the SONiC converter reads it (sonic_db.c):
 * {"TABLE": {"key": {"field": "value"}}}, fields read with their key named
 * in every warning and error. docs/sonic.md.
 */
#ifndef ROCEDP_SONIC_DB_H
#define ROCEDP_SONIC_DB_H

#include <stdbool.h>
#include <json-c/json.h>

#define SN_KEY_LEN 160
#define SN_MAX_LIST 32

struct sn_portmap {
	char sonic[64];
	char dev[16];
};

struct sn_ctx {
	struct json_object *db;
	bool have_ports; /* --ports given: unmapped ports are skipped */
	struct sn_portmap *pm;
	int n_pm;
	int warnings;
	int err; /* the first error only is printed */
	struct json_object *out;
};

void __attribute__((format(printf, 3, 4)))
sn_warn(struct sn_ctx *c, const char *key, const char *fmt, ...);
void __attribute__((format(printf, 3, 4)))
sn_fail(struct sn_ctx *c, const char *key, const char *fmt, ...);

/* Child object NAME of c->out, created on first use (sonic.c) */
struct json_object *sn_section(struct sn_ctx *c, const char *name);
/* TABLE, or NULL when the document has none */
struct json_object *sn_table(struct sn_ctx *c, const char *name);
/* Whether e has the field ("f" or "f@") */
bool sn_has(struct json_object *e, const char *field);
/* A field's string value ("f" or Redis' list form "f@"); NULL if absent. */
const char *sn_str(struct sn_ctx *c, const char *key, struct json_object *e,
		   const char *field);
/* 1 present and in range, 0 absent, -1 malformed (reported) */
int sn_uint(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *field, unsigned long long min, unsigned long long max,
	    unsigned long long *out);
/*
 * An enumeration field: the index of its value in names (NULL-ended), or
 * -2 absent, -1 malformed (reported). The YANG's spelling is names'; any
 * other case is accepted with a warning (sonic-swss' own tests write
 * PER_FLOWLET_QUALITY).
 */
int sn_enum(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *field, const char *const *names);
/* "true"/"false": 1 present, 0 absent, -1 malformed */
int sn_bool(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *field, bool *out);
/* A list field (JSON array or "a,b,c"): count, 0 absent, -1 malformed. */
int sn_list(struct sn_ctx *c, const char *key, struct json_object *e,
	    const char *field, char out[][32], int max);
/* "NAME" or the reference form "[TABLE|NAME]" into NAME; -1 malformed */
int sn_ref(struct sn_ctx *c, const char *key, const char *table, const char *v,
	   char *out, size_t len);
/* The Linux device for a SONiC port: NULL (warned) when --ports omits it */
const char *sn_dev(struct sn_ctx *c, const char *key, const char *port);
/* Keys of a table in natural order (Ethernet4 before Ethernet12). */
int sn_sorted_keys(struct json_object *t, const char ***keys);
/*
 * A table's rows in natural order, up to the first error (c->err):
 *	for (sn_rows_open(&r, c, "TABLE"); sn_rows_next(&r);)
 *		r.i, r.name, r.e (its fields), r.key ("TABLE|name", for messages)
 *	sn_rows_close(&r);
 * r.names[0] is the first row's name. A missing table has no rows.
 */
struct sn_rows {
	struct sn_ctx *c;
	const char *table;
	struct json_object *t;
	const char **names;
	int n, i;
	const char *name;
	struct json_object *e;
	char key[SN_KEY_LEN];
};
void sn_rows_open(struct sn_rows *r, struct sn_ctx *c, const char *table);
bool sn_rows_next(struct sn_rows *r);
void sn_rows_close(struct sn_rows *r);

/* {"TABLE": {"key": {"field": string|list}}}, else one error */
void sn_check_shape(struct sn_ctx *c);
/* --ports "Ethernet0=eth1,Ethernet4=eth2" into c->pm */
int sn_parse_ports(struct sn_ctx *c, const char *s);

#endif
