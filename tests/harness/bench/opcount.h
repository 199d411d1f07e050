/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * Operation counting for the bench (docs/bench.md, "Operations per
 * frame"): forced in front of bpf/rocedp.bpf.c and empty.bpf.c with
 * -include, it turns every map lookup, clock read and helper call into
 * the same call plus one add to a counter of its kind, in a plain global
 * array that rdbench reads after a test run. Only the counting copies of
 * the objects (build/bench/rocedp_opc.bpf.o, empty_opc.bpf.o) are built this way; nothing timed
 * runs them. The kind of a lookup is its map's type, known at compile
 * time from the map definition's `type` member (__uint(type, T) declares
 * it as int (*)[T]).
 */
#ifndef ROCEDP_BENCH_OPCOUNT_H
#define ROCEDP_BENCH_OPCOUNT_H

#include <linux/types.h>
#include <linux/bpf.h>

enum rd_opc_kind {
	RD_OPC_CLOCK, /* bpf_ktime_get_ns, bpf_ktime_get_coarse_ns */
	RD_OPC_PERCPU, /* lookup in a per-CPU array or hash */
	RD_OPC_ARRAY, /* lookup in an array (inlined by the verifier) */
	RD_OPC_HASH, /* lookup in a hash, LRU hash or devmap hash */
	RD_OPC_LPM, /* lookup in an LPM trie */
	RD_OPC_HELPER, /* any other helper call, other maps' lookups */
	RD_OPC_MAX,
};

/* one test run at a time executes a counting program: plain adds */
__u64 rd_opc[RD_OPC_MAX];

#define rd_opc_type(m) (sizeof(*(m)->type) / sizeof(int))
#define rd_opc_kind(t)                                               \
	((t) == BPF_MAP_TYPE_PERCPU_ARRAY ||                         \
			 (t) == BPF_MAP_TYPE_PERCPU_HASH ||          \
			 (t) == BPF_MAP_TYPE_LRU_PERCPU_HASH ?       \
		 RD_OPC_PERCPU :                                     \
	 (t) == BPF_MAP_TYPE_ARRAY    ? RD_OPC_ARRAY :               \
	 (t) == BPF_MAP_TYPE_LPM_TRIE ? RD_OPC_LPM :                 \
	 (t) == BPF_MAP_TYPE_HASH || (t) == BPF_MAP_TYPE_LRU_HASH || \
			 (t) == BPF_MAP_TYPE_DEVMAP_HASH ?           \
					RD_OPC_HASH :                \
					RD_OPC_HELPER)
#define rd_opc_hit(k) (rd_opc[(k)]++)

/*
 * A function-like macro is not expanded inside its own replacement, nor
 * in the helper's declaration (`(* const name)(...)`: no '(' follows).
 */
#define bpf_map_lookup_elem(m, k) \
	(rd_opc_hit(rd_opc_kind(rd_opc_type(m))), bpf_map_lookup_elem(m, k))
#define bpf_ktime_get_ns() (rd_opc_hit(RD_OPC_CLOCK), bpf_ktime_get_ns())
#define bpf_ktime_get_coarse_ns() \
	(rd_opc_hit(RD_OPC_CLOCK), bpf_ktime_get_coarse_ns())
#define RD_OPC_HELPER_CALL(name, ...) \
	(rd_opc_hit(RD_OPC_HELPER), name(__VA_ARGS__))
#define bpf_map_update_elem(...) \
	RD_OPC_HELPER_CALL(bpf_map_update_elem, __VA_ARGS__)
#define bpf_map_delete_elem(...) \
	RD_OPC_HELPER_CALL(bpf_map_delete_elem, __VA_ARGS__)
#define bpf_redirect_map(...) RD_OPC_HELPER_CALL(bpf_redirect_map, __VA_ARGS__)
#define bpf_redirect(...) RD_OPC_HELPER_CALL(bpf_redirect, __VA_ARGS__)
#define bpf_fib_lookup(...) RD_OPC_HELPER_CALL(bpf_fib_lookup, __VA_ARGS__)
#define bpf_jiffies64() (rd_opc_hit(RD_OPC_HELPER), bpf_jiffies64())
#define bpf_get_prandom_u32() (rd_opc_hit(RD_OPC_HELPER), bpf_get_prandom_u32())
#define bpf_loop(...) RD_OPC_HELPER_CALL(bpf_loop, __VA_ARGS__)
#define bpf_xdp_get_buff_len(...) \
	RD_OPC_HELPER_CALL(bpf_xdp_get_buff_len, __VA_ARGS__)
#define bpf_xdp_adjust_head(...) \
	RD_OPC_HELPER_CALL(bpf_xdp_adjust_head, __VA_ARGS__)
#define bpf_skb_pull_data(...) \
	RD_OPC_HELPER_CALL(bpf_skb_pull_data, __VA_ARGS__)
#define bpf_skb_vlan_pop(...) RD_OPC_HELPER_CALL(bpf_skb_vlan_pop, __VA_ARGS__)
#define bpf_skb_vlan_push(...) \
	RD_OPC_HELPER_CALL(bpf_skb_vlan_push, __VA_ARGS__)

#endif
