/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What json-c accepts but a config must not hold: a key given twice in one
 * object (json-c keeps the last one without a word) and a NUL character in
 * a string or key (json-c's C strings end there, so "hash\u0000x" reads as
 * "hash"). Checked on the text, which still has every key.
 */
#ifndef ROCEDP_JSONSTRICT_H
#define ROCEDP_JSONSTRICT_H

#include <stddef.h>

/* At most this many error lines per document, then "... and N more". */
#define RD_JSON_MAX_ERRORS 100

/*
 * Check text that json-c parsed without error. One error line per problem
 * ("NAME:LINE:COL: ..."), at most RD_JSON_MAX_ERRORS of them; 0 or -EINVAL
 * (-ENOMEM).
 */
int rd_json_strict(const char *name, const char *buf, size_t len);

/* The line after the last of n errors when more than the cap were found. */
void rd_json_more_errors(const char *obj, unsigned long n);

#endif
