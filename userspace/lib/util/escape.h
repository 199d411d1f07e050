/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names from outside (interface names, file and netns names) on their way
 * out: an interface name may hold ESC, '"', '\' or any byte but '/' and
 * blanks, and none of that may reach a terminal raw, break a JSON string
 * or a Prometheus label. One function per kind of output; each writes into
 * buf (len bytes, RD_ESC_LEN(strlen) is always enough), never cuts an
 * escape in two, and returns buf.
 */
#ifndef ROCEDP_ESCAPE_H
#define ROCEDP_ESCAPE_H

#include <stddef.h>
#include <net/if.h>

/* Room for the escaped form of n bytes (at worst 6 per byte, and a NUL). */
#define RD_ESC_LEN(n) ((n)*6 + 1)
/* An escaped interface name */
#define RD_ESC_IFNAME RD_ESC_LEN(IF_NAMESIZE)

/*
 * For a terminal: control bytes (C0, DEL, C1) and bytes that are not UTF-8
 * as \xHH, '\' as \\; valid UTF-8 stays as it is.
 */
const char *rd_esc_term(const char *s, char *buf, size_t len);
/*
 * The inside of a JSON string: '"' and '\' escaped, control characters as
 * \u00XX, bytes that are not UTF-8 as \u00XX (read as Latin-1): the
 * result is always valid JSON.
 */
const char *rd_esc_json(const char *s, char *buf, size_t len);
/*
 * The inside of a Prometheus label value: the terminal form (so a label
 * shows what the terminal shows), with '\' and '"' escaped as the text
 * format asks.
 */
const char *rd_esc_prom(const char *s, char *buf, size_t len);

enum rd_esc { RD_ESC_TERM, RD_ESC_JSON, RD_ESC_PROM };

/* One of the three by kind */
const char *rd_esc(enum rd_esc kind, const char *s, char *buf, size_t len);
/* rd_ifname (util.h), escaped; buf holds RD_ESC_IFNAME bytes */
const char *rd_ifname_esc(unsigned int ifindex, enum rd_esc kind, char *buf);

#endif
