/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF headers (bpf/) compiled as plain C, so that a test can stop
 * the dataplane's code between two steps and act as another CPU there
 * (RD_RACE_POINT). Array maps are zeroed memory sized from the map's own
 * definition; other map types find nothing; helpers are stubs. Only the
 * logic is tested this way: the verifier, the JIT and the CPU's memory
 * order are the engine tests' part.
 */
#ifndef ROCEDP_BPF_USER_H
#define ROCEDP_BPF_USER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#define SEC(name)
#define __uint(name, val) int(*name)[val]
#define __type(name, val) typeof(val) *name
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define barrier_var(var) asm volatile("" : "+r"(var))

/* One array map's memory, by the address of its definition. */
struct rd_user_map {
	const void *def;
	char *mem;
};

#define RD_USER_MAPS 64
static struct rd_user_map rd_user_maps[RD_USER_MAPS];

static inline void *rd_user_lookup(const void *def, const void *key,
				   size_t vsize, size_t n, int type)
{
	__u32 i = *(const __u32 *)key;
	int m;

	if (type != BPF_MAP_TYPE_ARRAY && type != BPF_MAP_TYPE_PERCPU_ARRAY)
		return NULL; /* hashes and tries: nothing in them */
	if (i >= n)
		return NULL;
	for (m = 0; m < RD_USER_MAPS; m++) {
		if (!rd_user_maps[m].def) {
			rd_user_maps[m].def = def;
			rd_user_maps[m].mem = calloc(n, vsize);
			if (!rd_user_maps[m].mem)
				abort();
		}
		if (rd_user_maps[m].def == def)
			return rd_user_maps[m].mem + (size_t)i * vsize;
	}
	abort();
}

#define rd_user_n(def) (sizeof(*(def)->max_entries) / sizeof(int))
#define rd_user_type(def) ((int)(sizeof(*(def)->type) / sizeof(int)))
#define bpf_map_lookup_elem(def, key)                                       \
	rd_user_lookup((def), (key), sizeof(*(def)->value), rd_user_n(def), \
		       rd_user_type(def))
static inline long rd_user_nop(void)
{
	return -1;
}
#define bpf_map_update_elem(def, key, val, fl) rd_user_nop()
#define bpf_map_delete_elem(def, key) rd_user_nop()

/* The clock and the random numbers a test sets. */
static __u64 rd_user_now;
static __u32 rd_user_random;
#define bpf_ktime_get_ns() (rd_user_now)
#define bpf_ktime_get_coarse_ns() (rd_user_now)
#define bpf_get_prandom_u32() (rd_user_random)
#define bpf_get_smp_processor_id() 0
#define bpf_jiffies64() (rd_user_now / 4000000)

static inline long bpf_loop(__u32 n, long (*fn)(__u32, void *), void *ctx,
			    __u64 flags)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (fn(i, ctx))
			return i + 1;
	return n;
}

#endif
