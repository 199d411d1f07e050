// SPDX-License-Identifier: GPL-2.0
/*
 * The decision cache against the full path with a writer racing it.
 *
 * One engine without the trace (the cache on) runs frames of 512 flows,
 * 256 IPv4 and 256 IPv6, through tc ingress (the core XDP shares; an XDP
 * test run waits a grace period per call) on one CPU while a writer
 * thread on another applies configs as fast as it can. After the race the writer's
 * last config goes into a second engine with the trace on (the full path
 * only), and every flow runs through both: a cached decision must give
 * the same verdict and bytes as the full path, for every flow.
 *
 * Two races:
 * - the hash seed flipped between two values, nothing else: a decision
 *   made under one seed must never be filed under the other (the seed,
 *   flags, mode and flowlet switch are read once a frame, fwd.h
 *   rd_plan_settings);
 * - every setting at once: seed, hash mode (qp, 5tuple, flowlet, spray),
 *   the symmetric flag, the flowlet feature on and off, the route moved
 *   between groups, a more specific route added and removed, a group's
 *   members rewritten and reordered. The last config has flowlets and
 *   spray off, so the full path is a function of config and frame.
 *
 * Usage: fwdcache_race [-n FRAMES] [-q]   (root). FRAMES are split 1:4
 * between the two races; the default, 2M, takes about 35 s on a busy
 * 2-CPU machine (make test), 10M about 3 minutes (make bench runs that).
 * TAP output.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config_txn.h"
#include "frame.h"
#include "stats.h"
#include "tap.h"

#define FLOWS 512 /* half IPv4, half IPv6 */
/* frames per test run, one flow: the first may miss, the rest hit; each
 * repeat takes one off the TTL of the one buffer, from 255 */
#define BATCH 4

#define MEMBER(i)                                                     \
	"{\"ifindex\": " #i ", \"smac\": \"02:00:00:00:00:0" #i "\"," \
	" \"dmac\": \"02:00:00:00:01:0" #i "\", \"weight\": 1}"
#define GROUPS4                                                             \
	"{\"id\": 50, \"members\": [" MEMBER(4) ", " MEMBER(5) ", " MEMBER( \
		6) ", " MEMBER(7) "]}, {\"id\": 51, \"members\": [" MEMBER(7) "]}"
#define GROUPS3                                                             \
	"{\"id\": 50, \"members\": [" MEMBER(6) ", " MEMBER(4) ", " MEMBER( \
		5) "]}, {\"id\": 51, \"members\": [" MEMBER(5) ", " MEMBER(7) "]}"

static const char *const modes[] = { "qp", "5tuple", "flowlet", "spray" };

struct knobs {
	unsigned int seed, mode, symmetric, flowlet, group, specific, groups;
};

/* The config for k, into buf. */
static int config_text(char *buf, size_t len, const struct knobs *k)
{
	return snprintf(
		buf, len,
		"{\"features\": [\"forward\", \"remark\"%s], "
		"\"hash\": {\"seed\": %u, \"mode\": \"%s\"%s}, "
		"\"groups\": [%s], \"routes\": ["
		"{\"prefix\": \"10.9.0.0/16\", \"group\": %u}, "
		"{\"prefix\": \"fd09::/32\", \"group\": %u}%s]}",
		k->flowlet ? ", \"flowlet\"" : "", k->seed, modes[k->mode],
		k->symmetric ? ", \"symmetric\": true" : "",
		k->groups ? GROUPS3 : GROUPS4, 50 + k->group, 50 + k->group,
		k->specific ? ", {\"prefix\": \"10.9.1.0/24\", \"group\": 51}, "
			      "{\"prefix\": \"fd09:0:1::/48\", \"group\": 51}" :
			      "");
}

/* Any of them, but symmetric only where the config allows it. */
static void knobs_random(struct knobs *k, unsigned int *r)
{
	*r = *r * 1103515245u + 12345u;
	k->seed = (*r >> 8) & 1 ? 7 : 12345;
	k->mode = (*r >> 10) & 3;
	k->flowlet = (*r >> 12) & 1;
	k->symmetric = k->mode == 1 && !k->flowlet && ((*r >> 13) & 1);
	k->group = (*r >> 14) & 1;
	k->specific = (*r >> 15) & 1;
	k->groups = (*r >> 16) & 1;
}

/* The last config of both races: flowlets and spray off. */
static const struct knobs final_knobs = { .seed = 7, .mode = 0 };

struct writer {
	const struct rd_maps *m;
	int cpu;
	int all; /* every setting; else the seed alone */
	atomic_bool stop;
	unsigned long writes;
	int err;
};

/*
 * The seed alone, as `rocedp config set hash.seed` leaves it: one update
 * of rd_config, no route or group written (so no generation moves).
 */
static int seed_flip(const struct rd_maps *m, int to_final)
{
	struct rocedp_config c;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &zero, &c))
		return -errno;
	c.hash_seed = to_final ? final_knobs.seed : 12345;
	if (bpf_map_update_elem(m->fd[RD_MAP_CONFIG], &zero, &c, BPF_ANY))
		return -errno;
	return 0;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct knobs k = final_knobs;
	unsigned int r = 1;
	char text[2048];
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(w->cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
	while (!atomic_load(&w->stop) && !w->err) {
		if (!w->all) {
			w->err = seed_flip(w->m, w->writes & 1);
			w->writes++;
			continue;
		}
		knobs_random(&k, &r);
		config_text(text, sizeof(text), &k);
		w->err = rd_config_apply_text("fwdcache_race", text,
					      strlen(text), w->m);
		w->writes++;
	}
	/* and the last one, known */
	config_text(text, sizeof(text), &final_knobs);
	if (!w->err && w->all)
		w->err = rd_config_apply_text("fwdcache_race", text,
					      strlen(text), w->m);
	else if (!w->err)
		w->err = seed_flip(w->m, 1);
	return NULL;
}

static struct rd_engine *cached, *ref;
static uint8_t frames[FLOWS][160];
static uint32_t frame_len[FLOWS];

/* Flow f: IPv4 below FLOWS / 2, IPv6 above; 10.9.1/24, fd09:0:1::/48
 * for every other flow (the more specific routes). */
static void build_flows(void)
{
	int f;

	for (f = 0; f < FLOWS; f++) {
		struct rd_frame spec = { .src4 = 0x0a080001 + (f & 15),
					 .dst4 = 0x0a090105 + (f & 1) * 0x100,
					 .sport = 49152 + (f & 31),
					 .opcode = ROCEDP_OP_RC_WRITE_ONLY,
					 .dma_len = 16,
					 .payload = 16,
					 .ttl = 255 };

		spec.dest_qp = 0x100 + f * 7919u;
		if (f >= FLOWS / 2) {
			static const uint8_t s6[16] = { 0xfd, 0x08 };
			static const uint8_t d6[16] = { 0xfd, 0x09 };

			spec.v6 = true;
			memcpy(spec.src6, s6, 16);
			memcpy(spec.dst6, d6, 16);
			spec.src6[15] = 1 + (f & 15);
			spec.src6[11] = f & 0xff;
			spec.dst6[5] = f & 1;
			spec.dst6[15] = 5;
		}
		frame_len[f] =
			rd_frame_build(frames[f], sizeof(frames[f]), &spec);
	}
}

/* the cached engine's hits, summed over CPUs (0 when unreadable) */
static __u64 cache_hits(void)
{
	__u64 v;

	rd_counter_get(rd_engine_maps(cached)->fd[RD_MAP_STATS],
		       ROCEDP_CTR_FWD_CACHE_HIT, &v);
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* n frames through the cached engine while w writes; -errno. */
static int race(struct writer *w, unsigned long long n, unsigned long long *ran)
{
	int fd = rd_engine_prog_fd(cached, RD_HOOK_TC), err = 0;
	unsigned long long runs = 0;
	unsigned int i = 0;
	pthread_t th;

	if (pthread_create(&th, NULL, writer_main, w))
		return -EAGAIN;
	while (runs < n && !w->err) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .repeat = BATCH);
		uint8_t buf[160];

		/* a stride through the flows: no two runs in a row alike */
		i = (i + 97) % FLOWS;
		memcpy(buf, frames[i], frame_len[i]);
		o.data_in = buf;
		o.data_size_in = frame_len[i];
		if (bpf_prog_test_run_opts(fd, &o)) {
			err = -errno;
			break;
		}
		runs += BATCH;
	}
	atomic_store(&w->stop, true);
	pthread_join(th, NULL);
	*ran = runs;
	return err ?: w->err;
}

/* Every flow twice through both engines: flows that differ. */
static unsigned int differ(unsigned int *fwd)
{
	uint8_t out_a[256], out_b[256];
	unsigned int bad = 0;
	int f, p, diff[FLOWS] = { 0 };

	*fwd = 0;
	for (p = 0; p < 2; p++)
		for (f = 0; f < FLOWS; f++) {
			struct rd_run a = { .in = frames[f],
					    .in_len = frame_len[f],
					    .ingress_ifindex = 3 },
				      b;

			b = a;
			a.out = out_a;
			a.out_size = sizeof(out_a);
			b.out = out_b;
			b.out_size = sizeof(out_b);
			if (rd_engine_run(ref, RD_HOOK_TC, &a) ||
			    rd_engine_run(cached, RD_HOOK_TC, &b)) {
				diff[f] = 1;
				continue;
			}
			*fwd += p && b.verdict == ROCEDP_VERDICT_REDIRECT;
			if (a.verdict != b.verdict || a.out_len != b.out_len ||
			    memcmp(out_a, out_b, a.out_len))
				diff[f] = 1;
		}
	for (f = 0; f < FLOWS; f++)
		bad += diff[f];
	return bad;
}

static void run_race(const char *name, int all, unsigned long long n, int cpu)
{
	struct writer w = { .m = rd_engine_maps(cached),
			    .cpu = cpu,
			    .all = all };
	unsigned long long ran = 0;
	unsigned int bad, fwd;
	char text[2048];
	double t0 = now_s();
	__u64 hits;
	int err;

	err = race(&w, n, &ran);
	if (!result(!err, "%s: %llu frames, %lu configs written in %.1f s%s%s",
		    name, ran, w.writes, now_s() - t0, err ? ": " : "",
		    err ? strerror(-err) : ""))
		return;
	config_text(text, sizeof(text), &final_knobs);
	err = rd_config_apply_text("fwdcache_race", text, strlen(text),
				   rd_engine_maps(ref));
	if (!result(!err, "%s: the last config on the full-path engine", name))
		return;
	hits = cache_hits();
	bad = differ(&fwd);
	hits = cache_hits() - hits;
	result(!bad,
	       "%s: after the race %u of %u flows differ from the full path",
	       name, bad, FLOWS);
	/* the second pass of a flow hits, but for slots two flows share */
	result(fwd > FLOWS / 2 && hits >= fwd * 9 / 10,
	       "%s: the comparison used the cache: %llu hits, %u forwarded on the second pass",
	       name, (unsigned long long)hits, fwd);
}

int main(int argc, char **argv)
{
	/* one CPU: the cache is per CPU, the comparison reads this one's */
	struct rd_engine_opts no_trace = { .trace = false,
					   .map_clock = true,
					   .bind_cpu = true,
					   .hooks = RD_HOOK_BIT(RD_HOOK_TC) };
	struct rd_engine_opts with_trace = { .trace = true,
					     .map_clock = true,
					     .bind_cpu = true,
					     .hooks = RD_HOOK_BIT(RD_HOOK_TC) };
	unsigned long long n = 2000000;
	int opt, err, cpu, ncpu;
	char text[2048];

	while ((opt = getopt(argc, argv, "n:q")) != -1) {
		if (opt == 'n')
			n = strtoull(optarg, NULL, 0);
		else if (opt == 'q')
			quiet = true;
		else
			return 2;
	}
	err = rd_engine_open(&cached, &no_trace) ?:
		      rd_engine_open(&ref, &with_trace);
	if (!result(!err, "two engines%s%s", err ? ": " : "",
		    err ? strerror(-err) : ""))
		return 1;
	build_flows();
	config_text(text, sizeof(text), &final_knobs);
	err = rd_config_apply_text("fwdcache_race", text, strlen(text),
				   rd_engine_maps(cached));
	if (!result(!err, "config"))
		return 1;
	/* the engines hold this thread on one CPU; the writer takes another */
	cpu = sched_getcpu();
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	run_race("the hash seed flipped", 0, n / 5,
		 ncpu > 1 ? (cpu + 1) % ncpu : cpu);
	run_race("every setting", 1, n - n / 5,
		 ncpu > 1 ? (cpu + 1) % ncpu : cpu);
	rd_engine_close(ref);
	rd_engine_close(cached);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
