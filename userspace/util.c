// SPDX-License-Identifier: GPL-2.0
/*
 * What every rocedp program shares, the CLI and the tools and tests that
 * link its objects alike: the output options and the one-line error.
 */
#include <stdarg.h>
#include <stdio.h>
#include "rocedp.h"

bool rd_json; /* -j */
bool rd_pretty; /* -p */

void rd_err(const char *obj, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rocedp: %s: ", obj);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
