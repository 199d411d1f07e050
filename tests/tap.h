/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP lines for the C test programs, counted by tests/run.sh:
 * "ok N - what" or "not ok N - what". quiet: print failures only;
 * silent: count without printing (a caller folds several into one line).
 */
#ifndef ROCEDP_TESTS_TAP_H
#define ROCEDP_TESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

static int n_test, n_fail;
static bool quiet __attribute__((unused));
static bool silent __attribute__((unused));

static bool __attribute__((format(printf, 2, 3), unused))
result(bool ok, const char *fmt, ...)
{
	va_list ap;

	n_test++;
	if (!ok)
		n_fail++;
	if (silent || (ok && quiet))
		return ok;
	printf("%sok %d - ", ok ? "" : "not ", n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

/* xorshift64*: a fixed seed keeps every run of a test identical */
static uint64_t tap_rng = 0x9e3779b97f4a7c15ull;

static uint32_t __attribute__((unused)) tap_rand(void)
{
	tap_rng ^= tap_rng >> 12;
	tap_rng ^= tap_rng << 25;
	tap_rng ^= tap_rng >> 27;
	return (tap_rng * 0x2545f4914f6cdd1dull) >> 32;
}

#endif
