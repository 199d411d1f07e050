// SPDX-License-Identifier: GPL-2.0
/*
 * rocedp top: a live full-screen view of the busiest and the sickest QPs
 * and of the ports, in the manner of top/iftop. The data (snapshots,
 * rates, sorting) is the library's (qps.c, porttab.c); this file only
 * draws. Keys: q quits, s cycles the sort, p pauses.
 *
 * The terminal is always given back: signals only set a flag that the
 * loop polls (getch waits at most 200 ms), the loop ends through endwin(),
 * a resize arrives as KEY_RESIZE from ncurses' own SIGWINCH handler and is
 * redrawn at the new size, and an atexit hook ends curses on any other
 * exit path.
 */
#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include "rocedp.h"
#include "cli.h"
#include "commands.h"
#include "config_render.h"
#include "escape.h"
#include "porttab.h"
#include "qps.h"
#include "qps_cli.h"

#define TOP_DEFAULT_ROWS 10 /* per QP table, without a screen to fill */

struct top {
	struct rd_maps m;
	struct rd_qp_snap snap[2];
	struct rd_porttab *pt[2];
	struct rd_qp_snap sick; /* a copy of the current snapshot, sorted sick */
	int cur; /* index of the newest snapshot */
	int reads; /* 0, 1 or 2+: rates need two */
	enum rd_qp_sort by;
	double interval;
	unsigned long limit;
	bool paused;
	int err; /* last read error, shown on screen */
};

static volatile sig_atomic_t stop_sig;
static bool curses_on;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static void end_curses(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
}

static __u64 mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/* one refresh: a new snapshot of both tables and rates against the last */
static void tick(struct top *t, bool reset_hwm)
{
	int nxt = !t->cur;
	int err;

	err = rd_qps_read(&t->m, &t->snap[nxt]);
	if (!err)
		err = rd_porttab_read(&t->m, t->pt[nxt], reset_hwm);
	t->err = err;
	if (err)
		return;
	if (t->reads) {
		rd_qps_rates(&t->snap[t->cur], &t->snap[nxt]);
		rd_porttab_rates(t->pt[t->cur], t->pt[nxt]);
	}
	t->cur = nxt;
	t->reads++;
}

/* the newest snapshot in the table's orders: busiest by t->by, sick */
static int order(struct top *t)
{
	struct rd_qp_snap *s = &t->snap[t->cur];

	rd_qps_sort(s, t->by, t->reads > 1);
	if (t->sick.cap < s->n) {
		struct rd_qp *q = realloc(t->sick.qps, s->n * sizeof(*q));

		if (!q)
			return -ENOMEM;
		t->sick.qps = q;
		t->sick.cap = s->n;
	}
	t->sick.n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (rd_qp_sick(&s->qps[i]))
			t->sick.qps[t->sick.n++] = s->qps[i];
	rd_qps_sort_sick(&t->sick);
	return 0;
}

/* ---------------------------------------------------------------- output */

/* lines to the screen (clipped to it) or to a stream */
struct sink {
	FILE *f; /* NULL: curses */
	int row, rows, cols;
};

static void __attribute__((format(printf, 3, 4)))
put(struct sink *k, int attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (k->f) {
		fprintf(k->f, "%s\n", buf);
		return;
	}
	if (k->row >= k->rows)
		return;
	if (attr)
		attron(attr);
	mvaddnstr(k->row, 0, buf, k->cols);
	if (attr)
		attroff(attr);
	k->row++;
}

static const char *rate_str(double v, bool valid, char *buf, size_t len)
{
	if (!valid)
		return "-";
	return rd_human(v, buf, len);
}

static int addr_width(const struct rd_qp *q, size_t n)
{
	char a[INET6_ADDRSTRLEN];
	int w = 3, l;
	size_t i;

	for (i = 0; i < n; i++) {
		rd_qp_addr_str(&q[i].key, q[i].key.src, a, sizeof(a));
		if ((l = strlen(a)) > w)
			w = l;
		rd_qp_addr_str(&q[i].key, q[i].key.dst, a, sizeof(a));
		if ((l = strlen(a)) > w)
			w = l;
	}
	return w;
}

static void draw_busiest(struct sink *k, const struct top *t, size_t n)
{
	const struct rd_qp_snap *s = &t->snap[t->cur];
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	char b[7][16], rtt[16], wait[24];
	int w;
	size_t i;

	n = n < s->n ? n : s->n;
	w = addr_width(s->qps, n);
	put(k, A_BOLD, "Busiest QPs (by %s%s)", rd_qp_sort_name(t->by),
	    t->by == RD_QP_SORT_RTT ? "" : "/s");
	put(k, A_REVERSE, "%-*s %-*s %8s %7s %7s %6s %6s %6s %6s %8s %8s", w,
	    "src", w, "dst", "qp", "pkt/s", "bit/s", "gap/s", "rew/s", "nak/s",
	    "cnp/s", "rtt_us", "wait_us");
	for (i = 0; i < n; i++) {
		const struct rd_qp *q = &s->qps[i];
		bool v = q->rate.valid;

		rd_qp_addr_str(&q->key, q->key.src, src, sizeof(src));
		rd_qp_addr_str(&q->key, q->key.dst, dst, sizeof(dst));
		if (q->st.rtt_samples)
			snprintf(rtt, sizeof(rtt), "%.1f",
				 q->st.rtt_ewma_ns / 1000.0);
		else
			snprintf(rtt, sizeof(rtt), "-");
		rd_qp_wait_str(q, wait, sizeof(wait));
		put(k, 0, "%-*s %-*s %#8x %7s %7s %6s %6s %6s %6s %8s %8s", w,
		    src, w, dst, q->key.dqp,
		    rate_str(q->rate.pkts, v, b[0], 16),
		    rate_str(q->rate.bytes * 8, v, b[1], 16),
		    rate_str(q->rate.gaps, v, b[2], 16),
		    rate_str(q->rate.rewinds, v, b[3], 16),
		    rate_str(q->rate.naks, v, b[4], 16),
		    rate_str(q->rate.cnps, v, b[5], 16), rtt, wait);
	}
	if (!s->n)
		put(k, 0, "(no QPs seen: is telemetry on? docs/telemetry.md)");
}

static void draw_sickest(struct sink *k, const struct top *t, size_t n)
{
	const struct rd_qp_snap *s = &t->sick;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	char b[3][16], wait[24], port[2][RD_ESC_IFNAME];
	int w;
	size_t i;

	n = n < s->n ? n : s->n;
	w = addr_width(s->qps, n);
	put(k, A_BOLD, "Sickest QPs (%zu with gaps, rewinds, NAKs or stalls)",
	    s->n);
	put(k, A_REVERSE, "%-*s %-*s %8s %6s %7s %5s %6s %8s %6s %6s %6s %s", w,
	    "src", w, "dst", "qp", "gaps", "rewinds", "naks", "stalls",
	    "wait_us", "gap/s", "rew/s", "nak/s", "in>out");
	for (i = 0; i < n; i++) {
		const struct rd_qp *q = &s->qps[i];
		bool v = q->rate.valid;

		rd_qp_addr_str(&q->key, q->key.src, src, sizeof(src));
		rd_qp_addr_str(&q->key, q->key.dst, dst, sizeof(dst));
		rd_qp_wait_str(q, wait, sizeof(wait));
		snprintf(port[0], sizeof(port[0]), "-");
		snprintf(port[1], sizeof(port[1]), "-");
		if (q->st.in_ifindex)
			rd_ifname_esc(q->st.in_ifindex, RD_ESC_TERM, port[0]);
		if (q->st.out_ifindex)
			rd_ifname_esc(q->st.out_ifindex, RD_ESC_TERM, port[1]);
		put(k, q->stalled ? A_BOLD : 0,
		    "%-*s %-*s %#8x %6llu %7llu %5llu %6llu %8s %6s %6s %6s %s>%s",
		    w, src, w, dst, q->key.dqp, (unsigned long long)q->st.gaps,
		    (unsigned long long)q->st.rewinds,
		    (unsigned long long)q->naks,
		    (unsigned long long)q->st.stalls, wait,
		    rate_str(q->rate.gaps, v, b[0], 16),
		    rate_str(q->rate.rewinds, v, b[1], 16),
		    rate_str(q->rate.naks, v, b[2], 16), port[0], port[1]);
	}
	if (!s->n)
		put(k, 0, "(none)");
}

static const char *in_out(const __u64 *rx, const __u64 *tx, unsigned int c,
			  char *buf, size_t len)
{
	char a[16], b[16];

	snprintf(buf, len, "%s/%s", rd_human(rx[c], a, sizeof(a)),
		 rd_human(tx[c], b, sizeof(b)));
	return buf;
}

/* the columns that matter most first: a narrow screen cuts the classes */
static void draw_ports(struct sink *k, const struct top *t, size_t n)
{
	const struct rd_porttab *p = t->pt[t->cur];
	char b[5][16], c[4][40], flap[32], name[RD_ESC_IFNAME];
	unsigned int i;

	n = n < p->n ? n : p->n;
	put(k, A_BOLD,
	    "Ports (hwm: queue bytes since the last refresh; class frames in/out)");
	put(k, A_REVERSE, "%-10s %7s %7s %7s %7s %6s %5s %8s %9s %9s %9s %9s",
	    "port", "rxpkt/s", "txpkt/s", "rxbit/s", "txbit/s", "hwm", "flaps",
	    "lastflap", "data", "ack", "nak", "cnp");
	for (i = 0; i < n; i++) {
		const struct rd_port_row *r = &p->rows[i];
		bool v = r->rate_valid;

		flap[0] = '-';
		flap[1] = 0;
		if (r->flaps.n) {
			time_t ts = r->flaps.last_ns[(r->flaps.n - 1) %
						     ROCEDP_FLAP_HISTORY] /
				    1000000000ull;
			struct tm tm;

			strftime(flap, sizeof(flap), "%H:%M:%S",
				 localtime_r(&ts, &tm));
		}
		put(k, 0, "%-10s %7s %7s %7s %7s %6s %5llu %8s %9s %9s %9s %9s",
		    rd_esc_term(r->name, name, sizeof(name)),
		    rate_str(r->rx_pps, v, b[0], 16),
		    rate_str(r->tx_pps, v, b[1], 16),
		    rate_str(r->rx_bps, v, b[2], 16),
		    rate_str(r->tx_bps, v, b[3], 16),
		    rd_human(r->hwm, b[4], 16),
		    (unsigned long long)rd_port_flap_count(r), flap,
		    in_out(r->st.rx_class, r->st.tx_class, ROCEDP_CLASS_DATA,
			   c[0], 40),
		    in_out(r->st.rx_class, r->st.tx_class, ROCEDP_CLASS_ACK,
			   c[1], 40),
		    in_out(r->st.rx_class, r->st.tx_class, ROCEDP_CLASS_NAK,
			   c[2], 40),
		    in_out(r->st.rx_class, r->st.tx_class, ROCEDP_CLASS_CNP,
			   c[3], 40));
	}
	if (!p->n)
		put(k, 0, "(no port has traffic yet)");
}

static void draw(struct sink *k, const struct top *t)
{
	const struct rd_qp_snap *s = &t->snap[t->cur];
	size_t stalled = 0, busy, sick, prows, i;
	char clock[16];
	time_t now = time(NULL);
	struct tm tm;

	for (i = 0; i < s->n; i++)
		stalled += s->qps[i].stalled;
	strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
	put(k, A_BOLD,
	    "rocedp top  %s  %zu QPs, %zu stalled (wait > %llu us)  every %.1f s%s",
	    clock, s->n, stalled, (unsigned long long)(s->stall_ns / 1000),
	    t->interval, t->paused ? "  PAUSED" : "");
	if (t->err)
		put(k, A_BOLD, "reading the maps: %s", strerror(-t->err));
	if (k->f) {
		busy = sick = t->limit;
		prows = RD_PORTTAB_MAX;
	} else {
		/* the screen shared: ports first take up to a quarter, the
		 * sickest QPs what they need up to half the rest, the busiest
		 * what is left (6 lines of headings and 3 blank ones; the key
		 * line is below k->rows) */
		int left = k->rows - k->row;

		prows = t->pt[t->cur]->n;
		if ((int)prows > left / 4)
			prows = left / 4 > 1 ? left / 4 : 1;
		left -= prows + 6 + 3;
		if (left < 2)
			left = 2;
		sick = t->sick.n ? t->sick.n : 1;
		if ((int)sick > left / 2)
			sick = left / 2;
		busy = left - sick;
		if (busy > t->limit)
			busy = t->limit;
		if (sick > t->limit)
			sick = t->limit;
	}
	put(k, 0, "%s", "");
	draw_busiest(k, t, busy);
	put(k, 0, "%s", "");
	draw_sickest(k, t, sick);
	put(k, 0, "%s", "");
	draw_ports(k, t, prows);
	if (!k->f)
		mvaddnstr(
			k->rows, 0,
			"q quit  s sort (bytes, rewinds, gaps, stalls, rtt)  p pause",
			k->cols);
}

static void screen(const struct top *t)
{
	/* the last line is the key line's */
	struct sink k = { .rows = LINES - 1, .cols = COLS };

	erase();
	draw(&k, t);
	refresh();
}

static void print_json(const struct top *t)
{
	struct json_object *o = rd_qps_json(&t->snap[t->cur], t->limit);

	json_object_object_add(o, "sort",
			       json_object_new_string(rd_qp_sort_name(t->by)));
	json_object_object_add(o, "interval_s",
			       json_object_new_double(t->interval));
	json_object_object_add(o, "ports", rd_porttab_json(t->pt[t->cur]));
	printf("%s\n", json_object_to_json_string_ext(o, rd_json_flags()));
	json_object_put(o);
	fflush(stdout);
}

/* ---------------------------------------------------------------- loops */

static void sleep_interval(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s,
			       .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	while (!stop_sig && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --once, -j: frames to stdout, no terminal needed */
static int run_stream(struct top *t, unsigned long iters)
{
	struct sink k = { .f = stdout };
	unsigned long done = 0;

	/* only for the rates: the marks go to the first frame shown */
	tick(t, false);
	while (!stop_sig && (!iters || done < iters)) {
		sleep_interval(t->interval);
		if (stop_sig)
			break;
		tick(t, true);
		if (t->err) {
			rd_err("top", "reading the maps: %s",
			       strerror(-t->err));
			return 1;
		}
		if (order(t))
			return 1;
		if (rd_json) {
			print_json(t);
		} else {
			draw(&k, t);
			fflush(stdout);
		}
		done++;
	}
	return 0;
}

static int run_screen(struct top *t, unsigned long iters)
{
	__u64 next, now;
	unsigned long done = 0;
	SCREEN *scr;
	int ch, wait;

	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		rd_err("top", "cannot drive the terminal (TERM=%s); try --once",
		       getenv("TERM") ?: "unset");
		return 1;
	}
	curses_on = true;
	atexit(end_curses);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	tick(t, true);
	order(t);
	screen(t);
	next = mono_ms() + (__u64)(t->interval * 1000);
	while (!stop_sig) {
		now = mono_ms();
		if (!t->paused && now >= next) {
			tick(t, true);
			order(t);
			screen(t);
			next += (__u64)(t->interval * 1000);
			if (next <= now)
				next = now + (__u64)(t->interval * 1000);
			if (iters && ++done >= iters)
				break;
		}
		/* short waits: a signal's flag is seen within 200 ms */
		wait = t->paused || next <= now ? 200 : (int)(next - now);
		timeout(wait > 200 ? 200 : wait);
		ch = getch();
		if (ch == 'q' || ch == 'Q')
			break;
		if (ch == 's' || ch == 'S') {
			t->by = (t->by + 1) % RD_QP_SORT_MAX;
			order(t);
			screen(t);
		} else if (ch == 'p' || ch == 'P' || ch == ' ') {
			t->paused = !t->paused;
			next = mono_ms();
			screen(t);
		} else if (ch == KEY_RESIZE) {
			screen(t);
		}
	}
	end_curses();
	delscreen(scr);
	return 0;
}

static bool parse_interval(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s && !*end && !errno && *out >= 0.1 && *out <= 3600;
}

int cmd_top(const struct cli_call *c)
{
	const char *sort = cli_val(c, "sort"), *ival = cli_val(c, "interval");
	const char *lim = cli_val(c, "limit"), *n = cli_val(c, "iterations");
	static struct top t;
	unsigned long iters = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	bool once = cli_set(c, "once");
	int ret;

	memset(&t, 0, sizeof(t));
	t.interval = 1;
	t.limit = ULONG_MAX;
	if (sort && !rd_cli_parse_sort("top", sort, &t.by))
		return CLI_USAGE;
	if (ival && !parse_interval(ival, &t.interval))
		return cli_usage_err(
			c,
			"--interval: '%s' is not a number of seconds from 0.1 to 3600",
			ival);
	if (lim && (!rd_cli_parse_count(lim, INT_MAX, &t.limit) || !t.limit))
		return cli_usage_err(
			c, "--limit: '%s' is not a positive number", lim);
	if (n && (!rd_cli_parse_count(n, INT_MAX, &iters) || !iters))
		return cli_usage_err(c, "-n: '%s' is not a positive number", n);
	if (once)
		iters = 1;
	if (!once && !rd_json &&
	    (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		rd_err("top", "needs a terminal; --once or -j print to a pipe");
		return 2;
	}
	if ((once || rd_json) && t.limit == ULONG_MAX)
		t.limit = TOP_DEFAULT_ROWS;
	if (cli_maps_open(&t.m, "top"))
		return 1;
	t.pt[0] = calloc(1, sizeof(*t.pt[0]));
	t.pt[1] = calloc(1, sizeof(*t.pt[1]));
	if (!t.pt[0] || !t.pt[1]) {
		rd_err("top", "out of memory");
		ret = 1;
		goto out;
	}
	/* no SA_RESTART: a signal wakes the sleep or getch at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (once || rd_json)
		ret = run_stream(&t, iters);
	else
		ret = run_screen(&t, iters);
out:
	rd_maps_close(&t.m);
	rd_qps_free(&t.snap[0]);
	rd_qps_free(&t.snap[1]);
	free(t.sick.qps);
	free(t.pt[0]);
	free(t.pt[1]);
	if (stop_sig) {
		/* die of the signal, as the shell expects, terminal restored */
		signal(stop_sig, SIG_DFL);
		raise(stop_sig);
	}
	return ret;
}
