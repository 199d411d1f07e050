// SPDX-License-Identifier: GPL-2.0
/*
 * `rocedp sync`: options, signals, the daemon's loop and its summary
 * around the library in sync.c (docs/sync.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/rtnetlink.h>

#include "commands.h"
#include "rocedp.h"
#include "safefile.h"
#include "sdnotify.h"
#include "sync.h"

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile sig_atomic_t sync_stop, sync_hup;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		sync_hup = 1;
	else
		sync_stop = 1;
}

static void print_summary(struct rd_sync *s, double ms)
{
	struct rd_sync_stats st;

	rd_sync_get_stats(s, &st);
	if (rd_json) {
		printf("{\"routes\":%u,\"groups\":%u,\"group_writes\":%" PRIu64
		       ",\"group_deletes\":%" PRIu64
		       ",\"route_writes\":%" PRIu64
		       ",\"route_deletes\":%" PRIu64 ",\"port_writes\":%" PRIu64
		       ",\"route_fails\":%" PRIu64 ",\"route_marks\":%" PRIu64
		       ",\"errors\":%" PRIu64 ",\"events\":%" PRIu64
		       ",\"resyncs\":%" PRIu64 ",\"overruns\":%" PRIu64
		       ",\"dump_retries\":%" PRIu64
		       ",\"deferred_drops\":%" PRIu64
		       ",\"unknown_attrs\":%" PRIu64 ",\"nl_refused\":%" PRIu64
		       ",\"ms\":%.3f}\n",
		       st.routes, st.groups, st.writes.group_writes,
		       st.writes.group_deletes, st.writes.route_writes,
		       st.writes.route_deletes, st.writes.port_writes,
		       st.writes.route_fails, st.writes.route_marks,
		       st.writes.errors, st.events, st.resyncs, st.overruns,
		       st.dump_retries, st.deferred_drops, st.unknown_attrs,
		       st.nl_refused, ms);
	} else {
		printf("sync: %u routes, %u groups; wrote %" PRIu64
		       " groups, %" PRIu64 " routes, %" PRIu64
		       " ports; deleted %" PRIu64 " routes, %" PRIu64
		       " groups; %" PRIu64 " errors, %" PRIu64
		       " route writes refused (retried); %" PRIu64
		       " netlink datagrams refused (not the kernel's) (%.1f ms)\n",
		       st.routes, st.groups, st.writes.group_writes,
		       st.writes.route_writes, st.writes.port_writes,
		       st.writes.route_deletes, st.writes.group_deletes,
		       st.writes.errors, st.writes.route_fails, st.nl_refused,
		       ms);
	}
	fflush(stdout);
}

int cmd_sync(const struct cli_call *c)
{
	const char *table = cli_val(c, "table"), *rcv = cli_val(c, "rcvbuf");
	const char *pid_file = cli_val(c, "pid-file");
	struct rd_sync_opts o = { 0 };
	struct rd_safefile pf = { .dir_fd = -1 };
	bool once = cli_set(c, "once"), daemonize = cli_set(c, "daemon");
	struct sigaction sa = { .sa_handler = on_signal };
	struct rd_sync *s;
	unsigned long tbl;
	double t0;
	char *end;
	int err;

	o.latency_log = cli_set(c, "latency-log");
	o.verbose = cli_set(c, "verbose");
	if (table) {
		errno = 0;
		tbl = strtoul(table, &end, 0);
		if (errno || *end || !tbl || tbl > UINT32_MAX ||
		    tbl == RT_TABLE_LOCAL || *table == '-')
			return cli_usage_err(
				c,
				"--table %s: want a table id 1..%u other than 255",
				table, UINT32_MAX);
		o.table = tbl;
	}
	if (rcv) {
		errno = 0;
		tbl = strtoul(rcv, &end, 0);
		if (errno || *end || !tbl || tbl > INT_MAX || *rcv == '-')
			return cli_usage_err(
				c, "--rcvbuf %s: want a byte count", rcv);
		o.rcvbuf = tbl;
	}
	if (once && daemonize)
		return cli_usage_err(c,
				     "--once and --daemon exclude each other");
	/*
	 * A stop request must wake a wait for the lock or a backoff (no
	 * SA_RESTART: they see EINTR, then the flag); SIGHUP only asks for a
	 * resync at the next turn of the loop, so it restarts what it hits.
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	o.stop = &sync_stop;
	err = rd_sync_open(&s, &o);
	if (err)
		return 1;
	t0 = mono_ms();
	err = rd_sync_resync(s);
	if (err) {
		rd_sync_close(s);
		/* a daemon asked to stop has stopped; --once did not sync */
		if (err == -ECANCELED && once)
			rd_err("sync",
			       "stopped by a signal before the sync completed: nothing written");
		return err == -ECANCELED && !once ? 0 : 1;
	}
	if (once || o.verbose)
		print_summary(s, mono_ms() - t0);
	if (once) {
		rd_sync_close(s);
		return 0;
	}
	/* opened before --daemon returns: a pid file that cannot be written
	 * (a FIFO with no reader, another user's) fails with exit 1 here,
	 * never in the daemon after the caller saw 0 */
	if (pid_file) {
		err = rd_safefile_open(&pf, pid_file, 0644);
		if (err) {
			rd_err("sync", "%s: %s", pid_file,
			       rd_safefile_strerror(err));
			rd_sync_close(s);
			return 1;
		}
	}
	/* detach only now, so that setup errors reach the terminal */
	if (daemonize && daemon(0, 1)) {
		rd_err("sync", "daemon: %s", strerror(errno));
		if (pid_file)
			rd_safefile_abort(&pf);
		rd_sync_close(s);
		return 1;
	}
	/* the lock names the daemon, not the parent that forked it */
	if (daemonize)
		rd_sync_note_owner(s);
	if (pid_file) {
		/* never through a name another user planted (safefile.h) */
		fprintf(pf.f, "%d\n", getpid());
		err = rd_safefile_commit(&pf);
		if (err) {
			rd_err("sync", "%s: %s", pid_file, strerror(-err));
			rd_sync_close(s);
			return 1;
		}
	}
	/* Type=notify: the first full sync is in the maps */
	rd_sd_notify("READY=1");
	while (!sync_stop) {
		if (sync_hup) {
			sync_hup = 0;
			rd_sync_resync(s);
		}
		err = rd_sync_poll(s, 1000);
		if (err == -EIDRM) {
			rd_err("sync",
			       "%s: its maps are no longer pinned there (detached): stopping",
			       rd_sync_pin_dir(s));
			err = 0;
			break;
		}
		if (err == -ECANCELED || err == -EINTR)
			err = 0; /* a stop request: the loop ends */
		if (err) {
			rd_err("sync", "stopping: %s", strerror(-err));
			break;
		}
	}
	rd_sd_notify("STOPPING=1");
	print_summary(s, mono_ms() - t0);
	if (pid_file)
		unlink(pid_file);
	rd_sync_close(s);
	return err ? 1 : 0;
}
