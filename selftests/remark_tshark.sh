#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Remark-only mode on a live link, seen by tshark on the far side.
#
#   A (scapy sendp) --veth--> B: vb1 [rocedp --features remark] -> br0 -> vb2 --veth--> C (capture)
#
# rocedp only remarks; the frames then continue to the kernel, whose bridge
# passes them on unchanged, so what C captures is what rocedp left. A sends
# ACK, NAK, CNP, a CTS that matches a configured rule, an ACK over IPv6, an
# ACK already CE-marked, and frames that must not change: RDMA WRITE data,
# SENDs that miss the CTS rule (QP out of range, payload too big), TCP,
# non-RoCE UDP, ARP and a truncated ACK. Asserts (tshark fields, heuristics
# off) that each remark class carries its configured DSCP with the ECN bits
# kept and a valid IPv4 header checksum, that nothing else in those frames
# changed (the ICRC masks the TOS byte, so an unchanged trailer is still a
# valid ICRC), and that every other frame is byte-for-byte what was sent.
# Runs with rocedp in native XDP and in tc mode.
#
# Usage: selftests/remark_tshark.sh [native|tc|generic ...]   (root)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(native tc)

missing=$(t_need tshark) || {
	t_fail "tools present" "missing: $missing"
	t_done
	exit 1
}
[ -x "$ROCEDP" ] || { t_fail "$ROCEDP built"; t_done; exit 1; }
$PY -c 'import scapy.contrib.roce' 2>/dev/null || {
	t_fail "scapy importable by $PY"
	t_done
	exit 1
}

cat >"$T_TMP/remark.json" <<'EOF'
{
  "features": ["remark"],
  "qos": {"ack": {"dscp": 40}, "nak": {"dscp": 44}, "cnp": {"dscp": 48},
          "cts": {"dscp": 36}, "data": "leave", "roce_other": "leave",
          "ip": "leave"},
  "cts_rules": [{"name": "cts-small", "opcodes": ["send_only"],
                 "qp": "0x100-0x1ff", "max_payload": 64}]
}
EOF

# The frames A sends: selftests/remark_tshark_frames.py; what B captured
# against them: selftests/remark_tshark_compare.py

for mode in "${modes[@]}"; do
	id=rt$((RANDOM % 9000 + 1000))
	A=$id-a B=$id-b C=$id-c
	for n in $A $B $C; do
		ip netns add "$n" || { t_fail "$mode: netns $n"; continue 2; }
		t_cleanup "ip netns del $n"
		ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
		ip -n "$n" link set lo up
	done
	ip link add va netns "$A" type veth peer name vb1 netns "$B"
	ip link add vc netns "$C" type veth peer name vb2 netns "$B"
	ip -n "$B" link add br0 type bridge
	# br_netfilter (built in, on by default) would drop the malformed frame
	# rocedp hands to the kernel before it reaches C; the bridge is only
	# the test's wire, so no netfilter on it
	ip netns exec "$B" sysctl -qw net.bridge.bridge-nf-call-iptables=0 \
		net.bridge.bridge-nf-call-ip6tables=0 net.bridge.bridge-nf-call-arptables=0
	ip -n "$B" link set vb1 master br0
	ip -n "$B" link set vb2 master br0
	for l in "$A va" "$B vb1" "$B vb2" "$B br0" "$C vc"; do
		set -- $l
		ip -n "$1" link set "$2" mtu 1500 up
	done
	t_cleanup "[ -e /run/netns/$B ] && ip netns exec $B $ROCEDP detach --all"
	ip netns exec "$B" "$ROCEDP" attach vb1 --mode "$mode" --features remark >"$T_TMP/attach.out" 2>&1
	t_check $? "$mode: rocedp attach vb1 --mode $mode --features remark" "$(cat "$T_TMP/attach.out")"
	ip netns exec "$B" "$ROCEDP" config load "$T_TMP/remark.json" >"$T_TMP/load.out" 2>&1
	t_check $? "$mode: rocedp config load (qos ack 40, nak 44, cnp 48, cts 36, CTS rule)" "$(cat "$T_TMP/load.out")"

	smac=$(ip -n "$A" -j link show va | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
	dmac=$(ip -n "$C" -j link show vc | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
	$PY "$T_TOP/selftests/remark_tshark_frames.py" "$T_TMP/sent.pcap" "$smac" "$dmac" >"$T_TMP/expect" 2>"$T_TMP/frames.err" ||
		{ t_fail "$mode: build frames" "$(tail -n2 "$T_TMP/frames.err")"; continue; }

	rm -f "$T_TMP/recv.pcap"
	ip netns exec "$C" tshark -i vc -w "$T_TMP/recv.pcap" >"$T_TMP/tshark.out" 2>&1 &
	cap=$!
	t_pids+=("$cap")
	for _ in $(seq 100); do grep -q "Capturing on" "$T_TMP/tshark.out" && break; sleep 0.05; done
	sleep 0.3
	ip netns exec "$A" $PY -c '
import sys
from scapy.all import rdpcap, sendp
sendp(rdpcap(sys.argv[1]), iface="va", verbose=False, inter=0.01)' "$T_TMP/sent.pcap"
	t_check $? "$mode: scapy sent $(wc -l <"$T_TMP/expect") frames from $A"
	sleep 0.5
	kill -INT "$cap"
	wait "$cap" 2>/dev/null

	tshark "${T_TSHARK_OPTS[@]}" -r "$T_TMP/recv.pcap" -T fields -e frame.number \
		-e ip.dsfield.dscp -e ipv6.tclass.dscp >"$T_TMP/fields" 2>/dev/null
	$PY "$T_TOP/selftests/remark_tshark_compare.py" "$T_TMP/sent.pcap" "$T_TMP/recv.pcap" "$T_TMP/expect" \
		"$T_TMP/fields" >"$T_TMP/result" 2>&1 || echo "bad	compare.py	$(tail -n1 "$T_TMP/result")" >>"$T_TMP/result"
	while IFS=$'\t' read -r res desc why; do
		want=$(awk -F'\t' -v d="$desc" '$2 == d { print $1 }' "$T_TMP/expect")
		case $want in
		same) what="unchanged" ;;
		"") what="" ;;
		*) what="DSCP $want, ECN kept, checksum valid, rest unchanged" ;;
		esac
		[ "$res" = ok ] && t_ok "$mode: $desc: $what" || t_fail "$mode: $desc${what:+: $what}" "$why"
	done <"$T_TMP/result"

	ip netns exec "$B" "$ROCEDP" -j stats >"$T_TMP/stats.json" 2>&1
	got=$(t_pyj "$T_TMP/stats.json" '(j["counters"]["remarked"], j["cts_rules"][0], j["counters"]["forwarded_packets"])')
	[ "$got" = "(6, 1, 0)" ]
	t_check $? "$mode: rocedp stats: 6 remarked, CTS rule 0 matched once, 0 forwarded (remark-only) -> $got"
	ip netns exec "$B" "$ROCEDP" detach --all >/dev/null 2>&1
	for n in $A $B $C; do ip netns del "$n"; done
done
t_done
