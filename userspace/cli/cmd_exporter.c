// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp exporter --listen ADDR:PORT [--top-qps K] [--hwm-window SEC]:
 * serves /metrics, the Prometheus exposition of promexp.c, over HTTP with
 * libmicrohttpd (a well-kept server: HTTP parsing, keep-alive, limits and
 * timeouts are its, not ours). One exporter per switch: per network
 * namespace it reads that namespace's pin directory, opened afresh each
 * scrape, so a re-attach or a stop shows at the next scrape (rocedp_up).
 * The main thread takes the ECN high-water marks once a window and waits
 * for SIGTERM; the server's one thread answers scrapes, which change
 * nothing (docs/metrics.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "mapset.h"
#include "hostport.h"
#include "pindir.h"
#include "promexp.h"
#include "qps.h"
#include "sdnotify.h"
#include "util.h"

#define EXP_CONN_LIMIT 32 /* scrapers at once; more wait for the kernel */
#define EXP_CONN_TIMEOUT 10 /* s: an idle or slow client is dropped */

struct exporter {
	struct rd_prom_opts po;
	struct rd_hwm_window hwm; /* guarded by lock */
	pthread_mutex_t lock;
	unsigned long scrapes;
};

/* The exposition as one buffer: its text, or rocedp_up 0 alone. */
static char *render(struct exporter *x, size_t *len)
{
	struct timespec t0, t1;
	struct rd_maps m;
	char *buf = NULL;
	FILE *f;
	int err;

	f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = rd_maps_open_pinned(&m, rd_pin_dir());
	if (!err) {
		pthread_mutex_lock(&x->lock);
		err = rd_prom_write(f, &m, &x->po);
		x->scrapes++;
		pthread_mutex_unlock(&x->lock);
		rd_maps_close(&m);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(f,
		"# HELP rocedp_up 1 if the dataplane's maps could be read, else 0.\n"
		"# TYPE rocedp_up gauge\nrocedp_up %d\n"
		"# HELP rocedp_exporter_scrape_duration_seconds Time this scrape took to read the maps.\n"
		"# TYPE rocedp_exporter_scrape_duration_seconds gauge\n"
		"rocedp_exporter_scrape_duration_seconds %.6f\n",
		err ? 0 : 1,
		(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int code,
			     const char *type, char *body, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

#define TEXT_TYPE "text/plain; charset=utf-8"

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_len, void **state)
{
	static char index_page[] =
		"rocedp exporter: the metrics are at /metrics\n";
	static char not_found[] = "not found: the metrics are at /metrics\n";
	static char bad_method[] = "only GET and HEAD\n";
	static char failed[] = "cannot render the metrics\n";
	static int first_call;
	struct exporter *x = cls;
	size_t len;
	char *body;

	/* the first call is for the headers alone; answer on the second */
	if (!*state) {
		*state = &first_call;
		return MHD_YES;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, TEXT_TYPE,
			     bad_method, strlen(bad_method),
			     MHD_RESPMEM_PERSISTENT);
	if (*upload_len) /* a body on a GET: not ours to read */
		return MHD_NO;
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK, TEXT_TYPE, index_page,
			     strlen(index_page), MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, TEXT_TYPE, not_found,
			     strlen(not_found), MHD_RESPMEM_PERSISTENT);
	body = render(x, &len);
	if (!body)
		return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, TEXT_TYPE,
			     failed, strlen(failed), MHD_RESPMEM_PERSISTENT);
	return reply(conn, MHD_HTTP_OK,
		     "text/plain; version=0.0.4; charset=utf-8", body, len,
		     MHD_RESPMEM_MUST_FREE);
}

/* The listening socket; -errno after one line naming the address. */
static int listen_on(const char *spec, const struct sockaddr_storage *sa,
		     socklen_t salen)
{
	int fd, one = 1, zero = 0, err;

	fd = socket(sa->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		rd_err("exporter", "--listen %s: socket: %s", spec,
		       strerror(errno));
		return err;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (const struct sockaddr *)sa, salen) ||
	    listen(fd, EXP_CONN_LIMIT)) {
		err = -errno;
		rd_err("exporter", "--listen %s: %s", spec, strerror(errno));
		close(fd);
		return err;
	}
	return fd;
}

/* 0, or the exit code after one error line */
static int parse_opts(const struct cli_call *c, struct exporter *x)
{
	const char *k = cli_val(c, "top-qps"), *w = cli_val(c, "hwm-window");
	char *end;

	x->po.top_qps = RD_QPS_PROM_TOP_DEFAULT;
	x->hwm.window_s = 10;
	x->po.hwm = &x->hwm;
	if (k) {
		x->po.top_qps = strtoul(k, &end, 10);
		if (*end || !*k || *k == '-' || x->po.top_qps > 10000)
			return cli_usage_err(
				c,
				"--top-qps: '%s' is not a number from 0 to 10000",
				k);
	}
	if (w) {
		errno = 0;
		x->hwm.window_s = strtod(w, &end);
		if (!*w || *end || errno || !(x->hwm.window_s >= 1) ||
		    x->hwm.window_s > 3600)
			return cli_usage_err(
				c,
				"--hwm-window: '%s' is not a number of seconds from 1 to 3600",
				w);
	}
	return 0;
}

int cmd_exporter(const struct cli_call *c)
{
	const char *spec = cli_val(c, "listen");
	struct sockaddr_storage sa;
	struct MHD_Daemon *d;
	struct exporter *x;
	struct timespec ts;
	socklen_t salen;
	sigset_t sigs;
	int fd, ret, sig;

	x = calloc(1, sizeof(*x));
	if (!x) {
		rd_err("exporter", "%s", strerror(ENOMEM));
		return 1;
	}
	ret = parse_opts(c, x);
	if (ret)
		goto out;
	if (!spec) {
		ret = cli_usage_err(c, "--listen ADDR:PORT is needed");
		goto out;
	}
	if (!rd_hostport_parse(spec, &sa, &salen)) {
		ret = cli_usage_err(
			c,
			"--listen: '%s' is not ADDR:PORT (127.0.0.1:9436, [::1]:9436 or :9436; port 1..65535)",
			spec);
		goto out;
	}
	/* the signals are waited for, not handled: the server's thread,
	 * started below, inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	fd = listen_on(spec, &sa, salen);
	if (fd < 0) {
		ret = 1;
		goto out;
	}
	pthread_mutex_init(&x->lock, NULL);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0,
			     NULL, NULL, on_request, x,
			     MHD_OPTION_LISTEN_SOCKET, fd,
			     MHD_OPTION_CONNECTION_LIMIT,
			     (unsigned int)EXP_CONN_LIMIT,
			     MHD_OPTION_CONNECTION_TIMEOUT,
			     (unsigned int)EXP_CONN_TIMEOUT, MHD_OPTION_END);
	if (!d) {
		rd_err("exporter", "--listen %s: the HTTP server did not start",
		       spec);
		close(fd);
		ret = 1;
		goto out_lock;
	}
	rd_sd_notify("READY=1");
	ts.tv_sec = (time_t)x->hwm.window_s;
	ts.tv_nsec = (long)((x->hwm.window_s - ts.tv_sec) * 1e9);
	for (;;) {
		sig = sigtimedwait(&sigs, NULL, &ts);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		if (sig < 0 && errno != EAGAIN)
			continue;
		/* a window is over (or SIGHUP): take the marks */
		struct rd_maps m;

		if (!rd_maps_open_pinned(&m, rd_pin_dir())) {
			pthread_mutex_lock(&x->lock);
			rd_hwm_window_take(&x->hwm, &m);
			pthread_mutex_unlock(&x->lock);
			rd_maps_close(&m);
		}
	}
	rd_sd_notify("STOPPING=1");
	MHD_stop_daemon(d);
	close(fd);
	ret = 0;
out_lock:
	pthread_mutex_destroy(&x->lock);
out:
	free(x);
	return ret;
}
