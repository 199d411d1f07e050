// SPDX-License-Identifier: GPL-2.0
/*
 * Config fuzzer (docs/fuzz.md, "The config fuzzer"): mutated JSON documents
 * through the loader's own path (parse, validate, apply, read back, render)
 * on the maps of an offline engine, with ASan and UBSan on the harness and
 * on every userspace object. Per input:
 *
 *  1. a document the parser or the validator refuses changes nothing (by
 *     construction: neither is handed the maps) and says why: at least
 *     one line, each "rocedp: config: " and the reason, on stderr;
 *  2. a document the validator accepted applies; one load in four has its
 *     Nth map write fail (ROCEDP_FAULT_CONFIG_WRITE, N from the input), and
 *     then the maps must be exactly as before: the rollback, checked on a
 *     digest of every key and value of the config maps;
 *  3. what runs then reads back and renders (`config show -j`) to a
 *     document that the validator accepts and that renders the same (a
 *     fixpoint), equal to the rendering of the input itself: what was
 *     loaded is what runs;
 *  4. loading that rendering again changes no map byte.
 *
 * The maps are not reset between inputs: each load diffs against what the
 * previous one left, which is how `config load` is used. A failing input
 * is reproduced from the baseline by running it alone.
 *
 * Byte mutations of JSON are mostly syntax errors, which only exercise
 * json-c. So a custom mutator edits the parsed tree instead, three times
 * in four: a value replaced (boundary numbers, words of the config,
 * other types), a key dropped or added, an array element duplicated or
 * dropped; the rest are libFuzzer's byte mutations.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <json-c/json.h>
#include "engine.h"
#include "config_txn.h"
#include "config.h"
#include "config_json.h"
#include "config_parse.h"
#include "config_read.h"
#include "config_render.h"
#include "fuzz_common.h"

static struct rd_engine *eng;
static const struct rd_maps *maps;
static uint64_t n_exec, n_syntax, n_refused, n_rolled_back, n_applied;

/* What a config load may write; rd_tx_ports is skipped offline. */
static const int cfg_maps[] = {
	RD_MAP_CONFIG,	RD_MAP_QOS,	RD_MAP_CTS_RULES, RD_MAP_GROUPS,
	RD_MAP_ROUTES4, RD_MAP_ROUTES6, RD_MAP_PORT_CFG,  RD_MAP_PORT_STATE,
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

#define N_CFG_MAPS (sizeof(cfg_maps) / sizeof(cfg_maps[0]))

/* A hash of every key and value of each config map, into per[]. */
static void maps_digest(uint64_t *per)
{
	uint8_t key[64], next[64], *val = NULL;
	struct bpf_map_info info;
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned int i;
	__u32 len;
	void *prev;
	int fd;

	for (i = 0; i < N_CFG_MAPS; i++) {
		h = 0xcbf29ce484222325ull;
		fd = maps->fd[cfg_maps[i]];
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
		    info.key_size > sizeof(key))
			abort();
		val = realloc(val, info.value_size);
		if (!val)
			abort();
		h = fnv(h, &i, sizeof(i));
		prev = NULL;
		while (!bpf_map_get_next_key(fd, prev, next)) {
			memcpy(key, next, info.key_size);
			prev = key;
			if (bpf_map_lookup_elem(fd, key, val))
				continue;
			h = fnv(h, key, info.key_size);
			h = fnv(h, val, info.value_size);
		}
		per[i] = h;
	}
	free(val);
}

/* Every config map as it was in before[]? Names the first that is not. */
static const char *maps_changed(const uint64_t *before)
{
	uint64_t now[N_CFG_MAPS];
	unsigned int i;

	maps_digest(now);
	for (i = 0; i < N_CFG_MAPS; i++)
		if (now[i] != before[i])
			return rd_map_names[cfg_maps[i]];
	return NULL;
}

/* fz_fail with the document, as the input is text */
static void fail(const char *what, const uint8_t *data, size_t size)
{
	fz_fail("%s\nfuzz-config: input: %.*s", what,
		(int)(size < 2000 ? size : 2000), (const char *)data);
}

/* A port's settings when the document gives none (from the parser itself). */
static struct rocedp_port_cfg default_port;

/*
 * The document s renders to, as text. Names are cleared (the CLI keeps
 * them beside the maps), and so are ports listed with default settings:
 * the running config lists only ports that differ, and a load gives an
 * unlisted port the defaults, so the two mean the same.
 */
static char *render(struct rd_staged *s)
{
	struct json_object *o;
	unsigned int i, n = 0;
	char *txt;

	memset(s->rule_names, 0, sizeof(s->rule_names));
	for (i = 0; i < s->n_ports; i++)
		if (memcmp(&s->ports[i].pc, &default_port,
			   sizeof(default_port)) ||
		    s->ports[i].hold_bytes)
			s->ports[n++] = s->ports[i];
	s->n_ports = n;
	o = rd_config_to_json(s);
	if (!o)
		return NULL;
	txt = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return txt;
}

/* Parse and validate text; 0 and s filled, or -EINVAL (printed). */
static int parse(const char *buf, size_t len, struct rd_staged *s)
{
	struct json_object *root;
	int err;

	err = rd_config_parse_text("fuzz", buf, len, &root);
	if (err)
		return err;
	err = rd_config_parse_host(root, rd_host_modelled(), s);
	json_object_put(root);
	return err;
}

static char *running_rendered(void)
{
	struct rd_staged r;
	char *txt;

	if (rd_config_read_running(maps, &r))
		return NULL;
	txt = render(&r);
	rd_staged_free(&r);
	return txt;
}

static void at_exit(void)
{
	fprintf(stderr,
		"fuzz-config: %" PRIu64 " executions, %" PRIu64
		" invariant failures\n"
		"fuzz-config: documents: %" PRIu64 " not JSON, %" PRIu64
		" refused by the validator, %" PRIu64
		" failed a map write on purpose and rolled back, %" PRIu64
		" applied\n",
		n_exec, fz_failures, n_syntax, n_refused, n_rolled_back,
		n_applied);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct rd_engine_opts o = { 0 };

	(void)argc;
	(void)argv;
	fz_name = "fuzz-config";
	eng = fz_engine_open(&o);
	maps = rd_engine_maps(eng);
	{
		static const char doc[] = "{\"ecn\": {\"ports\": {\"1\": {}}}}";
		struct rd_staged d;

		if (parse(doc, sizeof(doc) - 1, &d) || d.n_ports != 1)
			exit(2);
		default_port = d.ports[0].pc;
		rd_staged_free(&d);
	}
	/* the parser's and validator's error lines would flood the log */
	if (!getenv("ROCEDP_FUZZ_VERBOSE") &&
	    !freopen("/dev/null", "w", stdout))
		exit(2);
	atexit(at_exit);
	return 0;
}

/* ------------------------------------------------------------ mutator */

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static const char *const words[] = {
	"features",
	"hash",
	"flowlet",
	"qos",
	"cts_rules",
	"ecn",
	"groups",
	"routes",
	"mode",
	"seed",
	"symmetric",
	"rtt_us",
	"buckets",
	"gap",
	"gap_min_us",
	"gap_max_us",
	"choice",
	"load_tau_us",
	"rtt_ewma_shift",
	"telemetry",
	"qp_stall_us",
	"dscp",
	"pcp",
	"leave",
	"name",
	"opcodes",
	"qp",
	"max_payload",
	"src",
	"dst",
	"class_optout",
	"ports",
	"rate_mbps",
	"kmin_bytes",
	"kmax_bytes",
	"pmax_percent",
	"profile",
	"hold_queue_bytes",
	"id",
	"members",
	"dev",
	"ifindex",
	"smac",
	"dmac",
	"weight",
	"via",
	"prefix",
	"group",
	"local",
	"forward",
	"remark",
	"ecn",
	"flowlet",
	"5tuple",
	"qp-only",
	"spray",
	"auto",
	"least-loaded",
	"random",
	"fixed",
	"ack",
	"nak",
	"cnp",
	"cts",
	"data",
	"roce_other",
	"ip",
	"send_only",
	"rdma_write_only",
	"uc_send_only",
	"10.0.0.0/8",
	"10.1.2.3/16",
	"0.0.0.0/0",
	"::/0",
	"2001:db8::/32",
	"fe80::1",
	"10.0.0.2",
	"02:00:00:00:00:01",
	"0x100-0x1ff",
	"0x200-0x100",
	"3",
	"1023",
	"",
	"eth0",
};

static const int64_t numbers[] = {
	0,	    1,		2,	   -1,	      7,      46,     63,
	64,	    255,	256,	   1023,      1024,   2047,   2048,
	65535,	    65536,	16777215,  16777216,  100000, 409600, INT32_MAX,
	UINT32_MAX, 4294967296, INT64_MAX, INT64_MIN,
};

static uint32_t rnd(uint32_t *st, uint32_t n)
{
	*st = *st * 1103515245u + 12345u;
	return n ? (*st >> 8) % n : 0;
}

static struct json_object *random_value(uint32_t *st)
{
	switch (rnd(st, 8)) {
	case 0:
	case 1:
		return json_object_new_int64(
			numbers[rnd(st, sizeof(numbers) / sizeof(numbers[0]))]);
	case 2:
	case 3:
		return json_object_new_string(
			words[rnd(st, sizeof(words) / sizeof(words[0]))]);
	case 4:
		return json_object_new_boolean(rnd(st, 2));
	case 5:
		return json_object_new_object();
	case 6:
		return json_object_new_array();
	default:
		return NULL; /* JSON null */
	}
}

/*
 * A new value like the old one, so the document often stays valid: a
 * boolean flipped, a number nudged or swapped for a boundary, a string
 * for a word of the config; another type one time in four.
 */
static struct json_object *similar_value(struct json_object *old, uint32_t *st)
{
	int64_t v;

	if (!rnd(st, 4))
		return random_value(st);
	switch (json_object_get_type(old)) {
	case json_type_boolean:
		return json_object_new_boolean(!json_object_get_boolean(old));
	case json_type_int:
		v = json_object_get_int64(old);
		switch (rnd(st, 4)) { /* wrapping, as in the kernel's u64 */
		case 0:
			return json_object_new_int64(
				(int64_t)((uint64_t)v + 1));
		case 1:
			return json_object_new_int64(
				(int64_t)((uint64_t)v - 1));
		case 2:
			return json_object_new_int64(
				(int64_t)((uint64_t)v * 2));
		}
		return json_object_new_int64(
			numbers[rnd(st, sizeof(numbers) / sizeof(numbers[0]))]);
	case json_type_string:
		return json_object_new_string(
			words[rnd(st, sizeof(words) / sizeof(words[0]))]);
	default:
		return random_value(st);
	}
}

/* Every object and array in the tree, depth first (at most cap). */
static void containers(struct json_object *o, struct json_object **out,
		       unsigned int *n, unsigned int cap)
{
	size_t i, len;

	if (*n >= cap)
		return;
	if (json_object_is_type(o, json_type_object)) {
		out[(*n)++] = o;
		json_object_object_foreach(o, k, v)
		{
			(void)k;
			containers(v, out, n, cap);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		out[(*n)++] = o;
		len = json_object_array_length(o);
		for (i = 0; i < len; i++)
			containers(json_object_array_get_idx(o, i), out, n,
				   cap);
	}
}

static void mutate_tree(struct json_object *root, uint32_t *st)
{
	struct json_object *c[256], *v;
	unsigned int n = 0, nkeys = 0, pick, i = 0;
	size_t len;

	containers(root, c, &n, 256);
	if (!n)
		return;
	v = c[rnd(st, n)];
	if (json_object_is_type(v, json_type_object)) {
		nkeys = json_object_object_length(v);
		pick = rnd(st, nkeys + 1);
		json_object_object_foreach(v, k, val)
		{
			if (i++ != pick)
				continue;
			if (rnd(st, 3)) /* a new value */
				json_object_object_add(v, k,
						       similar_value(val, st));
			else
				json_object_object_del(v, k);
			return;
		}
		/* pick == nkeys: a key added */
		json_object_object_add(
			v, words[rnd(st, sizeof(words) / sizeof(words[0]))],
			random_value(st));
		return;
	}
	len = json_object_array_length(v);
	if (!len || rnd(st, 2)) {
		json_object_array_add(
			v, len ? json_object_get(json_object_array_get_idx(
					 v, rnd(st, len))) :
				 random_value(st));
	} else if (rnd(st, 2)) {
		pick = rnd(st, len);
		json_object_array_put_idx(
			v, pick,
			similar_value(json_object_array_get_idx(v, pick), st));
	} else {
		json_object_array_del_idx(v, rnd(st, len), 1);
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	struct json_tokener *tok;
	struct json_object *root;
	const char *txt;
	uint32_t st = seed;
	size_t len, rounds;

	if (rnd(&st, 4) == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	tok = json_tokener_new();
	if (!tok)
		return LLVMFuzzerMutate(data, size, max_size);
	root = json_tokener_parse_ex(tok, (const char *)data, size);
	json_tokener_free(tok);
	if (!root)
		return LLVMFuzzerMutate(data, size, max_size);
	for (rounds = 1 + rnd(&st, 3); rounds; rounds--)
		mutate_tree(root, &st);
	txt = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	len = strlen(txt);
	if (len <= max_size)
		memcpy(data, txt, len);
	else
		len = LLVMFuzzerMutate(data, size, max_size);
	json_object_put(root);
	return len;
}

/* ------------------------------------------------------------ one input */

/*
 * What the loader prints while it parses (rd_err writes to stderr): the
 * stdio stream is swapped, not fd 2, so a sanitizer report still reaches
 * the log.
 */
static FILE *saved_stderr;
static char *said;
static size_t said_len;

static void listen_begin(void)
{
	FILE *f = open_memstream(&said, &said_len);

	if (!f)
		abort();
	saved_stderr = stderr;
	stderr = f;
}

/* A refusal said why: one or more lines, each "rocedp: config: ...". */
static void listen_end_refused(const uint8_t *data, size_t size)
{
	const char *p, *nl;
	bool ok;

	fclose(stderr);
	stderr = saved_stderr;
	ok = said_len > 0;
	for (p = said; ok && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		ok = nl && !strncmp(p, "rocedp: config: ", 16) && nl - p > 16 &&
		     nl - p < 1024;
		if (!nl)
			break;
	}
	if (!ok) {
		fprintf(stderr, "fuzz-config: said: %.*s\n",
			(int)(said_len < 2000 ? said_len : 2000),
			said ? said : "");
		fail("a refused document does not say why in rocedp: config: lines",
		     data, size);
	}
	free(said);
	said = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_staged s, s2;
	char *want = NULL, *run = NULL, *again = NULL;
	struct json_object *root;
	uint64_t before[N_CFG_MAPS], h;
	const char *changed;
	char nth[16], why[96];
	int err;

	n_exec++;
	/* neither the parser nor the validator is handed the maps */
	listen_begin();
	err = rd_config_parse_text("fuzz", (const char *)data, size, &root);
	if (err) {
		listen_end_refused(data, size);
		n_syntax++;
		return 0;
	}
	err = rd_config_parse_host(root, rd_host_modelled(), &s);
	json_object_put(root);
	if (err) {
		listen_end_refused(data, size);
		n_refused++;
		return 0;
	}
	fclose(stderr); /* accepted: what it said does not matter */
	stderr = saved_stderr;
	free(said);
	said = NULL;
	maps_digest(before);
	h = fnv(0xcbf29ce484222325ull, data, size);
	if (h % 4 == 0) { /* a write fails: the Nth, N from the input */
		snprintf(nth, sizeof(nth), "%u",
			 1 + (unsigned int)(h >> 8) % 24);
		setenv("ROCEDP_FAULT_CONFIG_WRITE", nth, 1);
	}
	err = rd_config_apply(maps, &s);
	unsetenv("ROCEDP_FAULT_CONFIG_WRITE");
	if (err) {
		rd_staged_free(&s);
		if (err != -ENOMEM || h % 4)
			fail("an accepted document does not apply", data, size);
		n_rolled_back++;
		changed = maps_changed(before);
		if (changed) {
			snprintf(why, sizeof(why),
				 "a load whose write %s failed changed %s", nth,
				 changed);
			fail(why, data, size);
		}
		return 0;
	}
	n_applied++;
	want = render(&s);
	rd_staged_free(&s);
	run = running_rendered();
	if (!want || !run)
		fail("the input or the running config does not render", data,
		     size);
	if (strcmp(want, run)) {
		fprintf(stderr,
			"fuzz-config: loaded:  %s\nfuzz-config: running: %s\n",
			want, run);
		fail("the running config is not the document loaded", data,
		     size);
	}
	/* the rendering loads again, renders the same, writes nothing */
	if (parse(run, strlen(run), &s2))
		fail("the validator refuses the running config's rendering",
		     data, size);
	again = render(&s2);
	maps_digest(before);
	err = rd_config_apply(maps, &s2);
	rd_staged_free(&s2);
	if (err || !again || strcmp(again, run))
		fail("the rendering does not load back to itself", data, size);
	changed = maps_changed(before);
	if (changed) {
		snprintf(why, sizeof(why), "loading what runs wrote to %s",
			 changed);
		fail(why, data, size);
	}
	free(want);
	free(run);
	free(again);
	return 0;
}
