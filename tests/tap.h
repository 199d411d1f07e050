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

#endif
