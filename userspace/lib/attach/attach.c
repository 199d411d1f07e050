// SPDX-License-Identifier: GPL-2.0
/*
 * Attach and detach (attach.h): the order of the steps over the attach
 * modules, for every caller alike.
 *
 * Maps are pinned in this network namespace's pin directory and reused by
 * every later load (liveload.c). XDP joins libxdp's dispatcher, or takes a
 * pinned bpf_link of its own with exclusive or where the dispatcher is
 * unavailable (attach_xdp.c), with the port's VLAN tag stripping turned off
 * (vlanoff.c); tc goes through clsact + cls_bpf direct-action
 * (attach_tc.c). What rocedp created or changed is recorded per netns in
 * /run/rocedp (attach_state.c), so detach removes and restores exactly
 * that.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "attach.h"
#include "config_txn.h"
#include "attach_hint.h"
#include "egress.h"
#include "engine.h"
#include "attach_state.h"
#include "attach_tc.h"
#include "attach_xdp.h"
#include "liveload.h"
#include "pindir.h"
#include "portl2.h"
#include "sync_owner.h"
#include "vlanoff.h"
#include "rocedp.skel.h"

static int attach_tc(struct rocedp *skel, struct rd_attached *a)
{
	unsigned int created = 0;
	int err;

	err = rd_tc_attach(bpf_program__fd(skel->progs.rocedp_tc_ingress),
			   bpf_program__fd(skel->progs.rocedp_tc_egress),
			   a->ifindex, &created);
	if (created)
		a->flags |= RD_AF_CLSACT;
	return err;
}

/*
 * XDP: tag stripping off first (the first frame must show its tag), then
 * the program; the one line on failure is printed here. Stripping that
 * this call turned off is turned on again when the program is refused.
 */
static int attach_xdp(struct rd_xdp_src *src, struct rd_attached *a,
		      bool exclusive, bool force)
{
	bool native = a->mode == RD_MODE_NATIVE, disp = !exclusive;
	unsigned int vlan = 0;
	struct rd_xdp_port seen;
	char note[256];
	int err;

	err = rd_vlan_offload_off(a->name, a->ifindex, &vlan, note,
				  sizeof(note));
	if (note[0])
		rd_err("attach", "%s", note);
	if (err)
		return err;
	err = rd_xdp_attach(src, a->ifindex, native, force, &disp, &seen);
	if (err == -EBUSY) {
		rd_err("attach",
		       "%s: XDP program %s is on it%s: rocedp replaces it only with --force",
		       a->name, seen.foreign,
		       src->no_dispatcher ?
			       " and libxdp's dispatcher is unavailable here, so they cannot share the port" :
		       seen.dispatcher ?
			       " (in libxdp's dispatcher, which --exclusive does not join)" :
			       " (not in libxdp's dispatcher, so they cannot share the port)");
	} else if (err) {
		rd_attach_refused(a->name, a->mode, err);
	}
	if (err) {
		rd_vlan_offload_restore(a->name, a->ifindex, vlan);
		return err;
	}
	a->flags &= ~(RD_AF_DISPATCHER | RD_AF_NO_DISPATCHER);
	a->flags |= vlan | (disp ? RD_AF_DISPATCHER : 0);
	if (!disp && !exclusive) {
		a->flags |= RD_AF_NO_DISPATCHER;
		rd_err("attach",
		       "%s: libxdp's dispatcher is unavailable on this kernel: rocedp's program is attached alone (exclusive), other XDP programs cannot share this port",
		       a->name);
	}
	return 0;
}

static int detach_one(const struct rd_attached *a)
{
	int err;

	if (a->mode == RD_MODE_TC)
		return rd_tc_detach(a->ifindex, a->flags & RD_AF_CLSACT);
	err = rd_xdp_detach(a->ifindex);
	if (!err && !a->gone)
		err = rd_vlan_offload_restore(a->name, a->ifindex, a->flags);
	return err;
}

static bool config_exists(int fd)
{
	struct rocedp_config c;
	__u32 zero = 0;

	return !bpf_map_lookup_elem(fd, &zero, &c) && c.flowlet_gap_max_us;
}

/*
 * Records of deleted interfaces: their programs went with the device, but
 * an XDP link pin stays until removed. Kept while its removal fails.
 */
static void state_drop_gone(struct rd_attach_state *st)
{
	unsigned int i, n = 0;

	for (i = 0; i < st->n; i++) {
		if (st->ifs[i].gone &&
		    (st->ifs[i].mode == RD_MODE_TC || !detach_one(&st->ifs[i])))
			continue;
		st->ifs[n++] = st->ifs[i];
	}
	st->n = n;
}

/* The attach records, or -errno after the one line naming obj and why. */
static int state_read(struct rd_attach_state *st, const char *obj)
{
	int err = rd_state_read(st);

	if (err)
		rd_err(obj, "%s: %s", rd_state_file(), strerror(-err));
	return err;
}

/*
 * Every name resolves and none is attached in another mode: checked
 * before anything changes.
 */
static int attach_check(const char *const *ifnames, unsigned int n,
			enum rd_attach_mode mode, struct rd_attach_state *st)
{
	struct rd_attached *a;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!if_nametoindex(ifnames[i])) {
			rd_err("attach", "%s: no such interface", ifnames[i]);
			return -ENODEV;
		}
	}
	for (i = 0; i < n; i++) {
		a = rd_state_find(st, if_nametoindex(ifnames[i]));
		if (a && a->mode != mode) {
			rd_err("attach",
			       "%s: attached in %s mode; detach first to change to %s",
			       ifnames[i], rd_mode_name(a->mode),
			       rd_mode_name(mode));
			return -EEXIST;
		}
	}
	return 0;
}

/* One port: its MAC, the hook, the hint, the record. */
static int attach_port(const char *name, const struct rd_attach_opts *o,
		       struct rocedp *skel, struct rd_xdp_src *src,
		       const struct rd_maps *maps, struct rd_attach_state *st)
{
	unsigned int ifindex = if_nametoindex(name);
	struct rd_attached new = {}, *a;
	int err;

	a = rd_state_find(st, ifindex);
	if (!a) {
		if (st->n >= RD_MAX_ATTACH) {
			rd_err("attach", "%s: more than %d interfaces", name,
			       RD_MAX_ATTACH);
			return -E2BIG;
		}
		snprintf(new.name, sizeof(new.name), "%s", name);
		new.ifindex = ifindex;
		new.mode = o->mode;
		a = &new;
	}
	/* its own MAC first: unicast frames for other hosts are the
	 * kernel's from the first frame on (beyond the slots: no check) */
	err = rd_port_l2_set(maps->fd[RD_MAP_PORT_L2], ifindex);
	if (err && err != -E2BIG) {
		rd_err("attach", "%s: rd_port_l2: %s", name, strerror(-err));
		return err;
	}
	if (o->mode == RD_MODE_TC) {
		err = attach_tc(skel, a);
		if (err)
			rd_attach_refused(name, o->mode, err);
	} else {
		err = attach_xdp(src, a, o->exclusive, o->force);
	}
	if (err)
		return err;
	rd_egress_hint(name, ifindex, o->mode == RD_MODE_NATIVE);
	if (a == &new)
		st->ifs[st->n++] = new;
	err = rd_state_write(st);
	if (err)
		rd_err("attach", "%s: %s", rd_state_file(), strerror(-err));
	return err;
}

/* The programs loaded, their maps' settings in place, old egress
 * programs off the devmap: what every port's attach needs. */
static int attach_load(const struct rd_attach_opts *o, struct rocedp **skel,
		       struct rocedp **xskel, struct rd_xdp_src *src,
		       struct rd_maps *maps)
{
	int err;

	err = rd_live_load(skel, true);
	if (err) {
		if (err != -ESTALE)
			rd_err("attach",
			       "loading the BPF programs: %s (ROCEDP_DEBUG=1 shows the verifier log)",
			       strerror(-err));
		return err;
	}
	rd_maps_from_skel(maps, *skel);
	src->prog_fd = bpf_program__fd((*skel)->progs.rocedp_xdp);
	if (o->mode != RD_MODE_TC) {
		/* for libxdp's dispatcher (upgrades of a port in it too) */
		err = rd_live_open_xdp(xskel);
		if (err) {
			if (err != -ESTALE)
				rd_err("attach", "opening the XDP program: %s",
				       strerror(-err));
			return err;
		}
		src->obj = (*xskel)->obj;
	}
	if (!config_exists(maps->fd[RD_MAP_CONFIG])) {
		err = rd_config_apply_defaults(maps);
		if (err) {
			rd_err("attach", "writing default settings: %s",
			       strerror(-err));
			return err;
		}
	}
	/* through the config writer: a load or sync may run meanwhile */
	if (o->set_features) {
		err = rd_config_set_features(maps, "attach", o->features);
		if (err)
			return err < 0 ? err : -EIO;
	}
	err = rd_strip_devmap_progs(*skel);
	if (err)
		rd_err("attach",
		       "rd_tx_ports: removing old egress programs: %s",
		       strerror(-err));
	return err;
}

int rd_attach(const char *const *ifnames, unsigned int n,
	      const struct rd_attach_opts *o)
{
	struct rocedp *skel = NULL, *xskel = NULL;
	struct rd_xdp_src src = { .prog_fd = -1 };
	struct rd_attach_state *st;
	struct rd_maps maps;
	unsigned int i;
	int err;

	if (!n) {
		rd_err("attach", "no interface named");
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		rd_err("attach", "out of memory");
		return -ENOMEM;
	}
	err = state_read(st, "attach");
	if (!err)
		err = attach_check(ifnames, n, o->mode, st);
	if (err)
		goto out;
	err = rd_pin_dir_prepare();
	if (err) {
		rd_err("attach", "%s: %s", rd_pin_dir(), rd_pin_dir_error(err));
		goto out;
	}
	state_drop_gone(st);
	err = attach_load(o, &skel, &xskel, &src, &maps);
	for (i = 0; !err && i < n; i++)
		err = attach_port(ifnames[i], o, skel, &src, &maps, st);
out:
	/* links and pins keep the programs alive after we exit */
	rd_xdp_src_close(&src);
	rocedp__destroy(xskel);
	rocedp__destroy(skel);
	free(st);
	return err;
}

/*
 * Nothing attached any more: a sync daemon on this pin directory would
 * write maps nobody reads, and its sockets keep a deleted netns alive.
 * Stopped here, its lock file removed; 0 when none runs any more.
 */
static int stop_sync(void)
{
	pid_t pid;
	int err;

	err = rd_sync_owner_stop(rd_pin_dir(), RD_SYNC_STOP_TIMEOUT_MS, &pid);
	if (err == -ESRCH)
		rd_err("detach",
		       "%s: a rocedp sync still runs on it and recorded no pid (an older version): stop it",
		       rd_pin_dir());
	else if (err == -ETIMEDOUT)
		rd_err("detach",
		       "%s: rocedp sync (pid %d) did not stop within %d s",
		       rd_pin_dir(), (int)pid, RD_SYNC_STOP_TIMEOUT_MS / 1000);
	else if (err)
		rd_err("detach", "%s: stopping its rocedp sync: %s",
		       rd_pin_dir(), strerror(-err));
	return err;
}

static bool named(const char *const *ifnames, unsigned int n,
		  unsigned int ifindex)
{
	unsigned int j;

	for (j = 0; j < n; j++)
		if (if_nametoindex(ifnames[j]) == ifindex)
			return true;
	return false;
}

/* Nothing attached any more: leave nothing behind. */
static int detach_last(void)
{
	int err, ret = stop_sync();

	err = rd_pins_remove();
	if (err) {
		rd_err("detach", "%s: %s", rd_pin_dir(), strerror(-err));
		ret = ret ? ret : err;
	}
	rd_pin_dir_gc();
	rmdir(ROCEDP_RUN_DIR);
	return ret;
}

int rd_detach(const char *const *ifnames, unsigned int n, bool all)
{
	struct rd_attach_state *st, *keep;
	unsigned int i, ifindex;
	int err, ret = 0;

	st = calloc(1, sizeof(*st));
	keep = calloc(1, sizeof(*keep));
	if (!st || !keep) {
		rd_err("detach", "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = state_read(st, "detach");
	for (i = 0; !ret && i < n && !all; i++) {
		ifindex = if_nametoindex(ifnames[i]);
		if (!ifindex || !rd_state_find(st, ifindex)) {
			rd_err("detach", "%s: not attached by rocedp",
			       ifnames[i]);
			ret = -ENOENT;
		}
	}
	if (ret)
		goto out;
	for (i = 0; i < st->n; i++) {
		/* a deleted interface's link pin goes with any detach */
		if (!all && !st->ifs[i].gone &&
		    !named(ifnames, n, st->ifs[i].ifindex)) {
			keep->ifs[keep->n++] = st->ifs[i];
			continue;
		}
		err = detach_one(&st->ifs[i]);
		if (err) {
			rd_err("detach", "%s: %s", st->ifs[i].name,
			       strerror(-err));
			keep->ifs[keep->n++] = st->ifs[i];
			ret = ret ? ret : err;
		}
	}
	err = rd_state_write(keep);
	if (err) {
		rd_err("detach", "%s: %s", rd_state_file(), strerror(-err));
		ret = ret ? ret : err;
	}
	if (!keep->n) {
		err = detach_last();
		ret = ret ? ret : err;
	}
out:
	free(keep);
	free(st);
	return ret;
}
