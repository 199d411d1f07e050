// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp ipfix --collector ADDR:PORT [--interval SEC] [--count N]
 *              [--domain N] [--enterprise PEN]:
 * every active QP's flow record (ipfix.c) to an IPFIX collector over UDP,
 * once an interval, the templates first each time (RFC 7011, 8.4: a UDP
 * collector may have missed them). --count N stops after N exports.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "hostport.h"
#include "ipfix.h"
#include "qps.h"
#include "util.h"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* one export: every QP's record; 0 or -errno (printed) */
static int export_once(int fd, struct rd_ipfix *x, const struct rd_maps *m,
		       const char *spec)
{
	static __u8 buf[RD_IPFIX_MSG_MAX];
	struct rd_qp_snap s = { 0 };
	size_t next = 0, len;
	bool first = true;
	int err;

	err = rd_qps_read(m, &s);
	if (err) {
		rd_err("ipfix", "reading the QP table: %s", strerror(-err));
		return err;
	}
	while ((len = rd_ipfix_message(x, &s, &next, first, (__u32)time(NULL),
				       buf))) {
		first = false;
		if (send(fd, buf, len, 0) < 0 && errno != ECONNREFUSED) {
			err = -errno;
			rd_err("ipfix", "--collector %s: %s", spec,
			       strerror(errno));
			break;
		}
	}
	rd_qps_free(&s);
	return err;
}

static bool parse_u32(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !*end && !errno && *v <= max;
}

int cmd_ipfix(const struct cli_call *c)
{
	const char *spec = cli_val(c, "collector"),
		   *iv = cli_val(c, "interval");
	struct rd_ipfix x = { .pen = RD_IPFIX_PEN };
	unsigned long count = 0, v, done = 0;
	struct sockaddr_storage sa;
	double interval = 10;
	struct rd_maps m;
	socklen_t salen;
	char *end;
	int fd, ret = 0;

	if (!spec)
		return cli_usage_err(c, "--collector ADDR:PORT is needed");
	/* a collector is one address: not ":PORT" */
	if (!rd_hostport_parse(spec, &sa, &salen) || spec[0] == ':' ||
	    !strncmp(spec, "[::]", 4))
		return cli_usage_err(
			c,
			"--collector: '%s' is not ADDR:PORT (192.0.2.1:4739 or [2001:db8::1]:4739)",
			spec);
	if (iv) {
		errno = 0;
		interval = strtod(iv, &end);
		if (!*iv || *end || errno || !(interval >= 0.1) ||
		    interval > 3600)
			return cli_usage_err(
				c,
				"--interval: '%s' is not a number of seconds from 0.1 to 3600",
				iv);
	}
	if (cli_val(c, "count") &&
	    !parse_u32(cli_val(c, "count"), 1000000, &count))
		return cli_usage_err(c, "--count: '%s' is not a number",
				     cli_val(c, "count"));
	if (cli_val(c, "domain")) {
		if (!parse_u32(cli_val(c, "domain"), 0xffffffffUL, &v))
			return cli_usage_err(
				c, "--domain: '%s' is not a 32-bit number",
				cli_val(c, "domain"));
		x.domain = v;
	}
	if (cli_val(c, "enterprise")) {
		if (!parse_u32(cli_val(c, "enterprise"), 0xffffffffUL, &v) ||
		    !v)
			return cli_usage_err(
				c,
				"--enterprise: '%s' is not an enterprise number",
				cli_val(c, "enterprise"));
		x.pen = v;
	}
	fd = socket(sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, salen)) {
		rd_err("ipfix", "--collector %s: %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (cli_maps_open(&m, "ipfix")) {
		close(fd);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (!stop_sig) {
		if (export_once(fd, &x, &m, spec)) {
			ret = 1;
			break;
		}
		if (count && ++done >= count)
			break;
		struct timespec ts = {
			.tv_sec = (time_t)interval,
			.tv_nsec = (long)((interval - (time_t)interval) * 1e9)
		};
		while (!stop_sig && nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	rd_maps_close(&m);
	close(fd);
	return ret;
}
