// SPDX-License-Identifier: GPL-2.0
/*
 * What every rocedp program shares, the CLI and the tools and tests that
 * link its objects alike: the output options and the one-line error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

/*
 * Copy argv[1..] into args without the output options, which objects
 * accept after their verb too (`rocedp config show -j`); returns how many
 * are left. args must hold argc entries (it is NULL-terminated).
 */
int rd_take_output_opts(int argc, char **argv, char **args)
{
	int n = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			rd_json = true;
		else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty"))
			rd_json = rd_pretty = true;
		else
			args[n++] = argv[i];
	}
	args[n] = NULL;
	return n;
}
