/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * In-network RTT: a data frame that requests an ACK is remembered by
 * (requester, responder, PSN); the ACK for that PSN on the reverse path
 * closes the sample. The EWMA is kept on the port the data arrived on, so
 * `--gap auto` can follow the RTT its flows actually see.
 */
#ifndef ROCEDP_RTT_H
#define ROCEDP_RTT_H

#include "parse.h"
#include "load.h"
#include "counters.h"

static __always_inline void rd_rtt_key(struct rocedp_rtt_key *k,
				       const struct rd_flow *p, int reverse)
{
	__builtin_memcpy(k->requester, reverse ? p->dst : p->src, 16);
	__builtin_memcpy(k->responder, reverse ? p->src : p->dst, 16);
	k->psn = p->psn;
	k->family = p->family;
}

__attribute__((noinline)) int rd_rtt_observe(struct rd_flow *p, __u32 ifindex,
					     __u64 now)
{
	struct rocedp_config *cfg;
	struct rocedp_rtt_pending pend = {}, *found;
	struct rocedp_port_state *st;
	struct rocedp_rtt_key k = {};
	__u64 sample, ewma;
	__u32 shift;

	cfg = rd_config_get();
	if (!p || !cfg)
		return 0;
	if ((p->cls == ROCEDP_CLASS_DATA || p->cls == ROCEDP_CLASS_CTS) &&
	    p->ack_req) {
		rd_rtt_key(&k, p, 0);
		pend.sent_ns = now;
		pend.ifindex = ifindex;
		bpf_map_update_elem(&rd_rtt_pend, &k, &pend, BPF_ANY);
		return 0;
	}
	if (p->cls != ROCEDP_CLASS_ACK)
		return 0;
	rd_rtt_key(&k, p, 1);
	found = bpf_map_lookup_elem(&rd_rtt_pend, &k);
	if (!found)
		return 0;
	sample = now > found->sent_ns ? now - found->sent_ns : 0;
	st = rd_port_state_get(found->ifindex);
	bpf_map_delete_elem(&rd_rtt_pend, &k);
	if (!st)
		return 0;
	shift = cfg->rtt_ewma_shift & 15;
	ewma = st->rtt_ewma_ns;
	if (!ewma)
		ewma = sample;
	else if (sample >= ewma)
		ewma += (sample - ewma) >> shift;
	else
		ewma -= (ewma - sample) >> shift;
	st->rtt_ewma_ns = ewma;
	st->rtt_samples++;
	rd_count(ROCEDP_CTR_RTT_SAMPLES);
	return 1;
}

#endif
