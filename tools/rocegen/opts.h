/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocegen's command line (opts.c): the options of send, serve and run
 * into one struct rg_cli, their defaults, and the usage text. Apart from
 * main.c so that main.c (the commands and the pattern runner) stays a
 * readable size; nothing here calls back into main.c.
 */
#ifndef ROCEGEN_OPTS_H
#define ROCEGEN_OPTS_H

#include <stdbool.h>
#include <stdio.h>
#include "rocegen.h"

struct rg_cli {
	struct rg_send_opts s;
	struct rg_serve_opts r;
	char dst_list[4096];
	bool have_dst;
	const char *pattern, *hosts, *sink;
	bool json;
};

void rg_usage(FILE *f);
void rg_defaults(struct rg_cli *c);
/* argv of command cmd ("send", "serve", "run") into c: 0, or nonzero
 * when the command must stop (usage or one error line printed) */
int rg_parse_opts(struct rg_cli *c, int argc, char **argv, const char *cmd);
/* Split the --dst list into addresses of one family; 0 or -1 (printed). */
int rg_dst_list(struct rg_cli *c);
/* The egress interface and source address from the route to the first
 * destination when not given, the MTU checked; 0 or -1 (printed). */
int rg_send_prepare(struct rg_send_opts *s, bool have_src);

#endif
