// SPDX-License-Identifier: GPL-2.0
/*
 * The probe maps' writer (docs/maps.md): settings, port roles and the
 * prefix-to-leaf map, each a whole value in one update, and rd_pathq's
 * reset. Everything else only reads them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "probew.h"
#include "probes.h"

int rd_probe_cfg_read(const struct rd_maps *m, struct rocedp_probe_cfg *pc)
{
	static const struct rocedp_probe_cfg zero;
	__u32 k = 0;

	if (bpf_map_lookup_elem(m->fd[RD_MAP_PROBE_CFG], &k, pc))
		return -errno;
	if (!memcmp(pc, &zero, sizeof(zero)))
		rd_probe_cfg_defaults(pc);
	return 0;
}

int rd_probe_cfg_write(const struct rd_maps *m,
		       const struct rocedp_probe_cfg *pc)
{
	__u32 k = 0;

	return bpf_map_update_elem(m->fd[RD_MAP_PROBE_CFG], &k, pc, 0) ?
		       -errno :
		       0;
}

int rd_probe_port_read(const struct rd_maps *m, __u32 ifindex,
		       struct rocedp_probe_port *pp)
{
	if (ifindex >= ROCEDP_PORT_SLOTS)
		return -E2BIG;
	return bpf_map_lookup_elem(m->fd[RD_MAP_PROBE_PORT], &ifindex, pp) ?
		       -errno :
		       0;
}

int rd_probe_port_write(const struct rd_maps *m, __u32 ifindex,
			const struct rocedp_probe_port *pp)
{
	if (ifindex >= ROCEDP_PORT_SLOTS)
		return -E2BIG;
	if (pp->band_floor >= ROCEDP_PROBE_BANDS)
		return -EINVAL;
	return bpf_map_update_elem(m->fd[RD_MAP_PROBE_PORT], &ifindex, pp, 0) ?
		       -errno :
		       0;
}

static void leaf_key(struct rocedp_leaf4_key *k, __u32 addr, __u8 plen)
{
	k->prefixlen = plen;
	k->addr = plen ? addr & htonl(~0u << (32 - plen)) : 0;
}

int rd_leaf4_set(const struct rd_maps *m, __u32 addr, __u8 plen, __u32 leaf)
{
	struct rocedp_leaf4_key k;

	if (plen > 32 || leaf > 0xffff)
		return -EINVAL;
	leaf_key(&k, addr, plen);
	return bpf_map_update_elem(m->fd[RD_MAP_LEAF4], &k, &leaf, 0) ? -errno :
									0;
}

int rd_leaf4_del(const struct rd_maps *m, __u32 addr, __u8 plen)
{
	struct rocedp_leaf4_key k;

	if (plen > 32)
		return -EINVAL;
	leaf_key(&k, addr, plen);
	return bpf_map_delete_elem(m->fd[RD_MAP_LEAF4], &k) ? -errno : 0;
}

int rd_pathq_clear(const struct rd_maps *m)
{
	struct rocedp_pathq_key k, next;
	int fd = m->fd[RD_MAP_PATHQ], err = 0;

	/* always from the start: a deleted key cannot lead on */
	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		k = next;
		if (bpf_map_delete_elem(fd, &k) && errno != ENOENT) {
			err = -errno;
			break;
		}
	}
	return err;
}
