// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture runner: every block of tests/fixtures/NAME.fix goes through the real
 * BPF programs (userspace/lib/offline/engine.h, BPF_PROG_TEST_RUN) and each expected
 * field becomes one TAP line, "ok N - name[hook]: what" or "not ok N - ...".
 * The format is documented in tests/fixtures/README.md.
 *
 * Usage: fixtures [-q] [--no-netns] [--general] [--configs DIR] [FILE.fix...]
 * (default: tests/fixtures/NAME.fix, configs from tests/configs). Needs root
 * for BPF; as root it runs in a private network namespace holding two veth
 * pairs, so that the configs' egress ifindexes 2..5 exist and are ours.
 */
#include <errno.h>
#include <glob.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "engine.h"
#include "config_txn.h"
#include "names.h"
#include "icrc.h"
#include "stats.h"
#include "fixture_ip4.h"
#include "fixture_probe.h"
#include "tap.h"
#include "fixture_trim.h"

#define MAX_FRAME 9216
#define MAX_KEYS 48
#define MAX_CONFIGS 32

/* the CLI's error helper lives in main.c, which tests do not link */

struct kv {
	char *key;
	char *val;
	int line;
};

struct fixture {
	const char *file;
	int line;
	char *name;
	struct kv kv[MAX_KEYS];
	int n_kv;
};

static const char *configs_dir = "tests/configs";

static const char *fx_get(const struct fixture *f, const char *key)
{
	int i;

	for (i = 0; i < f->n_kv; i++)
		if (!strcmp(f->kv[i].key, key))
			return f->kv[i].val;
	return NULL;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = 0;
	return s;
}

/* Hex with any whitespace in between; -EINVAL on odd digits or junk. */
static int parse_hex(const char *s, uint8_t *buf, size_t size, size_t *len)
{
	size_t n = 0;
	int hi = -1, v;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n')
			continue;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v = *s - 'A' + 10;
		else
			return -EINVAL;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n >= size)
			return -E2BIG;
		buf[n++] = hi << 4 | v;
		hi = -1;
	}
	if (hi >= 0)
		return -EINVAL;
	*len = n;
	return 0;
}

static void kv_append(struct kv *kv, const char *more)
{
	size_t a = strlen(kv->val), b = strlen(more);
	char *v = realloc(kv->val, a + b + 2);

	if (!v)
		abort();
	v[a] = ' ';
	memcpy(v + a + 1, more, b + 1);
	kv->val = v;
}

/*
 * Blocks of "key: value" lines separated by blank lines; a line starting
 * with white space continues the previous value; '#' starts a comment line.
 */
static int load_file(const char *path, struct fixture **out, int *n_out)
{
	struct fixture *fx = NULL, *cur = NULL;
	char *line = NULL, *s, *colon;
	int n = 0, lineno = 0, err = 0;
	size_t cap = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if (line[0] == '#')
			continue;
		s = trim(line);
		if (!*s) {
			cur = NULL;
			continue;
		}
		if ((line[0] == ' ' || line[0] == '\t') && cur && cur->n_kv) {
			kv_append(&cur->kv[cur->n_kv - 1], s);
			continue;
		}
		colon = strchr(s, ':');
		if (!colon) {
			fprintf(stderr, "# %s:%d: no 'key:' in '%s'\n", path,
				lineno, s);
			err = -EINVAL;
			break;
		}
		*colon = 0;
		if (!cur) {
			fx = realloc(fx, (n + 1) * sizeof(*fx));
			if (!fx)
				abort();
			cur = &fx[n++];
			memset(cur, 0, sizeof(*cur));
			cur->file = path;
			cur->line = lineno;
		}
		if (cur->n_kv >= MAX_KEYS) {
			fprintf(stderr, "# %s:%d: too many keys\n", path,
				lineno);
			err = -E2BIG;
			break;
		}
		cur->kv[cur->n_kv].key = strdup(trim(s));
		cur->kv[cur->n_kv].val = strdup(trim(colon + 1));
		cur->kv[cur->n_kv].line = lineno;
		if (!strcmp(cur->kv[cur->n_kv].key, "name"))
			cur->name = cur->kv[cur->n_kv].val;
		cur->n_kv++;
	}
	free(line);
	fclose(f);
	*out = fx;
	*n_out = n;
	return err;
}

/* ------------------------------------------------------------ engines */

struct cfg_engine {
	char name[256];
	bool trace;
	unsigned int hooks; /* the programs its fixtures run, 0: all */
	bool opened;
	struct rd_engine *e;
	int err;
};

static struct cfg_engine engines[MAX_CONFIGS];
/* --general: the same fixtures through the general parser only */
static bool general_path;
static int n_engines;

static struct cfg_engine *engine_slot(const char *config, bool trace)
{
	struct cfg_engine *c;
	int i;

	for (i = 0; i < n_engines; i++)
		if (!strcmp(engines[i].name, config) &&
		    engines[i].trace == trace)
			return &engines[i];
	if (n_engines >= MAX_CONFIGS)
		return NULL;
	c = &engines[n_engines++];
	snprintf(c->name, sizeof(c->name), "%s", config);
	c->trace = trace;
	return c;
}

/*
 * One engine per config file and trace setting, so no fixture sees another
 * config's state. trace off: the live programs' setting, under which the
 * express path uses the decision cache (the trace keeps every frame on
 * the full path). It loads only the programs its fixtures run (planned
 * before the first run; the verifier's time is most of an open's).
 */
static struct rd_engine *engine_for(const char *config, bool trace, int *errp)
{
	struct rd_engine_opts o = { .trace = trace,
				    .map_clock = true,
				    .general_path = general_path,
				    .bind_cpu = true };
	struct cfg_engine *c = engine_slot(config, trace);
	char path[512];
	int err;

	if (!c) {
		*errp = -E2BIG;
		return NULL;
	}
	if (c->opened) {
		*errp = c->err;
		return c->e;
	}
	c->opened = true;
	o.hooks = c->hooks;
	err = rd_engine_open(&c->e, &o);
	if (!err && strcmp(config, "none")) {
		snprintf(path, sizeof(path), "%s/%s", configs_dir, config);
		err = rd_config_apply_file(path, rd_engine_maps(c->e));
	}
	if (err && c->e) {
		rd_engine_close(c->e);
		c->e = NULL;
	}
	c->err = err;
	*errp = err;
	return c->e;
}

/* ------------------------------------------------------------ checks */

static bool parse_num(const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return !errno && end != s && !*end;
}

/* "none" maps to none_val; numbers in any C base. */
static bool num_or_none(const char *s, unsigned long none_val, unsigned long *v)
{
	if (!strcmp(s, "none")) {
		*v = none_val;
		return true;
	}
	return parse_num(s, v);
}

static void describe_diff(const uint8_t *got, size_t gl, const uint8_t *want,
			  size_t wl, char *buf, size_t bl)
{
	size_t i, n = gl < wl ? gl : wl;

	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	if (i == n && gl == wl)
		snprintf(buf, bl, "equal");
	else if (i == n)
		snprintf(buf, bl, "length %zu, want %zu", gl, wl);
	else
		snprintf(buf, bl, "byte %zu is %02x, want %02x (len %zu/%zu)",
			 i, got[i], want[i], gl, wl);
}

/* A failed byte comparison shows the whole frame, as a TAP comment. */
static void dump_hex(const char *what, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 32 == 0)
			printf("%s#   %s %4zu: ", i ? "\n" : "", what, i);
		printf("%02x", p[i]);
	}
	putchar('\n');
}

struct ctx {
	const struct fixture *f;
	const char *hook;
	const uint8_t *in;
	size_t in_len;
	const struct rd_run *r;
	const __u64 *ctr; /* each counter's growth during the run */
	struct rd_engine *e;
	struct rocedp_probe_stats before; /* probe counters before the run */
};

/* "name=N name=N ...": one TAP line per counter's growth in the run. */
static void check_counters(const struct ctx *c, const char *val)
{
	const char *s = val, *eq;
	unsigned long want;
	size_t n;
	char *end;
	int idx;

	while (*s) {
		n = strcspn(s, " ");
		eq = memchr(s, '=', n);
		idx = eq ? fx_counter_idx(s, eq - s) : -1;
		want = eq ? strtoul(eq + 1, &end, 0) : 0;
		if (idx < 0 || end != s + n) {
			result(false, "%s[%s]: counters: bad '%.*s'",
			       c->f->name, c->hook, (int)n, s);
		} else {
			result(c->ctr[idx] == want,
			       "%s[%s]: counter %.*s grew by %lu%s%llu",
			       c->f->name, c->hook, (int)(eq - s), s, want,
			       c->ctr[idx] == want ? " = " : ", got ",
			       (unsigned long long)c->ctr[idx]);
		}
		s += n;
		while (*s == ' ')
			s++;
	}
}

#define NAME_CHECK(fn, field)                                         \
	do {                                                          \
		const char *got = fn(c->r->trace.field);              \
		result(got && !strcmp(got, val), "%s[%s]: %s %s%s%s", \
		       c->f->name, c->hook, key, val,                 \
		       strcmp(got ?: "", val) ? ", got " : "",        \
		       strcmp(got ?: "", val) ? (got ?: "?") : "");   \
	} while (0)

#define NUM_CHECK(expr, none_val)                                              \
	do {                                                                   \
		unsigned long want, got = (expr);                              \
		if (!num_or_none(val, none_val, &want)) {                      \
			result(false, "%s[%s]: %s: bad value '%s'",            \
			       c->f->name, c->hook, key, val);                 \
			break;                                                 \
		}                                                              \
		result(got == want, "%s[%s]: %s %s%s%#lx", c->f->name,         \
		       c->hook, key, val, got == want ? " =" : ", got ", got); \
	} while (0)

static const char *verdict_of(unsigned int v)
{
	return rd_verdict_name(v);
}

/* One expected field -> one TAP line. Returns false for unknown keys. */
static bool check_key(const struct ctx *c, const char *key, const char *val)
{
	const struct rocedp_trace *t = &c->r->trace;
	static uint8_t want[MAX_FRAME];
	char why[128];
	size_t wl;
	int err;

	if (!strcmp(key, "verdict")) {
		const char *got = verdict_of(c->r->verdict);

		result(got && !strcmp(got, val), "%s[%s]: verdict %s%s%s",
		       c->f->name, c->hook, val,
		       strcmp(got ?: "", val) ? ", got " : "",
		       strcmp(got ?: "", val) ? (got ?: "?") : "");
	} else if (!strcmp(key, "class")) {
		NAME_CHECK(rd_class_name, cls);
	} else if (!strcmp(key, "malformed")) {
		NAME_CHECK(rd_malformed_name, malformed);
	} else if (!strcmp(key, "pass")) {
		NAME_CHECK(rd_pass_name, pass_reason);
	} else if (!strcmp(key, "aeth")) {
		NAME_CHECK(rd_aeth_name, aeth_kind);
	} else if (!strcmp(key, "dscp_in")) {
		NUM_CHECK(t->dscp_in, ~0ul);
	} else if (!strcmp(key, "dscp_out")) {
		NUM_CHECK(t->dscp_out, ~0ul);
	} else if (!strcmp(key, "ecn_out")) {
		NUM_CHECK(t->ecn_out, ~0ul);
	} else if (!strcmp(key, "opcode")) {
		NUM_CHECK(t->bth_opcode, ~0ul);
	} else if (!strcmp(key, "dest_qp")) {
		NUM_CHECK(t->dest_qp, ~0ul);
	} else if (!strcmp(key, "psn")) {
		NUM_CHECK(t->psn, ~0ul);
	} else if (!strcmp(key, "aeth_code")) {
		NUM_CHECK(t->aeth_code, ~0ul);
	} else if (!strcmp(key, "cts_rule")) {
		NUM_CHECK(t->cts_rule, 0xff);
	} else if (!strcmp(key, "member")) {
		NUM_CHECK(t->member, ROCEDP_NO_MEMBER);
	} else if (!strcmp(key, "egress")) {
		NUM_CHECK(c->r->verdict == ROCEDP_VERDICT_REDIRECT ?
				  t->egress_ifindex :
				  0,
			  0);
	} else if (!strcmp(key, "out")) {
		if (!strcmp(val, "same")) {
			describe_diff(c->r->out, c->r->out_len, c->in,
				      c->in_len, why, sizeof(why));
			result(!strcmp(why, "equal"),
			       "%s[%s]: out same as in%s%s", c->f->name,
			       c->hook, strcmp(why, "equal") ? ": " : "",
			       strcmp(why, "equal") ? why : "");
		} else {
			err = parse_hex(val, want, sizeof(want), &wl);
			if (err) {
				result(false, "%s[%s]: out: bad hex",
				       c->f->name, c->hook);
				return true;
			}
			describe_diff(c->r->out, c->r->out_len, want, wl, why,
				      sizeof(why));
			result(!strcmp(why, "equal"),
			       "%s[%s]: out bytes as expected%s%s", c->f->name,
			       c->hook, strcmp(why, "equal") ? ": " : "",
			       strcmp(why, "equal") ? why : "");
			if (strcmp(why, "equal") && !silent)
				dump_hex("got", c->r->out, c->r->out_len);
		}
	} else if (!strcmp(key, "icrc")) {
		uint32_t found = 0, computed = 0;

		err = rd_icrc_verify(c->r->out, c->r->out_len, &found,
				     &computed);
		result(!strcmp(val, "valid") && !err,
		       "%s[%s]: out ICRC %s (stored %08x, computed %08x, %d)",
		       c->f->name, c->hook, val, found, computed, err);
	} else if ((!strcmp(key, "cache") || !strcmp(key, "counters")) &&
		   !c->ctr) {
		result(false, "%s[%s]: %s: no counters read", c->f->name,
		       c->hook, key);
	} else if (!strcmp(key, "cache")) {
		/* the general path has no cache: every frame misses there */
		bool hit = !strcmp(val, "hit") && !general_path;

		result((!strcmp(val, "hit") || !strcmp(val, "miss")) &&
			       c->ctr[ROCEDP_CTR_FWD_CACHE_HIT] == hit,
		       "%s[%s]: %s%s (forwarded from the cache: %llu)",
		       c->f->name, c->hook, hit ? "cache hit" : "cache miss",
		       general_path ? " (general path)" : "",
		       (unsigned long long)c->ctr[ROCEDP_CTR_FWD_CACHE_HIT]);
	} else if (!strcmp(key, "counters")) {
		check_counters(c, val);
	} else if (!strcmp(key, "probe")) {
		fxp_check_probe(c->e, &c->before, val, c->f->name, c->hook);
	} else if (!strcmp(key, "pathq")) {
		fxp_check_pathq(c->e, val, c->f->name, c->hook);
	} else if (!strcmp(key, "ipcsum")) {
		bool ok =
			ip4_csum_ok(c->r->out, c->r->out_len, why, sizeof(why));

		result(!strcmp(val, "valid") && ok,
		       "%s[%s]: out IPv4 header checksum %s (%s)", c->f->name,
		       c->hook, val, why);
	} else {
		return false;
	}
	return true;
}

static const char *const meta_keys[] = {
	"name",		 "desc",       "hook",	   "config",	   "time_ns",
	"ifindex",	 "in",	       "truncate", "malformed_at", "refused",
	"refused_below", "port_mac",   "trace",	   "probe_set",	   "probe_leaf",
	"probe_port",	 "probe_band", NULL,
};

static const char *const check_keys[] = {
	"verdict",  "class",	"malformed", "pass",	"aeth", "dscp_in",
	"dscp_out", "ecn_out",	"opcode",    "dest_qp", "psn",	"aeth_code",
	"cts_rule", "member",	"egress",    "out",	"icrc", "ipcsum",
	"cache",    "counters", "probe",     "pathq",	NULL,
};

/* What a run without the trace can show: the frame and the counters. */
static const char *const untraced_keys[] = {
	"verdict",  "out",   "icrc",  "ipcsum", "cache",
	"counters", "probe", "pathq", NULL,
};

static bool in_list(const char *const *l, const char *k)
{
	for (; *l; l++)
		if (!strcmp(*l, k))
			return true;
	return false;
}

static bool is_check_key(const char *k)
{
	return in_list(check_keys, k);
}

static bool is_meta_key(const char *k)
{
	return in_list(meta_keys, k);
}

/* trace: on (the default) or off; -1 for anything else. */
static int fx_trace(const struct fixture *f)
{
	const char *s = fx_get(f, "trace");

	if (!s || !strcmp(s, "on"))
		return 1;
	return strcmp(s, "off") ? -1 : 0;
}

/* "xdp=14,tc=34" -> the value for hook, 0 when absent. */
static unsigned long hook_value(const struct fixture *f, const char *key,
				const char *hook)
{
	const char *s = fx_get(f, key);
	size_t hl = strlen(hook);

	while (s && *s) {
		if (!strncmp(s, hook, hl) && s[hl] == '=')
			return strtoul(s + hl + 1, NULL, 0);
		s = strchr(s, ',');
		if (s)
			s++;
	}
	return 0;
}

/* Is hook in the space-separated list of key ("both" = all)? */
static bool hook_listed(const struct fixture *f, const char *key,
			const char *hook)
{
	const char *s = fx_get(f, key);
	size_t hl = strlen(hook);

	while (s && *s) {
		if ((!strncmp(s, hook, hl) && (!s[hl] || s[hl] == ' ')) ||
		    !strncmp(s, "both", 4))
			return true;
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	return false;
}

/* "a-b:reason,..." -> the reason for cut length len, or NULL. */
static bool reason_at(const char *spec, size_t len, char *out, size_t ol)
{
	const char *s = spec;
	unsigned long a, b;
	int n;

	while (*s) {
		if (sscanf(s, "%lu-%lu:%n", &a, &b, &n) != 2)
			return false;
		s += n;
		n = strcspn(s, ",");
		if (len >= a && len <= b) {
			snprintf(out, ol, "%.*s", n, s);
			return true;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return false;
}

/* The programs a fixture runs (run_fixture's hooks), 0 for a bad hook. */
static unsigned int fixture_hooks(const struct fixture *f)
{
	const char *hook = fx_get(f, "hook") ?: "both";

	if (!strcmp(hook, "both"))
		return RD_HOOK_BIT(RD_HOOK_XDP) | RD_HOOK_BIT(RD_HOOK_TC);
	if (!strcmp(hook, "xdp"))
		return RD_HOOK_BIT(RD_HOOK_XDP);
	if (!strcmp(hook, "tc"))
		return RD_HOOK_BIT(RD_HOOK_TC);
	if (!strcmp(hook, "tc_rx"))
		return RD_HOOK_BIT(RD_HOOK_TC_RX);
	return 0;
}

/* Before any engine opens: add the fixture's programs to its engine's. */
static void plan_fixture(const struct fixture *f)
{
	struct cfg_engine *c = NULL;

	if (f->name && fx_trace(f) >= 0)
		c = engine_slot(fx_get(f, "config") ?: "none", fx_trace(f));
	if (c)
		c->hooks |= fixture_hooks(f);
}

static struct rd_engine *fixture_engine(const struct fixture *f,
					const char *hook)
{
	const char *config = fx_get(f, "config") ?: "none";
	struct rd_engine *e;
	int err;

	e = engine_for(config, fx_trace(f) != 0, &err);
	if (!e)
		result(false, "%s[%s]: config %s: %s", f->name, hook, config,
		       strerror(-err));
	return e;
}

/* The ingress port's own MAC (rd_port_l2): port_mac, else none. */
static int set_port_mac(struct rd_engine *e, const struct fixture *f,
			unsigned long ifindex)
{
	const char *s = fx_get(f, "port_mac");
	struct rocedp_port_l2 l2 = {};
	__u32 key = ifindex;
	int n = 0;

	if (ifindex >= ROCEDP_PORT_SLOTS)
		return s ? -EINVAL : 0;
	if (s) {
		if (sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx%n", &l2.mac[0],
			   &l2.mac[1], &l2.mac[2], &l2.mac[3], &l2.mac[4],
			   &l2.mac[5], &n) != 6 ||
		    s[n])
			return -EINVAL;
		l2.flags = ROCEDP_PORTL2F_MAC;
	}
	return bpf_map_update_elem(rd_engine_maps(e)->fd[RD_MAP_PORT_L2], &key,
				   &l2, 0) ?
		       -errno :
		       0;
}

static int prepare_run(struct rd_engine *e, const struct fixture *f,
		       struct rd_run *r)
{
	const char *s;
	unsigned long v = 1000000000ul; /* a fixed, non-zero "now" */

	s = fx_get(f, "time_ns");
	if (s && !parse_num(s, &v))
		return -EINVAL;
	if (rd_engine_set_time(e, v))
		return -EIO;
	s = fx_get(f, "ifindex");
	v = 0;
	if (s && !parse_num(s, &v))
		return -EINVAL;
	r->ingress_ifindex = v;
	if (fxp_apply(e, fx_get(f, "probe_set"), fx_get(f, "probe_port"),
		      fx_get(f, "probe_band"), v) ||
	    (fx_get(f, "probe_leaf") && fxp_leaf(e, fx_get(f, "probe_leaf"))))
		return -EINVAL;
	return set_port_mac(e, f, v);
}

/* One run per cut length; one combined assertion per cut and hook. */
static void run_truncations(const struct fixture *f, enum rd_hook h,
			    const char *hook, const uint8_t *in, size_t len)
{
	static uint8_t out[MAX_FRAME];
	const char *spec = fx_get(f, "malformed_at") ?: "";
	struct rd_engine *e = fixture_engine(f, hook);
	char want_mal[64], bad[512];
	size_t cut;
	int i, err;

	if (!e)
		return;
	for (cut = 0; cut < len; cut++) {
		struct rd_run r = { .in = in,
				    .in_len = cut,
				    .out = out,
				    .out_size = sizeof(out) };
		struct ctx c = {
			.f = f, .hook = hook, .in = in, .in_len = cut, .r = &r
		};
		const struct rocedp_trace *t = &r.trace;

		bad[0] = 0;
		err = prepare_run(e, f, &r);
		if (!err)
			err = rd_engine_run(e, h, &r);
		if (cut < hook_value(f, "refused_below", hook)) {
			/* the kernel refuses it before the program runs */
			result(err == -EINVAL,
			       "%s[%s] cut %zu: refused by test_run (%d)",
			       f->name, hook, cut, err);
			continue;
		}
		if (!reason_at(spec, cut, want_mal, sizeof(want_mal))) {
			result(false, "%s[%s] cut %zu: no malformed_at range",
			       f->name, hook, cut);
			continue;
		}
		if (err) {
			result(false, "%s[%s] cut %zu: run failed: %s", f->name,
			       hook, cut, strerror(-err));
			continue;
		}
		if (strcmp(rd_malformed_name(t->malformed) ?: "", want_mal))
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 " malformed %s want %s",
				 rd_malformed_name(t->malformed), want_mal);
		for (i = 0; i < f->n_kv; i++) {
			const char *k = f->kv[i].key, *v = f->kv[i].val;
			int before = n_fail, tests = n_test;

			if (is_meta_key(k))
				continue;
			/* evaluate silently, fold into one line */
			silent = true;
			check_key(&c, k, v);
			silent = false;
			if (n_fail != before)
				snprintf(bad + strlen(bad),
					 sizeof(bad) - strlen(bad), " %s!=%s",
					 k, v);
			n_fail = before;
			n_test = tests;
		}
		if (r.verdict == ROCEDP_VERDICT_REDIRECT)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 " REDIRECTED");
		result(!bad[0], "%s[%s] cut %zu: %s, pass, not forwarded%s%s",
		       f->name, hook, cut, want_mal, bad[0] ? ":" : "", bad);
	}
}

static void run_fixture(const struct fixture *f)
{
	static uint8_t in[MAX_FRAME], out[MAX_FRAME];
	const char *hook = fx_get(f, "hook") ?: "both", *s;
	enum rd_hook hooks[2];
	const char *names[2];
	static __u64 ctr0[FX_N_CTRS], ctr[FX_N_CTRS];
	int n_hooks = 0, i, k, err;
	size_t in_len;

	if (!f->name) {
		result(false, "%s:%d: block without name", f->file, f->line);
		return;
	}
	if (fx_trace(f) < 0) {
		result(false, "%s: trace: '%s' (on or off)", f->name,
		       fx_get(f, "trace"));
		return;
	}
	for (k = 0; k < f->n_kv; k++) {
		if (is_meta_key(f->kv[k].key))
			continue;
		if (is_check_key(f->kv[k].key) &&
		    (fx_trace(f) || in_list(untraced_keys, f->kv[k].key)))
			continue;
		result(false, "%s: %s:%d: %s key '%s'", f->name, f->file,
		       f->kv[k].line,
		       is_check_key(f->kv[k].key) ? "with the trace off, no" :
						    "unknown",
		       f->kv[k].key);
		return;
	}
	s = fx_get(f, "in");
	if (!s || parse_hex(s, in, sizeof(in), &in_len)) {
		result(false, "%s: missing or bad 'in'", f->name);
		return;
	}
	if (!strcmp(hook, "xdp") || !strcmp(hook, "both")) {
		hooks[n_hooks] = RD_HOOK_XDP;
		names[n_hooks++] = "xdp";
	}
	if (!strcmp(hook, "tc") || !strcmp(hook, "both")) {
		hooks[n_hooks] = RD_HOOK_TC;
		names[n_hooks++] = "tc";
	}
	/* tc ingress with the outer tag in skb metadata (engine.h) */
	if (!strcmp(hook, "tc_rx")) {
		hooks[n_hooks] = RD_HOOK_TC_RX;
		names[n_hooks++] = "tc_rx";
	}
	if (!n_hooks) {
		result(false, "%s: bad hook '%s'", f->name, hook);
		return;
	}
	for (i = 0; i < n_hooks; i++) {
		struct rd_run r = { .in = in,
				    .in_len = in_len,
				    .out = out,
				    .out_size = sizeof(out) };
		struct ctx c = { .f = f,
				 .hook = names[i],
				 .in = in,
				 .in_len = in_len,
				 .r = &r };
		struct rd_engine *e;

		s = fx_get(f, "truncate");
		if (s) {
			if (strcmp(s, "all"))
				result(false, "%s: truncate: '%s' (only 'all')",
				       f->name, s);
			else
				run_truncations(f, hooks[i], names[i], in,
						in_len);
			continue;
		}
		e = fixture_engine(f, names[i]);
		if (!e)
			continue;
		c.e = e;
		err = fx_counters_read(rd_engine_maps(e), ctr0);
		if (!err)
			err = prepare_run(e, f, &r);
		fxp_ctr(e, &c.before);
		if (!err)
			err = rd_engine_run(e, hooks[i], &r);
		if (!err)
			err = fx_counters_read(rd_engine_maps(e), ctr);
		for (k = 0; k < FX_N_CTRS; k++)
			ctr[k] -= ctr0[k];
		c.ctr = err ? NULL : ctr;
		if (hook_listed(f, "refused", names[i])) {
			/* the kernel's test_run refuses it: nothing ran */
			result(err == -EINVAL,
			       "%s[%s]: refused by test_run (%d)", f->name,
			       names[i], err);
			continue;
		}
		if (err) {
			result(false, "%s[%s]: run failed: %s", f->name,
			       names[i], strerror(-err));
			continue;
		}
		for (k = 0; k < f->n_kv; k++) {
			if (is_meta_key(f->kv[k].key))
				continue;
			check_key(&c, f->kv[k].key, f->kv[k].val);
		}
	}
}

/* Two veth pairs in a fresh namespace: ifindex 2..5, as the configs say. */
static int private_netns(void)
{
	char name[IF_NAMESIZE];
	unsigned int i;

	if (unshare(CLONE_NEWNET))
		return -errno;
	if (system("ip link add rdfx0 type veth peer name rdfx1 && "
		   "ip link add rdfx2 type veth peer name rdfx3"))
		return -EIO;
	/*
	 * Any name: the namespace is new, so 2..5 are these two pairs
	 * (busybox's ip, in the kernel boot test, names the peers itself).
	 */
	for (i = 2; i <= 5; i++)
		if (!if_indextoname(i, name))
			return -ENODEV;
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fixtures [-q] [--no-netns] [--general] [--configs DIR] "
		"[FILE.fix...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	bool netns = geteuid() == 0;
	struct fixture **fxs;
	glob_t g = {};
	char **files;
	int n_files, i, j, err, *n_fxs;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = true;
		else if (!strcmp(argv[i], "--no-netns"))
			netns = false;
		else if (!strcmp(argv[i], "--general"))
			general_path = true;
		else if (!strcmp(argv[i], "--configs") && i + 1 < argc)
			configs_dir = argv[++i];
		else
			usage();
	}
	if (i < argc) {
		files = argv + i;
		n_files = argc - i;
	} else {
		if (glob("tests/fixtures/*.fix", 0, NULL, &g) || !g.gl_pathc) {
			printf("not ok 1 - no tests/fixtures/*.fix (run from "
			       "the top of the tree)\n");
			return 1;
		}
		files = g.gl_pathv;
		n_files = g.gl_pathc;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (netns) {
		err = private_netns();
		result(!err, "setup: private netns with veth ifindex 2..5 (%s)",
		       err ? strerror(-err) : "ok");
	}
	fxs = calloc(n_files, sizeof(*fxs));
	n_fxs = calloc(n_files, sizeof(*n_fxs));
	if (!fxs || !n_fxs)
		return 1;
	/* every file first: each engine then loads what all of its use */
	for (i = 0; i < n_files; i++) {
		err = load_file(files[i], &fxs[i], &n_fxs[i]);
		result(!err && n_fxs[i] > 0, "load %s: %d fixtures%s%s",
		       files[i], n_fxs[i], err ? ": " : "",
		       err ? strerror(-err) : "");
		for (j = 0; j < n_fxs[i]; j++)
			plan_fixture(&fxs[i][j]);
	}
	for (i = 0; i < n_files; i++)
		for (j = 0; j < n_fxs[i]; j++)
			run_fixture(&fxs[i][j]);
	for (i = 0; i < n_engines; i++)
		rd_engine_close(engines[i].e);
	globfree(&g);
	printf("1..%d\n# %d passed, %d failed\n", n_test, n_test - n_fail,
	       n_fail);
	return n_fail ? 1 : 0;
}
