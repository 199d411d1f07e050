// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp paths: the path quality per remote leaf and uplink, the probe
 * settings, port roles and leaf prefixes, and a leaf's probe sender
 * (docs/paths.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include "cli.h"
#include "commands.h"
#include "paths.h"
#include "probes.h"
#include "probesend.h"
#include "probew.h"
#include "util.h"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* the dataplane's clock: bpf_ktime_get_ns() is CLOCK_MONOTONIC */
static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int cmd_paths_show(const struct cli_call *c)
{
	struct rd_paths p;
	struct rd_maps m;
	int err;

	if (cli_maps_open(&m, "paths"))
		return CLI_FAIL;
	err = rd_paths_read(&m, mono_ns(), &p);
	rd_maps_close(&m);
	if (err) {
		rd_err("paths", "reading rd_pathq: %s", strerror(-err));
		return CLI_FAIL;
	}
	if (rd_json)
		rd_paths_json(stdout, &p);
	else
		rd_paths_text(stdout, &p);
	rd_paths_free(&p);
	return CLI_OK;
}

int cmd_paths_set(const struct cli_call *c)
{
	struct rocedp_probe_cfg pc;
	struct rd_maps m;
	char why[160];
	int i, err;

	if (c->argc % 2)
		return cli_usage_err(c, "%s: no value", c->argv[c->argc - 1]);
	if (cli_maps_open(&m, "paths"))
		return CLI_FAIL;
	err = rd_probe_cfg_read(&m, &pc);
	if (err) {
		rd_err("paths", "reading rd_probe_cfg: %s", strerror(-err));
		rd_maps_close(&m);
		return CLI_FAIL;
	}
	for (i = 0; i + 1 < c->argc && !err; i += 2)
		err = rd_probe_cfg_set(&pc, c->argv[i], c->argv[i + 1], why,
				       sizeof(why));
	if (!err)
		err = rd_probe_cfg_check(&pc, why, sizeof(why));
	if (err) {
		rd_maps_close(&m);
		return cli_usage_err(c, "%s", why);
	}
	err = rd_probe_cfg_write(&m, &pc);
	rd_maps_close(&m);
	if (err) {
		rd_err("paths", "writing rd_probe_cfg: %s", strerror(-err));
		return CLI_FAIL;
	}
	return CLI_OK;
}

int cmd_paths_port(const struct cli_call *c)
{
	struct rocedp_probe_port pp = { 0 };
	const char *dev = c->argv[0], *role = c->argv[1];
	unsigned long band = 0;
	unsigned int ifindex;
	struct rd_maps m;
	char *end;
	int err;

	if (!strcmp(role, "fabric"))
		pp.flags = ROCEDP_PROBE_PORT_FABRIC;
	else if (strcmp(role, "host"))
		return cli_usage_err(c, "%s: '%s' is not fabric or host", dev,
				     role);
	if (c->argc == 3 || (c->argc == 4 && strcmp(c->argv[2], "band")))
		return cli_usage_err(c, "%s: expected band N", dev);
	if (c->argc == 4) {
		errno = 0;
		band = strtoul(c->argv[3], &end, 10);
		if (errno || *end || !*c->argv[3] || band > 7)
			return cli_usage_err(c, "band: '%s' is not 0..7",
					     c->argv[3]);
	}
	pp.band_floor = band;
	ifindex = if_nametoindex(dev);
	if (!ifindex) {
		rd_err(dev, "no such interface");
		return CLI_FAIL;
	}
	if (cli_maps_open(&m, "paths"))
		return CLI_FAIL;
	err = rd_probe_port_write(&m, ifindex, &pp);
	rd_maps_close(&m);
	if (err == -E2BIG)
		rd_err(dev, RD_PORT_SLOTS_ERR, ifindex, ROCEDP_PORT_SLOTS);
	else if (err)
		rd_err(dev, "writing rd_probe_port: %s", strerror(-err));
	return err ? CLI_FAIL : CLI_OK;
}

static int parse_prefix4(const char *s, __u32 *addr, __u8 *plen)
{
	char buf[32], *slash, *end;
	unsigned long l = 32;
	struct in_addr a;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash++ = 0;
		errno = 0;
		l = strtoul(slash, &end, 10);
		if (errno || *end || !*slash || l > 32)
			return -EINVAL;
	}
	if (inet_pton(AF_INET, buf, &a) != 1)
		return -EINVAL;
	*addr = a.s_addr;
	*plen = l;
	return 0;
}

int cmd_paths_leaf(const struct cli_call *c)
{
	const char *pfx = c->argv[0], *v = c->argv[1];
	unsigned long leaf = 0;
	struct rd_maps m;
	__u32 addr;
	__u8 plen;
	char *end;
	int err;

	if (parse_prefix4(pfx, &addr, &plen))
		return cli_usage_err(c, "'%s' is not an IPv4 prefix", pfx);
	if (strcmp(v, "delete")) {
		errno = 0;
		leaf = strtoul(v, &end, 0);
		if (errno || *end || !*v || *v == '-' || leaf > 0xffff)
			return cli_usage_err(c, "'%s' is not a leaf id", v);
	}
	if (cli_maps_open(&m, "paths"))
		return CLI_FAIL;
	err = strcmp(v, "delete") ? rd_leaf4_set(&m, addr, plen, leaf) :
				    rd_leaf4_del(&m, addr, plen);
	rd_maps_close(&m);
	if (err)
		rd_err(pfx, "writing rd_leaf4: %s", strerror(-err));
	return err ? CLI_FAIL : CLI_OK;
}

int cmd_paths_clear(const struct cli_call *c)
{
	struct rd_maps m;
	int err;

	if (cli_maps_open(&m, "paths"))
		return CLI_FAIL;
	err = rd_pathq_clear(&m);
	rd_maps_close(&m);
	if (err)
		rd_err("paths", "clearing rd_pathq: %s", strerror(-err));
	return err ? CLI_FAIL : CLI_OK;
}

/* Wire share of one uplink: a probe per remote leaf each interval. */
static void report_rate(const struct rd_probe_sender *s,
			const struct rocedp_probe_cfg *pc)
{
	double bps = (double)s->n_leaves * RD_PROBE_WIRE_BYTES * 8 * 1e6 /
		     pc->interval_us;

	printf("paths send: %u remote leaves over %u (leaf, uplink) pairs, "
	       "every %u us: %.0f bit/s per uplink (%.4f%% of 10 Gbit/s, "
	       "%.5f%% of 100 Gbit/s)\n",
	       s->n_leaves, s->n, pc->interval_us, bps, bps / 1e8, bps / 1e9);
	fflush(stdout);
}

int cmd_paths_send(const struct cli_call *c)
{
	const char *src = cli_val(c, "src"), *cv = cli_val(c, "count");
	unsigned long count = 0, rounds = 0;
	struct rd_probe_sender s;
	struct rocedp_probe_cfg pc;
	struct timespec next;
	struct in_addr a;
	__u64 refresh = 0, now;
	struct rd_maps m;
	char *end;
	int err, ret = CLI_FAIL;

	if (!src || inet_pton(AF_INET, src, &a) != 1)
		return cli_usage_err(c, "--src: '%s' is not an IPv4 address",
				     src ?: "");
	if (cv) {
		errno = 0;
		count = strtoul(cv, &end, 10);
		if (errno || *end || !*cv || *cv == '-' || !count)
			return cli_usage_err(c, "--count: '%s' is not a count",
					     cv);
	}
	if (cli_maps_open(&m, "paths"))
		return CLI_FAIL;
	err = rd_probe_cfg_read(&m, &pc);
	if (!err && pc.role != ROCEDP_PROBE_ROLE_LEAF) {
		rd_err("paths",
		       "send: this switch's role is %s, not leaf "
		       "(rocedp paths set role leaf)",
		       rd_probe_role_name(pc.role));
		rd_maps_close(&m);
		return CLI_FAIL;
	}
	if (!err)
		err = rd_probe_sender_open(&s);
	if (err) {
		rd_err("paths", "send: %s", strerror(-err));
		rd_maps_close(&m);
		return CLI_FAIL;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop_sig) {
		now = mono_ns();
		/* routes and members move: the destinations once a second */
		if (now >= refresh) {
			err = rd_probe_sender_dests(&s, &m, &pc,
						    ntohl(a.s_addr));
			if (err) {
				rd_err("paths",
				       "send: reading the leaf map "
				       "and routes: %s",
				       strerror(-err));
				goto out;
			}
			if (!refresh)
				report_rate(&s, &pc);
			refresh = now + 1000000000ull;
		}
		rd_probe_sender_round(&s, &pc, now);
		if (count && ++rounds >= count)
			break;
		next.tv_nsec += (long)pc.interval_us * 1000;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		/* behind by more than a round (descheduled): no burst to
		 * catch up, the next round one interval from now */
		if ((__u64)next.tv_sec * 1000000000ull + next.tv_nsec +
			    (__u64)pc.interval_us * 1000 <
		    mono_ns())
			clock_gettime(CLOCK_MONOTONIC, &next);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("paths send: %llu probes, %llu bytes, %llu not sent\n",
	       (unsigned long long)s.sent, (unsigned long long)s.bytes,
	       (unsigned long long)s.errors);
	ret = s.errors && !s.sent ? CLI_FAIL : CLI_OK;
out:
	rd_probe_sender_close(&s);
	rd_maps_close(&m);
	return ret;
}
