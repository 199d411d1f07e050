/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every rocedp program shares (util.c): the output options and the
 * one-line, sanitised error.
 */
#ifndef ROCEDP_UTIL_H
#define ROCEDP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* The number of elements of an array (not a pointer); defined here alone */
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Print one error line "rocedp: OBJECT: reason" to stderr. */
void rd_err(const char *obj, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same line for another program (rocegen): "PROG: OBJECT: reason". */
void rd_verr(const char *prog, const char *obj, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * Make room for element n of *arr (elements of sz bytes, *cap of them):
 * nothing while n < *cap, else *cap doubles (first when 0). 0 or -ENOMEM,
 * which leaves *arr and *cap as they were.
 */
int rd_grow(void **arr, size_t n, size_t *cap, size_t sz, size_t first);

/* An interface's name into buf (IF_NAMESIZE bytes), "if<N>" when it has
 * none (gone, or another namespace's); returns buf. */
const char *rd_ifname(unsigned int ifindex, char *buf);
/*
 * One SIOCETHTOOL request (data: a struct ethtool_* starting with its cmd)
 * on interface name: 0 (a set may return > 0: other features changed
 * along) or -errno.
 */
int rd_ethtool(const char *name, void *data);

/*
 * Log lines for journald: stderr is the journal (systemd's JOURNAL_STREAM),
 * and then "<N>", the syslog priority prefix of sd-daemon(3) (3 error,
 * 4 warning, 6 info), else "". Under systemd the journal adds the time,
 * so a line carries none of its own.
 */
bool rd_log_journal(void);
const char *rd_log_prio(int prio);

extern bool rd_json; /* -j */
extern bool rd_pretty; /* -p */
/* Where the error lines go when set (the CLI's, for JSON under -j): the
 * message already sanitised; unset, to stderr. */
extern void (*rd_err_sink)(const char *prog, const char *obj, const char *msg);

#endif
