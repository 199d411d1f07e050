// SPDX-License-Identifier: GPL-2.0
/* Pinned map handles shared by every rocedp subcommand. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "mapset.h"
#include "pindir.h"
#include "util.h"

const char *const rd_map_names[RD_MAP_MAX] = {
	[RD_MAP_CONFIG] = "rd_config",
	[RD_MAP_STATS] = "rd_stats",
	[RD_MAP_CTS_RULES] = "rd_cts_rules",
	[RD_MAP_CTS_STATS] = "rd_cts_stats",
	[RD_MAP_QOS] = "rd_qos",
	[RD_MAP_ROUTES4] = "rd_routes4",
	[RD_MAP_ROUTES6] = "rd_routes6",
	[RD_MAP_GROUPS] = "rd_groups",
	[RD_MAP_TX_PORTS] = "rd_tx_ports",
	[RD_MAP_MEMBER_STATS] = "rd_mbr_stats",
	[RD_MAP_PORT_CFG] = "rd_port_cfg",
	[RD_MAP_PORT_STATE] = "rd_port_state",
	[RD_MAP_PORT_STATS] = "rd_port_stats",
	[RD_MAP_PORT_L2] = "rd_port_l2",
	[RD_MAP_FLOWLETS] = "rd_flowlets",
	[RD_MAP_RTT_PEND] = "rd_rtt_pend",
	[RD_MAP_RTT_PAIRS] = "rd_rtt_pairs",
	[RD_MAP_FL_SHADOW] = "rd_fl_shadow",
	[RD_MAP_CLOCK] = "rd_clock",
	[RD_MAP_TRACE] = "rd_trace",
	[RD_MAP_GROUP_BANKS] = "rd_group_banks",
	[RD_MAP_GROUP_LIVE] = "rd_group_live",
	[RD_MAP_QPS] = "rd_qps",
	[RD_MAP_PORT_HWM] = "rd_port_hwm",
	[RD_MAP_PORT_FLAPS] = "rd_port_flaps",
	[RD_MAP_PORT_LOAD] = "rd_port_load",
	[RD_MAP_ROUTE_GEN] = "rd_route_gen",
	[RD_MAP_PROBE_CFG] = "rd_probe_cfg",
	[RD_MAP_PROBE_PORT] = "rd_probe_port",
	[RD_MAP_PATHQ] = "rd_pathq",
	[RD_MAP_LEAF4] = "rd_leaf4",
	[RD_MAP_PROBE_STATS] = "rd_probe_stats",
	[RD_MAP_TRIM_PORTS] = "rd_trim_ports",
	[RD_MAP_TRIM_STATS] = "rd_trim_stats",
};

/*
 * Key and value sizes the ABI promises, checked on open so that a pin left
 * behind by an older build is refused instead of misread; entries too where
 * the layout depends on it (0: not checked).
 */
static const struct {
	unsigned int key, value, entries;
} rd_map_sizes[RD_MAP_MAX] = {
	[RD_MAP_CONFIG] = { .key = 4, .value = sizeof(struct rocedp_config) },
	[RD_MAP_STATS] = { .key = 4, .value = sizeof(struct rocedp_stats) },
	[RD_MAP_CTS_RULES] = { .key = 4,
			       .value = sizeof(struct rocedp_cts_rule),
			       .entries = ROCEDP_CTS_SLOTS }, /* two banks */
	[RD_MAP_CTS_STATS] = { .key = 4, .value = sizeof(__u64) },
	[RD_MAP_QOS] = { .key = 4, .value = sizeof(struct rocedp_qos) },
	[RD_MAP_ROUTES4] = { .key = sizeof(struct rocedp_route4_key),
			     .value = sizeof(struct rocedp_route) },
	[RD_MAP_ROUTES6] = { .key = sizeof(struct rocedp_route6_key),
			     .value = sizeof(struct rocedp_route) },
	[RD_MAP_GROUPS] = { .key = 4, .value = sizeof(struct rocedp_group) },
	[RD_MAP_TX_PORTS] = { .key = 4,
			      .value = sizeof(struct bpf_devmap_val) },
	[RD_MAP_MEMBER_STATS] = { .key = 4,
				  .value = sizeof(struct rocedp_member_stats) },
	[RD_MAP_PORT_CFG] = { .key = 4,
			      .value = sizeof(struct rocedp_port_cfg) },
	[RD_MAP_PORT_STATE] = { .key = 4,
				.value = sizeof(struct rocedp_port_state) },
	[RD_MAP_PORT_STATS] = { .key = 4,
				.value = sizeof(struct rocedp_port_stats) },
	[RD_MAP_PORT_L2] = { .key = 4,
			     .value = sizeof(struct rocedp_port_l2),
			     .entries = ROCEDP_PORT_SLOTS },
	[RD_MAP_FLOWLETS] = { .key = 4,
			      .value = sizeof(struct rocedp_flowlet_set),
			      .entries = ROCEDP_FLOWLET_SETS },
	[RD_MAP_RTT_PEND] = { .key = sizeof(struct rocedp_rtt_key),
			      .value = sizeof(struct rocedp_rtt_pending) },
	[RD_MAP_RTT_PAIRS] = { .key = sizeof(struct rocedp_rtt_pair_key),
			       .value = sizeof(struct rocedp_rtt_pair) },
	[RD_MAP_FL_SHADOW] = { .key = 4,
			       .value = sizeof(struct rocedp_flowlet_shadow),
			       .entries = ROCEDP_FLOWLET_SHADOW },
	[RD_MAP_CLOCK] = { .key = 4, .value = sizeof(__u64) },
	[RD_MAP_TRACE] = { .key = 4, .value = sizeof(struct rocedp_trace) },
	[RD_MAP_GROUP_BANKS] = { .key = 4,
				 .value = sizeof(struct rocedp_group),
				 .entries = ROCEDP_GROUP_BANKS },
	[RD_MAP_GROUP_LIVE] = { .key = 4,
				.value = sizeof(__u32),
				.entries = ROCEDP_MAX_GROUPS },
	[RD_MAP_QPS] = { .key = 4,
			 .value = sizeof(struct rocedp_qp_slot),
			 .entries = ROCEDP_MAX_QPS },
	[RD_MAP_PORT_HWM] = { .key = 4,
			      .value = sizeof(__u64),
			      .entries = ROCEDP_PORT_SLOTS },
	[RD_MAP_PORT_FLAPS] = { .key = 4,
				.value = sizeof(struct rocedp_port_flaps),
				.entries = ROCEDP_PORT_SLOTS },
	[RD_MAP_PORT_LOAD] = { .key = 4,
			       .value = sizeof(struct rocedp_port_load),
			       .entries = ROCEDP_PORT_SLOTS },
	[RD_MAP_ROUTE_GEN] = { .key = 4, .value = sizeof(__u32), .entries = 1 },
	[RD_MAP_PROBE_CFG] = { .key = 4,
			       .value = sizeof(struct rocedp_probe_cfg),
			       .entries = 1 },
	[RD_MAP_PROBE_PORT] = { .key = 4,
				.value = sizeof(struct rocedp_probe_port),
				.entries = ROCEDP_PORT_SLOTS },
	[RD_MAP_PATHQ] = { .key = sizeof(struct rocedp_pathq_key),
			   .value = sizeof(struct rocedp_pathq) },
	[RD_MAP_LEAF4] = { .key = sizeof(struct rocedp_leaf4_key),
			   .value = sizeof(__u32) },
	[RD_MAP_PROBE_STATS] = { .key = 4,
				 .value = sizeof(struct rocedp_probe_stats),
				 .entries = 1 },
	[RD_MAP_TRIM_PORTS] = { .key = 4,
				.value = sizeof(struct rocedp_trim_port),
				.entries = ROCEDP_PORT_SLOTS },
	[RD_MAP_TRIM_STATS] = { .key = 4,
				.value = sizeof(struct rocedp_trim_stats),
				.entries = ROCEDP_PORT_SLOTS },
};

void rd_maps_init(struct rd_maps *m)
{
	int i;

	for (i = 0; i < RD_MAP_MAX; i++)
		m->fd[i] = -1;
	m->modelled = false;
}

int rd_maps_open_pinned(struct rd_maps *m, const char *pin_dir)
{
	struct bpf_map_info info;
	char path[PATH_MAX];
	__u32 len;
	int i, err;

	if (!pin_dir)
		pin_dir = ROCEDP_PIN_DIR;
	rd_maps_init(m);
	/* maps are opened by path: the directories on it must be root's */
	err = rd_pin_dir_check(pin_dir);
	if (err == -EPERM)
		return err;
	for (i = 0; i < RD_MAP_MAX; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", pin_dir,
			     rd_map_names[i]) >= (int)sizeof(path)) {
			err = -ENAMETOOLONG;
			goto err;
		}
		m->fd[i] = bpf_obj_get(path);
		if (m->fd[i] < 0) {
			err = -errno;
			m->fd[i] = -1;
			goto err;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(m->fd[i], &info, &len);
		if (err) {
			err = -errno;
			goto err;
		}
		if (info.key_size != rd_map_sizes[i].key ||
		    info.value_size != rd_map_sizes[i].value) {
			rd_err("maps",
			       "%s: key/value size %u/%u, this build expects %u/%u (stale pin?)",
			       path, info.key_size, info.value_size,
			       rd_map_sizes[i].key, rd_map_sizes[i].value);
			err = -EPROTO;
			goto err;
		}
		if (rd_map_sizes[i].entries &&
		    info.max_entries != rd_map_sizes[i].entries) {
			rd_err("maps",
			       "%s: %u entries, this build expects %u (stale pin?)",
			       path, info.max_entries, rd_map_sizes[i].entries);
			err = -EPROTO;
			goto err;
		}
	}
	return 0;
err:
	rd_maps_close(m);
	return err;
}

void rd_maps_close(struct rd_maps *m)
{
	int i;

	for (i = 0; i < RD_MAP_MAX; i++) {
		if (m->fd[i] >= 0)
			close(m->fd[i]);
		m->fd[i] = -1;
	}
}

int rd_map_id(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	return info.id;
}

int rd_array_each(int fd, size_t value_size, unsigned int batch,
		  int (*fn)(const void *value, void *ctx), void *ctx)
{
	__u32 token, *in = NULL, count, i, *keys;
	char *vals;
	int err, ret = 0;

	if (fd < 0 || !batch)
		return -EBADF;
	keys = calloc(batch, sizeof(*keys));
	vals = calloc(batch, value_size);
	if (!keys || !vals) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		count = batch;
		/* an array has every slot: no ENOSPC, ENOENT after the last */
		err = bpf_map_lookup_batch(fd, in, &token, keys, vals, &count,
					   NULL);
		if (err && errno != ENOENT) {
			ret = -errno;
			break;
		}
		for (i = 0; i < count && !ret; i++)
			ret = fn(vals + (size_t)i * value_size, ctx);
		if (ret || err)
			break;
		in = &token;
	}
out:
	free(keys);
	free(vals);
	return ret;
}

/*
 * rd_port_cfg is an array indexed by ifindex: a slot is in use when it is
 * not all zero (every writer sets the thresholds), which reads as the
 * "no entry" of the hash map it replaced; an all-zero slot means no ECN.
 */
void rd_port_defaults(struct rocedp_port_cfg *pc)
{
	/* rate 0: no virtual queue, so no marking until a rate is set */
	*pc = (struct rocedp_port_cfg){
		.kmin_bytes = ROCEDP_DEFAULT_KMIN_BYTES,
		.kmax_bytes = ROCEDP_DEFAULT_KMAX_BYTES,
		.pmax_percent = ROCEDP_DEFAULT_PMAX_PERCENT,
	};
}

int rd_port_cfg_get(int fd, __u32 ifindex, struct rocedp_port_cfg *pc)
{
	static const struct rocedp_port_cfg unset;

	if (ifindex >= ROCEDP_PORT_SLOTS)
		return -E2BIG;
	if (bpf_map_lookup_elem(fd, &ifindex, pc))
		return -errno;
	return memcmp(pc, &unset, sizeof(unset)) ? 0 : -ENOENT;
}
