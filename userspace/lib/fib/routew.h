/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of rd_routes4 and rd_routes6, called by the FIB model's
 * commit (group_commit.c) alone: the routes `rocedp sync` mirrors and the
 * config's static ones (ROCEDP_ROUTEF_STATIC), under the writers' lock
 * (the pin directory's flock); while sync runs, only it commits
 * (docs/design.md, "Who writes which map"). It also owns rd_route_gen, the word the dataplane's
 * decision cache checks its entries against (bpf/fwdcache.h): every
 * route write adds one to it, through a mapping (no syscall a route).
 */
#ifndef ROCEDP_ROUTEW_H
#define ROCEDP_ROUTEW_H

#include "rocedp.h"

/* Clear the host bits of addr beyond plen (AF_INET: 4 bytes, else 16):
 * the form of a prefix in a route key and in the FIB model. */
void rd_prefix_mask(uint8_t *addr, uint8_t family, uint8_t plen);
/* The order of prefixes everywhere they are sorted: family, address
 * (16 bytes, host bits clear), then length. <0, 0, >0. */
int rd_prefix_cmp(uint8_t fa, uint8_t pa, const uint8_t *aa, uint8_t fb,
		  uint8_t pb, const uint8_t *ab);

/*
 * Every entry of a route trie (fd, of family): fn gets the prefix (addr:
 * 16 bytes, host bits clear) and its value. An entry deleted during the
 * walk is skipped. A nonzero return of fn stops the walk with it; else
 * 0 or -errno.
 */
typedef int (*rd_route_each_fn)(uint8_t family, uint8_t plen,
				const uint8_t *addr,
				const struct rocedp_route *v, void *ctx);
int rd_routes_each(int fd, uint8_t family, rd_route_each_fn fn, void *ctx);

/* Map rd_route_gen (fd) into *gen for the writes below. -errno. */
int rd_routew_gen_map(int fd, __u32 **gen);
void rd_routew_gen_unmap(__u32 *gen);

/*
 * The writers' mark in *gen (ROCEDP_ROUTE_GEN_MARK): on only while every
 * route writer of these maps moves the generation, i.e. no sync from
 * before the decision cache runs; the dataplane uses its cache only then.
 * Either way the count moves, so entries made before are stale. -errno.
 */
int rd_routew_mark(__u32 *gen, bool on);
/* The same through rd_route_gen's fd (mapped for the call). */
int rd_routew_mark_fd(int fd, bool on);
bool rd_routew_marked(const __u32 *gen);

/* key is a struct rocedp_route4_key or rocedp_route6_key, as fd's map;
 * flags BPF_ANY or BPF_EXIST (an in-place rewrite); gen from
 * rd_routew_gen_map (NULL: -EBADF, no write). -errno. */
int rd_routew_put(int fd, __u32 *gen, const void *key,
		  const struct rocedp_route *v, __u64 flags);
/* Remove the entry; absent is no error. -errno. */
int rd_routew_del(int fd, __u32 *gen, const void *key);

#endif
