// SPDX-License-Identifier: GPL-2.0
/*
 * The counter readers: per-CPU counters summed, per port, per group member
 * (with Meta's imbalance metric: busiest member / mean), CTS rule hits.
 * Printing them is the stats command's (userspace/cli/cmd_stats.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "names.h"
#include "stats.h"

/* index: the counter less ROCEDP_CTR_MISC_BASE */
#define MISC(ctr, name) [ROCEDP_CTR_##ctr - ROCEDP_CTR_MISC_BASE] = name

static const char *const misc_names[ROCEDP_CTR_MAX - ROCEDP_CTR_MISC_BASE] = {
	MISC(RX_PKTS, "rx_packets"),
	MISC(RX_BYTES, "rx_bytes"),
	MISC(FWD_PKTS, "forwarded_packets"),
	MISC(FWD_BYTES, "forwarded_bytes"),
	MISC(FWD_CACHE_HIT, "forwarded_from_cache"),
	MISC(REMARKED, "remarked"),
	MISC(REMARK_SAME, "remark_unchanged"),
	MISC(FLOWLET_NEW, "flowlets_started"),
	MISC(FLOWLET_FLOW_NEW, "flows_new"),
	MISC(FLOWLET_MOVE, "flowlet_path_changes"),
	MISC(FLOWLET_REORDER_RISK, "flowlet_reorder_risk"),
	MISC(FLOWLET_INSERT_FAIL, "flowlet_insert_failed"),
	MISC(FLOWLET_MEMBER_GONE, "flowlet_member_gone"),
	MISC(RTT_SAMPLES, "rtt_samples"),
	MISC(ECN_MARKED, "ecn_marked"),
	MISC(ECN_WOULD_MARK, "ecn_would_mark"),
	MISC(ECN_ALREADY_CE, "ecn_already_ce"),
	MISC(ECN_OPTOUT, "ecn_class_optout"),
	MISC(ECN_SRC_KFUNC, "ecn_thresholds_module"),
	MISC(ECN_SRC_MAP, "ecn_thresholds_map"),
	MISC(SPRAY_PKTS, "spray_packets"),
	MISC(PORT_UNTRACKED, "port_untracked"),
	MISC(RTT_AMBIGUOUS, "rtt_ambiguous"),
	MISC(RTT_RETX, "rtt_retransmitted"),
	MISC(RTT_EXPIRED, "rtt_expired"),
	MISC(RTT_PEND_FULL, "rtt_pending_full"),
	MISC(RTT_PAIR_LEARNED, "rtt_qp_pairs_learned"),
	MISC(FLOWLET_CLAIM_LOST, "flowlet_claim_lost"),
	MISC(FLOWLET_EVICT_KEPT, "flowlet_evicted_kept"),
	MISC(QP_UNPAIRED, "qp_unpaired"),
	MISC(QP_NEW, "qp_entries_created"),
	MISC(QP_REPLACED, "qp_entries_replaced"),
	MISC(FLOWLET_REPLACED, "flowlet_flows_replaced"),
	MISC(RTT_PAIR_SYM_PORT, "rtt_qp_pairs_by_sym_port"),
	MISC(RTT_PAIR_RXE_PORT, "rtt_qp_pairs_by_rxe_port"),
};

/* HELP of each: what one count is */
static const char *const misc_help[ROCEDP_CTR_MAX - ROCEDP_CTR_MISC_BASE] = {
	MISC(RX_PKTS, "Frames the programs saw."),
	MISC(RX_BYTES, "Bytes of the frames the programs saw."),
	MISC(FWD_PKTS, "Frames forwarded by rocedp."),
	MISC(FWD_BYTES, "Bytes forwarded by rocedp."),
	MISC(FWD_CACHE_HIT,
	     "Forwarded frames whose route came from the decision cache."),
	MISC(REMARKED, "Frames whose DSCP (or PCP) was changed."),
	MISC(REMARK_SAME,
	     "Frames with a remark action whose value was already right."),
	MISC(FLOWLET_NEW, "Flowlets started (a new flow or a gap)."),
	MISC(FLOWLET_FLOW_NEW, "First frames of a flow."),
	MISC(FLOWLET_MOVE, "New flowlets that took another member."),
	MISC(FLOWLET_REORDER_RISK,
	     "Flowlets moved within the gap (must stay 0)."),
	MISC(FLOWLET_INSERT_FAIL, "Flows the flowlet table could not hold."),
	MISC(FLOWLET_MEMBER_GONE, "Flowlets whose member left the group."),
	MISC(RTT_SAMPLES, "RTT samples taken from request and ACK pairs."),
	MISC(ECN_MARKED, "Frames marked CE."),
	MISC(ECN_WOULD_MARK, "Not-ECT frames RED would have marked."),
	MISC(ECN_ALREADY_CE, "Frames that arrived already CE."),
	MISC(ECN_OPTOUT, "Frames of a class exempt from marking."),
	MISC(ECN_SRC_KFUNC,
	     "ECN decisions with thresholds from the kernel module."),
	MISC(ECN_SRC_MAP, "ECN decisions with thresholds from the map."),
	MISC(SPRAY_PKTS, "Frames sprayed per packet over a group."),
	MISC(PORT_UNTRACKED,
	     "Frames of a port whose ifindex has no per-port slot."),
	MISC(RTT_AMBIGUOUS,
	     "ACKs that could close several QPs' samples (none taken)."),
	MISC(RTT_RETX, "ACKs of a retransmitted request (no sample, Karn)."),
	MISC(RTT_EXPIRED, "ACKs of a request too old to sample."),
	MISC(RTT_PEND_FULL,
	     "Requests not sampled: too many QPs pending one PSN."),
	MISC(RTT_PAIR_LEARNED, "Requester and responder QP pairs learned."),
	MISC(FLOWLET_CLAIM_LOST, "Flowlets another CPU started first."),
	MISC(FLOWLET_EVICT_KEPT, "Evicted flows back with their member kept."),
	MISC(QP_UNPAIRED, "Responses with no known QP entry."),
	MISC(QP_NEW, "QP table entries created."),
	MISC(QP_REPLACED, "Live QP table entries replaced by a new QP."),
	MISC(FLOWLET_REPLACED, "Live flows whose way a new flow took."),
};

#undef MISC

const char *rd_counter_misc_name(unsigned int idx)
{
	if (idx < ROCEDP_CTR_MISC_BASE || idx >= ROCEDP_CTR_MAX)
		return "unknown";
	return misc_names[idx - ROCEDP_CTR_MISC_BASE] ?: "unknown";
}

const char *rd_counter_misc_help(unsigned int idx)
{
	if (idx < ROCEDP_CTR_MISC_BASE || idx >= ROCEDP_CTR_MAX)
		return "A dataplane counter.";
	return misc_help[idx - ROCEDP_CTR_MISC_BASE] ?: "A dataplane counter.";
}

const struct rd_ctr_family rd_ctr_families[] = {
	{ "classes", "classes", "rocedp_class_packets_total", "class",
	  "Frames per traffic class.", ROCEDP_CTR_CLASS_BASE, 0,
	  ROCEDP_CLASS_MAX, false, rd_class_name },
	{ "verdicts", "verdicts", "rocedp_verdict_packets_total", "verdict",
	  "Frames by verdict.", ROCEDP_CTR_VERDICT_BASE, 0, ROCEDP_VERDICT_MAX,
	  false, rd_verdict_name },
	/* reason 0 of these two is "none": never counted */
	{ "malformed", "malformed", "rocedp_malformed_packets_total", "reason",
	  "Malformed frames by reason.", ROCEDP_CTR_MAL_BASE, 1, ROCEDP_MAL_MAX,
	  true, rd_malformed_name },
	{ "passed to kernel", "pass", "rocedp_passed_packets_total", "reason",
	  "Frames handed to the kernel, by reason.", ROCEDP_CTR_PASS_BASE, 1,
	  ROCEDP_PASS_MAX, true, rd_pass_name },
};

const unsigned int rd_ctr_n_families =
	sizeof(rd_ctr_families) / sizeof(rd_ctr_families[0]);

/* Sum one key of a per-CPU map whose value is n_u64 counters. */
int rd_percpu_sum(int fd, const void *key, __u64 *out, unsigned int n_u64)
{
	int ncpu = libbpf_num_possible_cpus();
	__u64 *buf;
	unsigned int i;
	int c;

	if (ncpu <= 0)
		return -EINVAL;
	buf = calloc((size_t)ncpu * n_u64, sizeof(__u64));
	if (!buf)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, key, buf)) {
		free(buf);
		return -errno;
	}
	memset(out, 0, n_u64 * sizeof(__u64));
	for (c = 0; c < ncpu; c++)
		for (i = 0; i < n_u64; i++)
			out[i] += buf[c * n_u64 + i];
	free(buf);
	return 0;
}

int rd_array_read(int fd, __u32 n, bool percpu, __u64 *out, unsigned int n_u64)
{
	int ncpu = percpu ? libbpf_num_possible_cpus() : 1;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 *keys, batch, got = 0, count, i, j;
	size_t per = (size_t)ncpu * n_u64;
	__u64 *vals;
	int c, err = 0;

	if (ncpu <= 0)
		return -EINVAL;
	keys = calloc(n, sizeof(*keys));
	vals = calloc((size_t)n * per, sizeof(*vals));
	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	/* a scrape walked 1024 slots of three maps key by key: 5000 calls */
	while (got < n) {
		count = n - got;
		if (bpf_map_lookup_batch(fd, got ? &batch : NULL, &batch,
					 keys + got, vals + got * per, &count,
					 &opts)) {
			err = -errno;
			got += err == -ENOENT ? count : 0;
			break;
		}
		got += count;
	}
	if (err && err != -ENOENT) { /* no batches here: slot by slot */
		for (got = 0, err = 0; got < n && !err; got++) {
			keys[got] = got;
			if (bpf_map_lookup_elem(fd, &got, vals + got * per))
				err = -errno;
		}
		if (err)
			goto out;
	}
	err = 0;
	memset(out, 0, (size_t)n * n_u64 * sizeof(*out));
	for (j = 0; j < got; j++) {
		if (keys[j] >= n)
			continue;
		for (c = 0; c < ncpu; c++)
			for (i = 0; i < n_u64; i++)
				out[keys[j] * n_u64 + i] +=
					vals[j * per + c * n_u64 + i];
	}
out:
	free(keys);
	free(vals);
	return err;
}

/* Every counter of the rd_stats block (fd), summed over the CPUs. */
int rd_counters_read(int fd, __u64 *ctr)
{
	__u32 zero = 0;

	return rd_percpu_sum(fd, &zero, ctr, ROCEDP_CTR_MAX);
}

/* One counter of the rd_stats block (fd), summed over the CPUs. */
int rd_counter_get(int fd, unsigned int idx, __u64 *v)
{
	__u64 ctr[ROCEDP_CTR_MAX];
	int err;

	*v = 0;
	if (idx >= ROCEDP_CTR_MAX)
		return -EINVAL;
	err = rd_counters_read(fd, ctr);
	if (!err)
		*v = ctr[idx];
	return err;
}

bool rd_trim_any(const struct rocedp_trim_stats *t)
{
	return t->trim_pkts || t->tx_trim_pkts || t->dropped_trim_pkts ||
	       t->tail_drop_pkts;
}

int rd_stats_read(const struct rd_maps *m, struct rd_stats_snapshot *s)
{
	struct rocedp_trim_stats *trim = NULL;
	struct rocedp_port_stats ps, *all;
	struct rocedp_member_stats ms;
	struct rocedp_group g;
	__u32 key, next, *prev = NULL, i, idx;
	int err;

	memset(s, 0, sizeof(*s));
	err = rd_counters_read(m->fd[RD_MAP_STATS], s->ctr);
	if (err)
		return err;
	for (i = 0; i < ROCEDP_MAX_CTS_RULES; i++)
		rd_percpu_sum(m->fd[RD_MAP_CTS_STATS], &i, &s->cts_hits[i], 1);
	all = malloc(ROCEDP_PORT_SLOTS * sizeof(*all));
	if (!all)
		return -ENOMEM;
	err = rd_array_read(m->fd[RD_MAP_PORT_STATS], ROCEDP_PORT_SLOTS, true,
			    (__u64 *)all, sizeof(*all) / 8);
	/* a failed read of the trim counters shows them as 0 */
	if (!err) {
		trim = malloc(ROCEDP_PORT_SLOTS * sizeof(*trim));
		if (!trim)
			err = -ENOMEM;
		else if (rd_array_read(m->fd[RD_MAP_TRIM_STATS],
				       ROCEDP_PORT_SLOTS, true, (__u64 *)trim,
				       sizeof(*trim) / 8)) {
			free(trim);
			trim = NULL;
		}
	}
	for (key = 0;
	     !err && key < ROCEDP_PORT_SLOTS && s->n_ports < RD_STATS_MAX_PORTS;
	     key++) {
		ps = all[key];
		/* an array: every slot exists, only ports with traffic show */
		if (!ps.rx_pkts && !ps.tx_pkts && !ps.ecn_marked &&
		    !ps.ecn_would_mark && !(trim && rd_trim_any(&trim[key])))
			continue;
		s->ports[s->n_ports].ifindex = key;
		s->ports[s->n_ports].st = ps;
		if (trim)
			s->ports[s->n_ports].trim = trim[key];
		s->n_ports++;
	}
	free(trim);
	free(all);
	if (err)
		return err;
	prev = NULL;
	while (s->n_groups < RD_STATS_MAX_GROUPS &&
	       !bpf_map_get_next_key(m->fd[RD_MAP_GROUPS], prev, &next)) {
		struct rd_group_stats *gs = &s->groups[s->n_groups];
		__u64 total = 0, max = 0;
		unsigned int n = 0;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(m->fd[RD_MAP_GROUPS], &key, &g) ||
		    key >= ROCEDP_MAX_GROUPS)
			continue;
		gs->id = key;
		gs->n_members = g.n_members > ROCEDP_MAX_MEMBERS ?
					ROCEDP_MAX_MEMBERS :
					g.n_members;
		for (i = 0; i < gs->n_members; i++) {
			idx = key * ROCEDP_MAX_MEMBERS + i;
			if (rd_percpu_sum(m->fd[RD_MAP_MEMBER_STATS], &idx,
					  (__u64 *)&ms, 2))
				memset(&ms, 0, sizeof(ms));
			gs->members[i].ifindex = g.members[i].ifindex;
			gs->members[i].flags = g.members[i].flags;
			gs->members[i].weight = g.members[i].weight;
			gs->members[i].st = ms;
			total += ms.bytes;
			if (ms.bytes > max)
				max = ms.bytes;
			n++;
		}
		gs->imbalance = total && n ? (double)max / ((double)total / n) :
					     0;
		s->n_groups++;
	}
	return 0;
}
