// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp's own knobs in CONFIG_DB (docs/sonic.md, "rocedp's own tables").
 * Each field is one key of the rocedp document, named section_key; the
 * converter checks its shape (a whole number, true/false, a list), and the
 * document's own parser its range, as for `config load`: a value out of
 * range refuses the whole change.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rocedp.h"
#include "sonic_rocedp.h"

enum ftype { F_UINT, F_BOOL, F_STR, F_LIST };

static const struct rfield {
	const char *field; /* in ROCEDP|global */
	const char *section; /* of the document; NULL: top level */
	const char *key;
	enum ftype t;
} rfields[] = {
	{ "features", NULL, "features", F_LIST },
	{ "hash_mode", "hash", "mode", F_STR },
	{ "hash_seed", "hash", "seed", F_UINT },
	{ "hash_symmetric", "hash", "symmetric", F_BOOL },
	{ "flowlet_rtt_us", "flowlet", "rtt_us", F_UINT },
	{ "flowlet_gap", "flowlet", "gap", F_STR },
	{ "flowlet_gap_min_us", "flowlet", "gap_min_us", F_UINT },
	{ "flowlet_gap_max_us", "flowlet", "gap_max_us", F_UINT },
	{ "flowlet_choice", "flowlet", "choice", F_STR },
	{ "flowlet_load_tau_us", "flowlet", "load_tau_us", F_UINT },
	{ "flowlet_rtt_ewma_shift", "flowlet", "rtt_ewma_shift", F_UINT },
	{ "telemetry_qp_stall_us", "telemetry", "qp_stall_us", F_UINT },
};

#define N_RFIELDS (sizeof(rfields) / sizeof(rfields[0]))
#define MAX_LIST 16

static const struct rfield *rfield_of(const char *f)
{
	size_t i, n = strlen(f);

	if (n && f[n - 1] == '@') /* ConfigDBConnector's list form */
		n--;
	for (i = 0; i < N_RFIELDS; i++)
		if (strlen(rfields[i].field) == n &&
		    !strncmp(rfields[i].field, f, n))
			return &rfields[i];
	return NULL;
}

/* Put v at where; a different value from SONiC's tables is said */
static void put(struct sn_ctx *c, const char *key, const struct rfield *rf,
		struct json_object *v)
{
	struct json_object *where = rf->section ? sn_section(c, rf->section) :
						  c->out,
			   *old;

	if (json_object_object_get_ex(where, rf->key, &old) &&
	    !json_object_equal(old, v))
		sn_warn(c, key, "%s %s replaces %s from SONiC's tables",
			rf->field, json_object_to_json_string(v),
			json_object_to_json_string(old));
	json_object_object_add(where, rf->key, v);
}

static void convert_global(struct sn_ctx *c)
{
	char list[MAX_LIST][32];
	unsigned long long u;
	const struct rfield *rf;
	struct json_object *arr;
	struct sn_rows r;
	const char *s;
	bool b;
	int n, i;

	for (sn_rows_open(&r, c, "ROCEDP"); sn_rows_next(&r);) {
		if (strcmp(r.name, "global")) {
			sn_fail(c, r.key,
				"rocedp's knobs are in ROCEDP|global; there is no other key");
			break;
		}
		json_object_object_foreach(r.e, f, v)
		{
			(void)v;
			rf = rfield_of(f);
			if (!rf) {
				sn_fail(c, r.key,
					"%s: no such field (sonic-rocedp.yang)",
					f);
				break;
			}
			switch (rf->t) {
			case F_UINT:
				if (sn_uint(c, r.key, r.e, rf->field, 0,
					    UINT32_MAX, &u) > 0)
					put(c, r.key, rf,
					    json_object_new_int64((int64_t)u));
				break;
			case F_BOOL:
				if (sn_bool(c, r.key, r.e, rf->field, &b) > 0)
					put(c, r.key, rf,
					    json_object_new_boolean(b));
				break;
			case F_STR:
				s = sn_str(c, r.key, r.e, rf->field);
				if (s)
					put(c, r.key, rf,
					    json_object_new_string(s));
				break;
			case F_LIST:
				n = sn_list(c, r.key, r.e, rf->field, list,
					    MAX_LIST);
				if (n < 0)
					break;
				arr = json_object_new_array();
				for (i = 0; i < n; i++)
					json_object_array_add(
						arr, json_object_new_string(
							     list[i]));
				put(c, r.key, rf, arr);
				break;
			}
			if (c->err)
				break;
		}
	}
	sn_rows_close(&r);
}

/* ROCEDP_QOS|<class>: action leave, or dscp (and pcp) */
static void convert_qos(struct sn_ctx *c)
{
	struct json_object *q, *v;
	unsigned long long d, p;
	struct sn_rows r;
	const char *s;
	int hd, hp;

	for (sn_rows_open(&r, c, "ROCEDP_QOS"); sn_rows_next(&r);) {
		s = sn_str(c, r.key, r.e, "action");
		hd = sn_uint(c, r.key, r.e, "dscp", 0, 63, &d);
		hp = sn_uint(c, r.key, r.e, "pcp", 0, 7, &p);
		if (c->err)
			break;
		if (s && strcmp(s, "leave")) {
			sn_fail(c, r.key, "action: \"%s\" is not leave", s);
			break;
		}
		if (!!s == !!hd) {
			sn_fail(c, r.key,
				"want action leave, or dscp (and pcp), not %s",
				s ? "both" : "neither");
			break;
		}
		if (s) {
			v = json_object_new_string("leave");
		} else {
			v = json_object_new_object();
			json_object_object_add(v, "dscp",
					       json_object_new_int64(d));
			if (hp > 0)
				json_object_object_add(
					v, "pcp", json_object_new_int64(p));
		}
		q = sn_section(c, "qos");
		json_object_object_add(q, r.name, v);
	}
	sn_rows_close(&r);
}

/* ROCEDP_CTS_RULE|<name>: rules in `index` order, then by name */
struct cts_row {
	unsigned long long index;
	const char *name;
	struct json_object *rule;
};

static int by_index(const void *a, const void *b)
{
	const struct cts_row *x = a, *y = b;

	return x->index != y->index ? (x->index < y->index ? -1 : 1) :
				      strcmp(x->name, y->name);
}

static void convert_cts(struct sn_ctx *c)
{
	static const char *const strs[] = { "qp", "src", "dst" };
	struct cts_row rows[ROCEDP_MAX_CTS_RULES];
	char list[MAX_LIST][32];
	struct json_object *arr;
	unsigned long long u;
	struct sn_rows r;
	const char *s;
	int n = 0, k, i;
	size_t j;

	for (sn_rows_open(&r, c, "ROCEDP_CTS_RULE"); sn_rows_next(&r);) {
		if (n >= ROCEDP_MAX_CTS_RULES) {
			sn_fail(c, r.key, "more than %d CTS rules",
				ROCEDP_MAX_CTS_RULES);
			break;
		}
		rows[n].name = r.name;
		rows[n].index = 0;
		if (sn_uint(c, r.key, r.e, "index", 0, 1000, &rows[n].index) <
		    0)
			break;
		rows[n].rule = json_object_new_object();
		json_object_object_add(rows[n].rule, "name",
				       json_object_new_string(r.name));
		k = sn_list(c, r.key, r.e, "opcodes", list, MAX_LIST);
		if (k > 0) {
			arr = json_object_new_array();
			for (i = 0; i < k; i++)
				json_object_array_add(
					arr, json_object_new_string(list[i]));
			json_object_object_add(rows[n].rule, "opcodes", arr);
		}
		for (j = 0; j < sizeof(strs) / sizeof(strs[0]); j++)
			if ((s = sn_str(c, r.key, r.e, strs[j])))
				json_object_object_add(
					rows[n].rule, strs[j],
					json_object_new_string(s));
		if (sn_uint(c, r.key, r.e, "max_payload", 0, UINT32_MAX, &u) >
		    0)
			json_object_object_add(rows[n].rule, "max_payload",
					       json_object_new_int64(u));
		n++;
		if (c->err)
			break;
	}
	sn_rows_close(&r);
	if (!n)
		return;
	qsort(rows, n, sizeof(rows[0]), by_index);
	arr = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(arr, rows[i].rule);
	if (c->err)
		json_object_put(arr);
	else
		json_object_object_add(c->out, "cts_rules", arr);
}

void sn_convert_rocedp(struct sn_ctx *c)
{
	if (!c->err)
		convert_global(c);
	if (!c->err)
		convert_qos(c);
	if (!c->err)
		convert_cts(c);
}
