// SPDX-License-Identifier: GPL-2.0
/*
 * `rocedp paths`: the path quality a leaf keeps per remote leaf and
 * uplink (rd_pathq, filled by accepted probes), with each entry's age,
 * and the probe counters. Read only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "paths.h"
#include "probew.h"
#include "probes.h"
#include "escape.h"

const char *const rd_probe_ctr_names[ROCEDP_PROBE_CTR_MAX] = {
	[ROCEDP_PROBE_CTR_SEEN] = "seen",
	[ROCEDP_PROBE_CTR_ACCEPTED] = "accepted",
	[ROCEDP_PROBE_CTR_FORWARDED] = "forwarded",
	[ROCEDP_PROBE_CTR_HOST_PORT] = "host_port",
	[ROCEDP_PROBE_CTR_MALFORMED] = "malformed",
	[ROCEDP_PROBE_CTR_BAD_AUTH] = "bad_auth",
	[ROCEDP_PROBE_CTR_REPLAY] = "replay",
	[ROCEDP_PROBE_CTR_STALE] = "stale",
	[ROCEDP_PROBE_CTR_HOPS] = "hops",
	[ROCEDP_PROBE_CTR_SELF] = "self",
	[ROCEDP_PROBE_CTR_TABLE_FULL] = "table_full",
	[ROCEDP_PROBE_CTR_STEERED] = "steered",
};

static int row_cmp(const void *a, const void *b)
{
	const struct rd_path_row *x = a, *y = b;

	if (x->leaf != y->leaf)
		return x->leaf < y->leaf ? -1 : 1;
	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

static int read_ctr(const struct rd_maps *m, struct rocedp_probe_stats *sum)
{
	int ncpu = libbpf_num_possible_cpus(), c, i;
	struct rocedp_probe_stats *v;
	__u32 k = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(m->fd[RD_MAP_PROBE_STATS], &k, v)) {
		i = -errno;
		free(v);
		return i;
	}
	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < ncpu; c++)
		for (i = 0; i < ROCEDP_PROBE_CTR_MAX; i++)
			sum->ctr[i] += v[c].ctr[i];
	free(v);
	return 0;
}

int rd_paths_read(const struct rd_maps *m, __u64 now_ns, struct rd_paths *p)
{
	struct rocedp_pathq_key k, next, *prev = NULL;
	int fd = m->fd[RD_MAP_PATHQ], err;
	size_t cap = 0;
	__u64 tmo;

	memset(p, 0, sizeof(*p));
	p->now_ns = now_ns;
	err = rd_probe_cfg_read(m, &p->cfg);
	if (!err)
		err = read_ctr(m, &p->ctr);
	if (err)
		return err;
	tmo = (__u64)p->cfg.timeout_us * 1000;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		struct rd_path_row *r;

		k = next;
		prev = &k;
		if (rd_grow((void **)&p->rows, p->n, &cap, sizeof(*p->rows),
			    16)) {
			rd_paths_free(p);
			return -ENOMEM;
		}
		r = &p->rows[p->n];
		memset(r, 0, sizeof(*r));
		if (bpf_map_lookup_elem(fd, &k, &r->e))
			continue; /* deleted meanwhile */
		r->leaf = k.leaf;
		r->ifindex = k.ifindex;
		r->age_ns = now_ns > r->e.last_ns ? now_ns - r->e.last_ns : 0;
		r->band = r->e.last_ns && r->age_ns <= tmo ?
				  r->e.band :
				  ROCEDP_PROBE_BAND_FAILED;
		p->n++;
	}
	if (p->n)
		qsort(p->rows, p->n, sizeof(*p->rows), row_cmp);
	return 0;
}

void rd_paths_free(struct rd_paths *p)
{
	free(p->rows);
	p->rows = NULL;
	p->n = 0;
}

static void band_text(__u32 band, char *buf, size_t len)
{
	if (band >= ROCEDP_PROBE_BAND_FAILED)
		snprintf(buf, len, "failed");
	else
		snprintf(buf, len, "%u", band);
}

void rd_paths_text(FILE *f, const struct rd_paths *p)
{
	char dev[RD_ESC_IFNAME], b[16];
	unsigned int i;

	fprintf(f,
		"role %s, leaf id %u, probe port %u, timeout %u us, "
		"interval %u us, steer %s\n",
		rd_probe_role_name(p->cfg.role), p->cfg.leaf_id,
		p->cfg.udp_port, p->cfg.timeout_us, p->cfg.interval_us,
		p->cfg.flags & ROCEDP_PROBEF_STEER ? "on" : "off");
	if (p->n)
		fprintf(f, "%-6s %-16s %-6s %-4s %-5s %-4s %12s %10s %10s\n",
			"LEAF", "UPLINK", "BAND", "OWN", "PROBE", "HOPS",
			"AGE_US", "SEQ", "ACCEPTED");
	for (i = 0; i < p->n; i++) {
		const struct rd_path_row *r = &p->rows[i];

		band_text(r->band, b, sizeof(b));
		fprintf(f,
			"%-6u %-16s %-6s %-4u %-5u %-4u %12llu %10u %10llu\n",
			r->leaf, rd_ifname_esc(r->ifindex, RD_ESC_TERM, dev), b,
			r->e.own_band, r->e.probe_band, r->e.hops,
			(unsigned long long)(r->age_ns / 1000), r->e.seq,
			(unsigned long long)r->e.accepted);
	}
	fprintf(f, "probes:");
	for (i = 0; i < ROCEDP_PROBE_CTR_MAX; i++)
		fprintf(f, " %s %llu", rd_probe_ctr_names[i],
			(unsigned long long)p->ctr.ctr[i]);
	fprintf(f, "\n");
}

void rd_paths_json(FILE *f, const struct rd_paths *p)
{
	char dev[RD_ESC_IFNAME];
	unsigned int i;

	fprintf(f,
		"{\"role\":\"%s\",\"leaf_id\":%u,\"port\":%u,"
		"\"timeout_us\":%u,\"interval_us\":%u,\"steer\":%s,"
		"\"paths\":[",
		rd_probe_role_name(p->cfg.role), p->cfg.leaf_id,
		p->cfg.udp_port, p->cfg.timeout_us, p->cfg.interval_us,
		p->cfg.flags & ROCEDP_PROBEF_STEER ? "true" : "false");
	for (i = 0; i < p->n; i++) {
		const struct rd_path_row *r = &p->rows[i];

		fprintf(f,
			"%s{\"leaf\":%u,\"ifindex\":%u,\"dev\":\"%s\","
			"\"band\":%u,\"failed\":%s,\"own_band\":%u,"
			"\"probe_band\":%u,\"hops\":%u,\"age_us\":%llu,"
			"\"seq\":%u,\"accepted\":%llu}",
			i ? "," : "", r->leaf, r->ifindex,
			rd_ifname_esc(r->ifindex, RD_ESC_JSON, dev), r->band,
			r->band >= ROCEDP_PROBE_BAND_FAILED ? "true" : "false",
			r->e.own_band, r->e.probe_band, r->e.hops,
			(unsigned long long)(r->age_ns / 1000), r->e.seq,
			(unsigned long long)r->e.accepted);
	}
	fprintf(f, "],\"probes\":{");
	for (i = 0; i < ROCEDP_PROBE_CTR_MAX; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", rd_probe_ctr_names[i],
			(unsigned long long)p->ctr.ctr[i]);
	fprintf(f, "}}\n");
}

void rd_paths_prometheus(FILE *f, const struct rd_paths *p)
{
	char dev[RD_ESC_IFNAME];
	unsigned int i;

	fprintf(f, "# HELP rocedp_path_band Path quality per remote leaf and "
		   "uplink: 0 idle .. 7 full, 8 failed (no probe within the "
		   "timeout).\n# TYPE rocedp_path_band gauge\n");
	for (i = 0; i < p->n; i++)
		fprintf(f, "rocedp_path_band{leaf=\"%u\",port=\"%s\"} %u\n",
			p->rows[i].leaf,
			rd_ifname_esc(p->rows[i].ifindex, RD_ESC_PROM, dev),
			p->rows[i].band);
	fprintf(f, "# HELP rocedp_path_age_seconds Time since the last probe "
		   "of the path.\n# TYPE rocedp_path_age_seconds gauge\n");
	for (i = 0; i < p->n; i++)
		fprintf(f,
			"rocedp_path_age_seconds{leaf=\"%u\",port=\"%s\"} "
			"%.6f\n",
			p->rows[i].leaf,
			rd_ifname_esc(p->rows[i].ifindex, RD_ESC_PROM, dev),
			p->rows[i].age_ns / 1e9);
	fprintf(f, "# HELP rocedp_probes_total Path-quality probes by "
		   "outcome.\n# TYPE rocedp_probes_total counter\n");
	for (i = 0; i < ROCEDP_PROBE_CTR_MAX; i++)
		fprintf(f, "rocedp_probes_total{outcome=\"%s\"} %llu\n",
			rd_probe_ctr_names[i],
			(unsigned long long)p->ctr.ctr[i]);
}
