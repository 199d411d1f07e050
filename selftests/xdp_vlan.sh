#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# VLAN tags and XDP (docs/design.md, "VLAN tag offload"). A NIC with
# rx-vlan-offload on moves the tag into metadata before XDP runs; a veth
# does the same with a tag its peer inserted by offload. rocedp's XDP
# program would then see a tagged frame as untagged and route it with the
# main table. Here, per XDP mode (generic, native), in one netns:
#
#   sender vs1 --veth-- vs0 [rocedp] ... rocedp ... vo0 --veth-- vo1 sink
#
# with a route 10.99.0.0/24 out of vo0 mirrored by `rocedp sync --once`:
#  1. untagged frames to 10.99.0.5 are forwarded by rocedp (the route is
#     real, so 2 and 3 would be routed if rocedp saw no tag);
#  2. the same frames tagged VLAN 10 in skb metadata by a tc program on
#     vs1 (what a VLAN device on a NIC with tx-vlan offload does; this
#     host's kernel has no 8021q): none is forwarded, every one is passed
#     to the kernel as "vlan";
#  3. tagged in the frame (AF_PACKET): passed as "vlan" too;
#  4. attach turned off vs0's rx-vlan-hw-parse and rx-vlan-stag-hw-parse
#     and its veth peer's tx-vlan-hw-insert and tx-vlan-stag-hw-insert
#     (status says so, text and -j), and detach turns them on again;
#  5. a veth whose peer is in another netns: attach leaves the peer alone
#     and status names it (text, and vlan_peer_elsewhere under -j).
# The 6.1 guest (tests/kernel) repeats 2 with a real VLAN sub-interface.
#
# Usage: selftests/xdp_vlan.sh [generic|native ...]  (root; default both)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(generic native)
t_require ethtool bpftool tc ip || exit $?
PUSH=$T_OUT/vlan_push.bpf.o
[ -r "$PUSH" ] || { t_fail "$PUSH built (make)"; t_done; exit 1; }

NS=xv$$
N=40
in_ns() { ip netns exec "$NS" "$@"; }
X() { in_ns "$ROCEDP" "$@"; }
cleanup() {
	[ -e "/run/netns/$NS" ] && X detach --all >/dev/null 2>&1
	ip netns del "$NS" 2>/dev/null
	ip netns del "${NS}p" 2>/dev/null
}
t_cleanup cleanup

ip netns add "$NS" &&
	ip -n "$NS" link add vs0 type veth peer name vs1 &&
	ip -n "$NS" link add vo0 type veth peer name vo1 &&
	for d in lo vs0 vs1 vo0 vo1; do ip -n "$NS" link set "$d" up || exit 1; done &&
	in_ns ethtool -K vo1 gro on >/dev/null &&
	ip -n "$NS" addr add 10.97.0.1/24 dev vs0 &&
	ip -n "$NS" addr add 10.98.0.1/24 dev vo0 &&
	ip -n "$NS" neigh add 10.98.0.2 lladdr 02:00:00:00:98:02 dev vo0 nud permanent &&
	ip -n "$NS" route add 10.99.0.0/24 via 10.98.0.2 &&
	in_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1
t_check $? "netns $NS with vs0-vs1, vo0-vo1 and a route out of vo0" || {
	t_done
	exit 1
}
DMAC=$(cat "/sys/class/net/vs0/address" 2>/dev/null || in_ns cat /sys/class/net/vs0/address)

# send TAG: N UDP frames 10.97.0.2 -> 10.99.0.5 to vs0's MAC out of vs1;
# TAG: "" none, or a VID put in the frame
send() {
	in_ns "$PY" "$T_TOP/selftests/xdp_vlan.py" send "$DMAC" "$N" "$1"
}
# ctr NAME: a counter of `rocedp stats -j`, by its name
ctr() {
	X stats -j >"$T_TMP/stats.json" 2>&1
	t_pyj "$T_TMP/stats.json" "$1"
}
FWD='j["counters"]["forwarded_packets"]'
VLAN='j["pass"]["vlan"]'
feat() { in_ns ethtool -k "$1" | sed -n "s/^$2: \([a-z]*\).*/\1/p"; }

for mode in "${modes[@]}"; do
	X attach --mode "$mode" vs0 vo0 2>"$T_TMP/attach.err"
	t_check $? "$mode: attach vs0 vo0" "$(cat "$T_TMP/attach.err")"
	X sync --once >"$T_TMP/sync.out" 2>&1
	t_check $? "$mode: sync --once" "$(cat "$T_TMP/sync.out")"
	[ "$(feat vs0 rx-vlan-offload)/$(feat vs0 rx-vlan-stag-hw-parse)/$(feat vs1 tx-vlan-offload)/$(feat vs1 tx-vlan-stag-hw-insert)" = off/off/off/off ]
	t_check $? "$mode: vs0 rx tag stripping and vs1's tx tag insert offloads turned off" \
		"$(in_ns ethtool -k vs0 | grep vlan; in_ns ethtool -k vs1 | grep vlan)"
	X status >"$T_TMP/status.txt" 2>&1
	grep -q "vlan offload: rx tag stripping off (turned off by rocedp" "$T_TMP/status.txt"
	t_check $? "$mode: status says rocedp turned the tag stripping off" "$(cat "$T_TMP/status.txt")"
	X -j status >"$T_TMP/status.json" 2>&1
	t_pyj "$T_TMP/status.json" '[(i["vlan_offload"], i["vlan_offload_by_rocedp"]) for i in j["interfaces"] if i["name"] == "vs0"] == [("off", True)]' >/dev/null
	t_check $? "$mode: status -j: vs0 vlan_offload off, by rocedp" "$(cat "$T_TMP/status.json")"

	f0=$(ctr "$FWD") v0=$(ctr "$VLAN")
	send ""
	f1=$(ctr "$FWD") v1=$(ctr "$VLAN")
	[ $((f1 - f0)) = $N ] && [ "$v1" = "$v0" ]
	t_check $? "$mode: $N untagged frames: all forwarded by the main table (forwarded $((f1 - f0)), vlan $((v1 - v0)))"

	in_ns tc qdisc add dev vs1 clsact &&
		in_ns tc filter add dev vs1 egress bpf direct-action obj "$PUSH" sec tc
	t_check $? "$mode: tc vlan push (metadata tag) on vs1's egress"
	send ""
	f2=$(ctr "$FWD") v2=$(ctr "$VLAN")
	[ "$f2" = "$f1" ] && [ $((v2 - v1)) = $N ]
	t_check $? "$mode: $N frames tagged VLAN 10 in metadata: none forwarded, all passed as vlan (forwarded $((f2 - f1)), vlan $((v2 - v1)))"
	in_ns tc qdisc del dev vs1 clsact

	send 10
	f3=$(ctr "$FWD") v3=$(ctr "$VLAN")
	[ "$f3" = "$f2" ] && [ $((v3 - v2)) = $N ]
	t_check $? "$mode: $N frames tagged VLAN 10 in the frame: none forwarded, all passed as vlan (forwarded $((f3 - f2)), vlan $((v3 - v2)))"

	X detach --all 2>"$T_TMP/detach.err"
	t_check $? "$mode: detach" "$(cat "$T_TMP/detach.err")"
	[ "$(feat vs0 rx-vlan-offload)/$(feat vs0 rx-vlan-stag-hw-parse)/$(feat vs1 tx-vlan-offload)/$(feat vs1 tx-vlan-stag-hw-insert)" = on/on/on/on ]
	t_check $? "$mode: detach turned the offloads on again" \
		"$(in_ns ethtool -k vs0 | grep vlan; in_ns ethtool -k vs1 | grep vlan)"
done

ip netns add "${NS}p" && ip -n "$NS" link add ve0 type veth peer name ve1 netns "${NS}p" &&
	ip -n "$NS" link set ve0 up && ip -n "${NS}p" link set ve1 up
t_check $? "veth ve0 with its peer in netns ${NS}p"
X attach --mode generic ve0 2>"$T_TMP/attach.err"
t_check $? "attach ve0 (peer elsewhere)" "$(cat "$T_TMP/attach.err")"
X status >"$T_TMP/status.txt" 2>&1
grep -q "veth peer is in another namespace" "$T_TMP/status.txt"
t_check $? "status names the peer in another namespace" "$(cat "$T_TMP/status.txt")"
X -j status >"$T_TMP/status.json" 2>&1
t_pyj "$T_TMP/status.json" '[i["vlan_peer_elsewhere"] for i in j["interfaces"]] == [True]' >/dev/null
t_check $? "status -j: vlan_peer_elsewhere" "$(cat "$T_TMP/status.json")"
[ "$(ip netns exec "${NS}p" ethtool -k ve1 | sed -n 's/^tx-vlan-offload: \([a-z]*\).*/\1/p')" = on ]
t_check $? "the peer's tx-vlan-offload left as it was"
X detach --all >/dev/null 2>&1
ip netns del "${NS}p"
t_done
