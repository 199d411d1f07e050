/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Path quality (HULA-style): the probe maps, a port's band (what a frame
 * sent out of it would add to a path), and the table a leaf keeps per
 * remote leaf and uplink (docs/paths.md).
 */
#ifndef ROCEDP_PATHQ_H
#define ROCEDP_PATHQ_H

#include "maps.h"

static __always_inline struct rocedp_probe_cfg *rd_probe_cfg_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&rd_probe_cfg, &zero);
}

static __always_inline void rd_probe_count(__u32 ctr)
{
	struct rocedp_probe_stats *s;
	__u32 zero = 0;

	s = bpf_map_lookup_elem(&rd_probe_stats, &zero);
	if (s && ctr < ROCEDP_PROBE_CTR_MAX)
		s->ctr[ctr]++;
}

/*
 * The band a frame sent out of ifindex would meet: the port's virtual
 * queue (rd_port_state, fed by every frame when ECN runs on the port),
 * drained to now, in eighths of Kmax (Kmax and above: 7), and at least
 * the port's band_floor. A port with no queue model reports its floor.
 * The drain is approximate (bytes ~ ns * rate / 2^33, 7% low): a band is
 * coarse by design.
 */
static __always_inline __u8 rd_port_band(__u32 ifindex, __u64 now)
{
	struct rocedp_probe_port *pp;
	struct rocedp_port_state *st;
	struct rocedp_port_cfg *pc;
	__u64 q, drained, idle;
	__u8 band = 0, qb;

	pp = bpf_map_lookup_elem(&rd_probe_port, &ifindex);
	if (pp)
		band = pp->band_floor;
	pc = bpf_map_lookup_elem(&rd_port_cfg, &ifindex);
	st = rd_port_state_get(ifindex);
	if (!pc || !st || !pc->rate_bps || !pc->kmax_bytes)
		return band > 7 ? 7 : band;
	q = st->vq_bytes + st->vq_pending;
	idle = now > st->vq_last_ns ? now - st->vq_last_ns : 0;
	if (idle > (1ull << 30))
		idle = 1ull << 30;
	drained = (idle >> 10) * (pc->rate_bps >> 23);
	q = q > drained ? q - drained : 0;
	qb = q >= pc->kmax_bytes ? 7 : (q * 8) / pc->kmax_bytes;
	if (qb > band)
		band = qb;
	return band > 7 ? 7 : band;
}

/* An entry's band as the choice sees it: failed once it is too old. */
static __always_inline __u32 rd_pathq_band(const struct rocedp_pathq *e,
					   __u64 now, __u64 timeout_ns)
{
	if (!e->last_ns || now - e->last_ns > timeout_ns)
		return ROCEDP_PROBE_BAND_FAILED;
	return e->band;
}

#endif
