// SPDX-License-Identifier: GPL-2.0
/*
 * Resilient bucket tables. Every layer is the same step ("overlay"): a
 * base table and the members that may hold buckets now, with weights;
 * each member may hold between the floor and the ceiling of its exact
 * share, keeps its highest-scoring buckets of the base up to that
 * ceiling, and every bucket left over goes to the member that scores it
 * highest among those below their floor, else below their ceiling
 * (rendezvous hashing with quotas). A member that leaves therefore hands
 * over only its own buckets: the others' ceilings only grow, so they keep
 * all of theirs, whatever the weights.
 *
 * No history is read: the result depends on the inputs only, which is what
 * makes replay and a second switch agree with the live one.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "buckets.h"
#include "rocedp.h"

uint64_t rd_bucket_score(unsigned int bucket, unsigned int slot)
{
	uint64_t z = ((uint64_t)bucket << 8 | slot) + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

unsigned int rd_buckets_count(const struct rocedp_group *g)
{
	if (!g->n_buckets)
		return ROCEDP_DEFAULT_BUCKETS;
	return g->n_buckets > ROCEDP_MAX_BUCKETS ? ROCEDP_MAX_BUCKETS :
						   g->n_buckets;
}

/* Largest remainder: t[i] = floor(nb * w / W), the rest by remainder. */
static void quotas(const uint32_t *w, unsigned int n, unsigned int nb,
		   uint32_t *t)
{
	uint64_t total = 0, rem[ROCEDP_MAX_MEMBERS];
	bool bumped[ROCEDP_MAX_MEMBERS] = { false };
	unsigned int i, left = nb, best;

	for (i = 0; i < n; i++)
		total += w[i];
	for (i = 0; i < n; i++) {
		t[i] = total ? (uint64_t)nb * w[i] / total : 0;
		rem[i] = total ? (uint64_t)nb * w[i] % total : 0;
		left -= t[i];
	}
	if (!total)
		return;
	/* fewer than the members with a weight are left: one each at most */
	while (left--) {
		best = n;
		for (i = 0; i < n; i++)
			if (w[i] && !bumped[i] &&
			    (best == n || rem[i] > rem[best]))
				best = i;
		if (best == n)
			break;
		bumped[best] = true;
		t[best]++;
	}
}

/*
 * The floor and the ceiling of each exact share nb * w / W (equal when it
 * is whole). Both only grow when another member leaves (W falls), so a
 * member that may hold up to its ceiling keeps every bucket it holds when
 * another leaves, whatever the weights; largest remainder's quota can
 * shrink then (its extra bucket goes to whoever has the largest remainder
 * now: 406 of 40,500 single-member-down events over random weights).
 */
static void shares(const uint32_t *w, unsigned int n, unsigned int nb,
		   uint32_t *lo, uint32_t *hi)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		total += w[i];
	for (i = 0; i < n; i++) {
		lo[i] = total ? (uint64_t)nb * w[i] / total : 0;
		hi[i] = lo[i] + (total && (uint64_t)nb * w[i] % total);
	}
}

struct scored {
	uint64_t score;
	unsigned int bucket;
};

static int scored_desc(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	return x->score < y->score ? 1 : x->score > y->score ? -1 : 0;
}

/*
 * out = base kept up to each member's hi, the rest handed out: first to
 * members below their lo, then to members below their hi, then to anyone,
 * each bucket (in bucket order) to the best-scoring such member.
 * keep_all: a usable member keeps every bucket it has in base (the
 * kernel's table, which may be unbalanced for a while by design), only
 * the others' move.
 */
static void overlay(const uint8_t *base, uint8_t *out, unsigned int nb,
		    unsigned int n, const uint32_t *w, const uint32_t *lo,
		    const uint32_t *hi, bool keep_all)
{
	struct scored own[ROCEDP_MAX_BUCKETS];
	uint32_t have[ROCEDP_MAX_MEMBERS];
	unsigned int i, b, k, cnt, tier, need;
	int best;

	memset(out, ROCEDP_BUCKET_NONE, nb);
	for (i = 0; i < n; i++) {
		have[i] = 0;
		if (!w[i])
			continue;
		cnt = 0;
		for (b = 0; b < nb; b++)
			if (base[b] == i) {
				own[cnt].score = rd_bucket_score(b, i);
				own[cnt++].bucket = b;
			}
		if (!keep_all && cnt > hi[i]) {
			qsort(own, cnt, sizeof(own[0]), scored_desc);
			cnt = hi[i];
		}
		for (k = 0; k < cnt; k++)
			out[own[k].bucket] = i;
		have[i] = cnt;
	}
	for (b = 0; b < nb; b++) {
		if (out[b] != ROCEDP_BUCKET_NONE)
			continue;
		/* tier 0: below lo, 1: below hi, 2: anyone */
		tier = 2;
		for (i = 0; i < n; i++) {
			if (!w[i])
				continue;
			if (have[i] < lo[i])
				tier = 0;
			else if (have[i] < hi[i] && tier > 1)
				tier = 1;
		}
		best = -1;
		for (i = 0; i < n; i++) {
			need = tier == 0 ? lo[i] : tier == 1 ? hi[i] : ~0u;
			if (!w[i] || have[i] >= need)
				continue;
			if (best < 0 ||
			    rd_bucket_score(b, i) > rd_bucket_score(b, best))
				best = i;
		}
		if (best < 0)
			return; /* nobody may hold a bucket */
		out[b] = best;
		have[best]++;
	}
}

/* One layer with largest-remainder quotas: lo = hi = the quota. */
static void overlay_quota(const uint8_t *base, uint8_t *out, unsigned int nb,
			  unsigned int n, const uint32_t *w, bool keep_all)
{
	uint32_t t[ROCEDP_MAX_MEMBERS];

	quotas(w, n, nb, t);
	overlay(base, out, nb, n, w, t, t, keep_all);
}

/*
 * The weight a member's place in the table is laid out with: a drained
 * member (weight 0, drain_weight kept) keeps its share in the weights
 * layer and leaves in the last layer, like a member that is down. Weight
 * 0 without it changes the weights layer, which moves healthy buckets
 * whenever the weights differ (docs/sync.md).
 */
static uint32_t layout_weight(const struct rocedp_member *m)
{
	return m->weight ? m->weight : m->drain_weight;
}

static bool usable(const struct rocedp_member *m)
{
	const uint16_t need = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED;

	return (m->flags & need) == need && m->weight;
}

void rd_buckets_build(struct rocedp_group *g)
{
	uint8_t a[ROCEDP_MAX_BUCKETS], e[ROCEDP_MAX_BUCKETS];
	uint32_t w[ROCEDP_MAX_MEMBERS] = { 0 }, lo[ROCEDP_MAX_MEMBERS],
		 hi[ROCEDP_MAX_MEMBERS];
	unsigned int nb = rd_buckets_count(g), n = g->n_members, i;

	if (n > ROCEDP_MAX_MEMBERS)
		n = ROCEDP_MAX_MEMBERS;
	g->n_buckets = nb;
	g->bucket_src = ROCEDP_BUCKETS_OWN;
	memset(g->buckets, ROCEDP_BUCKET_NONE, sizeof(g->buckets));
	/* equal shares over every configured slot: weights and states only
	 * move buckets from there */
	memset(a, ROCEDP_BUCKET_NONE, nb);
	for (i = 0; i < n; i++)
		w[i] = 1;
	overlay_quota(a, e, nb, n, w, false);
	for (i = 0; i < n; i++)
		w[i] = layout_weight(&g->members[i]);
	overlay_quota(e, a, nb, n, w, false);
	/* members that are down or drained leave one at a time, in slot order, each
	 * handing over only what it holds: a member going down after the
	 * others moves nothing else, even with several down */
	memcpy(g->buckets, a, nb);
	for (i = 0; i < n; i++) {
		if (!w[i] || usable(&g->members[i]))
			continue;
		w[i] = 0;
		memcpy(a, g->buckets, nb);
		shares(w, n, nb, lo, hi);
		overlay(a, g->buckets, nb, n, w, lo, hi, false);
	}
}

void rd_buckets_overlay(struct rocedp_group *g)
{
	uint8_t base[ROCEDP_MAX_BUCKETS];
	uint32_t w[ROCEDP_MAX_MEMBERS] = { 0 };
	unsigned int nb = rd_buckets_count(g), n = g->n_members, i;

	if (n > ROCEDP_MAX_MEMBERS)
		n = ROCEDP_MAX_MEMBERS;
	g->n_buckets = nb;
	memcpy(base, g->buckets, nb);
	for (i = 0; i < n; i++)
		w[i] = usable(&g->members[i]) ? g->members[i].weight : 0;
	overlay_quota(base, g->buckets, nb, n, w, true);
	memset(g->buckets + nb, ROCEDP_BUCKET_NONE, sizeof(g->buckets) - nb);
}

int rd_buckets_check(const struct rocedp_group *g)
{
	unsigned int cnt[ROCEDP_MAX_MEMBERS] = { 0 }, i, b, none = 0, slack = 1;
	uint64_t total = 0;
	double ideal;

	if (!g->n_buckets || g->n_buckets > ROCEDP_MAX_BUCKETS ||
	    g->n_members > ROCEDP_MAX_MEMBERS)
		return -EINVAL;
	for (i = 0; i < g->n_members; i++) {
		if (usable(&g->members[i]))
			total += g->members[i].weight;
		else if (layout_weight(&g->members[i]))
			slack = 2; /* a member left: see rd_buckets_build */
	}
	for (b = 0; b < g->n_buckets; b++) {
		if (g->buckets[b] == ROCEDP_BUCKET_NONE)
			none++;
		else if (g->buckets[b] >= g->n_members ||
			 !usable(&g->members[g->buckets[b]]))
			return -EINVAL;
		else
			cnt[g->buckets[b]]++;
	}
	if (none != (total ? 0 : g->n_buckets))
		return -EINVAL;
	if (g->bucket_src == ROCEDP_BUCKETS_KERNEL)
		return 0; /* the kernel's shares, unbalanced for a while */
	for (i = 0; i < g->n_members && total; i++) {
		ideal = usable(&g->members[i]) ?
				(double)g->n_buckets * g->members[i].weight /
					total :
				0;
		if (cnt[i] + slack <= ideal || cnt[i] >= ideal + slack)
			return -ERANGE;
	}
	return 0;
}

/* The active list and the bucket table: every writer of rd_groups. */
void rd_group_build(struct rocedp_group *g)
{
	const __u16 need = ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED;
	unsigned int i, n_active = 0;
	__u32 total = 0;

	if (g->n_members > ROCEDP_MAX_MEMBERS)
		g->n_members = ROCEDP_MAX_MEMBERS;
	/* zero the tail so that two builds of one state compare equal */
	memset(g->active, 0, sizeof(g->active));
	g->pad = 0;
	for (i = 0; i < g->n_members; i++) {
		const struct rocedp_member *m = &g->members[i];

		if ((m->flags & need) != need || !m->weight)
			continue;
		total += m->weight;
		g->active[n_active++] = i;
	}
	g->n_active = n_active;
	g->total_weight = total;
	if (g->bucket_src == ROCEDP_BUCKETS_KERNEL)
		rd_buckets_overlay(g);
	else
		rd_buckets_build(g);
}
