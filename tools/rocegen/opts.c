// SPDX-License-Identifier: GPL-2.0
/* rocegen's command line: options, defaults, usage (opts.h). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"
#include "log.h"

void rg_usage(FILE *f)
{
	fprintf(f,
		"usage: rocegen send  [--dev IF] [--src IP] --dst IP[,IP...] [--dmac MAC]\n"
		"                     [--qps Q] [--msg BYTES] [--count N] [--mtu M] [--rate MBPS]\n"
		"                     [--sport P] [--dscp D] [--ecn on|off] [--window PKTS]\n"
		"                     [--rto US] [--retries N] [--dcqcn-timer US] [--dcqcn-g G]\n"
		"                     [--qpn-base N] [--timeout S] [--drop-every K] [--ce-every K] [-j]\n"
		"       rocegen serve [--dev IF] [--ack-every N] [--ack-delay US] [--cnp-interval US]\n"
		"                     [--cnp-dscp D|copy] [--ack-dscp D|copy] [--duration S]\n"
		"                     [--idle S] [--ready FILE] [-j]\n"
		"       rocegen run   --pattern ring|alltoall|incast --hosts NAME=NETNS:IP,...|@FILE\n"
		"                     [--sink NAME] [send and serve options] [-j]\n"
		"See docs/rocegen.md.\n");
}

enum {
	O_DEV = 256,
	O_SRC,
	O_DST,
	O_DMAC,
	O_QPS,
	O_MSG,
	O_COUNT,
	O_MTU,
	O_RATE,
	O_SPORT,
	O_DSCP,
	O_ECN,
	O_WINDOW,
	O_RTO,
	O_RETRIES,
	O_DCQCN_TIMER,
	O_DCQCN_G,
	O_QPN_BASE,
	O_TIMEOUT,
	O_DROP_EVERY,
	O_CE_EVERY,
	O_ACK_EVERY,
	O_ACK_DELAY,
	O_CNP_INTERVAL,
	O_CNP_DSCP,
	O_ACK_DSCP,
	O_DURATION,
	O_IDLE,
	O_READY,
	O_PATTERN,
	O_HOSTS,
	O_SINK,
};

static const struct option rg_longopts[] = {
	{ "dev", required_argument, NULL, O_DEV },
	{ "src", required_argument, NULL, O_SRC },
	{ "dst", required_argument, NULL, O_DST },
	{ "dmac", required_argument, NULL, O_DMAC },
	{ "qps", required_argument, NULL, O_QPS },
	{ "msg", required_argument, NULL, O_MSG },
	{ "count", required_argument, NULL, O_COUNT },
	{ "mtu", required_argument, NULL, O_MTU },
	{ "rate", required_argument, NULL, O_RATE },
	{ "sport", required_argument, NULL, O_SPORT },
	{ "dscp", required_argument, NULL, O_DSCP },
	{ "ecn", required_argument, NULL, O_ECN },
	{ "window", required_argument, NULL, O_WINDOW },
	{ "rto", required_argument, NULL, O_RTO },
	{ "retries", required_argument, NULL, O_RETRIES },
	{ "dcqcn-timer", required_argument, NULL, O_DCQCN_TIMER },
	{ "dcqcn-g", required_argument, NULL, O_DCQCN_G },
	{ "qpn-base", required_argument, NULL, O_QPN_BASE },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "drop-every", required_argument, NULL, O_DROP_EVERY },
	{ "ce-every", required_argument, NULL, O_CE_EVERY },
	{ "ack-every", required_argument, NULL, O_ACK_EVERY },
	{ "ack-delay", required_argument, NULL, O_ACK_DELAY },
	{ "cnp-interval", required_argument, NULL, O_CNP_INTERVAL },
	{ "cnp-dscp", required_argument, NULL, O_CNP_DSCP },
	{ "ack-dscp", required_argument, NULL, O_ACK_DSCP },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "idle", required_argument, NULL, O_IDLE },
	{ "ready", required_argument, NULL, O_READY },
	{ "pattern", required_argument, NULL, O_PATTERN },
	{ "hosts", required_argument, NULL, O_HOSTS },
	{ "sink", required_argument, NULL, O_SINK },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Integer with an optional K/M/G (x1024) suffix, within [lo, hi]. */
static int rg_num(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		  uint64_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	if (*s == '-')
		goto bad;
	n = strtoull(s, &end, 0);
	if (errno || end == s)
		goto bad;
	switch (*end) {
	case 'k':
	case 'K':
		n <<= 10;
		end++;
		break;
	case 'm':
	case 'M':
		n <<= 20;
		end++;
		break;
	case 'g':
	case 'G':
		n <<= 30;
		end++;
		break;
	}
	if (*end)
		goto bad;
	if (n < lo || n > hi) {
		rg_err(opt, "%s: must be between %" PRIu64 " and %" PRIu64, s,
		       lo, hi);
		return -ERANGE;
	}
	*v = n;
	return 0;
bad:
	rg_err(opt, "%s: not a number", s);
	return -EINVAL;
}

static int rg_real(const char *opt, const char *s, double lo, double hi,
		   double *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || *end) {
		rg_err(opt, "%s: not a number", s);
		return -EINVAL;
	}
	if (!(d >= lo && d <= hi)) {
		rg_err(opt, "%s: must be between %g and %g", s, lo, hi);
		return -ERANGE;
	}
	*v = d;
	return 0;
}

static int rg_dscp_arg(const char *opt, const char *s, int *v)
{
	uint64_t n;

	if (!strcmp(s, "copy")) {
		*v = -1;
		return 0;
	}
	if (rg_num(opt, s, 0, 63, &n))
		return -EINVAL;
	*v = (int)n;
	return 0;
}

void rg_defaults(struct rg_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->s.qps = 1;
	c->s.msg = 65536;
	c->s.count = 10;
	c->s.rate_mbps = 10000;
	c->s.sport = -1;
	c->s.dscp = 26;
	c->s.ecn = true;
	c->s.window = 256;
	c->s.rto_us = 100000;
	c->s.retries = 7;
	c->s.dcqcn_timer_us = 100;
	c->s.dcqcn_g = 1.0 / 16;
	c->s.qpn_base = 0x100;
	c->s.timeout_s = 60;
	c->r.ack_every = 1;
	c->r.ack_delay_us = 20;
	c->r.cnp_interval_us = 50;
	c->r.cnp_dscp = 48;
	c->r.ack_dscp = -1;
	c->r.ready_fd = -1;
}

static int rg_dev_arg(const char *s, char *dev, int *ifindex)
{
	unsigned int idx;

	if (strlen(s) >= IFNAMSIZ) {
		rg_err("--dev", "%s: name too long", s);
		return -EINVAL;
	}
	idx = if_nametoindex(s);
	if (!idx) {
		rg_err("--dev", "%s: no such interface", s);
		return -ENODEV;
	}
	snprintf(dev, 32, "%s", s);
	*ifindex = (int)idx;
	return 0;
}

int rg_parse_opts(struct rg_cli *c, int argc, char **argv, const char *cmd)
{
	uint64_t n;
	double d;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "jh", rg_longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			c->json = c->s.json = c->r.json = true;
			break;
		case 'h':
			rg_usage(stdout);
			exit(0);
		case O_DEV:
			if (rg_dev_arg(optarg, c->s.dev, &c->s.ifindex))
				return -1;
			memcpy(c->r.dev, c->s.dev, sizeof(c->r.dev));
			c->r.ifindex = c->s.ifindex;
			break;
		case O_SRC:
			if (rg_addr_parse(optarg, &c->s.src)) {
				rg_err("--src",
				       "%s: not an IPv4 or IPv6 address",
				       optarg);
				return -1;
			}
			break;
		case O_DST:
			if (strlen(optarg) >= sizeof(c->dst_list)) {
				rg_err("--dst", "list too long");
				return -1;
			}
			strcpy(c->dst_list, optarg);
			c->have_dst = true;
			break;
		case O_DMAC:
			if (rg_mac_parse(optarg, c->s.dmac)) {
				rg_err("--dmac", "%s: not a MAC address",
				       optarg);
				return -1;
			}
			c->s.dmac_set = true;
			break;
		case O_QPS:
			if (rg_num("--qps", optarg, 1, 4096, &n))
				return -1;
			c->s.qps = (int)n;
			break;
		case O_MSG:
			if (rg_num("--msg", optarg, 1, 1ull << 31, &n))
				return -1;
			c->s.msg = n;
			break;
		case O_COUNT:
			if (rg_num("--count", optarg, 1, 1ull << 32, &n))
				return -1;
			c->s.count = n;
			break;
		case O_MTU:
			if (rg_num("--mtu", optarg, 1, 9000, &n))
				return -1;
			c->s.mtu = (int)n;
			break;
		case O_RATE:
			if (rg_real("--rate", optarg, 1, 1e6, &c->s.rate_mbps))
				return -1;
			break;
		case O_SPORT:
			if (rg_num("--sport", optarg, 0, 65535, &n))
				return -1;
			c->s.sport = (int)n;
			break;
		case O_DSCP:
			if (rg_num("--dscp", optarg, 0, 63, &n))
				return -1;
			c->s.dscp = (int)n;
			break;
		case O_ECN:
			if (strcmp(optarg, "on") && strcmp(optarg, "off")) {
				rg_err("--ecn", "%s: must be on or off",
				       optarg);
				return -1;
			}
			c->s.ecn = !strcmp(optarg, "on");
			break;
		case O_WINDOW:
			if (rg_num("--window", optarg, 1, 1 << 22, &n))
				return -1;
			c->s.window = (int)n;
			break;
		case O_RTO:
			if (rg_num("--rto", optarg, 100, 10000000, &n))
				return -1;
			c->s.rto_us = (int)n;
			break;
		case O_RETRIES:
			if (rg_num("--retries", optarg, 0, 1000, &n))
				return -1;
			c->s.retries = (int)n;
			break;
		case O_DCQCN_TIMER:
			if (rg_num("--dcqcn-timer", optarg, 1, 1000000, &n))
				return -1;
			c->s.dcqcn_timer_us = (int)n;
			break;
		case O_DCQCN_G:
			if (rg_real("--dcqcn-g", optarg, 1e-6, 1, &d))
				return -1;
			c->s.dcqcn_g = d;
			break;
		case O_QPN_BASE:
			if (rg_num("--qpn-base", optarg, 1, 0x400000, &n))
				return -1;
			c->s.qpn_base = (uint32_t)n;
			break;
		case O_TIMEOUT:
			if (rg_real("--timeout", optarg, 0.001, 86400,
				    &c->s.timeout_s))
				return -1;
			break;
		case O_DROP_EVERY:
			if (rg_num("--drop-every", optarg, 2, UINT32_MAX, &n))
				return -1;
			c->s.drop_every = n;
			break;
		case O_CE_EVERY:
			if (rg_num("--ce-every", optarg, 1, UINT32_MAX, &n))
				return -1;
			c->s.ce_every = n;
			break;
		case O_ACK_EVERY:
			if (rg_num("--ack-every", optarg, 1, 65536, &n))
				return -1;
			c->r.ack_every = (int)n;
			break;
		case O_ACK_DELAY:
			if (rg_num("--ack-delay", optarg, 0, 1000000, &n))
				return -1;
			c->r.ack_delay_us = (int)n;
			break;
		case O_CNP_INTERVAL:
			if (rg_num("--cnp-interval", optarg, 0, 1000000, &n))
				return -1;
			c->r.cnp_interval_us = (int)n;
			break;
		case O_CNP_DSCP:
			if (rg_dscp_arg("--cnp-dscp", optarg, &c->r.cnp_dscp))
				return -1;
			break;
		case O_ACK_DSCP:
			if (rg_dscp_arg("--ack-dscp", optarg, &c->r.ack_dscp))
				return -1;
			break;
		case O_DURATION:
			if (rg_real("--duration", optarg, 0.001, 1e7,
				    &c->r.duration_s))
				return -1;
			break;
		case O_IDLE:
			if (rg_real("--idle", optarg, 0.001, 1e7, &c->r.idle_s))
				return -1;
			break;
		case O_READY:
			c->r.ready_file = optarg;
			break;
		case O_PATTERN:
			c->pattern = optarg;
			break;
		case O_HOSTS:
			c->hosts = optarg;
			break;
		case O_SINK:
			c->sink = optarg;
			break;
		default:
			rg_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		rg_err(cmd, "%s: unexpected argument", argv[optind]);
		return -1;
	}
	return 0;
}

/* Split the --dst list into addresses of one family. */
int rg_dst_list(struct rg_cli *c)
{
	char *save = NULL, *tok;
	char buf[sizeof(c->dst_list)];

	strcpy(buf, c->dst_list);
	c->s.ndst = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct rg_addr a;

		if (rg_addr_parse(tok, &a)) {
			rg_err("--dst", "%s: not an IPv4 or IPv6 address", tok);
			return -1;
		}
		if (c->s.ndst && a.v6 != c->s.dst[0].v6) {
			rg_err("--dst", "%s: IPv4 and IPv6 destinations mixed",
			       tok);
			return -1;
		}
		if (c->s.ndst >=
		    (int)(sizeof(c->s.dst) / sizeof(c->s.dst[0]))) {
			rg_err("--dst", "more than 64 destinations");
			return -1;
		}
		c->s.dst[c->s.ndst++] = a;
	}
	if (!c->s.ndst) {
		rg_err("--dst", "no destination given");
		return -1;
	}
	return 0;
}

/*
 * Fill in what the caller left out from the kernel's view: the egress
 * interface and the source address from the route to the first destination.
 */
int rg_send_prepare(struct rg_send_opts *s, bool have_src)
{
	char a[64];
	struct rg_addr src;
	int ifx = s->ifindex, err, mtu, need;

	if (have_src && s->src.v6 != s->dst[0].v6) {
		rg_err("--src", "%s: address family differs from --dst",
		       rg_addr_str(&s->src, a, sizeof(a)));
		return -1;
	}
	if (!s->ifindex || !have_src) {
		err = rg_resolve(&s->dst[0], &ifx, &src, NULL, 0);
		if (err) {
			rg_err(rg_addr_str(&s->dst[0], a, sizeof(a)),
			       "no route%s%s: %s", s->ifindex ? " via " : "",
			       s->ifindex ? s->dev : "", strerror(-err));
			return -1;
		}
		if (!s->ifindex) {
			s->ifindex = ifx;
			if_indextoname((unsigned int)ifx, s->dev);
		}
		if (!have_src)
			s->src = src;
	}
	if (have_src && !rg_is_local(&s->src)) {
		rg_err("--src", "%s: not an address of this host",
		       rg_addr_str(&s->src, a, sizeof(a)));
		return -1;
	}
	mtu = s->mtu ? s->mtu : rg_if_mtu(s->ifindex);
	need = 256 + (s->src.v6 ? RD_FRAME_IP6_LEN : RD_FRAME_IP4_LEN) +
	       RD_FRAME_UDP_LEN + ROCEDP_BTH_LEN + ROCEDP_RETH_LEN +
	       ROCEDP_ICRC_LEN;
	if (mtu > 0 && rg_payload_mtu(mtu, s->src.v6) < 0) {
		rg_err("--mtu", "%d: too small for the headers (needs %d)", mtu,
		       need);
		return -1;
	}
	return 0;
}
