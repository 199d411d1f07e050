/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hop sets and group ids (group_hops.c), for the FIB model's files: next
 * hops in slot order, one reference-counted group per distinct hop set
 * (and kernel resilient group), its id and its map value.
 */
#ifndef ROCEDP_GROUP_HOPS_H
#define ROCEDP_GROUP_HOPS_H

#include <stdint.h>
#include "rocedp_abi.h"
#include "group_types.h"
#include "group_tab.h"

/* The key of a canonical hop set (groups table, mirror). */
uint64_t rd_fib_hops_hash(const struct rd_hop *h, int n);
/*
 * Sort n hops into slot order and merge repeats into out; slot_of[i]
 * (when non-NULL) is where in[i] landed. Returns the slots used.
 */
int rd_fib_hops_canon(const struct rd_hop *in, int n, struct rd_hop *out,
		      uint8_t *slot_of);
/*
 * A reference to the group of a canonical hop set, made (with a new or
 * adopted id) when there is none. NULL with *err -ENOSPC or -ENOMEM.
 */
struct rd_fgroup *rd_fib_group_get(struct rd_fib *f, const struct rd_hop *hops,
				   int n, const struct rd_res *res, int *err);
/* Drop a reference (g may be NULL); the last one frees the group. */
void rd_fib_group_put(struct rd_fib *f, struct rd_fgroup *g);
/*
 * Give g another id (an explicit group takes its own): a free one, or the
 * one the mirror holds its hop set under; its routes follow at the next
 * commit. -ENOSPC when none is free (g keeps its id, and nothing moves).
 */
int rd_fib_group_move(struct rd_fib *f, struct rd_fgroup *g);
/* g's map value, members filled by fill and the buckets built. */
void rd_fgroup_value(const struct rd_fgroup *g, rd_member_fill_fn fill,
		     void *ctx, struct rocedp_group *out);

#endif
