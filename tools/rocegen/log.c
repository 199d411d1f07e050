// SPDX-License-Identifier: GPL-2.0
/*
 * rocegen's error line and stop flag, apart from main.c so that send.c and
 * serve.c (which main.c calls) do not need main.c back.
 */
#include <stdarg.h>
#include <stdio.h>
#include "log.h"

volatile int rg_stop;

void rg_err(const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rocegen: %s: ", what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
