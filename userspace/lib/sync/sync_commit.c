// SPDX-License-Identifier: GPL-2.0
/* Locking, member state and probes around a sync commit (sync_commit.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/neighbour.h>

#include <bpf/bpf.h>

#include "rocedp.h"
#include "nl.h"
#include "sync_guard.h"
#include "sync_commit.h"
#include "sync_serve.h"
#include "sync_state.h"
#include "sync_view.h"

static void queue_probe(struct rd_sync *s, struct sneigh *n)
{
	if (n->probe_queued)
		return;
	if (rd_grow((void **)&s->probe_q, s->n_probe, &s->cap_probe,
		    sizeof(*s->probe_q), 64))
		return;
	s->probe_q[s->n_probe++] = n;
	n->probe_queued = true;
}

void rd_fill_member(void *ctx, struct rocedp_member *m)
{
	struct rd_sync *s = ctx;
	struct slink *l = rd_link_find(s, m->ifindex);
	struct sneigh *n;

	if (l && l->has_addr)
		memcpy(m->smac, l->addr, 6);
	if (rd_link_usable(l))
		m->flags |= ROCEDP_MEMBERF_UP;
	n = rd_neigh_find(s, m->ifindex, m->nh_family, m->nh_addr);
	if (rd_neigh_resolved(n)) {
		memcpy(m->dmac, n->lladdr, 6);
		m->flags |= ROCEDP_MEMBERF_RESOLVED;
		return;
	}
	s->unresolved++;
	/* nobody may send through the kernel to this gateway: ask for it */
	if (rd_link_usable(l) &&
	    (n || (n = rd_neigh_get(s, m->ifindex, m->nh_family, m->nh_addr))))
		queue_probe(s, n);
}

void rd_run_probes(struct rd_sync *s)
{
	uint64_t now = rd_now_ns();
	struct sneigh *n;
	size_t i;

	for (i = 0; i < s->n_probe; i++) {
		n = s->probe_q[i];
		if (!n)
			continue;
		n->probe_queued = false;
		if (rd_neigh_resolved(n) ||
		    (n->last_probe_ns &&
		     now - n->last_probe_ns < PROBE_INTERVAL_NS))
			continue;
		/* a valid entry must not be touched: NTF_USE re-arms state */
		if (n->state & (NUD_REACHABLE | NUD_STALE | NUD_DELAY |
				NUD_PROBE | NUD_PERMANENT))
			continue;
		n->last_probe_ns = now;
		s->st.neigh_probes++;
		rd_nl_neigh_probe(&s->req, n->ifindex, n->family, n->addr);
	}
	s->n_probe = 0;
}

void rd_report_unknown(struct rd_sync *s)
{
	uint64_t unk = s->req.unknown_attrs + s->mon.unknown_attrs;

	s->st.unknown_attrs = unk;
	s->st.bad_attrs = s->req.bad_attrs + s->mon.bad_attrs;
	s->st.nl_refused = s->req.guard.refused + s->mon.guard.refused;
	if (unk && !s->warned_unknown) {
		s->warned_unknown = true;
		fprintf(stderr,
			"sync: skipped %" PRIu64
			" netlink attributes newer than this build (counted, harmless)\n",
			unk);
	}
}

uint64_t rd_counts_total(const struct rd_fib_counts *c)
{
	return c->group_writes + c->group_deletes + c->route_writes +
	       c->route_deletes + c->port_writes;
}

/*
 * Around every map write: see dir_fd. No write without the lock: a signal
 * while waiting retries the wait, a stop request gives up (-ECANCELED),
 * and so does any other failure (logged once); the caller keeps its
 * changes for a later commit. While it waits, it serves hand-offs: the
 * load that holds the lock may be waiting for us (sync_serve.h). After
 * one, the maps are read again before we write, so the config's entries
 * are known. Returns 1 then: the caller's commit must be a full one.
 */
static void serve(void *ctx)
{
	rd_serve_pending(ctx);
}

int rd_writers_lock(struct rd_sync *s, bool lock)
{
	static bool warned;
	int err;

	if (!lock) {
		rd_lock_release(s->dir_fd);
		return 0;
	}
	err = rd_lock_wait(s->dir_fd, s->opts.stop, s->serve_fd, serve, s);
	if (err) {
		if (err != -ECANCELED && !warned)
			rd_err("sync", "locking %s: %s; maps not written",
			       s->opts.pin_dir, strerror(-err));
		warned = err != -ECANCELED;
		return err;
	}
	if (!s->reload)
		return 0;
	err = rd_fib_load_installed(s->fib);
	if (err) {
		rd_err("sync", "reading the maps after a config hand-off: %s",
		       strerror(-err));
		return 0; /* reload stays: read again at the next commit */
	}
	s->reload = false;
	s->full_next = true;
	rd_fib_touch_ifindex(s->fib, 0);
	rd_note_event(s, "config static routes and groups committed");
	return 1;
}
