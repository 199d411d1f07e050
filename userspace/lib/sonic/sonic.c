// SPDX-License-Identifier: GPL-2.0
/*
 * SONiC CONFIG_DB -> rocedp config document (docs/sonic.md): SWITCH_HASH
 * here, the ARS tables in sonic_ars.c, WRED and the DSCP maps in
 * sonic_qos.c, the document's reads in sonic_db.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include "rocedp.h"
#include "sonic.h"
#include "sonic_db.h"
#include "sonic_ars.h"
#include "sonic_qos.h"
#include "sonic_trim.h"
#include "sonic_rocedp.h"

/* ---- SWITCH_HASH ---- */

enum {
	HF_SRC_IP = 1 << 0,
	HF_DST_IP = 1 << 1,
	HF_PROTO = 1 << 2,
	HF_SPORT = 1 << 3,
	HF_DPORT = 1 << 4,
	HF_QP = 1 << 5,
	HF_OTHER = 1 << 6, /* a SONiC field rocedp does not hash */
};

#define HF_5TUPLE (HF_SRC_IP | HF_DST_IP | HF_PROTO | HF_SPORT | HF_DPORT)

static const struct {
	const char *name;
	unsigned int bit;
} hash_fields[] = {
	{ "SRC_IP", HF_SRC_IP },	   { "DST_IP", HF_DST_IP },
	{ "IP_PROTOCOL", HF_PROTO },	   { "L4_SRC_PORT", HF_SPORT },
	{ "L4_DST_PORT", HF_DPORT },	   { "RDMA_BTH_DEST_QP", HF_QP },
	{ "RDMA_BTH_OPCODE", HF_OTHER },   { "IN_PORT", HF_OTHER },
	{ "DST_MAC", HF_OTHER },	   { "SRC_MAC", HF_OTHER },
	{ "ETHERTYPE", HF_OTHER },	   { "VLAN_ID", HF_OTHER },
	{ "IPV6_FLOW_LABEL", HF_OTHER },   { "INNER_DST_MAC", HF_OTHER },
	{ "INNER_SRC_MAC", HF_OTHER },	   { "INNER_ETHERTYPE", HF_OTHER },
	{ "INNER_IP_PROTOCOL", HF_OTHER }, { "INNER_DST_IP", HF_OTHER },
	{ "INNER_SRC_IP", HF_OTHER },	   { "INNER_L4_DST_PORT", HF_OTHER },
	{ "INNER_L4_SRC_PORT", HF_OTHER },
};

/* What rocedp hashes for RoCE frames in each mode (bpf/hash.h) */
static unsigned int mode_fields(const char *mode)
{
	if (!strcmp(mode, "5tuple"))
		return HF_5TUPLE;
	if (!strcmp(mode, "qp-only"))
		return HF_SRC_IP | HF_DST_IP | HF_PROTO | HF_QP;
	return HF_5TUPLE | HF_QP;
}

/*
 * The RoCE list decides the mode: the BTH destination QP with the UDP ports
 * is qp, the QP without them qp-only (the NIC-chosen source port is left
 * out), no QP 5tuple.
 */
static const char *mode_of(unsigned int set)
{
	if (!(set & HF_QP))
		return "5tuple";
	return set & (HF_SPORT | HF_DPORT) ? "qp" : "qp-only";
}

/* A hash field list into bits; unsupported names listed into other. */
static int hash_list(struct sn_ctx *c, const char *key, struct json_object *e,
		     const char *f, unsigned int *set, char *other, size_t olen)
{
	char l[SN_MAX_LIST][32];
	int n = sn_list(c, key, e, f, l, SN_MAX_LIST), i;
	size_t k;

	*set = 0;
	other[0] = 0;
	for (i = 0; i < n; i++) {
		for (k = 0; k < sizeof(hash_fields) / sizeof(hash_fields[0]);
		     k++)
			if (!strcmp(l[i], hash_fields[k].name))
				break;
		if (k == sizeof(hash_fields) / sizeof(hash_fields[0])) {
			sn_fail(c, key, "%s: unknown hash field \"%s\"", f,
				l[i]);
			return -1;
		}
		*set |= hash_fields[k].bit;
		if (hash_fields[k].bit == HF_OTHER)
			snprintf(other + strlen(other), olen - strlen(other),
				 "%s%.31s", other[0] ? "," : "", l[i]);
	}
	return n;
}

static void names_of(unsigned int bits, char *buf, size_t len)
{
	size_t k;

	buf[0] = 0;
	for (k = 0; k < 6; k++)
		if (bits & hash_fields[k].bit)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? "," : "", hash_fields[k].name);
}

static const char *const ecmp_lists[] = {
	/* first present decides the mode for RoCE */
	"ecmp_hash_ipv4_rdma", "ecmp_hash_ipv6_rdma", "ecmp_hash_ipv4",
	"ecmp_hash_ipv6",      "ecmp_hash_ipnip",     "ecmp_hash",
};

static void convert_lists(struct sn_ctx *c, const char *key,
			  struct json_object *g, struct json_object *h)
{
	char other[256], miss[128], msg[400];
	const char *mode = NULL, *m;
	unsigned int set, want;
	size_t i, decider = 0;
	int n;

	for (i = 0; i < sizeof(ecmp_lists) / sizeof(ecmp_lists[0]); i++) {
		n = hash_list(c, key, g, ecmp_lists[i], &set, other,
			      sizeof(other));
		if (n <= 0)
			continue;
		m = mode_of(set);
		if (!mode) {
			mode = m;
			decider = i;
			json_object_object_add(h, "mode",
					       json_object_new_string(mode));
		} else if (i < 2 && strcmp(m, mode)) {
			sn_warn(c, key,
				"%s asks for hash mode %s, %s for %s: rocedp has one mode for both families (%s)",
				ecmp_lists[i], m, ecmp_lists[0], mode, mode);
			continue;
		}
		/* non-RoCE traffic is always hashed on the 5-tuple */
		want = i == decider || i < 2 ? mode_fields(mode) : HF_5TUPLE;
		names_of(want & ~set, miss, sizeof(miss));
		msg[0] = 0;
		if (other[0])
			snprintf(msg, sizeof(msg), "%s not hashed by rocedp",
				 other);
		if (miss[0])
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
				 "%srocedp also hashes %s", msg[0] ? "; " : "",
				 miss);
		if (msg[0])
			sn_warn(c, key, "%s: %s", ecmp_lists[i], msg);
	}
}

static void convert_hash(struct sn_ctx *c)
{
	struct json_object *t = sn_table(c, "SWITCH_HASH"), *sw, *g, *h;
	unsigned long long seed, off;
	int has_seed = 0, has_off = 0;
	char key[SN_KEY_LEN], off_key[SN_KEY_LEN] = "";
	size_t i;

	h = json_object_new_object();
	if (t) {
		json_object_object_foreach(t, k, e)
		{
			snprintf(key, sizeof(key), "SWITCH_HASH|%s", k);
			if (strcmp(k, "GLOBAL")) {
				sn_warn(c, key,
					"only SWITCH_HASH|GLOBAL is read");
				continue;
			}
			g = e;
			convert_lists(c, key, g, h);
			json_object_object_foreach(g, f, fv)
			{
				char name[64];

				(void)fv;
				snprintf(name, sizeof(name), "%.*s",
					 (int)strcspn(f, "@"), f);
				for (i = 0; i < sizeof(ecmp_lists) /
							sizeof(ecmp_lists[0]);
				     i++)
					if (!strcmp(name, ecmp_lists[i]))
						break;
				if (i < sizeof(ecmp_lists) /
						    sizeof(ecmp_lists[0]) ||
				    !strcmp(name, "ecmp_hash_seed") ||
				    !strcmp(name, "ecmp_hash_offset"))
					continue;
				if (!strncmp(name, "lag_", 4))
					sn_warn(c, key,
						"%s: rocedp does no LAG hashing (a bond hashes in the kernel)",
						name);
				else if (!strcmp(name, "ecmp_hash_algorithm"))
					sn_warn(c, key,
						"ecmp_hash_algorithm %s: rocedp has one hash function (multiply-xor with the MurmurHash3 finaliser, bpf/hash.h)",
						json_object_get_string(fv));
				else
					sn_warn(c, key,
						"%s: unknown field, ignored",
						name);
			}
			has_seed = sn_uint(c, key, g, "ecmp_hash_seed", 0,
					   UINT32_MAX, &seed);
			has_off = sn_uint(c, key, g, "ecmp_hash_offset", 0,
					  UINT32_MAX, &off);
			if (has_off > 0)
				snprintf(off_key, sizeof(off_key), "%s", key);
		}
	}
	/* the switch-level form: SWITCH|switch */
	sw = sn_table(c, "SWITCH");
	if (sw) {
		json_object_object_foreach(sw, k, e)
		{
			snprintf(key, sizeof(key), "SWITCH|%s", k);
			if (has_seed <= 0)
				has_seed = sn_uint(c, key, e, "ecmp_hash_seed",
						   0, UINT32_MAX, &seed);
			if (has_off <= 0 &&
			    (has_off = sn_uint(c, key, e, "ecmp_hash_offset", 0,
					       UINT32_MAX, &off)) > 0)
				snprintf(off_key, sizeof(off_key), "%s", key);
			if (sn_has(e, "lag_hash_seed") ||
			    sn_has(e, "lag_hash_offset"))
				sn_warn(c, key,
					"lag_hash_seed/offset: rocedp does no LAG hashing");
		}
	}
	if (has_seed > 0 && has_off > 0 && seed != off)
		sn_warn(c, off_key,
			"ecmp_hash_offset %llu ignored: ecmp_hash_seed %llu is the seed",
			off, seed);
	if (has_seed > 0 || has_off > 0)
		json_object_object_add(
			h, "seed",
			json_object_new_int64(has_seed > 0 ? seed : off));
	if (json_object_object_length(h))
		json_object_object_add(c->out, "hash", h);
	else
		json_object_put(h);
}

static void warn_pfc_wd(struct sn_ctx *c)
{
	struct json_object *t = sn_table(c, "PFC_WD");
	char key[SN_KEY_LEN];

	if (!t)
		return;
	json_object_object_foreach(t, k, e)
	{
		(void)e;
		snprintf(key, sizeof(key), "PFC_WD|%s", k);
		sn_warn(c, key,
			"the PFC watchdog is the switch's own: rocedp sends and honours no PFC");
	}
}

int rd_sonic_convert(struct json_object *configdb,
		     const struct rd_sonic_opts *o, struct json_object **out,
		     int *n_warnings)
{
	struct sn_ctx c = { .db = configdb };

	*out = NULL;
	*n_warnings = 0;
	sn_check_shape(&c);
	if (!c.err && o && o->ports) {
		c.have_ports = true;
		sn_parse_ports(&c, o->ports);
	}
	if (!c.err) {
		c.out = json_object_new_object();
		if (!c.out)
			sn_fail(&c, "CONFIG_DB", "out of memory");
	}
	if (!c.err)
		convert_hash(&c);
	if (!c.err)
		sn_convert_ars(&c);
	if (!c.err)
		sn_convert_ecn(&c);
	if (!c.err)
		sn_convert_trim(&c);
	if (!c.err)
		sn_convert_qos(&c);
	if (!c.err)
		warn_pfc_wd(&c);
	if (!c.err) /* last: rocedp's own knobs win */
		sn_convert_rocedp(&c);
	free(c.pm);
	*n_warnings = c.warnings;
	if (!c.err && o && o->strict && c.warnings) {
		rd_err("sonic", "refused: %d warning%s with --strict",
		       c.warnings, c.warnings == 1 ? "" : "s");
		c.err = -EINVAL;
	}
	if (c.err) {
		json_object_put(c.out);
		return c.err;
	}
	*out = c.out;
	return 0;
}
