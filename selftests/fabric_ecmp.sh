#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# QP-aware ECMP through a real fabric.
#
# h1-1 -> leaf1 (rocedp) -> spine1..4 -> leaf2 (rocedp) -> h2-1, built by
# tools/lab/rocedp-lab with kernel multipath routes that `rocedp sync`
# mirrors into the maps. RoCEv2 RDMA WRITEs from rocegen: one host pair,
# ONE UDP source port, 256 QPs. For each hash mode the frames that arrive on
# each spine from leaf1 are counted (spine interface counters, and rocedp's
# per-port tx counters): 5tuple puts all on one uplink; qp and qp-only give
# every uplink 15-35%. Nothing is lost (responder frames == sender frames,
# zero out-of-sequence, every message acknowledged), TTL and MACs are right on
# the spines and at the receiver. Then an uplink goes down mid-traffic: after
# the sync no frame leaves on it, and it carries its share again once back.
# Runs in native XDP and in tc mode.
#
# Usage: selftests/fabric_ecmp.sh [native|tc|generic ...]   (root; default: native tc)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(native tc)
SPINES=4
QPS=256
SPORT=49152

t_require tcpdump tshark ethtool

# snap NAME: rocedp stats of leaf1 and the spines' counters of their leaf1 port
snap() {
	lab_exec leaf1 "$ROCEDP" -j stats >"$T_TMP/$1.stats" 2>"$T_TMP/$1.stats.err"
	local s
	for s in $(seq $SPINES); do
		echo "spine$s $(t_rx "$(ns spine$s)" leaf1)"
	done >"$T_TMP/$1.spines"
}

# share A B: per-uplink frames between snapshots A and B, as JSON
# {"spine": [n1..n4], "rocedp": [n1..n4], "total_sp": , "total_rd": }
share() {
	$PY "$T_TOP/selftests/fabric_ecmp.py" share "$T_TMP/$1" "$T_TMP/$2" $SPINES
}

serve_start() { t_serve srv "$1" "$(ns h2-1)" eth0; }
serve_stop() {
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
}
send() { # NAME rocegen-send-options...
	local name=$1
	shift
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2 --qps $QPS \
		--sport $SPORT -j "$@" >"$T_TMP/$name.send" 2>"$T_TMP/$name.send.err"
}

# delivered NAME DESC [GAPS]: the responder got every frame and message the
# sender sent, in order, and every message was acknowledged. GAPS: at most
# that many out-of-sequence arrivals are allowed (frames that were on their
# way to a link that went down before the sync took it out; the responder's
# NAK brings them back, which the message counts prove)
delivered() {
	local name=$1 why
	why=$($PY "$T_TOP/selftests/rocegen_verdict.py" "$T_TMP/$name.send" \
		"$T_TMP/$name.serve" --max-oos "${3:-0}")
	t_check $? "$2: nothing lost ($why)" "$why"
}

# one run of RoCE traffic in hash mode HM; asserts spread
run_mode() {
	local mode=$1 hm=$2 out rc
	rocedp_set leaf1 config set "hash.mode=$hm" >"$T_TMP/cfg.out" 2>&1
	t_check $? "$mode/$hm: rocedp config set hash.mode=$hm" "$(cat "$T_TMP/cfg.out")"
	serve_start "$mode-$hm" || t_fail "$mode/$hm: responder starts"
	[ "$hm" = qp ] && capture_start
	snap "$mode-$hm-a"
	send "$mode-$hm" --msg 4K --count 4 --rate 400
	rc=$?
	snap "$mode-$hm-b"
	[ "$hm" = qp ] && capture_stop
	serve_stop
	[ $rc = 0 ] || t_fail "$mode/$hm: rocegen send exits 0" "rc $rc: $(head -c 300 "$T_TMP/$mode-$hm.send.err")"
	delivered "$mode-$hm" "$mode/$hm"
	out=$(share "$mode-$hm-a" "$mode-$hm-b")
	echo "# $mode/$hm: frames per uplink (spines' rx / rocedp tx): $out"
	$PY "$T_TOP/selftests/fabric_ecmp.py" spread "$out" "$hm"
	rc=$?
	if [ "$hm" = 5tuple ]; then
		t_check $rc "$mode/$hm: one UDP source port, $QPS QPs -> every frame on one uplink ($out)"
	else
		t_check $rc "$mode/$hm: $QPS QPs spread, every uplink 15-35% ($out)"
	fi
}

# TTL and MACs: captured on every spine (leaf1's rewrite) and at the receiver
capture_start() {
	local s
	caps=()
	for s in $(seq $SPINES); do
		t_cap_start p "$(ns spine$s)" leaf1 "$T_TMP/spine$s.pcap" "udp dst port 4791 and dst host 10.2.1.2" && caps+=("$p")
	done
	t_cap_start p "$(ns h2-1)" eth0 "$T_TMP/rx.pcap" "udp dst port 4791 and dst host 10.2.1.2" && caps+=("$p")
	t_cap_start p "$(ns h1-1)" eth0 "$T_TMP/tx.pcap" "udp dst port 4791 and dst host 10.2.1.2" && caps+=("$p")
}
capture_stop() {
	local p
	for p in "${caps[@]}"; do t_cap_stop "$p"; done
}
fields() { tshark "${T_TSHARK_OPTS[@]}" -r "$1" -T fields -e eth.src -e eth.dst -e ip.ttl 2>/dev/null | sort | uniq -c; }
mac() { ip -n "$1" -j link show dev "$2" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])'; }

check_ttl_macs() {
	local mode=$1 s n bad=0 exp got txttl
	txttl=$(fields "$T_TMP/tx.pcap" | awk '{print $4}' | sort -u)
	[ "$(echo "$txttl" | wc -l)" = 1 ] && [ -n "$txttl" ] ||
		{ t_fail "$mode: sender TTL is one value" "$txttl"; return; }
	for s in $(seq $SPINES); do
		got=$(fields "$T_TMP/spine$s.pcap")
		[ -z "$got" ] && continue
		exp="$(mac "$(ns leaf1)" up$s) $(mac "$(ns spine$s)" leaf1) $((txttl - 1))"
		n=$(echo "$got" | wc -l)
		if [ "$n" != 1 ] || [ "$(echo "$got" | awk '{print $2, $3, $4}')" != "$exp" ]; then
			bad=1
			echo "# spine$s: expected '$exp', saw: $got"
		fi
	done
	t_check $bad "$mode: frames on every spine carry leaf1's uplink MAC -> spine MAC and TTL $((txttl - 1)) (sent $txttl)"
	got=$(fields "$T_TMP/rx.pcap")
	exp="$(mac "$(ns leaf2)" host1) $(mac "$(ns h2-1)" eth0) $((txttl - 3))"
	[ "$(echo "$got" | wc -l)" = 1 ] && [ "$(echo "$got" | awk '{print $2, $3, $4}')" = "$exp" ]
	t_check $? "$mode: receiver sees leaf2 MAC -> host MAC, TTL $((txttl - 3)) after 3 routers" "expected '$exp', saw: $got"
}

# member_up IFNAME: the uplink is an active (UP|RESOLVED) member of leaf1's group
member_up() {
	lab_exec leaf1 "$ROCEDP" -j stats 2>/dev/null | $PY "$T_TOP/selftests/fabric_ecmp.py" member_up "$(ip -n "$(ns leaf1)" -j link show dev "$1" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["ifindex"])')"
}

# forwarded: leaf1's rocedp forwarded_packets counter
forwarded() {
	lab_exec leaf1 "$ROCEDP" -j stats 2>/dev/null |
		$PY -c 'import json,sys; print(json.load(sys.stdin)["counters"]["forwarded_packets"])' 2>/dev/null ||
		echo 0
}

# wait_fwd N: until leaf1's rocedp forwarded N more frames (10 s at most).
# Windows are sized by the traffic the machine delivered, not by the
# clock, so a busy machine that stalls the sender a while still gets a
# window with traffic in it.
wait_fwd() {
	local a i
	a=$(forwarded)
	for i in $(seq 200); do
		[ $(($(forwarded) - a)) -ge "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# an uplink goes down mid-traffic and comes back (qp mode)
flap() {
	local mode=$1 rc i out
	rocedp_set leaf1 config set hash.mode=qp >/dev/null 2>&1
	serve_start "$mode-flap" || t_fail "$mode/flap: responder starts"
	# 256 QPs x 4 KiB at 100 Mbit/s until SIGUSR1 ends it (rocegen then
	# completes the messages it began), however long the flap takes on a
	# busy machine; the RTO is long so that CPU stalls give no spurious
	# timeouts, and a QP gives up only after 30 of them in a row
	T_BG_OUT=$T_TMP/$mode-flap.send T_BG_ERR=$T_TMP/$mode-flap.send.err \
		t_bg sender ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2 \
		--qps 256 --sport $SPORT -j --msg 4K --count 1000000 --rate 100 \
		--rto 1000000 --retries 30 --timeout 600
	wait_fwd 2000
	snap "$mode-flap-0"
	ip -n "$(ns leaf1)" link set up2 down
	for i in $(seq 200); do member_up up2 || break; sleep 0.05; done
	# frames sent before the member left reach the spines first (a veth
	# backlog can hold them a while under load)
	wait_fwd 300
	snap "$mode-flap-1"
	wait_fwd 3000
	snap "$mode-flap-2"
	out=$(share "$mode-flap-1" "$mode-flap-2")
	echo "# $mode/flap: up2 down, a window of 3000 forwarded frames, per uplink (spines' rx / rocedp tx): $out"
	$PY -c '
import json, sys
d = json.loads(sys.argv[1]); r = d["rocedp"]; s = d["spine"]
sys.exit(0 if r[1] == 0 and s[1] == 0 and all(x > 0 for i, x in enumerate(r) if i != 1) else 1)' "$out"
	t_check $? "$mode/flap: after the sync no frame leaves on the downed uplink up2, the other three carry the traffic ($out)"
	ip -n "$(ns leaf1)" link set up2 up
	for i in $(seq 200); do member_up up2 && break; sleep 0.05; done
	member_up up2
	t_check $? "$mode/flap: up2 back in leaf1's group after link up (~$((i * 50)) ms)"
	snap "$mode-flap-3"
	wait_fwd 3000
	snap "$mode-flap-4"
	kill -0 "$sender" 2>/dev/null
	t_check $? "$mode/flap: traffic still running when measuring the return" "sender finished too early"
	kill -USR1 "$sender" 2>/dev/null
	wait "$sender"
	rc=$?
	serve_stop
	out=$(share "$mode-flap-3" "$mode-flap-4")
	echo "# $mode/flap: up2 back, per uplink: $out"
	$PY -c '
import json, sys
d = json.loads(sys.argv[1]); r = d["rocedp"]; t = d["total_rd"]
sys.exit(0 if t > 0 and all(0.15 <= x / t <= 0.35 for x in r) else 1)' "$out"
	t_check $? "$mode/flap: traffic spreads back over all 4 uplinks, each 15-35% ($out)"
	[ $rc = 0 ] || t_fail "$mode/flap: rocegen send exits 0" "rc $rc: $(head -c 300 "$T_TMP/$mode-flap.send.err")"
	delivered "$mode-flap" "$mode/flap: every message delivered across the flap" 256
}

for mode in "${modes[@]}"; do
	T_LAB_PREFIX=fe$((RANDOM % 9000 + 1000))
	t_cleanup "$LAB down --prefix $T_LAB_PREFIX"
	if ! lab up --leaves 2 --spines $SPINES --hosts 1 --mode "$mode" >"$T_TMP/lab-$mode.out" 2>&1; then
		t_fail "$mode: fabric up (2 leaves x $SPINES spines, rocedp $mode + sync)" "$(tail -n3 "$T_TMP/lab-$mode.out")"
		continue
	fi
	t_ok "$mode: fabric up (2 leaves x $SPINES spines, rocedp $mode + sync)"
	# the leaf's routes as sync saw them: one group of 4 members
	lab_exec leaf1 "$ROCEDP" -j stats >"$T_TMP/g.json" 2>&1
	t_pyj "$T_TMP/g.json" 'any(len(g["members"]) == 4 and all(m["flags"] & 3 == 3 for m in g["members"]) for g in j["groups"])' >/dev/null
	t_check $? "$mode: leaf1 has a 4-member group from the kernel's multipath route (rocedp sync)"
	for hm in 5tuple qp qp-only; do
		run_mode "$mode" "$hm"
	done
	check_ttl_macs "$mode"
	flap "$mode"
	"$LAB" down --prefix "$T_LAB_PREFIX" >/dev/null 2>&1
done
t_done
