// SPDX-License-Identifier: GPL-2.0
/*
 * ARS (adaptive routing and switching) -> rocedp's flowlet settings
 * (docs/sonic.md, "ARS"). rocedp has one flowlet setting for the whole
 * switch; SONiC (HLD rev 1.4) has several ARS_OBJECTs, chosen globally,
 * per interface or per next hop through ARS_PROFILE's
 * ars_nhg_path_selector_mode and default_ars_object and the rows'
 * ars_obj_name. The object in effect is the default one (else the first);
 * every other object in use that differs is warned about.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rocedp.h"
#include "sonic_ars.h"

#define MAX_OBJS 64
#define IDLE_YANG_MAX 2047 /* sonic-ars.yang's range */
#define IDLE_MAX 65535 /* its type, uint16: sonic-swss' tests write 10000 */

enum { SEL_GLOBAL, SEL_INTERFACE, SEL_NEXTHOP };
static const char *const sel_names[] = { "global", "interface", "nexthop",
					 NULL };
static const char *const lag_sel_names[] = { "global", "interface", NULL };
static const char *const mode_names[] = { "per_flowlet_quality",
					  "per_packet_quality", NULL };
static const char *const algo_names[] = { "ewma", NULL };
static const char *const role_names[] = { "primary_path", "alternative_path",
					  NULL };

struct ars_obj {
	const char *name;
	int mode; /* index in mode_names */
	unsigned long long idle;
	bool used;
};

struct ars {
	struct ars_obj obj[MAX_OBJS];
	int n;
	int sel; /* SEL_*: interface unless the profile says */
	const char *dflt; /* ARS_PROFILE default_ars_object */
	bool rev14; /* objects referenced by name (HLD rev 1.4) */
};

static struct ars_obj *obj_named(struct ars *a, const char *name)
{
	int i;

	for (i = 0; name && i < a->n; i++)
		if (!strcmp(a->obj[i].name, name))
			return &a->obj[i];
	return NULL;
}

/* The string value of a field, read without a word (the checks come later) */
static const char *peek(struct json_object *e, const char *field)
{
	struct json_object *v;

	return json_object_object_get_ex(e, field, &v) &&
			       json_object_is_type(v, json_type_string) ?
		       json_object_get_string(v) :
		       NULL;
}

static void read_objects(struct sn_ctx *c, struct ars *a)
{
	unsigned long long v;
	struct ars_obj *o;
	struct sn_rows r;

	for (sn_rows_open(&r, c, "ARS_OBJECT"); sn_rows_next(&r);) {
		const char *key = r.key;
		struct json_object *e = r.e;

		if (a->n >= MAX_OBJS) {
			sn_warn(c, key, "more than %d ARS objects: ignored",
				MAX_OBJS);
			continue;
		}
		o = &a->obj[a->n++];
		o->name = r.name;
		o->mode = sn_enum(c, key, e, "assign_mode", mode_names);
		if (o->mode == -1)
			break;
		if (o->mode < 0)
			o->mode = 0; /* per_flowlet_quality */
		o->idle = 256;
		if (sn_uint(c, key, e, "flowlet_idle_time", 2, IDLE_MAX,
			    &o->idle) < 0)
			break;
		if (o->idle > IDLE_YANG_MAX)
			sn_warn(c, key,
				"flowlet_idle_time %llu is above sonic-ars.yang's 2..%d: used as it is",
				o->idle, IDLE_YANG_MAX);
		if (sn_uint(c, key, e, "max_flows", 1, UINT32_MAX, &v) > 0 &&
		    v > ROCEDP_MAX_FLOWLETS)
			sn_warn(c, key,
				"max_flows %llu: rocedp's flowlet table holds %u flows",
				v, ROCEDP_MAX_FLOWLETS);
		if (c->err)
			break;
		if (sn_has(e, "primary_path_threshold") ||
		    sn_has(e, "alternative_path_cost"))
			sn_warn(c, key,
				"primary_path_threshold/alternative_path_cost: rocedp has no primary and alternative paths");
	}
	sn_rows_close(&r);
}

/*
 * Which objects SONiC would use: the default, and in interface or nexthop
 * mode those the rows name (a row without a name takes the default). Read
 * quietly: the rows' own warnings come with them later.
 */
static void mark_used(struct sn_ctx *c, struct ars *a)
{
	struct json_object *prof, *t, *e0 = NULL;
	const char *s, *tbl;
	struct ars_obj *o;
	int i;

	prof = sn_table(c, "ARS_PROFILE");
	if (prof) {
		const char **names = NULL;

		if (sn_sorted_keys(prof, &names) > 0)
			json_object_object_get_ex(prof, names[0], &e0);
		free(names);
	}
	a->sel = SEL_INTERFACE;
	if (e0 && (s = peek(e0, "ars_nhg_path_selector_mode")))
		for (i = 0; sel_names[i]; i++)
			if (!strcasecmp(s, sel_names[i]))
				a->sel = i;
	a->dflt = e0 ? peek(e0, "default_ars_object") : NULL;
	a->rev14 = a->dflt != NULL;
	for (i = 0; i < 2; i++) {
		t = sn_table(c, i ? "ARS_NEXTHOP" : "ARS_INTERFACE");
		if (!t)
			continue;
		json_object_object_foreach(t, k, e)
		{
			(void)k;
			if (peek(e, "ars_obj_name"))
				a->rev14 = true;
		}
	}
	if (!a->rev14) { /* the older shape: every object counts */
		for (i = 0; i < a->n; i++)
			a->obj[i].used = true;
		return;
	}
	o = obj_named(a, a->dflt);
	if (o)
		o->used = true;
	if (a->sel == SEL_GLOBAL)
		return;
	tbl = a->sel == SEL_INTERFACE ? "ARS_INTERFACE" : "ARS_NEXTHOP";
	t = sn_table(c, tbl);
	if (!t)
		return;
	json_object_object_foreach(t, k, e)
	{
		(void)k;
		o = obj_named(a, peek(e, "ars_obj_name") ?: a->dflt);
		if (o)
			o->used = true;
	}
}

static void convert_profile(struct sn_ctx *c, struct ars *a,
			    struct json_object *fl)
{
	static const char *const known[] = {
		"algorithm",
		"sampling_interval",
		"past_load_weight",
		"future_load_weight",
		"max_flows",
		"ipv4_enable",
		"ipv6_enable",
		"ars_nhg_path_selector_mode",
		"ars_lag_path_selector_mode",
		"default_ars_object",
		NULL,
	};
	unsigned long long v;
	struct sn_rows r;
	char bands[256];
	const char *s;
	int k;
	bool b;

	for (sn_rows_open(&r, c, "ARS_PROFILE"); sn_rows_next(&r);) {
		const char *key = r.key;
		struct json_object *e = r.e;

		if (r.i) {
			sn_warn(c, key,
				"rocedp has one load estimator: ARS_PROFILE|%s is used",
				r.names[0]);
			continue;
		}
		/* another algorithm is a warning, not an error: rocedp's
		 * estimate is an ewma whatever is asked */
		s = sn_str(c, key, e, "algorithm");
		if (s && strcasecmp(s, "ewma"))
			sn_warn(c, key,
				"algorithm %s: rocedp's load estimate is a decaying byte count (ewma)",
				s);
		else if (s)
			sn_enum(c, key, e, "algorithm", algo_names);
		if (sn_uint(c, key, e, "sampling_interval", 1, 1000000, &v) > 0)
			json_object_object_add(fl, "load_tau_us",
					       json_object_new_int64(v));
		if (sn_uint(c, key, e, "past_load_weight", 0, UINT32_MAX, &v) >
			    0 &&
		    !v)
			sn_warn(c, key,
				"past_load_weight 0: rocedp always uses the past (port) load");
		if (sn_uint(c, key, e, "future_load_weight", 0, UINT32_MAX,
			    &v) > 0 &&
		    v)
			sn_warn(c, key,
				"future_load_weight %llu: rocedp's estimate has no queue-occupancy (future load) term",
				v);
		if (sn_uint(c, key, e, "max_flows", 1, UINT32_MAX, &v) > 0 &&
		    v > ROCEDP_MAX_FLOWLETS)
			sn_warn(c, key,
				"max_flows %llu: rocedp's flowlet table holds %u flows",
				v, ROCEDP_MAX_FLOWLETS);
		if (sn_bool(c, key, e, "ipv4_enable", &b) > 0 && !b)
			sn_warn(c, key,
				"ipv4_enable false: rocedp's flowlets cover IPv4 and IPv6");
		if (sn_bool(c, key, e, "ipv6_enable", &b) > 0 && !b)
			sn_warn(c, key,
				"ipv6_enable false: rocedp's flowlets cover IPv4 and IPv6");
		if (sn_enum(c, key, e, "ars_nhg_path_selector_mode",
			    sel_names) == SEL_NEXTHOP)
			sn_warn(c, key,
				"ars_nhg_path_selector_mode nexthop: rocedp switches flowlets in every group, not per next hop");
		sn_enum(c, key, e, "ars_lag_path_selector_mode", lag_sel_names);
		if (a->dflt && !obj_named(a, a->dflt))
			sn_warn(c, key,
				"default_ars_object %s: no such ARS_OBJECT; %s is used",
				a->dflt, a->n ? a->obj[0].name : "none");
		if (c->err)
			break;
		bands[0] = 0;
		json_object_object_foreach(e, f, fv)
		{
			(void)fv;
			for (k = 0; known[k] && strcmp(known[k], f); k++)
				;
			if (known[k])
				continue;
			if (strstr(f, "_load_m"))
				snprintf(bands + strlen(bands),
					 sizeof(bands) - strlen(bands), "%s%s",
					 bands[0] ? "," : "", f);
			else
				sn_warn(c, key, "%s: unknown field, ignored",
					f);
		}
		if (bands[0])
			sn_warn(c, key,
				"%s: rocedp compares unquantised load estimates, no load bands",
				bands);
	}
	sn_rows_close(&r);
}

/* ARS_INTERFACE and ARS_NEXTHOP rows, with their own warnings */
static void convert_rows(struct sn_ctx *c, struct ars *a)
{
	struct json_object *ports, *ifs;
	unsigned long long v;
	const char *s;
	struct sn_rows r;
	int i;

	for (i = 0; i < 2 && !c->err; i++) {
		for (sn_rows_open(&r, c, i ? "ARS_NEXTHOP" : "ARS_INTERFACE");
		     sn_rows_next(&r);) {
			s = sn_str(c, r.key, r.e, "ars_obj_name");
			if (s && !obj_named(a, s))
				sn_warn(c, r.key,
					"ars_obj_name %s: no such ARS_OBJECT; the default applies",
					s);
			if (i) {
				if (sn_enum(c, r.key, r.e, "role",
					    role_names) == 1)
					sn_warn(c, r.key,
						"role alternative_path: every rocedp member is a primary path");
				continue;
			}
			/* 0 (by speed, older HLDs) and 1 (the YANG's
			 * default) scale nothing rocedp compares */
			if (sn_uint(c, r.key, r.e, "scaling_factor", 0,
				    UINT32_MAX, &v) > 0 &&
			    v > 1)
				sn_warn(c, r.key,
					"scaling_factor %llu: rocedp compares byte loads without per-port scaling",
					v);
		}
		sn_rows_close(&r);
	}
	/* interface mode: SONiC runs ARS only over the listed ports */
	ports = sn_table(c, "PORT");
	ifs = sn_table(c, "ARS_INTERFACE");
	if (c->err || !a->rev14 || a->sel != SEL_INTERFACE || !ports || !a->n)
		return;
	json_object_object_foreach(ports, k, e)
	{
		(void)e;
		if (!ifs || !json_object_object_get_ex(ifs, k, NULL)) {
			char key[SN_KEY_LEN];

			snprintf(key, sizeof(key), "PORT|%s", k);
			sn_warn(c, key,
				"not in ARS_INTERFACE: rocedp's flowlets cover every port");
		}
	}
}

void sn_convert_ars(struct sn_ctx *c)
{
	struct json_object *fl = json_object_new_object(), *feat;
	static const char *const feats[] = { "forward", "remark", "ecn",
					     "flowlet" };
	struct ars *a = calloc(1, sizeof(*a));
	struct ars_obj *eff;
	size_t i;
	int k;

	if (!a) {
		sn_fail(c, "ARS_OBJECT", "out of memory");
		json_object_put(fl);
		return;
	}
	read_objects(c, a);
	if (!c->err)
		mark_used(c, a);
	/* the object in effect: the profile's default, else the first */
	eff = obj_named(a, a->dflt);
	if (!eff && a->n)
		eff = &a->obj[0];
	for (k = 0; !c->err && k < a->n; k++) {
		struct ars_obj *o = &a->obj[k];
		char key[SN_KEY_LEN];

		if (o == eff || !o->used)
			continue;
		if (o->mode != eff->mode || o->idle != eff->idle) {
			snprintf(key, sizeof(key), "ARS_OBJECT|%s", o->name);
			sn_warn(c, key,
				"rocedp has one flowlet setting: ARS_OBJECT|%s is used",
				eff->name);
		}
	}
	if (!c->err && eff && eff->mode == 1) {
		json_object_object_add(sn_section(c, "hash"), "mode",
				       json_object_new_string("spray"));
	} else if (!c->err && eff) {
		feat = json_object_new_array();
		for (i = 0; i < 4; i++)
			json_object_array_add(feat,
					      json_object_new_string(feats[i]));
		json_object_object_add(c->out, "features", feat);
		/* the gap is rtt_us / 2: SAI's "idle time = RTT/2" backwards */
		json_object_object_add(fl, "rtt_us",
				       json_object_new_int64(2 * eff->idle));
		json_object_object_add(fl, "gap",
				       json_object_new_string("fixed"));
		json_object_object_add(fl, "choice",
				       json_object_new_string("least-loaded"));
		if (eff->idle > IDLE_YANG_MAX) /* past rocedp's default bound */
			json_object_object_add(
				fl, "gap_max_us",
				json_object_new_int64(eff->idle));
	}
	if (!c->err)
		convert_profile(c, a, fl);
	if (!c->err)
		convert_rows(c, a);
	if (!c->err && json_object_object_length(fl))
		json_object_object_add(c->out, "flowlet", fl);
	else
		json_object_put(fl);
	free(a);
}
