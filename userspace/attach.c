// SPDX-License-Identifier: GPL-2.0
/*
 * attach / detach / status / selftest-load.
 *
 * Maps are pinned under ROCEDP_PIN_DIR and reused by every later load, so
 * settings and counters survive upgrades and the sync daemon's restarts.
 * XDP is attached through a pinned bpf_link (an upgrade is one
 * bpf_link_update: atomic, no frame sees "no program"); tc through clsact +
 * cls_bpf direct-action, upgraded with BPF_TC_F_REPLACE on the same
 * handle. What rocedp created is recorded per netns in /run/rocedp, so detach
 * removes exactly that.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include "engine.h"
#include "attach.h"
#include "groupw.h"
#include "portl2.h"
#include "rocedp.skel.h"

#define TC_HANDLE 0x52d /* "rd": our filter handle and priority */
#define TC_PRIO 0x52d

const char *rd_mode_name(enum rd_attach_mode m)
{
	switch (m) {
	case RD_MODE_NATIVE:
		return "native";
	case RD_MODE_GENERIC:
		return "generic";
	case RD_MODE_TC:
		return "tc";
	}
	return "unknown";
}

static int parse_mode(const char *s, enum rd_attach_mode *m)
{
	if (!strcmp(s, "native") || !strcmp(s, "drv"))
		*m = RD_MODE_NATIVE;
	else if (!strcmp(s, "generic") || !strcmp(s, "skb"))
		*m = RD_MODE_GENERIC;
	else if (!strcmp(s, "tc"))
		*m = RD_MODE_TC;
	else
		return -EINVAL;
	return 0;
}

int rd_parse_features(const char *s, __u32 *out)
{
	char buf[256], *tok, *save;
	__u32 f = 0;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "forward") || !strcmp(tok, "hash"))
			f |= ROCEDP_F_FORWARD;
		else if (!strcmp(tok, "remark"))
			f |= ROCEDP_F_REMARK;
		else if (!strcmp(tok, "flowlet"))
			f |= ROCEDP_F_FLOWLET;
		else if (!strcmp(tok, "ecn"))
			f |= ROCEDP_F_ECN;
		else if (!strcmp(tok, "all"))
			f |= ROCEDP_F_ALL;
		else if (!strcmp(tok, "none"))
			;
		else
			return -EINVAL;
	}
	*out = f;
	return 0;
}

/* The record's name before netns cookies (and without them): the inode. */
static const char *state_file_by_inode(void)
{
	static char path[128];
	struct stat st;

	if (!path[0]) {
		if (stat("/proc/self/ns/net", &st))
			st.st_ino = 0;
		snprintf(path, sizeof(path), "%s/attached.%lu", ROCEDP_RUN_DIR,
			 (unsigned long)st.st_ino);
	}
	return path;
}

/*
 * Attachment record, one per network namespace (ifindexes are per netns).
 * Named by the netns cookie, which the kernel never hands out twice in a
 * boot: the nsfs inode number is reused as soon as a namespace dies, and a
 * record a deleted namespace left behind was then read as a new one's.
 * Kernels before 5.14 have no cookie; the inode is the fallback there.
 */
const char *rd_state_file(void)
{
	static char path[128];
	__u64 cookie;

	if (path[0])
		return path;
	cookie = rd_netns_cookie();
	if (cookie)
		snprintf(path, sizeof(path), "%s/attached.c%llu",
			 ROCEDP_RUN_DIR, (unsigned long long)cookie);
	else
		snprintf(path, sizeof(path), "%s", state_file_by_inode());
	return path;
}

static const char *pin_path(char *buf, size_t len, const char *sub)
{
	snprintf(buf, len, "%s%s", rd_pin_dir(), sub);
	return buf;
}

/* The netns's directory on the host's bpffs (pindir.c), root-only. */
int rd_pin_dir_prepare(void)
{
	char p[256];
	int err = rd_pin_dir_make();

	if (err)
		return err;
	if (mkdir(pin_path(p, sizeof(p), "/links"), 0700) && errno != EEXIST)
		return -errno;
	if (mkdir(pin_path(p, sizeof(p), "/progs"), 0700) && errno != EEXIST)
		return -errno;
	return 0;
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
		/* .rodata/.bss and the per-CPU scratch are private to each load */
		if (strncmp(bpf_map__name(map), "rd_", 3) ||
		    map == skel->maps.rd_scratch)
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

/*
 * Open and load the object for live use: pinned maps reused (created and
 * pinned the first time), kfunc flag from the module's presence.
 */
/*
 * Groups in a reused rd_groups pin that the dataplane's banks lack (banks
 * new with this version): made live, as a config load would.
 */
static void adopt_groups(struct rocedp *skel)
{
	struct rd_groupw w;
	struct rd_maps m;
	int n;

	rd_maps_from_skel(&m, skel);
	rd_groupw_from_maps(&w, &m);
	n = rd_groupw_adopt(&w);
	if (n < 0)
		rd_err("attach", "rd_group_banks: %s", strerror(-n));
}

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
	if (pin)
		adopt_groups(skel);
	*out = skel;
	return 0;
}

/* ---------------------------------------------------------------- state */

static void xdp_link_path(char *buf, size_t len, unsigned int ifindex);

/* Is what the record says attached really there: our link, our filter? */
static bool attachment_present(const struct rd_attached *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE,
		    .priority = TC_PRIO);
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	char path[256];
	int fd, err;

	if (a->mode == RD_MODE_TC)
		return !bpf_tc_query(&hook, &opts);
	xdp_link_path(path, sizeof(path), a->ifindex);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return false;
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	close(fd);
	/* a link whose device went away reports ifindex 0 */
	return !err && info.type == BPF_LINK_TYPE_XDP &&
	       info.xdp.ifindex == a->ifindex;
}

/*
 * The records of this namespace. A deleted interface's record stays,
 * marked gone, until attach or detach has removed its link pin. A record
 * under the inode name (older builds, kernels without cookies) is trusted
 * only where its attachment is really there, as the inode may be a dead
 * namespace's; the next write moves it to the cookie name.
 */
int rd_state_read(struct rd_attach_state *st)
{
	char name[IF_NAMESIZE + 1], now[IF_NAMESIZE], mode[16];
	const char *path = rd_state_file();
	unsigned int ifindex, created;
	bool by_inode;
	FILE *f;

	memset(st, 0, sizeof(*st));
	by_inode = !strcmp(path, state_file_by_inode()); /* kernel < 5.14 */
	f = fopen(path, "r");
	if (!f && errno == ENOENT && !by_inode) {
		f = fopen(state_file_by_inode(), "r");
		by_inode = true;
	}
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (st->n < RD_MAX_ATTACH && fscanf(f, "%16s %u %15s %u", name,
					       &ifindex, mode, &created) == 4) {
		struct rd_attached *a = &st->ifs[st->n];

		memset(a, 0, sizeof(*a));
		snprintf(a->name, sizeof(a->name), "%s", name);
		a->ifindex = ifindex;
		if (parse_mode(mode, &a->mode))
			continue;
		/* a renamed interface keeps its programs: follow its name */
		if (if_indextoname(ifindex, now))
			snprintf(a->name, sizeof(a->name), "%s", now);
		else if (errno == ENXIO || errno == ENODEV)
			a->gone = true;
		a->missing = !a->gone && !attachment_present(a);
		if (by_inode && (a->gone || a->missing))
			continue;
		a->created_clsact = created;
		st->n++;
	}
	fclose(f);
	return 0;
}

static int state_write(const struct rd_attach_state *st)
{
	unsigned int i;
	char tmp[160];
	FILE *f;
	int err;

	snprintf(tmp, sizeof(tmp), "%s.tmp", rd_state_file());
	mkdir(ROCEDP_RUN_DIR, 0700);
	if (!st->n) {
		unlink(rd_state_file());
		err = 0;
		goto out;
	}
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	for (i = 0; i < st->n; i++)
		fprintf(f, "%s %u %s %u\n", st->ifs[i].name, st->ifs[i].ifindex,
			rd_mode_name(st->ifs[i].mode),
			st->ifs[i].created_clsact);
	if (fclose(f))
		return -errno;
	err = rename(tmp, rd_state_file()) ? -errno : 0;
out:
	/* the inode-named record is this namespace's, now moved, or a dead one's */
	if (!err && strcmp(rd_state_file(), state_file_by_inode()))
		unlink(state_file_by_inode());
	return err;
}

static struct rd_attached *state_find(struct rd_attach_state *st,
				      unsigned int ifindex)
{
	unsigned int i;

	for (i = 0; i < st->n; i++)
		if (st->ifs[i].ifindex == ifindex)
			return &st->ifs[i];
	return NULL;
}

/* ---------------------------------------------------------------- XDP */

static void xdp_link_path(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/links/xdp_%u", rd_pin_dir(), ifindex);
}

static int attach_xdp(struct rocedp *skel, const struct rd_attached *a)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	int prog_fd = bpf_program__fd(skel->progs.rocedp_xdp);
	char path[256];
	int fd, err;

	xdp_link_path(path, sizeof(path), a->ifindex);
	fd = bpf_obj_get(path);
	if (fd >= 0) {
		/* upgrade in place: atomic for the frames in flight */
		err = bpf_link_update(fd, prog_fd, NULL) ? -errno : 0;
		close(fd);
		if (err != -ENOLINK)
			return err;
		/* the link's device was deleted; the ifindex is a new one's */
		if (unlink(path))
			return -errno;
	}
	lo.flags = a->mode == RD_MODE_NATIVE ? XDP_FLAGS_DRV_MODE :
					       XDP_FLAGS_SKB_MODE;
	fd = bpf_link_create(prog_fd, a->ifindex, BPF_XDP, &lo);
	if (fd < 0)
		return -errno;
	err = bpf_obj_pin(fd, path) ? -errno : 0;
	close(fd);
	return err;
}

static int detach_xdp(const struct rd_attached *a)
{
	char path[256];
	int fd, err = 0;

	xdp_link_path(path, sizeof(path), a->ifindex);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	/* detach now even if someone else holds the link open */
	if (bpf_link_detach(fd) && errno != ENOENT && errno != ENOLINK)
		err = -errno;
	close(fd);
	if (unlink(path) && errno != ENOENT && !err)
		err = -errno;
	return err;
}

/* ---------------------------------------------------------------- tc */

static int attach_tc_one(int prog_fd, unsigned int ifindex,
			 enum bpf_tc_attach_point where, bool replace)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = where);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE, .priority = TC_PRIO,
		    .prog_fd = prog_fd,
		    .flags = replace ? BPF_TC_F_REPLACE : 0);

	return bpf_tc_attach(&hook, &opts);
}

static int attach_tc(struct rocedp *skel, struct rd_attached *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = BPF_TC_INGRESS);
	int err;

	err = bpf_tc_hook_create(&hook);
	if (!err)
		a->created_clsact = 1;
	else if (err != -EEXIST)
		return err;
	err = attach_tc_one(bpf_program__fd(skel->progs.rocedp_tc_ingress),
			    a->ifindex, BPF_TC_INGRESS, true);
	if (err)
		return err;
	return attach_tc_one(bpf_program__fd(skel->progs.rocedp_tc_egress),
			     a->ifindex, BPF_TC_EGRESS, true);
}

static int detach_tc(const struct rd_attached *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE,
		    .priority = TC_PRIO);
	int err, err2;

	err = bpf_tc_detach(&hook, &opts);
	hook.attach_point = BPF_TC_EGRESS;
	err2 = bpf_tc_detach(&hook, &opts);
	if (err == -ENOENT || err == -ENODEV || err == -EINVAL)
		err = 0;
	if (!err && err2 != -ENOENT && err2 != -ENODEV && err2 != -EINVAL)
		err = err2;
	if (a->created_clsact) {
		/* only the qdisc we added; ours is the clsact, both hooks */
		hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		err2 = bpf_tc_hook_destroy(&hook);
		if (!err && err2 && err2 != -ENOENT && err2 != -ENODEV &&
		    err2 != -EINVAL)
			err = err2;
	}
	return err;
}

/* ---------------------------------------------------------------- pins */

/*
 * Devmap entries carry no program: XDP marks ECN in the ingress program.
 * A version that marked in a devmap egress program left one in every
 * entry and pinned it; strip both on attach so an upgrade never marks a
 * frame twice.
 */
static int strip_devmap_progs(struct rocedp *skel)
{
	int map_fd = bpf_map__fd(skel->maps.rd_tx_ports);
	struct bpf_devmap_val v;
	__u32 key, next, *prev = NULL;
	char path[256];
	int err = 0;

	while (!bpf_map_get_next_key(map_fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(map_fd, &key, &v) || !v.bpf_prog.id)
			continue;
		v.bpf_prog.fd = -1;
		if (bpf_map_update_elem(map_fd, &key, &v, 0))
			err = -errno;
	}
	unlink(pin_path(path, sizeof(path), "/progs/xdp_egress"));
	unlink(pin_path(path, sizeof(path), "/progs/xdp_egress_new"));
	return err;
}

static bool config_exists(int fd)
{
	struct rocedp_config c;
	__u32 zero = 0;

	return !bpf_map_lookup_elem(fd, &zero, &c) && c.flowlet_gap_max_us;
}

/* ---------------------------------------------------------------- attach */

/*
 * Records of deleted interfaces: their programs went with the device, but
 * an XDP link pin stays until removed. Kept while its removal fails.
 */
static void state_drop_gone(struct rd_attach_state *st)
{
	unsigned int i, n = 0;

	for (i = 0; i < st->n; i++) {
		if (st->ifs[i].gone &&
		    (st->ifs[i].mode == RD_MODE_TC || !detach_xdp(&st->ifs[i])))
			continue;
		st->ifs[n++] = st->ifs[i];
	}
	st->n = n;
}

int cmd_attach(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "features", required_argument, NULL, 'f' },
		{}
	};
	enum rd_attach_mode mode = RD_MODE_NATIVE;
	struct rd_attach_state st;
	struct rd_attached *a;
	struct rocedp *skel = NULL;
	struct rd_maps maps;
	struct rocedp_config cfg;
	bool set_features = false;
	__u32 features = 0, zero = 0;
	unsigned int ifindex;
	int c, i, err, ret = 1;

	optind = 1;
	opterr = 0; /* getopt's own message would be a second error line */
	while ((c = getopt_long(argc, argv, "m:f:", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (parse_mode(optarg, &mode)) {
				rd_err("attach",
				       "--mode: '%s' is not native, generic or tc",
				       optarg);
				return 2;
			}
			break;
		case 'f':
			if (rd_parse_features(optarg, &features)) {
				rd_err("attach",
				       "--features: '%s': expected a list of forward,remark,flowlet,ecn",
				       optarg);
				return 2;
			}
			set_features = true;
			break;
		default:
			rd_err("attach",
			       "bad arguments (see 'rocedp attach help')");
			return 2;
		}
	}
	if (optind >= argc) {
		rd_err("attach", "no interface given");
		return 2;
	}
	/* every name must resolve before anything changes */
	for (i = optind; i < argc; i++) {
		if (!if_nametoindex(argv[i])) {
			rd_err("attach", "%s: no such interface", argv[i]);
			return 1;
		}
	}
	err = rd_state_read(&st);
	if (err) {
		rd_err("attach", "%s: %s", rd_state_file(), strerror(-err));
		return 1;
	}
	for (i = optind; i < argc; i++) {
		a = state_find(&st, if_nametoindex(argv[i]));
		if (a && a->mode != mode) {
			rd_err("attach",
			       "%s: attached in %s mode; detach first to change to %s",
			       argv[i], rd_mode_name(a->mode),
			       rd_mode_name(mode));
			return 1;
		}
	}
	err = rd_pin_dir_prepare();
	if (err) {
		rd_err("attach", "%s: %s", rd_pin_dir(), rd_pin_dir_error(err));
		return 1;
	}
	state_drop_gone(&st);
	err = rd_live_load(&skel, true);
	if (err) {
		if (err != -ESTALE)
			rd_err("attach",
			       "loading the BPF programs: %s (ROCEDP_DEBUG=1 shows the verifier log)",
			       strerror(-err));
		return 1;
	}
	rd_maps_from_skel(&maps, skel);
	if (!config_exists(maps.fd[RD_MAP_CONFIG])) {
		err = rd_config_apply_defaults(&maps);
		if (err) {
			rd_err("attach", "writing default settings: %s",
			       strerror(-err));
			goto out;
		}
	}
	if (set_features) {
		if (bpf_map_lookup_elem(maps.fd[RD_MAP_CONFIG], &zero, &cfg) ||
		    (cfg.features = features,
		     bpf_map_update_elem(maps.fd[RD_MAP_CONFIG], &zero, &cfg,
					 0))) {
			rd_err("attach", "rd_config: %s", strerror(errno));
			goto out;
		}
	}
	err = strip_devmap_progs(skel);
	if (err) {
		rd_err("attach",
		       "rd_tx_ports: removing old egress programs: %s",
		       strerror(-err));
		goto out;
	}
	for (i = optind; i < argc; i++) {
		struct rd_attached new = {};

		ifindex = if_nametoindex(argv[i]);
		a = state_find(&st, ifindex);
		if (!a) {
			if (st.n >= RD_MAX_ATTACH) {
				rd_err("attach", "%s: more than %d interfaces",
				       argv[i], RD_MAX_ATTACH);
				goto out;
			}
			snprintf(new.name, sizeof(new.name), "%s", argv[i]);
			new.ifindex = ifindex;
			new.mode = mode;
			a = &new;
		}
		/* its own MAC first: unicast frames for other hosts are the
		 * kernel's from the first frame on (beyond the slots: no check) */
		err = rd_port_l2_set(maps.fd[RD_MAP_PORT_L2], ifindex);
		if (err && err != -E2BIG) {
			rd_err("attach", "%s: rd_port_l2: %s", argv[i],
			       strerror(-err));
			goto out;
		}
		err = mode == RD_MODE_TC ? attach_tc(skel, a) :
					   attach_xdp(skel, a);
		if (err) {
			rd_attach_refused(argv[i], mode, err);
			goto out;
		}
		if (a == &new)
			st.ifs[st.n++] = new;
		err = state_write(&st);
		if (err) {
			rd_err("attach", "%s: %s", rd_state_file(),
			       strerror(-err));
			goto out;
		}
	}
	ret = 0;
out:
	/* links and pins keep the programs alive after we exit */
	rocedp__destroy(skel);
	return ret;
}

/* ---------------------------------------------------------------- detach */

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

/* The sync daemon's lock file for pin directory dir: one per (dev, inode). */
int rd_sync_lock_path(const char *dir, char *buf, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	snprintf(buf, len, "%s/sync-%lu-%lu.lock", ROCEDP_RUN_DIR,
		 (unsigned long)st.st_dev, (unsigned long)st.st_ino);
	return 0;
}

/* The sync daemon's lock file for this pin directory, unless it runs. */
static void remove_sync_lock(void)
{
	char path[128];
	int fd;

	if (rd_sync_lock_path(rd_pin_dir(), path, sizeof(path)))
		return;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!flock(fd, LOCK_EX | LOCK_NB))
		unlink(path);
	close(fd);
}

static int remove_pins(void)
{
	const char *sub[] = { "/links", "/progs", "" };
	char path[512];
	unsigned int i;
	int err = 0;

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

int cmd_detach(int argc, char **argv)
{
	struct rd_attach_state st, keep = {};
	bool all = argc < 2, found;
	unsigned int i, ifindex;
	int j, err, ret = 0;

	for (j = 1; j < argc; j++) {
		if (!strcmp(argv[j], "--all")) {
			all = true;
		} else if (argv[j][0] == '-') {
			/* not an interface name: say so, not "not attached" */
			rd_err("detach", "unknown option '%s'", argv[j]);
			return 2;
		}
	}
	err = rd_state_read(&st);
	if (err) {
		rd_err("detach", "%s: %s", rd_state_file(), strerror(-err));
		return 1;
	}
	for (j = 1; j < argc && !all; j++) {
		ifindex = if_nametoindex(argv[j]);
		if (!ifindex || !state_find(&st, ifindex)) {
			rd_err("detach", "%s: not attached by rocedp", argv[j]);
			return 1;
		}
	}
	for (i = 0; i < st.n; i++) {
		/* a deleted interface's link pin goes with any detach */
		found = all || st.ifs[i].gone;
		for (j = 1; j < argc && !found; j++)
			found = if_nametoindex(argv[j]) == st.ifs[i].ifindex;
		if (!found) {
			keep.ifs[keep.n++] = st.ifs[i];
			continue;
		}
		err = st.ifs[i].mode == RD_MODE_TC ? detach_tc(&st.ifs[i]) :
						     detach_xdp(&st.ifs[i]);
		if (err) {
			rd_err("detach", "%s: %s", st.ifs[i].name,
			       strerror(-err));
			keep.ifs[keep.n++] = st.ifs[i];
			ret = 1;
		}
	}
	err = state_write(&keep);
	if (err) {
		rd_err("detach", "%s: %s", rd_state_file(), strerror(-err));
		ret = 1;
	}
	if (!keep.n) {
		/* nothing attached any more: leave nothing behind */
		remove_sync_lock();
		err = remove_pins();
		if (err) {
			rd_err("detach", "%s: %s", rd_pin_dir(),
			       strerror(-err));
			ret = 1;
		}
		rd_pin_dir_gc();
		rmdir(ROCEDP_RUN_DIR);
	}
	return ret;
}

/* ---------------------------------------------------------------- status */

static const char *xdp_prog_name(unsigned int ifindex, char *buf, size_t len)
{
	struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);
	struct xdp_program *p;

	snprintf(buf, len, "-");
	if (libxdp_get_error(mp))
		return buf;
	p = xdp_multiprog__main_prog(mp);
	if (!p)
		p = xdp_multiprog__next_prog(NULL, mp);
	if (p)
		snprintf(buf, len, "%s id %u", xdp_program__name(p),
			 xdp_program__id(p));
	xdp_multiprog__close(mp);
	return buf;
}

int cmd_status(int argc, char **argv)
{
	struct rd_attach_state st;
	struct rocedp_config cfg = {};
	struct rd_maps m;
	char prog[64], feat[64], ns[128];
	bool pinned;
	unsigned int i, n;
	__u32 zero = 0;
	int err;

	if (argc > 1) {
		rd_err("status", "unexpected argument '%s'", argv[1]);
		return 2;
	}
	err = rd_state_read(&st);
	if (err) {
		rd_err("status", "%s: %s", rd_state_file(), strerror(-err));
		return 1;
	}
	rd_maps_init(&m);
	pinned = !rd_maps_open_pinned(&m, rd_pin_dir());
	if (pinned)
		bpf_map_lookup_elem(m.fd[RD_MAP_CONFIG], &zero, &cfg);
	snprintf(feat, sizeof(feat), "%s%s%s%s",
		 cfg.features & ROCEDP_F_FORWARD ? "forward," : "",
		 cfg.features & ROCEDP_F_REMARK ? "remark," : "",
		 cfg.features & ROCEDP_F_FLOWLET ? "flowlet," : "",
		 cfg.features & ROCEDP_F_ECN ? "ecn," : "");
	if (feat[0])
		feat[strlen(feat) - 1] = 0;
	if (rd_json) {
		printf("{\"version\":\"%s\",%s\"maps_pinned\":%s,\"pin_dir\":\"%s\","
		       "\"features\":\"%s\",\"hash_mode\":\"%s\","
		       "\"ecn_source\":\"%s\",\"interfaces\":[",
		       ROCEDP_VERSION, rd_netns_describe(true, ns, sizeof(ns)),
		       pinned ? "true" : "false", rd_pin_dir(), feat,
		       pinned ? rd_hash_mode_name(cfg.hash_mode) : "",
		       rd_ecn_module_loaded() ? "module" : "map");
		for (i = 0, n = 0; i < st.n; i++)
			if (!st.ifs[i].gone && !st.ifs[i].missing)
				printf("%s{\"name\":\"%s\",\"ifindex\":%u,\"mode\":\"%s\"}",
				       n++ ? "," : "", st.ifs[i].name,
				       st.ifs[i].ifindex,
				       rd_mode_name(st.ifs[i].mode));
		printf("]}\n");
	} else {
		printf("rocedp %s: %s %s%s\n", ROCEDP_VERSION,
		       pinned ? "maps pinned under" :
				"not loaded (no pinned maps in",
		       rd_pin_dir(), pinned ? "" : ")");
		printf("%s", rd_netns_describe(false, ns, sizeof(ns)));
		if (pinned)
			printf("features: %s  hash: %s  ecn thresholds: %s\n",
			       feat[0] ? feat : "none",
			       rd_hash_mode_name(cfg.hash_mode),
			       rd_ecn_module_loaded() ? "module" : "map");
		for (i = 0, n = 0; i < st.n; i++) {
			if (st.ifs[i].gone)
				continue;
			if (st.ifs[i].missing) {
				printf("  %-16s not attached (stale record: 'rocedp detach %s' clears it)\n",
				       st.ifs[i].name, st.ifs[i].name);
				continue;
			}
			n++;
			printf("  %-16s ifindex %-5u %-8s %s\n", st.ifs[i].name,
			       st.ifs[i].ifindex, rd_mode_name(st.ifs[i].mode),
			       st.ifs[i].mode == RD_MODE_TC ?
				       "clsact ingress+egress" :
				       xdp_prog_name(st.ifs[i].ifindex, prog,
						     sizeof(prog)));
		}
		if (!n)
			printf("  no interfaces attached\n");
	}
	rd_maps_close(&m);
	return 0;
}

/* Load every program as the live loader would, attach nothing. */
int cmd_selftest_load(int argc, char **argv)
{
	struct rocedp *skel;
	struct bpf_program *p;
	int err, n = 0;

	if (argc > 1) {
		rd_err("selftest-load", "unexpected argument '%s'", argv[1]);
		return 2;
	}
	err = rd_live_load(&skel, false);
	if (err) {
		rd_err("selftest-load", "loading the BPF programs: %s",
		       strerror(-err));
		return 1;
	}
	bpf_object__for_each_program(p, skel->obj)
	{
		if (!bpf_program__autoload(p))
			continue;
		printf("loaded %s (fd %d)\n", bpf_program__name(p),
		       bpf_program__fd(p));
		n++;
	}
	printf("ecn kfunc: %s\n",
	       skel->rodata->cfg_ecn_kfunc ? "used" : "not used");
	rocedp__destroy(skel);
	/* the test entry too, as replay loads it */
	{
		struct rd_engine *e;

		err = rd_engine_open(&e, NULL);
		if (err) {
			rd_err("selftest-load", "loading the replay engine: %s",
			       strerror(-err));
			return 1;
		}
		rd_engine_close(e);
		printf("loaded replay engine (rocedp_egress_tr)\n");
	}
	printf("%d programs loaded\n", n + 1);
	return 0;
}
