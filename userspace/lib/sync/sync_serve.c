// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-off socket of rocedp sync (sync_serve.h). A request is read
 * whole (with a receive timeout, so a stalled peer cannot hold the
 * daemon), committed by the same static step a load runs in-process
 * (config_static.h), and answered with its result.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "config_handoff.h"
#include "config_static.h"
#include "pindir.h"
#include "sync_serve.h"
#include "sync_state.h"

#define CAP_NET_ADMIN_BIT 12
#define SERVE_RCV_TIMEOUT_S 5

int rd_serve_listen(struct rd_sync *s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, err;

	if (s->serve_fd >= 0 || !s->config_map_id)
		return 0;
	err = rd_handoff_path(s->config_map_id, sa.sun_path,
			      sizeof(sa.sun_path));
	if (err)
		return err;
	mkdir(ROCEDP_RUN_DIR, 0700);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* the map id is ours while the maps live: a file there is stale */
	unlink(sa.sun_path);
	old = umask(0177); /* 0600 from the start, never wider */
	err = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	umask(old);
	if (!err && listen(fd, 8))
		err = -errno;
	if (err) {
		close(fd);
		unlink(sa.sun_path);
		return err;
	}
	snprintf(s->serve_path, sizeof(s->serve_path), "%s", sa.sun_path);
	s->serve_fd = fd;
	s->serve_pid = getpid();
	return 0;
}

void rd_serve_close(struct rd_sync *s)
{
	if (s->serve_fd < 0)
		return;
	close(s->serve_fd);
	s->serve_fd = -1;
	/* a forked child (--daemon's parent exits first) leaves it to us */
	if (s->serve_pid == getpid())
		unlink(s->serve_path);
}

/* Has the peer pid CAP_NET_ADMIN in its effective set? */
static bool peer_net_admin(pid_t pid)
{
	unsigned long long caps;
	char path[64], line[128];
	bool ok = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			ok = caps & (1ull << CAP_NET_ADMIN_BIT);
			break;
		}
	fclose(f);
	return ok;
}

static void reply(int fd, struct rd_handoff_reply *r)
{
	r->magic = RD_HANDOFF_MAGIC;
	if (send(fd, r, sizeof(*r), MSG_NOSIGNAL) != sizeof(*r))
		rd_err("sync", "hand-off: cannot answer: %s", strerror(errno));
}

/* Read the request into st; -errno with r->msg set. */
static int read_request(int fd, struct rd_staged *st,
			struct rd_handoff_reply *r)
{
	struct rd_handoff_req q;
	int err;

	memset(st, 0, sizeof(*st));
	err = rd_handoff_recv_all(fd, &q, sizeof(q));
	if (err) {
		snprintf(r->msg, sizeof(r->msg), "reading the request: %s",
			 strerror(-err));
		return err;
	}
	if (q.magic != RD_HANDOFF_MAGIC ||
	    q.group_size != sizeof(*st->groups) ||
	    q.route_size != sizeof(*st->routes) ||
	    q.n_groups >= ROCEDP_MAX_GROUPS ||
	    q.n_routes > RD_HANDOFF_MAX_ROUTES) {
		snprintf(
			r->msg, sizeof(r->msg),
			"a request this sync cannot read (another rocedp build?)");
		return -EPROTO;
	}
	st->groups = calloc(q.n_groups + 1, sizeof(*st->groups));
	st->routes = calloc(q.n_routes + 1, sizeof(*st->routes));
	if (!st->groups || !st->routes) {
		snprintf(r->msg, sizeof(r->msg), "out of memory");
		return -ENOMEM;
	}
	st->n_groups = q.n_groups;
	st->n_routes = q.n_routes;
	err = rd_handoff_recv_all(fd, st->groups,
				  q.n_groups * sizeof(*st->groups));
	if (!err)
		err = rd_handoff_recv_all(fd, st->routes,
					  (size_t)q.n_routes *
						  sizeof(*st->routes));
	if (err)
		snprintf(r->msg, sizeof(r->msg), "reading the request: %s",
			 strerror(-err));
	return err;
}

static void serve_one(struct rd_sync *s, int fd)
{
	struct timeval tv = { .tv_sec = SERVE_RCV_TIMEOUT_S };
	struct rd_config_static run = { .obj = "sync: config" };
	struct rd_handoff_reply r;
	struct rd_fib_fault fault = { 0 };
	struct ucred cr;
	socklen_t len = sizeof(cr);
	struct rd_staged st;
	bool locked;
	int err;

	memset(&r, 0, sizeof(r));
	memset(&st, 0, sizeof(st));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) ||
	    (cr.uid != 0 && !peer_net_admin(cr.pid))) {
		r.err = -EPERM;
		snprintf(r.msg, sizeof(r.msg),
			 "refused: the sender needs CAP_NET_ADMIN");
		rd_err("sync",
		       "hand-off from uid %u pid %d refused: no CAP_NET_ADMIN",
		       (unsigned int)cr.uid, (int)cr.pid);
		reply(fd, &r);
		return;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	err = read_request(fd, &st, &r);
	if (err) {
		r.err = err;
		rd_err("sync", "hand-off: %s", r.msg);
		goto out;
	}
	/*
	 * The requester holds the writers' lock for its whole load. Should it
	 * not (another build), take it, so the step never runs unlocked.
	 */
	locked = !flock(s->dir_fd, LOCK_EX | LOCK_NB);
#ifdef ROCEDP_FAULTS
	/* test builds only (docs/faults.md): die after this many writes */
	const char *c = getenv("ROCEDP_FAULT_SYNC_HANDOFF_CRASH");

	fault.crash_at = c ? atol(c) : 0;
	fault.crash_status = 71;
#endif
	run.fault = &fault;
	err = rd_config_static_apply(&s->maps, &st, &run);
	if (locked)
		flock(s->dir_fd, LOCK_UN);
	/* the mirror no longer says what the maps hold: read it again */
	s->reload = true;
	s->st.handoffs++;
	r.err = err;
	r.wrote = run.wrote;
	if (err)
		snprintf(r.msg, sizeof(r.msg),
			 "committing them failed: %s (named in its log)",
			 strerror(-err));
	if (s->opts.verbose)
		fprintf(stderr,
			"sync: config hand-off from pid %d: %u groups, %u routes: %s\n",
			(int)cr.pid, st.n_groups, st.n_routes,
			err ? strerror(-err) : "committed");
out:
	reply(fd, &r);
	free(st.groups);
	free(st.routes);
}

void rd_serve_pending(struct rd_sync *s)
{
	int fd;

	if (s->serve_fd < 0)
		return;
	while ((fd = accept4(s->serve_fd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		serve_one(s, fd);
		close(fd);
	}
}
