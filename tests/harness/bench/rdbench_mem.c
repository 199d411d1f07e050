// SPDX-License-Identifier: GPL-2.0
/* rdbench mem: every map's memory at the default sizes (docs/bench.md, 4). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "rocedp.skel.h"
#include "rdbench.h"

static long fdinfo_memlock(int fd)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static bool percpu_type(__u32 t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static void print_map(int fd, const char *name, bool *first)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	unsigned long long computed, vsz;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		die(name, errno);
	vsz = percpu_type(info.type) ?
		      (unsigned long long)((info.value_size + 7) & ~7u) *
			      ncpus() :
		      info.value_size;
	computed = (unsigned long long)(info.key_size + vsz) * info.max_entries;
	printf("%s{\"map\":\"%s\",\"type\":\"%s\",\"key\":%u,\"value\":%u,"
	       "\"entries\":%u,\"percpu\":%s,\"computed_bytes\":%llu,"
	       "\"memlock_bytes\":%ld}",
	       *first ? "" : ",", name, libbpf_bpf_map_type_str(info.type),
	       info.key_size, info.value_size, info.max_entries,
	       percpu_type(info.type) ? "true" : "false", computed,
	       fdinfo_memlock(fd));
	*first = false;
}

int cmd_mem(int argc, char **argv)
{
	struct rocedp *skel;
	struct bpf_map *map;
	bool first = true;
	long fl_1m, lpm_empty, lpm_full;
	LIBBPF_OPTS(bpf_map_create_opts, lpm_opts,
		    .map_flags = BPF_F_NO_PREALLOC);
	struct rocedp_route4_key k = { .prefixlen = 26 };
	struct rocedp_route v = { .group_id = 1 };
	unsigned int i, n_routes = 100000;
	int fd, err;
	long total = 0;
	unsigned long long total_computed = 0;

	skel = rdbench_rocedp_open();
	err = rocedp__load(skel);
	if (err)
		die("rocedp__load", err);
	printf("{\"ncpus\":%d,\"maps\":[", ncpus());
	bpf_object__for_each_map(map, skel->obj)
	{
		struct bpf_map_info info = {};
		__u32 len = sizeof(info);
		unsigned long long vsz;

		/* .rodata/.bss of the object are not dataplane tables */
		if (bpf_map__is_internal(map))
			continue;
		fd = bpf_map__fd(map);
		print_map(fd, bpf_map__name(map), &first);
		total += fdinfo_memlock(fd);
		bpf_obj_get_info_by_fd(fd, &info, &len);
		vsz = percpu_type(info.type) ?
			      (unsigned long long)((info.value_size + 7) &
						   ~7u) *
				      ncpus() :
			      info.value_size;
		total_computed += (info.key_size + vsz) * info.max_entries;
	}
	printf("],\"total_memlock_bytes\":%ld,\"total_computed_bytes\":%llu,",
	       total, total_computed);

	/* 1M flowlets: the same map type and sets, 2^20 ways */
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bench_fl1m", 4,
			    sizeof(struct rocedp_flowlet_set),
			    (1 << 20) / ROCEDP_FLOWLET_WAYS, NULL);
	if (fd < 0)
		die("flowlet ARRAY 1M", errno);
	fl_1m = fdinfo_memlock(fd);
	close(fd);
	printf("\"flowlets_1m\":{\"computed_bytes\":%zu,\"memlock_bytes\":%ld},",
	       sizeof(struct rocedp_flowlet_way) * (1 << 20), fl_1m);

	/* LPM tries allocate per entry: measure the IPv4 table filled */
	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, "bench_lpm",
			    sizeof(struct rocedp_route4_key),
			    sizeof(struct rocedp_route), ROCEDP_MAX_ROUTES4,
			    &lpm_opts);
	if (fd < 0)
		die("LPM_TRIE", errno);
	lpm_empty = fdinfo_memlock(fd);
	for (i = 0; i < n_routes; i++) {
		k.addr = htonl((10u << 24 | 128u << 16) + (i << 6));
		if (bpf_map_update_elem(fd, &k, &v, 0))
			die("LPM fill", errno);
	}
	lpm_full = fdinfo_memlock(fd);
	close(fd);
	printf("\"routes4_100k\":{\"routes\":%u,\"memlock_empty_bytes\":%ld,"
	       "\"memlock_bytes\":%ld}}\n",
	       n_routes, lpm_empty, lpm_full);
	rocedp__destroy(skel);
	return 0;
}
