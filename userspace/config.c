// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON config file: validate into a staging struct, apply to the maps
 * without exposing a half state, read the running config back, render it.
 * Schema and the reasons for every default: docs/config.md.
 *
 * Apply order (the dataplane may read any map at any time):
 *   devmap ports, ECN ports -> groups -> routes -> qos -> CTS rules ->
 *   rd_config (one 64-byte value) -> removal of stale static routes, then
 *   stale static groups, ECN ports and unused CTS slots.
 * Every write is logged with the value it replaced; a failed write replays
 * the log backwards, so the maps return to what they held before.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <dirent.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "rocedp.h"
#include "attach.h"
#include "engine.h"
#include "groupw.h"
#include "config.h"
#include "jsonstrict.h"
#include "opcode.h"
#include "portl2.h"

/* ROCEDP_FAULT_CONFIG_CRASH: the exit status of the simulated kill */
#define RD_EXIT_TEST_CRASH 70

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PATH_LEN 256
#define CFG_MAX_FILE (64u << 20)
#define QP_MAX 0xffffffu /* BTH destination QP is 24 bits */
#define RUN_DIR ROCEDP_RUN_DIR

/* qsort() with an empty table may get a NULL base, which is undefined */
static void rd_qsort(void *base, size_t n, size_t size,
		     int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static const char *const feature_names[] = { "forward", "remark", "flowlet",
					     "ecn" };
static const char *const choice_names[] = {
	[ROCEDP_FLOWLET_LEAST_LOADED] = "least-loaded",
	[ROCEDP_FLOWLET_RANDOM] = "random",
	[ROCEDP_FLOWLET_HASH] = "hash",
};

static struct json_object *op_to_json(unsigned int op)
{
	char buf[48];

	if (!rd_op_name(op, buf, sizeof(buf)))
		return json_object_new_int(op);
	return json_object_new_string(buf);
}

bool rd_qos_class_settable(int cls)
{
	return cls >= 0 && cls < ROCEDP_CLASS_MAX &&
	       cls != ROCEDP_CLASS_NON_IP && cls != ROCEDP_CLASS_MALFORMED;
}

int rd_json_flags(void)
{
	return JSON_C_TO_STRING_NOSLASHESCAPE |
	       (rd_pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			    JSON_C_TO_STRING_PLAIN);
}

/* ------------------------------------------------------------ staging */

static const struct rocedp_port_cfg default_port = {
	.kmin_bytes = ROCEDP_DEFAULT_KMIN_BYTES,
	.kmax_bytes = ROCEDP_DEFAULT_KMAX_BYTES,
	.pmax_percent = ROCEDP_DEFAULT_PMAX_PERCENT,
};

void rd_staged_defaults(struct rd_staged *s)
{
	struct rocedp_config *c = &s->cfg;

	memset(s, 0, sizeof(*s));
	c->features = ROCEDP_F_FORWARD | ROCEDP_F_REMARK | ROCEDP_F_ECN;
	c->hash_mode = ROCEDP_HASH_QP;
	c->flowlet_rtt_us = ROCEDP_DEFAULT_RTT_US;
	c->flowlet_gap_min_us = ROCEDP_DEFAULT_GAP_MIN_US;
	c->flowlet_gap_max_us = ROCEDP_DEFAULT_GAP_MAX_US;
	c->flowlet_choice = ROCEDP_FLOWLET_LEAST_LOADED;
	c->load_tau_us = ROCEDP_DEFAULT_LOAD_TAU_US;
	c->rtt_ewma_shift = ROCEDP_DEFAULT_RTT_EWMA_SHIFT;
	c->ecn_class_optout = 1u << ROCEDP_CLASS_ACK | 1u << ROCEDP_CLASS_NAK |
			      1u << ROCEDP_CLASS_CNP;
	/* the reasons for these values are in docs/config.md */
	s->qos[ROCEDP_CLASS_ACK] =
		(struct rocedp_qos){ .action = ROCEDP_QOS_SET_DSCP,
				     .dscp = 46 };
	s->qos[ROCEDP_CLASS_NAK] =
		(struct rocedp_qos){ .action = ROCEDP_QOS_SET_DSCP,
				     .dscp = 46 };
	s->qos[ROCEDP_CLASS_CNP] =
		(struct rocedp_qos){ .action = ROCEDP_QOS_SET_DSCP,
				     .dscp = 48 };
	s->qos[ROCEDP_CLASS_CTS] =
		(struct rocedp_qos){ .action = ROCEDP_QOS_SET_DSCP,
				     .dscp = 46 };
}

void rd_staged_free(struct rd_staged *s)
{
	free(s->ports);
	free(s->groups);
	free(s->routes);
	s->ports = NULL;
	s->groups = NULL;
	s->routes = NULL;
	s->n_ports = s->n_groups = s->n_routes = 0;
}

static int route_cmp(const void *a, const void *b)
{
	const struct rd_cfg_route *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	return memcmp(x->addr, y->addr, sizeof(x->addr));
}

static int group_cmp(const void *a, const void *b)
{
	const struct rd_cfg_group *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int port_cmp(const void *a, const void *b)
{
	const struct rd_cfg_port *x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

/* ------------------------------------------------------------ parsing */

struct pctx {
	int errors;
};

static void __attribute__((format(printf, 2, 3)))
perr_print(const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* rd_err keeps it one line, whatever the key holds */
	rd_err("config", "%s: %s", *path ? path : "(top level)", msg);
}

/*
 * Every error is counted, the first RD_JSON_MAX_ERRORS printed: a 10 MB
 * file of errors once printed 5M lines. A macro, so that the arguments
 * (jtext() renders a value) are not even computed past the cap.
 */
#define perr(c, path, ...)                               \
	do {                                             \
		if (++(c)->errors <= RD_JSON_MAX_ERRORS) \
			perr_print((path), __VA_ARGS__); \
	} while (0)

/* JSON paths for error lines; an absurdly deep one is cut with "..." */
static void path_key(char *out, const char *parent, const char *key)
{
	if (snprintf(out, PATH_LEN, "%s%s%s", parent, *parent ? "." : "",
		     key) >= PATH_LEN)
		strcpy(out + PATH_LEN - 4, "...");
}

static void path_idx(char *out, const char *parent, unsigned int i)
{
	if (snprintf(out, PATH_LEN, "%s[%u]", parent, i) >= PATH_LEN)
		strcpy(out + PATH_LEN - 4, "...");
}

static const char *jtext(struct json_object *v)
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

static bool want_type(struct pctx *c, const char *path, struct json_object *v,
		      enum json_type t, const char *what)
{
	if (json_object_is_type(v, t))
		return true;
	perr(c, path, "expected %s, got %s %s", what, jtype(v), jtext(v));
	return false;
}

static int get_int(struct pctx *c, const char *path, struct json_object *v,
		   long long min, long long max, long long *out)
{
	long long x;

	if (!want_type(c, path, v, json_type_int, "an integer"))
		return -EINVAL;
	x = json_object_get_int64(v);
	/* json-c saturates huge literals, which then fail the range check */
	if (x < min || x > max) {
		perr(c, path, "%s is out of range %lld..%lld", jtext(v), min,
		     max);
		return -EINVAL;
	}
	*out = x;
	return 0;
}

static int get_u32(struct pctx *c, const char *path, struct json_object *v,
		   long long min, long long max, __u32 *out)
{
	long long x;

	if (get_int(c, path, v, min, max, &x))
		return -EINVAL;
	*out = x;
	return 0;
}

static int get_bool(struct pctx *c, const char *path, struct json_object *v,
		    bool *out)
{
	if (!want_type(c, path, v, json_type_boolean, "true or false"))
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

static int get_name(struct pctx *c, const char *path, struct json_object *v,
		    const char *what, const char *const *names, unsigned int n)
{
	char all[256];
	unsigned int i;

	if (!want_type(c, path, v, json_type_string, "a string"))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], json_object_get_string(v)))
			return i;
	join_names(all, sizeof(all), names, n);
	perr(c, path, "unknown %s %s (expected one of: %s)", what, jtext(v),
	     all);
	return -EINVAL;
}

/* Report keys of obj not in allowed (NULL-terminated). */
static void check_keys(struct pctx *c, const char *path,
		       struct json_object *obj, const char *const *allowed)
{
	char p[PATH_LEN], all[256];
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
			path_key(p, path, key);
			perr(c, p, "unknown key (expected one of: %s)", all);
		}
	}
}

/*
 * Element k of the array v, which must be an object with only the allowed
 * keys; its path goes to p. NULL (reported) when it is no object.
 */
static struct json_object *array_object(struct pctx *c, const char *path,
					struct json_object *v, size_t k,
					const char *const *allowed, char *p)
{
	struct json_object *o = json_object_array_get_idx(v, k);

	path_idx(p, path, k);
	if (!want_type(c, p, o, json_type_object, "an object"))
		return NULL;
	check_keys(c, p, o, allowed);
	return o;
}

static struct json_object *child(struct json_object *obj, const char *key,
				 const char *parent, char *path)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	path_key(path, parent, key);
	return v;
}

static const char *const class_keys[ROCEDP_CLASS_MAX + 1] = {
	"data",	      "ack", "nak",    "cnp",	    "cts",
	"roce_other", "ip",  "non_ip", "malformed", NULL,
};

static int class_from_name(const char *s, bool settable_only)
{
	int cls = rd_class_from_name(s);

	if (cls < 0 || (settable_only && !rd_qos_class_settable(cls)))
		return -EINVAL;
	return cls;
}

/* The class names a QoS action may be set for, space separated. */
void rd_qos_settable_classes(char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < ROCEDP_CLASS_MAX && off < len; i++)
		if (rd_qos_class_settable(i))
			off += snprintf(buf + off, len - off, "%s%s",
					off ? " " : "", rd_class_name(i));
}

static int parse_mac(const char *s, __u8 *mac)
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

static bool parse_uint_str(const char *s, unsigned long long max,
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
static int parse_prefix(struct pctx *c, const char *path, struct json_object *v,
			__u8 *family, __u8 *addr, __u8 *plen)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash;
	unsigned long long len;
	unsigned int max, i;

	if (!want_type(c, path, v, json_type_string, "a prefix string"))
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
		      !parse_uint_str(slash, max, &len)))
		goto bad;
	*plen = len;
	for (i = 0; i < max / 8; i++) {
		int keep = (int)len - (int)i * 8;
		__u8 mask = keep >= 8 ? 0xff :
			    keep <= 0 ? 0 :
					0xff << (8 - keep);

		if (addr[i] & ~mask) {
			perr(c, path, "%s has host bits set beyond /%llu",
			     jtext(v), len);
			return -EINVAL;
		}
	}
	return 0;
bad:
	perr(c, path, "%s is not an IPv4 or IPv6 prefix (ADDR/LEN)", jtext(v));
	return -EINVAL;
}

static void parse_features(struct pctx *c, const char *path,
			   struct json_object *v, __u32 *out)
{
	char p[PATH_LEN];
	size_t i;
	int f;

	if (!want_type(c, path, v, json_type_array,
		       "an array of feature names"))
		return;
	*out = 0;
	for (i = 0; i < json_object_array_length(v); i++) {
		path_idx(p, path, i);
		f = get_name(c, p, json_object_array_get_idx(v, i), "feature",
			     feature_names, ARRAY_LEN(feature_names));
		if (f >= 0)
			*out |= 1u << f;
	}
}

static void parse_hash(struct pctx *c, const char *path, struct json_object *v,
		       struct rocedp_config *cfg)
{
	static const char *const keys[] = { "mode", "seed", "symmetric", NULL };
	struct json_object *x;
	char p[PATH_LEN];
	bool sym;
	int mode;

	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	check_keys(c, path, v, keys);
	if ((x = child(v, "mode", path, p))) {
		if (want_type(c, p, x, json_type_string, "a string")) {
			mode = rd_hash_mode_from_name(
				json_object_get_string(x));
			if (mode < 0)
				perr(c, p,
				     "unknown hash mode %s (expected one of: 5tuple qp qp-only flowlet spray)",
				     jtext(x));
			else
				cfg->hash_mode = mode;
		}
	}
	if ((x = child(v, "seed", path, p)))
		get_u32(c, p, x, 0, UINT32_MAX, &cfg->hash_seed);
	if ((x = child(v, "symmetric", path, p)) && !get_bool(c, p, x, &sym))
		cfg->hash_flags = sym ? ROCEDP_HASHF_SYMMETRIC : 0;
}

/*
 * symmetric orders the endpoints, but with the QP in the hash (qp, qp-only,
 * flowlet, spray's own draw) or flowlets choosing per direction, the two
 * directions still differ: a request carries the responder's QP, its ACK
 * the requester's, and which QPs pair is not on the wire. A promise that
 * cannot hold is refused rather than kept silently broken.
 */
static void check_symmetric(struct pctx *c, const struct rocedp_config *cfg)
{
	if (!(cfg->hash_flags & ROCEDP_HASHF_SYMMETRIC))
		return;
	if (cfg->hash_mode != ROCEDP_HASH_5TUPLE)
		perr(c, "hash.symmetric",
		     "true cannot hold with hash mode %s: a request hashes the responder's QP, its ACK the requester's; symmetric needs mode 5tuple",
		     rd_hash_mode_name(cfg->hash_mode));
	else if (cfg->features & ROCEDP_F_FLOWLET)
		perr(c, "hash.symmetric",
		     "true cannot hold with the flowlet feature: each direction starts its own flowlets; drop one of the two");
}

static void parse_flowlet(struct pctx *c, const char *path,
			  struct json_object *v, struct rocedp_config *cfg)
{
	static const char *const keys[] = { "rtt_us",	      "gap",
					    "gap_min_us",     "gap_max_us",
					    "choice",	      "load_tau_us",
					    "rtt_ewma_shift", NULL };
	static const char *const gaps[] = { "fixed", "auto" };
	struct json_object *x;
	char p[PATH_LEN];
	int i;

	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	check_keys(c, path, v, keys);
	if ((x = child(v, "rtt_us", path, p)))
		get_u32(c, p, x, 1, 1000000, &cfg->flowlet_rtt_us);
	if ((x = child(v, "gap", path, p)) &&
	    (i = get_name(c, p, x, "gap mode", gaps, 2)) >= 0)
		cfg->flowlet_flags = i ? ROCEDP_FLOWLETF_AUTO_GAP : 0;
	if ((x = child(v, "gap_min_us", path, p)))
		get_u32(c, p, x, 0, 1000000, &cfg->flowlet_gap_min_us);
	if ((x = child(v, "gap_max_us", path, p)))
		get_u32(c, p, x, 0, 1000000, &cfg->flowlet_gap_max_us);
	if ((x = child(v, "choice", path, p)) &&
	    (i = get_name(c, p, x, "flowlet choice", choice_names,
			  ARRAY_LEN(choice_names))) >= 0)
		cfg->flowlet_choice = i;
	if ((x = child(v, "load_tau_us", path, p)))
		get_u32(c, p, x, 1, 1000000, &cfg->load_tau_us);
	if ((x = child(v, "rtt_ewma_shift", path, p)))
		get_u32(c, p, x, 0, 16, &cfg->rtt_ewma_shift);
	if (cfg->flowlet_gap_min_us > cfg->flowlet_gap_max_us) {
		path_key(p, path, "gap_min_us");
		perr(c, p, "%u is above gap_max_us %u", cfg->flowlet_gap_min_us,
		     cfg->flowlet_gap_max_us);
	}
}

static void parse_qos(struct pctx *c, const char *path, struct json_object *v,
		      struct rocedp_qos *qos)
{
	static const char *const keys[] = { "dscp", "pcp", NULL };
	struct json_object *x;
	char p[PATH_LEN], p2[PATH_LEN], all[128];
	__u32 val;
	int cls;

	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	rd_qos_settable_classes(all, sizeof(all));
	json_object_object_foreach(v, key, act)
	{
		struct rocedp_qos q = { 0 };

		path_key(p, path, key);
		cls = class_from_name(key, true);
		if (cls < 0) {
			perr(c, p, "unknown class (expected one of: %s)", all);
			continue;
		}
		if (json_object_is_type(act, json_type_string) &&
		    !strcmp(json_object_get_string(act), "leave")) {
			qos[cls] = q;
			continue;
		}
		if (!json_object_is_type(act, json_type_object)) {
			perr(c, p,
			     "expected \"leave\" or {\"dscp\": 0..63, \"pcp\": 0..7}, got %s",
			     jtext(act));
			continue;
		}
		check_keys(c, p, act, keys);
		q.action = ROCEDP_QOS_SET_DSCP;
		x = child(act, "dscp", p, p2);
		if (!x)
			perr(c, p, "missing key dscp");
		else if (!get_u32(c, p2, x, 0, 63, &val))
			q.dscp = val;
		if ((x = child(act, "pcp", p, p2)) &&
		    !get_u32(c, p2, x, 0, 7, &val)) {
			q.set_pcp = 1;
			q.pcp = val;
		}
		qos[cls] = q;
	}
}

/* qp: 5, [min, max], "0x100-0x1ff" or "0x100" */
static void parse_qp(struct pctx *c, const char *path, struct json_object *v,
		     struct rocedp_cts_rule *r)
{
	unsigned long long lo, hi;
	char buf[64], *dash;
	long long x;

	if (json_object_is_type(v, json_type_int)) {
		if (!get_int(c, path, v, 0, QP_MAX, &x))
			r->qp_min = r->qp_max = x;
		return;
	}
	if (json_object_is_type(v, json_type_array)) {
		char p[PATH_LEN];

		if (json_object_array_length(v) != 2) {
			perr(c, path, "expected [min, max], got %s", jtext(v));
			return;
		}
		path_idx(p, path, 0);
		if (get_int(c, p, json_object_array_get_idx(v, 0), 0, QP_MAX,
			    &x))
			return;
		r->qp_min = x;
		path_idx(p, path, 1);
		if (get_int(c, p, json_object_array_get_idx(v, 1), 0, QP_MAX,
			    &x))
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
	if (!parse_uint_str(buf, ULLONG_MAX, &lo) ||
	    (dash && !parse_uint_str(dash, ULLONG_MAX, &hi)))
		goto bad;
	if (!dash)
		hi = lo;
	if (lo > QP_MAX || hi > QP_MAX) {
		perr(c, path,
		     "%s is out of range 0..0xffffff (QPs are 24 bits)",
		     jtext(v));
		return;
	}
	r->qp_min = lo;
	r->qp_max = hi;
order:
	if (r->qp_min > r->qp_max)
		perr(c, path, "%s: min is above max", jtext(v));
	return;
bad:
	perr(c, path, "expected a QP, [min, max] or \"MIN-MAX\", got %s",
	     jtext(v));
}

static void parse_rule(struct pctx *c, const char *path, struct json_object *v,
		       struct rocedp_cts_rule *r, char *name)
{
	static const char *const keys[] = { "name",	   "opcodes", "qp",
					    "max_payload", "src",     "dst",
					    NULL };
	struct json_object *x, *op;
	char p[PATH_LEN], pi[PATH_LEN];
	__u8 fam[2] = { 0, 0 }, plen;
	long long n;
	size_t i;
	int o;

	memset(r, 0, sizeof(*r));
	r->qp_max = QP_MAX;
	r->max_payload = UINT32_MAX;
	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	check_keys(c, path, v, keys);
	if ((x = child(v, "name", path, p)) &&
	    want_type(c, p, x, json_type_string, "a string")) {
		const char *s = json_object_get_string(x);

		if (!*s || strlen(s) >= RD_CTS_NAME_MAX ||
		    strspn(s,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
			    strlen(s))
			perr(c, p,
			     "%s: names are 1..%d characters of A-Z a-z 0-9 _ . -",
			     jtext(x), RD_CTS_NAME_MAX - 1);
		else
			strcpy(name, s);
	}
	x = child(v, "opcodes", path, p);
	if (!x) {
		perr(c, path, "missing key opcodes");
	} else if (want_type(c, p, x, json_type_array, "an array of opcodes")) {
		if (!json_object_array_length(x))
			perr(c, p, "empty: a rule needs at least one opcode");
		for (i = 0; i < json_object_array_length(x); i++) {
			op = json_object_array_get_idx(x, i);
			path_idx(pi, p, i);
			if (json_object_is_type(op, json_type_string)) {
				o = rd_op_from_name(json_object_get_string(op));
				if (o < 0) {
					perr(c, pi,
					     "unknown opcode %s (IBTA names such as send_only, rdma_write_only, uc_send_only, ud_send_only, xrc_send_only, cnp, or 0..255)",
					     jtext(op));
					continue;
				}
			} else if (!get_int(c, pi, op, 0, 255, &n)) {
				o = n;
			} else {
				continue;
			}
			if (!rd_op_cts_matchable(o)) {
				perr(c, pi,
				     "%s is no data opcode: CTS rules are checked on data opcodes only (ACKs, NAKs and CNPs have classes of their own), so it would never match",
				     jtext(op));
				continue;
			}
			r->opcode_bitmap[o / 64] |= 1ull << (o % 64);
		}
	}
	if ((x = child(v, "qp", path, p)))
		parse_qp(c, p, x, r);
	if ((x = child(v, "max_payload", path, p)))
		get_u32(c, p, x, 0, UINT32_MAX, &r->max_payload);
	if ((x = child(v, "src", path, p)) &&
	    !parse_prefix(c, p, x, &fam[0], (__u8 *)r->src_addr, &plen)) {
		r->src_plen = plen;
		r->flags |= ROCEDP_CTSF_SRC_PREFIX;
	}
	if ((x = child(v, "dst", path, p)) &&
	    !parse_prefix(c, p, x, &fam[1], (__u8 *)r->dst_addr, &plen)) {
		r->dst_plen = plen;
		r->flags |= ROCEDP_CTSF_DST_PREFIX;
		if (fam[0] && fam[0] != fam[1])
			perr(c, p, "address family differs from src");
	}
	if (fam[0] == AF_INET6 || fam[1] == AF_INET6)
		r->flags |= ROCEDP_CTSF_IPV6;
}

static void parse_cts_rules(struct pctx *c, const char *path,
			    struct json_object *v, struct rd_staged *s)
{
	char p[PATH_LEN];
	size_t n, i;

	if (!want_type(c, path, v, json_type_array, "an array of rules"))
		return;
	n = json_object_array_length(v);
	if (n > ROCEDP_MAX_CTS_RULES) {
		perr(c, path, "%zu rules, at most %d", n, ROCEDP_MAX_CTS_RULES);
		n = ROCEDP_MAX_CTS_RULES;
	}
	for (i = 0; i < n; i++) {
		path_idx(p, path, i);
		parse_rule(c, p, json_object_array_get_idx(v, i), &s->rules[i],
			   s->rule_names[i]);
	}
	s->cfg.n_cts_rules = n;
}

/* "eth0", or "7" for an ifindex; 0 and an error when there is no such dev */
static __u32 dev_index(struct pctx *c, const char *path, const char *name)
{
	char buf[IF_NAMESIZE];
	unsigned long long idx;
	__u32 i;

	if (parse_uint_str(name, UINT32_MAX, &idx) && idx) {
		/* offline (replay, tests): ports are modelled, not real */
		if (!rd_config_offline && !if_indextoname(idx, buf)) {
			perr(c, path, "no device with ifindex %llu", idx);
			return 0;
		}
		return idx;
	}
	i = if_nametoindex(name);
	if (!i)
		perr(c, path, "no such device \"%s\"", name);
	return i;
}

static void parse_port(struct pctx *c, const char *path, struct json_object *v,
		       struct rd_cfg_port *pt)
{
	static const char *const keys[] = { "rate_mbps",    "kmin_bytes",
					    "kmax_bytes",   "pmax_percent",
					    "profile",	    "hold_queue_bytes",
					    "buffer_bytes", NULL };
	struct json_object *x;
	char p[PATH_LEN];
	long long n;

	pt->pc = default_port;
	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	check_keys(c, path, v, keys);
	if ((x = child(v, "rate_mbps", path, p)) &&
	    !get_int(c, p, x, 0, ROCEDP_VQ_MAX_RATE_MBPS, &n))
		pt->pc.rate_bps = (__u64)n * 1000000;
	if ((x = child(v, "kmin_bytes", path, p)))
		get_u32(c, p, x, 0, ROCEDP_ECN_MAX_BYTES, &pt->pc.kmin_bytes);
	if ((x = child(v, "kmax_bytes", path, p)))
		get_u32(c, p, x, 0, ROCEDP_ECN_MAX_BYTES, &pt->pc.kmax_bytes);
	if ((x = child(v, "pmax_percent", path, p)))
		get_u32(c, p, x, 0, 100, &pt->pc.pmax_percent);
	if ((x = child(v, "profile", path, p)))
		get_u32(c, p, x, 0, ROCEDP_ECN_MAX_PROFILES - 1,
			&pt->pc.ecn_profile);
	if ((x = child(v, "hold_queue_bytes", path, p)) &&
	    !get_int(c, p, x, 0, UINT32_MAX, &n)) {
		pt->pc.flags |= ROCEDP_PORTF_HOLD_QUEUE;
		pt->hold_bytes = n;
	}
	if ((x = child(v, "buffer_bytes", path, p)) &&
	    !get_u32(c, p, x, 0, UINT32_MAX, &pt->pc.buffer_bytes) &&
	    pt->pc.buffer_bytes && pt->pc.buffer_bytes < pt->pc.kmax_bytes)
		perr(c, p,
		     "%u is below kmax_bytes %u: the queue could never reach Kmax",
		     pt->pc.buffer_bytes, pt->pc.kmax_bytes);
	if (pt->pc.kmin_bytes > pt->pc.kmax_bytes) {
		path_key(p, path, "kmin_bytes");
		perr(c, p, "%u is above kmax_bytes %u", pt->pc.kmin_bytes,
		     pt->pc.kmax_bytes);
	}
}

static void parse_ecn(struct pctx *c, const char *path, struct json_object *v,
		      struct rd_staged *s)
{
	static const char *const keys[] = { "class_optout", "ports", NULL };
	struct json_object *x;
	char p[PATH_LEN], pi[PATH_LEN];
	unsigned int n, i;
	size_t k;
	int cls;

	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	check_keys(c, path, v, keys);
	if ((x = child(v, "class_optout", path, p)) &&
	    want_type(c, p, x, json_type_array, "an array of class names")) {
		s->cfg.ecn_class_optout = 0;
		for (k = 0; k < json_object_array_length(x); k++) {
			path_idx(pi, p, k);
			cls = get_name(c, pi, json_object_array_get_idx(x, k),
				       "class", class_keys, ROCEDP_CLASS_MAX);
			if (cls >= 0)
				s->cfg.ecn_class_optout |= 1u << cls;
		}
	}
	x = child(v, "ports", path, p);
	if (!x || !want_type(c, p, x, json_type_object, "an object"))
		return;
	n = json_object_object_length(x);
	if (n > ROCEDP_MAX_PORTS) {
		perr(c, p, "%u ports, at most %d", n, ROCEDP_MAX_PORTS);
		return;
	}
	s->ports = calloc(n ? n : 1, sizeof(*s->ports));
	if (!s->ports) {
		perr(c, p, "%s", strerror(ENOMEM));
		return;
	}
	json_object_object_foreach(x, dev, pv)
	{
		struct rd_cfg_port *pt = &s->ports[s->n_ports];

		path_key(pi, p, dev);
		pt->ifindex = dev_index(c, pi, dev);
		parse_port(c, pi, pv, pt);
		if (!pt->ifindex)
			continue;
		if (pt->ifindex >= ROCEDP_PORT_SLOTS) {
			perr(c, pi, RD_PORT_SLOTS_ERR, pt->ifindex,
			     ROCEDP_PORT_SLOTS);
			continue;
		}
		for (i = 0; i < s->n_ports; i++)
			if (s->ports[i].ifindex == pt->ifindex)
				break;
		if (i < s->n_ports) {
			perr(c, pi,
			     "the same port is listed twice (ifindex %u)",
			     pt->ifindex);
			continue;
		}
		s->n_ports++;
	}
	rd_qsort(s->ports, s->n_ports, sizeof(*s->ports), port_cmp);
}

static void parse_member(struct pctx *c, const char *path,
			 struct json_object *v, struct rocedp_member *mb)
{
	static const char *const keys[] = { "dev",    "ifindex", "smac", "dmac",
					    "weight", "via",	 NULL };
	struct json_object *x, *dev, *idx;
	char p[PATH_LEN], pd[PATH_LEN];
	long long n;
	__u8 plen;
	int err;

	memset(mb, 0, sizeof(*mb));
	mb->weight = 1;
	mb->flags = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED |
		    ROCEDP_MEMBERF_STATIC;
	if (!want_type(c, path, v, json_type_object, "an object"))
		return;
	check_keys(c, path, v, keys);
	dev = child(v, "dev", path, pd);
	idx = child(v, "ifindex", path, p);
	if (!dev == !idx) {
		perr(c, path, "give exactly one of dev and ifindex");
	} else if (dev) {
		if (want_type(c, pd, dev, json_type_string, "a device name"))
			mb->ifindex =
				dev_index(c, pd, json_object_get_string(dev));
	} else if (!get_int(c, p, idx, 1, INT32_MAX, &n)) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%lld", n);
		mb->ifindex = dev_index(c, p, buf);
	}
	if ((x = child(v, "smac", path, p))) {
		if (want_type(c, p, x, json_type_string, "a MAC address") &&
		    parse_mac(json_object_get_string(x), mb->smac))
			perr(c, p,
			     "%s is not a MAC address (aa:bb:cc:dd:ee:ff)",
			     jtext(x));
	} else if (mb->ifindex) {
		/* default: the egress device's own address */
		err = rd_dev_mac(mb->ifindex, mb->smac);
		if (err)
			perr(c, path,
			     "no smac given and the device's MAC is unknown: %s",
			     strerror(-err));
	}
	x = child(v, "dmac", path, p);
	if (!x)
		perr(c, path, "missing key dmac");
	else if (want_type(c, p, x, json_type_string, "a MAC address") &&
		 parse_mac(json_object_get_string(x), mb->dmac))
		perr(c, p, "%s is not a MAC address (aa:bb:cc:dd:ee:ff)",
		     jtext(x));
	if ((x = child(v, "weight", path, p)) &&
	    !get_int(c, p, x, 0, 65535, &n))
		mb->weight = n;
	if ((x = child(v, "via", path, p)) &&
	    !parse_prefix(c, p, x, &mb->nh_family, (__u8 *)mb->nh_addr,
			  &plen) &&
	    plen != (mb->nh_family == AF_INET ? 32 : 128))
		perr(c, p, "%s: expected an address, not a prefix", jtext(x));
}

/* named[id]: the file defines group id, valid or not (for route checks) */
static void parse_groups(struct pctx *c, const char *path,
			 struct json_object *v, struct rd_staged *s,
			 bool *named)
{
	static const char *const keys[] = { "id", "rtt_us", "buckets",
					    "members", NULL };
	struct json_object *g, *x;
	char p[PATH_LEN], pm[PATH_LEN], pi[PATH_LEN];
	unsigned int j;
	size_t n, k, nm;
	long long id;
	int errors;

	if (!want_type(c, path, v, json_type_array, "an array of groups"))
		return;
	n = json_object_array_length(v);
	if (n >= ROCEDP_MAX_GROUPS) {
		perr(c, path, "%zu groups, at most %d", n,
		     ROCEDP_MAX_GROUPS - 1);
		return;
	}
	s->groups = calloc(n ? n : 1, sizeof(*s->groups));
	if (!s->groups) {
		perr(c, path, "%s", strerror(ENOMEM));
		return;
	}
	for (k = 0; k < n; k++) {
		struct rd_cfg_group *cg = &s->groups[s->n_groups];

		errors = c->errors;
		memset(cg, 0, sizeof(*cg));
		g = array_object(c, path, v, k, keys, p);
		if (!g)
			continue;
		x = child(g, "id", p, pi);
		/* id 0 stays unused: it is what a LOCAL route carries */
		if (!x) {
			perr(c, p, "missing key id");
		} else if (!get_int(c, pi, x, 1, ROCEDP_MAX_GROUPS - 1, &id)) {
			if (named[id])
				perr(c, pi, "duplicate group id %lld", id);
			named[id] = true;
			cg->id = id;
		}
		if ((x = child(g, "rtt_us", p, pi)))
			get_u32(c, pi, x, 0, 1000000, &cg->g.rtt_us);
		cg->g.n_buckets = ROCEDP_DEFAULT_BUCKETS;
		/* resilient bucket table size (docs/config.md) */
		if ((x = child(g, "buckets", p, pi)) &&
		    !get_int(c, pi, x, 1, ROCEDP_MAX_BUCKETS, &id))
			cg->g.n_buckets = id;
		x = child(g, "members", p, pm);
		if (!x) {
			perr(c, p, "missing key members");
			continue;
		}
		if (!want_type(c, pm, x, json_type_array,
			       "an array of members"))
			continue;
		nm = json_object_array_length(x);
		if (!nm || nm > ROCEDP_MAX_MEMBERS) {
			perr(c, pm, "%zu members, expected 1..%d", nm,
			     ROCEDP_MAX_MEMBERS);
			continue;
		}
		for (j = 0; j < nm; j++) {
			path_idx(pi, pm, j);
			parse_member(c, pi, json_object_array_get_idx(x, j),
				     &cg->g.members[j]);
		}
		if (c->errors != errors)
			continue;
		cg->g.n_members = nm;
		rd_group_build(&cg->g);
		s->n_groups++;
	}
	rd_qsort(s->groups, s->n_groups, sizeof(*s->groups), group_cmp);
}

static bool has_group(const struct rd_staged *s, __u32 id)
{
	struct rd_cfg_group key = { .id = id };

	return bsearch(&key, s->groups, s->n_groups, sizeof(key), group_cmp);
}

static void parse_routes(struct pctx *c, const char *path,
			 struct json_object *v, struct rd_staged *s,
			 const bool *named)
{
	static const char *const keys[] = { "prefix", "group", "local", NULL };
	struct json_object *r, *x, *grp, *loc;
	char p[PATH_LEN], pi[PATH_LEN], pg[PATH_LEN];
	unsigned int n4 = 0, n6 = 0;
	size_t n, k, i;
	bool local = false;
	long long id;

	if (!want_type(c, path, v, json_type_array, "an array of routes"))
		return;
	n = json_object_array_length(v);
	s->routes = calloc(n ? n : 1, sizeof(*s->routes));
	if (!s->routes) {
		perr(c, path, "%s", strerror(ENOMEM));
		return;
	}
	for (k = 0; k < n; k++) {
		struct rd_cfg_route *rt = &s->routes[s->n_routes];

		r = array_object(c, path, v, k, keys, p);
		if (!r)
			continue;
		x = child(r, "prefix", p, pi);
		if (!x) {
			perr(c, p, "missing key prefix");
			continue;
		}
		if (parse_prefix(c, pi, x, &rt->family, rt->addr, &rt->plen))
			continue;
		grp = child(r, "group", p, pg);
		loc = child(r, "local", p, pi);
		if (loc && get_bool(c, pi, loc, &local))
			continue;
		if (loc && !local)
			loc = NULL;
		if (!grp == !loc) {
			perr(c, p,
			     "give exactly one of group and \"local\": true");
			continue;
		}
		if (loc) {
			rt->val.flags = ROCEDP_ROUTEF_LOCAL |
					ROCEDP_ROUTEF_STATIC;
		} else {
			if (get_int(c, pg, grp, 1, ROCEDP_MAX_GROUPS - 1, &id))
				continue;
			/* a group with errors of its own is no second error */
			if (!named[id]) {
				perr(c, pg,
				     "group %lld is not defined in groups", id);
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
		perr(c, path, "%u IPv4 and %u IPv6 routes, at most %d and %d",
		     n4, n6, ROCEDP_MAX_ROUTES4, ROCEDP_MAX_ROUTES6);
	rd_qsort(s->routes, s->n_routes, sizeof(*s->routes), route_cmp);
	for (i = 1; i < s->n_routes; i++)
		if (!route_cmp(&s->routes[i - 1], &s->routes[i])) {
			char a[INET6_ADDRSTRLEN];

			inet_ntop(s->routes[i].family, s->routes[i].addr, a,
				  sizeof(a));
			perr(c, path, "prefix %s/%u is listed twice", a,
			     s->routes[i].plen);
		}
}

int rd_config_parse(struct json_object *root, struct rd_staged *s)
{
	static const char *const keys[] = { "features", "hash",	     "flowlet",
					    "qos",	"cts_rules", "ecn",
					    "groups",	"routes",    NULL };
	bool named[ROCEDP_MAX_GROUPS] = { false };
	struct pctx c = { 0 };
	struct json_object *x;
	char p[PATH_LEN];

	rd_staged_defaults(s);
	if (!want_type(&c, "", root, json_type_object, "an object"))
		return -EINVAL;
	check_keys(&c, "", root, keys);
	if ((x = child(root, "features", "", p)))
		parse_features(&c, p, x, &s->cfg.features);
	if ((x = child(root, "hash", "", p)))
		parse_hash(&c, p, x, &s->cfg);
	if ((x = child(root, "flowlet", "", p)))
		parse_flowlet(&c, p, x, &s->cfg);
	check_symmetric(&c, &s->cfg);
	if ((x = child(root, "qos", "", p)))
		parse_qos(&c, p, x, s->qos);
	if ((x = child(root, "cts_rules", "", p)))
		parse_cts_rules(&c, p, x, s);
	if ((x = child(root, "ecn", "", p)))
		parse_ecn(&c, p, x, s);
	if ((x = child(root, "groups", "", p)))
		parse_groups(&c, p, x, s, named);
	if ((x = child(root, "routes", "", p)))
		parse_routes(&c, p, x, s, named);
	rd_json_more_errors("config", c.errors);
	if (c.errors) {
		rd_staged_free(s);
		return -EINVAL;
	}
	return 0;
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

int rd_config_check_file(const char *path)
{
	struct json_object *root;
	struct rd_staged s;
	int err;

	err = rd_config_read_json(path, &root);
	if (err)
		return err;
	err = rd_config_parse(root, &s);
	json_object_put(root);
	rd_staged_free(&s);
	return err;
}

/* ------------------------------------------------------------ running */

/* What apply needs beyond the static config itself. */
struct running {
	__u8 gstate[ROCEDP_MAX_GROUPS]; /* 0 none, 1 managed by sync, 2 static */
	bool dyn_ref[ROCEDP_MAX_GROUPS]; /* used by a non-static route */
	struct rocedp_cts_rule rules[ROCEDP_CTS_SLOTS]; /* both banks */
	struct rd_cfg_port *ports; /* every rd_port_cfg entry */
	unsigned int n_ports;
	/*
	 * Every route, synced ones too, by route_cmp: whether a prefix is in
	 * the LPM trie. A trie lookup cannot say: it returns the longest
	 * prefix that covers the key, so a write's undo record would keep a
	 * covering route's value and the rollback would write it under the
	 * new prefix instead of deleting it.
	 */
	struct rd_cfg_route *routes;
	unsigned int n_routes, routes_cap;
};

static void running_free(struct running *x)
{
	free(x->ports);
	x->ports = NULL;
	free(x->routes);
	x->routes = NULL;
}

static bool group_is_static(const struct rocedp_group *g)
{
	unsigned int i, n = g->n_members;

	for (i = 0; i < n && i < ROCEDP_MAX_MEMBERS; i++)
		if (g->members[i].flags & ROCEDP_MEMBERF_STATIC)
			return true;
	return false;
}

static int grow(void **arr, unsigned int n, unsigned int *cap, size_t sz)
{
	void *p;

	if (n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 64;
	p = realloc(*arr, (size_t)*cap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	return 0;
}

static int read_groups(int fd, struct rd_staged *s, struct running *x)
{
	__u32 key, next, *prev = NULL;
	struct rocedp_group g;
	unsigned int cap = 0;
	int err;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &g))
			continue;
		if (key >= ROCEDP_MAX_GROUPS)
			continue;
		if (!group_is_static(&g)) {
			if (x)
				x->gstate[key] = 1;
			continue;
		}
		if (x)
			x->gstate[key] = 2;
		err = grow((void **)&s->groups, s->n_groups, &cap,
			   sizeof(*s->groups));
		if (err)
			return err;
		s->groups[s->n_groups].id = key;
		s->groups[s->n_groups].g = g;
		s->n_groups++;
	}
	if (errno != ENOENT)
		return -errno;
	rd_qsort(s->groups, s->n_groups, sizeof(*s->groups), group_cmp);
	return 0;
}

static void route_from_key(struct rd_cfg_route *rt, __u8 family,
			   const void *key, const struct rocedp_route *val)
{
	const struct rocedp_route6_key *k6 = key;
	const struct rocedp_route4_key *k4 = key;

	memset(rt, 0, sizeof(*rt));
	rt->family = family;
	rt->plen = k4->prefixlen;
	if (family == AF_INET)
		memcpy(rt->addr, &k4->addr, 4);
	else
		memcpy(rt->addr, k6->addr, 16);
	/*
	 * Host bits cleared, as in a staged route: the trie ignores them (a
	 * key written with them by another tool is the same prefix), and the
	 * undo records are found by comparing staged routes with these.
	 */
	rd_prefix_mask(rt->addr, family, rt->plen);
	rt->val = *val;
}

static int read_routes(int fd, __u8 family, struct rd_staged *s,
		       unsigned int *cap, struct running *x)
{
	union {
		struct rocedp_route4_key k4;
		struct rocedp_route6_key k6;
	} key, next;
	struct rocedp_route val;
	void *prev = NULL;
	int err;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct rd_cfg_route *rt;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		if (x) {
			err = grow((void **)&x->routes, x->n_routes,
				   &x->routes_cap, sizeof(*x->routes));
			if (err)
				return err;
			route_from_key(&x->routes[x->n_routes++], family, &key,
				       &val);
		}
		if (!(val.flags & ROCEDP_ROUTEF_STATIC)) {
			if (x && !(val.flags & ROCEDP_ROUTEF_LOCAL) &&
			    val.group_id < ROCEDP_MAX_GROUPS)
				x->dyn_ref[val.group_id] = true;
			continue;
		}
		err = grow((void **)&s->routes, s->n_routes, cap,
			   sizeof(*s->routes));
		if (err)
			return err;
		rt = &s->routes[s->n_routes++];
		route_from_key(rt, family, &key, &val);
	}
	return errno == ENOENT ? 0 : -errno;
}

static int read_ports(const struct rd_maps *m, struct rd_staged *s,
		      struct running *x)
{
	struct rocedp_port_state ps;
	unsigned int cap = 0, xcap = 0;
	__u32 key;
	struct rd_cfg_port pt;
	int fd = m->fd[RD_MAP_PORT_CFG], err;

	for (key = 0; key < ROCEDP_PORT_SLOTS; key++) {
		memset(&pt, 0, sizeof(pt));
		pt.ifindex = key;
		if (rd_port_cfg_get(fd, key, &pt.pc))
			continue;
		if ((pt.pc.flags & ROCEDP_PORTF_HOLD_QUEUE) &&
		    !bpf_map_lookup_elem(m->fd[RD_MAP_PORT_STATE], &key, &ps))
			pt.hold_bytes = ps.vq_bytes;
		if (x) {
			err = grow((void **)&x->ports, x->n_ports, &xcap,
				   sizeof(pt));
			if (err)
				return err;
			x->ports[x->n_ports++] = pt;
		}
		if (!memcmp(&pt.pc, &default_port, sizeof(pt.pc)))
			continue;
		err = grow((void **)&s->ports, s->n_ports, &cap, sizeof(pt));
		if (err)
			return err;
		s->ports[s->n_ports++] = pt;
	}
	if (errno != ENOENT)
		return -errno;
	rd_qsort(s->ports, s->n_ports, sizeof(pt), port_cmp);
	if (x)
		rd_qsort(x->ports, x->n_ports, sizeof(pt), port_cmp);
	return 0;
}

static __u64 fnv64(const void *p, size_t len)
{
	const __u8 *b = p;
	__u64 h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int map_id(int fd)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	return info.id;
}

/*
 * The ABI keeps no rule names, so the CLI keeps them beside the maps in
 * RUN_DIR/cts-<map id>.names, each with a hash of its rule: a name is shown
 * only while its rule is unchanged, whoever rewrote the map.
 */
static void cts_names_load(int fd, struct rd_staged *s)
{
	char path[64], name[RD_CTS_NAME_MAX];
	unsigned long long hash;
	unsigned int i;
	FILE *f;
	int id = map_id(fd);

	if (id < 0)
		return;
	snprintf(path, sizeof(path), RUN_DIR "/cts-%d.names", id);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%u %llx %31s", &i, &hash, name) == 3)
		if (i < s->cfg.n_cts_rules &&
		    fnv64(&s->rules[i], sizeof(s->rules[i])) == hash)
			strcpy(s->rule_names[i], name);
	fclose(f);
}

static void cts_names_save(int fd, const struct rd_staged *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	struct dirent *de;
	unsigned int i;
	DIR *d;
	FILE *f;
	int id = map_id(fd), old, ofd;

	if (id < 0 || (mkdir(RUN_DIR, 0700) && errno != EEXIST))
		return;
	/* forget names of maps that are gone (detached, re-attached) */
	d = opendir(RUN_DIR);
	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, "cts-%d.names", &old) != 1 || old == id)
			continue;
		ofd = bpf_map_get_fd_by_id(old);
		if (ofd >= 0) {
			close(ofd);
			continue;
		}
		snprintf(path, sizeof(path), RUN_DIR "/%s", de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), RUN_DIR "/cts-%d.names", id);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	for (i = 0; i < s->cfg.n_cts_rules; i++)
		if (s->rule_names[i][0])
			fprintf(f, "%u %llx %s\n", i,
				(unsigned long long)fnv64(&s->rules[i],
							  sizeof(s->rules[i])),
				s->rule_names[i]);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

static int load_running(const struct rd_maps *m, struct rd_staged *s,
			struct running *x)
{
	unsigned int cap = 0;
	__u32 k = 0, bank;
	int err;

	memset(s, 0, sizeof(*s));
	if (bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &k, &s->cfg))
		return -errno;
	for (k = 0; k < ROCEDP_CLASS_MAX; k++)
		if (bpf_map_lookup_elem(m->fd[RD_MAP_QOS], &k, &s->qos[k]))
			return -errno;
	/* the list the classifier walks: bank and count from cts_live */
	bank = ROCEDP_CTS_LIVE_BANK(s->cfg.cts_live);
	s->cfg.n_cts_rules = ROCEDP_CTS_LIVE_N(s->cfg.cts_live);
	if (s->cfg.n_cts_rules > ROCEDP_MAX_CTS_RULES)
		s->cfg.n_cts_rules = ROCEDP_MAX_CTS_RULES;
	for (k = 0; k < ROCEDP_CTS_SLOTS; k++) {
		struct rocedp_cts_rule r;
		unsigned int i = k - bank * ROCEDP_MAX_CTS_RULES;

		if (bpf_map_lookup_elem(m->fd[RD_MAP_CTS_RULES], &k, &r))
			return -errno;
		if (x)
			x->rules[k] = r;
		if (i < s->cfg.n_cts_rules) /* unsigned: the live bank only */
			s->rules[i] = r;
	}
	cts_names_load(m->fd[RD_MAP_CTS_RULES], s);
	err = read_groups(m->fd[RD_MAP_GROUPS], s, x);
	if (!err)
		err = read_routes(m->fd[RD_MAP_ROUTES4], AF_INET, s, &cap, x);
	if (!err)
		err = read_routes(m->fd[RD_MAP_ROUTES6], AF_INET6, s, &cap, x);
	if (!err)
		err = read_ports(m, s, x);
	if (err) {
		rd_staged_free(s);
		if (x)
			running_free(x);
		return err;
	}
	rd_qsort(s->routes, s->n_routes, sizeof(*s->routes), route_cmp);
	if (x)
		rd_qsort(x->routes, x->n_routes, sizeof(*x->routes), route_cmp);
	return 0;
}

int rd_config_read_running(const struct rd_maps *m, struct rd_staged *s)
{
	return load_running(m, s, NULL);
}

/* ------------------------------------------------------------ apply */

struct undo {
	int fd;
	bool had; /* the key existed: restore old, else delete */
	bool devmap; /* old holds a program id, not an fd */
	__u32 ksz, vsz;
	__u8 key[24];
	void *old;
};

struct txn {
	struct undo *u;
	unsigned int n, cap;
	long fault_at; /* test hook: fail this write (1-based), 0 = never */
	long crash_at; /* test hook: die right after this write, no rollback */
	long writes;
	int devmap_fd;
	int cfg_fd, fib_fd[3]; /* rd_config; rd_groups, rd_routes4/6 */
	bool fib_bumped; /* rd_config.fib_gen bumped by this load */
	struct rd_groupw gw; /* groups go through groupw.c */
};

/* One map write (val) or delete (!val): -errno, absent deletes are 0. */
static int txn_write(const struct txn *t, int fd, const void *key,
		     const void *val, __u64 flags)
{
	if (fd == t->gw.hash && fd >= 0)
		return val ? rd_groupw_put(&t->gw, *(const __u32 *)key, val) :
			     rd_groupw_del(&t->gw, *(const __u32 *)key);
	if (val)
		return bpf_map_update_elem(fd, key, val, flags) ? -errno : 0;
	return bpf_map_delete_elem(fd, key) && errno != ENOENT ? -errno : 0;
}

static void txn_init(struct txn *t, const struct rd_maps *m)
{
	memset(t, 0, sizeof(*t));
#ifdef ROCEDP_FAULTS
	/* test builds only (docs/faults.md): never in the shipped binary */
	const char *f = getenv("ROCEDP_FAULT_CONFIG_WRITE");
	const char *c = getenv("ROCEDP_FAULT_CONFIG_CRASH");

	t->fault_at = f ? atol(f) : 0;
	t->crash_at = c ? atol(c) : 0;
#endif
	t->devmap_fd = m->fd[RD_MAP_TX_PORTS];
	t->cfg_fd = m->fd[RD_MAP_CONFIG];
	t->fib_fd[0] = m->fd[RD_MAP_GROUPS];
	t->fib_fd[1] = m->fd[RD_MAP_ROUTES4];
	t->fib_fd[2] = m->fd[RD_MAP_ROUTES6];
	rd_groupw_from_maps(&t->gw, m);
}

static int txn_op(struct txn *t, int fd, const void *key, __u32 ksz,
		  const void *val, __u32 vsz, __u64 flags, const char *what);

/*
 * Before the first write of a route or group, bump rd_config.fib_gen (a
 * write of its own): a running rocedp sync re-reads the maps before its
 * next write and so leaves the config's entries alone. First, not last, so
 * that a load killed half way has bumped it too.
 */
static int fib_bump(struct txn *t, int fd)
{
	struct rocedp_config c;
	__u32 zero = 0;

	if (t->fib_bumped ||
	    (fd != t->fib_fd[0] && fd != t->fib_fd[1] && fd != t->fib_fd[2]))
		return 0;
	if (bpf_map_lookup_elem(t->cfg_fd, &zero, &c))
		return -errno;
	c.fib_gen++;
	t->fib_bumped = true;
	return txn_op(t, t->cfg_fd, &zero, 4, &c, sizeof(c), BPF_ANY,
		      "rd_config fib_gen");
}

static void txn_free(struct txn *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		free(t->u[i].old);
	free(t->u);
}

/*
 * Record the current value of key, then write (val) or delete (!val).
 * known: the caller knows the current value (old, NULL for none), as a
 * lookup in an LPM trie would find a covering prefix; else looked up.
 */
static int txn_op_as(struct txn *t, int fd, const void *key, __u32 ksz,
		     const void *val, __u32 vsz, __u64 flags, const char *what,
		     bool known, const void *old)
{
	struct undo *u;
	int err;

	err = fib_bump(t, fd);
	if (err)
		return err;
	if (grow((void **)&t->u, t->n, &t->cap, sizeof(*t->u)))
		return -ENOMEM;
	u = &t->u[t->n];
	memset(u, 0, sizeof(*u));
	u->fd = fd;
	u->ksz = ksz;
	u->vsz = vsz;
	u->devmap = fd == t->devmap_fd;
	memcpy(u->key, key, ksz);
	u->old = malloc(vsz);
	if (!u->old)
		return -ENOMEM;
	if (known) {
		u->had = old != NULL;
		if (old)
			memcpy(u->old, old, vsz);
	} else {
		u->had = !bpf_map_lookup_elem(fd, key, u->old);
	}
	if (!u->had) {
		free(u->old);
		u->old = NULL;
		if (!val)
			return 0; /* deleting what is not there */
	}
	if (++t->writes == t->fault_at)
		err = -ENOMEM;
	else
		err = txn_write(t, fd, key, val, flags);
	if (err) {
		free(u->old);
		rd_err("config", "%s: %s", what, strerror(-err));
		return err;
	}
	t->n++;
	if (t->writes == t->crash_at)
		_exit(RD_EXIT_TEST_CRASH); /* as if killed: maps stay as they are */
	return 0;
}

static int txn_op(struct txn *t, int fd, const void *key, __u32 ksz,
		  const void *val, __u32 vsz, __u64 flags, const char *what)
{
	return txn_op_as(t, fd, key, ksz, val, vsz, flags, what, false, NULL);
}

static int txn_rollback(struct txn *t)
{
	int failed = 0, pfd;
	struct undo *u;

	while (t->n) {
		u = &t->u[--t->n];
		if (!u->had) {
			if (txn_write(t, u->fd, u->key, NULL, 0))
				failed++;
		} else if (u->devmap) {
			struct bpf_devmap_val *dv = u->old;

			pfd = dv->bpf_prog.id ?
				      bpf_prog_get_fd_by_id(dv->bpf_prog.id) :
				      -1;
			dv->bpf_prog.fd = pfd;
			if (bpf_map_update_elem(u->fd, u->key, dv, BPF_ANY))
				failed++;
			if (pfd >= 0)
				close(pfd);
		} else if (txn_write(t, u->fd, u->key, u->old, BPF_ANY)) {
			failed++;
		}
		free(u->old);
		u->old = NULL;
	}
	if (failed)
		rd_err("config",
		       "rollback incomplete: %d map entries could not be restored",
		       failed);
	return failed ? -EIO : 0;
}

static struct rd_cfg_port *find_port(struct rd_cfg_port *p, unsigned int n,
				     __u32 ifindex)
{
	struct rd_cfg_port key = { .ifindex = ifindex };

	return bsearch(&key, p, n, sizeof(key), port_cmp);
}

static int apply_ports(struct txn *t, const struct rd_maps *m,
		       const struct rd_staged *s, struct running *x)
{
	char what[64];
	unsigned int i, j;
	int err = 0;

	for (i = 0; i < s->n_groups && !err; i++) {
		const struct rocedp_group *g = &s->groups[i].g;

		for (j = 0; j < g->n_members && !err; j++) {
			__u32 ifx = g->members[j].ifindex;
			struct bpf_devmap_val have, want = { .ifindex = ifx };

			/* no program: XDP decides ECN in the ingress program */
			want.bpf_prog.fd = -1;
			/* offline ports do not exist: the devmap refuses them */
			if (rd_config_offline)
				goto port_cfg;
			if (!bpf_map_lookup_elem(m->fd[RD_MAP_TX_PORTS], &ifx,
						 &have) &&
			    have.ifindex == ifx && !have.bpf_prog.id)
				goto port_cfg;
			snprintf(what, sizeof(what), "rd_tx_ports ifindex %u",
				 ifx);
			err = txn_op(t, m->fd[RD_MAP_TX_PORTS], &ifx, 4, &want,
				     sizeof(want), BPF_ANY, what);
			if (err)
				break;
port_cfg:
			/*
			 * like rocedp sync: every egress port gets ECN settings
			 * (x->ports are the slots in use; a port beyond the
			 * slots has none, its frames are counted untracked)
			 */
			if (ifx >= ROCEDP_PORT_SLOTS ||
			    find_port(x->ports, x->n_ports, ifx) ||
			    find_port(s->ports, s->n_ports, ifx))
				continue;
			snprintf(what, sizeof(what), "rd_port_cfg ifindex %u",
				 ifx);
			err = txn_op(t, m->fd[RD_MAP_PORT_CFG], &ifx, 4,
				     &default_port, sizeof(default_port),
				     BPF_ANY, what);
			if (!err) {
				struct rd_cfg_port np = { .ifindex = ifx,
							  .pc = default_port };
				void *p = realloc(x->ports, (x->n_ports + 1) *
								    sizeof(np));

				if (!p) {
					err = -ENOMEM;
					break;
				}
				x->ports = p;
				x->ports[x->n_ports++] = np;
				rd_qsort(x->ports, x->n_ports, sizeof(np),
					 port_cmp);
			}
		}
	}
	for (i = 0; i < s->n_ports && !err; i++) {
		const struct rd_cfg_port *want = &s->ports[i];
		struct rd_cfg_port *have =
			find_port(x->ports, x->n_ports, want->ifindex);

		if (have && !memcmp(&have->pc, &want->pc, sizeof(want->pc)) &&
		    have->hold_bytes == want->hold_bytes)
			continue;
		if (want->pc.flags & ROCEDP_PORTF_HOLD_QUEUE) {
			struct rocedp_port_state ps = {
				.vq_bytes = want->hold_bytes
			};

			snprintf(what, sizeof(what), "rd_port_state ifindex %u",
				 want->ifindex);
			err = txn_op(t, m->fd[RD_MAP_PORT_STATE],
				     &want->ifindex, 4, &ps, sizeof(ps),
				     BPF_ANY, what);
			if (err)
				break;
		}
		snprintf(what, sizeof(what), "rd_port_cfg ifindex %u",
			 want->ifindex);
		err = txn_op(t, m->fd[RD_MAP_PORT_CFG], &want->ifindex, 4,
			     &want->pc, sizeof(want->pc), BPF_ANY, what);
	}
	return err;
}

static int route_op(struct txn *t, const struct rd_maps *m,
		    const struct running *x, const struct rd_cfg_route *rt,
		    bool del)
{
	const struct rd_cfg_route *have;
	union {
		struct rocedp_route4_key k4;
		struct rocedp_route6_key k6;
	} key;
	char what[96], a[INET6_ADDRSTRLEN];
	bool v4 = rt->family == AF_INET;

	memset(&key, 0, sizeof(key));
	key.k4.prefixlen = rt->plen;
	if (v4)
		memcpy(&key.k4.addr, rt->addr, 4);
	else
		memcpy(key.k6.addr, rt->addr, 16);
	inet_ntop(rt->family, rt->addr, a, sizeof(a));
	snprintf(what, sizeof(what), "%s %s/%u",
		 v4 ? "rd_routes4" : "rd_routes6", a, rt->plen);
	have = x->n_routes ? bsearch(rt, x->routes, x->n_routes, sizeof(*rt),
				     route_cmp) :
			     NULL;
	return txn_op_as(t, m->fd[v4 ? RD_MAP_ROUTES4 : RD_MAP_ROUTES6], &key,
			 v4 ? sizeof(key.k4) : sizeof(key.k6),
			 del ? NULL : &rt->val, sizeof(rt->val), BPF_ANY, what,
			 true, have ? &have->val : NULL);
}

static int cfg_write(struct txn *t, const struct rd_maps *m,
		     const struct rocedp_config *want)
{
	struct rocedp_config have;
	__u32 k = 0;

	if (!bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &k, &have) &&
	    !memcmp(&have, want, sizeof(have)))
		return 0;
	return txn_op(t, m->fd[RD_MAP_CONFIG], &k, 4, want, sizeof(*want),
		      BPF_ANY, "rd_config");
}

/* Does the new CTS rule list differ from the live one? */
static bool cts_list_differs(const struct rd_staged *cur,
			     const struct rd_staged *s)
{
	return cur->cfg.n_cts_rules != s->cfg.n_cts_rules ||
	       memcmp(cur->rules, s->rules,
		      s->cfg.n_cts_rules * sizeof(s->rules[0]));
}

/*
 * The new list into bank (not live): its slots past the list are cleared,
 * so a bank holds exactly one list. Slots already right are not written.
 */
static int cts_fill_bank(struct txn *t, const struct rd_maps *m,
			 const struct running *x, const struct rd_staged *s,
			 __u32 bank)
{
	static const struct rocedp_cts_rule zero_rule;
	const struct rocedp_cts_rule *want;
	char what[64];
	__u32 i, slot;
	int err;

	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++) {
		slot = bank * ROCEDP_MAX_CTS_RULES + i;
		want = i < s->cfg.n_cts_rules ? &s->rules[i] : &zero_rule;
		if (!memcmp(&x->rules[slot], want, sizeof(*want)))
			continue;
		snprintf(what, sizeof(what), "rd_cts_rules %u (bank %u)", slot,
			 bank);
		err = txn_op(t, m->fd[RD_MAP_CTS_RULES], &slot, 4, want,
			     sizeof(*want), BPF_ANY, what);
		if (err)
			return err;
	}
	return 0;
}

static int apply_writes(struct txn *t, const struct rd_maps *m,
			const struct rd_staged *s, struct rd_staged *cur,
			struct running *x)
{
	struct rocedp_config want;
	unsigned int i, j, k;
	char what[64];
	__u32 bank;
	int err;

	/* 1. egress ports and their ECN settings, before any group uses them */
	err = apply_ports(t, m, s, x);
	if (err)
		return err;
	/* 2. groups: each one update, so readers see the old or the new one */
	for (i = 0, j = 0; i < s->n_groups; i++) {
		const struct rd_cfg_group *g = &s->groups[i];

		while (j < cur->n_groups && cur->groups[j].id < g->id)
			j++;
		if (j < cur->n_groups && cur->groups[j].id == g->id &&
		    !memcmp(&cur->groups[j].g, &g->g, sizeof(g->g)))
			continue;
		snprintf(what, sizeof(what), "rd_groups id %u", g->id);
		err = txn_op(t, m->fd[RD_MAP_GROUPS], &g->id, 4, &g->g,
			     sizeof(g->g), BPF_ANY, what);
		if (err)
			return err;
	}
	/* 3. routes, now that their groups exist */
	for (i = 0, j = 0; i < s->n_routes; i++) {
		const struct rd_cfg_route *rt = &s->routes[i];

		while (j < cur->n_routes && route_cmp(&cur->routes[j], rt) < 0)
			j++;
		if (j < cur->n_routes && !route_cmp(&cur->routes[j], rt) &&
		    !memcmp(&cur->routes[j].val, &rt->val, sizeof(rt->val)))
			continue;
		err = route_op(t, m, x, rt, false);
		if (err)
			return err;
	}
	/* 4. qos: one 4-byte value per class */
	for (k = 0; k < ROCEDP_CLASS_MAX; k++) {
		if (!memcmp(&cur->qos[k], &s->qos[k], sizeof(s->qos[k])))
			continue;
		snprintf(what, sizeof(what), "rd_qos %s", rd_class_name(k));
		err = txn_op(t, m->fd[RD_MAP_QOS], &k, 4, &s->qos[k],
			     sizeof(s->qos[k]), BPF_ANY, what);
		if (err)
			return err;
	}
	/*
	 * 5. CTS rules. An array value is copied without a lock, so a live
	 * rule is never rewritten: a changed list goes into the other bank,
	 * which step 6 makes live together with the new count.
	 */
	want = s->cfg;
	bank = ROCEDP_CTS_LIVE_BANK(cur->cfg.cts_live);
	if (cts_list_differs(cur, s)) {
		bank = !bank;
		err = cts_fill_bank(t, m, x, s, bank);
		if (err)
			return err;
	}
	want.cts_live = ROCEDP_CTS_LIVE(bank, s->cfg.n_cts_rules);
	/* kept as bumped before the first route or group write (fib_bump) */
	want.fib_gen = cur->cfg.fib_gen + t->fib_bumped;
	/* 6. the switch-wide settings, the live rule bank and count: one update */
	err = cfg_write(t, m, &want);
	if (err)
		return err;
	/* 7. what the new config no longer has, now that nothing uses it */
	for (i = 0, j = 0; j < cur->n_routes; j++) {
		while (i < s->n_routes &&
		       route_cmp(&s->routes[i], &cur->routes[j]) < 0)
			i++;
		if (i < s->n_routes &&
		    !route_cmp(&s->routes[i], &cur->routes[j]))
			continue;
		err = route_op(t, m, x, &cur->routes[j], true);
		if (err)
			return err;
	}
	for (j = 0; j < cur->n_groups; j++) {
		__u32 id = cur->groups[j].id;

		if (has_group(s, id) || x->dyn_ref[id])
			continue;
		snprintf(what, sizeof(what), "rd_groups id %u", id);
		err = txn_op(t, m->fd[RD_MAP_GROUPS], &id, 4, NULL,
			     sizeof(struct rocedp_group), 0, what);
		if (err)
			return err;
	}
	for (j = 0; j < cur->n_ports; j++) {
		__u32 ifx = cur->ports[j].ifindex;

		if (find_port((struct rd_cfg_port *)s->ports, s->n_ports, ifx))
			continue;
		snprintf(what, sizeof(what), "rd_port_cfg ifindex %u", ifx);
		err = txn_op(t, m->fd[RD_MAP_PORT_CFG], &ifx, 4, &default_port,
			     sizeof(default_port), BPF_ANY, what);
		if (err)
			return err;
	}
	/*
	 * The bank that was live is left as it is: a frame that read the old
	 * config may still be walking it. The next change overwrites it.
	 */
	return 0;
}

int rd_config_apply(const struct rd_maps *m, const struct rd_staged *s)
{
	struct rd_staged cur;
	struct running *x;
	struct txn t;
	unsigned int i;
	int err;

	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	err = load_running(m, &cur, x);
	if (err) {
		rd_err("config", "cannot read the running config: %s",
		       strerror(-err));
		free(x);
		return err;
	}
	/* refuse before the first write: sync owns its groups */
	for (i = 0; i < s->n_groups; i++)
		if (x->gstate[s->groups[i].id] == 1) {
			rd_err("config",
			       "groups: id %u is in use by a group rocedp sync manages; pick another id",
			       s->groups[i].id);
			err = -EBUSY;
		}
	if (!err) {
		txn_init(&t, m);
		err = apply_writes(&t, m, s, &cur, x);
		if (err && !txn_rollback(&t))
			rd_err("config",
			       "nothing applied: the running config is unchanged");
		txn_free(&t);
	}
	rd_staged_free(&cur);
	running_free(x);
	free(x);
	return err;
}

/* Validate and apply a parsed document; takes the reference on root. */
static int apply_root(struct json_object *root, const struct rd_maps *m)
{
	struct rd_staged s;
	int err;

	err = rd_config_parse(root, &s);
	json_object_put(root);
	if (err)
		return err;
	err = rd_config_apply(m, &s);
	rd_staged_free(&s);
	return err;
}

int rd_config_apply_file(const char *path, const struct rd_maps *m)
{
	struct json_object *root;
	int err;

	err = rd_config_read_json(path, &root);
	return err ? err : apply_root(root, m);
}

int rd_config_apply_text(const char *name, const char *buf, size_t len,
			 const struct rd_maps *m)
{
	struct json_object *root;
	int err;

	err = rd_config_parse_text(name, buf, len, &root);
	return err ? err : apply_root(root, m);
}

int rd_config_apply_defaults(const struct rd_maps *m)
{
	struct rd_staged s;
	__u32 k;

	/* fresh maps: plain writes, nothing to keep consistent yet */
	rd_staged_defaults(&s);
	for (k = 0; k < ROCEDP_CLASS_MAX; k++)
		if (bpf_map_update_elem(m->fd[RD_MAP_QOS], &k, &s.qos[k],
					BPF_ANY))
			return -errno;
	k = 0;
	if (bpf_map_update_elem(m->fd[RD_MAP_CONFIG], &k, &s.cfg, BPF_ANY))
		return -errno;
	return 0;
}

/* ------------------------------------------------------------ rendering */

static struct json_object *name_list(__u32 mask, const char *const *names,
				     unsigned int n)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mask & (1u << i))
			json_object_array_add(a,
					      json_object_new_string(names[i]));
	return a;
}

static struct json_object *jname(unsigned int v, const char *const *names,
				 unsigned int n)
{
	if (v < n && names[v])
		return json_object_new_string(names[v]);
	return json_object_new_int64(v);
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *jaddr(int family, const void *addr, int plen)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN + 16];

	inet_ntop(family, addr, a, sizeof(a));
	if (plen < 0)
		return json_object_new_string(a);
	snprintf(b, sizeof(b), "%s/%d", a, plen);
	return json_object_new_string(b);
}

static struct json_object *jmac(const __u8 *mac)
{
	char b[18];

	snprintf(b, sizeof(b), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		 mac[2], mac[3], mac[4], mac[5]);
	return json_object_new_string(b);
}

struct json_object *rd_cts_rule_to_json(const struct rocedp_cts_rule *r,
					const char *name)
{
	struct json_object *o = json_object_new_object(), *ops, *qp;
	int fam = r->flags & ROCEDP_CTSF_IPV6 ? AF_INET6 : AF_INET;
	unsigned int op;

	if (name && *name)
		add(o, "name", json_object_new_string(name));
	ops = json_object_new_array();
	for (op = 0; op < 256; op++)
		if (r->opcode_bitmap[op / 64] & (1ull << (op % 64)))
			json_object_array_add(ops, op_to_json(op));
	add(o, "opcodes", ops);
	qp = json_object_new_array();
	json_object_array_add(qp, json_object_new_int64(r->qp_min));
	json_object_array_add(qp, json_object_new_int64(r->qp_max));
	add(o, "qp", qp);
	if (r->max_payload != UINT32_MAX)
		add(o, "max_payload", json_object_new_int64(r->max_payload));
	if (r->flags & ROCEDP_CTSF_SRC_PREFIX)
		add(o, "src", jaddr(fam, r->src_addr, r->src_plen));
	if (r->flags & ROCEDP_CTSF_DST_PREFIX)
		add(o, "dst", jaddr(fam, r->dst_addr, r->dst_plen));
	return o;
}

static struct json_object *jdev(struct json_object *o, __u32 ifindex)
{
	char name[IF_NAMESIZE];

	if (if_indextoname(ifindex, name))
		add(o, "dev", json_object_new_string(name));
	else
		add(o, "ifindex", json_object_new_int64(ifindex));
	return o;
}

struct json_object *rd_config_to_json(const struct rd_staged *s)
{
	static const char *const gaps[] = { "fixed", "auto" };
	const struct rocedp_config *c = &s->cfg;
	struct json_object *root = json_object_new_object(), *o, *a, *q, *p;
	char name[IF_NAMESIZE + 12];
	unsigned int i, j;

	add(root, "features",
	    name_list(c->features, feature_names, ARRAY_LEN(feature_names)));
	o = json_object_new_object();
	if (c->hash_mode < ROCEDP_HASH_MODE_MAX)
		add(o, "mode",
		    json_object_new_string(rd_hash_mode_name(c->hash_mode)));
	else
		add(o, "mode", json_object_new_int64(c->hash_mode));
	add(o, "seed", json_object_new_int64(c->hash_seed));
	add(o, "symmetric",
	    json_object_new_boolean(c->hash_flags & ROCEDP_HASHF_SYMMETRIC));
	add(root, "hash", o);
	o = json_object_new_object();
	add(o, "rtt_us", json_object_new_int64(c->flowlet_rtt_us));
	add(o, "gap",
	    jname(!!(c->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP), gaps, 2));
	add(o, "gap_min_us", json_object_new_int64(c->flowlet_gap_min_us));
	add(o, "gap_max_us", json_object_new_int64(c->flowlet_gap_max_us));
	add(o, "choice",
	    jname(c->flowlet_choice, choice_names, ARRAY_LEN(choice_names)));
	add(o, "load_tau_us", json_object_new_int64(c->load_tau_us));
	add(o, "rtt_ewma_shift", json_object_new_int64(c->rtt_ewma_shift));
	add(root, "flowlet", o);
	o = json_object_new_object();
	for (i = 0; i < ROCEDP_CLASS_MAX; i++) {
		if (!rd_qos_class_settable(i))
			continue;
		if (s->qos[i].action != ROCEDP_QOS_SET_DSCP) {
			add(o, rd_class_name(i),
			    json_object_new_string("leave"));
			continue;
		}
		q = json_object_new_object();
		add(q, "dscp", json_object_new_int(s->qos[i].dscp));
		if (s->qos[i].set_pcp)
			add(q, "pcp", json_object_new_int(s->qos[i].pcp));
		add(o, rd_class_name(i), q);
	}
	add(root, "qos", o);
	a = json_object_new_array();
	for (i = 0; i < c->n_cts_rules && i < ROCEDP_MAX_CTS_RULES; i++)
		json_object_array_add(a, rd_cts_rule_to_json(&s->rules[i],
							     s->rule_names[i]));
	add(root, "cts_rules", a);
	o = json_object_new_object();
	add(o, "class_optout",
	    name_list(c->ecn_class_optout, class_keys, ROCEDP_CLASS_MAX));
	p = json_object_new_object();
	for (i = 0; i < s->n_ports; i++) {
		const struct rd_cfg_port *pt = &s->ports[i];

		if (!if_indextoname(pt->ifindex, name))
			snprintf(name, sizeof(name), "%u", pt->ifindex);
		q = json_object_new_object();
		add(q, "rate_mbps",
		    json_object_new_int64(pt->pc.rate_bps / 1000000));
		add(q, "kmin_bytes", json_object_new_int64(pt->pc.kmin_bytes));
		add(q, "kmax_bytes", json_object_new_int64(pt->pc.kmax_bytes));
		add(q, "pmax_percent",
		    json_object_new_int64(pt->pc.pmax_percent));
		add(q, "profile", json_object_new_int64(pt->pc.ecn_profile));
		if (pt->pc.flags & ROCEDP_PORTF_HOLD_QUEUE)
			add(q, "hold_queue_bytes",
			    json_object_new_int64(pt->hold_bytes));
		if (pt->pc.buffer_bytes)
			add(q, "buffer_bytes",
			    json_object_new_int64(pt->pc.buffer_bytes));
		add(p, name, q);
	}
	add(o, "ports", p);
	add(root, "ecn", o);
	a = json_object_new_array();
	for (i = 0; i < s->n_groups; i++) {
		const struct rocedp_group *g = &s->groups[i].g;
		struct json_object *mbs = json_object_new_array();

		o = json_object_new_object();
		add(o, "id", json_object_new_int64(s->groups[i].id));
		add(o, "rtt_us", json_object_new_int64(g->rtt_us));
		add(o, "buckets", json_object_new_int64(g->n_buckets));
		for (j = 0; j < g->n_members && j < ROCEDP_MAX_MEMBERS; j++) {
			const struct rocedp_member *mb = &g->members[j];

			q = jdev(json_object_new_object(), mb->ifindex);
			add(q, "smac", jmac(mb->smac));
			add(q, "dmac", jmac(mb->dmac));
			add(q, "weight", json_object_new_int(mb->weight));
			if (mb->nh_family == AF_INET ||
			    mb->nh_family == AF_INET6)
				add(q, "via",
				    jaddr(mb->nh_family, mb->nh_addr, -1));
			json_object_array_add(mbs, q);
		}
		add(o, "members", mbs);
		json_object_array_add(a, o);
	}
	add(root, "groups", a);
	a = json_object_new_array();
	for (i = 0; i < s->n_routes; i++) {
		const struct rd_cfg_route *rt = &s->routes[i];

		o = json_object_new_object();
		add(o, "prefix", jaddr(rt->family, rt->addr, rt->plen));
		if (rt->val.flags & ROCEDP_ROUTEF_LOCAL)
			add(o, "local", json_object_new_boolean(true));
		else
			add(o, "group",
			    json_object_new_int64(rt->val.group_id));
		json_object_array_add(a, o);
	}
	add(root, "routes", a);
	return root;
}

/* ------------------------------------------------------------ CLI */

/* Maps of the running dataplane; an error line when not attached. */
int rd_config_open_maps(const char *obj, struct rd_maps *m)
{
	int err = rd_maps_open_pinned(m, rd_pin_dir());

	if (err == -ENOENT)
		rd_err(obj, "rocedp is not attached (no maps pinned in %s)",
		       rd_pin_dir());
	else if (err)
		rd_err(obj, "%s: %s", rd_pin_dir(), strerror(-err));
	return err;
}

/* Serialise writers (config load/set, qos set); released at exit. */
int rd_config_lock(const char *obj)
{
	int fd = open(rd_pin_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || flock(fd, LOCK_EX)) {
		rd_err(obj, "%s: cannot lock: %s", rd_pin_dir(),
		       strerror(errno));
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return fd;
}

static void print_json(struct json_object *o, int flags)
{
	puts(json_object_to_json_string_ext(o, flags));
}

static void print_addr(int family, const void *addr, int plen)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(family, addr, a, sizeof(a));
	printf(plen >= 0 ? "%s/%d" : "%s", a, plen);
}

static const char *ifname(__u32 ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

static void print_text(const struct rd_staged *s)
{
	const struct rocedp_config *c = &s->cfg;
	char dev[IF_NAMESIZE];
	const char *sep = "";
	unsigned int i, j;

	printf("features:");
	for (i = 0; i < ARRAY_LEN(feature_names); i++)
		if (c->features & (1u << i))
			printf(" %s", feature_names[i]);
	printf("%s\n", c->features ? "" : " none");
	printf("hash: mode %s seed %u%s\n", rd_hash_mode_name(c->hash_mode),
	       c->hash_seed,
	       c->hash_flags & ROCEDP_HASHF_SYMMETRIC ? " symmetric" : "");
	printf("flowlet: rtt %uus gap %s %u..%uus choice %s load_tau %uus rtt_ewma_shift %u\n",
	       c->flowlet_rtt_us,
	       c->flowlet_flags & ROCEDP_FLOWLETF_AUTO_GAP ? "auto" : "fixed",
	       c->flowlet_gap_min_us, c->flowlet_gap_max_us,
	       c->flowlet_choice < ARRAY_LEN(choice_names) ?
		       choice_names[c->flowlet_choice] :
		       "unknown",
	       c->load_tau_us, c->rtt_ewma_shift);
	printf("qos:\n");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++) {
		const struct rocedp_qos *q = &s->qos[i];

		if (!rd_qos_class_settable(i))
			continue;
		printf("  %-11s", rd_class_name(i));
		if (q->action != ROCEDP_QOS_SET_DSCP)
			printf(" leave\n");
		else if (q->set_pcp)
			printf(" dscp %u pcp %u\n", q->dscp, q->pcp);
		else
			printf(" dscp %u\n", q->dscp);
	}
	printf("cts rules: %u\n", c->n_cts_rules);
	for (i = 0; i < c->n_cts_rules; i++) {
		struct json_object *r =
			rd_cts_rule_to_json(&s->rules[i], s->rule_names[i]);

		printf("  %u %s\n", i, jtext(r));
		json_object_put(r);
	}
	printf("ecn: class_optout");
	for (i = 0; i < ROCEDP_CLASS_MAX; i++)
		if (c->ecn_class_optout & (1u << i)) {
			printf(" %s", rd_class_name(i));
			sep = "x";
		}
	printf("%s\n", *sep ? "" : " none");
	for (i = 0; i < s->n_ports; i++) {
		const struct rd_cfg_port *p = &s->ports[i];

		printf("  port %s: rate %llu Mb/s kmin %u kmax %u pmax %u%% profile %u",
		       ifname(p->ifindex, dev),
		       (unsigned long long)p->pc.rate_bps / 1000000,
		       p->pc.kmin_bytes, p->pc.kmax_bytes, p->pc.pmax_percent,
		       p->pc.ecn_profile);
		if (p->pc.flags & ROCEDP_PORTF_HOLD_QUEUE)
			printf(" hold_queue %llu",
			       (unsigned long long)p->hold_bytes);
		if (p->pc.buffer_bytes)
			printf(" buffer %u", p->pc.buffer_bytes);
		printf("\n");
	}
	printf("static groups: %u\n", s->n_groups);
	for (i = 0; i < s->n_groups; i++) {
		const struct rocedp_group *g = &s->groups[i].g;

		printf("  group %u: %u members, %u active, %u buckets, rtt %uus\n",
		       s->groups[i].id, g->n_members, g->n_active, g->n_buckets,
		       g->rtt_us);
		for (j = 0; j < g->n_members && j < ROCEDP_MAX_MEMBERS; j++) {
			const struct rocedp_member *mb = &g->members[j];
			const __u8 *a = mb->smac, *b = mb->dmac;

			printf("    %s %02x:%02x:%02x:%02x:%02x:%02x -> %02x:%02x:%02x:%02x:%02x:%02x weight %u",
			       ifname(mb->ifindex, dev), a[0], a[1], a[2], a[3],
			       a[4], a[5], b[0], b[1], b[2], b[3], b[4], b[5],
			       mb->weight);
			if (mb->nh_family == AF_INET ||
			    mb->nh_family == AF_INET6) {
				printf(" via ");
				print_addr(mb->nh_family, mb->nh_addr, -1);
			}
			printf("\n");
		}
	}
	printf("static routes: %u\n", s->n_routes);
	for (i = 0; i < s->n_routes; i++) {
		printf("  ");
		print_addr(s->routes[i].family, s->routes[i].addr,
			   s->routes[i].plen);
		if (s->routes[i].val.flags & ROCEDP_ROUTEF_LOCAL)
			printf(" local\n");
		else
			printf(" group %u\n", s->routes[i].val.group_id);
	}
}

/* A value given on the command line: JSON if it is a whole JSON scalar or
 * container, else a string (so that mode=qp needs no quotes). */
static int cli_value(const char *key, const char *val, struct json_object **out)
{
	const char *last = strrchr(key, '.');
	struct json_tokener *tok;
	size_t len = strlen(val);
	bool is_null, ok;
	char *buf;

	last = last ? last + 1 : key;
	*out = NULL;
	if (!strcmp(last, "features") || !strcmp(last, "class_optout")) {
		char *dup = strdup(val), *save = NULL, *t;

		if (!dup)
			return -ENOMEM;
		*out = json_object_new_array();
		for (t = strtok_r(dup, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			json_object_array_add(*out, json_object_new_string(t));
		free(dup);
		return 0;
	}
	/* the trailing space ends a bare number or literal ("48", "null") */
	if (asprintf(&buf, "%s ", val) < 0)
		return -ENOMEM;
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return -ENOMEM;
	}
	*out = json_tokener_parse_ex(tok, buf, len + 1);
	ok = json_tokener_get_error(tok) == json_tokener_success &&
	     json_tokener_get_parse_end(tok) >= len;
	is_null = ok && !*out;
	if (!ok) {
		json_object_put(*out);
		*out = NULL;
	}
	json_tokener_free(tok);
	/* a NUL or a key twice in a JSON value, as in a file */
	if (ok && rd_json_strict(key, buf, len + 1)) {
		json_object_put(*out);
		*out = NULL;
		free(buf);
		return -EINVAL;
	}
	free(buf);
	if (is_null)
		return 1; /* null: remove the key, back to its default */
	if (!*out)
		*out = json_object_new_string(val);
	return 0;
}

static int set_pair(struct json_object *root, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct json_object *node = root, *next, *v;
	char *key, *seg, *save = NULL, *nseg;
	unsigned long long idx;
	int err;

	if (!eq || eq == arg) {
		rd_err("config", "%s: expected KEY=VALUE (e.g. hash.mode=qp)",
		       arg);
		return -EINVAL;
	}
	key = strndup(arg, eq - arg);
	if (!key)
		return -ENOMEM;
	err = cli_value(key, eq + 1, &v);
	if (err < 0)
		goto out;
	seg = strtok_r(key, ".", &save);
	for (; seg; seg = nseg) {
		nseg = strtok_r(NULL, ".", &save);
		if (json_object_is_type(node, json_type_array)) {
			if (!parse_uint_str(seg, INT_MAX, &idx) ||
			    idx >= json_object_array_length(node)) {
				rd_err("config", "%.*s: no element %s",
				       (int)(eq - arg), arg, seg);
				json_object_put(v);
				err = -EINVAL;
				goto out;
			}
			if (!nseg) {
				if (err == 1)
					json_object_array_del_idx(node, idx, 1);
				else
					json_object_array_put_idx(node, idx, v);
				break;
			}
			node = json_object_array_get_idx(node, idx);
			continue;
		}
		if (!nseg) {
			if (err == 1)
				json_object_object_del(node, seg);
			else
				json_object_object_add(node, seg, v);
			break;
		}
		if (!json_object_object_get_ex(node, seg, &next) ||
		    (!json_object_is_type(next, json_type_object) &&
		     !json_object_is_type(next, json_type_array))) {
			/* e.g. qos.cnp.dscp=48 while qos.cnp is "leave" */
			next = json_object_new_object();
			json_object_object_add(node, seg, next);
		}
		node = next;
	}
	err = 0;
out:
	free(key);
	return err;
}

static int config_show(bool dump)
{
	struct json_object *o;
	struct rd_staged s;
	struct rd_maps m;
	int err;

	err = rd_config_open_maps("config", &m);
	if (err)
		return 1;
	err = rd_config_read_running(&m, &s);
	rd_maps_close(&m);
	if (err) {
		rd_err("config", "cannot read the running config: %s",
		       strerror(-err));
		return 1;
	}
	if (dump || rd_json) {
		o = rd_config_to_json(&s);
		print_json(o, dump ? JSON_C_TO_STRING_NOSLASHESCAPE |
					      JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED :
				     rd_json_flags());
		json_object_put(o);
	} else {
		print_text(&s);
	}
	rd_staged_free(&s);
	return 0;
}

/* load FILE or set K=V...: validate everything, then apply once */
static int config_change(int argc, char **argv, bool load)
{
	struct json_object *root = NULL;
	struct rd_staged s, cur;
	struct rd_maps m;
	int err, lock, i;

	if (load && argc != 1) {
		rd_err("config", "usage: rocedp config load FILE");
		return 2;
	}
	if (!load && argc < 1) {
		rd_err("config", "usage: rocedp config set KEY=VALUE...");
		return 2;
	}
	/* a file is validated before anything is opened or locked */
	if (load && rd_config_read_json(argv[0], &root))
		return 1;
	if (load && rd_config_parse(root, &s)) {
		json_object_put(root);
		return 1;
	}
	if (rd_config_open_maps("config", &m)) {
		if (load)
			rd_staged_free(&s);
		json_object_put(root);
		return 1;
	}
	lock = rd_config_lock("config");
	if (lock < 0) {
		err = lock;
		goto out;
	}
	if (!load) {
		err = rd_config_read_running(&m, &cur);
		if (err) {
			rd_err("config", "cannot read the running config: %s",
			       strerror(-err));
			goto out;
		}
		root = rd_config_to_json(&cur);
		rd_staged_free(&cur);
		for (i = 0, err = 0; i < argc; i++)
			if (set_pair(root, argv[i]))
				err = -EINVAL;
		if (err)
			goto out;
		err = rd_config_parse(root, &s);
		if (err)
			goto out;
	}
	err = rd_config_apply(&m, &s);
	if (!err)
		cts_names_save(m.fd[RD_MAP_CTS_RULES], &s);
	rd_staged_free(&s);
out:
	if (lock >= 0)
		close(lock);
	json_object_put(root);
	rd_maps_close(&m);
	return err ? 1 : 0;
}

static void config_usage(FILE *f)
{
	fprintf(f,
		"Usage: rocedp [-j] [-p] config show\n"
		"       rocedp config dump             (JSON that config load accepts)\n"
		"       rocedp config check FILE       (validate, change nothing)\n"
		"       rocedp config load FILE        (validate all, then apply)\n"
		"       rocedp config set KEY=VALUE... (e.g. hash.mode=qp qos.cnp.dscp=48\n"
		"                                       features=forward,remark; KEY=null resets)\n"
		"Schema: docs/config.md. FILE may be - for stdin.\n");
}

int cmd_config(int argc, char **argv)
{
	char *args[argc + 1];
	int n = rd_take_output_opts(argc, argv, args);

	if (!n || !strcmp(args[0], "show")) {
		if (n > 1)
			goto extra;
		return config_show(false);
	}
	if (!strcmp(args[0], "dump")) {
		if (n > 1)
			goto extra;
		return config_show(true);
	}
	if (!strcmp(args[0], "check")) {
		if (n != 2) {
			rd_err("config", "usage: rocedp config check FILE");
			return 2;
		}
		if (rd_config_check_file(args[1]))
			return 1;
		if (rd_json)
			printf("{\"file\":\"%s\",\"valid\":true}\n", args[1]);
		else
			printf("%s: valid\n", args[1]);
		return 0;
	}
	if (!strcmp(args[0], "load"))
		return config_change(n - 1, args + 1, true);
	if (!strcmp(args[0], "set"))
		return config_change(n - 1, args + 1, false);
	if (!strcmp(args[0], "help")) {
		config_usage(stdout);
		return 0;
	}
	rd_err("config", "unknown command '%s' (show dump check load set help)",
	       args[0]);
	return 2;
extra:
	rd_err("config", "%s: unexpected argument '%s'", args[0], args[1]);
	return 2;
}
