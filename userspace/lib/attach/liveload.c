// SPDX-License-Identifier: GPL-2.0
/*
 * The live object: the BPF programs loaded with their maps pinned in this
 * network namespace's pin directory and reused by every later load, so
 * settings and counters survive upgrades and the sync daemon's restarts;
 * and the pins removed again when nothing is attached any more.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "liveload.h"
#include "config_txn.h"
#include "engine.h"
#include "groupw.h"
#include "pindir.h"
#include "portw.h"
#include "routew.h"
#include "sync_owner.h"
#include "rocedp.skel.h"

static const char *pin_path(char *buf, size_t len, const char *sub)
{
	snprintf(buf, len, "%s%s", rd_pin_dir(), sub);
	return buf;
}

/* The netns's directory on the host's bpffs (pindir.c), root-only. */
int rd_pin_dir_prepare(void)
{
	static const char *const subs[] = { "links", "progs", NULL };

	return rd_pin_dir_make(subs);
}

bool rd_ecn_module_loaded(void)
{
	return access("/sys/kernel/btf/rocedp_ecn", F_OK) == 0;
}

/*
 * A pin left by a version whose map differs (type, key, value, size)
 * cannot be reused; libbpf's refusal reads as a bare EINVAL, so name the
 * map and the way out. -ESTALE: already reported.
 */
static int check_pin(const struct bpf_map *map, const char *path)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	int fd, err;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return 0; /* not pinned yet: the load creates it */
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	close(fd);
	if (err)
		return 0; /* let the load report it */
	if (info.type == bpf_map__type(map) &&
	    info.key_size == bpf_map__key_size(map) &&
	    info.value_size == bpf_map__value_size(map) &&
	    info.max_entries == bpf_map__max_entries(map))
		return 0;
	rd_err("attach",
	       "%s: pinned by another version (%s, %u/%u B, %u entries; this build wants %s, %u/%u B, %u entries): 'rocedp detach --all' removes the pins",
	       path, libbpf_bpf_map_type_str(info.type), info.key_size,
	       info.value_size, info.max_entries,
	       libbpf_bpf_map_type_str(bpf_map__type(map)),
	       bpf_map__key_size(map), bpf_map__value_size(map),
	       bpf_map__max_entries(map));
	return -ESTALE;
}

/*
 * The kernel adds BPF_F_RDONLY_PROG to every devmap, so libbpf's
 * compatibility check refuses to reuse a pinned one (and the flag cannot be
 * asked for at creation): reuse and pin the devmap by hand.
 */
static int set_pin_paths(struct rocedp *skel)
{
	struct bpf_map *map;
	char path[256];
	int fd, err;

	bpf_object__for_each_map(map, skel->obj)
	{
		/*
		 * .rodata/.bss, the per-CPU scratch and the decision cache are
		 * private to each load (a new program starts with no entries)
		 */
		if (strncmp(bpf_map__name(map), "rd_", 3) ||
		    map == skel->maps.rd_scratch ||
		    map == skel->maps.rd_fwd_cache ||
		    map == skel->maps.rd_fwd_cache6)
			continue;
		snprintf(path, sizeof(path), "%s/%s", rd_pin_dir(),
			 bpf_map__name(map));
		err = check_pin(map, path);
		if (err)
			return err;
		if (map != skel->maps.rd_tx_ports) {
			bpf_map__set_pin_path(map, path);
			continue;
		}
		fd = bpf_obj_get(path);
		if (fd < 0)
			continue; /* created by the load, pinned after it */
		err = bpf_map__reuse_fd(map, fd);
		close(fd);
		if (err)
			return err;
	}
	return 0;
}

static int pin_devmap(struct rocedp *skel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/rd_tx_ports", rd_pin_dir());
	if (!access(path, F_OK))
		return 0;
	return bpf_map__pin(skel->maps.rd_tx_ports, path);
}

int rd_live_adopt(const struct rd_maps *m)
{
	struct rd_groupw w;
	int lock, n;

	/*
	 * Under the writers' lock: a sync still running writes groups, and
	 * a group read here before its write and published after it would
	 * be the older version under the newer sequence.
	 */
	lock = rd_config_lock("attach");
	if (lock < 0)
		return lock;
	rd_groupw_from_maps(&w, m);
	n = rd_groupw_adopt(&w);
	close(lock);
	return n;
}

/*
 * Groups in a reused rd_groups pin that the dataplane's banks lack (banks
 * new with this version): made live, as a config load would.
 */
static void adopt_groups(struct rocedp *skel)
{
	struct rd_maps m;
	int n;

	rd_maps_from_skel(&m, skel);
	n = rd_live_adopt(&m);
	if (n < 0)
		rd_err("attach", "rd_group_banks: %s", strerror(-n));
}

/*
 * The decision cache runs only while every route writer moves the route
 * generation: a sync from before the cache, kept over an upgrade, writes
 * routes without it, so the cache stays off until a current sync takes
 * over (its start sets the mark; routew.h).
 */
static void mark_cache(struct rocedp *skel)
{
	int fd = bpf_map__fd(skel->maps.rd_route_gen);
	bool current = rd_sync_owner_moves_gen(rd_pin_dir());
	int err = rd_routew_mark_fd(fd, current);

	if (err)
		rd_err("attach", "rd_route_gen: %s", strerror(-err));
	else if (!current)
		rd_err("attach",
		       "%s: an older rocedp sync writes its routes: the decision cache stays off until a current sync replaces it",
		       rd_pin_dir());
}

/*
 * Open and load the object for live use: pinned maps reused (created and
 * pinned the first time), kfunc flag from the module's presence.
 */
int rd_live_load(struct rocedp **out, bool pin)
{
	struct rocedp *skel;
	int err;

	skel = rocedp__open();
	if (!skel)
		return -errno;
	skel->rodata->cfg_ecn_kfunc = rd_ecn_module_loaded();
	bpf_program__set_autoload(skel->progs.rocedp_egress_tr, false);
	bpf_program__set_autoload(skel->progs.rocedp_tc_ingress_rx, false);
	err = pin ? set_pin_paths(skel) : 0;
	if (!err)
		err = rocedp__load(skel);
	if (!err && pin)
		err = pin_devmap(skel);
	if (err) {
		rocedp__destroy(skel);
		return err < 0 ? err : -EINVAL;
	}
	if (pin) {
		adopt_groups(skel);
		mark_cache(skel);
	}
	*out = skel;
	return 0;
}

/*
 * The XDP program alone, opened as rd_live_load would and not loaded:
 * libxdp loads it as an extension of its dispatcher. Its maps are the pins
 * the live load made (the devmap included), so both programs share them.
 */
int rd_live_open_xdp(struct rocedp **out)
{
	struct bpf_program *p;
	struct rocedp *skel;
	int err;

	skel = rocedp__open();
	if (!skel)
		return -errno;
	skel->rodata->cfg_ecn_kfunc = rd_ecn_module_loaded();
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, p == skel->progs.rocedp_xdp);
	err = set_pin_paths(skel);
	if (err) {
		rocedp__destroy(skel);
		return err;
	}
	*out = skel;
	return 0;
}

/*
 * Devmap entries carry no program: XDP marks ECN in the ingress program.
 * A version that marked in a devmap egress program left one in every
 * entry and pinned it; strip both on attach so an upgrade never marks a
 * frame twice.
 */
int rd_strip_devmap_progs(struct rocedp *skel)
{
	int map_fd = bpf_map__fd(skel->maps.rd_tx_ports);
	struct bpf_devmap_val v;
	__u32 key, next, *prev = NULL;
	char path[256];
	int err = 0, e;

	while (!bpf_map_get_next_key(map_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(map_fd, &key, &v) || !v.bpf_prog.id)
			continue;
		v.bpf_prog.fd = -1;
		e = rd_portw_tx(map_fd, key, &v);
		if (e)
			err = e;
	}
	unlink(pin_path(path, sizeof(path), "/progs/xdp_egress"));
	unlink(pin_path(path, sizeof(path), "/progs/xdp_egress_new"));
	return err;
}

/*
 * config keeps CTS rule names in ROCEDP_RUN_DIR/cts-<map id>.names; the map
 * goes away with its pin, so its names file must too (else detach leaves a
 * file behind).
 */
static void remove_cts_names(const char *map_pin)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	char path[64];
	int fd = bpf_obj_get(map_pin);

	if (fd < 0)
		return;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len)) {
		snprintf(path, sizeof(path), "%s/cts-%u.names", ROCEDP_RUN_DIR,
			 info.id);
		unlink(path);
	}
	close(fd);
}

int rd_pins_remove(void)
{
	const char *sub[] = { "/links", "/progs", "" };
	char path[512];
	unsigned int i;
	int err = rd_pin_dir_check(NULL);

	if (err == -EPERM)
		return err; /* never unlink through someone else's directory */
	err = 0;
	for (i = 0; i < RD_MAP_MAX; i++) {
		snprintf(path, sizeof(path), "%s/%s", rd_pin_dir(),
			 rd_map_names[i]);
		if (!strcmp(rd_map_names[i], "rd_cts_rules"))
			remove_cts_names(path);
		if (unlink(path) && errno != ENOENT)
			err = -errno;
	}
	unlink(pin_path(path, sizeof(path), "/progs/xdp_egress"));
	unlink(pin_path(path, sizeof(path), "/progs/xdp_egress_new"));
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s%s", rd_pin_dir(), sub[i]);
		if (rmdir(path) && errno != ENOENT && !err)
			err = -errno;
	}
	return err;
}
