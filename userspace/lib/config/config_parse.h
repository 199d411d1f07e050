/* SPDX-License-Identifier: GPL-2.0 */
/* A config document validated into a staged config (config_parse.c). */
#ifndef ROCEDP_CONFIG_PARSE_H
#define ROCEDP_CONFIG_PARSE_H

#include <json-c/json.h>
#include "config.h"

/*
 * The host facts the parser needs: the ifindex of a port name (0: no such
 * device), whether an ifindex exists, and a port's own MAC address (the
 * default smac; 0 or -errno). Given, not read from the live host, so a
 * config can be checked where its ports are not.
 */
struct rd_host {
	unsigned int (*ifindex)(void *ctx, const char *name);
	bool (*has_ifindex)(void *ctx, unsigned int ifindex);
	int (*mac)(void *ctx, unsigned int ifindex, __u8 mac[6]);
	void *ctx;
};

/*
 * This network namespace's names and MACs, but every ifindex exists: the
 * offline engine's modelled ports (replay, tests). Stateless, shared.
 */
const struct rd_host *rd_host_modelled(void);

#define RD_HOST_OFFLINE_PORTS 1024

/*
 * A host with every validly named port (the kernel's rule: 1..15 bytes,
 * not "." or "..", no '/', ':' or blank) and every ifindex: `config check
 * --offline`. Names get stand-in ifindexes 1, 2, ... in order of use, and
 * every port the stand-in MAC 02:00:00:00:00:00, so the check reads
 * nothing of the host it runs on: a pure function of the file.
 */
struct rd_host_offline {
	struct rd_host h;
	char names[RD_HOST_OFFLINE_PORTS][16];
	unsigned int n;
};
void rd_host_offline_init(struct rd_host_offline *o);

/* Validate a parsed document into s; one error line per bad key. -EINVAL.
 * Port names, ifindexes and MACs are this network namespace's devices. */
int rd_config_parse(struct json_object *root, struct rd_staged *s);
/* The same against the host facts h (NULL: this network namespace). */
int rd_config_parse_host(struct json_object *root, const struct rd_host *h,
			 struct rd_staged *s);
/* Read and validate a file ("-" = stdin); changes nothing. -errno. */
int rd_config_check_file(const char *path);
/* The same against the host facts h (NULL: this network namespace). */
int rd_config_check_file_host(const char *path, const struct rd_host *h);

#endif
