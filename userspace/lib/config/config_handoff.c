// SPDX-License-Identifier: GPL-2.0
/* The client side of the static routes' hand-off (config_handoff.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "config_handoff.h"
#include "pindir.h"

int rd_handoff_path(int config_id, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/sync-map%d.sock", ROCEDP_RUN_DIR,
			 config_id);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int send_all(int fd, const void *p, size_t len)
{
	const char *b = p;

	while (len) {
		ssize_t n = send(fd, b, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		b += n;
		len -= n;
	}
	return 0;
}

int rd_handoff_recv_all(int fd, void *p, size_t len)
{
	char *b = p;

	while (len) {
		ssize_t n = recv(fd, b, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ECONNRESET;
		b += n;
		len -= n;
	}
	return 0;
}

/* How long a load waits for a sync that broke off a request to be gone. */
#define GONE_WAIT_MS 2000

/*
 * Wait until process pid has exited (gone, or a zombie: its sockets are
 * closed), at most GONE_WAIT_MS: a sync that broke off a request may still
 * hold its listening socket for a moment, and the undo must not hand off
 * to it again.
 */
static void wait_gone(pid_t pid)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	char path[48], buf[256], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < GONE_WAIT_MS / 10; i++) {
		FILE *f = fopen(path, "re");

		if (!f)
			return;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
			return;
		nanosleep(&ts, NULL);
	}
}

/* A connected socket to m's sync; 1: none listens; -errno. */
static int connect_sync(const struct rd_maps *m, char *path, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int id, fd, err;

	if (m->modelled)
		return 1; /* an offline engine's maps: no daemon writes them */
	id = rd_map_id(m->fd[RD_MAP_CONFIG]);
	if (id <= 0)
		return 1;
	err = rd_handoff_path(id, sa.sun_path, sizeof(sa.sun_path));
	if (err)
		return err;
	snprintf(path, len, "%s", sa.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		/* no socket, or one left by a sync that is gone */
		return err == -ENOENT || err == -ECONNREFUSED ? 1 : err;
	}
	return fd;
}

int rd_handoff_commit(const struct rd_maps *m, const struct rd_staged *s,
		      struct rd_config_static *run)
{
	struct rd_handoff_req req = {
		.magic = RD_HANDOFF_MAGIC,
		.group_size = sizeof(*s->groups),
		.route_size = sizeof(*s->routes),
		.n_groups = s->n_groups,
		.n_routes = s->n_routes,
	};
	struct rd_handoff_reply rep;
	struct ucred cr = { 0 };
	socklen_t len = sizeof(cr);
	char path[108];
	int fd, err;

	fd = connect_sync(m, path, sizeof(path));
	if (fd == 1)
		return 1;
	if (fd < 0) {
		rd_err(run->obj, "%s: %s (the running rocedp sync's socket)",
		       path, strerror(-fd));
		return fd;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		cr.pid = 0;
	err = send_all(fd, &req, sizeof(req));
	if (!err && s->n_groups)
		err = send_all(fd, s->groups, s->n_groups * sizeof(*s->groups));
	if (!err && s->n_routes)
		err = send_all(fd, s->routes, s->n_routes * sizeof(*s->routes));
	if (!err)
		err = rd_handoff_recv_all(fd, &rep, sizeof(rep));
	close(fd);
	if (!err && rep.magic != RD_HANDOFF_MAGIC)
		err = -EPROTO;
	if (err) {
		/* it may have written some before it went: the caller undoes */
		run->wrote = true;
		if (cr.pid > 0 && err != -EPROTO)
			wait_gone(cr.pid);
		rd_err(run->obj,
		       "static routes and groups: rocedp sync (%s) did not acknowledge them: %s",
		       path, strerror(-err));
		return err;
	}
	if (rep.err > 0)
		rep.err = -EPROTO;
	run->wrote |= rep.wrote;
	if (rep.err) {
		rep.msg[sizeof(rep.msg) - 1] = 0;
		rd_err(run->obj, "static routes and groups: rocedp sync: %s",
		       rep.msg[0] ? rep.msg : strerror(-rep.err));
	}
	return rep.err;
}

int rd_config_static_commit(const struct rd_maps *m, const struct rd_staged *s,
			    struct rd_config_static *run)
{
	int err = rd_handoff_commit(m, s, run);

	return err == 1 ? rd_config_static_apply(m, s, run) : err;
}
