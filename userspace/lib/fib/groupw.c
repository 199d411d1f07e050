// SPDX-License-Identifier: GPL-2.0
/*
 * Next-hop group writes. A HASH map recycles an updated element at once
 * (its per-CPU spare), so a reader may see another group's bytes: the
 * dataplane reads an ARRAY of two banks per group instead, chosen by a
 * live word. Each write goes to the bank no reader was sent to, then the
 * word moves on; a reader that sees the word change under it passes the
 * frame to the kernel.
 */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>

#include "groupw.h"

void rd_groupw_from_maps(struct rd_groupw *w, const struct rd_maps *m)
{
	w->hash = m->fd[RD_MAP_GROUPS];
	w->banks = m->fd[RD_MAP_GROUP_BANKS];
	w->live = m->fd[RD_MAP_GROUP_LIVE];
}

static int live_get(const struct rd_groupw *w, __u32 id, __u32 *v)
{
	return bpf_map_lookup_elem(w->live, &id, v) ? -errno : 0;
}

/* The next word: sequence + 1 (its low bit the bank), present or not. */
static __u32 live_next(__u32 v, bool present)
{
	__u32 seq = ROCEDP_GROUP_LIVE_SEQ(v) + 1;

	return ROCEDP_GROUP_LIVE_SEQ(seq) |
	       (present ? ROCEDP_GROUP_LIVE_PRESENT : 0);
}

/* Bank, then word: the word is stored only once the bank is whole. */
static int publish(const struct rd_groupw *w, __u32 id,
		   const struct rocedp_group *g)
{
	__u32 v, next, idx;
	int err;

	if (w->banks < 0 || w->live < 0)
		return w->hash < 0 ? 0 : -EBADF; /* never half wired */
	err = live_get(w, id, &v);
	if (err)
		return err;
	next = live_next(v, g != NULL);
	if (g) {
		idx = ROCEDP_GROUP_LIVE_BANK(next) * ROCEDP_MAX_GROUPS + id;
		if (bpf_map_update_elem(w->banks, &idx, g, BPF_ANY))
			return -errno;
	}
	return bpf_map_update_elem(w->live, &id, &next, BPF_ANY) ? -errno : 0;
}

int rd_groupw_put(const struct rd_groupw *w, __u32 id,
		  const struct rocedp_group *g)
{
	if (id >= ROCEDP_MAX_GROUPS || !g)
		return -ERANGE;
	if (w->hash >= 0 && bpf_map_update_elem(w->hash, &id, g, BPF_ANY))
		return -errno;
	return publish(w, id, g);
}

int rd_groupw_put_maps(const struct rd_maps *m, __u32 id,
		       const struct rocedp_group *g)
{
	struct rd_groupw w;

	rd_groupw_from_maps(&w, m);
	return rd_groupw_put(&w, id, g);
}

int rd_groupw_del(const struct rd_groupw *w, __u32 id)
{
	__u32 v;
	int err;

	if (id >= ROCEDP_MAX_GROUPS)
		return -ERANGE;
	if (w->hash >= 0 && bpf_map_delete_elem(w->hash, &id) &&
	    errno != ENOENT)
		return -errno;
	if (w->live < 0)
		return publish(w, id, NULL);
	err = live_get(w, id, &v);
	if (err || !(v & ROCEDP_GROUP_LIVE_PRESENT))
		return err;
	return publish(w, id, NULL);
}

int rd_groupw_adopt(const struct rd_groupw *w)
{
	struct rocedp_group g;
	__u32 key, *prev = NULL, v;
	int n = 0, err;

	if (w->hash < 0 || w->banks < 0 || w->live < 0)
		return 0;
	while (!bpf_map_get_next_key(w->hash, prev, &key)) {
		prev = &key;
		if (key >= ROCEDP_MAX_GROUPS)
			continue;
		err = live_get(w, key, &v);
		if (err)
			return err;
		if (v & ROCEDP_GROUP_LIVE_PRESENT)
			continue;
		if (bpf_map_lookup_elem(w->hash, &key, &g))
			continue; /* deleted meanwhile */
		err = publish(w, key, &g);
		if (err)
			return err;
		n++;
	}
	return n;
}
