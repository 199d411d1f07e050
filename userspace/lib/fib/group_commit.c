// SPDX-License-Identifier: GPL-2.0
/*
 * The FIB model against the maps: the mirror (what the maps hold, read back
 * at start and updated on every successful write) and the commit, which
 * writes the difference only, in an order that never lets a route point at
 * a group that is not there yet: groups, then routes, then unused groups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "group_commit.h"
#include "group_hops.h"
#include "group_tab.h"
#include "groupw.h"
#include "portw.h"
#include "routew.h"

static void prefix_name(const struct rd_fprefix *p, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(p->family, p->addr, a, sizeof(a));
	snprintf(buf, len, "%s/%u", a, p->plen);
}

/* ------------------------------------------------------------ writes */

/*
 * Every map write of the model passes here: a test build's load counts
 * them with its own and fails or stops at the one it was asked to
 * (rd_fib_set_fault, docs/faults.md). Returns -ENOMEM for that one.
 */
static int w_before(struct rd_fib *f)
{
	if (f->fault && ++f->fault->writes == f->fault->fail_at)
		return -ENOMEM;
	return 0;
}

static int w_after(struct rd_fib *f, int err)
{
	if (!err && f->fault && f->fault->writes == f->fault->crash_at)
		_exit(f->fault->crash_status); /* as if killed */
	return err;
}

static int w_group_put(struct rd_fib *f, __u32 id, const struct rocedp_group *v)
{
	int err = w_before(f);

	return w_after(f, err ? err : rd_groupw_put(&f->gw, id, v));
}

static int w_group_del(struct rd_fib *f, __u32 id)
{
	int err = w_before(f);

	return w_after(f, err ? err : rd_groupw_del(&f->gw, id));
}

static int w_route_put(struct rd_fib *f, int fd, const void *key,
		       const struct rocedp_route *v, __u64 flags)
{
	int err = w_before(f);

	return w_after(f, err ? err :
				rd_routew_put(fd, f->maps.route_gen, key, v,
					      flags));
}

static int w_route_del(struct rd_fib *f, int fd, const void *key)
{
	int err = w_before(f);

	return w_after(f,
		       err ? err : rd_routew_del(fd, f->maps.route_gen, key));
}

/* ------------------------------------------------------------ mirror */

static void inst_ref(struct rd_fib *f, const struct rocedp_route *v, int d)
{
	if (!(v->flags & ROCEDP_ROUTEF_LOCAL) &&
	    v->group_id < ROCEDP_MAX_GROUPS)
		f->inst_refs[v->group_id] += d;
}

static int on_route(uint8_t family, uint8_t plen, const uint8_t *addr,
		    const struct rocedp_route *val, void *ctx)
{
	struct rd_fib *f = ctx;
	struct rd_fprefix *p;

	p = rd_fib_prefix_find(f, family, plen, addr, true);
	if (!p)
		return -ENOMEM;
	p->inst = true;
	p->inst_val = *val;
	p->is_static = val->flags & ROCEDP_ROUTEF_STATIC;
	p->mark = val->flags & ROCEDP_ROUTEF_KERNEL;
	inst_ref(f, val, 1);
	if (p->is_static && val->group_id < ROCEDP_MAX_GROUPS)
		f->gstatic[val->group_id] = true;
	if (!p->want && !p->expl)
		rd_fib_prefix_dirty(f, p); /* so that a commit removes it */
	return 0;
}

static int load_routes(struct rd_fib *f, int fd, uint8_t family)
{
	return fd < 0 ? 0 : rd_routes_each(fd, family, on_route, f);
}

static int load_groups(struct rd_fib *f)
{
	struct rd_hop mh[ROCEDP_MAX_MEMBERS];
	__u32 key, next, *prev = NULL;
	struct rocedp_group *g;
	int i;

	if (f->maps.groups < 0)
		return 0;
	i = rd_groupw_adopt(&f->gw);
	if (i < 0)
		return i;
	while (!bpf_map_get_next_key(f->maps.groups, prev, &next)) {
		key = next;
		prev = &key;
		if (key >= ROCEDP_MAX_GROUPS)
			continue; /* not ours to judge */
		g = malloc(sizeof(*g));
		if (!g)
			return -ENOMEM;
		if (bpf_map_lookup_elem(f->maps.groups, &key, g)) {
			free(g);
			continue;
		}
		if (g->n_members > ROCEDP_MAX_MEMBERS)
			g->n_members = ROCEDP_MAX_MEMBERS;
		for (i = 0; i < g->n_members; i++) {
			if (g->members[i].flags & ROCEDP_MEMBERF_STATIC)
				f->gstatic[key] = true;
			memset(&mh[i], 0, sizeof(mh[i]));
			mh[i].ifindex = g->members[i].ifindex;
			mh[i].weight = g->members[i].weight;
			mh[i].family = g->members[i].nh_family;
			memcpy(mh[i].gw, g->members[i].nh_addr, 16);
		}
		f->inst_key[key] = rd_fib_hops_hash(mh, g->n_members);
		f->inst[key] = g;
	}
	return errno == ENOENT ? 0 : -errno;
}

int rd_fib_load_installed(struct rd_fib *f)
{
	struct rd_ht_node *e;
	size_t i;
	int err;

	rd_ht_for_each(&f->prefixes, i, e)
	{
		struct rd_fprefix *p = (struct rd_fprefix *)e;

		p->inst = false;
		p->is_static = false;
	}
	for (i = 0; i < ROCEDP_MAX_GROUPS; i++) {
		free(f->inst[i]);
		f->inst[i] = NULL;
		f->inst_refs[i] = 0;
		f->gstatic[i] = false;
	}
	f->n_ports = 0; /* devmap/port_cfg may have been changed as well */
	err = load_groups(f);
	if (!err)
		err = load_routes(f, f->maps.routes4, AF_INET);
	if (!err)
		err = load_routes(f, f->maps.routes6, AF_INET6);
	/*
	 * A config load took the id of one of our groups (it moved our
	 * routes to another id first, group_static.c): follow it there.
	 */
	for (i = 1; i < ROCEDP_MAX_GROUPS && !err; i++)
		if (f->gid[i] && f->gstatic[i])
			err = rd_fib_group_move(f, f->gid[i]);
	return err;
}

/* ------------------------------------------------------------ commit */

static int ensure_port(struct rd_fib *f, uint32_t ifindex,
		       struct rd_fib_counts *c)
{
	char what[64];
	size_t i;
	int err;

	for (i = 0; i < f->n_ports; i++)
		if (f->ports[i] == ifindex)
			return 0;
	/* under the writers' lock sync holds (rd_writers_lock) */
	err = rd_portw_ensure(f->maps.tx_ports, f->maps.port_cfg, ifindex,
			      &c->port_writes, what, sizeof(what));
	if (err) {
		rd_fib_log_error(f, what, err);
		c->errors++;
		return err;
	}
	if (rd_grow((void **)&f->ports, f->n_ports, &f->cap_ports,
		    sizeof(*f->ports), 64))
		return 0; /* checked again next time */
	f->ports[f->n_ports++] = ifindex;
	return 0;
}

static void commit_group(struct rd_fib *f, struct rd_fgroup *g,
			 rd_member_fill_fn fill, void *ctx,
			 struct rd_fib_counts *c)
{
	struct rocedp_group *v = &f->scratch;
	__u32 key = g->id;
	char what[48];
	int i, err;

	g->dirty = false;
	/* ports first: a member must not be live before its devmap entry */
	for (i = 0; i < g->n; i++)
		ensure_port(f, g->hops[i].ifindex, c);
	rd_fgroup_value(g, fill, ctx, v);
	if (f->inst[key] && !memcmp(f->inst[key], v, sizeof(*v)))
		return;
	err = w_group_put(f, key, v);
	if (err) {
		snprintf(what, sizeof(what), "rd_groups id %u", key);
		rd_fib_log_error(f, what, err);
		c->errors++;
		g->dirty = true; /* try again on the next commit */
		return;
	}
	if (!f->inst[key]) {
		f->inst[key] = malloc(sizeof(*v));
		if (!f->inst[key]) {
			g->dirty = true;
			return;
		}
	}
	memcpy(f->inst[key], v, sizeof(*v));
	f->inst_key[key] = rd_fib_hops_hash(g->hops, g->n);
	c->group_writes++;
}

union route_key {
	struct rocedp_route4_key k4;
	struct rocedp_route6_key k6;
};

/* p's map key; the fd of its family's trie (-1: dry run). */
static int route_key(struct rd_fib *f, const struct rd_fprefix *p,
		     union route_key *key)
{
	memset(key, 0, sizeof(*key));
	key->k4.prefixlen = p->plen;
	if (p->family == AF_INET)
		memcpy(&key->k4.addr, p->addr, 4);
	else
		memcpy(key->k6.addr, p->addr, 16);
	return p->family == AF_INET ? f->maps.routes4 : f->maps.routes6;
}

static void route_error(struct rd_fib *f, const struct rd_fprefix *p, int err,
			struct rd_fib_counts *c)
{
	char what[80], name[64];

	prefix_name(p, name, sizeof(name));
	snprintf(what, sizeof(what), "%s %s",
		 p->family == AF_INET ? "rd_routes4" : "rd_routes6", name);
	rd_fib_log_error(f, what, err);
	c->errors++;
}

/* p has a route to install: the kernel's or an explicit one */
static bool route_wanted(const struct rd_fprefix *p)
{
	return p->want || p->expl;
}

/* What p's entry should hold: its route (an explicit one first), marked
 * while it covers one the trie could not take. */
static struct rocedp_route route_eff(const struct rd_fprefix *p)
{
	struct rocedp_route v = p->expl ? p->expl_val : p->want_val;

	if (p->mark)
		v.flags |= ROCEDP_ROUTEF_KERNEL;
	return v;
}

static void commit_route(struct rd_fib *f, struct rd_fprefix *p,
			 struct rd_fib_counts *c)
{
	struct rocedp_route v = route_eff(p);
	union route_key key;
	int fd, err = 0;

	bool want = route_wanted(p);

	if (p->is_static)
		return;
	if (!want)
		p->pending = false;
	if (want && p->inst && !memcmp(&v, &p->inst_val, sizeof(v)))
		return;
	if (!want && !p->inst)
		return;
	fd = route_key(f, p, &key);
	if (want) {
		if (fd >= 0)
			err = w_route_put(f, fd, &key, &v, BPF_ANY);
		/* ENOSPC, ENOMEM: pending, its cover marked, retried */
		p->pending = err != 0;
		if (!err) {
			if (p->inst)
				inst_ref(f, &p->inst_val, -1);
			p->inst = true;
			p->inst_val = v;
			inst_ref(f, &p->inst_val, 1);
			c->route_writes++;
		} else {
			c->route_fails++;
		}
	} else {
		if (fd >= 0)
			err = w_route_del(f, fd, &key);
		if (!err) {
			inst_ref(f, &p->inst_val, -1);
			p->inst = false;
			c->route_deletes++;
		}
	}
	if (err)
		route_error(f, p, err, c);
}

/*
 * The entry a pending route's traffic matches instead: the longest
 * installed prefix above it (after: one that stays, when future).
 */
static struct rd_fprefix *route_cover(struct rd_fib *f,
				      const struct rd_fprefix *p, bool future)
{
	struct rd_fprefix *q;
	int plen;

	for (plen = p->plen - 1; plen >= 0; plen--) {
		q = rd_fib_prefix_find(f, p->family, plen, p->addr, false);
		if (q && q->inst &&
		    (!future || route_wanted(q) || q->is_static))
			return q;
	}
	return NULL;
}

/*
 * Hand the covers of pending routes to the kernel (ROUTEF_KERNEL, an
 * in-place rewrite: no new trie entry); with clear, also unmark covers
 * whose routes landed. Before the route writes (set only, covers that stay)
 * and after them (both), so no frame follows a cover in between.
 */
static void commit_marks(struct rd_fib *f, bool clear, struct rd_fib_counts *c)
{
	struct rocedp_route v;
	union route_key key;
	struct rd_ht_node *e;
	struct rd_fprefix *p, *q;
	int fd, err;
	size_t i;

	if (!f->n_pending && !f->n_marked && !clear)
		return;
	rd_ht_for_each(&f->prefixes, i, e)((struct rd_fprefix *)e)->mark_want =
		false;
	f->n_pending = f->n_marked = 0;
	rd_ht_for_each(&f->prefixes, i, e)
	{
		p = (struct rd_fprefix *)e;
		if (!p->pending || !route_wanted(p))
			continue;
		f->n_pending++;
		q = route_cover(f, p, !clear);
		if (q)
			q->mark_want = true;
	}
	rd_ht_for_each(&f->prefixes, i, e)
	{
		p = (struct rd_fprefix *)e;
		if (p->mark_want == p->mark || (!p->mark_want && !clear) ||
		    !p->inst) {
			if (!p->inst)
				p->mark = p->mark_want;
			f->n_marked += p->mark;
			continue;
		}
		v = p->inst_val;
		v.flags = p->mark_want ? v.flags | ROCEDP_ROUTEF_KERNEL :
					 v.flags & ~ROCEDP_ROUTEF_KERNEL;
		fd = route_key(f, p, &key);
		err = fd >= 0 ? w_route_put(f, fd, &key, &v, BPF_EXIST) : 0;
		/* kernels before 6.13's fix refuse even an in-place write
		 * into a full trie: make room with the entry itself */
		if (err == -ENOSPC && p->mark_want &&
		    !w_route_del(f, fd, &key)) {
			err = w_route_put(f, fd, &key, &v, BPF_ANY);
			if (err) { /* gone: passes as no_route, retried */
				inst_ref(f, &p->inst_val, -1);
				p->inst = false;
				rd_fib_prefix_dirty(f, p);
			}
		}
		if (err) {
			route_error(f, p, err, c);
		} else {
			p->inst_val = v;
			p->mark = p->mark_want;
			c->route_marks++;
		}
		f->n_marked += p->mark;
	}
}

unsigned int rd_fib_n_pending(struct rd_fib *f)
{
	return f->n_pending;
}

static void commit_group_deletes(struct rd_fib *f, struct rd_fib_counts *c)
{
	char what[48];
	__u32 id;
	int err;

	for (id = 1; id < ROCEDP_MAX_GROUPS; id++) {
		if (!f->inst[id] || f->gid[id] || f->gstatic[id] ||
		    f->inst_refs[id])
			continue;
		err = w_group_del(f, id);
		if (err) {
			snprintf(what, sizeof(what), "rd_groups id %u", id);
			rd_fib_log_error(f, what, err);
			c->errors++;
			continue;
		}
		free(f->inst[id]);
		f->inst[id] = NULL;
		c->group_deletes++;
	}
}

/* Free a prefix neither side holds any more; it must be off the dirty list. */
static void prefix_drop_unused(struct rd_fib *f, struct rd_fprefix *p)
{
	if (route_wanted(p) || p->inst)
		return;
	rd_ht_del(&f->prefixes, &p->node);
	free(p);
}

/* An explicit group whose value the maps do not hold yet. */
static void commit_expl_group(struct rd_fib *f, __u32 id,
			      struct rd_fib_counts *c)
{
	const struct rocedp_group *v = f->expl[id];
	char what[48];
	int err;

	if (f->inst[id] && !memcmp(f->inst[id], v, sizeof(*v)))
		return;
	err = w_group_put(f, id, v);
	if (!err && !f->inst[id] && !(f->inst[id] = malloc(sizeof(*v))))
		err = -ENOMEM; /* written, but the mirror cannot say so */
	if (err) {
		snprintf(what, sizeof(what), "rd_groups id %u", id);
		rd_fib_log_error(f, what, err);
		c->errors++;
		return;
	}
	memcpy(f->inst[id], v, sizeof(*v));
	c->group_writes++;
}

/* Every dirty group (every group when full) into the maps. */
static void commit_groups(struct rd_fib *f, bool full, rd_member_fill_fn fill,
			  void *ctx, struct rd_fib_counts *c)
{
	int id;

	for (id = 1; id < ROCEDP_MAX_GROUPS; id++)
		if (f->expl[id])
			commit_expl_group(f, id, c);
		else if (f->gid[id] && (f->gid[id]->dirty || full))
			commit_group(f, f->gid[id], fill, ctx, c);
}

int rd_fib_commit_groups(struct rd_fib *f, rd_member_fill_fn fill, void *ctx,
			 struct rd_fib_counts *c)
{
	struct rd_fib_counts local = { 0 };
	uint64_t errors;

	if (!c)
		c = &local;
	errors = c->errors;
	commit_groups(f, false, fill, ctx, c);
	return c->errors > errors ? -EIO : 0;
}

int rd_fib_commit(struct rd_fib *f, bool full, rd_member_fill_fn fill,
		  void *ctx, struct rd_fib_counts *c)
{
	struct rd_fib_counts local = { 0 };
	struct rd_ht_node *e, *next;
	uint64_t errors;
	size_t i;

	if (!c)
		c = &local;
	errors = c->errors;
	commit_groups(f, full, fill, ctx, c);
	commit_marks(f, false, c);
	if (full) {
		rd_ht_for_each(&f->prefixes, i, e)
			commit_route(f, (struct rd_fprefix *)e, c);
	} else {
		for (i = 0; i < f->n_dirty; i++)
			commit_route(f, f->dirty[i], c);
	}
	commit_marks(f, true, c);
	commit_group_deletes(f, c);

	/* drop prefixes neither side holds any more */
	for (i = 0; i < f->n_dirty; i++) {
		f->dirty[i]->dirty = false;
		if (!full)
			prefix_drop_unused(f, f->dirty[i]);
	}
	f->n_dirty = 0;
	if (full)
		for (i = 0; i <= f->prefixes.mask; i++)
			for (e = f->prefixes.b[i]; e; e = next) {
				next = e->next;
				prefix_drop_unused(f, (struct rd_fprefix *)e);
			}
	/* the next commit (an event's or the tick's) tries them again */
	if (f->n_pending)
		rd_ht_for_each(&f->prefixes, i,
			       e) if (((struct rd_fprefix *)e)->pending)
			rd_fib_prefix_dirty(f, (struct rd_fprefix *)e);
	return c->errors > errors ? -EIO : 0;
}
