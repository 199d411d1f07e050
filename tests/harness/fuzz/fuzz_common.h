/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fuzz harnesses share (each is one translation unit that
 * includes this once): the offline engine they run on, how an invariant
 * failure is reported, and walks over the forwarding maps.
 */
#ifndef ROCEDP_FUZZ_COMMON_H
#define ROCEDP_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "engine.h"

/* The harness's name in its output lines ("fuzz-fib: ..."); set first. */
static const char *fz_name = "fuzz";
static uint64_t fz_failures;

/* An invariant broke: say which and abort, so libFuzzer saves the input. */
static inline void fz_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fz_failures++;
	fprintf(stderr, "%s: INVARIANT ", fz_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

/* The BPF object loaded for test runs, or exit 2 with the reason. */
static inline struct rd_engine *fz_engine_open(const struct rd_engine_opts *o)
{
	struct rd_engine_opts b = *o;
	struct rd_engine *e;
	int err;

	b.bind_cpu = true; /* one CPU's view, as replay's */
	err = rd_engine_open(&e, &b);
	if (err) {
		fprintf(stderr, "%s: cannot load the BPF object: %s\n", fz_name,
			strerror(-err));
		exit(2);
	}
	return e;
}

typedef void (*fz_route_fn)(uint8_t family, uint8_t plen, const void *addr,
			    const struct rocedp_route *v, void *ctx);

/* Every entry of rd_routes4, then of rd_routes6. */
static inline void fz_each_route(int fd4, int fd6, fz_route_fn fn, void *ctx)
{
	union {
		struct rocedp_route4_key k4;
		struct rocedp_route6_key k6;
	} key, next;
	struct rocedp_route v;
	void *prev;
	int fam;

	for (fam = 0; fam < 2; fam++) {
		int fd = fam ? fd6 : fd4;

		prev = NULL;
		while (!bpf_map_get_next_key(fd, prev, &next)) {
			key = next;
			prev = &key;
			if (bpf_map_lookup_elem(fd, &key, &v))
				continue; /* deleted meanwhile */
			fn(fam ? AF_INET6 : AF_INET, key.k4.prefixlen,
			   fam ? (void *)key.k6.addr : (void *)&key.k4.addr, &v,
			   ctx);
		}
	}
}

/*
 * Every group id in rd_groups is one that a route uses (used[], filled by
 * the caller's route walk); returns how many groups there are.
 */
static inline unsigned int fz_groups_all_used(int fdg, const bool *used)
{
	unsigned int n = 0;
	__u32 id, next, *prev = NULL;

	while (!bpf_map_get_next_key(fdg, prev, &next)) {
		id = next;
		prev = &id;
		n++;
		if (id >= ROCEDP_MAX_GROUPS || !used[id])
			fz_fail("group %u is left with no route", id);
	}
	return n;
}

#endif
