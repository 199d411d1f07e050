/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resilient bucket tables of next-hop groups (docs/sync.md, Resilient
 * groups). The flow hash picks a bucket, the bucket names a member slot.
 */
#ifndef ROCEDP_BUCKETS_H
#define ROCEDP_BUCKETS_H

#include <stdint.h>
#include "rocedp_abi.h"

/* The bucket count a group uses: 0 means ROCEDP_DEFAULT_BUCKETS. */
unsigned int rd_buckets_count(const struct rocedp_group *g);

/*
 * Fill g->buckets as a pure function of (members, weights, states,
 * n_buckets), so that a restart, another switch with the same config and
 * `rocedp replay` build the same table. Three layers, each keeping what it
 * can of the one below: equal shares over every configured slot, then the
 * weights, then the states (down, unresolved and weight-0 members hand
 * their buckets to the others).
 */
void rd_buckets_build(struct rocedp_group *g);

/*
 * g->buckets holds a table made elsewhere (the kernel's resilient group):
 * keep every bucket of a usable member and hand the others' buckets (and
 * empty ones) to usable members by weight.
 */
void rd_buckets_overlay(struct rocedp_group *g);

/*
 * The invariants of a built table: every bucket names a usable member
 * (none only when there is none), and an own table's shares are within
 * one bucket of the weights, two when a weighted member is down (its
 * buckets cannot always lift every other member to the floor of its share
 * without moving a healthy bucket, and the healthy buckets win).
 * 0, -EINVAL or -ERANGE (shares).
 */
int rd_buckets_check(const struct rocedp_group *g);

/*
 * A group's active list (members UP and RESOLVED with weight > 0) and its
 * bucket table, from its members' flags and weights: every writer of
 * rd_groups builds a group through this before writing it.
 */
void rd_group_build(struct rocedp_group *g);

/* The rendezvous score of (bucket, slot): splitmix64, a bijection. */
uint64_t rd_bucket_score(unsigned int bucket, unsigned int slot);

#endif
