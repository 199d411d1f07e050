// SPDX-License-Identifier: GPL-2.0
/*
 * The engine (userspace/lib/offline/engine.c) leaves the caller's state alone:
 * CPU affinity changes only when asked (rd_engine_opts.bind_cpu), and the
 * last close restores it. TAP output. Usage: engine_test [-q]   (root)
 */
#include <sched.h>
#include <string.h>
#include "engine.h"
#include "tap.h"

/*
 * An engine opened with bind_cpu keeps its thread on one CPU; the last
 * close lets go. One opened without it leaves the affinity alone.
 */
static void test_engine_cpu(void)
{
	/* one small program: the affinity is the open's, not the programs' */
	const unsigned int hooks = RD_HOOK_BIT(RD_HOOK_XDP_EGRESS);
	struct rd_engine_opts uo = { .trace = true,
				     .map_clock = true,
				     .hooks = hooks };
	struct rd_engine_opts bo = { .trace = true,
				     .map_clock = true,
				     .bind_cpu = true,
				     .hooks = hooks };
	struct rd_engine *a = NULL, *b = NULL, *u = NULL;
	cpu_set_t s0, s;
	int c0, c1, c2, c3, cu;

	if (sched_getaffinity(0, sizeof(s0), &s0))
		return;
	c0 = CPU_COUNT(&s0);
	rd_engine_open(&u, &uo);
	sched_getaffinity(0, sizeof(s), &s);
	cu = CPU_COUNT(&s);
	result(u && CPU_EQUAL(&s, &s0),
	       "an engine without bind_cpu leaves the thread's CPUs alone (%d of %d)",
	       cu, c0);
	rd_engine_close(u);
	rd_engine_open(&a, &bo);
	sched_getaffinity(0, sizeof(s), &s);
	c1 = CPU_COUNT(&s);
	rd_engine_open(&b, &bo);
	rd_engine_close(a);
	sched_getaffinity(0, sizeof(s), &s);
	c2 = CPU_COUNT(&s);
	rd_engine_close(b);
	sched_getaffinity(0, sizeof(s), &s);
	c3 = CPU_COUNT(&s);
	result(a && b && c1 == 1 && c2 == 1 && CPU_EQUAL(&s, &s0),
	       "engines bind the thread to one CPU while open (CPUs %d, open %d, one of two closed %d, all closed %d)",
	       c0, c1, c2, c3);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-q"))
		quiet = true;
	test_engine_cpu();
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
