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
	__u64 last = e->last_ns;

	if (!last || (now > last && now - last > timeout_ns))
		return ROCEDP_PROBE_BAND_FAILED;
	return e->band;
}

/*
 * Before a least-loaded scan (only a new flowlet's choice): when this
 * leaf steers by path quality (ROCEDP_PROBEF_STEER) and rd_leaf4 names
 * another leaf for the destination, the mask of g's active members whose
 * path toward it has the best band (no entry, or a timed-out one: failed,
 * 8); the scan then weighs load among those only. Else 0: load alone.
 * Global, verified once, its frame apart from the forwarding step's (6.1's
 * stack); the scan itself only tests a bit a member.
 */
__attribute__((noinline)) int rd_pathq_steer(const struct rocedp_group *g,
					     __u32 dst4, __u64 now)
{
	struct rd_scratch *sc = rd_scratch_get();
	struct rocedp_probe_cfg *pc;
	struct rocedp_pathq *e;
	__u32 i, slot, band, *leaf;

	if (!sc || !g)
		return 0;
	sc->ll.pq_mask = 0;
	pc = rd_probe_cfg_get();
	if (!pc || pc->role != ROCEDP_PROBE_ROLE_LEAF ||
	    !(pc->flags & ROCEDP_PROBEF_STEER) || !dst4)
		return 0;
	sc->ll.leaf_key.prefixlen = 32;
	sc->ll.leaf_key.addr = dst4;
	leaf = bpf_map_lookup_elem(&rd_leaf4, &sc->ll.leaf_key);
	if (!leaf || *leaf == pc->leaf_id)
		return 0;
	sc->ll.pq_key.leaf = *leaf;
	sc->ll.pq_tmo_ns = (__u64)pc->timeout_us * 1000;
	sc->ll.pq_now = now;
	sc->ll.pq_best = ROCEDP_PROBE_BAND_FAILED + 1;
	for (i = 0; i < ROCEDP_MAX_MEMBERS; i++) {
		if (i >= g->n_active)
			break;
		slot = g->active[i] & (ROCEDP_MAX_MEMBERS - 1);
		sc->ll.pq_key.ifindex = g->members[slot].ifindex;
		e = bpf_map_lookup_elem(&rd_pathq, &sc->ll.pq_key);
		band = e ? rd_pathq_band(e, sc->ll.pq_now, sc->ll.pq_tmo_ns) :
			   ROCEDP_PROBE_BAND_FAILED;
		if (band < sc->ll.pq_best) {
			sc->ll.pq_best = band;
			sc->ll.pq_mask = 0;
		}
		if (band == sc->ll.pq_best)
			sc->ll.pq_mask |= 1ull << slot;
	}
	rd_probe_count(ROCEDP_PROBE_CTR_STEERED);
	return 0;
}

#endif
