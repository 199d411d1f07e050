// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp routes [--table N]: the RIB, as `show ip route` shows zebra's:
 * every route of every source with its distance and metric, the one
 * selected per prefix (>), and whether the route maps hold that choice
 * (*). Routes the maps hold that no source has are listed too (F).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>
#include "cli.h"
#include "commands.h"
#include "escape.h"
#include "util.h"
#include "rib_read.h"

struct show {
	const struct rd_rib_fib *fib;
	unsigned int n_fib;
	bool *fib_seen; /* per fib entry: some RIB route names its prefix */
	bool *fib_claimed; /* per fib entry: a RIB route was shown with it */
	unsigned long n;
};

/* The installed entry is this route's: owner by the STATIC flag. */
static bool fib_has(const struct rd_rib_fib *f, const struct rd_rib_route *rt)
{
	bool is_static = f->val.flags & ROCEDP_ROUTEF_STATIC;

	if (is_static != (rt->src != RD_RIB_KERNEL))
		return false;
	if (rt->flags & ROCEDP_ROUTEF_LOCAL)
		return f->val.flags & ROCEDP_ROUTEF_LOCAL;
	return !(f->val.flags & ROCEDP_ROUTEF_LOCAL) &&
	       (rt->src == RD_RIB_KERNEL || f->val.group_id == rt->group_id);
}

static char src_code(const struct rd_rib_route *rt)
{
	return rt->src == RD_RIB_CONFIG ? 'C' :
	       rt->src == RD_RIB_SONIC	? 'S' :
					  'K';
}

static void hop_text(const struct rd_hop *h, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN], dev[RD_ESC_IFNAME];
	int o = 0;

	if (h->family) {
		inet_ntop(h->family, h->gw, a, sizeof(a));
		o = snprintf(buf, len, "via %s", a);
	}
	if (h->ifindex && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - o, "%sdev %s", o ? " " : "",
			 rd_ifname_esc(h->ifindex, RD_ESC_TERM, dev));
	else if (!o)
		snprintf(buf, len, "-");
}

static void print_text(const struct rd_rib_route *rt, bool sel, bool in_fib,
		       const char *pfx)
{
	char h[128];
	int i;

	printf("%c%c%c %s [%u/%u]", src_code(rt), sel ? '>' : ' ',
	       in_fib ? '*' : ' ', pfx, rt->distance, rt->metric);
	if (rt->src == RD_RIB_KERNEL)
		printf(" %s", rd_rib_proto_name(rt));
	if (rt->group_id)
		printf(" group %u", rt->group_id);
	if (rt->nh_id)
		printf(" nhid %u", rt->nh_id);
	for (i = 0; i < rt->n_hops; i++) {
		hop_text(&rt->hops[i], h, sizeof(h));
		printf("%s %s", i ? "," : "", h);
	}
	if (rt->n_hops_all > rt->n_hops)
		printf(" (+%u)", rt->n_hops_all - rt->n_hops);
	if (rt->flags & ROCEDP_ROUTEF_LOCAL)
		printf(" (to the kernel)");
	if (rt->table && rt->table != RT_TABLE_MAIN)
		printf(" table %u", rt->table);
	printf("\n");
}

static void print_json(const struct rd_rib_route *rt, bool sel, bool in_fib,
		       const char *pfx, unsigned long n)
{
	char a[INET6_ADDRSTRLEN], dev[RD_ESC_IFNAME];
	int i;

	printf("%s{\"prefix\":\"%s\",\"source\":\"%s\",\"protocol\":\"%s\","
	       "\"distance\":%u,\"metric\":%u,\"table\":%u,\"selected\":%s,"
	       "\"fib\":%s,\"local\":%s,\"group\":%u,\"nhid\":%u,"
	       "\"nexthops_total\":%u,\"nexthops\":[",
	       n ? "," : "", pfx, rd_rib_src_name(rt->src),
	       rd_rib_proto_name(rt), rt->distance, rt->metric, rt->table,
	       sel ? "true" : "false", in_fib ? "true" : "false",
	       rt->flags & ROCEDP_ROUTEF_LOCAL ? "true" : "false", rt->group_id,
	       rt->nh_id, rt->n_hops_all);
	for (i = 0; i < rt->n_hops; i++) {
		const struct rd_hop *h = &rt->hops[i];

		printf("%s{\"ifindex\":%u,\"dev\":\"%s\",\"weight\":%u",
		       i ? "," : "", h->ifindex,
		       h->ifindex ?
			       rd_ifname_esc(h->ifindex, RD_ESC_JSON, dev) :
			       "",
		       h->weight);
		if (h->family) {
			inet_ntop(h->family, h->gw, a, sizeof(a));
			printf(",\"gateway\":\"%s\"", a);
		}
		printf("}");
	}
	printf("]}");
}

static int show_route(const struct rd_rib_route *rt, bool sel, void *ctx)
{
	struct show *s = ctx;
	const struct rd_rib_fib *f;
	char a[INET6_ADDRSTRLEN], pfx[INET6_ADDRSTRLEN + 4];
	bool in_fib = false;

	inet_ntop(rt->family, rt->addr, a, sizeof(a));
	snprintf(pfx, sizeof(pfx), "%s/%u", a, rt->plen);
	f = rd_rib_fib_find(s->fib, s->n_fib, rt->family, rt->plen, rt->addr);
	if (f) {
		/* one entry per prefix: the first route it matches has it */
		s->fib_seen[f - s->fib] = true;
		in_fib = !s->fib_claimed[f - s->fib] && fib_has(f, rt);
		if (in_fib)
			s->fib_claimed[f - s->fib] = true;
	}
	if (rd_json)
		print_json(rt, sel, in_fib, pfx, s->n);
	else
		print_text(rt, sel, in_fib, pfx);
	s->n++;
	return 0;
}

/* An installed route no source has (a sync of another table, gone since). */
static void show_orphan(struct show *s, const struct rd_rib_fib *f)
{
	char a[INET6_ADDRSTRLEN];
	const char *owner = f->val.flags & ROCEDP_ROUTEF_STATIC ? "config" :
								  "sync";
	bool local = f->val.flags & ROCEDP_ROUTEF_LOCAL;

	inet_ntop(f->family, f->addr, a, sizeof(a));
	if (rd_json)
		printf("%s{\"prefix\":\"%s/%u\",\"source\":\"fib\","
		       "\"written_by\":\"%s\",\"selected\":false,\"fib\":true,"
		       "\"local\":%s,\"group\":%u}",
		       s->n ? "," : "", a, f->plen, owner,
		       local ? "true" : "false", local ? 0 : f->val.group_id);
	else if (local)
		printf("F * %s/%u written by %s, no source has it (to the kernel)\n",
		       a, f->plen, owner);
	else
		printf("F * %s/%u written by %s, no source has it: group %u\n",
		       a, f->plen, owner, f->val.group_id);
	s->n++;
}

int cmd_routes(const struct cli_call *c)
{
	const char *tv = cli_val(c, "table");
	struct show s = { 0 };
	struct rd_rib_fib *fib = NULL;
	struct rd_rib *rib = NULL;
	unsigned long table = RT_TABLE_MAIN;
	unsigned int i;
	struct rd_maps m;
	char *end;
	int err, ret = CLI_FAIL;

	if (tv) {
		errno = 0;
		table = strtoul(tv, &end, 10);
		if (*end || !*tv || *tv == '-' || errno || !table ||
		    table > UINT32_MAX)
			return cli_usage_err(
				c, "--table: '%s' is not a table id", tv);
	}
	if (cli_maps_open(&m, "routes"))
		return CLI_FAIL;
	rib = rd_rib_new();
	if (!rib) {
		err = -ENOMEM;
		rd_err("routes", "%s", strerror(-err));
		goto out;
	}
	err = rd_rib_read_config(rib, &m);
	if (err) {
		rd_err("routes",
		       "reading the config's routes from the maps: %s",
		       strerror(-err));
		goto out;
	}
	err = rd_rib_read_kernel(rib, table, true);
	if (err) {
		rd_err("routes", "reading the kernel's table %lu: %s", table,
		       strerror(-err));
		goto out;
	}
	err = rd_rib_read_fib(&m, &fib, &s.n_fib);
	if (err) {
		rd_err("routes", "reading rd_routes4/6: %s", strerror(-err));
		goto out;
	}
	s.fib = fib;
	s.fib_seen = calloc(s.n_fib + 1, sizeof(*s.fib_seen));
	s.fib_claimed = calloc(s.n_fib + 1, sizeof(*s.fib_claimed));
	if (!s.fib_seen || !s.fib_claimed) {
		rd_err("routes", "%s", strerror(ENOMEM));
		goto out;
	}
	if (rd_json)
		printf("[");
	else
		printf("Codes: C config, S sonic, K kernel, F only in the maps;\n"
		       "       > selected, * the route maps hold it\n\n");
	rd_rib_walk(rib, show_route, &s);
	for (i = 0; i < s.n_fib; i++)
		if (!s.fib_seen[i])
			show_orphan(&s, &fib[i]);
	if (rd_json)
		printf("]\n");
	ret = CLI_OK;
out:
	free(s.fib_seen);
	free(s.fib_claimed);
	free(fib);
	rd_rib_free(rib);
	rd_maps_close(&m);
	return ret;
}
