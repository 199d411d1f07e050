/* SPDX-License-Identifier: GPL-2.0 */
/* A config document validated into a staged config (config_parse.c). */
#ifndef ROCEDP_CONFIG_PARSE_H
#define ROCEDP_CONFIG_PARSE_H

#include <json-c/json.h>
#include "config.h"

/*
 * The host facts the parser needs: the ifindex of a port name (0: no such
 * device) and whether an ifindex exists. Given, not read from the live
 * host, so a config can be checked where its ports are not.
 */
struct rd_host {
	unsigned int (*ifindex)(void *ctx, const char *name);
	bool (*has_ifindex)(void *ctx, unsigned int ifindex);
	void *ctx;
};

#define RD_HOST_OFFLINE_PORTS 1024

/*
 * A host with every validly named port (the kernel's rule: 1..15 bytes,
 * not "." or "..", no '/', ':' or blank) and every ifindex: `config check
 * --offline`. Names get stand-in ifindexes 1, 2, ... in order of use.
 */
struct rd_host_offline {
	struct rd_host h;
	char names[RD_HOST_OFFLINE_PORTS][16];
	unsigned int n;
};
void rd_host_offline_init(struct rd_host_offline *o);

/* Validate a parsed document into s; one error line per bad key. -EINVAL.
 * Port names are this network namespace's devices. */
int rd_config_parse(struct json_object *root, struct rd_staged *s);
/* The same against the host facts h (NULL: this network namespace). */
int rd_config_parse_host(struct json_object *root, const struct rd_host *h,
			 struct rd_staged *s);
/* Read and validate a file ("-" = stdin); changes nothing. -errno. */
int rd_config_check_file(const char *path);
/* The same against the host facts h (NULL: this network namespace). */
int rd_config_check_file_host(const char *path, const struct rd_host *h);

#endif
