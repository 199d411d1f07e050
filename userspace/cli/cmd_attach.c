// SPDX-License-Identifier: GPL-2.0
/*
 * The commands attach / detach / status / selftest-load: parse, call the
 * library (attach and detach are rd_attach() and rd_detach(), attach.c),
 * print.
 */
#include <limits.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>
#include "commands.h"
#include "rocedp.h"
#include "attach.h"
#include "engine.h"
#include "config.h"
#include "escape.h"
#include "names.h"
#include "egress.h"
#include "attach_state.h"
#include "attach_xdp.h"
#include "liveload.h"
#include "pindir.h"
#include "vlanoff.h"
#include "rocedp.skel.h"

/* -------------------------------------------------------- attach, detach */

int cmd_attach(const struct cli_call *c)
{
	const char *mode_s = cli_val(c, "mode"),
		   *feat_s = cli_val(c, "features");
	struct rd_attach_opts o = {
		.mode = RD_MODE_NATIVE,
		.exclusive = cli_set(c, "exclusive"),
		.force = cli_set(c, "force"),
		.set_features = feat_s != NULL,
	};

	if (mode_s && rd_parse_mode(mode_s, &o.mode))
		return cli_usage_err(
			c, "--mode: '%s' is not native, generic or tc", mode_s);
	if (feat_s && rd_cfg_features_parse(feat_s, &o.features))
		return cli_usage_err(
			c,
			"--features: '%s': expected a list of forward,remark,flowlet,ecn,telemetry",
			feat_s);
	return rd_attach((const char *const *)c->argv, c->argc, &o) ? CLI_FAIL :
								      CLI_OK;
}

int cmd_detach(const struct cli_call *c)
{
	return rd_detach((const char *const *)c->argv, c->argc,
			 !c->argc || cli_set(c, "all")) ?
		       CLI_FAIL :
		       CLI_OK;
}

/* ---------------------------------------------------------------- status */

/* The attach records, or -errno after the one line naming obj and why. */
static int state_read(struct rd_attach_state *st, const char *obj)
{
	int err = rd_state_read(st);

	if (err)
		rd_err(obj, "%s: %s", rd_state_file(), strerror(-err));
	return err;
}

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
