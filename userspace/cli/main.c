// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp [-j|--json] [-p|--pretty] [--pin-dir DIR] OBJECT VERB ...
 * (ip/bpftool style; the global options may follow the object too)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "commands.h"
#include "pindir.h"
#include "config_keys.h"

struct rd_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	bool needs_root;
	const char *help;
};

static int cmd_help(int argc, char **argv);

static const struct rd_cmd cmds[] = {
	{ "attach", cmd_attach, true,
	  "IFACE... [--mode native|generic|tc] [--features LIST] [--egress] [--exclusive] [--force]" },
	{ "detach", cmd_detach, true, "[IFACE...] [--all]" },
	{ "status", cmd_status, true, "" },
	{ "start", cmd_start, true, "[--config FILE]" },
	{ "stop", cmd_stop, true, "" },
	{ "config", cmd_config, true,
	  "show|dump|check FILE|load FILE|set K=V..." },
	{ "qos", cmd_qos, true,
	  "show|set CLASS dscp D [pcp P]|set CLASS leave|rules" },
	{ "ecn", cmd_ecn, true,
	  "show|set [PORT] kmin K kmax K pmax P [rate R]" },
	{ "stats", cmd_stats, true,
	  "[--watch SEC] [--prometheus] [--textfile DIR] [--top-qps K]" },
	{ "flows", cmd_flows, true, "[--limit N]" },
	{ "qps", cmd_qps, true,
	  "[--sort bytes|rewinds|gaps|stalls|rtt] [--limit N]" },
	{ "top", cmd_top, true,
	  "[--sort bytes|rewinds|gaps|stalls|rtt] [--interval SEC] [--limit N] [--once] [-n ITER]" },
	{ "sync", cmd_sync, true, "[--daemon] [--once] [--table N]" },
	{ "sonic", cmd_sonic, false,
	  "import CONFIG_DB.json [--ports MAP] [--strict]|"
	  "sync --redis URL [--ports MAP] [--strict] [--once]" },
	{ "replay", cmd_replay, true,
	  "--in IN.pcap [--out OUT.pcap] [--verdicts FILE|-] [--config FILE]" },
	{ "selftest-load", cmd_selftest_load, true, "(load every program)" },
	{ "help", cmd_help, false, "" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: rocedp [-j|--json] [-p|--pretty] [--pin-dir DIR] OBJECT { COMMAND | help }\n"
		"Objects and commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-14s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "See rocedp(8).\n");
}

static int cmd_help(int argc, char **argv)
{
	/* hidden, for bash completion (tools/completion/rocedp.bash) */
	if (argc == 2 && !strcmp(argv[1], "--config-keys"))
		return rd_config_keys_print(stdout) ? 1 : 0;
	usage(stdout);
	return 0;
}

/*
 * `rocedp OBJECT help` and `rocedp OBJECT VERB help` (or --help, -h) print
 * the object's usage; after an option ("replay --in help") it is a value.
 */
static bool wants_help(int argc, char **argv)
{
	const char *last = argv[argc - 1];

	if (argc < 2 || argc > 3 || (argc == 3 && argv[1][0] == '-'))
		return false;
	return !strcmp(last, "help") || !strcmp(last, "--help") ||
	       !strcmp(last, "-h");
}

/* libbpf's own messages only with ROCEDP_DEBUG set: ours name the object */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG || !getenv("ROCEDP_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * A global option at argv[i]: applied, and how many words it took (0: not
 * one). Accepted before or after the object, as bpftool does.
 */
static int global_opt(int argc, char **argv, int i)
{
	const char *a = argv[i];

	if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
		rd_json = true;
	} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
		rd_json = rd_pretty = true;
	} else if (!strncmp(a, "--pin-dir=", 10) && a[10]) {
		rd_pin_dir_set(a + 10);
	} else if (!strcmp(a, "--pin-dir")) {
		if (i + 1 >= argc || !argv[i + 1][0]) {
			rd_err("options", "--pin-dir needs a directory");
			return -1;
		}
		rd_pin_dir_set(argv[i + 1]);
		return 2;
	} else {
		return 0;
	}
	return 1;
}

/* Drop the global options after the object (up to "--"); new argc. */
static int take_global_opts(int argc, char **argv)
{
	int i = 2, n = 2, k;

	while (i < argc && strcmp(argv[i], "--")) {
		k = global_opt(argc, argv, i);
		if (k < 0)
			return -1;
		if (!k)
			argv[n++] = argv[i++];
		i += k;
	}
	while (i < argc)
		argv[n++] = argv[i++];
	argv[n] = NULL;
	return n;
}

int main(int argc, char **argv)
{
	const struct rd_cmd *c = NULL;
	size_t i;
	int k;

	libbpf_set_print(libbpf_print);
	while (argc > 1 && argv[1][0] == '-') {
		k = global_opt(argc, argv, 1);
		if (k < 0)
			return 2;
		if (k) {
			argc -= k;
			argv += k;
			continue;
		}
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[1], "-V") ||
			   !strcmp(argv[1], "--version")) {
			printf("rocedp %s\n", ROCEDP_VERSION);
			return 0;
		} else {
			rd_err("options",
			       "unknown option '%s' (try 'rocedp help')",
			       argv[1]);
			return 2;
		}
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			c = &cmds[i];
	if (!c) {
		rd_err(argv[1], "unknown object (try 'rocedp help')");
		return 2;
	}
	argc = take_global_opts(argc, argv);
	if (argc < 0)
		return 2;
	if (wants_help(argc - 1, argv + 1)) {
		printf("Usage: rocedp %s %s\n", c->name, c->help);
		return 0;
	}
	if (c->needs_root && geteuid() != 0) {
		rd_err(c->name, "needs root (CAP_BPF and CAP_NET_ADMIN)");
		return 1;
	}
	return c->fn(argc - 1, argv + 1);
}
