/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * The path-quality probe maps (layouts: abi_probe.h; docs/maps.md,
 * docs/paths.md). Included by maps.h, so every program and every pin of
 * the dataplane's maps has them.
 */
#ifndef ROCEDP_MAPS_PROBE_H
#define ROCEDP_MAPS_PROBE_H

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rocedp_probe_cfg);
} rd_probe_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, ROCEDP_PORT_SLOTS);
	__type(key, __u32);
	__type(value, struct rocedp_probe_port);
} rd_probe_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ROCEDP_MAX_PATHQ);
	__type(key, struct rocedp_pathq_key);
	__type(value, struct rocedp_pathq);
} rd_pathq SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, ROCEDP_MAX_LEAF_PREFIXES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct rocedp_leaf4_key);
	__type(value, __u32);
} rd_leaf4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rocedp_probe_stats);
} rd_probe_stats SEC(".maps");

#endif
