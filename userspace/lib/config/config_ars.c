// SPDX-License-Identifier: GPL-2.0
/*
 * The config's "ars" section <-> struct rocedp_ars (docs/ars.md). The
 * mode names are SAI's (SAI_ARS_MODE_*) in lower case.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "config_ars.h"
#include "opcode.h"

const char *const rd_ars_mode_names[ROCEDP_ARS_MODE_MAX] = {
	[ROCEDP_ARS_OFF] = "off",
	[ROCEDP_ARS_FLOWLET_QUALITY] = "flowlet_quality",
	[ROCEDP_ARS_FLOWLET_RANDOM] = "flowlet_random",
	[ROCEDP_ARS_PER_PACKET_QUALITY] = "per_packet_quality",
	[ROCEDP_ARS_PER_PACKET_RANDOM] = "per_packet_random",
	[ROCEDP_ARS_FIXED] = "fixed",
};

/* The fallback's names: none (evict, as the flowlet feature) or a mode */
static const char *const fallback_names[] = { "none", "per_packet_random",
					      "fixed" };
static const __u8 fallback_modes[] = { ROCEDP_ARS_OFF,
				       ROCEDP_ARS_PER_PACKET_RANDOM,
				       ROCEDP_ARS_FIXED };

/*
 * Default band starts: the DRE's bytes in 16 KiB steps (100 Gbit/s at
 * the default tau of 10 us is about 125 KB, band 7), the queue's in
 * 8 KiB steps (a shallow port's Kmin region).
 */
#define LOAD_STEP 16384
#define QUEUE_STEP 8192

void rd_cfg_ars_defaults(struct rocedp_ars *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->load_weight = ROCEDP_ARS_DEFAULT_LOAD_WEIGHT;
	a->queue_weight = ROCEDP_ARS_DEFAULT_QUEUE_WEIGHT;
	a->sample_ns = ROCEDP_ARS_DEFAULT_SAMPLE_NS;
	for (i = 0; i < ROCEDP_ARS_BANDS - 1; i++) {
		a->load_thr[i] = (__u64)LOAD_STEP * (i + 1);
		a->queue_thr[i] = (__u64)QUEUE_STEP * (i + 1);
	}
}

int rd_cfg_ars_on(const struct rocedp_ars *a)
{
	int i;

	if (a->mode)
		return 1;
	for (i = 0; i < ROCEDP_MAX_GROUPS; i++)
		if ((a->group_mode[i] & ROCEDP_ARS_GROUP_SET) &&
		    (a->group_mode[i] & ~ROCEDP_ARS_GROUP_SET))
			return 1;
	return 0;
}

/* Seven ascending band starts. */
static void parse_bands(struct rd_json_ctx *c, const char *path,
			struct json_object *v, __u64 *thr)
{
	char p[RD_JSON_PATH_LEN];
	long long n;
	size_t i;

	if (!rd_json_want_type(c, path, v, json_type_array, "an array"))
		return;
	if (json_object_array_length(v) != ROCEDP_ARS_BANDS - 1) {
		rd_json_err(
			c, path,
			"needs %d ascending values (where bands 1..7 start)",
			ROCEDP_ARS_BANDS - 1);
		return;
	}
	for (i = 0; i < ROCEDP_ARS_BANDS - 1; i++) {
		rd_json_path_idx(p, path, i);
		if (rd_json_get_int(c, p, json_object_array_get_idx(v, i), 1,
				    1ll << 40, &n))
			return;
		if (i && (__u64)n <= thr[i - 1]) {
			rd_json_err(c, p, "%lld is not above the band before",
				    n);
			return;
		}
		thr[i] = n;
	}
}

static void parse_groups(struct rd_json_ctx *c, const char *path,
			 struct json_object *v, struct rocedp_ars *a)
{
	char p[RD_JSON_PATH_LEN];
	unsigned long long id;
	int m;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	json_object_object_foreach(v, key, val)
	{
		rd_json_path_key(p, path, key);
		if (!rd_parse_uint_str(key, ROCEDP_MAX_GROUPS - 1, &id)) {
			rd_json_err(c, p, "\"%s\" is no group id (0..%d)", key,
				    ROCEDP_MAX_GROUPS - 1);
			continue;
		}
		m = rd_json_get_name(c, p, val, "ARS mode", rd_ars_mode_names,
				     ROCEDP_ARS_MODE_MAX);
		if (m >= 0)
			a->group_mode[id] = ROCEDP_ARS_GROUP_SET | m;
	}
}

static void parse_opcodes(struct rd_json_ctx *c, const char *path,
			  struct json_object *v, struct rocedp_ars *a)
{
	char p[RD_JSON_PATH_LEN];
	struct json_object *op;
	long long n;
	size_t i;
	int o;

	if (!rd_json_want_type(c, path, v, json_type_array, "an array"))
		return;
	for (i = 0; i < json_object_array_length(v); i++) {
		op = json_object_array_get_idx(v, i);
		rd_json_path_idx(p, path, i);
		if (json_object_is_type(op, json_type_string)) {
			o = rd_op_from_name(json_object_get_string(op));
			if (o < 0) {
				rd_json_err(
					c, p,
					"unknown opcode %s (IBTA names such as send_only, rdma_write_only, or 0..255)",
					rd_json_text(op));
				continue;
			}
		} else if (!rd_json_get_int(c, p, op, 0, 255, &n)) {
			o = n;
		} else {
			continue;
		}
		a->opcodes[o / 64] |= 1ull << (o % 64);
		a->optin |= ROCEDP_ARSF_OPTIN_OPCODE;
	}
}

static void parse_dscp(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, struct rocedp_ars *a)
{
	char p[RD_JSON_PATH_LEN];
	long long n;
	size_t i;

	if (!rd_json_want_type(c, path, v, json_type_array, "an array"))
		return;
	for (i = 0; i < json_object_array_length(v); i++) {
		rd_json_path_idx(p, path, i);
		if (rd_json_get_int(c, p, json_object_array_get_idx(v, i), 0,
				    63, &n))
			continue;
		a->dscp |= 1ull << n;
		a->optin |= ROCEDP_ARSF_OPTIN_DSCP;
	}
}

static void parse_prefixes(struct rd_json_ctx *c, const char *path,
			   struct json_object *v, struct rocedp_ars *a)
{
	struct rocedp_ars_prefix *pf;
	char p[RD_JSON_PATH_LEN];
	__u8 fam, addr[16], plen;
	size_t i;

	if (!rd_json_want_type(c, path, v, json_type_array, "an array"))
		return;
	if (json_object_array_length(v) > ROCEDP_ARS_PREFIXES) {
		rd_json_err(c, path, "at most %d prefixes",
			    ROCEDP_ARS_PREFIXES);
		return;
	}
	for (i = 0; i < json_object_array_length(v); i++) {
		rd_json_path_idx(p, path, i);
		if (rd_json_get_prefix(c, p, json_object_array_get_idx(v, i),
				       &fam, addr, &plen))
			continue;
		pf = &a->prefix[a->n_prefixes++];
		memcpy(pf->addr, addr, sizeof(pf->addr));
		pf->plen = plen;
		pf->family = fam == AF_INET ? 4 : 6;
		a->optin |= ROCEDP_ARSF_OPTIN_PREFIX;
	}
}

static void parse_optin(struct rd_json_ctx *c, const char *path,
			struct json_object *v, struct rocedp_ars *a)
{
	static const char *const keys[] = { "bth_mask", "bth_value", "opcodes",
					    "dscp",	"prefixes",  NULL };
	char p[RD_JSON_PATH_LEN];
	struct json_object *x;
	__u32 u;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "bth_mask", path, p)) &&
	    !rd_json_get_u32(c, p, x, 0, 255, &u))
		a->bth_mask = u;
	if ((x = rd_json_child(v, "bth_value", path, p)) &&
	    !rd_json_get_u32(c, p, x, 0, 255, &u))
		a->bth_value = u;
	if (a->bth_value & ~a->bth_mask)
		rd_json_err(
			c, path,
			"bth_value 0x%02x has bits outside bth_mask 0x%02x: it could never match",
			a->bth_value, a->bth_mask);
	if (a->bth_mask)
		a->optin |= ROCEDP_ARSF_OPTIN_BTH;
	if ((x = rd_json_child(v, "opcodes", path, p)))
		parse_opcodes(c, p, x, a);
	if ((x = rd_json_child(v, "dscp", path, p)))
		parse_dscp(c, p, x, a);
	if ((x = rd_json_child(v, "prefixes", path, p)))
		parse_prefixes(c, p, x, a);
}

void rd_cfg_ars_parse(struct rd_json_ctx *c, const char *path,
		      struct json_object *v, struct rocedp_ars *a)
{
	static const char *const keys[] = { "mode",
					    "fallback",
					    "load_weight",
					    "queue_weight",
					    "sampling_interval_us",
					    "load_bands",
					    "queue_bands",
					    "groups",
					    "optin",
					    NULL };
	char p[RD_JSON_PATH_LEN];
	struct json_object *x;
	__u32 u;
	int i;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "mode", path, p)) &&
	    (i = rd_json_get_name(c, p, x, "ARS mode", rd_ars_mode_names,
				  ROCEDP_ARS_MODE_MAX)) >= 0)
		a->mode = i;
	if ((x = rd_json_child(v, "fallback", path, p)) &&
	    (i = rd_json_get_name(c, p, x, "ARS fallback", fallback_names,
				  3)) >= 0)
		a->fallback = fallback_modes[i];
	if ((x = rd_json_child(v, "load_weight", path, p)) &&
	    !rd_json_get_u32(c, p, x, 0, 100, &u))
		a->load_weight = u;
	if ((x = rd_json_child(v, "queue_weight", path, p)) &&
	    !rd_json_get_u32(c, p, x, 0, 100, &u))
		a->queue_weight = u;
	if (a->load_weight + a->queue_weight != 100)
		rd_json_err(
			c, path,
			"load_weight %u and queue_weight %u must add up to 100",
			a->load_weight, a->queue_weight);
	if ((x = rd_json_child(v, "sampling_interval_us", path, p)) &&
	    !rd_json_get_u32(c, p, x, 0, 1000000, &u))
		a->sample_ns = u * 1000;
	if ((x = rd_json_child(v, "load_bands", path, p)))
		parse_bands(c, p, x, a->load_thr);
	if ((x = rd_json_child(v, "queue_bands", path, p)))
		parse_bands(c, p, x, a->queue_thr);
	if ((x = rd_json_child(v, "groups", path, p)))
		parse_groups(c, p, x, a);
	if ((x = rd_json_child(v, "optin", path, p)))
		parse_optin(c, p, x, a);
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *bands_json(const __u64 *thr)
{
	struct json_object *b = json_object_new_array();
	int i;

	for (i = 0; b && i < ROCEDP_ARS_BANDS - 1; i++)
		json_object_array_add(b, json_object_new_int64(thr[i]));
	return b;
}

static struct json_object *optin_json(const struct rocedp_ars *a)
{
	struct json_object *o = json_object_new_object(), *ops, *dscp, *pfx;
	char buf[64], txt[INET6_ADDRSTRLEN];
	const struct rocedp_ars_prefix *pf;
	unsigned int i;

	ops = json_object_new_array();
	dscp = json_object_new_array();
	pfx = json_object_new_array();
	if (!o || !ops || !dscp || !pfx) {
		json_object_put(o);
		json_object_put(ops);
		json_object_put(dscp);
		json_object_put(pfx);
		return NULL;
	}
	add(o, "bth_mask", json_object_new_int(a->bth_mask));
	add(o, "bth_value", json_object_new_int(a->bth_value));
	for (i = 0; i < 256; i++) {
		if (!((a->opcodes[i / 64] >> (i % 64)) & 1))
			continue;
		const char *nm = rd_op_name(i, buf, sizeof(buf));

		if (nm)
			json_object_array_add(ops, json_object_new_string(nm));
		else
			json_object_array_add(ops, json_object_new_int(i));
	}
	for (i = 0; i < 64; i++)
		if ((a->dscp >> i) & 1)
			json_object_array_add(dscp, json_object_new_int(i));
	for (i = 0; i < a->n_prefixes && i < ROCEDP_ARS_PREFIXES; i++) {
		pf = &a->prefix[i];
		inet_ntop(pf->family == 4 ? AF_INET : AF_INET6, pf->addr, txt,
			  sizeof(txt));
		snprintf(buf, sizeof(buf), "%s/%u", txt, pf->plen);
		json_object_array_add(pfx, json_object_new_string(buf));
	}
	add(o, "opcodes", ops);
	add(o, "dscp", dscp);
	add(o, "prefixes", pfx);
	return o;
}

struct json_object *rd_cfg_ars_to_json(const struct rocedp_ars *a)
{
	struct json_object *o = json_object_new_object(), *g;
	unsigned int i, fb = 0;
	char key[16];

	if (!o)
		return NULL;
	g = json_object_new_object();
	add(o, "mode",
	    json_object_new_string(a->mode < ROCEDP_ARS_MODE_MAX ?
					   rd_ars_mode_names[a->mode] :
					   "off"));
	for (i = 0; i < 3; i++)
		if (fallback_modes[i] == a->fallback)
			fb = i;
	add(o, "fallback", json_object_new_string(fallback_names[fb]));
	add(o, "load_weight", json_object_new_int(a->load_weight));
	add(o, "queue_weight", json_object_new_int(a->queue_weight));
	add(o, "sampling_interval_us",
	    json_object_new_int64(a->sample_ns / 1000));
	add(o, "load_bands", bands_json(a->load_thr));
	add(o, "queue_bands", bands_json(a->queue_thr));
	for (i = 0; g && i < ROCEDP_MAX_GROUPS; i++) {
		unsigned int m = a->group_mode[i] & ~ROCEDP_ARS_GROUP_SET;

		if (!(a->group_mode[i] & ROCEDP_ARS_GROUP_SET) ||
		    m >= ROCEDP_ARS_MODE_MAX)
			continue;
		snprintf(key, sizeof(key), "%u", i);
		add(g, key, json_object_new_string(rd_ars_mode_names[m]));
	}
	add(o, "groups", g);
	add(o, "optin", optin_json(a));
	return o;
}
