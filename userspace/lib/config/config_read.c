// SPDX-License-Identifier: GPL-2.0
/*
 * The running config read back from the maps into a staged config: static
 * groups and routes (by their STATIC flags), ECN ports, QoS, the live CTS
 * rule bank and its names. With a struct rd_running it also records what
 * a config load must know of the rest (both rule banks, every port slot).
 * Routes and groups of other writers are not read here: a load commits
 * through the FIB model (group_static.h), which reads the maps itself.
 * Reads only, but for the rule names file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <dirent.h>
#include <bpf/bpf.h>

#include "config_read.h"
#include "pindir.h"
#include "portl2.h"
#include "routew.h"

#define RUN_DIR ROCEDP_RUN_DIR

void rd_running_free(struct rd_running *x)
{
	free(x->ports);
	x->ports = NULL;
}

static bool group_is_static(const struct rocedp_group *g)
{
	unsigned int i, n = g->n_members;

	for (i = 0; i < n && i < ROCEDP_MAX_MEMBERS; i++)
		if (g->members[i].flags & ROCEDP_MEMBERF_STATIC)
			return true;
	return false;
}

static int read_groups(int fd, struct rd_staged *s)
{
	__u32 key, next, *prev = NULL;
	struct rocedp_group g;
	unsigned int cap = 0;
	int err;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &g))
			continue;
		if (key >= ROCEDP_MAX_GROUPS)
			continue;
		if (!group_is_static(&g))
			continue;
		err = rd_cfg_grow((void **)&s->groups, s->n_groups, &cap,
				  sizeof(*s->groups));
		if (err)
			return err;
		s->groups[s->n_groups].id = key;
		s->groups[s->n_groups].g = g;
		s->n_groups++;
	}
	if (errno != ENOENT)
		return -errno;
	rd_cfg_qsort(s->groups, s->n_groups, sizeof(*s->groups),
		     rd_cfg_group_cmp);
	return 0;
}

struct routes_read {
	struct rd_staged *s;
	unsigned int cap;
};

static int on_route(uint8_t family, uint8_t plen, const uint8_t *addr,
		    const struct rocedp_route *v, void *ctx)
{
	struct routes_read *r = ctx;
	struct rd_cfg_route *rt;
	int err;

	if (!(v->flags & ROCEDP_ROUTEF_STATIC))
		return 0;
	err = rd_cfg_grow((void **)&r->s->routes, r->s->n_routes, &r->cap,
			  sizeof(*r->s->routes));
	if (err)
		return err;
	rt = &r->s->routes[r->s->n_routes++];
	memset(rt, 0, sizeof(*rt));
	rt->family = family;
	rt->plen = plen;
	/* host bits clear (rd_routes_each): staged routes compare with it */
	memcpy(rt->addr, addr, 16);
	rt->val = *v;
	return 0;
}

static int read_ports(const struct rd_maps *m, struct rd_staged *s,
		      struct rd_running *x)
{
	struct rocedp_port_state ps;
	struct rocedp_port_cfg dflt;
	unsigned int cap = 0, xcap = 0;
	__u32 key;
	struct rd_cfg_port pt;
	int fd = m->fd[RD_MAP_PORT_CFG], err;

	rd_port_defaults(&dflt);
	for (key = 0; key < ROCEDP_PORT_SLOTS; key++) {
		memset(&pt, 0, sizeof(pt));
		pt.ifindex = key;
		if (rd_port_cfg_get(fd, key, &pt.pc))
			continue;
		if ((pt.pc.flags & ROCEDP_PORTF_HOLD_QUEUE) &&
		    !bpf_map_lookup_elem(m->fd[RD_MAP_PORT_STATE], &key, &ps))
			pt.hold_bytes = ps.vq_bytes;
		/* the discard action counts only with the flag (config_txn) */
		if ((pt.pc.flags & ROCEDP_PORTF_ADMIT) &&
		    bpf_map_lookup_elem(m->fd[RD_MAP_TRIM_PORTS], &key,
					&pt.trim))
			memset(&pt.trim, 0, sizeof(pt.trim));
		if (x) {
			err = rd_cfg_grow((void **)&x->ports, x->n_ports, &xcap,
					  sizeof(pt));
			if (err)
				return err;
			x->ports[x->n_ports++] = pt;
		}
		if (!memcmp(&pt.pc, &dflt, sizeof(pt.pc)))
			continue;
		err = rd_cfg_grow((void **)&s->ports, s->n_ports, &cap,
				  sizeof(pt));
		if (err)
			return err;
		s->ports[s->n_ports++] = pt;
	}
	if (errno != ENOENT)
		return -errno;
	rd_cfg_qsort(s->ports, s->n_ports, sizeof(pt), rd_cfg_port_cmp);
	if (x)
		rd_cfg_qsort(x->ports, x->n_ports, sizeof(pt), rd_cfg_port_cmp);
	return 0;
}

static __u64 fnv64(const void *p, size_t len)
{
	const __u8 *b = p;
	__u64 h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * The ABI keeps no rule names, so the CLI keeps them beside the maps in
 * RUN_DIR/cts-<map id>.names, each with a hash of its rule: a name is shown
 * only while its rule is unchanged, whoever rewrote the map.
 */
static void cts_names_load(int fd, struct rd_staged *s)
{
	char path[64], name[RD_CTS_NAME_MAX];
	unsigned long long hash;
	unsigned int i;
	FILE *f;
	int id = rd_map_id(fd);

	if (id < 0)
		return;
	snprintf(path, sizeof(path), RUN_DIR "/cts-%d.names", id);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%u %llx %31s", &i, &hash, name) == 3)
		if (i < s->cfg.n_cts_rules &&
		    fnv64(&s->rules[i], sizeof(s->rules[i])) == hash)
			strcpy(s->rule_names[i], name);
	fclose(f);
}

void rd_cts_names_save(int fd, const struct rd_staged *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	struct dirent *de;
	unsigned int i;
	DIR *d;
	FILE *f;
	int id = rd_map_id(fd), old, ofd;

	if (id < 0 || (mkdir(RUN_DIR, 0700) && errno != EEXIST))
		return;
	/* forget names of maps that are gone (detached, re-attached) */
	d = opendir(RUN_DIR);
	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, "cts-%d.names", &old) != 1 || old == id)
			continue;
		ofd = bpf_map_get_fd_by_id(old);
		if (ofd >= 0) {
			close(ofd);
			continue;
		}
		snprintf(path, sizeof(path), RUN_DIR "/%s", de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), RUN_DIR "/cts-%d.names", id);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	for (i = 0; i < s->cfg.n_cts_rules; i++)
		if (s->rule_names[i][0])
			fprintf(f, "%u %llx %s\n", i,
				(unsigned long long)fnv64(&s->rules[i],
							  sizeof(s->rules[i])),
				s->rule_names[i]);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

int rd_config_load_running(const struct rd_maps *m, struct rd_staged *s,
			   struct rd_running *x)
{
	struct routes_read rr = { .s = s };
	__u32 k = 0, bank;
	int err;

	memset(s, 0, sizeof(*s));
	if (bpf_map_lookup_elem(m->fd[RD_MAP_CONFIG], &k, &s->cfg))
		return -errno;
	for (k = 0; k < ROCEDP_CLASS_MAX; k++)
		if (bpf_map_lookup_elem(m->fd[RD_MAP_QOS], &k, &s->qos[k]))
			return -errno;
	/* the list the classifier walks: bank and count from cts_live */
	bank = ROCEDP_CTS_LIVE_BANK(s->cfg.cts_live);
	s->cfg.n_cts_rules = ROCEDP_CTS_LIVE_N(s->cfg.cts_live);
	if (s->cfg.n_cts_rules > ROCEDP_MAX_CTS_RULES)
		s->cfg.n_cts_rules = ROCEDP_MAX_CTS_RULES;
	for (k = 0; k < ROCEDP_CTS_SLOTS; k++) {
		struct rocedp_cts_rule r;
		unsigned int i = k - bank * ROCEDP_MAX_CTS_RULES;

		if (bpf_map_lookup_elem(m->fd[RD_MAP_CTS_RULES], &k, &r))
			return -errno;
		if (x)
			x->rules[k] = r;
		if (i < s->cfg.n_cts_rules) /* unsigned: the live bank only */
			s->rules[i] = r;
	}
	cts_names_load(m->fd[RD_MAP_CTS_RULES], s);
	err = read_groups(m->fd[RD_MAP_GROUPS], s);
	if (!err)
		err = rd_routes_each(m->fd[RD_MAP_ROUTES4], AF_INET, on_route,
				     &rr);
	if (!err)
		err = rd_routes_each(m->fd[RD_MAP_ROUTES6], AF_INET6, on_route,
				     &rr);
	if (!err)
		err = read_ports(m, s, x);
	if (err) {
		rd_staged_free(s);
		if (x)
			rd_running_free(x);
		return err;
	}
	rd_cfg_qsort(s->routes, s->n_routes, sizeof(*s->routes),
		     rd_cfg_route_cmp);
	return 0;
}

int rd_config_read_running(const struct rd_maps *m, struct rd_staged *s)
{
	return rd_config_load_running(m, s, NULL);
}
