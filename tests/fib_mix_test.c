// SPDX-License-Identifier: GPL-2.0
/*
 * Config, sync and sonic sync writing routes together, against the RIB.
 * 1000 random mixes of: the kernel setting or withdrawing a route
 * (rocedp sync's FIB model then commits, as the daemon does after a
 * batch), `config load` of a random document with static groups and
 * routes (sometimes taking the id of a group sync uses), `sonic sync`
 * applying its converted document (settings, no routes: the config's
 * static routes go), the daemon restarting (a new model reads the maps),
 * and the daemon stopped for a while. Prefixes collide across the
 * sources.
 *
 * While the daemon runs it is the one committer of routes and groups: a
 * load's static step runs in the daemon (sync_serve.c runs the same
 * rd_config_static_apply), which then reads the maps again before its
 * next commit (s->reload, rd_writers_lock). Here the step runs in this
 * process and the model is flagged the same way. While it is stopped,
 * loads commit in-process and kernel changes wait for its restart.
 *
 * After every step the route tries must hold exactly the RIB's selected
 * route of each prefix (rib.c: distance, then source), with its value: a
 * config route its group id and the STATIC flag, a kernel route LOCAL or
 * a group whose members are its next hops; every group in rd_groups is
 * used by a route, or is one of the config's, or the daemon holds it for
 * a kernel route the config hides; every config group holds the config's
 * members.
 *
 * Kernel routes here are of distance 1 and up (static, bgp, ospf): a
 * connected route (distance 0) under a static route of the config still
 * loses to it in the maps, since the daemon leaves the config's entries
 * alone (docs/sync.md, Route sources).
 *
 * Usage: fib_mix_test [-q] [-n MIXES]   (root). TAP output; with
 * FIB_MIX_DEBUG=1 each step, the model and the maps after it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <bpf/bpf.h>
#include "engine.h"
#include "config_txn.h"
#include "group.h"
#include "group_commit.h"
#include "rib.h"
#include "routew.h"
#include "tap.h"

#define N_PFX 12 /* the prefix space, shared by every source */
#define PORT_MIN 2
#define N_PORTS 5 /* member ports 2..6 */

struct pfx {
	uint8_t family, plen;
	uint8_t addr[16];
};

/* what each source holds now: the expectation's input */
struct kroute {
	bool on;
	uint8_t proto;
	int n;
	struct rd_hop hops[3];
};

struct croute {
	bool on;
	bool local;
	uint32_t group;
};

struct world {
	const struct rd_maps *m;
	struct rd_fib *fib; /* the daemon's model (its last, when stopped) */
	bool running; /* the daemon runs: it commits, loads hand off */
	struct rd_fib_maps fm;
	bool reload; /* a hand-off was served: read the maps first */
	struct kroute k[N_PFX];
	struct croute c[N_PFX];
	bool cgroup[ROCEDP_MAX_GROUPS];
	uint32_t cmembers[ROCEDP_MAX_GROUPS]; /* bit per port */
	unsigned long steps, clashes, sonic, restarts, stops, stopped_loads;
};

static struct pfx pfxs[N_PFX];

static void pfx_init(void)
{
	static const struct {
		uint8_t b0, b1, b2, plen;
	} v4[] = { { 10, 0, 0, 8 },    { 10, 1, 0, 16 }, { 10, 1, 2, 24 },
		   { 10, 2, 0, 16 },   { 10, 2, 7, 24 }, { 10, 3, 0, 16 },
		   { 172, 16, 0, 12 }, { 10, 1, 3, 24 }, { 10, 9, 0, 16 } };
	unsigned int i;

	for (i = 0; i < 9; i++) {
		pfxs[i].family = AF_INET;
		pfxs[i].plen = v4[i].plen;
		pfxs[i].addr[0] = v4[i].b0;
		pfxs[i].addr[1] = v4[i].b1;
		pfxs[i].addr[2] = v4[i].b2;
	}
	for (; i < N_PFX; i++) {
		pfxs[i].family = AF_INET6;
		pfxs[i].plen = 48 + 16 * (i - 9) % 32;
		pfxs[i].addr[0] = 0x20;
		pfxs[i].addr[1] = 0x01;
		pfxs[i].addr[2] = 0x0d;
		pfxs[i].addr[3] = 0xb8;
		pfxs[i].addr[5] = 1 + (i == N_PFX - 1);
	}
}

static void fill(void *ctx, struct rocedp_member *m)
{
	(void)ctx;
	m->smac[0] = m->dmac[0] = 2;
	m->smac[5] = m->dmac[5] = m->ifindex;
	m->flags |= ROCEDP_MEMBERF_UP | ROCEDP_MEMBERF_RESOLVED;
}

/* The daemon's commit: under its lock it first re-reads the maps after
 * a hand-off (rd_writers_lock). Stopped: nothing. */
static int sync_commit(struct world *w, bool full)
{
	int err;

	if (!w->running)
		return 0;
	if (w->reload) {
		err = rd_fib_load_installed(w->fib);
		if (err)
			return err;
		rd_fib_touch_ifindex(w->fib, 0);
		w->reload = false;
		full = true;
	}
	return rd_fib_commit(w->fib, full, fill, NULL, NULL);
}

static int sync_start(struct world *w)
{
	rd_fib_free(w->fib);
	w->fib = rd_fib_new();
	if (!w->fib)
		return -ENOMEM;
	rd_fib_set_maps(w->fib, &w->fm);
	w->running = true;
	w->reload = true; /* start: read the maps */
	return 0;
}

/* The daemon's model holds every kernel route again (after a restart). */
static int sync_replay(struct world *w)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < N_PFX && !err; i++)
		if (w->k[i].on)
			err = rd_fib_route_set(w->fib, pfxs[i].family,
					       pfxs[i].plen, pfxs[i].addr,
					       w->k[i].n ? 0 :
							   ROCEDP_ROUTEF_LOCAL,
					       w->k[i].hops, w->k[i].n);
	return err ? err : sync_commit(w, true);
}

static int kernel_step(struct world *w)
{
	static const uint8_t protos[] = { RTPROT_BOOT, RTPROT_STATIC,
					  RTPROT_BGP, RTPROT_OSPF, 196 };
	unsigned int i = tap_rand() % N_PFX, j;
	struct kroute *k = &w->k[i];
	const struct pfx *p = &pfxs[i];

	/* the kernel holds still while no daemon follows it: the maps
	 * could not say what the restart's dump brings */
	if (!w->running)
		return 0;
	if (k->on && tap_rand() % 3 == 0) {
		k->on = false;
		rd_fib_route_del(w->fib, p->family, p->plen, p->addr);
		return sync_commit(w, false);
	}
	k->on = true;
	k->proto = protos[tap_rand() % sizeof(protos)];
	k->n = tap_rand() % 4; /* 0: no gateway, to the kernel */
	memset(k->hops, 0, sizeof(k->hops));
	for (j = 0; j < (unsigned int)k->n; j++) {
		k->hops[j].ifindex =
			PORT_MIN + (tap_rand() % N_PORTS + j) % N_PORTS;
		k->hops[j].weight = 1 + tap_rand() % 3;
		k->hops[j].family = AF_INET;
		k->hops[j].gw[0] =
			htonl(0x0a640000 | k->hops[j].ifindex << 8 | 2);
	}
	/* distinct ports: a member per hop (no merging to follow here) */
	for (j = 1; j < (unsigned int)k->n; j++)
		if (k->hops[j].ifindex == k->hops[0].ifindex ||
		    (j == 2 && k->hops[2].ifindex == k->hops[1].ifindex))
			k->n = j;
	return rd_fib_route_set(w->fib, p->family, p->plen, p->addr, k->n ? 0 : ROCEDP_ROUTEF_LOCAL, k->hops, k->n) ?:
		       sync_commit(w, false);
}

/* Some group id rocedp sync uses now, or 0. */
static uint32_t sync_group_id(struct world *w)
{
	__u32 key, next, *prev = NULL;
	uint32_t found = 0;
	struct rocedp_group g;

	while (!bpf_map_get_next_key(w->m->fd[RD_MAP_GROUPS], prev, &next)) {
		key = next;
		prev = &key;
		if (key < ROCEDP_MAX_GROUPS && !w->cgroup[key] &&
		    !bpf_map_lookup_elem(w->m->fd[RD_MAP_GROUPS], &key, &g))
			found = key;
	}
	return found;
}

static void put_prefix(char **o, const struct pfx *p)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(p->family, p->addr, a, sizeof(a));
	*o += sprintf(*o, "\"%s/%u\"", a, p->plen);
}

/* A random config document; applied through rd_config_apply_text. */
static int config_step(struct world *w, bool sonic)
{
	static char doc[16384];
	uint32_t ids[4], clash = 0, members[4];
	unsigned int n_ids = 0, i, j, n_members;
	struct croute c[N_PFX];
	char *o = doc;
	int err;

	memset(c, 0, sizeof(c));
	o += sprintf(o,
		     "{\"features\": [\"forward\"], \"hash\": {\"mode\": "
		     "\"%s\"}",
		     tap_rand() % 2 ? "qp" : "5tuple");
	if (!sonic) {
		n_ids = tap_rand() % 4;
		/* with no daemon, a moved group of its own could look
		 * unused to the check (its model is its last) */
		if (n_ids && tap_rand() % 3 == 0 && w->running)
			clash = sync_group_id(w);
		for (i = 0; i < n_ids; i++)
			ids[i] = i == 0 && clash ? clash :
						   1 + i * 2 + tap_rand() % 2;
		o += sprintf(o, ", \"groups\": [");
		for (i = 0; i < n_ids; i++) {
			n_members = 1 + tap_rand() % 2;
			members[i] = 0;
			o += sprintf(o, "%s{\"id\": %u, \"members\": [",
				     i ? ", " : "", ids[i]);
			for (j = 0; j < n_members; j++) {
				unsigned int port =
					PORT_MIN + (i + j * 2) % N_PORTS;

				members[i] |= 1u << port;
				o += sprintf(
					o,
					"%s{\"ifindex\": %u, \"smac\": "
					"\"02:00:00:00:00:%02x\", \"dmac\": "
					"\"02:00:00:00:01:%02x\"}",
					j ? ", " : "", port, port, port);
			}
			o += sprintf(o, "]}");
		}
		o += sprintf(o, "], \"routes\": [");
		for (i = 0, j = 0; i < N_PFX; i++) {
			if (tap_rand() % 3)
				continue;
			c[i].on = true;
			c[i].local = !n_ids || tap_rand() % 5 == 0;
			c[i].group = c[i].local ? 0 : ids[tap_rand() % n_ids];
			o += sprintf(o, "%s{\"prefix\": ", j++ ? ", " : "");
			put_prefix(&o, &pfxs[i]);
			if (c[i].local)
				o += sprintf(o, ", \"local\": true}");
			else
				o += sprintf(o, ", \"group\": %u}", c[i].group);
		}
		o += sprintf(o, "]");
	}
	o += sprintf(o, "}");
	if (getenv("FIB_MIX_DEBUG"))
		printf("# %s\n", doc);
	err = rd_config_apply_text(sonic ? "sonic" : "config", doc,
				   (size_t)(o - doc), w->m);
	if (err) {
		printf("# %s: %s\n", strerror(-err), doc);
		return err;
	}
	memcpy(w->c, c, sizeof(c));
	memset(w->cgroup, 0, sizeof(w->cgroup));
	for (i = 0; i < n_ids; i++) {
		w->cgroup[ids[i]] = true;
		w->cmembers[ids[i]] = members[i];
	}
	w->clashes += clash != 0;
	w->sonic += sonic;
	w->stopped_loads += !w->running;
	/* served by the daemon: it reads the maps again, then commits */
	w->reload = w->running;
	return sync_commit(w, false);
}

union rkey {
	struct rocedp_route4_key k4;
	struct rocedp_route6_key k6;
};

/* The entry of exactly p (a trie lookup would find a covering prefix). */
static int map_route(struct world *w, const struct pfx *p,
		     struct rocedp_route *v)
{
	int fd =
		w->m->fd[p->family == AF_INET ? RD_MAP_ROUTES4 : RD_MAP_ROUTES6];
	union rkey key, next;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		const uint8_t *a = p->family == AF_INET ?
					   (const uint8_t *)&next.k4.addr :
					   next.k6.addr;

		key = next;
		prev = &key;
		if (next.k4.prefixlen == p->plen &&
		    !memcmp(a, p->addr, p->family == AF_INET ? 4 : 16))
			return bpf_map_lookup_elem(fd, &key, v) ? -errno : 0;
	}
	return -ENOENT;
}

/* Entries in a route map. */
static unsigned int map_count(int fd)
{
	union rkey key, next;
	unsigned int n = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		n++;
	}
	return n;
}

static void dump(struct world *w)
{
	__u32 key, next, *prev = NULL;
	union rkey rk, rn;
	struct rocedp_route v;
	struct rocedp_group g;
	void *rp = NULL;
	char a[64];

	for (key = 0; key < N_PFX; key++)
		if (rd_fib_route_get(w->fib, pfxs[key].family, pfxs[key].plen,
				     pfxs[key].addr, &v))
			printf("#   model %u: group %u flags %u (kernel %d)\n",
			       key, v.group_id, v.flags, w->k[key].on);
	while (!bpf_map_get_next_key(w->m->fd[RD_MAP_GROUPS], prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(w->m->fd[RD_MAP_GROUPS], &key, &g))
			printf("#   group %u: %u members, first %u flags %u\n",
			       key, g.n_members, g.members[0].ifindex,
			       g.members[0].flags);
	}
	while (!bpf_map_get_next_key(w->m->fd[RD_MAP_ROUTES4], rp, &rn)) {
		rk = rn;
		rp = &rk;
		if (!bpf_map_lookup_elem(w->m->fd[RD_MAP_ROUTES4], &rk, &v))
			printf("#   %s/%u: group %u flags %u\n",
			       inet_ntop(AF_INET, &rk.k4.addr, a, sizeof(a)),
			       rk.k4.prefixlen, v.group_id, v.flags);
	}
}

/* The RIB of what the sources hold, and the maps beside its choice. */
static int check(struct world *w, char *why, size_t len)
{
	bool used[ROCEDP_MAX_GROUPS] = { false };
	unsigned int i, j, n_sel = 0, n_map;
	struct rd_rib *rib = rd_rib_new();
	__u32 key, next, *prev = NULL;
	struct rocedp_group g;
	int err = 0;

	if (!rib)
		return -ENOMEM;
	for (i = 0; i < N_PFX; i++) {
		struct rd_rib_route rt;

		memset(&rt, 0, sizeof(rt));
		rt.family = pfxs[i].family;
		rt.plen = pfxs[i].plen;
		memcpy(rt.addr, pfxs[i].addr, 16);
		if (w->c[i].on) {
			rt.src = RD_RIB_CONFIG;
			rt.distance = RD_RIB_DIST_STATIC;
			rt.group_id = w->c[i].group;
			rt.flags = w->c[i].local ? ROCEDP_ROUTEF_LOCAL : 0;
			rd_rib_add(rib, &rt);
		}
		if (w->k[i].on) {
			rt.src = RD_RIB_KERNEL;
			rt.proto = w->k[i].proto;
			rt.distance = rd_rib_kernel_distance(rt.proto);
			rt.group_id = 0;
			rt.n_hops = w->k[i].n;
			memcpy(rt.hops, w->k[i].hops, sizeof(w->k[i].hops));
			rt.flags = w->k[i].n ? 0 : ROCEDP_ROUTEF_LOCAL;
			rd_rib_add(rib, &rt);
		}
	}
	for (i = 0; i < N_PFX && !err; i++) {
		const struct pfx *p = &pfxs[i];
		const struct rd_rib_route *best =
			rd_rib_best(rib, p->family, p->plen, p->addr);
		struct rocedp_route v;
		bool have = !map_route(w, p, &v);
		uint32_t want_members = 0, got = 0;

		v.flags &= ~ROCEDP_ROUTEF_KERNEL; /* a cover's mark */
		if (!best) {
			if (have) {
				snprintf(
					why, len,
					"prefix %u: no route, map has group %u flags %u",
					i, v.group_id, v.flags);
				err = -EINVAL;
			}
			continue;
		}
		/* with no daemon, a kernel route the config no longer hides
		 * waits for the restart's dump */
		if (!have && !w->running && best->src == RD_RIB_KERNEL)
			continue;
		n_sel++;
		if (!have) {
			snprintf(why, len, "prefix %u: %s route not in the map",
				 i, rd_rib_src_name(best->src));
			err = -EINVAL;
			continue;
		}
		if (best->src == RD_RIB_CONFIG) {
			struct rocedp_route want = {
				.group_id = best->group_id,
				.flags = best->flags | ROCEDP_ROUTEF_STATIC
			};

			if (memcmp(&v, &want, sizeof(v))) {
				snprintf(
					why, len,
					"prefix %u: config wants group %u flags %u, map %u %u",
					i, want.group_id, want.flags,
					v.group_id, v.flags);
				err = -EINVAL;
				continue;
			}
			if (!best->group_id)
				continue;
			want_members = w->cmembers[best->group_id];
		} else {
			if (v.flags & ROCEDP_ROUTEF_STATIC ||
			    !(v.flags & ROCEDP_ROUTEF_LOCAL) !=
				    !!best->n_hops) {
				snprintf(
					why, len,
					"prefix %u: kernel route (%u hops), map group %u flags %u",
					i, best->n_hops, v.group_id, v.flags);
				err = -EINVAL;
				continue;
			}
			if (!best->n_hops)
				continue;
			for (j = 0; j < best->n_hops; j++)
				want_members |= 1u << best->hops[j].ifindex;
		}
		used[v.group_id] = true;
		key = v.group_id;
		if (bpf_map_lookup_elem(w->m->fd[RD_MAP_GROUPS], &key, &g)) {
			snprintf(why, len, "prefix %u: group %u missing", i,
				 key);
			err = -EINVAL;
			continue;
		}
		for (j = 0; j < g.n_members && j < ROCEDP_MAX_MEMBERS; j++)
			got |= 1u << g.members[j].ifindex;
		if (got != want_members) {
			snprintf(
				why, len,
				"prefix %u (%s): group %u has ports %#x, want %#x",
				i, rd_rib_src_name(best->src), key, got,
				want_members);
			err = -EINVAL;
		}
	}
	n_map = map_count(w->m->fd[RD_MAP_ROUTES4]) +
		map_count(w->m->fd[RD_MAP_ROUTES6]);
	if (!err && n_map != n_sel) {
		snprintf(why, len, "%u routes in the maps, %u selected", n_map,
			 n_sel);
		err = -EINVAL;
	}
	while (!err &&
	       !bpf_map_get_next_key(w->m->fd[RD_MAP_GROUPS], prev, &next)) {
		key = next;
		prev = &key;
		/* a group of a kernel route the config hides stays ready */
		if (key >= ROCEDP_MAX_GROUPS ||
		    (!used[key] && !w->cgroup[key] &&
		     !rd_fib_group_refcnt(w->fib, key))) {
			snprintf(why, len,
				 "group %u in rd_groups, no route uses it",
				 key);
			err = -EINVAL;
		}
	}
	/* every group of the config, with its members, used or not */
	for (key = 1; key < ROCEDP_MAX_GROUPS && !err; key++) {
		uint32_t got = 0;

		if (!w->cgroup[key])
			continue;
		if (bpf_map_lookup_elem(w->m->fd[RD_MAP_GROUPS], &key, &g)) {
			snprintf(why, len, "config group %u missing", key);
			err = -EINVAL;
			break;
		}
		for (j = 0; j < g.n_members && j < ROCEDP_MAX_MEMBERS; j++)
			got |= 1u << g.members[j].ifindex;
		if (got != w->cmembers[key]) {
			snprintf(why, len,
				 "config group %u: ports %#x, want %#x", key,
				 got, w->cmembers[key]);
			err = -EINVAL;
		}
	}
	rd_rib_free(rib);
	return err;
}

static int done(void)
{
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct rd_engine_opts eo = { .map_clock = true };
	unsigned long mixes = 1000, mix, failed_at = 0;
	struct world w;
	struct rd_engine *e;
	char why[256] = "";
	int err, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = true;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			mixes = strtoul(argv[++i], NULL, 0);
	}
	pfx_init();
	memset(&w, 0, sizeof(w));
	err = rd_engine_open(&e, &eo);
	if (!result(!err, "engine ready%s%s", err ? ": " : "",
		    err ? strerror(-err) : ""))
		return done();
	w.m = rd_engine_maps(e);
	w.fm = (struct rd_fib_maps){ .routes4 = w.m->fd[RD_MAP_ROUTES4],
				     .routes6 = w.m->fd[RD_MAP_ROUTES6],
				     .groups = w.m->fd[RD_MAP_GROUPS],
				     .group_banks = w.m->fd[RD_MAP_GROUP_BANKS],
				     .group_live = w.m->fd[RD_MAP_GROUP_LIVE],
				     .tx_ports = -1,
				     .port_cfg = -1 };
	err = rd_routew_gen_map(w.m->fd[RD_MAP_ROUTE_GEN], &w.fm.route_gen);
	if (!err)
		err = sync_start(&w);
	if (!err)
		err = sync_commit(&w, true);
	if (!result(!err, "the daemon's model on the engine's maps"))
		return done();
	for (mix = 0; mix < mixes && !err; mix++) {
		unsigned int n = 1 + tap_rand() % 6, s;

		for (s = 0; s < n && !err; s++) {
			unsigned int r = tap_rand() % 40;
			/* 38, 39: now and then the daemon stops (loads then
			 * commit in-process) until a restart */
			bool stop = r >= 38 && w.running && tap_rand() % 2;

			if (getenv("FIB_MIX_DEBUG"))
				printf("# step %lu: %s\n", w.steps,
				       r < 22 ? "kernel" :
				       r < 34 ? "config" :
				       r < 38 ? "sonic" :
				       stop   ? "stop" :
						"restart");

			if (r < 22) {
				err = kernel_step(&w);
			} else if (r < 34) {
				err = config_step(&w, false);
			} else if (r < 38) {
				err = config_step(&w, true);
			} else if (stop) {
				w.running = false;
				w.stops++;
			} else {
				w.restarts++;
				err = sync_start(&w) ?: sync_replay(&w);
			}
			w.steps++;
			if (err)
				snprintf(why, sizeof(why), "step failed: %s",
					 strerror(-err));
			else
				err = check(&w, why, sizeof(why));
			if (getenv("FIB_MIX_DEBUG"))
				dump(&w);
		}
		if (err)
			failed_at = mix + 1;
	}
	result(!err,
	       "%lu mixes, %lu steps (%lu loads taking a sync group's id, %lu sonic applies, %lu daemon restarts, %lu stops, %lu loads with no daemon): the maps hold the RIB's selection after every step%s%s",
	       mix, w.steps, w.clashes, w.sonic, w.restarts, w.stops,
	       w.stopped_loads, err ? "; failed in mix " : "", err ? why : "");
	if (err)
		printf("# failed in mix %lu\n", failed_at);
	result(w.clashes > 10 && w.sonic > 10 && w.restarts > 10 &&
		       w.stops > 10 && w.stopped_loads > 10,
	       "every kind of step came up (%lu, %lu, %lu, %lu, %lu)",
	       w.clashes, w.sonic, w.restarts, w.stops, w.stopped_loads);
	rd_fib_free(w.fib);
	rd_routew_gen_unmap(w.fm.route_gen);
	rd_engine_close(e);
	return done();
}
