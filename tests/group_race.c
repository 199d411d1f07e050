// SPDX-License-Identifier: GPL-2.0
/*
 * Group rewrites racing the dataplane. Route 10.1/16 ->
 * group 1 (ports 2..5), route 10.2/16 -> group 2 (port 7). One thread
 * rewrites both groups, unchanged, at full speed on one CPU; the XDP program
 * forwards frames to 10.1.0.2 with BPF_PROG_TEST_RUN's repeat on another
 * (tc ingress: the core XDP shares, without XDP test runs' dispatcher
 * update, a grace period per call).
 * rd_port_stats counts what left on each port: a frame on a port outside
 * group 1 (7, or ifindex 0 from a half-written member) is misforwarded.
 * Frames the program refused to trust (pass group_busy) went to the kernel
 * and are reported, not counted against it.
 *
 * The old design (rd_groups a HASH read in place) misforwarded here; the
 * banked groups (userspace/lib/fib/groupw.c) must not. Build with
 * -DGROUP_RACE_HASH_ONLY against a tree without groupw.c to see the former.
 *
 * Usage: group_race [-n FRAMES] [-s SECONDS] [-q]   (root). TAP output;
 * the last line before the plan gives misforwarded per 100M frames.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#ifndef GROUP_RACE_HASH_ONLY
#include "groupw.h"
#endif
#include "frame.h"
#include "tap.h"

#define N_PORTS 8 /* ifindexes 0..7 are watched */
/* frames per BPF_PROG_TEST_RUN call: repeats run on one buffer, so each
 * takes one off the TTL; from 255, 250 are all forwarded */
#define BATCH 250

static const char config[] =
	"{\"features\": [\"forward\"], \"hash\": {\"mode\": \"qp\"},"
	" \"groups\": ["
	"  {\"id\": 1, \"members\": ["
	"   {\"ifindex\": 2, \"smac\": \"02:aa:00:00:00:02\", \"dmac\": \"02:bb:00:00:00:02\", \"weight\": 1},"
	"   {\"ifindex\": 3, \"smac\": \"02:aa:00:00:00:03\", \"dmac\": \"02:bb:00:00:00:03\", \"weight\": 1},"
	"   {\"ifindex\": 4, \"smac\": \"02:aa:00:00:00:04\", \"dmac\": \"02:bb:00:00:00:04\", \"weight\": 1},"
	"   {\"ifindex\": 5, \"smac\": \"02:aa:00:00:00:05\", \"dmac\": \"02:bb:00:00:00:05\", \"weight\": 1}]},"
	"  {\"id\": 2, \"members\": ["
	"   {\"ifindex\": 7, \"smac\": \"02:aa:00:00:00:07\", \"dmac\": \"02:bb:00:00:00:07\", \"weight\": 1}]}],"
	" \"routes\": [{\"prefix\": \"10.1.0.0/16\", \"group\": 1},"
	"  {\"prefix\": \"10.2.0.0/16\", \"group\": 2}]}";

struct writer {
	const struct rd_maps *m;
	struct rocedp_group g[2];
	atomic_bool stop;
	unsigned long writes;
	int err;
};

static void pin_cpu(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static int put_group(const struct rd_maps *m, __u32 id,
		     const struct rocedp_group *g)
{
#ifdef GROUP_RACE_HASH_ONLY
	return bpf_map_update_elem(m->fd[RD_MAP_GROUPS], &id, g, BPF_ANY) ?
		       -errno :
		       0;
#else
	return rd_groupw_put_maps(m, id, g);
#endif
}

/* Rewrite both groups with what they already hold, as fast as it goes. */
static void *writer_main(void *arg)
{
	struct writer *w = arg;

	pin_cpu(0);
	while (!atomic_load(&w->stop) && !w->err) {
		w->err = put_group(w->m, 1, &w->g[0]);
		if (!w->err)
			w->err = put_group(w->m, 2, &w->g[1]);
		w->writes++;
	}
	return NULL;
}

/* tx_pkts of ports 0..N_PORTS-1 summed over the CPUs; -errno. */
static int tx_counts(const struct rd_maps *m, __u64 *tx)
{
	int ncpu = libbpf_num_possible_cpus(), c;
	struct rocedp_port_stats *ps;
	__u32 k;

	if (ncpu <= 0)
		return -EINVAL;
	ps = calloc(ncpu, sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	for (k = 0; k < N_PORTS; k++) {
		tx[k] = 0;
		if (bpf_map_lookup_elem(m->fd[RD_MAP_PORT_STATS], &k, ps)) {
			free(ps);
			return -errno;
		}
		for (c = 0; c < ncpu; c++)
			tx[k] += ps[c].tx_pkts;
	}
	free(ps);
	return 0;
}

/* A rd_stats counter summed over the CPUs (0 when unreadable). */
static __u64 counter(const struct rd_maps *m, unsigned int idx)
{
	int ncpu = libbpf_num_possible_cpus(), c;
	struct rocedp_stats *s;
	__u32 zero = 0;
	__u64 v = 0;

	s = ncpu > 0 ? calloc(ncpu, sizeof(*s)) : NULL;
	if (s && !bpf_map_lookup_elem(m->fd[RD_MAP_STATS], &zero, s))
		for (c = 0; c < ncpu; c++)
			v += s[c].ctr[idx];
	free(s);
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct rd_engine_opts eo = { .trace = false,
				     .map_clock = true,
				     .bind_cpu = true };
	__u64 want = 10000000, tx[N_PORTS], runs = 0, bad, fwd, busy;
	struct rd_frame spec = {
		.src4 = 0x0a090001,
		.dst4 = 0x0a010002,
		.sport = 49152,
		.opcode = ROCEDP_OP_RC_SEND_ONLY,
		.payload = 64,
		.ttl = 255, /* see BATCH */
	};
	struct writer w = { 0 };
	double secs = 50, t0;
	const struct rd_maps *m;
	struct rd_engine *e;
	uint8_t frame[256];
	pthread_t th;
	__u32 id, len;
	int opt, err, fd, k;

	while ((opt = getopt(argc, argv, "n:s:q")) != -1) {
		if (opt == 'n')
			want = strtoull(optarg, NULL, 0);
		else if (opt == 's')
			secs = atof(optarg);
		else if (opt == 'q')
			quiet = true;
		else
			return 2;
	}
	err = rd_engine_open(&e, &eo);
	if (!result(!err, "engine ready%s%s", err ? ": " : "",
		    err ? strerror(-err) : ""))
		return 1;
	m = rd_engine_maps(e);
	err = rd_config_apply_text("group_race", config, sizeof(config) - 1, m);
	for (id = 1; !err && id <= 2; id++)
		if (bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS], &id,
					&w.g[id - 1]))
			err = -errno;
	if (!result(!err,
		    "config: 10.1/16 -> group 1 (ports 2-5), 10.2/16 -> group 2 (port 7)"))
		return 1;
	w.m = m;
	fd = rd_engine_prog_fd(e, RD_HOOK_TC);
	if (pthread_create(&th, NULL, writer_main, &w)) {
		result(false, "writer thread");
		return 1;
	}
	pin_cpu(1);
	t0 = now_s();
	while (runs < want && now_s() - t0 < secs && !w.err) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame,
			    .repeat = BATCH);

		spec.dest_qp = 0x100 + (runs / BATCH) % 61 * 7919;
		len = rd_frame_build(frame, sizeof(frame), &spec);
		o.data_size_in = len;
		if (bpf_prog_test_run_opts(fd, &o)) {
			err = -errno;
			break;
		}
		runs += BATCH;
	}
	atomic_store(&w.stop, true);
	pthread_join(th, NULL);
	if (!result(!err && !w.err,
		    "%llu frames run, %lu rewrites of both groups in %.1f s%s%s",
		    (unsigned long long)runs, w.writes, now_s() - t0,
		    err || w.err ? ": " : "",
		    err || w.err ? strerror(-(err ? err : w.err)) : ""))
		return 1;
	err = tx_counts(m, tx);
	if (!result(!err, "port counters read"))
		return 1;
	fwd = tx[2] + tx[3] + tx[4] + tx[5];
	bad = tx[0] + tx[1] + tx[6] + tx[7];
#ifdef GROUP_RACE_HASH_ONLY
	busy = 0 * counter(m, 0);
#else
	busy = counter(m, ROCEDP_CTR_PASS_BASE + ROCEDP_PASS_GROUP_BUSY);
#endif
	printf("# tx per port:");
	for (k = 0; k < N_PORTS; k++)
		printf(" %d=%llu", k, (unsigned long long)tx[k]);
	printf("; passed group_busy %llu\n", (unsigned long long)busy);
	printf("# %llu frames, %llu misforwarded: %.2f per 100M\n",
	       (unsigned long long)runs, (unsigned long long)bad,
	       runs ? bad * 1e8 / runs : 0.0);
	result(fwd + bad + busy == runs,
	       "every frame accounted for: %llu forwarded in group 1 + %llu elsewhere + %llu passed = %llu",
	       (unsigned long long)fwd, (unsigned long long)bad,
	       (unsigned long long)busy, (unsigned long long)runs);
	result(runs >= want, "at least %llu frames under rewrites (%llu)",
	       (unsigned long long)want, (unsigned long long)runs);
	result(bad == 0 && w.writes > 0,
	       "0 frames left outside group 1: %llu on port 7, %llu on ifindex 0 (%.2f per 100M)",
	       (unsigned long long)tx[7], (unsigned long long)tx[0],
	       runs ? bad * 1e8 / runs : 0.0);
	rd_engine_close(e);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
