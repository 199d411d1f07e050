// SPDX-License-Identifier: GPL-2.0
/*
 * The commands attach / detach / status / selftest-load: parse, call the
 * attach modules, print.
 *
 * Maps are pinned in this network namespace's pin directory and reused by
 * every later load (liveload.c). XDP joins libxdp's dispatcher, or takes a
 * pinned bpf_link of its own with --exclusive or where the dispatcher is
 * unavailable (attach_xdp.c), with the port's VLAN tag stripping turned off
 * (vlanoff.c); tc goes through clsact + cls_bpf direct-action
 * (attach_tc.c). What rocedp created or changed is recorded per netns in
 * /run/rocedp (attach_state.c), so detach removes and restores exactly
 * that.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include "commands.h"
#include "rocedp.h"
#include "engine.h"
#include "config.h"
#include "config_txn.h"
#include "escape.h"
#include "names.h"
#include "attach_hint.h"
#include "egress.h"
#include "attach_state.h"
#include "attach_tc.h"
#include "attach_xdp.h"
#include "liveload.h"
#include "pindir.h"
#include "portl2.h"
#include "sync_owner.h"
#include "vlanoff.h"
#include "rocedp.skel.h"

/* ---------------------------------------------------------------- hooks */

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

int cmd_attach(const struct cli_call *c)
{
	const char *mode_s = cli_val(c, "mode"),
		   *feat_s = cli_val(c, "features");
	enum rd_attach_mode mode = RD_MODE_NATIVE;
	struct rd_attach_state st;
	struct rd_attached *a;
	struct rocedp *skel = NULL, *xskel = NULL;
	struct rd_xdp_src src = { .prog_fd = -1 };
	struct rd_maps maps;
	bool exclusive = cli_set(c, "exclusive"), force = cli_set(c, "force");
	__u32 features = 0;
	unsigned int ifindex;
	int argc = c->argc, i, err, ret = CLI_FAIL;
	char **argv = c->argv;

	if (mode_s && rd_parse_mode(mode_s, &mode))
		return cli_usage_err(
			c, "--mode: '%s' is not native, generic or tc", mode_s);
	if (feat_s && rd_cfg_features_parse(feat_s, &features))
		return cli_usage_err(
			c,
			"--features: '%s': expected a list of forward,remark,flowlet,ecn,telemetry",
			feat_s);
	/* every name must resolve before anything changes */
	for (i = 0; i < argc; i++) {
		if (!if_nametoindex(argv[i])) {
			rd_err("attach", "%s: no such interface", argv[i]);
			return 1;
		}
	}
	if (state_read(&st, "attach"))
		return 1;
	for (i = 0; i < argc; i++) {
		a = rd_state_find(&st, if_nametoindex(argv[i]));
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
	src.prog_fd = bpf_program__fd(skel->progs.rocedp_xdp);
	if (mode != RD_MODE_TC) {
		/* for libxdp's dispatcher (upgrades of a port in it too) */
		err = rd_live_open_xdp(&xskel);
		if (err) {
			if (err != -ESTALE)
				rd_err("attach", "opening the XDP program: %s",
				       strerror(-err));
			goto out;
		}
		src.obj = xskel->obj;
	}
	if (!config_exists(maps.fd[RD_MAP_CONFIG])) {
		err = rd_config_apply_defaults(&maps);
		if (err) {
			rd_err("attach", "writing default settings: %s",
			       strerror(-err));
			goto out;
		}
	}
	/* through the config writer: a load or sync may run meanwhile */
	if (feat_s && rd_config_set_features(&maps, "attach", features))
		goto out;
	err = rd_strip_devmap_progs(skel);
	if (err) {
		rd_err("attach",
		       "rd_tx_ports: removing old egress programs: %s",
		       strerror(-err));
		goto out;
	}
	for (i = 0; i < argc; i++) {
		struct rd_attached new = {};

		ifindex = if_nametoindex(argv[i]);
		a = rd_state_find(&st, ifindex);
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
		if (mode == RD_MODE_TC) {
			err = attach_tc(skel, a);
			if (err)
				rd_attach_refused(argv[i], mode, err);
		} else {
			err = attach_xdp(&src, a, exclusive, force);
		}
		if (err)
			goto out;
		rd_egress_hint(argv[i], ifindex, mode == RD_MODE_NATIVE);
		if (a == &new)
			st.ifs[st.n++] = new;
		err = rd_state_write(&st);
		if (err) {
			rd_err("attach", "%s: %s", rd_state_file(),
			       strerror(-err));
			goto out;
		}
	}
	ret = 0;
out:
	/* links and pins keep the programs alive after we exit */
	rd_xdp_src_close(&src);
	rocedp__destroy(xskel);
	rocedp__destroy(skel);
	return ret;
}

/* ---------------------------------------------------------------- detach */

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

int cmd_detach(const struct cli_call *c)
{
	struct rd_attach_state st, keep = {};
	bool all = !c->argc || cli_set(c, "all"), found;
	unsigned int i, ifindex;
	int argc = c->argc, j, err, ret = CLI_OK;
	char **argv = c->argv;

	if (state_read(&st, "detach"))
		return 1;
	for (j = 0; j < argc && !all; j++) {
		ifindex = if_nametoindex(argv[j]);
		if (!ifindex || !rd_state_find(&st, ifindex)) {
			rd_err("detach", "%s: not attached by rocedp", argv[j]);
			return 1;
		}
	}
	for (i = 0; i < st.n; i++) {
		/* a deleted interface's link pin goes with any detach */
		found = all || st.ifs[i].gone;
		for (j = 0; j < argc && !found; j++)
			found = if_nametoindex(argv[j]) == st.ifs[i].ifindex;
		if (!found) {
			keep.ifs[keep.n++] = st.ifs[i];
			continue;
		}
		err = detach_one(&st.ifs[i]);
		if (err) {
			rd_err("detach", "%s: %s", st.ifs[i].name,
			       strerror(-err));
			keep.ifs[keep.n++] = st.ifs[i];
			ret = 1;
		}
	}
	err = rd_state_write(&keep);
	if (err) {
		rd_err("detach", "%s: %s", rd_state_file(), strerror(-err));
		ret = 1;
	}
	if (!keep.n) {
		/* nothing attached any more: leave nothing behind */
		if (stop_sync())
			ret = 1;
		err = rd_pins_remove();
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

/* How an XDP port's program sits there: JSON members, or a text line. */
static void xdp_way(const struct rd_attached *a, bool json)
{
	struct rd_xdp_port p = {};
	char name[RD_ESC_IFNAME];
	const char *vlan;
	bool by_us, peer;

	vlan = rd_vlan_offload_state(a->name, a->flags, &by_us);
	rd_xdp_inspect(a->ifindex, &p);
	peer = rd_vlan_peer_elsewhere(a->name, a->ifindex);
	if (json) {
		printf(",\"xdp\":\"%s\",\"dispatcher_unavailable\":%s,"
		       "\"other_xdp_programs\":%u,\"vlan_offload\":\"%s\","
		       "\"vlan_offload_by_rocedp\":%s,"
		       "\"vlan_peer_elsewhere\":%s",
		       a->flags & RD_AF_DISPATCHER ? "dispatcher" : "exclusive",
		       a->flags & RD_AF_NO_DISPATCHER ? "true" : "false",
		       p.n_foreign, vlan, by_us ? "true" : "false",
		       peer ? "true" : "false");
		return;
	}
	if (a->flags & RD_AF_DISPATCHER && p.n_foreign)
		printf("    xdp: in libxdp's dispatcher with %u other program%s (%s)\n",
		       p.n_foreign, p.n_foreign > 1 ? "s" : "", p.foreign);
	else if (a->flags & RD_AF_DISPATCHER)
		printf("    xdp: in libxdp's dispatcher, alone so far\n");
	else if (a->flags & RD_AF_NO_DISPATCHER)
		printf("    xdp: exclusive (own link): libxdp's dispatcher is unavailable on this kernel; other XDP programs cannot share this port\n");
	else
		printf("    xdp: exclusive (own link)\n");
	if (!strcmp(vlan, "on"))
		printf("    vlan offload: rx tag stripping ON: tagged frames reach XDP untagged (turned on after attach?): 'rocedp attach %s' turns it off\n",
		       rd_esc_term(a->name, name, sizeof(name)));
	else
		printf("    vlan offload: rx tag stripping %s%s\n", vlan,
		       by_us ? " (turned off by rocedp, restored at detach)" :
			       "");
	if (peer)
		printf("    vlan offload: the veth peer is in another namespace: VLAN tags it inserts by offload reach XDP untagged; turn it off there (ethtool -K PEER txvlan off tx-vlan-stag-hw-insert off)\n");
}

int cmd_status(const struct cli_call *c)
{
	struct rd_attach_state st;
	struct rocedp_config cfg = {};
	struct rd_maps m;
	char prog[64], feat[64], ns[512];
	/* names from outside (interfaces, the pin dir), escaped per output */
	char name[RD_ESC_IFNAME];
	char dir[RD_ESC_LEN(PATH_MAX)];
	bool pinned;
	unsigned int i, n;
	__u32 zero = 0;

	(void)c;
	if (state_read(&st, "status"))
		return 1;
	rd_maps_init(&m);
	pinned = !rd_maps_open_pinned(&m, rd_pin_dir());
	if (pinned)
		bpf_map_lookup_elem(m.fd[RD_MAP_CONFIG], &zero, &cfg);
	rd_cfg_features_str(cfg.features, feat, sizeof(feat));
	if (rd_json) {
		printf("{\"version\":\"%s\",%s\"maps_pinned\":%s,\"pin_dir\":\"%s\","
		       "\"features\":\"%s\",\"hash_mode\":\"%s\","
		       "\"ecn_source\":\"%s\",\"interfaces\":[",
		       ROCEDP_VERSION, rd_netns_describe(true, ns, sizeof(ns)),
		       pinned ? "true" : "false",
		       rd_esc_json(rd_pin_dir(), dir, sizeof(dir)), feat,
		       pinned ? rd_hash_mode_name(cfg.hash_mode) : "",
		       rd_ecn_module_loaded() ? "module" : "map");
		for (i = 0, n = 0; i < st.n; i++)
			if (!st.ifs[i].gone && !st.ifs[i].missing) {
				printf("%s{\"name\":\"%s\",\"ifindex\":%u,\"mode\":\"%s\"",
				       n++ ? "," : "",
				       rd_esc_json(st.ifs[i].name, name,
						   sizeof(name)),
				       st.ifs[i].ifindex,
				       rd_mode_name(st.ifs[i].mode));
				if (st.ifs[i].mode != RD_MODE_TC)
					xdp_way(&st.ifs[i], true);
				printf("}");
			}
		printf("]}\n");
	} else {
		printf("rocedp %s: %s %s%s\n", ROCEDP_VERSION,
		       pinned ? "maps pinned under" :
				"not loaded (no pinned maps in",
		       rd_esc_term(rd_pin_dir(), dir, sizeof(dir)),
		       pinned ? "" : ")");
		printf("%s", rd_netns_describe(false, ns, sizeof(ns)));
		if (pinned)
			printf("features: %s  hash: %s  ecn thresholds: %s\n",
			       feat[0] ? feat : "none",
			       rd_hash_mode_name(cfg.hash_mode),
			       rd_ecn_module_loaded() ? "module" : "map");
		for (i = 0, n = 0; i < st.n; i++) {
			if (st.ifs[i].gone)
				continue;
			rd_esc_term(st.ifs[i].name, name, sizeof(name));
			if (st.ifs[i].missing) {
				printf("  %-16s not attached (stale record: 'rocedp detach %s' clears it)\n",
				       name, name);
				continue;
			}
			n++;
			printf("  %-16s ifindex %-5u %-8s %s\n", name,
			       st.ifs[i].ifindex, rd_mode_name(st.ifs[i].mode),
			       st.ifs[i].mode == RD_MODE_TC ?
				       "clsact ingress+egress" :
				       xdp_prog_name(st.ifs[i].ifindex, prog,
						     sizeof(prog)));
			if (st.ifs[i].mode != RD_MODE_TC)
				xdp_way(&st.ifs[i], false);
			if (pinned && st.ifs[i].mode == RD_MODE_NATIVE)
				rd_egress_status(&m, st.ifs[i].name,
						 st.ifs[i].ifindex);
		}
		if (!n)
			printf("  no interfaces attached\n");
	}
	rd_maps_close(&m);
	/* scripts and units tell "nothing attached" from a failure */
	return n ? CLI_OK : CLI_NOT_ATTACHED;
}

/* Load every program as the live loader would, attach nothing. */
int cmd_selftest_load(const struct cli_call *c)
{
	struct rocedp *skel;
	struct bpf_program *p;
	int err, n = 0;

	(void)c;
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
