/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture runner's probe keys (tests/fixtures/README.md, docs/paths.md):
 * probe_set, probe_port and probe_band set up a run; probe and pathq check
 * the probe counters and the path-quality table after it. Included by
 * tests/fixture_runner.c only.
 */
#ifndef ROCEDP_FIXTURE_PROBE_H
#define ROCEDP_FIXTURE_PROBE_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "engine.h"
#include "paths.h"
#include "probes.h"
#include "probew.h"
#include "tap.h"

/* The probe counters summed over CPUs; zero when they cannot be read. */
static void fxp_ctr(struct rd_engine *e, struct rocedp_probe_stats *s)
{
	struct rd_paths p;

	memset(s, 0, sizeof(*s));
	if (!e || rd_paths_read(rd_engine_maps(e), 0, &p))
		return;
	*s = p.ctr;
	rd_paths_free(&p);
}

/* leaf: "PREFIX ID", the rd_leaf4 entry (IPv4) */
static int fxp_leaf(struct rd_engine *e, const char *leaf)
{
	unsigned int a, b, c, d, plen, id;

	if (sscanf(leaf, "%u.%u.%u.%u/%u %u", &a, &b, &c, &d, &plen, &id) != 6)
		return -EINVAL;
	return rd_leaf4_set(rd_engine_maps(e),
			    htonl(a << 24 | b << 16 | c << 8 | d), plen, id);
}

/*
 * set: `rocedp paths set` words from the defaults (NULL: leave); port:
 * fabric, host or none for ifindex (NULL: leave), band its floor.
 */
static int fxp_apply(struct rd_engine *e, const char *set, const char *port,
		     const char *band, unsigned long ifindex)
{
	struct rocedp_probe_port pp = { 0 };
	char buf[512], *words[32], why[128], *tok, *save, *end;
	struct rocedp_probe_cfg pc;
	unsigned long b = 0;
	int n = 0, err;

	if (set) {
		snprintf(buf, sizeof(buf), "%s", set);
		for (tok = strtok_r(buf, " ", &save); tok && n < 32;
		     tok = strtok_r(NULL, " ", &save))
			words[n++] = tok;
		rd_probe_cfg_defaults(&pc);
		err = n % 2 ? -EINVAL : 0;
		for (int i = 0; i + 1 < n && !err; i += 2)
			err = rd_probe_cfg_set(&pc, words[i], words[i + 1], why,
					       sizeof(why));
		if (!err)
			err = rd_probe_cfg_check(&pc, why, sizeof(why));
		if (!err)
			err = rd_probe_cfg_write(rd_engine_maps(e), &pc);
		if (err)
			return err;
	}
	if (!port)
		return 0;
	if (band) {
		errno = 0;
		b = strtoul(band, &end, 0);
		if (errno || *end || !*band || b > 7)
			return -EINVAL;
	}
	if (!strcmp(port, "fabric"))
		pp.flags = ROCEDP_PROBE_PORT_FABRIC;
	else if (strcmp(port, "host") && strcmp(port, "none"))
		return -EINVAL;
	pp.band_floor = b;
	return rd_probe_port_write(rd_engine_maps(e), ifindex, &pp);
}

/* probe: OUTCOME, the one outcome counter this run moved (none: no probe) */
static void fxp_check_probe(struct rd_engine *e,
			    const struct rocedp_probe_stats *before,
			    const char *val, const char *name, const char *hook)
{
	struct rocedp_probe_stats now;
	__u64 d[ROCEDP_PROBE_CTR_MAX];
	int i, want = -1, moved = 0;
	char got[160] = "";

	fxp_ctr(e, &now);
	for (i = 0; i < ROCEDP_PROBE_CTR_MAX; i++) {
		d[i] = now.ctr[i] - before->ctr[i];
		if (!strcmp(rd_probe_ctr_names[i], val))
			want = i;
		if (i != ROCEDP_PROBE_CTR_SEEN && d[i]) {
			moved++;
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 " %s+%llu", rd_probe_ctr_names[i],
				 (unsigned long long)d[i]);
		}
	}
	if (want == ROCEDP_PROBE_CTR_STEERED) /* a data frame's choice */
		result(moved == 1 && d[want] == 1 && !d[ROCEDP_PROBE_CTR_SEEN],
		       "%s[%s]: probe %s (seen+%llu%s)", name, hook, val,
		       (unsigned long long)d[ROCEDP_PROBE_CTR_SEEN], got);
	else if (!strcmp(val, "none"))
		result(!moved && !d[ROCEDP_PROBE_CTR_SEEN],
		       "%s[%s]: probe none (seen+%llu%s)", name, hook,
		       (unsigned long long)d[ROCEDP_PROBE_CTR_SEEN], got);
	else
		result(want > 0 && moved == 1 && d[want] == 1 &&
			       d[ROCEDP_PROBE_CTR_SEEN] == 1,
		       "%s[%s]: probe %s (seen+%llu%s)", name, hook, val,
		       (unsigned long long)d[ROCEDP_PROBE_CTR_SEEN], got);
}

/* pathq: LEAF IFINDEX BAND SEQ, the rd_pathq entry after the run */
static void fxp_check_pathq(struct rd_engine *e, const char *val,
			    const char *name, const char *hook)
{
	struct rocedp_pathq_key k = { 0 };
	struct rocedp_pathq q = { 0 };
	unsigned int band, seq;
	int fd;

	if (sscanf(val, "%u %u %u %u", &k.leaf, &k.ifindex, &band, &seq) != 4) {
		result(false, "%s[%s]: pathq: bad value '%s'", name, hook, val);
		return;
	}
	fd = rd_engine_maps(e)->fd[RD_MAP_PATHQ];
	if (bpf_map_lookup_elem(fd, &k, &q)) {
		result(false, "%s[%s]: pathq %s: no entry", name, hook, val);
		return;
	}
	result(q.band == band && q.seq == seq,
	       "%s[%s]: pathq %s (band %u seq %u)", name, hook, val, q.band,
	       q.seq);
}

#endif
