// SPDX-License-Identifier: GPL-2.0
/* lbeval's report: the table, the JSON and the PNG (see lbeval.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lbeval.h"
#include "rocedp.h"
#include "safefile.h"

double flowlet_gap_us(const struct lb_opts *o)
{
	double gap = o->rtt_us / 2.0;

	/* the ABI's default clamps, which the evaluator's config keeps */
	if (gap < ROCEDP_DEFAULT_GAP_MIN_US)
		gap = ROCEDP_DEFAULT_GAP_MIN_US;
	if (gap > ROCEDP_DEFAULT_GAP_MAX_US)
		gap = ROCEDP_DEFAULT_GAP_MAX_US;
	return gap;
}

static void print_gen(const struct lb_trace *t, const struct lb_opts *o)
{
	printf("trace: %s, %u hosts, %u pairs, %u QPs each (%u QPs), %u B messages, "
	       "MTU %u, %u phases %.1f us apart, start jitter %.1f us, %.0f Gbit/s per host\n",
	       pattern_names[o->pattern], o->hosts, t->n_pairs, o->qps,
	       t->n_qps, o->msg, o->mtu, t->n_phases, o->gap_us, o->jitter_us,
	       o->rate_gbps);
	printf("       %zu frames, %.1f MB, %.1f us; %u members, delay skew %.1f us, "
	       "flowlet gap %.1f us (rtt %u us), load tau %u us\n",
	       t->n_ev, t->bytes / 1e6, (t->end_ps - t->ev[0].t_ps) / 1e6,
	       o->members, o->skew_us, flowlet_gap_us(o), o->rtt_us,
	       o->tau_us ? o->tau_us : ROCEDP_DEFAULT_LOAD_TAU_US);
}

void print_table(const struct lb_trace *t, const struct lb_opts *o,
		 const struct lb_result *res, int n)
{
	unsigned int m;
	int i;

	if (t->raw)
		printf("trace: %zu captured frames (%u files), %.1f MB, %.1f ms; %u members, "
		       "flowlet gap %.1f us (rtt %u us), load tau %u us, windows of %.0f us\n",
		       t->n_ev, o->n_pcap, t->bytes / 1e6,
		       t->raw[t->n_ev - 1].t_ns / 1e6, o->members,
		       flowlet_gap_us(o), o->rtt_us,
		       o->tau_us ? o->tau_us : ROCEDP_DEFAULT_LOAD_TAU_US,
		       o->window_us);
	else
		print_gen(t, o);
	printf("%-15s %9s %9s %7s %9s %9s %6s  %s\n", "mode", "imbalance",
	       "per-phase", "moves", "flowlets", "reordered", "risk",
	       "MB per member");
	for (i = 0; i < n; i++) {
		printf("%-15s %9.3f %9.3f %7llu %9llu %9llu %6llu ",
		       mode_names[res[i].mode], res[i].imbalance,
		       res[i].phase_imbalance, (unsigned long long)res[i].moves,
		       (unsigned long long)res[i].flowlets,
		       (unsigned long long)res[i].reordered,
		       (unsigned long long)res[i].reorder_risk);
		for (m = 0; m < o->members; m++)
			printf(" %.2f", res[i].bytes[m] / 1e6);
		if (res[i].not_forwarded)
			printf("  (%llu frames not forwarded)",
			       (unsigned long long)res[i].not_forwarded);
		putchar('\n');
	}
}

void print_json(const struct lb_trace *t, const struct lb_opts *o,
		const struct lb_result *res, int n)
{
	unsigned int m;
	int i;

	printf("{\"trace\":{\"pattern\":\"%s\",\"hosts\":%u,\"pairs\":%u,"
	       "\"qps_per_pair\":%u,\"msg_bytes\":%u,\"mtu\":%u,\"phases\":%u,"
	       "\"gap_us\":%g,\"jitter_us\":%g,\"rate_gbps\":%g,\"frames\":%zu,\"bytes\":%llu,"
	       "\"members\":%u,\"skew_us\":%g,\"flowlet_gap_us\":%g,"
	       "\"rtt_us\":%u,\"load_tau_us\":%u},\"modes\":[",
	       t->raw ? "pcap" : pattern_names[o->pattern], o->hosts,
	       t->n_pairs, o->qps, o->msg, o->mtu, t->n_phases, o->gap_us,
	       o->jitter_us, o->rate_gbps, t->n_ev,
	       (unsigned long long)t->bytes, o->members, o->skew_us,
	       flowlet_gap_us(o), o->rtt_us,
	       o->tau_us ? o->tau_us : ROCEDP_DEFAULT_LOAD_TAU_US);
	for (i = 0; i < n; i++) {
		printf("%s{\"mode\":\"%s\",\"imbalance\":%.4f,"
		       "\"phase_imbalance\":%.4f,\"flowlet_moves\":%llu,"
		       "\"flowlets\":%llu,\"flows\":%llu,\"reordered\":%llu,"
		       "\"reorder_risk\":%llu,\"member_gone\":%llu,"
		       "\"insert_failed\":%llu,\"not_forwarded\":%llu,"
		       "\"bytes\":[",
		       i ? "," : "", mode_names[res[i].mode], res[i].imbalance,
		       res[i].phase_imbalance, (unsigned long long)res[i].moves,
		       (unsigned long long)res[i].flowlets,
		       (unsigned long long)res[i].flows,
		       (unsigned long long)res[i].reordered,
		       (unsigned long long)res[i].reorder_risk,
		       (unsigned long long)res[i].member_gone,
		       (unsigned long long)res[i].insert_fail,
		       (unsigned long long)res[i].not_forwarded);
		for (m = 0; m < o->members; m++)
			printf("%s%llu", m ? "," : "",
			       (unsigned long long)res[i].bytes[m]);
		printf("]}");
	}
	printf("]}\n");
}

/* Bar chart of the imbalance per mode (gnuplot, Debian gnuplot-nox). */
int write_png(const struct lb_trace *t, const struct lb_opts *o,
	      const struct lb_result *res, int n)
{
	/* mkstemps: O_EXCL under a random name, so /tmp is safe for it */
	char data[] = "/tmp/lbeval-XXXXXX.dat";
	struct rd_safefile png;
	FILE *f, *gp;
	int fd, i, err = 0;

	fd = mkstemps(data, 4);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		rd_err("--png", "cannot write a temporary file: %s",
		       strerror(-err));
		return err;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "\"%s\" %.4f %.4f\n", mode_names[res[i].mode],
			res[i].imbalance, res[i].phase_imbalance);
	fclose(f);
	/*
	 * gnuplot writes the PNG into a temp file we created beside it
	 * (safefile.h), reached through its inherited descriptor, never by
	 * a name in a directory someone else may write
	 */
	err = rd_safefile_open(&png, o->png, 0644);
	if (err) {
		rd_err("--png", "%s: %s", o->png, strerror(-err));
		goto out;
	}
	fcntl(fileno(png.f), F_SETFD, 0);
	gp = popen("gnuplot", "w");
	if (!gp) {
		err = -errno;
		rd_err("--png", "cannot run gnuplot: %s", strerror(-err));
		rd_safefile_abort(&png);
		goto out;
	}
	fprintf(gp, "set terminal pngcairo size 900,540 font 'sans,10'\n");
	fprintf(gp, "set output '/dev/fd/%d'\n", fileno(png.f));
	fprintf(gp,
		"set title 'Load imbalance (busiest member / mean): %s, %u pairs x %u QPs, %u members'\n",
		pattern_names[o->pattern], t->n_pairs, o->qps, o->members);
	fprintf(gp, "set style data histograms\n"
		    "set style histogram clustered gap 1\n"
		    "set style fill solid 0.8 border -1\n"
		    "set boxwidth 0.9\n"
		    "set yrange [0:*]\n"
		    "set grid ytics\n"
		    "set ylabel 'imbalance'\n"
		    "set key top right\n");
	fprintf(gp,
		"plot '%s' using 2:xtic(1) title 'whole trace', "
		"'' using 3 title 'mean per phase', "
		"1.05 with lines dt 2 lw 2 title 'target 1.05'\n",
		data);
	if (pclose(gp)) {
		rd_err("--png", "gnuplot failed writing %s", o->png);
		rd_safefile_abort(&png);
		err = -EIO;
	} else {
		err = rd_safefile_commit(&png);
		if (err)
			rd_err("--png", "%s: %s", o->png, strerror(-err));
	}
out:
	unlink(data);
	return err;
}
