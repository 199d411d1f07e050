// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp qps [--sort bytes|rewinds|gaps|stalls|rtt] [--limit N]: the
 * per-QP telemetry table once, as text or (-j) JSON. It never resets a
 * port's high-water mark: it shows no ports (docs/telemetry.md).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rocedp.h"
#include "cli.h"
#include "commands.h"
#include "config_render.h"
#include "qps.h"
#include "qps_cli.h"

bool rd_cli_parse_count(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !*end && !errno && *out <= max;
}

bool rd_cli_parse_sort(const char *obj, const char *arg, enum rd_qp_sort *by)
{
	int v = rd_qp_sort_parse(arg);

	if (v < 0) {
		rd_err(obj, "--sort: '%s' is not one of %s", arg,
		       RD_QP_SORT_WORDS);
		return false;
	}
	*by = v;
	return true;
}

int rd_cli_opt_error(const char *obj, char **argv, const char *valued)
{
	if (optopt && strchr(valued, optopt))
		rd_err(obj, "%s needs a value", argv[optind - 1]);
	else
		rd_err(obj, "unknown option '%s' (see 'rocedp %s help')",
		       argv[optind - 1], obj);
	return 2;
}

int cmd_qps(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'l' },
		{}
	};
	struct rd_qp_snap snap = { 0 };
	enum rd_qp_sort by = RD_QP_SORT_BYTES;
	unsigned long limit = ULONG_MAX;
	struct json_object *o;
	struct rd_maps m;
	int c, err;

	optind = 1;
	opterr = 0; /* getopt's own message would be a second error line */
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rd_cli_parse_sort("qps", optarg, &by))
				return 2;
			break;
		case 'l':
			if (!rd_cli_parse_count(optarg, INT_MAX, &limit)) {
				rd_err("qps", "--limit: '%s' is not a number",
				       optarg);
				return 2;
			}
			break;
		default:
			return rd_cli_opt_error("qps", argv, "sl");
		}
	}
	if (cli_extra_arg("qps", argc, argv))
		return 2;
	if (cli_maps_open(&m, "qps"))
		return 1;
	err = rd_qps_read(&m, &snap);
	rd_maps_close(&m);
	if (err) {
		rd_err("qps", "reading rd_qps: %s", strerror(-err));
		rd_qps_free(&snap);
		return 1;
	}
	rd_qps_sort(&snap, by, false);
	if (rd_json) {
		o = rd_qps_json(&snap, limit);
		json_object_object_add(
			o, "sort", json_object_new_string(rd_qp_sort_name(by)));
		printf("%s\n",
		       json_object_to_json_string_ext(o, rd_json_flags()));
		json_object_put(o);
	} else {
		rd_qps_print_text(stdout, &snap, limit);
	}
	rd_qps_free(&snap);
	return 0;
}
