// SPDX-License-Identifier: GPL-2.0
/*
 * rocegen's error line and stop flag, apart from main.c so that send.c and
 * serve.c (which main.c calls) do not need main.c back. The line is the
 * library's (rd_verr, util.c): control characters in a message, from an
 * interface name or an argument, print as "?", as in rocedp's errors.
 */
#include <stdarg.h>
#include "log.h"
#include "util.h"

volatile int rg_stop;
volatile int rg_finish;

void rg_err(const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rd_verr("rocegen", what, fmt, ap);
	va_end(ap);
}
