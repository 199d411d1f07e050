// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp sync: mirror the kernel's routes, nexthop objects, neighbours and
 * links into the forwarding maps, first by a dump and then by events.
 *
 * The kernel is the source of truth; rocedp only takes over what it can
 * forward exactly like the kernel would: unicast routes whose next hops all
 * have a gateway. Every other route of the synced tables (connected, local,
 * broadcast, blackhole, unreachable, ...) is installed with
 * ROCEDP_ROUTEF_LOCAL so that the longest-prefix match hands the frame to
 * the kernel instead of falling through to a shorter forwarded prefix.
 *
 * This file is the daemon: the event loop, batches and their commits, the
 * full resync and the lifecycle. The kernel view, route choice, message
 * handlers and commit helpers are modules of their own (docs/design.md,
 * Sync modules).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>

#include "rocedp.h"
#include "escape.h"
#include "nl.h"
#include "routew.h"
#include "sync.h"
#include "sync_guard.h"
#include "sync_commit.h"
#include "sync_msg.h"
#include "sync_state.h"
#include "sync_route.h"
#include "sync_serve.h"
#include "sync_view.h"
#include "pindir.h"
#include "sync_owner.h"

/* ------------------------------------------------------------ dispatch */

struct msg_ctx {
	struct rd_sync *s;
	struct rd_nl *nl;
};

static void service_events(struct rd_sync *s);

static int on_msg(const struct nlmsghdr *nlh, void *data)
{
	struct msg_ctx *ctx = data;
	struct rd_sync *s = ctx->s;

	if (s->service_ok && !(++s->svc_count & 63))
		service_events(s);
	s->st.events++;
	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		rd_on_link(s, ctx->nl, nlh);
		break;
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		rd_on_neigh(s, ctx->nl, nlh);
		break;
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		rd_on_route(s, ctx->nl, nlh);
		break;
	case RTM_NEWNEXTHOP:
	case RTM_DELNEXTHOP:
		rd_on_nexthop(s, ctx->nl, nlh);
		break;
	case RTM_NEWNEXTHOPBUCKET:
		rd_on_nh_bucket(s, ctx->nl, nlh);
		break;
	default:
		s->st.ignored_msgs++;
		break;
	}
	return MNL_CB_OK;
}

/* Before a commit: fetch tables of changed groups, re-apply their routes. */
static void nh_res_refresh(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->req };
	struct snh *h;
	unsigned int b;

	if (s->res_dump) {
		s->res_dump = false;
		rd_nl_dump(&s->req, RTM_GETNEXTHOPBUCKET, AF_UNSPEC, on_msg,
			   &ctx);
	}
	for (b = 0; b < NH_BUCKETS; b++)
		for (h = s->nhs[b]; h; h = h->next)
			if (h->res_dirty) {
				h->res_dirty = false;
				rd_nh_changed(s, h->id, false);
			}
}

static void commit_batch(struct rd_sync *s, uint64_t t_arrival,
			 bool groups_only)
{
	struct rd_fib_counts before = s->st.writes;
	uint64_t writes, ns;

	if (s->resync_failures || rd_writers_lock(s, true) < 0)
		return; /* nothing written: dirty stays for the next try */
	if (groups_only) {
		/* after a re-read, the next route commit is full (full_next) */
		rd_fib_commit_groups(s->fib, rd_fill_member, s, &s->st.writes);
	} else {
		nh_res_refresh(s);
		s->unresolved = 0;
		rd_fib_commit(s->fib, s->full_next, rd_fill_member, s,
			      &s->st.writes);
		s->full_next = false;
		s->dirty = false;
	}
	rd_writers_lock(s, false);
	writes = rd_counts_total(&s->st.writes) - rd_counts_total(&before);
	if (writes) {
		ns = rd_now_ns() - t_arrival;
		s->st.batches++;
		s->st.lat_last_ns = ns;
		s->st.lat_sum_ns += ns;
		s->st.lat_n++;
		if (ns > s->st.lat_max_ns)
			s->st.lat_max_ns = ns;
		if (s->opts.latency_log) {
			/* it may name a link: escaped */
			char ev[RD_ESC_LEN(sizeof(s->first_event))];

			if (rd_json)
				printf("{\"latency_ns\":%" PRIu64
				       ",\"events\":%" PRIu64
				       ",\"writes\":%" PRIu64
				       ",\"first\":\"%s\"}\n",
				       ns, s->batch_events, writes,
				       rd_esc_json(s->first_event, ev,
						   sizeof(ev)));
			else
				printf("latency %.1f us events %" PRIu64
				       " writes %" PRIu64 " first: %s\n",
				       ns / 1000.0, s->batch_events, writes,
				       rd_esc_term(s->first_event, ev,
						   sizeof(ev)));
			fflush(stdout);
		}
		if (s->lat_fn)
			s->lat_fn(s->lat_ctx, ns, s->first_event);
	}
	s->first_event[0] = 0;
	s->batch_events = 0;
	if (!groups_only) /* the request socket may be in a dump */
		rd_run_probes(s);
	rd_report_unknown(s);
}

/* ------------------------------------------------------------ resync */

static int discard_msg(const struct nlmsghdr *nlh __attribute__((unused)),
		       void *data __attribute__((unused)))
{
	return MNL_CB_OK;
}

/*
 * During a dump: apply link and neighbour events at once (a member going
 * down must not wait for 100k routes to be read), keep the rest in order
 * for after the dump.
 */
static int serve_or_defer(const struct nlmsghdr *nlh, void *data)
{
	struct msg_ctx *ctx = data;
	struct rd_sync *s = ctx->s;
	size_t len = NLMSG_ALIGN(nlh->nlmsg_len);
	char *d;

	switch (s->defer_all ? 0 : nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
	case RTM_NEWNEIGH:
	case RTM_DELNEIGH:
		s->in_dump = false;
		s->st.events++;
		if (nlh->nlmsg_type == RTM_NEWLINK ||
		    nlh->nlmsg_type == RTM_DELLINK)
			rd_on_link(s, ctx->nl, nlh);
		else
			rd_on_neigh(s, ctx->nl, nlh);
		s->in_dump = true;
		return MNL_CB_OK;
	}
	if (s->overrun_in_resync)
		return MNL_CB_OK; /* already lost: the next resync covers it */
	/* as much again as the socket may hold: --rcvbuf sizes both */
	if (s->n_deferred + len >
	    (size_t)(s->opts.rcvbuf > 0 ? s->opts.rcvbuf : EVENT_RCVBUF)) {
		/* a flood outran the dump: replaying it would cost more */
		s->st.deferred_drops++;
		s->n_deferred = 0;
		s->overrun_in_resync = true;
		return MNL_CB_OK;
	}
	if (s->n_deferred + len > s->cap_deferred) {
		size_t cap = (s->cap_deferred + len) * 2;

		d = realloc(s->deferred, cap);
		if (!d) {
			s->n_deferred = 0;
			s->overrun_in_resync = true; /* lost: resync again */
			return MNL_CB_OK;
		}
		s->deferred = d;
		s->cap_deferred = cap;
	}
	memcpy(s->deferred + s->n_deferred, nlh, nlh->nlmsg_len);
	s->n_deferred += len;
	return MNL_CB_OK;
}

static void service_events(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->mon };
	struct pollfd pfd = { .fd = rd_nl_fd(&s->mon), .events = POLLIN };
	uint64_t t;
	int n;

	if (poll(&pfd, 1, 0) <= 0)
		return;
	t = rd_now_ns();
	s->service_ok = false; /* no recursion from inside the callbacks */
	n = rd_nl_drain(&s->mon, serve_or_defer, &ctx, MAX_DGRAMS_PER_BATCH);
	if (n == -ENOBUFS) {
		s->st.overruns++;
		s->overrun_in_resync = true;
		while (rd_nl_drain(&s->mon, discard_msg, NULL,
				   MAX_DGRAMS_PER_BATCH) > 0)
			;
	}
	commit_batch(s, t, true);
	s->service_ok = true;
}

static void run_deferred(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->mon };
	const struct nlmsghdr *nlh = (const void *)s->deferred;
	int left = s->n_deferred;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
		on_msg(nlh, &ctx);
	s->n_deferred = 0;
}

static int dump_all(struct rd_sync *s)
{
	struct msg_ctx ctx = { s, &s->req };
	static const struct {
		uint16_t type;
		uint8_t family;
		bool optional;
	} dumps[] = {
		{ RTM_GETLINK, AF_UNSPEC, false },
		{ RTM_GETNEIGH, AF_INET, false },
		{ RTM_GETNEIGH, AF_INET6, true },
		{ RTM_GETNEXTHOP, AF_UNSPEC,
		  true }, /* before the routes using them */
		{ RTM_GETNEXTHOPBUCKET, AF_UNSPEC, true }, /* resilient */
		{ RTM_GETROUTE, AF_INET, false },
		{ RTM_GETROUTE, AF_INET6, true },
	};
	unsigned int i;
	int err;

	for (i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		s->service_ok = dumps[i].type == RTM_GETNEXTHOP ||
				dumps[i].type == RTM_GETROUTE;
		err = rd_nl_dump(&s->req, dumps[i].type, dumps[i].family,
				 on_msg, &ctx);
		s->service_ok = false;
		if (err == -EAGAIN)
			return err;
		if (err && !dumps[i].optional) {
			rd_err("sync", "netlink dump %u/%u: %s", dumps[i].type,
			       dumps[i].family, strerror(-err));
			return err;
		}
	}
	return 0;
}

/*
 * Between two tries of a dump: wait, but keep every event in order for
 * after the dump that succeeds (the kernel sends some before the change is
 * visible to a dump). Link and neighbour events wait too: the view of them
 * may be half read.
 */
static int backoff(struct rd_sync *s, uint64_t ns)
{
	struct msg_ctx ctx = { s, &s->mon };
	struct pollfd pfd = { .fd = rd_nl_fd(&s->mon), .events = POLLIN };
	uint64_t end = rd_now_ns() + ns, now;

	while ((now = rd_now_ns()) < end) {
		if (s->opts.stop && *s->opts.stop)
			return -ECANCELED;
		if (poll(&pfd, 1, (end - now) / 1000000 + 1) <= 0)
			continue;
		s->in_dump = s->defer_all = true;
		if (rd_nl_drain(&s->mon, serve_or_defer, &ctx,
				MAX_DGRAMS_PER_BATCH) == -ENOBUFS) {
			s->st.overruns++;
			s->overrun_in_resync = true;
		}
		s->in_dump = s->defer_all = false;
	}
	return s->opts.stop && *s->opts.stop ? -ECANCELED : 0;
}

/*
 * Never exit for a failed resync: try again later, paced. Until one
 * succeeds the kernel view may be half read, so nothing is committed.
 */
static int resync_failed(struct rd_sync *s, int err)
{
	if (err == -ECANCELED)
		return err;
	if (!s->resync_failures++)
		rd_err("sync", "full resync: %s; retrying", strerror(-err));
	s->resync_at = rd_now_ns() + rd_backoff_ns(s->resync_failures);
	return err;
}

/*
 * reload: read the maps back into the mirror first (start, SIGHUP). A
 * resync for a link change or an overrun trusts the mirror: this process is
 * the only writer of its entries, and reading 100k routes back costs more
 * than the dump itself.
 */
static int resync(struct rd_sync *s, bool reload)
{
	uint64_t t0 = rd_now_ns(), t1, t2, t3;
	unsigned int b, k = 0;
	struct sroute *r;
	int err, tries;

	s->resync_at = 0;
	s->overrun_in_resync = false;
	s->st.resyncs++;
	if (reload) {
		/*
		 * The hand-off socket opens under the writers' lock: a load
		 * that held it before is in the maps we read below, and every
		 * load after it hands its static routes to us.
		 */
		if (s->serve_fd < 0) {
			err = rd_lock_wait(s->dir_fd, s->opts.stop, -1, NULL,
					   NULL);
			if (err)
				return err == -ECANCELED ?
					       err :
					       resync_failed(s, err);
			err = rd_serve_listen(s);
			rd_lock_release(s->dir_fd);
			if (err) {
				rd_err("sync", "hand-off socket %s: %s",
				       ROCEDP_RUN_DIR, strerror(-err));
				return err;
			}
		}
		s->reload = false;
		err = rd_fib_load_installed(s->fib);
		if (err) {
			rd_err("sync", "reading the maps: %s", strerror(-err));
			return resync_failed(s, err);
		}
	}
	t1 = rd_now_ns();
	/*
	 * EAGAIN: the table changed during the dump. Try again, paced, for as
	 * long as it takes: giving up would leave the maps stale.
	 */
	for (tries = 0;; tries++) {
		if (tries) {
			s->st.dump_retries++;
			err = backoff(s, rd_backoff_ns(tries));
			if (err)
				return err;
		}
		rd_clear_kernel_view(s);
		s->in_dump = true;
		err = dump_all(s);
		s->in_dump = false;
		if (err != -EAGAIN)
			break;
	}
	if (err)
		return resync_failed(s, err);
	s->resync_failures = 0;
	t2 = rd_now_ns();
	rd_fib_begin_full(s->fib);
	for (b = 0; b < ROUTE_BUCKETS; b++)
		for (r = s->routes[b]; r; r = r->next) {
			rd_route_apply(s, r);
			if (!(++k & 4095)) {
				s->service_ok = true;
				s->in_dump = true;
				service_events(s);
				s->in_dump = false;
				s->service_ok = false;
			}
		}
	rd_fib_end_full(s->fib);
	t3 = rd_now_ns();
	rd_fib_touch_ifindex(s->fib, 0);
	s->unresolved = 0;
	err = rd_writers_lock(s, true);
	if (err < 0) {
		s->full_next = s->dirty =
			true; /* the model is ahead of the maps */
		return err;
	}
	rd_fib_commit(s->fib, true, rd_fill_member, s, &s->st.writes);
	rd_writers_lock(s, false);
	s->full_next = false;
	s->dirty = false;
	s->first_event[0] = 0;
	s->batch_events = 0;
	rd_run_probes(s);
	rd_report_unknown(s);
	if (s->opts.verbose)
		fprintf(stderr,
			"sync: full resync in %.1f ms (maps read %.1f, dump %.1f, model %.1f)\n",
			(rd_now_ns() - t0) / 1e6, (t1 - t0) / 1e6,
			(t2 - t1) / 1e6, (t3 - t2) / 1e6);
	/* what arrived during the dump, in order, then committed as a batch */
	if (s->n_deferred) {
		t0 = rd_now_ns();
		run_deferred(s);
		if (s->dirty)
			commit_batch(s, t0, false);
	}
	if (s->overrun_in_resync)
		s->resync_at = 1;
	return 0;
}

int rd_sync_resync(struct rd_sync *s)
{
	return resync(s, true);
}

int rd_sync_feed(struct rd_sync *s, const void *buf, size_t len)
{
	struct msg_ctx ctx = { s, &s->mon };
	uint64_t t = rd_now_ns();
	int ret;

	s->service_ok = false; /* the messages given, none from the socket */
	ret = mnl_cb_run(buf, len, 0, 0, on_msg, &ctx);
	commit_batch(s, t, false);
	return ret < 0 ? -EBADMSG : 0;
}

/* ------------------------------------------------------------ lifecycle */

int rd_sync_open(struct rd_sync **out, const struct rd_sync_opts *opts)
{
	static const unsigned int groups[] = {
		RTNLGRP_LINK,	    RTNLGRP_NEIGH,   RTNLGRP_IPV4_ROUTE,
		RTNLGRP_IPV6_ROUTE, RTNLGRP_NEXTHOP,
	};
	struct rd_fib_maps fm;
	struct rd_sync *s;
	const char *dir;
	int err, id;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->routes = calloc(ROUTE_BUCKETS, sizeof(*s->routes));
	s->lock_fd = -1;
	s->dir_fd = -1;
	s->serve_fd = -1;
	rd_maps_init(&s->maps);
	if (!s->routes) {
		err = -ENOMEM;
		goto err;
	}
	s->opts = *opts;
	if (!s->opts.table)
		s->opts.table = RT_TABLE_MAIN;
	dir = s->opts.pin_dir ? s->opts.pin_dir : rd_pin_dir();
	s->opts.pin_dir = dir;

	err = rd_maps_open_pinned(&s->maps, dir);
	if (err) {
		rd_err("sync", "maps in %s: %s%s", dir, strerror(-err),
		       err == -ENOENT ? " (run rocedp attach first)" : "");
		goto err;
	}
	id = rd_map_id(s->maps.fd[RD_MAP_CONFIG]);
	s->config_map_id = id > 0 ? id : 0;
	/* NULL: no check (pins_gone), never a false "detached" */
	s->pin_abs = realpath(dir, NULL);
	/*
	 * One sync per pin directory: two daemons would fight over ids. The
	 * lock is a file of its own, since `config load/set` lock the pin
	 * directory itself for their short writes and must not wait for us.
	 */
	err = rd_sync_owner_take(dir, &s->lock_fd, s->lock_path,
				 sizeof(s->lock_path));
	if (err) {
		rd_err("sync", "%s: %s", dir,
		       err == -EWOULDBLOCK ?
			       "another rocedp sync is running on it" :
			       strerror(-err));
		goto err;
	}
	/*
	 * Map writes take the lock that `config load/set` hold while they
	 * read the maps and write: a load's undo records are what it read,
	 * so no sync write may fall in between (they wait for one load,
	 * milliseconds).
	 */
	s->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->dir_fd < 0) {
		err = -errno;
		rd_err("sync", "%s: %s", dir, strerror(-err));
		goto err;
	}
	s->fib = rd_fib_new();
	if (!s->fib) {
		err = -ENOMEM;
		goto err;
	}
	fm.routes4 = s->maps.fd[RD_MAP_ROUTES4];
	fm.routes6 = s->maps.fd[RD_MAP_ROUTES6];
	fm.groups = s->maps.fd[RD_MAP_GROUPS];
	fm.group_banks = s->maps.fd[RD_MAP_GROUP_BANKS];
	fm.group_live = s->maps.fd[RD_MAP_GROUP_LIVE];
	fm.tx_ports = s->maps.fd[RD_MAP_TX_PORTS];
	fm.port_cfg = s->maps.fd[RD_MAP_PORT_CFG];
	err = rd_routew_gen_map(s->maps.fd[RD_MAP_ROUTE_GEN], &fm.route_gen);
	if (err) {
		rd_err("sync", "rd_route_gen: cannot map it: %s",
		       strerror(-err));
		goto err;
	}
	/*
	 * We hold the sync lock: no older sync writes routes behind the
	 * generation, so the decision cache may run (routew.h).
	 */
	rd_routew_mark(fm.route_gen, true);
	s->fm = fm;
	rd_fib_set_maps(s->fib, &s->fm);
	rd_flaps_init(&s->flaps, s->maps.fd[RD_MAP_PORT_FLAPS]);

	/* subscribe before dumping, so no change falls between the two */
	err = rd_nl_open(&s->mon, groups, sizeof(groups) / sizeof(groups[0]),
			 s->opts.rcvbuf > 0 ? s->opts.rcvbuf : EVENT_RCVBUF,
			 "sync");
	if (!err)
		err = rd_nl_open(&s->req, NULL, 0, 0, "sync");
	if (err) {
		rd_err("sync", "netlink socket: %s", strerror(-err));
		goto err;
	}
	*out = s;
	return 0;
err:
	rd_sync_close(s);
	return err;
}

void rd_sync_close(struct rd_sync *s)
{
	if (!s)
		return;
	rd_serve_close(s);
	if (s->routes)
		rd_clear_kernel_view(s);
	free(s->routes);
	free(s->probe_q);
	free(s->deferred);
	rd_fib_free(s->fib);
	rd_routew_gen_unmap(s->fm.route_gen);
	if (s->mon.sk)
		rd_nl_close(&s->mon);
	if (s->req.sk)
		rd_nl_close(&s->req);
	rd_maps_close(&s->maps);
	rd_sync_owner_release(s->lock_fd, s->lock_path);
	free(s->pin_abs);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
	free(s);
}

int rd_sync_event_fd(struct rd_sync *s)
{
	return rd_nl_fd(&s->mon);
}

const char *rd_sync_pin_dir(const struct rd_sync *s)
{
	return s->opts.pin_dir;
}

void rd_sync_note_owner(struct rd_sync *s)
{
	if (s->lock_fd >= 0)
		rd_sync_owner_note(s->lock_fd);
}

void rd_sync_set_latency_fn(struct rd_sync *s, rd_sync_latency_fn fn, void *ctx)
{
	s->lat_fn = fn;
	s->lat_ctx = ctx;
}

void rd_sync_get_stats(struct rd_sync *s, struct rd_sync_stats *st)
{
	rd_report_unknown(s);
	s->st.routes = rd_fib_n_routes(s->fib);
	s->st.groups = rd_fib_n_groups(s->fib);
	*st = s->st;
}

/*
 * Is the rd_config we write no longer the one pinned in our directory?
 * detach --all stops us, but pins also go other ways (rm, a detach of a
 * version before that): then nothing reads our writes, and our sockets
 * would keep a deleted netns alive. Only ENOENT or another map count:
 * any other error leaves us running.
 */
static bool pins_gone(struct rd_sync *s)
{
	char path[PATH_MAX];
	int fd, id;

	if (!s->config_map_id || !s->pin_abs)
		return false;
	snprintf(path, sizeof(path), "%s/%s", s->pin_abs,
		 rd_map_names[RD_MAP_CONFIG]);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return errno == ENOENT;
	id = rd_map_id(fd);
	close(fd);
	return id > 0 && (__u32)id != s->config_map_id;
}

int rd_sync_poll(struct rd_sync *s, int timeout_ms)
{
	struct msg_ctx ctx = { s, &s->mon };
	struct pollfd pfd[2] = {
		{ .fd = rd_nl_fd(&s->mon), .events = POLLIN },
		{ .fd = s->serve_fd, .events = POLLIN }, /* -1: ignored */
	};
	uint64_t now = rd_now_ns(), t_arrival;
	int wait = timeout_ms, n, ret;

	if (!s->next_tick)
		s->next_tick = now + PROBE_INTERVAL_NS;
	if (s->resync_at) {
		int until = s->resync_at > now ?
				    (int)((s->resync_at - now) / 1000000 + 1) :
				    0;

		if (wait < 0 || until < wait)
			wait = until;
	}
	ret = poll(pfd, 2, wait);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (ret > 0 && pfd[1].revents) {
		rd_serve_pending(s);
		/* the config's entries may hide or uncover kernel routes:
		 * commit now (the lock waits for the load to finish) */
		if (s->reload)
			commit_batch(s, rd_now_ns(), false);
	}
	if (ret > 0 && pfd[0].revents) {
		t_arrival = rd_now_ns();
		n = rd_nl_drain(&s->mon, on_msg, &ctx, MAX_DGRAMS_PER_BATCH);
		if (n == -ENOBUFS) {
			s->st.overruns++;
			rd_err("sync", "netlink event overrun, full resync");
			/*
			 * What is still queued is older than the lost events:
			 * replayed after the dump it would undo newer state.
			 */
			while (rd_nl_drain(&s->mon, discard_msg, NULL,
					   MAX_DGRAMS_PER_BATCH) > 0)
				;
			s->resync_at = 1; /* now */
		} else if (n < 0) {
			rd_err("sync", "netlink receive: %s", strerror(-n));
			return n;
		}
		/* after an overrun the resync below writes the whole state */
		if (s->dirty && s->resync_at != 1)
			commit_batch(s, t_arrival, false);
	}
	now = rd_now_ns();
	if (s->resync_at && now >= s->resync_at) {
		ret = resync(s, false);
		if (ret == -ECANCELED)
			return ret; /* other failures are retried, paced */
	}
	if (now >= s->next_tick) {
		s->next_tick = now + PROBE_INTERVAL_NS;
		/* two ticks in a row: an upgrade's re-pin is not a detach */
		s->gone_ticks = pins_gone(s) ? s->gone_ticks + 1 : 0;
		if (s->gone_ticks >= 2)
			return -EIDRM;
		if (s->unresolved) {
			/* rebuilding refills the probe queue, writes nothing new */
			rd_fib_touch_ifindex(s->fib, 0);
			commit_batch(s, now, false);
		} else if (rd_fib_n_pending(s->fib)) {
			/* routes the trie refused: retried until they land */
			commit_batch(s, now, false);
		} else if (s->reload) {
			/* a hand-off whose re-read failed: again */
			commit_batch(s, now, false);
		}
	}
	return 0;
}
