// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp flows [--limit N]: the flowlet table (rd_flowlets), one flow a
 * line: its member, frames, flowlets, moves and how long it has been idle.
 * The table is an array of sets of ways (rocedp_abi.h); a way whose
 * family is 0 is empty or being written, and is skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include "commands.h"
#include "cli.h"
#include "util.h"
static void addr_str(const struct rocedp_flow_key *k, const __u32 *a, char *buf,
		     size_t len)
{
	inet_ntop(k->family == 6 ? AF_INET6 : AF_INET, a, buf, len);
}

/* One flow, the n-th printed (JSON needs the separator). */
static void flow_print(const struct rocedp_flowlet_way *w, __u64 now,
		       unsigned long n)
{
	const struct rocedp_flow_key key = w->key;
	const struct rocedp_flowlet fl = w->fl;
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];

	addr_str(&key, key.src, s, sizeof(s));
	addr_str(&key, key.dst, d, sizeof(d));
	if (rd_json) {
		printf("%s{\"src\":\"%s\",\"dst\":\"%s\",\"roce\":%s,"
		       "\"%s\":%u,\"group\":%u,\"member\":%u,"
		       "\"pkts\":%llu,\"flowlets\":%llu,\"moves\":%llu,"
		       "\"idle_ns\":%llu}",
		       n ? "," : "", s, d,
		       key.proto == ROCEDP_FLOW_PROTO_ROCE ? "true" : "false",
		       key.proto == ROCEDP_FLOW_PROTO_ROCE ? "dest_qp" :
							     "ports",
		       key.l4, fl.group_id, fl.slot,
		       (unsigned long long)fl.pkts,
		       (unsigned long long)fl.flowlets,
		       (unsigned long long)fl.moves,
		       (unsigned long long)(now > fl.last_ns ?
						    now - fl.last_ns :
						    0));
	} else {
		char l4[24];

		if (key.proto == ROCEDP_FLOW_PROTO_ROCE)
			snprintf(l4, sizeof(l4), "qp 0x%x", key.l4);
		else
			snprintf(l4, sizeof(l4), "%u>%u", key.l4 >> 16,
				 key.l4 & 0xffff);
		printf("%-39s %-39s %-12s %5u %4u %10llu %8llu %6llu %10llu\n",
		       s, d, l4, fl.group_id, fl.slot,
		       (unsigned long long)fl.pkts,
		       (unsigned long long)fl.flowlets,
		       (unsigned long long)fl.moves,
		       (unsigned long long)(now > fl.last_ns ?
						    (now - fl.last_ns) / 1000 :
						    0));
	}
}

/* Sets read per syscall: 64 of 384 bytes. */
#define FLOWS_BATCH 64

struct flows_walk {
	__u64 now;
	unsigned long limit, n;
};

/* The live ways of one set; 1 stops the walk at the limit. */
static int flows_set(const void *value, void *ctx)
{
	const struct rocedp_flowlet_set *set = value;
	struct flows_walk *fw = ctx;
	unsigned int wi;

	for (wi = 0; wi < ROCEDP_FLOWLET_WAYS; wi++) {
		if (fw->n >= fw->limit)
			return 1;
		if (!set->way[wi].key.family)
			continue; /* empty, or being written */
		flow_print(&set->way[wi], fw->now, fw->n++);
	}
	return 0;
}

int cmd_flows(const struct cli_call *c)
{
	const char *limit = cli_val(c, "limit");
	struct flows_walk fw = { .limit = ~0ul };
	struct rd_maps m;
	struct timespec ts;
	char *end;
	int err;

	if (limit) {
		fw.limit = strtoul(limit, &end, 10);
		if (*end || !*limit || *limit == '-')
			return cli_usage_err(c, "--limit: '%s' is not a number",
					     limit);
	}
	if (cli_maps_open(&m, "flows"))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fw.now = ts.tv_sec * 1000000000ull + ts.tv_nsec;
	if (rd_json)
		printf("[");
	else
		printf("%-39s %-39s %-12s %5s %4s %10s %8s %6s %10s\n", "src",
		       "dst", "qp/ports", "group", "slot", "pkts", "flowlets",
		       "moves", "idle_us");
	err = rd_array_each(m.fd[RD_MAP_FLOWLETS],
			    sizeof(struct rocedp_flowlet_set), FLOWS_BATCH,
			    flows_set, &fw);
	if (rd_json)
		printf("]\n");
	rd_maps_close(&m);
	if (err < 0) {
		rd_err("flows", "reading rd_flowlets: %s", strerror(-err));
		return 1;
	}
	return 0;
}
