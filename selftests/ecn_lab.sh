#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ECN marking on a live egress: h1-1 -> leaf1 (rocedp) -up1-> spine1
# -> leaf2 -> h2-1. leaf1's uplink gets a configured rate (the virtual queue
# drains at it) and RED thresholds with `rocedp ecn set`. RoCE traffic from
# rocegen offered BELOW the rate must arrive with no CE mark; offered well
# ABOVE it, frames arrive CE-marked (tshark on the receiving host:
# ip.dsfield.ecn == 3), the responder answers them with CNPs and the sender
# cuts its rate; the marks seen at the receiver are exactly the ones rocedp
# counted, ICRCs stay valid and nothing is lost. Native XDP (marked in the
# ingress program for the chosen port) and tc (tc egress program).
#
# Usage: selftests/ecn_lab.sh [native|tc|generic ...]   (root)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(native tc)
RATE=100        # Mbit/s, the uplink's configured rate
KMIN=20000      # bytes
KMAX=100000
LOW=20          # offered load below the rate
HIGH=400        # and well above it

t_require tcpdump tshark ethtool

port_marked() {
	lab_exec leaf1 "$ROCEDP" -j stats 2>/dev/null |
		$PY -c 'import json,sys; j=json.load(sys.stdin); print(sum(p["ecn_marked"] for p in j["ports"] if p.get("name") == "up1"))'
}

# phase MODE NAME RATE: one run; leaves NAME.send, NAME.serve, NAME.pcap,
# NAME.marked (rocedp's count for up1 during the run)
phase() {
	local mode=$1 name=$2 rate=$3 before cap srv
	t_serve srv "$name" "$(ns h2-1)" eth0
	t_cap_start cap "$(ns h2-1)" eth0 "$T_TMP/$name.pcap" "udp dst port 4791 and dst host 10.2.1.2" ||
		t_fail "$mode: capture starts on h2-1"
	before=$(port_marked)
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2 --qps 8 --msg 64K \
		--count 8 --rate "$rate" --rto 1000000 -j \
		>"$T_TMP/$name.send" 2>"$T_TMP/$name.send.err"
	t_check $? "$mode/$name: rocegen send at $rate Mbit/s exits 0" "$(head -c 300 "$T_TMP/$name.send.err")"
	echo $(($(port_marked) - before)) >"$T_TMP/$name.marked"
	t_cap_stop "$cap"
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
}

# counts NAME: "frames ect ce" as tshark reads the receiver's capture
counts() {
	tshark "${T_TSHARK_OPTS[@]}" -r "$T_TMP/$1.pcap" -T fields -e ip.dsfield.ecn 2>/dev/null |
		awk '{ n++; if ($1 == 3) ce++; else if ($1 == 1 || $1 == 2) ect++ } END { print n + 0, ect + 0, ce + 0 }'
}

# lossless NAME: every message delivered and acknowledged, ICRCs valid
lossless() {
	$PY "$T_TOP/selftests/rocegen_verdict.py" "$T_TMP/$1.send" "$T_TMP/$1.serve" \
		--min-messages 64 --max-oos 0
}

for mode in "${modes[@]}"; do
	T_LAB_PREFIX=el$((RANDOM % 9000 + 1000))
	t_cleanup "$LAB down --prefix $T_LAB_PREFIX"
	if ! lab up --leaves 2 --spines 1 --hosts 1 --mode "$mode" >"$T_TMP/lab-$mode.out" 2>&1; then
		t_fail "$mode: fabric up (2 leaves, 1 spine, rocedp $mode + sync)" "$(tail -n3 "$T_TMP/lab-$mode.out")"
		continue
	fi
	t_ok "$mode: fabric up (2 leaves, 1 spine, rocedp $mode + sync)"
	rocedp_set leaf1 ecn set up1 rate $RATE kmin $KMIN kmax $KMAX pmax 100 >"$T_TMP/ecn.out" 2>&1
	t_check $? "$mode: rocedp ecn set up1 rate $RATE kmin $KMIN kmax $KMAX pmax 100" "$(cat "$T_TMP/ecn.out")"

	phase "$mode" below $LOW
	read -r n ect ce < <(counts below)
	out=$(lossless below)
	t_check $? "$mode/below: offered $LOW < $RATE Mbit/s: nothing lost ($out)" "$out"
	[ "$n" -gt 0 ] && [ "$ce" = 0 ] && [ "$ect" = "$n" ]
	t_check $? "$mode/below: receiver's tshark sees $n frames, all ECT, $ce CE-marked" "frames $n ect $ect ce $ce"
	marked=$(cat "$T_TMP/below.marked")
	t_pyj "$T_TMP/below.serve" 'j["total"]["ce"] == 0 and j["total"]["cnps"] == 0' >/dev/null &&
		[ "$marked" = 0 ]
	t_check $? "$mode/below: rocedp marked $marked on up1, responder counted 0 CE, sent 0 CNPs"

	phase "$mode" above $HIGH
	read -r n ect ce < <(counts above)
	out=$(lossless above)
	t_check $? "$mode/above: offered $HIGH > $RATE Mbit/s: nothing lost, ICRC valid after marking ($out)" "$out"
	[ "$ce" -gt 0 ]
	t_check $? "$mode/above: receiver's tshark sees CE marks: $ce of $n frames (ip.dsfield.ecn == 3)"
	marked=$(cat "$T_TMP/above.marked")
	rce=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"]["ce"])' "$T_TMP/above.serve")
	[ "$marked" -gt 0 ] && [ "$rce" = "$marked" ]
	t_check $? "$mode/above: the responder received exactly the $marked frames rocedp marked on up1 (responder: $rce)"
	t_pyj "$T_TMP/above.send" 'j["total"]["cnps"] > 0 and j["total"]["rate_cuts"] > 0' >/dev/null
	t_check $? "$mode/above: CNPs reach the sender and cut its rate ($($PY -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; print(t["cnps"], "CNPs,", t["rate_cuts"], "cuts")' "$T_TMP/above.send"))"
	"$LAB" down --prefix "$T_LAB_PREFIX" >/dev/null 2>&1
done
t_done
