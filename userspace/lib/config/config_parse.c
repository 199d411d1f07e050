// SPDX-License-Identifier: GPL-2.0
/*
 * A config document checked into a staged config (struct rd_staged), one
 * section at a time: every value is validated as it is read, and every bad
 * one reported, so that one run lists all the errors of a file. Nothing
 * here touches a map. Schema and the reasons for every default:
 * docs/config.md.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>

#include "config_parse.h"
#include "config_json.h"
#include "config_member.h"
#include "config_trim.h"
#include "groupw.h"
#include "names.h"
#include "opcode.h"
#include "portl2.h"

#define QP_MAX 0xffffffu /* BTH destination QP is 24 bits */
/* attach_state.h's RD_MAX_ATTACH: what one netns records */
#define RD_CFG_MAX_ATTACH 256

static int class_from_name(const char *s, bool settable_only)
{
	int cls = rd_class_from_name(s);

	if (cls < 0 || (settable_only && !rd_qos_class_settable(cls)))
		return -EINVAL;
	return cls;
}

static void parse_features(struct rd_json_ctx *c, const char *path,
			   struct json_object *v, __u32 *out)
{
	char p[RD_JSON_PATH_LEN];
	size_t i;
	int f;

	if (!rd_json_want_type(c, path, v, json_type_array,
			       "an array of feature names"))
		return;
	*out = 0;
	for (i = 0; i < json_object_array_length(v); i++) {
		rd_json_path_idx(p, path, i);
		f = rd_json_get_name(c, p, json_object_array_get_idx(v, i),
				     "feature", rd_cfg_feature_names,
				     ARRAY_LEN(rd_cfg_feature_names));
		if (f >= 0)
			*out |= 1u << f;
	}
}

static void parse_hash(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, struct rocedp_config *cfg)
{
	static const char *const keys[] = { "mode", "seed", "symmetric", NULL };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN];
	bool sym;
	int mode;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "mode", path, p))) {
		if (rd_json_want_type(c, p, x, json_type_string, "a string")) {
			mode = rd_hash_mode_from_name(
				json_object_get_string(x));
			if (mode < 0)
				rd_json_err(
					c, p,
					"unknown hash mode %s (expected one of: 5tuple qp qp-only flowlet spray)",
					rd_json_text(x));
			else
				cfg->hash_mode = mode;
		}
	}
	if ((x = rd_json_child(v, "seed", path, p)))
		rd_json_get_u32(c, p, x, 0, UINT32_MAX, &cfg->hash_seed);
	if ((x = rd_json_child(v, "symmetric", path, p)) &&
	    !rd_json_get_bool(c, p, x, &sym))
		cfg->hash_flags = sym ? ROCEDP_HASHF_SYMMETRIC : 0;
}

/*
 * symmetric orders the endpoints, but with the QP in the hash (qp, qp-only,
 * flowlet, spray's own draw) or flowlets choosing per direction, the two
 * directions still differ: a request carries the responder's QP, its ACK
 * the requester's, and which QPs pair is not on the wire. A promise that
 * cannot hold is refused rather than kept silently broken.
 */
static void check_symmetric(struct rd_json_ctx *c,
			    const struct rocedp_config *cfg)
{
	if (!(cfg->hash_flags & ROCEDP_HASHF_SYMMETRIC))
		return;
	if (cfg->hash_mode != ROCEDP_HASH_5TUPLE)
		rd_json_err(
			c, "hash.symmetric",
			"true cannot hold with hash mode %s: a request hashes the responder's QP, its ACK the requester's; symmetric needs mode 5tuple",
			rd_hash_mode_name(cfg->hash_mode));
	else if (cfg->features & ROCEDP_F_FLOWLET)
		rd_json_err(
			c, "hash.symmetric",
			"true cannot hold with the flowlet feature: each direction starts its own flowlets; drop one of the two");
}

/* the per-QP telemetry's settings (the feature itself is in features) */
static void parse_telemetry(struct rd_json_ctx *c, const char *path,
			    struct json_object *v, struct rocedp_config *cfg)
{
	static const char *const keys[] = { "qp_stall_us", NULL };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN];

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "qp_stall_us", path, p)))
		rd_json_get_u32(c, p, x, 1, 60000000, &cfg->qp_stall_us);
}

static void parse_flowlet(struct rd_json_ctx *c, const char *path,
			  struct json_object *v, struct rocedp_config *cfg)
{
	static const char *const keys[] = { "rtt_us",	      "gap",
					    "gap_min_us",     "gap_max_us",
					    "choice",	      "load_tau_us",
					    "rtt_ewma_shift", NULL };
	static const char *const gaps[] = { "fixed", "auto" };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN];
	int i;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "rtt_us", path, p)))
		rd_json_get_u32(c, p, x, 1, 1000000, &cfg->flowlet_rtt_us);
	if ((x = rd_json_child(v, "gap", path, p)) &&
	    (i = rd_json_get_name(c, p, x, "gap mode", gaps, 2)) >= 0)
		cfg->flowlet_flags = i ? ROCEDP_FLOWLETF_AUTO_GAP : 0;
	if ((x = rd_json_child(v, "gap_min_us", path, p)))
		rd_json_get_u32(c, p, x, 0, 1000000, &cfg->flowlet_gap_min_us);
	if ((x = rd_json_child(v, "gap_max_us", path, p)))
		rd_json_get_u32(c, p, x, 0, 1000000, &cfg->flowlet_gap_max_us);
	if ((x = rd_json_child(v, "choice", path, p)) &&
	    (i = rd_json_get_name(c, p, x, "flowlet choice",
				  rd_cfg_choice_names,
				  ARRAY_LEN(rd_cfg_choice_names))) >= 0)
		cfg->flowlet_choice = i;
	if ((x = rd_json_child(v, "load_tau_us", path, p)))
		rd_json_get_u32(c, p, x, 1, 1000000, &cfg->load_tau_us);
	if ((x = rd_json_child(v, "rtt_ewma_shift", path, p)))
		rd_json_get_u32(c, p, x, 0, 16, &cfg->rtt_ewma_shift);
	if (cfg->flowlet_gap_min_us > cfg->flowlet_gap_max_us) {
		rd_json_path_key(p, path, "gap_min_us");
		rd_json_err(c, p, "%u is above gap_max_us %u",
			    cfg->flowlet_gap_min_us, cfg->flowlet_gap_max_us);
	}
}

static void parse_qos(struct rd_json_ctx *c, const char *path,
		      struct json_object *v, struct rocedp_qos *qos)
{
	static const char *const keys[] = { "dscp", "pcp", NULL };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN], p2[RD_JSON_PATH_LEN], all[128];
	__u32 val;
	int cls;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_qos_settable_classes(all, sizeof(all));
	json_object_object_foreach(v, key, act)
	{
		struct rocedp_qos q = { 0 };

		rd_json_path_key(p, path, key);
		cls = class_from_name(key, true);
		if (cls < 0) {
			rd_json_err(c, p, "unknown class (expected one of: %s)",
				    all);
			continue;
		}
		if (json_object_is_type(act, json_type_string) &&
		    !strcmp(json_object_get_string(act), "leave")) {
			qos[cls] = q;
			continue;
		}
		if (!json_object_is_type(act, json_type_object)) {
			rd_json_err(
				c, p,
				"expected \"leave\" or {\"dscp\": 0..63, \"pcp\": 0..7}, got %s",
				rd_json_text(act));
			continue;
		}
		rd_json_check_keys(c, p, act, keys);
		q.action = ROCEDP_QOS_SET_DSCP;
		x = rd_json_child(act, "dscp", p, p2);
		if (!x)
			rd_json_err(c, p, "missing key dscp");
		else if (!rd_json_get_u32(c, p2, x, 0, 63, &val))
			q.dscp = val;
		if ((x = rd_json_child(act, "pcp", p, p2)) &&
		    !rd_json_get_u32(c, p2, x, 0, 7, &val)) {
			q.set_pcp = 1;
			q.pcp = val;
		}
		qos[cls] = q;
	}
}

/* qp: 5, [min, max], "0x100-0x1ff" or "0x100" */
static void parse_qp(struct rd_json_ctx *c, const char *path,
		     struct json_object *v, struct rocedp_cts_rule *r)
{
	unsigned long long lo, hi;
	char buf[64], *dash;
	long long x;

	if (json_object_is_type(v, json_type_int)) {
		if (!rd_json_get_int(c, path, v, 0, QP_MAX, &x))
			r->qp_min = r->qp_max = x;
		return;
	}
	if (json_object_is_type(v, json_type_array)) {
		char p[RD_JSON_PATH_LEN];

		if (json_object_array_length(v) != 2) {
			rd_json_err(c, path, "expected [min, max], got %s",
				    rd_json_text(v));
			return;
		}
		rd_json_path_idx(p, path, 0);
		if (rd_json_get_int(c, p, json_object_array_get_idx(v, 0), 0,
				    QP_MAX, &x))
			return;
		r->qp_min = x;
		rd_json_path_idx(p, path, 1);
		if (rd_json_get_int(c, p, json_object_array_get_idx(v, 1), 0,
				    QP_MAX, &x))
			return;
		r->qp_max = x;
		goto order;
	}
	if (!json_object_is_type(v, json_type_string) ||
	    snprintf(buf, sizeof(buf), "%s", json_object_get_string(v)) >=
		    (int)sizeof(buf))
		goto bad;
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = 0;
	if (!rd_parse_uint_str(buf, ULLONG_MAX, &lo) ||
	    (dash && !rd_parse_uint_str(dash, ULLONG_MAX, &hi)))
		goto bad;
	if (!dash)
		hi = lo;
	if (lo > QP_MAX || hi > QP_MAX) {
		rd_json_err(c, path,
			    "%s is out of range 0..0xffffff (QPs are 24 bits)",
			    rd_json_text(v));
		return;
	}
	r->qp_min = lo;
	r->qp_max = hi;
order:
	if (r->qp_min > r->qp_max)
		rd_json_err(c, path, "%s: min is above max", rd_json_text(v));
	return;
bad:
	rd_json_err(c, path, "expected a QP, [min, max] or \"MIN-MAX\", got %s",
		    rd_json_text(v));
}

static void parse_rule(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, struct rocedp_cts_rule *r,
		       char *name)
{
	static const char *const keys[] = { "name",	   "opcodes", "qp",
					    "max_payload", "src",     "dst",
					    NULL };
	struct json_object *x, *op;
	char p[RD_JSON_PATH_LEN], pi[RD_JSON_PATH_LEN];
	__u8 fam[2] = { 0, 0 }, plen;
	long long n;
	size_t i;
	int o;

	memset(r, 0, sizeof(*r));
	r->qp_max = QP_MAX;
	r->max_payload = UINT32_MAX;
	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "name", path, p)) &&
	    rd_json_want_type(c, p, x, json_type_string, "a string")) {
		const char *s = json_object_get_string(x);

		if (!*s || strlen(s) >= RD_CTS_NAME_MAX ||
		    strspn(s,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
			    strlen(s))
			rd_json_err(
				c, p,
				"%s: names are 1..%d characters of A-Z a-z 0-9 _ . -",
				rd_json_text(x), RD_CTS_NAME_MAX - 1);
		else
			strcpy(name, s);
	}
	x = rd_json_child(v, "opcodes", path, p);
	if (!x) {
		rd_json_err(c, path, "missing key opcodes");
	} else if (rd_json_want_type(c, p, x, json_type_array,
				     "an array of opcodes")) {
		if (!json_object_array_length(x))
			rd_json_err(c, p,
				    "empty: a rule needs at least one opcode");
		for (i = 0; i < json_object_array_length(x); i++) {
			op = json_object_array_get_idx(x, i);
			rd_json_path_idx(pi, p, i);
			if (json_object_is_type(op, json_type_string)) {
				o = rd_op_from_name(json_object_get_string(op));
				if (o < 0) {
					rd_json_err(
						c, pi,
						"unknown opcode %s (IBTA names such as send_only, rdma_write_only, uc_send_only, ud_send_only, xrc_send_only, cnp, or 0..255)",
						rd_json_text(op));
					continue;
				}
			} else if (!rd_json_get_int(c, pi, op, 0, 255, &n)) {
				o = n;
			} else {
				continue;
			}
			if (!rd_op_cts_matchable(o)) {
				rd_json_err(
					c, pi,
					"%s is no data opcode: CTS rules are checked on data opcodes only (ACKs, NAKs and CNPs have classes of their own), so it would never match",
					rd_json_text(op));
				continue;
			}
			r->opcode_bitmap[o / 64] |= 1ull << (o % 64);
		}
	}
	if ((x = rd_json_child(v, "qp", path, p)))
		parse_qp(c, p, x, r);
	if ((x = rd_json_child(v, "max_payload", path, p)))
		rd_json_get_u32(c, p, x, 0, UINT32_MAX, &r->max_payload);
	if ((x = rd_json_child(v, "src", path, p)) &&
	    !rd_json_get_prefix(c, p, x, &fam[0], (__u8 *)r->src_addr, &plen)) {
		r->src_plen = plen;
		r->flags |= ROCEDP_CTSF_SRC_PREFIX;
	}
	if ((x = rd_json_child(v, "dst", path, p)) &&
	    !rd_json_get_prefix(c, p, x, &fam[1], (__u8 *)r->dst_addr, &plen)) {
		r->dst_plen = plen;
		r->flags |= ROCEDP_CTSF_DST_PREFIX;
		if (fam[0] && fam[0] != fam[1])
			rd_json_err(c, p, "address family differs from src");
	}
	if (fam[0] == AF_INET6 || fam[1] == AF_INET6)
		r->flags |= ROCEDP_CTSF_IPV6;
}

static void parse_cts_rules(struct rd_json_ctx *c, const char *path,
			    struct json_object *v, struct rd_staged *s)
{
	char p[RD_JSON_PATH_LEN];
	size_t n, i;

	if (!rd_json_want_type(c, path, v, json_type_array,
			       "an array of rules"))
		return;
	n = json_object_array_length(v);
	if (n > ROCEDP_MAX_CTS_RULES) {
		rd_json_err(c, path, "%zu rules, at most %d", n,
			    ROCEDP_MAX_CTS_RULES);
		n = ROCEDP_MAX_CTS_RULES;
	}
	for (i = 0; i < n; i++) {
		rd_json_path_idx(p, path, i);
		parse_rule(c, p, json_object_array_get_idx(v, i), &s->rules[i],
			   s->rule_names[i]);
	}
	s->cfg.n_cts_rules = n;
}

/* ------------------------------------------------------------ host facts */

/* the kernel's dev_valid_name() */
static bool name_valid(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= IF_NAMESIZE || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (; *name; name++)
		if (*name == '/' || *name == ':' || *name == ' ' ||
		    (*name >= '\t' && *name <= '\r'))
			return false;
	return true;
}

static unsigned int offline_ifindex(void *ctx, const char *name)
{
	struct rd_host_offline *o = ctx;
	unsigned int i;

	if (!name_valid(name))
		return 0;
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->names[i], name))
			return i + 1;
	if (o->n == RD_HOST_OFFLINE_PORTS)
		return 0;
	snprintf(o->names[o->n], sizeof(o->names[0]), "%s", name);
	return ++o->n;
}

static bool offline_has(void *ctx, unsigned int ifindex)
{
	(void)ctx;
	return ifindex;
}

static int offline_mac(void *ctx, unsigned int ifindex, __u8 mac[6])
{
	static const __u8 stand_in[6] = { 0x02 };

	(void)ctx;
	(void)ifindex;
	memcpy(mac, stand_in, 6);
	return 0;
}

static unsigned int live_ifindex(void *ctx, const char *name)
{
	(void)ctx;
	return if_nametoindex(name);
}

static int live_mac(void *ctx, unsigned int ifindex, __u8 mac[6])
{
	(void)ctx;
	return rd_dev_mac(ifindex, mac);
}

const struct rd_host *rd_host_modelled(void)
{
	static const struct rd_host modelled = {
		.ifindex = live_ifindex,
		.has_ifindex = offline_has,
		.mac = live_mac,
	};

	return &modelled;
}

void rd_host_offline_init(struct rd_host_offline *o)
{
	o->n = 0;
	o->h.ifindex = offline_ifindex;
	o->h.has_ifindex = offline_has;
	o->h.mac = offline_mac;
	o->h.ctx = o;
}

/* "eth0", or "7" for an ifindex; 0 and an error when there is no such dev */
static __u32 dev_index(struct rd_json_ctx *c, const char *path,
		       const char *name)
{
	const struct rd_host *h = c->host;
	char buf[IF_NAMESIZE];
	unsigned long long idx;
	__u32 i;

	if (rd_parse_uint_str(name, UINT32_MAX, &idx) && idx) {
		/* offline (replay, tests): ports are modelled, not real */
		if (h ? !h->has_ifindex(h->ctx, idx) :
			!if_indextoname(idx, buf)) {
			rd_json_err(c, path, "no device with ifindex %llu",
				    idx);
			return 0;
		}
		return idx;
	}
	i = h ? h->ifindex(h->ctx, name) : if_nametoindex(name);
	if (!i && h)
		rd_json_err(c, path, "\"%s\" cannot be a device name", name);
	else if (!i)
		rd_json_err(c, path, "no such device \"%s\"", name);
	return i;
}

static void parse_port(struct rd_json_ctx *c, const char *path,
		       struct json_object *v, struct rd_cfg_port *pt)
{
	static const char *const keys[] = { RD_CFG_PORT_KEYS, NULL };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN];
	long long n;
	bool exact;

	rd_port_defaults(&pt->pc);
	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "rate_mbps", path, p)) &&
	    !rd_json_get_int(c, p, x, 0, ROCEDP_VQ_MAX_RATE_MBPS, &n))
		pt->pc.rate_bps = (__u64)n * 1000000;
	if ((x = rd_json_child(v, "kmin_bytes", path, p)))
		rd_json_get_u32(c, p, x, 0, ROCEDP_ECN_MAX_BYTES,
				&pt->pc.kmin_bytes);
	if ((x = rd_json_child(v, "kmax_bytes", path, p)))
		rd_json_get_u32(c, p, x, 0, ROCEDP_ECN_MAX_BYTES,
				&pt->pc.kmax_bytes);
	if ((x = rd_json_child(v, "pmax_percent", path, p)))
		rd_json_get_u32(c, p, x, 0, 100, &pt->pc.pmax_percent);
	if ((x = rd_json_child(v, "profile", path, p)))
		rd_json_get_u32(c, p, x, 0, ROCEDP_ECN_MAX_PROFILES - 1,
				&pt->pc.ecn_profile);
	if ((x = rd_json_child(v, "hold_queue_bytes", path, p)) &&
	    !rd_json_get_int(c, p, x, 0, UINT32_MAX, &n)) {
		pt->pc.flags |= ROCEDP_PORTF_HOLD_QUEUE;
		pt->hold_bytes = n;
	}
	if ((x = rd_json_child(v, "exact_clock", path, p)) &&
	    !rd_json_get_bool(c, p, x, &exact) && exact)
		pt->pc.flags |= ROCEDP_PORTF_EXACT_CLOCK;
	if ((x = rd_json_child(v, "buffer_bytes", path, p)) &&
	    !rd_json_get_u32(c, p, x, 0, UINT32_MAX, &pt->pc.buffer_bytes) &&
	    pt->pc.buffer_bytes && pt->pc.buffer_bytes < pt->pc.kmax_bytes)
		rd_json_err(
			c, p,
			"%u is below kmax_bytes %u: the queue could never reach Kmax",
			pt->pc.buffer_bytes, pt->pc.kmax_bytes);
	if (pt->pc.kmin_bytes > pt->pc.kmax_bytes) {
		rd_json_path_key(p, path, "kmin_bytes");
		rd_json_err(c, p, "%u is above kmax_bytes %u",
			    pt->pc.kmin_bytes, pt->pc.kmax_bytes);
	}
	rd_cfg_parse_trim(c, path, v, pt);
}

static void parse_ecn(struct rd_json_ctx *c, const char *path,
		      struct json_object *v, struct rd_staged *s)
{
	static const char *const keys[] = { "class_optout", "ports", NULL };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN], pi[RD_JSON_PATH_LEN];
	unsigned int n, i;
	size_t k;
	int cls;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "class_optout", path, p)) &&
	    rd_json_want_type(c, p, x, json_type_array,
			      "an array of class names")) {
		s->cfg.ecn_class_optout = 0;
		for (k = 0; k < json_object_array_length(x); k++) {
			rd_json_path_idx(pi, p, k);
			cls = rd_json_get_name(c, pi,
					       json_object_array_get_idx(x, k),
					       "class", rd_cfg_class_keys,
					       ROCEDP_CLASS_MAX);
			if (cls >= 0)
				s->cfg.ecn_class_optout |= 1u << cls;
		}
	}
	x = rd_json_child(v, "ports", path, p);
	if (!x || !rd_json_want_type(c, p, x, json_type_object, "an object"))
		return;
	n = json_object_object_length(x);
	if (n > ROCEDP_MAX_PORTS) {
		rd_json_err(c, p, "%u ports, at most %d", n, ROCEDP_MAX_PORTS);
		return;
	}
	s->ports = rd_json_calloc(c, p, n, sizeof(*s->ports));
	if (!s->ports)
		return;
	json_object_object_foreach(x, dev, pv)
	{
		struct rd_cfg_port *pt = &s->ports[s->n_ports];

		rd_json_path_key(pi, p, dev);
		pt->ifindex = dev_index(c, pi, dev);
		parse_port(c, pi, pv, pt);
		if (!pt->ifindex)
			continue;
		if (pt->ifindex >= ROCEDP_PORT_SLOTS) {
			rd_json_err(c, pi, RD_PORT_SLOTS_ERR, pt->ifindex,
				    ROCEDP_PORT_SLOTS);
			continue;
		}
		for (i = 0; i < s->n_ports; i++)
			if (s->ports[i].ifindex == pt->ifindex)
				break;
		if (i < s->n_ports) {
			rd_json_err(
				c, pi,
				"the same port is listed twice (ifindex %u)",
				pt->ifindex);
			continue;
		}
		s->n_ports++;
	}
	rd_cfg_qsort(s->ports, s->n_ports, sizeof(*s->ports), rd_cfg_port_cmp);
}

static void parse_member(struct rd_json_ctx *c, const char *path,
			 struct json_object *v, struct rocedp_member *mb)
{
	static const char *const keys[] = { RD_CFG_MEMBER_KEYS, NULL };
	struct json_object *x, *dev, *idx;
	char p[RD_JSON_PATH_LEN], pd[RD_JSON_PATH_LEN];
	long long n;
	__u8 plen;
	int err;

	memset(mb, 0, sizeof(*mb));
	mb->weight = 1;
	mb->flags = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED |
		    ROCEDP_MEMBERF_STATIC;
	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	dev = rd_json_child(v, "dev", path, pd);
	idx = rd_json_child(v, "ifindex", path, p);
	if (!dev == !idx) {
		rd_json_err(c, path, "give exactly one of dev and ifindex");
	} else if (dev) {
		if (rd_json_want_type(c, pd, dev, json_type_string,
				      "a device name"))
			mb->ifindex =
				dev_index(c, pd, json_object_get_string(dev));
	} else if (!rd_json_get_int(c, p, idx, 1, INT32_MAX, &n)) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%lld", n);
		mb->ifindex = dev_index(c, p, buf);
	}
	if ((x = rd_json_child(v, "smac", path, p))) {
		if (rd_json_want_type(c, p, x, json_type_string,
				      "a MAC address") &&
		    rd_parse_mac(json_object_get_string(x), mb->smac))
			rd_json_err(
				c, p,
				"%s is not a MAC address (aa:bb:cc:dd:ee:ff)",
				rd_json_text(x));
	} else if (mb->ifindex) {
		/* default: the egress device's own address */
		err = c->host && c->host->mac ?
			      c->host->mac(c->host->ctx, mb->ifindex,
					   mb->smac) :
			      rd_dev_mac(mb->ifindex, mb->smac);
		if (err)
			rd_json_err(
				c, path,
				"no smac given and the device's MAC is unknown: %s",
				strerror(-err));
	}
	x = rd_json_child(v, "dmac", path, p);
	if (!x)
		rd_json_err(c, path, "missing key dmac");
	else if (rd_json_want_type(c, p, x, json_type_string,
				   "a MAC address") &&
		 rd_parse_mac(json_object_get_string(x), mb->dmac))
		rd_json_err(c, p, "%s is not a MAC address (aa:bb:cc:dd:ee:ff)",
			    rd_json_text(x));
	if ((x = rd_json_child(v, "weight", path, p)) &&
	    !rd_json_get_int(c, p, x, 0, 65535, &n))
		mb->weight = n;
	rd_cfg_parse_drain(c, path, v, mb);
	if ((x = rd_json_child(v, "via", path, p)) &&
	    !rd_json_get_prefix(c, p, x, &mb->nh_family, (__u8 *)mb->nh_addr,
				&plen) &&
	    plen != (mb->nh_family == AF_INET ? 32 : 128))
		rd_json_err(c, p, "%s: expected an address, not a prefix",
			    rd_json_text(x));
}

/* named[id]: the file defines group id, valid or not (for route checks) */
static void parse_groups(struct rd_json_ctx *c, const char *path,
			 struct json_object *v, struct rd_staged *s,
			 bool *named)
{
	static const char *const keys[] = { "id", "rtt_us", "buckets",
					    "members", NULL };
	struct json_object *g, *x;
	char p[RD_JSON_PATH_LEN], pm[RD_JSON_PATH_LEN], pi[RD_JSON_PATH_LEN];
	unsigned int j;
	size_t n, k, nm;
	long long id;
	int errors;

	if (!rd_json_want_type(c, path, v, json_type_array,
			       "an array of groups"))
		return;
	n = json_object_array_length(v);
	if (n >= ROCEDP_MAX_GROUPS) {
		rd_json_err(c, path, "%zu groups, at most %d", n,
			    ROCEDP_MAX_GROUPS - 1);
		return;
	}
	s->groups = rd_json_calloc(c, path, n, sizeof(*s->groups));
	if (!s->groups)
		return;
	for (k = 0; k < n; k++) {
		struct rd_cfg_group *cg = &s->groups[s->n_groups];

		errors = c->errors;
		memset(cg, 0, sizeof(*cg));
		g = rd_json_array_object(c, path, v, k, keys, p);
		if (!g)
			continue;
		x = rd_json_child(g, "id", p, pi);
		/* id 0 stays unused: it is what a LOCAL route carries */
		if (!x) {
			rd_json_err(c, p, "missing key id");
		} else if (!rd_json_get_int(c, pi, x, 1, ROCEDP_MAX_GROUPS - 1,
					    &id)) {
			if (named[id])
				rd_json_err(c, pi, "duplicate group id %lld",
					    id);
			named[id] = true;
			cg->id = id;
		}
		if ((x = rd_json_child(g, "rtt_us", p, pi)))
			rd_json_get_u32(c, pi, x, 0, 1000000, &cg->g.rtt_us);
		cg->g.n_buckets = ROCEDP_DEFAULT_BUCKETS;
		/* resilient bucket table size (docs/config.md) */
		if ((x = rd_json_child(g, "buckets", p, pi)) &&
		    !rd_json_get_int(c, pi, x, 1, ROCEDP_MAX_BUCKETS, &id))
			cg->g.n_buckets = id;
		x = rd_json_child(g, "members", p, pm);
		if (!x) {
			rd_json_err(c, p, "missing key members");
			continue;
		}
		if (!rd_json_want_type(c, pm, x, json_type_array,
				       "an array of members"))
			continue;
		nm = json_object_array_length(x);
		if (!nm || nm > ROCEDP_MAX_MEMBERS) {
			rd_json_err(c, pm, "%zu members, expected 1..%d", nm,
				    ROCEDP_MAX_MEMBERS);
			continue;
		}
		for (j = 0; j < nm; j++) {
			rd_json_path_idx(pi, pm, j);
			parse_member(c, pi, json_object_array_get_idx(x, j),
				     &cg->g.members[j]);
		}
		if (c->errors != errors)
			continue;
		cg->g.n_members = nm;
		rd_group_build(&cg->g);
		s->n_groups++;
	}
	rd_cfg_qsort(s->groups, s->n_groups, sizeof(*s->groups),
		     rd_cfg_group_cmp);
}

static void parse_routes(struct rd_json_ctx *c, const char *path,
			 struct json_object *v, struct rd_staged *s,
			 const bool *named)
{
	static const char *const keys[] = { "prefix", "group", "local", NULL };
	struct json_object *r, *x, *grp, *loc;
	char p[RD_JSON_PATH_LEN], pi[RD_JSON_PATH_LEN], pg[RD_JSON_PATH_LEN];
	unsigned int n4 = 0, n6 = 0;
	size_t n, k, i;
	bool local = false;
	long long id;

	if (!rd_json_want_type(c, path, v, json_type_array,
			       "an array of routes"))
		return;
	n = json_object_array_length(v);
	s->routes = rd_json_calloc(c, path, n, sizeof(*s->routes));
	if (!s->routes)
		return;
	for (k = 0; k < n; k++) {
		struct rd_cfg_route *rt = &s->routes[s->n_routes];

		r = rd_json_array_object(c, path, v, k, keys, p);
		if (!r)
			continue;
		x = rd_json_child(r, "prefix", p, pi);
		if (!x) {
			rd_json_err(c, p, "missing key prefix");
			continue;
		}
		if (rd_json_get_prefix(c, pi, x, &rt->family, rt->addr,
				       &rt->plen))
			continue;
		grp = rd_json_child(r, "group", p, pg);
		loc = rd_json_child(r, "local", p, pi);
		if (loc && rd_json_get_bool(c, pi, loc, &local))
			continue;
		if (loc && !local)
			loc = NULL;
		if (!grp == !loc) {
			rd_json_err(
				c, p,
				"give exactly one of group and \"local\": true");
			continue;
		}
		if (loc) {
			rt->val.flags = ROCEDP_ROUTEF_LOCAL |
					ROCEDP_ROUTEF_STATIC;
		} else {
			if (rd_json_get_int(c, pg, grp, 1,
					    ROCEDP_MAX_GROUPS - 1, &id))
				continue;
			/* a group with errors of its own is no second error */
			if (!named[id]) {
				rd_json_err(
					c, pg,
					"group %lld is not defined in groups",
					id);
				continue;
			}
			rt->val.group_id = id;
			rt->val.flags = ROCEDP_ROUTEF_STATIC;
		}
		if (rt->family == AF_INET)
			n4++;
		else
			n6++;
		s->n_routes++;
	}
	if (n4 > ROCEDP_MAX_ROUTES4 || n6 > ROCEDP_MAX_ROUTES6)
		rd_json_err(c, path,
			    "%u IPv4 and %u IPv6 routes, at most %d and %d", n4,
			    n6, ROCEDP_MAX_ROUTES4, ROCEDP_MAX_ROUTES6);
	rd_cfg_qsort(s->routes, s->n_routes, sizeof(*s->routes),
		     rd_cfg_route_cmp);
	for (i = 1; i < s->n_routes; i++)
		if (!rd_cfg_route_cmp(&s->routes[i - 1], &s->routes[i])) {
			char a[INET6_ADDRSTRLEN];

			inet_ntop(s->routes[i].family, s->routes[i].addr, a,
				  sizeof(a));
			rd_json_err(c, path, "prefix %s/%u is listed twice", a,
				    s->routes[i].plen);
		}
}

/*
 * "attach": {"ports": ["eth1", ...], "mode": "native"}: what `rocedp start`
 * attaches at boot. Names are checked for form only (a port may appear
 * later, and `config check --offline` runs where it does not exist).
 */
static void parse_attach(struct rd_json_ctx *c, const char *path,
			 struct json_object *v, struct rd_staged *s)
{
	static const char *const keys[] = { "ports", "mode", NULL };
	/* the order of enum rd_attach_mode */
	static const char *const modes[] = { "native", "generic", "tc" };
	char p[RD_JSON_PATH_LEN], pi[RD_JSON_PATH_LEN];
	struct json_object *x, *e;
	const char *name;
	size_t n, k, j;
	int m;

	if (!rd_json_want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_json_check_keys(c, path, v, keys);
	if ((x = rd_json_child(v, "mode", path, p))) {
		m = rd_json_get_name(c, p, x, "attach mode", modes, 3);
		if (m >= 0)
			s->attach_mode = m;
	}
	x = rd_json_child(v, "ports", path, p);
	if (!x) {
		rd_json_err(c, path, "missing key ports");
		return;
	}
	if (!rd_json_want_type(c, p, x, json_type_array,
			       "an array of interface names"))
		return;
	n = json_object_array_length(x);
	if (!n || n > RD_CFG_MAX_ATTACH) {
		rd_json_err(c, p, "%zu ports: give 1 to %d", n,
			    RD_CFG_MAX_ATTACH);
		return;
	}
	s->attach_ports = rd_json_calloc(c, p, n, sizeof(*s->attach_ports));
	if (!s->attach_ports)
		return;
	for (k = 0; k < n; k++) {
		e = json_object_array_get_idx(x, k);
		rd_json_path_idx(pi, p, k);
		if (!rd_json_want_type(c, pi, e, json_type_string,
				       "an interface name"))
			continue;
		name = json_object_get_string(e);
		/* what the kernel's dev_valid_name() accepts */
		if (!*name || strlen(name) >= IF_NAMESIZE ||
		    !strcmp(name, ".") || !strcmp(name, "..") ||
		    strpbrk(name, "/: \t\n")) {
			rd_json_err(c, pi, "\"%s\" is not an interface name",
				    name);
			continue;
		}
		for (j = 0; j < s->n_attach; j++)
			if (!strcmp(s->attach_ports[j], name))
				break;
		if (j < s->n_attach) {
			rd_json_err(c, pi, "%s is listed twice", name);
			continue;
		}
		strcpy(s->attach_ports[s->n_attach++], name);
	}
}

int rd_config_parse_host(struct json_object *root, const struct rd_host *h,
			 struct rd_staged *s)
{
	static const char *const keys[] = {
		"features", "hash",   "flowlet",   "qos",    "cts_rules", "ecn",
		"groups",   "routes", "telemetry", "attach", NULL
	};
	bool named[ROCEDP_MAX_GROUPS] = { false };
	struct rd_json_ctx c = { .host = h };
	struct json_object *x;
	char p[RD_JSON_PATH_LEN];

	rd_staged_defaults(s);
	if (!rd_json_want_type(&c, "", root, json_type_object, "an object"))
		return -EINVAL;
	rd_json_check_keys(&c, "", root, keys);
	if ((x = rd_json_child(root, "features", "", p)))
		parse_features(&c, p, x, &s->cfg.features);
	if ((x = rd_json_child(root, "hash", "", p)))
		parse_hash(&c, p, x, &s->cfg);
	if ((x = rd_json_child(root, "flowlet", "", p)))
		parse_flowlet(&c, p, x, &s->cfg);
	if ((x = rd_json_child(root, "telemetry", "", p)))
		parse_telemetry(&c, p, x, &s->cfg);
	check_symmetric(&c, &s->cfg);
	if ((x = rd_json_child(root, "qos", "", p)))
		parse_qos(&c, p, x, s->qos);
	if ((x = rd_json_child(root, "cts_rules", "", p)))
		parse_cts_rules(&c, p, x, s);
	if ((x = rd_json_child(root, "ecn", "", p)))
		parse_ecn(&c, p, x, s);
	if ((x = rd_json_child(root, "groups", "", p)))
		parse_groups(&c, p, x, s, named);
	if ((x = rd_json_child(root, "routes", "", p)))
		parse_routes(&c, p, x, s, named);
	if ((x = rd_json_child(root, "attach", "", p)))
		parse_attach(&c, p, x, s);
	rd_json_more_errors("config", c.errors);
	if (c.errors) {
		rd_staged_free(s);
		return -EINVAL;
	}
	return 0;
}

int rd_config_parse(struct json_object *root, struct rd_staged *s)
{
	return rd_config_parse_host(root, NULL, s);
}

int rd_config_check_file(const char *path)
{
	return rd_config_check_file_host(path, NULL);
}

int rd_config_check_file_host(const char *path, const struct rd_host *h)
{
	struct json_object *root;
	struct rd_staged s;
	int err;

	err = rd_config_read_json(path, &root);
	if (err)
		return err;
	err = rd_config_parse_host(root, h, &s);
	json_object_put(root);
	rd_staged_free(&s);
	return err;
}
