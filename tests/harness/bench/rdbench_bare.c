// SPDX-License-Identifier: GPL-2.0
/* The bare forwarders' tables, `rdbench barefwd` and `rdbench fibfwd`
 * (docs/bench.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rocedp.h"
#include "config_txn.h"
#include "bench_abi.h"
#include "rdbench.h"
#include "rdbench_bare.h"

/*
 * The baselines' object, loaded (dies on failure). The one caller of the
 * skeleton's open: each file that calls it embeds the whole object.
 */
struct empty *bare_open(void)
{
	struct empty *eo = empty__open_and_load();

	if (!eo)
		die("empty.bpf.o", errno);
	return eo;
}

/* The bare forwarder's tables: the same route, the same four ports. */
void setup_bare_fwd(struct empty *eo, char **ports)
{
	struct bpf_devmap_val dv = { .bpf_prog.fd = -1 };
	struct {
		__u32 plen, addr;
	} k = { 16, 0 };
	struct {
		__u32 plen;
		__u8 addr[16];
	} k6 = { 16, {} };
	__u32 grp = 0, i;
	int err;

	inet_pton(AF_INET, "10.9.0.0", &k.addr);
	if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_routes), &k, &grp,
				0))
		die("ref_fwd_routes", errno);
	/* the IPv6 rows' destinations (fd09::1 and on), the same group */
	inet_pton(AF_INET6, "fd09::", k6.addr);
	if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_routes6), &k6,
				&grp, 0))
		die("ref_fwd_routes6", errno);
	for (i = 0; i < 4; i++) {
		struct ref_fwd_member mb = { .ifindex =
						     if_nametoindex(ports[i]) };

		if (!mb.ifindex)
			die(ports[i], errno);
		err = get_mac(ports[i], mb.smac);
		if (err)
			die(ports[i], err);
		memcpy(mb.dmac, "\x02\xbb\x00\x00\x00\x00", 6);
		mb.dmac[5] = i + 1;
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_members),
					&i, &mb, 0))
			die("ref_fwd_members", errno);
		dv.ifindex = mb.ifindex;
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fwd_tx),
					&mb.ifindex, &dv, 0))
			die("ref_fwd_tx", errno);
	}
}

/*
 * The bare default forwarder's extra tables, from what rocedp gets beside
 * it: each member's port at pc's rate and RED thresholds, and the DSCP
 * actions of rocedp's built-in defaults (config.c), the data class's
 * replaced by data unless NULL.
 */
void setup_bare_default(struct empty *eo, const struct rocedp_port_cfg *pc,
			const struct rocedp_qos *data)
{
	static const __u32 cls[REF_CLASSES] = {
		[REF_CLASS_DATA] = ROCEDP_CLASS_DATA,
		[REF_CLASS_ACK] = ROCEDP_CLASS_ACK,
		[REF_CLASS_CNP] = ROCEDP_CLASS_CNP,
	};
	struct ref_port pt = { .kmin = pc->kmin_bytes,
			       .kmax = pc->kmax_bytes,
			       .pmax = pc->pmax_percent };
	static struct rd_staged dflt;
	__u32 i, dscp;

	rd_staged_defaults(&dflt);
	if (data)
		dflt.qos[ROCEDP_CLASS_DATA] = *data;
	/* bytes per ns << ROCEDP_VQ_DRAIN_SHIFT, rounded, as rd_vq_drain_fp */
	pt.drain_fp =
		((pc->rate_bps << (ROCEDP_VQ_DRAIN_SHIFT - 3)) + 500000000) /
		1000000000;
	for (i = 0; i < REF_FWD_MEMBERS; i++)
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_ports), &i,
					&pt, 0))
			die("ref_ports", errno);
	for (i = 0; i < REF_CLASSES; i++) {
		const struct rocedp_qos *q = &dflt.qos[cls[i]];

		dscp = q->action == ROCEDP_QOS_SET_DSCP ? q->dscp :
							  REF_DSCP_LEAVE;
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_dscp), &i,
					&dscp, 0))
			die("ref_dscp", errno);
	}
}

/*
 * barefwd [-d ECN] IN_IF IF0,IF1,IF2,IF3: the bare forwarder with its
 * tables for the four ports, attached natively to IN_IF; the attachment
 * (and the maps it holds) outlives us, `ip link set IN_IF xdp off` removes
 * it. -d: the bare default forwarder instead, its ports set as the words
 * given to `rocedp ecn set` beside it ("kmin N kmax N pmax N rate MBIT").
 */
int cmd_barefwd(int argc, char **argv)
{
	struct rocedp_port_cfg pc;
	char *ports[4], *list;
	unsigned long long mbit;
	struct empty *eo;
	int i, idx, dflt = 0;

	rd_port_defaults(&pc);
	if (argc > 2 && !strcmp(argv[1], "-d")) {
		if (sscanf(argv[2], "kmin %u kmax %u pmax %u rate %llu",
			   &pc.kmin_bytes, &pc.kmax_bytes, &pc.pmax_percent,
			   &mbit) != 4)
			die("barefwd -d: want \"kmin N kmax N pmax N rate MBIT\"",
			    EINVAL);
		pc.rate_bps = mbit * 1000000;
		dflt = 1;
		argc -= 2;
		argv += 2;
	}
	if (argc != 3 || !(idx = if_nametoindex(argv[1]))) {
		fprintf(stderr,
			"usage: rdbench barefwd [-d ECN] IN_IF IF0,IF1,IF2,IF3\n");
		return 2;
	}
	list = argv[2];
	for (i = 0; i < 4; i++) {
		ports[i] = strsep(&list, ",");
		if (!ports[i])
			die("barefwd: need 4 interfaces", EINVAL);
	}
	eo = bare_open();
	setup_bare_fwd(eo, ports);
	if (dflt)
		setup_bare_default(eo, &pc, NULL);
	if (bpf_xdp_attach(
		    idx,
		    bpf_program__fd(dflt ? eo->progs.bench_ref_bare_default :
					   eo->progs.bench_ref_bare_fwd),
		    XDP_FLAGS_DRV_MODE, NULL))
		die("barefwd: native attach", errno);
	empty__destroy(eo);
	return 0;
}

void setup_fib_fwd(struct empty *eo, char **ports, int n)
{
	struct bpf_devmap_val dv = { .bpf_prog.fd = -1 };
	int i;

	for (i = 0; i < n; i++) {
		dv.ifindex = if_nametoindex(ports[i]);
		if (!dv.ifindex)
			die(ports[i], errno);
		if (bpf_map_update_elem(bpf_map__fd(eo->maps.ref_fib_tx),
					&dv.ifindex, &dv, 0))
			die("ref_fib_tx", errno);
	}
}

/*
 * fibfwd IN_IF IF[,IF...]: the kernel-FIB forwarder (ref_fib_fwd, what
 * xdp-forward does) attached natively to IN_IF, its devmap holding the
 * ports listed; routes and neighbours are the kernel's. Outlives us, as
 * barefwd.
 */
int cmd_fibfwd(int argc, char **argv)
{
	char *ports[64], *list;
	struct empty *eo;
	int n = 0, idx;

	if (argc != 3 || !(idx = if_nametoindex(argv[1]))) {
		fprintf(stderr, "usage: rdbench fibfwd IN_IF IF[,IF...]\n");
		return 2;
	}
	list = argv[2];
	while (n < 64 && (ports[n] = strsep(&list, ",")))
		n++;
	eo = bare_open();
	setup_fib_fwd(eo, ports, n);
	if (bpf_xdp_attach(idx, bpf_program__fd(eo->progs.bench_ref_fib_fwd),
			   XDP_FLAGS_DRV_MODE, NULL))
		die("fibfwd: native attach", errno);
	empty__destroy(eo);
	return 0;
}
