// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp qps [--sort bytes|rewinds|gaps|stalls|rtt] [--limit N]: the
 * per-QP telemetry table once, as text or (-j) JSON. It never resets a
 * port's high-water mark: it shows no ports (docs/telemetry.md).
 */
#include <errno.h>
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

int cmd_qps(const struct cli_call *c)
{
	const char *sort = cli_val(c, "sort"), *lim = cli_val(c, "limit");
	struct rd_qp_snap snap = { 0 };
	enum rd_qp_sort by = RD_QP_SORT_BYTES;
	unsigned long limit = ULONG_MAX;
	struct json_object *o;
	struct rd_maps m;
	int err;

	if (sort && !rd_cli_parse_sort("qps", sort, &by))
		return CLI_USAGE;
	if (lim && !rd_cli_parse_count(lim, INT_MAX, &limit))
		return cli_usage_err(c, "--limit: '%s' is not a number", lim);
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
