// SPDX-License-Identifier: GPL-2.0
/*
 * rocegen: its commands (send, serve), and the pattern runner that starts
 * one responder and one requester per host (network namespace) for a
 * collective pattern. The options and the usage text are opts.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rocegen.h"
#include "log.h"
#include "opts.h"

#define RG_MAX_HOSTS 256

static void rg_on_signal(int sig)
{
	if (sig == SIGUSR1)
		rg_finish = 1;
	else
		rg_stop = 1;
}

/* The host list of run: names, network namespaces, addresses. */
struct rg_host {
	char name[32];
	char netns[64];
	struct rg_addr ip;
};

static int cmd_send(int argc, char **argv)
{
	struct rg_send_totals t;
	struct rg_cli c;
	bool have_src;

	rg_defaults(&c);
	if (rg_parse_opts(&c, argc, argv, "send"))
		return 1;
	if (!c.have_dst) {
		rg_err("send", "--dst is required");
		return 1;
	}
	if (rg_dst_list(&c))
		return 1;
	have_src = c.s.src.v6 || c.s.src.a[0] || c.s.src.a[1] || c.s.src.a[2] ||
		   c.s.src.a[3];
	if (rg_send_prepare(&c.s, have_src))
		return 1;
	return rg_send_run(&c.s, stdout, &t);
}

static int cmd_serve(int argc, char **argv)
{
	struct rg_serve_totals t;
	struct rg_cli c;

	rg_defaults(&c);
	if (rg_parse_opts(&c, argc, argv, "serve"))
		return 1;
	return rg_serve_run(&c.r, stdout, &t);
}

/* ---- pattern runner ---- */

static int rg_host_add(struct rg_host *h, int *n, const char *name,
		       const char *netns, const char *ip)
{
	int i;

	if (*n >= RG_MAX_HOSTS) {
		rg_err("--hosts", "more than %d hosts", RG_MAX_HOSTS);
		return -1;
	}
	if (!*name || strlen(name) >= sizeof(h->name) ||
	    strlen(netns) >= sizeof(h->netns) || !*netns) {
		rg_err("--hosts", "%s: bad host name or netns", name);
		return -1;
	}
	for (i = 0; i < *n; i++) {
		if (!strcmp(h[i].name, name)) {
			rg_err("--hosts", "%s: host named twice", name);
			return -1;
		}
	}
	if (rg_addr_parse(ip, &h[*n].ip)) {
		rg_err("--hosts", "%s: %s: not an IPv4 or IPv6 address", name,
		       ip);
		return -1;
	}
	if (*n && h[*n].ip.v6 != h[0].ip.v6) {
		rg_err("--hosts", "%s: IPv4 and IPv6 hosts mixed", name);
		return -1;
	}
	strcpy(h[*n].name, name);
	strcpy(h[*n].netns, netns);
	(*n)++;
	return 0;
}

/* NAME=NETNS:IP,... or @FILE with "NAME NETNS IP" lines. */
static int rg_hosts_parse(const char *spec, struct rg_host *h, int *n)
{
	char line[512], name[128], netns[128], ip[128];
	*n = 0;

	if (spec[0] == '@') {
		FILE *f = fopen(spec + 1, "r");
		int ln = 0;

		if (!f) {
			rg_err(spec + 1, "%s", strerror(errno));
			return -1;
		}
		while (fgets(line, sizeof(line), f)) {
			char *p = line + strspn(line, " \t");

			ln++;
			if (*p == '#' || *p == '\n' || !*p)
				continue;
			if (sscanf(p, "%127s %127s %127s", name, netns, ip) !=
			    3) {
				rg_err(spec + 1, "line %d: want NAME NETNS IP",
				       ln);
				fclose(f);
				return -1;
			}
			if (rg_host_add(h, n, name, netns, ip)) {
				fclose(f);
				return -1;
			}
		}
		fclose(f);
	} else {
		char buf[8192], *save = NULL, *tok;

		if (strlen(spec) >= sizeof(buf)) {
			rg_err("--hosts", "list too long");
			return -1;
		}
		strcpy(buf, spec);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '='), *colon;

			colon = eq ? strchr(eq + 1, ':') : NULL;
			if (!eq || !colon) {
				rg_err("--hosts", "%s: want NAME=NETNS:IP",
				       tok);
				return -1;
			}
			*eq = *colon = 0;
			if (rg_host_add(h, n, tok, eq + 1, colon + 1))
				return -1;
		}
	}
	if (*n < 2) {
		rg_err("--hosts", "a pattern needs at least 2 hosts");
		return -1;
	}
	return 0;
}

static int rg_enter_netns(const struct rg_host *h)
{
	char path[128];
	int fd;

	if (!strcmp(h->netns, "-"))
		return 0;
	if (h->netns[0] == '/')
		snprintf(path, sizeof(path), "%s", h->netns);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", h->netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rg_err(h->name, "netns %s: %s", h->netns, strerror(errno));
		return -1;
	}
	if (setns(fd, CLONE_NEWNET)) {
		rg_err(h->name, "setns %s: %s", h->netns, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

struct rg_child {
	pid_t pid;
	int res_fd; /* totals struct, then JSON text */
	bool sender;
	int host;
	union {
		struct rg_send_totals s;
		struct rg_serve_totals r;
	} t;
	char *json;
	bool ok;
};

/* Child side: run, then hand totals + JSON to the parent. */
static void rg_child_finish(int fd, const void *t, size_t tlen, char *json,
			    size_t jlen)
{
	const char *p = t;
	size_t off = 0;
	ssize_t w;

	while (off < tlen && (w = write(fd, p + off, tlen - off)) > 0)
		off += (size_t)w;
	for (off = 0;
	     off < jlen && (w = write(fd, json + off, jlen - off)) > 0;)
		off += (size_t)w;
	close(fd);
}

static pid_t rg_spawn(struct rg_cli *c, const struct rg_host *hosts, int h,
		      const int *dsts, int ndst, bool sender, int *res_fd,
		      int *ready_fd)
{
	int res[2], rdy[2] = { -1, -1 };
	pid_t pid;

	if (pipe2(res, O_CLOEXEC))
		return -1;
	if (!sender && pipe2(rdy, O_CLOEXEC)) {
		close(res[0]);
		close(res[1]);
		return -1;
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *json = NULL;
		size_t jlen = 0;
		FILE *mem;
		int rc = 1, i;

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		close(res[0]);
		if (rdy[0] >= 0)
			close(rdy[0]);
		if (rg_enter_netns(&hosts[h]))
			_exit(1);
		mem = open_memstream(&json, &jlen);
		if (!mem)
			_exit(1);
		if (sender) {
			struct rg_send_totals t;
			struct rg_send_opts s = c->s;

			s.ndst = ndst;
			for (i = 0; i < ndst; i++)
				s.dst[i] = hosts[dsts[i]].ip;
			s.src = hosts[h].ip;
			s.ifindex = 0;
			s.json = true;
			if (rg_send_prepare(&s, true))
				_exit(1);
			rc = rg_send_run(&s, mem, &t);
			fclose(mem);
			rg_child_finish(res[1], &t, sizeof(t), json, jlen);
		} else {
			struct rg_serve_totals t;
			struct rg_serve_opts r = c->r;

			r.ifindex =
				0; /* any interface: replies go back out the one the frame came in */
			r.ready_fd = rdy[1];
			r.ready_file = NULL;
			r.duration_s = 0;
			r.json = true;
			rc = rg_serve_run(&r, mem, &t);
			fclose(mem);
			rg_child_finish(res[1], &t, sizeof(t), json, jlen);
		}
		_exit(rc > 1 ? 0 : rc);
	}
	close(res[1]);
	*res_fd = res[0];
	if (!sender) {
		close(rdy[1]);
		*ready_fd = rdy[0];
	}
	return pid;
}

static void rg_collect(struct rg_child *ch, size_t tlen)
{
	size_t off = 0, cap = 4096, len = 0;
	char *p = (char *)&ch->t;
	ssize_t n;
	int st;

	while (off < tlen && (n = read(ch->res_fd, p + off, tlen - off)) > 0)
		off += (size_t)n;
	ch->json = malloc(cap);
	while (ch->json &&
	       (n = read(ch->res_fd, ch->json + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			char *nj = realloc(ch->json, cap * 2);

			if (!nj)
				break;
			ch->json = nj;
			cap *= 2;
		}
	}
	if (ch->json) {
		ch->json[len] = 0;
		while (len && ch->json[len - 1] == '\n')
			ch->json[--len] = 0;
	}
	close(ch->res_fd);
	waitpid(ch->pid, &st, 0);
	ch->ok = off == tlen && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		 ch->json && *ch->json;
}

static int cmd_run(int argc, char **argv)
{
	static struct rg_host hosts[RG_MAX_HOSTS];
	static int dsts[RG_MAX_HOSTS][RG_MAX_HOSTS];
	static int ndst[RG_MAX_HOSTS];
	static bool rx[RG_MAX_HOSTS];
	static struct rg_child ch[2 * RG_MAX_HOSTS];
	struct rg_send_totals st = { 0 };
	struct rg_serve_totals rt = { 0 };
	uint64_t t0, last = 0;
	int nh, i, j, sink = 0, nch = 0, failed = 0;
	struct rg_cli c;

	rg_defaults(&c);
	if (rg_parse_opts(&c, argc, argv, "run"))
		return 1;
	if (!c.pattern) {
		rg_err("run", "--pattern is required");
		return 1;
	}
	if (!c.hosts) {
		rg_err("run", "--hosts is required");
		return 1;
	}
	if (c.have_dst) {
		rg_err("run", "--dst: the pattern chooses the destinations");
		return 1;
	}
	if (rg_hosts_parse(c.hosts, hosts, &nh))
		return 1;
	if (c.sink) {
		for (sink = 0; sink < nh; sink++)
			if (!strcmp(hosts[sink].name, c.sink))
				break;
		if (sink == nh) {
			rg_err("--sink", "%s: unknown host", c.sink);
			return 1;
		}
	}
	if (nh > 64 && strcmp(c.pattern, "ring")) {
		rg_err("--hosts", "at most 64 hosts for %s", c.pattern);
		return 1;
	}
	memset(ndst, 0, sizeof(ndst));
	for (i = 0; i < nh; i++) {
		if (!strcmp(c.pattern, "ring")) {
			dsts[i][ndst[i]++] = (i + 1) % nh;
		} else if (!strcmp(c.pattern, "alltoall")) {
			for (j = 0; j < nh; j++)
				if (j != i)
					dsts[i][ndst[i]++] = j;
		} else if (!strcmp(c.pattern, "incast")) {
			if (i != sink)
				dsts[i][ndst[i]++] = sink;
		} else {
			rg_err("--pattern",
			       "%s: unknown pattern (ring, alltoall, incast)",
			       c.pattern);
			return 1;
		}
		for (j = 0; j < ndst[i]; j++)
			rx[dsts[i][j]] = true;
	}

	/* Responders first, and wait until each one listens. */
	for (i = 0; i < nh; i++) {
		int rfd;
		char b;

		if (!rx[i])
			continue;
		ch[nch].sender = false;
		ch[nch].host = i;
		ch[nch].pid = rg_spawn(&c, hosts, i, NULL, 0, false,
				       &ch[nch].res_fd, &rfd);
		if (ch[nch].pid < 0) {
			rg_err(hosts[i].name, "fork: %s", strerror(errno));
			goto stop;
		}
		nch++;
		struct pollfd pfd = { .fd = rfd, .events = POLLIN };

		if (poll(&pfd, 1, 5000) != 1 || read(rfd, &b, 1) != 1) {
			close(rfd);
			rg_err(hosts[i].name, "responder did not start");
			goto stop;
		}
		close(rfd);
	}
	t0 = rg_now_ns();
	for (i = 0; i < nh; i++) {
		if (!ndst[i])
			continue;
		ch[nch].sender = true;
		ch[nch].host = i;
		ch[nch].pid = rg_spawn(&c, hosts, i, dsts[i], ndst[i], true,
				       &ch[nch].res_fd, NULL);
		if (ch[nch].pid < 0) {
			rg_err(hosts[i].name, "fork: %s", strerror(errno));
			goto stop;
		}
		nch++;
	}
	for (i = 0; i < nch; i++)
		if (ch[i].sender)
			rg_collect(&ch[i], sizeof(ch[i].t.s));
	for (i = 0; i < nch; i++)
		if (!ch[i].sender)
			kill(ch[i].pid, SIGTERM);
	for (i = 0; i < nch; i++)
		if (!ch[i].sender)
			rg_collect(&ch[i], sizeof(ch[i].t.r));

	for (i = 0; i < nch; i++) {
		if (!ch[i].ok) {
			failed++;
			continue;
		}
		if (ch[i].sender) {
			struct rg_send_totals *s = &ch[i].t.s;

			st.qps += s->qps;
			st.qps_failed += s->qps_failed;
			st.messages += s->messages;
			st.bytes += s->bytes;
			st.frames += s->frames;
			st.retx_frames += s->retx_frames;
			st.acks += s->acks;
			st.naks += s->naks;
			st.cnps += s->cnps;
			st.rate_cuts += s->rate_cuts;
			st.timeouts += s->timeouts;
			st.icrc_errors += s->icrc_errors;
			if (s->done_ns > last)
				last = s->done_ns;
		} else {
			struct rg_serve_totals *r = &ch[i].t.r;

			rt.frames += r->frames;
			rt.oos += r->oos;
			rt.naks += r->naks;
			rt.acks += r->acks;
			rt.ce += r->ce;
			rt.cnps += r->cnps;
			rt.icrc_errors += r->icrc_errors;
			rt.socket_drops += r->socket_drops;
		}
	}
	if (last < t0)
		last = t0;
	if (c.json) {
		printf("{\"pattern\":\"%s\",\"hosts\":%d,\"failed_processes\":%d,"
		       "\"completion_us\":%.1f,\"goodput_mbps\":%.1f,"
		       "\"total\":{\"qps\":%" PRIu64 ",\"qps_failed\":%" PRIu64
		       ",\"messages\":%" PRIu64 ",\"bytes\":%" PRIu64
		       ",\"frames\":%" PRIu64 ",\"retx_frames\":%" PRIu64
		       ",\"oos\":%" PRIu64 ",\"naks\":%" PRIu64
		       ",\"acks\":%" PRIu64 ",\"ce\":%" PRIu64
		       ",\"cnps\":%" PRIu64 ",\"rate_cuts\":%" PRIu64
		       ",\"timeouts\":%" PRIu64 ",\"icrc_errors\":%" PRIu64
		       ",\"socket_drops\":%" PRIu64 "},\"senders\":{",
		       c.pattern, nh, failed, (double)(last - t0) / 1e3,
		       (double)st.bytes * 8e3 /
			       (double)(last - t0 ? last - t0 : 1),
		       st.qps, st.qps_failed, st.messages, st.bytes, st.frames,
		       st.retx_frames, rt.oos, st.naks, st.acks, rt.ce, st.cnps,
		       st.rate_cuts, st.timeouts,
		       st.icrc_errors + rt.icrc_errors, rt.socket_drops);
		for (i = 0, j = 0; i < nch; i++)
			if (ch[i].sender && ch[i].ok)
				printf("%s\"%s\":%s", j++ ? "," : "",
				       hosts[ch[i].host].name, ch[i].json);
		printf("},\"responders\":{");
		for (i = 0, j = 0; i < nch; i++)
			if (!ch[i].sender && ch[i].ok)
				printf("%s\"%s\":%s", j++ ? "," : "",
				       hosts[ch[i].host].name, ch[i].json);
		printf("}}\n");
	} else {
		printf("rocegen run: %s over %d hosts, %d QP(s) per connection, %" PRIu64
		       " x %" PRIu64 " B per QP\n",
		       c.pattern, nh, c.s.qps, c.s.count, c.s.msg);
		printf("%-10s %-6s %6s %8s %8s %6s %6s %6s %6s %10s\n", "host",
		       "role", "qps", "messages", "frames", "retx", "naks",
		       "cnps", "cuts", "time_us");
		for (i = 0; i < nch; i++) {
			if (!ch[i].sender)
				continue;
			struct rg_send_totals *s = &ch[i].t.s;

			printf("%-10s %-6s %6" PRIu64 " %8" PRIu64 " %8" PRIu64
			       " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
			       " %6" PRIu64 " %10.1f%s\n",
			       hosts[ch[i].host].name, "send", s->qps,
			       s->messages, s->frames, s->retx_frames, s->naks,
			       s->cnps, s->rate_cuts,
			       (double)(s->done_ns > t0 ? s->done_ns - t0 : 0) /
				       1e3,
			       ch[i].ok ? "" : " FAILED");
		}
		printf("%-10s %-6s %6s %8s %8s %6s %6s %6s %6s\n", "host",
		       "role", "qps", "messages", "frames", "oos", "naks", "ce",
		       "cnps");
		for (i = 0; i < nch; i++) {
			if (ch[i].sender)
				continue;
			struct rg_serve_totals *r = &ch[i].t.r;

			printf("%-10s %-6s %6" PRIu64 " %8" PRIu64 " %8" PRIu64
			       " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
			       " %6" PRIu64 "%s\n",
			       hosts[ch[i].host].name, "serve", r->qps,
			       r->messages, r->frames, r->oos, r->naks, r->ce,
			       r->cnps, ch[i].ok ? "" : " FAILED");
		}
		printf("collective: completion_us %.1f goodput_mbps %.1f "
		       "messages %" PRIu64 " oos %" PRIu64 " naks %" PRIu64
		       " ce %" PRIu64 " cnps %" PRIu64 " retx %" PRIu64
		       " failed_qps %" PRIu64 " failed_processes %d\n",
		       (double)(last - t0) / 1e3,
		       (double)st.bytes * 8e3 /
			       (double)(last - t0 ? last - t0 : 1),
		       st.messages, rt.oos, st.naks, rt.ce, st.cnps,
		       st.retx_frames, st.qps_failed, failed);
	}
	for (i = 0; i < nch; i++)
		free(ch[i].json);
	return failed || st.qps_failed ? 2 : 0;
stop:
	for (i = 0; i < nch; i++) {
		kill(ch[i].pid, SIGTERM);
		waitpid(ch[i].pid, NULL, 0);
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = rg_on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		rg_usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "send"))
		return cmd_send(argc - 1, argv + 1);
	if (!strcmp(argv[1], "serve"))
		return cmd_serve(argc - 1, argv + 1);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		rg_usage(stdout);
		return 0;
	}
	rg_err(argv[1], "unknown command (send, serve, run)");
	return 1;
}
