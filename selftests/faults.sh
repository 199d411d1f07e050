#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Faults under traffic.
#
# h1-1 -> leaf1 (rocedp native XDP + rocedp sync) -> spine1..4 -> leaf2 -> h2-1,
# built by tools/lab/rocedp-lab; RoCEv2 RDMA WRITEs from rocegen flow the whole
# time. Each fault is counted at the spines (interface counters, tcpdump),
# in rocedp's per-port tx counters and at the responder:
#
#  a) route churn: ~1000 route changes/s for 3 s (ip -batch: add, replace,
#     delete /32 and /24 multipath routes, unrelated ones and ones that cover
#     or sit next to the traffic's destination). The traffic's prefix uses
#     spines 1-3 only during the churn, and every route that may use spine4
#     does NOT cover 10.2.1.2: a single RoCE frame to 10.2.1.2 on spine4 is a
#     misforwarded frame. At the end the maps equal the kernel's tables.
#  b) link flap storm on up2: a burst of quick flaps, then flaps in which the
#     time the member left the map is taken: from then until link up rocedp
#     sends nothing to up2 and spine2 receives nothing; recovery time (link up
#     -> member back -> up2 carries traffic again) printed.
#  c) neighbour changes for spine3's address: deleted and flushed while
#     spine3 does not answer ARP (the entry goes INCOMPLETE -> FAILED): the
#     member is held out, nothing goes to spine3, the others carry the
#     traffic; back after re-resolution. lladdr replaced: the member's
#     destination MAC follows, and back.
#  d) flowlet table full: hash.mode=flowlet, 17 x 4096 QPs = 69632 distinct
#     flows > ROCEDP_MAX_FLOWLETS (65536): every message delivered, the table
#     stays at most full, evictions visible (flows_new > live entries),
#     forwarding spreads new traffic afterwards, the programs stay attached.
#  e) rocedp sync killed (-9) under traffic, a route changed while it is
#     dead: the dataplane keeps forwarding with the last state, the restarted
#     daemon picks the change up (maps == kernel), after which spine4 gets
#     nothing.
#
# Every traffic run must deliver every message (rocegen's go-back-N repairs
# frames lost on a link that went down, so out-of-sequence arrivals are
# reported, not failed, where a fault drops frames on purpose).
#
# Usage: selftests/faults.sh [native|tc|generic]   (root; default native)
#        FAULTS="churn flap neigh flowlet sync_kill" picks faults, KEEP=1 keeps $T_TMP
set -u
. "$(dirname "$0")/lib.sh"

MODE=${1:-native}
SPINES=4
DST=10.2.1.2
T_LAB_PREFIX=ft$((RANDOM % 9000 + 1000))

t_require tcpdump ethtool bpftool

now_ns() { date +%s%N; }
gw() { echo "10.255.$1.0"; }

# ---------------------------------------------------------------- helpers (selftests/faults_ft.py)
# Its waits (wait-member, wait-fib) give up after 10 s: a bound for a
# hang, not a time limit; the times are printed, not judged.
ft() { t_py "$T_TOP/selftests/faults_ft.py" "$T_LAB_PREFIX" "$@"; }

# ---------------------------------------------------------------- traffic
# traffic_start NAME [rocegen send options]: responder on h2-1 and a paced
# sender (64 QPs x 4 KiB messages at 100 Mbit/s) that runs until
# traffic_end, however long the fault takes on a busy machine; the RTO is
# long so CPU stalls on a small VM give no spurious timeouts, and a QP gives
# up only after 30 of them in a row: on a loaded machine a flapping link's
# member takes up to ~1 s to leave or rejoin, and 7 retransmissions in a row
# that fell into such gaps failed QPs whose messages then all arrived
traffic_start() {
	local name=$1
	shift
	t_serve srv "$name" "$(ns h2-1)" eth0
	T_BG_OUT=$T_TMP/$name.send T_BG_ERR=$T_TMP/$name.send.err \
		t_bg sender ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst $DST --qps 64 \
		--msg 4K --count 1000000 --rate 100 --rto 1000000 --retries 30 --timeout 600 -j "$@"
	sleep 0.5
}

# traffic_end NAME DESC: end the sender (SIGUSR1: it completes the
# messages it began, then exits), stop the responder, check that every
# message was delivered
traffic_end() {
	local name=$1 rc why
	kill -USR1 "$sender" 2>/dev/null
	wait "$sender"
	rc=$?
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	why=$($PY "$T_TOP/selftests/rocegen_verdict.py" "$T_TMP/$name.send" \
		"$T_TMP/$name.serve" --rc "$rc" --min-messages 64)
	t_check $? "$2: every message delivered ($why)" "$why"
}

# still_running DESC: the sender had not stopped (failed QPs, an error)
# before the windows were measured
still_running() {
	kill -0 "$sender" 2>/dev/null
	t_check $? "$1: traffic still flowing at the end of the measurement" "sender finished too early"
}

# settle: let frames rocedp sent before a change reach their peers before a
# window that counts arrivals: on a busy machine a veth's backlog can hold
# them for a while. Sized by traffic, not time: 300 more frames forwarded
# on the other ports means the earlier ones were delivered.
settle() { ft window "$T_TMP/settle-a" "$T_TMP/settle-b" 0 300 10 || true; }

# pcap_count FILE: RoCE frames to $DST in a capture
pcap_count() { tcpdump -r "$1" -n 2>/dev/null | wc -l; }

# mac_count FILE MAC: frames in a capture sent to that destination MAC
mac_count() { tcpdump -e -n -r "$1" 2>/dev/null | awk -v m="$2," '$4 == m' | wc -l; }

# uplinks D COND: python condition over d (ft delta) holds
uplinks() { $PY -c "import json,sys; d=json.loads(sys.argv[1]); sys.exit(0 if ($2) else 1)" "$1"; }

leaf_route_replace() { # the 10.2/16 route of leaf1 over the given spines
	local s args=()
	for s in "$@"; do args+=(nexthop via "$(gw "$s")" dev "up$s"); done
	ip -n "$(ns leaf1)" route replace 10.2.0.0/16 "${args[@]}"
}

median_max() { # numbers on stdin -> "median X ms, max Y ms"
	$PY -c 'import statistics,sys; v=[float(x) for x in sys.stdin.read().split()]; print(f"median {statistics.median(v):.1f} ms, max {max(v):.1f} ms over {len(v)}" if v else "none")'
}

# ---------------------------------------------------------------- a) route churn
fault_churn() {
	local t0 ms cap d n chg
	leaf_route_replace 1 2 3
	ms=$(ft wait-fib "$(now_ns)" 10)
	t_check $? "churn: 10.2/16 over spines 1-3 only, maps follow the kernel (${ms} ms)" "$ms"
	t_cap_start cap "$(ns spine4)" leaf1 "$T_TMP/churn-spine4.pcap" "udp dst port 4791 and dst host $DST" ||
		t_fail "churn: tcpdump on spine4"
	traffic_start churn
	ft snap "$T_TMP/churn-0"
	chg=$(ft churn 1000 3 "$RANDOM")
	t0=$(now_ns)
	echo "# churn: $chg"
	uplinks "$chg" 'd["errors"] == 0 and d["changes"] >= 3000'
	t_check $? "churn: 3000 route changes paced at 1000/s, all accepted by the kernel ($chg)" "$chg"
	ms=$(ft wait-fib "$t0" 10)
	t_check $? "churn: sync kept up: maps == kernel $ms ms after the last change ($(ft fib-check))" "$ms"
	echo "# churn: sync converged ${ms} ms after the end of the churn"
	ft snap "$T_TMP/churn-1"
	still_running churn
	traffic_end churn "churn"
	t_cap_stop "$cap"
	d=$(ft delta "$T_TMP/churn-0" "$T_TMP/churn-1")
	echo "# churn: per uplink during the churn (rocedp tx / spines' rx): $d"
	n=$(pcap_count "$T_TMP/churn-spine4.pcap")
	uplinks "$d" 'd["rd"][3] == 0 and all(x > 0 for x in d["rd"][:3])' && [ "$n" = 0 ]
	t_check $? "churn: zero misforwarded frames: spine4 got $n RoCE frames for $DST, rocedp sent ${d} (up4 must be 0)"
	# back to the lab's route; the churn's leftovers go
	ip -n "$(ns leaf1)" route show | awk '/^10\.(100|101|3)\.|^10\.2\./ {print $1}' |
		grep -v '^10.2.0.0/16$' | sed 's/^/route del /' | ip -n "$(ns leaf1)" -force -batch - 2>/dev/null
	leaf_route_replace 1 2 3 4
	ms=$(ft wait-fib "$(now_ns)" 10)
	t_check $? "churn: cleanup, maps == kernel again (${ms} ms)" "$ms"
}

# ---------------------------------------------------------------- b) link flap storm
fault_flap() {
	local i ms rem rec carry bad=0 d leak="" storm=30 k=10 L=(ip -n "$(ns leaf1)" link set up2)
	traffic_start flap
	# a storm: quick flaps, no looking; the last "up" is timed
	for i in $(seq $storm); do
		"${L[@]}" down
		sleep 0.02
		[ "$i" = $storm ] && break
		"${L[@]}" up
		sleep 0.02
	done
	ms=$(ft wait-member up2 in,carry now 10 "${L[@]}" up)
	t_check $? "flap: after a storm of $storm flaps (20 ms apart) up2 is back and carrying traffic (ms after the last link up: member, traffic: $ms)" "$ms"
	: >"$T_TMP/flap.removed"
	: >"$T_TMP/flap.recovery"
	: >"$T_TMP/flap.carry"
	for i in $(seq $k); do
		rem=$(ft wait-member up2 out now 10 "${L[@]}" down) || { bad=1; echo "# flap $i: member not removed: $rem"; }
		echo "$rem" >>"$T_TMP/flap.removed"
		settle
		ft window "$T_TMP/flap-$i-a" "$T_TMP/flap-$i-b" 0.15 200 10
		d=$(ft delta "$T_TMP/flap-$i-a" "$T_TMP/flap-$i-b")
		uplinks "$d" 'd["rd"][1] == 0 and d["spine"][1] == 0 and d["fwd"] > 0' || leak="$leak flap $i: $d;"
		rec=$(ft wait-member up2 in,carry now 10 "${L[@]}" up) || { bad=1; echo "# flap $i: member not back or not carrying: $rec"; }
		echo "${rec% *}" >>"$T_TMP/flap.recovery"
		echo "${rec#* }" >>"$T_TMP/flap.carry"
		sleep 0.05
	done
	rem=$(median_max <"$T_TMP/flap.removed")
	rec=$(median_max <"$T_TMP/flap.recovery")
	carry=$(median_max <"$T_TMP/flap.carry")
	[ -z "$leak" ]
	t_check $? "flap: $k flaps: from member removed until link up, rocedp sent 0 frames on up2 and spine2 received 0, the others forwarded" "$leak"
	t_check $bad "flap: link down -> member out of the map: $rem (polled every ~5 ms)"
	t_check $bad "flap: recovery, link up -> member back: $rec; -> up2 carrying traffic: $carry"
	echo "# flap: member removed $rem; back $rec; carrying traffic $carry"
	ft window "$T_TMP/flap-end-a" "$T_TMP/flap-end-b" 0.5 2000 10
	d=$(ft delta "$T_TMP/flap-end-a" "$T_TMP/flap-end-b")
	uplinks "$d" 'sum(d["rd"]) > 0 and all(0.10 <= x / sum(d["rd"]) <= 0.40 for x in d["rd"])'
	t_check $? "flap: after the storm all 4 uplinks carry 10-40% each ($d)" "$d"
	still_running flap
	traffic_end flap "flap"
}

# ---------------------------------------------------------------- c) neighbour changes
neigh_state() { ip -n "$(ns leaf1)" neigh show "$(gw 3)" dev up3 | awk '{print $NF}'; }
# spine3_arp N: arp_ignore on spine3's port to leaf1 (8: answer no ARP request)
spine3_arp() { ip netns exec "$(ns spine3)" sysctl -qw "net.ipv4.conf.leaf1.arp_ignore=$1"; }

# neigh_hold HOW WAIT_FAILED: take spine3's entry away with HOW (del|flush)
# while spine3 answers no ARP; the member stays out and nothing goes to
# spine3 until it answers again
neigh_hold() {
	local how=$1 wait_failed=$2 ms st cap d n i act
	spine3_arp 8
	if [ "$how" = del ]; then
		act=(ip -n "$(ns leaf1)" neigh del "$(gw 3)" dev up3)
	else
		act=(ip -n "$(ns leaf1)" neigh flush dev up3)
	fi
	ms=$(ft wait-member up3 out now 10 "${act[@]}")
	t_check $? "neigh/$how: spine3's entry gone -> member out of the map in $ms ms" "$ms"
	settle
	t_cap_start cap "$(ns spine3)" leaf1 "$T_TMP/neigh-$how.pcap" "udp dst port 4791 and dst host $DST" ||
		t_fail "neigh: tcpdump on spine3"
	ft snap "$T_TMP/neigh-$how-a"
	if [ "$wait_failed" = 1 ]; then
		# unanswered: INCOMPLETE, then FAILED after the kernel's probes
		for i in $(seq 80); do [ "$(neigh_state)" = FAILED ] && break; sleep 0.1; done
		st=$(neigh_state)
		[ "$st" = FAILED ]
		t_check $? "neigh/$how: unanswered, the kernel's entry went FAILED (${i}00 ms; state '$st')"
	else
		sleep 1
		st=$(neigh_state)
	fi
	ms=$(ft wait-member up3 out now 0)
	t_check $? "neigh/$how: member still held out while '$st'" "$ms"
	ft until-fwd "$T_TMP/neigh-$how-a" "$T_TMP/neigh-$how-b" 2000 10
	t_cap_stop "$cap"
	d=$(ft delta "$T_TMP/neigh-$how-a" "$T_TMP/neigh-$how-b")
	n=$(pcap_count "$T_TMP/neigh-$how.pcap")
	uplinks "$d" 'd["rd"][2] == 0 and all(d["rd"][i] > 0 for i in (0, 1, 3))' && [ "$n" = 0 ]
	t_check $? "neigh/$how: while unresolved rocedp sent 0 on up3 and spine3 got $n RoCE frames; up1,2,4 carried the traffic ($d)" "$d"
	ms=$(ft wait-member up3 in,carry now 10 ip netns exec "$(ns spine3)" sysctl -qw net.ipv4.conf.leaf1.arp_ignore=0)
	t_check $? "neigh/$how: spine3 answers again -> re-resolved, member back and up3 carrying traffic (ms: $ms)" "$ms"
	echo "# neigh/$how: recovery after spine3 answers again: member back, up3 carrying (ms): $ms"
}

fault_neigh() {
	local real bogus=02:fa:11:ed:00:03 ms cap n tx l1ip l1mac
	real=$(ip -n "$(ns spine3)" -j link show dev leaf1 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
	t_cleanup "ip netns exec $(ns spine3) sysctl -qw net.ipv4.conf.leaf1.arp_ignore=0"
	# spine3 must not ask for leaf1's MAC meanwhile: leaf1's kernel enters
	# the sender of an ARP request as STALE, a usable entry, and the
	# member would come back while spine3 is meant to be unreachable. The
	# ACKs spine3 forwards to leaf1 make it probe when its own entry ages,
	# which a busy machine's longer windows reach: that entry is
	# permanent for this fault.
	l1ip=$(ip -n "$(ns leaf1)" -j -4 addr show dev up3 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["addr_info"][0]["local"])')
	l1mac=$(ip -n "$(ns leaf1)" -j link show dev up3 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])')
	ip -n "$(ns spine3)" neigh replace "$l1ip" lladdr "$l1mac" dev leaf1 nud permanent
	t_check $? "neigh: spine3's entry for leaf1 ($l1ip $l1mac) held, so spine3 sends it no ARP"
	traffic_start neigh
	neigh_hold del 1
	neigh_hold flush 0
	# the gateway's MAC changes: the member follows (frames to spine3 now
	# carry that MAC, which spine3 drops as not its own), and back
	ms=$(ft wait-member up3 "dmac=$bogus" now 10 ip -n "$(ns leaf1)" neigh replace "$(gw 3)" lladdr $bogus dev up3 nud permanent)
	t_check $? "neigh/lladdr: replaced lladdr -> member's destination MAC follows in $ms ms" "$ms"
	t_cap_start cap "$(ns spine3)" leaf1 "$T_TMP/neigh-bogus.pcap" "udp dst port 4791 and dst host $DST" ||
		t_fail "neigh: tcpdump on spine3"
	tx=$(ft wait-tx up3 0.3 100 10)
	t_cap_stop "$cap"
	n=$(mac_count "$T_TMP/neigh-bogus.pcap" $bogus)/$(mac_count "$T_TMP/neigh-bogus.pcap" "$real")
	[ "${n%/*}" -gt 0 ] && [ "${n#*/}" = 0 ]
	t_check $? "neigh/lladdr: frames to spine3 carry the new MAC (new/old: $n while rocedp sent $tx on up3)"
	t_cap_start cap "$(ns spine3)" leaf1 "$T_TMP/neigh-mac.pcap" "udp dst port 4791 and dst host $DST" ||
		t_fail "neigh: tcpdump on spine3"
	ms=$(ft wait-member up3 "dmac=$real" now 10 ip -n "$(ns leaf1)" neigh replace "$(gw 3)" lladdr "$real" dev up3 nud reachable)
	t_check $? "neigh/lladdr: replaced back -> member's destination MAC is spine3's again in $ms ms" "$ms"
	tx=$(ft wait-tx up3 0.5 100 10)
	t_cap_stop "$cap"
	n=$(mac_count "$T_TMP/neigh-mac.pcap" "$real")
	[ "$n" -gt 0 ]
	t_check $? "neigh/lladdr: spine3 receives RoCE frames to its own MAC again ($n while rocedp sent $tx on up3)"
	still_running neigh
	traffic_end neigh "neigh"
	ip -n "$(ns spine3)" neigh replace "$l1ip" lladdr "$l1mac" dev leaf1 nud reachable
}

# ---------------------------------------------------------------- d) flowlet table full
# ingress_progs: the program id on every leaf1 port (XDP or tc ingress),
# empty if any port has none
ingress_progs() {
	local dev id out=""
	for dev in host1 $(seq -f up%g $SPINES); do
		if [ "$MODE" = tc ]; then
			id=$(ip netns exec "$(ns leaf1)" tc -j filter show dev "$dev" ingress |
				$PY -c 'import json,sys; print(*[f["options"]["prog"]["id"] for f in json.load(sys.stdin) if "prog" in f.get("options", {})])')
		else
			id=$(ip -n "$(ns leaf1)" -j link show dev "$dev" |
				$PY -c 'import json,sys; print(json.load(sys.stdin)[0]["xdp"]["prog"]["id"])' 2>/dev/null)
		fi
		[ -n "$id" ] || return 0
		out="$out$dev:$id "
	done
	echo "${out% }"
}

fault_flowlet() {
	local k runs=17 qps=4096 b live n prog0 prog1 d why rc ok=0
	rocedp_set leaf1 config set hash.mode=flowlet features=forward,remark,ecn,flowlet >"$T_TMP/fl.cfg" 2>&1
	t_check $? "flowlet: hash.mode=flowlet, feature flowlet on" "$(cat "$T_TMP/fl.cfg")"
	prog0=$(ingress_progs)
	lab_exec leaf1 "$ROCEDP" -j stats >"$T_TMP/fl-0.json"
	# 17 runs x 4096 QPs, distinct QP numbers: 69632 flows, one message each.
	# One responder per run: a rocegen responder holds at most 8192 QPs
	for k in $(seq $runs); do
		b=$((0x1000 + k * 0x2000))
		t_serve srv "fl-$k" "$(ns h2-1)" eth0
		ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst $DST --qps $qps --msg 64 --count 1 \
			--rate 200 --rto 1000000 --retries 3 --qpn-base $b -j >"$T_TMP/fl-$k.send" 2>"$T_TMP/fl-$k.err" ||
			{ ok=1; echo "# flowlet run $k: rocegen send exit $?: $(head -c 200 "$T_TMP/fl-$k.err")"; }
		kill -TERM "$srv"
		wait "$srv"
	done
	lab_exec leaf1 "$ROCEDP" -j stats >"$T_TMP/fl-1.json"
	live=$(lab_exec leaf1 "$ROCEDP" -j flows --limit 1000000 | $PY -c 'import json,sys; print(len(json.load(sys.stdin)))')
	why=$($PY "$T_TOP/selftests/faults.py" flowlet_runs "$T_TMP" $runs)
	rc=$?
	t_check $ok "flowlet: $runs x $qps QPs sent, every rocegen run completed"
	t_check $rc "flowlet: nothing lost with more flows than the table holds ($why)" "$why"
	n=$($PY "$T_TOP/selftests/faults.py" flow_counts "$T_TMP/fl-0.json" "$T_TMP/fl-1.json" "$live")
	echo "# flowlet: $n"
	uplinks "$n" 'd["flows_new"] >= 69632 and d["live"] <= 65536 and d["evicted"] > 0'
	t_check $? "flowlet: table full, evictions visible: flows_new >= 69632, live entries <= 65536, flows_new - live > 0 ($n)" "$n"
	uplinks "$n" 'd["flowlet_reorder_risk"] == 0'
	t_check $? "flowlet: no flowlet moved within its gap (reorder risk 0)" "$n"
	prog1=$(ingress_progs)
	[ -n "$prog0" ] && [ "$prog0" = "$prog1" ]
	t_check $? "flowlet: rocedp's ingress programs are still attached, the same ones ($prog0 -> $prog1)"
	# forwarding goes on with a full table: new flows take every uplink
	traffic_start flfwd --qpn-base 0x300000
	ft window "$T_TMP/fl-fwd-a" "$T_TMP/fl-fwd-b" 1 2000 10
	d=$(ft delta "$T_TMP/fl-fwd-a" "$T_TMP/fl-fwd-b")
	uplinks "$d" 'all(x > 0 for x in d["rd"])'
	t_check $? "flowlet: with the table full, new traffic is forwarded on all 4 uplinks ($d)" "$d"
	traffic_end flfwd "flowlet: after the table filled"
	rocedp_set leaf1 config set hash.mode=qp features=forward,remark,ecn >/dev/null 2>&1
}

# ---------------------------------------------------------------- e) sync killed
fault_sync_kill() {
	local pidf=/run/rocedp-lab/$T_LAB_PREFIX/leaf1.sync.pid pid t0 ms d cap n
	traffic_start kill
	pid=$(cat "$pidf")
	kill -9 "$pid"
	for _ in $(seq 50); do # gone, or a zombie its reaper has not collected
		case $(ps -o stat= -p "$pid") in "" | Z*) break ;; esac
		sleep 0.02
	done
	case $(ps -o stat= -p "$pid") in "" | Z*) true ;; *) false ;; esac
	t_check $? "sync-kill: rocedp sync (pid $pid) killed with SIGKILL"
	leaf_route_replace 1 2 3
	ip -n "$(ns leaf1)" route add 10.77.0.0/16 nexthop via "$(gw 4)" dev up4 nexthop via "$(gw 1)" dev up1
	ft window "$T_TMP/kill-a" "$T_TMP/kill-b" 0.5 2000 10
	d=$(ft delta "$T_TMP/kill-a" "$T_TMP/kill-b")
	uplinks "$d" 'all(x > 0 for x in d["rd"])'
	t_check $? "sync-kill: while no daemon runs the dataplane forwards with the last state, 4 uplinks ($d)" "$d"
	! ft fib-check >/dev/null
	t_check $? "sync-kill: the route change made meanwhile is not in the maps yet"
	t0=$(now_ns)
	lab sync start leaf1 >"$T_TMP/kill.start" 2>&1
	t_check $? "sync-kill: rocedp sync restarts" "$(cat "$T_TMP/kill.start")"
	ms=$(ft wait-fib "$t0" 10)
	t_check $? "sync-kill: restarted sync picked the change up: maps == kernel $ms ms after the restart" "$ms"
	echo "# sync-kill: recovery (restart -> maps == kernel): $ms ms"
	settle
	t_cap_start cap "$(ns spine4)" leaf1 "$T_TMP/kill-spine4.pcap" "udp dst port 4791 and dst host $DST" ||
		t_fail "sync-kill: tcpdump on spine4"
	ft window "$T_TMP/kill-c" "$T_TMP/kill-d" 1 2000 10
	t_cap_stop "$cap"
	d=$(ft delta "$T_TMP/kill-c" "$T_TMP/kill-d")
	n=$(pcap_count "$T_TMP/kill-spine4.pcap")
	uplinks "$d" 'd["rd"][3] == 0 and all(x > 0 for x in d["rd"][:3])' && [ "$n" = 0 ]
	t_check $? "sync-kill: after the restart nothing goes to spine4 ($n RoCE frames there; rocedp $d)" "$d"
	still_running sync-kill
	traffic_end kill "sync-kill"
	ip -n "$(ns leaf1)" route del 10.77.0.0/16
	leaf_route_replace 1 2 3 4
	ms=$(ft wait-fib "$(now_ns)" 10)
	t_check $? "sync-kill: cleanup, maps == kernel (${ms} ms)" "$ms"
}

# ---------------------------------------------------------------- main
t_cleanup "$LAB down --prefix $T_LAB_PREFIX"
if ! lab up --leaves 2 --spines $SPINES --hosts 1 --mode "$MODE" >"$T_TMP/lab.out" 2>&1; then
	t_fail "$MODE: fabric up (2 leaves x $SPINES spines, rocedp + sync)" "$(tail -n3 "$T_TMP/lab.out")"
	t_done
	exit 1
fi
t_ok "$MODE: fabric up (2 leaves x $SPINES spines, rocedp + sync), prefix $T_LAB_PREFIX"
out=$(ft fib-check)
t_check $? "leaf1: maps equal the kernel's tables after the first sync ($out)" "$out"

for f in ${FAULTS:-churn flap neigh flowlet sync_kill}; do
	"fault_$f"
done
t_done
