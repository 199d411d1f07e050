/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters a fixture's "counters" line names: the rd_stats block's
 * ("forwarded_packets=1") and SAI's trim counters of a port
 * (rd_trim_stats, abi_trim.h: "trim_packets@2=1", port 2's growth).
 */
#ifndef ROCEDP_FIXTURE_TRIM_H
#define ROCEDP_FIXTURE_TRIM_H

#include <string.h>
#include "rocedp.h"
#include "stats.h"

#define TRIM_PORTS 8 /* the configs' ports are 2..5 */
#define TRIM_N ((int)(sizeof(struct rocedp_trim_stats) / 8))
static const char *const trim_names[TRIM_N] = { "trim_packets",
						"tx_trim_packets",
						"dropped_trim_packets",
						"tail_drop_packets" };

/* the rd_stats block's counters, then the first ports' trim counters */
#define FX_N_CTRS (ROCEDP_CTR_MAX + TRIM_PORTS * TRIM_N)

static int fx_counters_read(const struct rd_maps *m, __u64 *v)
{
	int err = rd_counters_read(m->fd[RD_MAP_STATS], v);
	__u32 k;

	v += ROCEDP_CTR_MAX;
	for (k = 0; k < TRIM_PORTS && !err; k++)
		err = rd_percpu_sum(m->fd[RD_MAP_TRIM_STATS], &k,
				    v + k * TRIM_N, TRIM_N);
	return err;
}

/*
 * A counter by its name, as an index into fx_counters_read's v: the
 * rd_stats block's (stats.c), or "trim_packets@2" for port 2's; -1.
 */
static int fx_counter_idx(const char *name, size_t len)
{
	const char *at = memchr(name, '@', len);
	unsigned int i, port = at ? name[len - 1] - '0' : TRIM_PORTS;

	for (i = ROCEDP_CTR_MISC_BASE; i < ROCEDP_CTR_MAX && !at; i++)
		if (strlen(rd_counter_misc_name(i)) == len &&
		    !strncmp(rd_counter_misc_name(i), name, len))
			return i;
	for (i = 0; i < TRIM_N && at == name + len - 2 && port < TRIM_PORTS;
	     i++)
		if (strlen(trim_names[i]) == (size_t)(at - name) &&
		    !strncmp(trim_names[i], name, at - name))
			return ROCEDP_CTR_MAX + port * TRIM_N + i;
	return -1;
}

#endif
