// SPDX-License-Identifier: GPL-2.0
/*
 * The config's static source through the FIB model (group_static.h). The
 * model's explicit entries (expl, expl_val) hold both what the config
 * states and what this load keeps of other writers; the commit is the
 * model's own (group_commit.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "group_static.h"
#include "group_tab.h"

static bool group_is_config(const struct rocedp_group *g)
{
	unsigned int i;

	for (i = 0; i < g->n_members && i < ROCEDP_MAX_MEMBERS; i++)
		if (g->members[i].flags & ROCEDP_MEMBERF_STATIC)
			return true;
	return false;
}

static int expl_set(struct rd_fib *f, uint32_t id, const struct rocedp_group *v)
{
	if (!f->expl[id] && !(f->expl[id] = malloc(sizeof(*v))))
		return -ENOMEM;
	memcpy(f->expl[id], v, sizeof(*v));
	f->gstatic[id] = true;
	return 0;
}

static bool in_ids(const uint32_t *ids, unsigned int n, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* A free id for a kept group: from the top, as rocedp sync allocates. */
static int free_id(struct rd_fib *f, const uint32_t *ids, unsigned int n)
{
	int id;

	for (id = ROCEDP_MAX_GROUPS - 1; id > 0; id--)
		if (!f->inst[id] && !f->expl[id] && !in_ids(ids, n, id))
			return id;
	return -ENOSPC;
}

/* Kept group id moves to a free id; its routes follow. */
static int move_kept(struct rd_fib *f, uint32_t id, const uint32_t *ids,
		     unsigned int n)
{
	struct rd_ht_node *e;
	size_t i;
	int to = free_id(f, ids, n), err;

	if (to < 0)
		return to;
	err = expl_set(f, to, f->expl[id]);
	if (err)
		return err;
	rd_ht_for_each(&f->prefixes, i, e)
	{
		struct rd_fprefix *p = (struct rd_fprefix *)e;

		if (p->expl && !(p->expl_val.flags & ROCEDP_ROUTEF_LOCAL) &&
		    p->expl_val.group_id == id) {
			p->expl_val.group_id = to;
			rd_fib_prefix_dirty(f, p);
		}
	}
	/* id stays as it is until the config's value replaces it */
	return 0;
}

int rd_fib_static_begin(struct rd_fib *f, const uint32_t *ids, unsigned int n,
			struct rd_fib_counts *c)
{
	struct rd_ht_node *e;
	unsigned int moved = 0;
	size_t i;
	int err;

	err = rd_fib_load_installed(f);
	if (err)
		return err;
	/*
	 * Everything installed stays as it is for now, written by this
	 * process (none hands-off); the config's own entries (stale) go at
	 * the commit unless the config states them again.
	 */
	rd_ht_for_each(&f->prefixes, i, e)
	{
		struct rd_fprefix *p = (struct rd_fprefix *)e;

		p->is_static = false;
		p->expl = p->inst;
		p->expl_val = p->inst_val;
		p->stale = p->inst &&
			   (p->inst_val.flags & ROCEDP_ROUTEF_STATIC);
	}
	for (i = 1; i < ROCEDP_MAX_GROUPS; i++) {
		f->gstatic[i] = false;
		if (!f->inst[i])
			continue;
		err = expl_set(f, i, f->inst[i]);
		if (err)
			return err;
		f->expl_stale[i] = group_is_config(f->inst[i]);
	}
	for (i = 0; i < n; i++) {
		if (ids[i] >= ROCEDP_MAX_GROUPS || !f->expl[ids[i]] ||
		    f->expl_stale[ids[i]])
			continue;
		err = move_kept(f, ids[i], ids, n);
		if (err)
			return err;
		moved++;
	}
	if (!moved)
		return 0;
	err = rd_fib_commit(f, true, NULL, NULL, c);
	if (err)
		return err;
	/* no route of theirs uses the old ids now: they are the config's */
	for (i = 0; i < n; i++)
		if (ids[i] < ROCEDP_MAX_GROUPS && f->expl[ids[i]] &&
		    !f->expl_stale[ids[i]]) {
			if (f->inst_refs[ids[i]])
				return -EBUSY; /* cannot be: moved above */
			f->expl_stale[ids[i]] = true;
		}
	return moved;
}

int rd_fib_static_group(struct rd_fib *f, uint32_t id,
			const struct rocedp_group *v)
{
	int err;

	if (!id || id >= ROCEDP_MAX_GROUPS)
		return -EINVAL;
	if (f->expl[id] && !f->expl_stale[id])
		return -EBUSY; /* a kept group: rd_fib_static_begin moves it */
	err = expl_set(f, id, v);
	if (!err)
		f->expl_stale[id] = false;
	return err;
}

int rd_fib_static_route(struct rd_fib *f, uint8_t family, uint8_t plen,
			const void *addr, const struct rocedp_route *v)
{
	struct rd_fprefix *p = rd_fib_prefix_find(f, family, plen, addr, true);

	if (!p)
		return -ENOMEM;
	p->expl = true;
	p->expl_val = *v;
	p->stale = false;
	rd_fib_prefix_dirty(f, p);
	return 0;
}

int rd_fib_static_commit(struct rd_fib *f, struct rd_fib_counts *c)
{
	struct rd_ht_node *e;
	size_t i;

	/* what the config no longer states: its routes, then (once no route
	 * uses them) its groups */
	rd_ht_for_each(&f->prefixes, i, e)
	{
		struct rd_fprefix *p = (struct rd_fprefix *)e;

		if (p->stale)
			p->expl = p->stale = false;
	}
	for (i = 1; i < ROCEDP_MAX_GROUPS; i++)
		if (f->expl_stale[i]) {
			free(f->expl[i]);
			f->expl[i] = NULL;
			f->expl_stale[i] = f->gstatic[i] = false;
		}
	return rd_fib_commit(f, true, NULL, NULL, c);
}
