// SPDX-License-Identifier: GPL-2.0
/*
 * tc egress on the sending end of a veth: tags every frame with VLAN 10
 * the way a VLAN device on a NIC with tx-vlan offload does, in skb
 * metadata, not in the frame. The veth hands the tag over in metadata, so
 * an XDP program at the other end sees the frame untagged unless the
 * offload is off (this host's kernel has no 8021q to make a VLAN device).
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

SEC("tc")
int vlan_push(struct __sk_buff *skb)
{
	bpf_skb_vlan_push(skb, bpf_htons(0x8100), 10);
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
