// SPDX-License-Identifier: GPL-2.0
/*
 * Offline engine: the embedded BPF object loaded with the trace and the
 * map-driven clock switched on, driven frame by frame by BPF_PROG_TEST_RUN.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "engine.h"
#include "config.h"
#include "config_txn.h"
#include "routew.h"
#include "rocedp.skel.h"

struct rd_engine {
	struct rocedp *skel;
	struct rd_maps maps;
	int prog_fd[RD_HOOK_MAX];
	bool bound; /* holds one engine_bind_cpu() */
};

void rd_maps_from_skel(struct rd_maps *m, struct rocedp *skel)
{
	struct bpf_map *maps[RD_MAP_MAX] = {
		[RD_MAP_CONFIG] = skel->maps.rd_config,
		[RD_MAP_STATS] = skel->maps.rd_stats,
		[RD_MAP_CTS_RULES] = skel->maps.rd_cts_rules,
		[RD_MAP_CTS_STATS] = skel->maps.rd_cts_stats,
		[RD_MAP_QOS] = skel->maps.rd_qos,
		[RD_MAP_ROUTES4] = skel->maps.rd_routes4,
		[RD_MAP_ROUTES6] = skel->maps.rd_routes6,
		[RD_MAP_GROUPS] = skel->maps.rd_groups,
		[RD_MAP_TX_PORTS] = skel->maps.rd_tx_ports,
		[RD_MAP_MEMBER_STATS] = skel->maps.rd_mbr_stats,
		[RD_MAP_PORT_CFG] = skel->maps.rd_port_cfg,
		[RD_MAP_PORT_STATE] = skel->maps.rd_port_state,
		[RD_MAP_PORT_STATS] = skel->maps.rd_port_stats,
		[RD_MAP_PORT_L2] = skel->maps.rd_port_l2,
		[RD_MAP_FLOWLETS] = skel->maps.rd_flowlets,
		[RD_MAP_RTT_PEND] = skel->maps.rd_rtt_pend,
		[RD_MAP_RTT_PAIRS] = skel->maps.rd_rtt_pairs,
		[RD_MAP_FL_SHADOW] = skel->maps.rd_fl_shadow,
		[RD_MAP_CLOCK] = skel->maps.rd_clock,
		[RD_MAP_TRACE] = skel->maps.rd_trace,
		[RD_MAP_GROUP_BANKS] = skel->maps.rd_group_banks,
		[RD_MAP_GROUP_LIVE] = skel->maps.rd_group_live,
		[RD_MAP_QPS] = skel->maps.rd_qps,
		[RD_MAP_PORT_HWM] = skel->maps.rd_port_hwm,
		[RD_MAP_PORT_FLAPS] = skel->maps.rd_port_flaps,
		[RD_MAP_PORT_LOAD] = skel->maps.rd_port_load,
		[RD_MAP_ROUTE_GEN] = skel->maps.rd_route_gen,
		[RD_MAP_PROBE_CFG] = skel->maps.rd_probe_cfg,
		[RD_MAP_PROBE_PORT] = skel->maps.rd_probe_port,
		[RD_MAP_PATHQ] = skel->maps.rd_pathq,
		[RD_MAP_LEAF4] = skel->maps.rd_leaf4,
		[RD_MAP_PROBE_STATS] = skel->maps.rd_probe_stats,
		[RD_MAP_TRIM_PORTS] = skel->maps.rd_trim_ports,
		[RD_MAP_TRIM_STATS] = skel->maps.rd_trim_stats,
	};
	int i;

	for (i = 0; i < RD_MAP_MAX; i++)
		m->fd[i] = bpf_map__fd(maps[i]);
	m->modelled = false;
}

/*
 * One switch CPU's view, for callers that ask (bind_cpu). The flowlet
 * choice's load estimate is per CPU
 * (rd_port_load), and a test run executes on the calling thread's CPU:
 * frames run on several would split the estimate between them, and the
 * choices would follow the scheduler, not the trace. So while an engine
 * is open the thread stays on the CPU it opened the first one on (threads
 * it creates meanwhile inherit this and may set their own); closing the
 * last one gives the thread its mask back. Per thread, as affinity is.
 */
static __thread unsigned int bind_depth;
static __thread cpu_set_t bind_saved;

static int engine_bind_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (bind_depth) {
		bind_depth++;
		return 0;
	}
	cpu = sched_getcpu();
	if (cpu < 0 || sched_getaffinity(0, sizeof(bind_saved), &bind_saved))
		return -errno;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	bind_depth = 1;
	return 0;
}

static void engine_unbind_cpu(void)
{
	if (bind_depth && !--bind_depth)
		sched_setaffinity(0, sizeof(bind_saved), &bind_saved);
}

int rd_engine_open(struct rd_engine **out, const struct rd_engine_opts *o)
{
	struct bpf_program *progs[RD_HOOK_MAX];
	struct rd_engine *e;
	int err, h;

	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->skel = rocedp__open();
	if (!e->skel) {
		err = -errno;
		free(e);
		return err;
	}
	e->skel->rodata->cfg_trace = o ? o->trace : true;
	e->skel->rodata->cfg_clock_from_map = o ? o->map_clock : true;
	e->skel->rodata->cfg_ecn_kfunc = o ? o->ecn_kfunc : false;
	e->skel->rodata->cfg_express = o ? !o->general_path : true;
	e->skel->rodata->cfg_offline = true;
	progs[RD_HOOK_XDP] = e->skel->progs.rocedp_xdp;
	progs[RD_HOOK_TC] = e->skel->progs.rocedp_tc_ingress;
	progs[RD_HOOK_XDP_EGRESS] = e->skel->progs.rocedp_egress_tr;
	progs[RD_HOOK_TC_EGRESS] = e->skel->progs.rocedp_tc_egress;
	progs[RD_HOOK_TC_RX] = e->skel->progs.rocedp_tc_ingress_rx;
	for (h = 0; h < RD_HOOK_MAX; h++)
		if (o && o->hooks && !(o->hooks & RD_HOOK_BIT(h)))
			bpf_program__set_autoload(progs[h], false);
	err = rocedp__load(e->skel);
	if (err) {
		rocedp__destroy(e->skel);
		free(e);
		return err < 0 ? err : -EINVAL;
	}
	rd_maps_from_skel(&e->maps, e->skel);
	e->maps.modelled =
		true; /* private maps: a config's ports are modelled */
	for (h = 0; h < RD_HOOK_MAX; h++)
		e->prog_fd[h] = bpf_program__autoload(progs[h]) ?
					bpf_program__fd(progs[h]) :
					-ENOENT;
	err = rd_config_apply_defaults(&e->maps);
	/* its maps are its own: every route writer is this version's */
	if (!err)
		err = rd_routew_mark_fd(e->maps.fd[RD_MAP_ROUTE_GEN], true);
	if (!err && o && o->bind_cpu) {
		err = engine_bind_cpu();
		e->bound = !err;
	}
	if (err) {
		rd_engine_close(e);
		return err;
	}
	*out = e;
	return 0;
}

void rd_engine_close(struct rd_engine *e)
{
	if (!e)
		return;
	if (e->bound)
		engine_unbind_cpu();
	rocedp__destroy(e->skel);
	free(e);
}

const struct rd_maps *rd_engine_maps(struct rd_engine *e)
{
	return &e->maps;
}

int rd_engine_prog_fd(struct rd_engine *e, enum rd_hook h)
{
	return h < RD_HOOK_MAX ? e->prog_fd[h] : -EINVAL;
}

int rd_engine_set_time(struct rd_engine *e, uint64_t ns)
{
	__u32 zero = 0;

	return bpf_map_update_elem(e->maps.fd[RD_MAP_CLOCK], &zero, &ns, 0) ?
		       -errno :
		       0;
}

static unsigned int xdp_verdict(unsigned int ret)
{
	switch (ret) {
	case XDP_ABORTED:
		return ROCEDP_VERDICT_ABORTED;
	case XDP_DROP:
		return ROCEDP_VERDICT_DROP;
	case XDP_PASS:
		return ROCEDP_VERDICT_PASS;
	case XDP_TX:
		return ROCEDP_VERDICT_TX;
	case XDP_REDIRECT:
		return ROCEDP_VERDICT_REDIRECT;
	}
	return ROCEDP_VERDICT_ABORTED;
}

static unsigned int tc_verdict(unsigned int ret)
{
	switch (ret) {
	case TC_ACT_OK:
	case TC_ACT_UNSPEC:
	case TC_ACT_PIPE:
		return ROCEDP_VERDICT_PASS;
	case TC_ACT_SHOT:
		return ROCEDP_VERDICT_DROP;
	case TC_ACT_REDIRECT:
		return ROCEDP_VERDICT_REDIRECT;
	}
	return ROCEDP_VERDICT_ABORTED;
}

/*
 * rocedp_tc_ingress_rx leaves the metadata tag in cb[0] (present) and
 * cb[1] (TPID << 16 | TCI): put it back in front, as a transmit would.
 */
static int put_meta_tag(struct rd_run *r, const struct __sk_buff *skb)
{
	uint8_t *p = r->out;

	if (!skb->cb[0])
		return 0;
	if (r->out_len < 12 || r->out_len + 4 > r->out_size)
		return -E2BIG;
	memmove(p + 16, p + 12, r->out_len - 12);
	p[12] = skb->cb[1] >> 24;
	p[13] = skb->cb[1] >> 16;
	p[14] = skb->cb[1] >> 8;
	p[15] = skb->cb[1];
	r->out_len += 4;
	return 0;
}

int rd_engine_run(struct rd_engine *e, enum rd_hook h, struct rd_run *r)
{
	struct __sk_buff skb = {}, skb_out = {};
	struct xdp_md xdp = {};
	__u32 zero = 0;
	int err, is_xdp = h == RD_HOOK_XDP;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = r->in,
		    .data_size_in = r->in_len, .data_out = r->out,
		    .data_size_out = r->out_size, .repeat = 1);

	if (h >= RD_HOOK_MAX)
		return -EINVAL;
	if (e->prog_fd[h] < 0)
		return e->prog_fd[h];
	memset(&r->trace, 0, sizeof(r->trace));
	bpf_map_update_elem(e->maps.fd[RD_MAP_TRACE], &zero, &r->trace, 0);
	if (is_xdp) {
		xdp.data_end = r->in_len;
		xdp.ingress_ifindex = r->ingress_ifindex;
		opts.ctx_in = &xdp;
		opts.ctx_size_in = sizeof(xdp);
	} else if (h == RD_HOOK_XDP_EGRESS) {
		/* the test entry takes the port from the mark */
		skb.mark = r->ingress_ifindex;
		opts.ctx_in = &skb;
		opts.ctx_size_in = sizeof(skb);
	} else if (h == RD_HOOK_TC_EGRESS) {
		/* egress programs read the port from skb->ifindex */
		skb.ifindex = r->ingress_ifindex;
		opts.ctx_in = &skb;
		opts.ctx_size_in = sizeof(skb);
	} else {
		skb.ingress_ifindex = r->ingress_ifindex;
		opts.ctx_in = &skb;
		opts.ctx_size_in = sizeof(skb);
		opts.ctx_out = &skb_out;
		opts.ctx_size_out = sizeof(skb_out);
	}
	err = bpf_prog_test_run_opts(e->prog_fd[h], &opts);
	if (err)
		return -errno;
	r->out_len = opts.data_size_out;
	if (h == RD_HOOK_TC_RX) {
		err = put_meta_tag(r, &skb_out);
		if (err)
			return err;
	}
	r->retval = opts.retval;
	r->verdict = is_xdp ? xdp_verdict(opts.retval) :
			      tc_verdict(opts.retval);
	if (bpf_map_lookup_elem(e->maps.fd[RD_MAP_TRACE], &zero, &r->trace))
		return -errno;
	return 0;
}
