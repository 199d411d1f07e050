#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lifecycle under traffic.
#
#   sender netns --s0/r0-- router netns (rocedp) --r1/d0-- receiver netns
#
# The router forwards ONLY through rocedp: the kernel's ip_forward is off, so
# a frame that rocedp handed to the kernel would be lost and show up as a
# missing frame at the receiver. Routes with gateways are mirrored into the
# maps by `rocedp sync --daemon` running in the router netns (plain `ip
# netns exec`: the pins live in the router netns's own directory,
# /sys/fs/bpf/rocedp-netns/<netns cookie>, docs/netns.md).
# rocegen sends RoCEv2 RDMA WRITEs 10.71.8.2 -> 10.71.9.2 and its responder
# acknowledges them back through the router; "nothing lost" means every
# frame the sender put on the wire (retransmissions included) reached the
# responder, in order, none retransmitted, every message acknowledged.
#
# Per mode (native XDP, then tc):
#  1. kill -9 of the sync daemon during traffic: nothing lost; a route added
#     while no daemon runs appears once it restarts; the entries that did not
#     change are byte-identical (a restart writes only the differences);
#  2. upgrade during traffic (`rocedp attach` again, twice): the programs
#     are replaced (new ids on the same link / tc filter, old ids gone), the
#     pinned maps are reused (same map ids), every counter of `stats -j` is
#     monotonic across the upgrade, nothing lost; the sync daemon, which
#     kept running, gives a port it adds afterwards a devmap entry, and no
#     devmap entry carries a program (XDP marks ECN at ingress);
#  3. detach: the running sync daemon stopped and its lock file gone (a
#     daemon whose pins were removed under it stops by itself, an upgrade
#     does not stop it); no pins, none of our programs or maps left in the kernel, no
#     XDP on the links, no clsact qdisc rocedp added (an operator's clsact
#     that existed before attach stays), no attachment record.
#
# Usage: selftests/lifecycle.sh [native|tc|generic ...]  (root; default: native tc)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(native tc)

t_require ethtool bpftool tc ip

NS_S=lc_s$$
NS_R=lc_r$$
NS_D=lc_d$$
PIN= # the router's pin directory, set once its netns exists (router_pin)
SYNC_PID=$T_TMP/sync.pid
# traffic: 4 QPs x 64 KiB messages at RATE Mbit/s, unbounded: the sender
# runs until send_finish (SIGUSR1: rocegen completes the messages it began
# and stops), so it outlasts a kill + restart or two upgrades however long
# a program load takes on a busy machine. MINMSG: the fewest messages a run
# must complete (about 1 s of traffic at RATE). A QP gives up only after
# 30 retransmit timeouts in a row: with the CPU hogged, 7 (3.5 s without
# progress) failed QPs whose frames all arrived
RATE=60
MINMSG=100

in_s() { ip netns exec "$NS_S" "$@"; }
in_d() { ip netns exec "$NS_D" "$@"; }
# the router: plain `ip netns exec`, no environment
in_r() { ip netns exec "$NS_R" "$@"; }
# router_pin: PIN, where rocedp in the router netns pins by itself
router_pin() {
	local c
	c=$(t_netns_cookie "$NS_R") && [ -n "$c" ] && PIN=/sys/fs/bpf/rocedp-netns/$c
}
rd() { in_r "$ROCEDP" "$@"; }

# running PID: alive and not a zombie (a daemon restarted by this script
# is its child until reaped)
running() { ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }
stopped() { ! running "$1"; }

sync_kill() {
	[ -s "$SYNC_PID" ] && kill "-${1:-TERM}" "$(cat "$SYNC_PID")" 2>/dev/null
	rm -f "$SYNC_PID"
}

teardown() {
	local n p
	sync_kill TERM
	[ -e "/run/netns/$NS_R" ] && rd detach --all
	for n in "$NS_S" "$NS_R" "$NS_D"; do
		# whatever still runs in our namespaces was started by this test
		for p in $(ip netns pids "$n" 2>/dev/null); do kill "$p"; done
		ip netns del "$n" 2>/dev/null
	done
	[ -n "$PIN" ] && rm -rf "$PIN"
	PIN=
}
t_cleanup teardown

lab_up() {
	local n
	for n in "$NS_S" "$NS_R" "$NS_D"; do
		ip netns add "$n" || return 1
		ip -n "$n" link set lo up
	done
	router_pin || return 1
	# r2/d1: a second port to the receiver that no route uses until the
	# upgrade phase adds one (sync must give it a devmap entry)
	ip -n "$NS_R" link add r0 type veth peer name s0 netns "$NS_S" &&
		ip -n "$NS_R" link add r1 type veth peer name d0 netns "$NS_D" &&
		ip -n "$NS_R" link add r2 type veth peer name d1 netns "$NS_D" ||
		return 1
	ip -n "$NS_S" addr add 10.71.1.2/24 dev s0
	ip -n "$NS_S" addr add 10.71.8.2/32 dev lo
	ip -n "$NS_R" addr add 10.71.1.1/24 dev r0
	ip -n "$NS_R" addr add 10.71.2.1/24 dev r1
	ip -n "$NS_D" addr add 10.71.2.2/24 dev d0
	ip -n "$NS_R" addr add 10.71.3.1/24 dev r2
	ip -n "$NS_D" addr add 10.71.3.2/24 dev d1
	ip -n "$NS_D" addr add 10.71.9.2/32 dev lo
	for n in "$NS_S:s0" "$NS_R:r0" "$NS_R:r1" "$NS_R:r2" "$NS_D:d0" "$NS_D:d1"; do
		ip netns exec "${n%%:*}" sysctl -qw "net.ipv6.conf.${n#*:}.disable_ipv6=1"
		ip -n "${n%%:*}" link set "${n#*:}" up
	done
	# XDP redirect into a veth needs NAPI on its peer: GRO on
	in_s ethtool -K s0 gro on >/dev/null
	in_d ethtool -K d0 gro on >/dev/null
	in_d ethtool -K d1 gro on >/dev/null
	ip -n "$NS_S" route add default via 10.71.1.1
	ip -n "$NS_D" route add default via 10.71.2.1
	ip -n "$NS_R" route add 10.71.8.0/24 via 10.71.1.2 dev r0
	ip -n "$NS_R" route add 10.71.9.0/24 via 10.71.2.2 dev r1
	# only rocedp forwards: a frame it passes to the kernel is lost
	ip netns exec "$NS_R" sysctl -qw net.ipv4.ip_forward=0
}

sync_start() {
	rm -f "$SYNC_PID"
	rd sync --daemon --pid-file "$SYNC_PID" >>"$T_TMP/sync.out" 2>&1 || return 1
	for _ in $(seq 50); do [ -s "$SYNC_PID" ] && return 0; sleep 0.05; done
	return 1
}

# route4 PREFIX: the rd_routes4 entry of PREFIX as "group_id flags", or ""
route4() {
	bpftool -j map dump pinned "$PIN/rd_routes4" 2>/dev/null | $PY "$T_TOP/selftests/lifecycle.py" route4 "$1"
}

# members_resolved: every member of every group is UP and RESOLVED (sync
# resolves the gateways itself); waits up to 3 s
members_resolved() {
	for _ in $(seq 60); do
		rd -j stats 2>/dev/null | $PY -c '
import json, sys
g = json.load(sys.stdin).get("groups", [])
sys.exit(0 if g and all(m["flags"] & 3 == 3 for x in g for m in x["members"]) else 1)' && return 0
		sleep 0.05
	done
	return 1
}

# wait_route PREFIX: until sync has put PREFIX into rd_routes4 (2 s at most)
wait_route() {
	for _ in $(seq 40); do [ -n "$(route4 "$1")" ] && return 0; sleep 0.05; done
	return 1
}

serve_start() { t_serve srv "$1" "$NS_D" d0; }
serve_stop() {
	sleep 0.3 # the last ACKs
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
}
send_bg() { # NAME
	T_BG_OUT=$T_TMP/$1.send T_BG_ERR=$T_TMP/$1.send.err \
		t_bg sender ip netns exec "$NS_S" "$ROCEGEN" send --dev s0 \
		--src 10.71.8.2 --dst 10.71.9.2 --qps 4 --msg 64K --count 1000000 \
		--rate $RATE --rto 500000 --retries 30 --timeout 600 -j
}
# send_finish: end the measurement window; the sender completes the
# messages it began, then exits; its exit code in $rc
send_finish() {
	kill -USR1 "$sender" 2>/dev/null
	wait "$sender"
	rc=$?
}

# delivered NAME DESC: nothing lost in either direction. Forward: every
# frame the sender put on the wire (retransmissions included) arrived at the
# responder (in order, or as a duplicate of a retransmission; a gap would be
# counted out of sequence). Reverse: every ACK/NAK the responder sent
# arrived at the sender. Every message completed.
delivered() {
	local why
	why=$($PY "$T_TOP/selftests/rocegen_verdict.py" "$T_TMP/$1.send" \
		"$T_TMP/$1.serve" --min-messages "$MINMSG" --strict)
	t_check $? "$2 ($why)" "$why"
}

# flowing: the sender still runs and rocedp's forwarded counter moves:
# polled until it does (every 50 ms, 10 s at most), so a busy machine that
# stalls the sender for a while does not read as no traffic; the reason in
# $flow
flowing() {
	local a b i
	a=$(forwarded)
	for i in $(seq 200); do
		sleep 0.05
		b=$(forwarded)
		[ "$b" -gt "$a" ] && break
	done
	flow="forwarded_packets $a -> $b within $((i * 50)) ms"
	kill -0 "$sender" 2>/dev/null || { flow="$flow; the sender already finished"; return 1; }
	[ "$b" -gt "$a" ]
}

# txport_prog IFINDEX: program id in rd_tx_ports[IFINDEX], or ""
txport_prog() {
	bpftool -j map lookup pinned "$PIN/rd_tx_ports" key $(printf '%d %d %d %d' $(($1 & 255)) $(($1 >> 8 & 255)) 0 0) 2>/dev/null | $PY -c '
import json, sys
v = json.load(sys.stdin)["value"]
print(int.from_bytes(bytes(int(x, 16) for x in v[4:8]), "little"))' 2>/dev/null
}

# forwarded: rocedp's forwarded_packets counter
forwarded() { rd -j stats 2>/dev/null | $PY -c 'import json,sys; print(json.load(sys.stdin)["counters"]["forwarded_packets"])' 2>/dev/null || echo 0; }

# prog_ids: the ids of the programs on r0 and r1 (XDP or tc ingress+egress)
prog_ids() {
	local dev
	for dev in r0 r1; do
		if [ "$mode" = tc ]; then
			for dir in ingress egress; do
				in_r tc -j filter show dev $dev $dir | $PY -c '
import json, sys
print(" ".join(str(f["options"]["prog"]["id"]) for f in json.load(sys.stdin) if f.get("options", {}).get("prog")))'
			done
		else
			ip -n "$NS_R" -j -d link show dev $dev | $PY -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp", {})
print(x.get("prog", {}).get("id", x.get("attached", [{}])[0].get("prog", {}).get("id", "")))'
		fi
	done | xargs
}
map_ids() {
	local f
	for f in "$PIN"/rd_*; do
		bpftool -j map show pinned "$f" | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])'
	done | xargs
}
ids_gone() { # prog|map IDS...: every id is gone from the kernel
	local kind=$1 id left=
	shift
	for id in "$@"; do
		bpftool $kind show id "$id" >/dev/null 2>&1 && left="$left $id"
	done
	[ -z "$left" ] || { echo "still loaded:$left"; return 1; }
}

# monotonic A B: every counter in `stats -j` snapshot B >= A
monotonic() {
	$PY "$T_TOP/selftests/lifecycle.py" monotonic "$1" "$2"
}

phase_sync_kill() {
	local why newgrp grp9 f0 f1
	bpftool -j map dump pinned "$PIN/rd_groups" >"$T_TMP/groups.before" 2>&1
	route4 10.71.9.0/24 >"$T_TMP/r9.before"
	serve_start "$mode-kill" || { t_fail "$mode/kill: responder starts"; return; }
	send_bg "$mode-kill"
	sleep 1.2
	flowing
	t_check $? "$mode/kill: traffic flowing before the kill ($flow)" "$flow"
	f0=$(forwarded)
	sync_kill KILL
	sleep 0.2
	# while no daemon runs: a new route in the kernel, and traffic goes on
	ip -n "$NS_R" route add 10.71.10.0/24 via 10.71.2.2 dev r1
	sleep 0.8
	f1=$(forwarded)
	[ "$f1" -gt "$f0" ]
	t_check $? "$mode/kill: dataplane forwards with the sync daemon killed (-9): forwarded_packets $f0 -> $f1"
	[ -z "$(route4 10.71.10.0/24)" ]
	t_check $? "$mode/kill: a route added meanwhile is not in the maps yet (no daemon)"
	sync_start
	t_check $? "$mode/kill: sync daemon restarts (--daemon) while traffic runs" "$(tail -n2 "$T_TMP/sync.out")"
	wait_route 10.71.10.0/24
	t_check $? "$mode/kill: restarted daemon resynced: 10.71.10.0/24 in rd_routes4 ($(route4 10.71.10.0/24))"
	newgrp=$(route4 10.71.10.0/24 | cut -d' ' -f1)
	grp9=$(route4 10.71.9.0/24)
	[ "$grp9" = "$(cat "$T_TMP/r9.before")" ] && [ "$newgrp" = "${grp9%% *}" ]
	t_check $? "$mode/kill: the traffic's route kept its group ($grp9) and the new route shares it ($newgrp)" \
		"before '$(cat "$T_TMP/r9.before")', after '$grp9', new '$newgrp'"
	bpftool -j map dump pinned "$PIN/rd_groups" >"$T_TMP/groups.after" 2>&1
	cmp -s "$T_TMP/groups.before" "$T_TMP/groups.after"
	t_check $? "$mode/kill: rd_groups byte-identical across the restart (writes only the differences)"
	flowing
	t_check $? "$mode/kill: traffic still flowing after the restart ($flow)" "$flow"
	send_finish
	why=$rc
	serve_stop
	[ $why = 0 ] || t_fail "$mode/kill: rocegen send exits 0" "rc $why: $(head -c 300 "$T_TMP/$mode-kill.send.err")"
	delivered "$mode-kill" "$mode/kill: nothing lost across kill -9 and restart of rocedp sync"
	ip -n "$NS_R" route del 10.71.10.0/24
}

phase_upgrade() {
	local p0 p1 p2 m0 m1 rc out i
	p0=$(prog_ids)
	m0=$(map_ids)
	serve_start "$mode-upg" || { t_fail "$mode/upgrade: responder starts"; return; }
	send_bg "$mode-upg"
	sleep 1
	p1=$p0
	for i in 1 2; do
		flowing
		t_check $? "$mode/upgrade $i: traffic flowing before the upgrade ($flow)" "$flow"
		rd -j stats >"$T_TMP/$mode-upg-$i.a" 2>&1
		rd attach r0 r1 --mode "$mode" >"$T_TMP/upg.out" 2>&1
		t_check $? "$mode/upgrade $i: rocedp attach r0 r1 --mode $mode again during traffic" "$(cat "$T_TMP/upg.out")"
		rd -j stats >"$T_TMP/$mode-upg-$i.b" 2>&1
		p2=$(prog_ids)
		out=$(ids_gone prog $p1)
		[ -n "$p2" ] && [ "$(echo "$p2" | wc -w)" = "$(echo "$p0" | wc -w)" ] &&
			[ -z "$(comm -12 <(echo "$p1" | tr ' ' '\n' | sort) <(echo "$p2" | tr ' ' '\n' | sort))" ] &&
			[ -z "$out" ]
		t_check $? "$mode/upgrade $i: programs replaced in place ($p1 -> $p2), the old ones unloaded" "$out"
		out=$(monotonic "$T_TMP/$mode-upg-$i.a" "$T_TMP/$mode-upg-$i.b")
		t_check $? "$mode/upgrade $i: rocedp stats -j counters monotonic across the upgrade ($out)" "$out"
		flowing
		t_check $? "$mode/upgrade $i: traffic flowing after the upgrade ($flow)" "$flow"
		p1=$p2
		sleep 0.5
	done
	m1=$(map_ids)
	[ "$m0" = "$m1" ]
	t_check $? "$mode/upgrade: pinned maps reused (same map ids)" "before $m0, after $m1"
	if [ "$mode" != tc ]; then
		n=$(bpftool -j link show | $PY -c '
import json, sys
print(sum(1 for l in json.load(sys.stdin) if l.get("type") == "xdp" and l.get("prog_id") in [int(x) for x in sys.argv[1:]]))' $p1)
		[ "$n" = 2 ]
		t_check $? "$mode/upgrade: still exactly one XDP link per interface ($n)"
	fi
	send_finish
	serve_stop
	[ $rc = 0 ] || t_fail "$mode/upgrade: rocegen send exits 0" "rc $rc: $(head -c 300 "$T_TMP/$mode-upg.send.err")"
	delivered "$mode-upg" "$mode/upgrade: nothing lost across two program upgrades"
	# the sync daemon kept running through the upgrade: a port it adds now
	# gets a devmap entry without a program
	ip -n "$NS_R" route add 10.71.11.0/24 via 10.71.3.2 dev r2
	wait_route 10.71.11.0/24
	r2=$(ip -n "$NS_R" -j link show dev r2 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["ifindex"])')
	for _ in $(seq 40); do [ -n "$(txport_prog "$r2")" ] && break; sleep 0.05; done
	out=$(txport_prog "$r2")
	[ "$out" = 0 ]
	t_check $? "$mode/upgrade: a port sync adds after the upgrade gets a devmap entry without a program (r2: prog ${out:-no entry})" \
		"rd_tx_ports[$r2]: program '${out:-no entry}'"
	out=$(bpftool -j map dump pinned "$PIN/rd_tx_ports" | $PY -c '
import json, sys
print(" ".join(str(int.from_bytes(bytes(int(x, 16) for x in e["value"][4:8]), "little")) for e in json.load(sys.stdin)))')
	[ -n "$out" ] && [ -z "$(echo "$out" | tr ' ' '\n' | grep -vx 0)" ]
	t_check $? "$mode/upgrade: no rd_tx_ports entry carries a program ($out)" "entries: $out"
	ip -n "$NS_R" route del 10.71.11.0/24
}

phase_detach() {
	local progs maps out rec q spid lock
	progs=$(prog_ids)
	maps=$(map_ids)
	rec=$(t_state_file "$NS_R")
	[ -s "$rec" ] && grep -q "^r0 " "$rec"
	t_check $? "$mode/detach: before it, the attachment record $rec lists r0" "$(ls /run/rocedp)"
	cts_id=$(bpftool -j map show pinned "$PIN/rd_cts_rules" | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])')
	# the sync daemon still runs: detach stops it, or it would write maps
	# nobody reads and keep the netns alive (its lock file names it)
	spid=$(cat "$SYNC_PID" 2>/dev/null)
	lock=$(grep -lE "^$spid( |$)" /run/rocedp/sync-*.lock 2>/dev/null | head -1)
	[ -n "$spid" ] && running "$spid" && [ -n "$lock" ]
	t_check $? "$mode/detach: before it, the sync daemon (pid $spid) runs and its lock file $lock names it" "$(ls /run/rocedp)"
	rd detach --all >"$T_TMP/detach.out" 2>&1
	t_check $? "$mode/detach: rocedp detach --all" "$(cat "$T_TMP/detach.out")"
	stopped "$spid" && [ ! -e "$lock" ]
	t_check $? "$mode/detach: the sync daemon (pid $spid) stopped before detach returned, its lock file gone" "$(ps -o pid,args -p "$spid" | tail -n +2)"
	rm -f "$SYNC_PID"
	out=$(find "$PIN" 2>/dev/null | head -5 | xargs)
	[ -z "$out" ]
	t_check $? "$mode/detach: no pins left ($PIN gone)" "left: $out"
	sleep 0.5 # programs and maps are freed after an RCU grace period
	out=$(ids_gone prog $progs)
	t_check $? "$mode/detach: none of our programs loaded (ids $progs)" "$out"
	out=$(ids_gone map $maps)
	t_check $? "$mode/detach: none of our maps left (ids $maps)" "$out"
	out=$(ip -n "$NS_R" -d link show | grep -E "xdp|prog/xdp" | head -2)
	[ -z "$out" ]
	t_check $? "$mode/detach: no XDP program on any router link" "$out"
	q=$(in_r tc qdisc show dev r0 | grep clsact)
	out=$(in_r tc filter show dev r1 ingress; in_r tc filter show dev r1 egress; in_r tc filter show dev r0 ingress 2>/dev/null)
	if [ "$mode" = tc ]; then
		[ -z "$q" ] && in_r tc qdisc show dev r1 | grep -q clsact && [ -z "$out" ]
		t_check $? "$mode/detach: the clsact rocedp added on r0 is gone, the operator's on r1 stays, no filters left" "r0: $q; filters: $out"
	else
		[ -z "$q" ] && [ -z "$(in_r tc qdisc show dev r1 | grep clsact)" ]
		t_check $? "$mode/detach: no clsact qdisc on the router links"
	fi
	out=$(ls "$rec" /run/rocedp/cts-$cts_id.names 2>/dev/null)
	[ -z "$out" ]
	t_check $? "$mode/detach: no attachment record or rule-name file left in /run/rocedp" "left: $out"
	rd status >"$T_TMP/status.out" 2>&1
	[ $? = 3 ] && grep -q "not loaded" "$T_TMP/status.out"
	t_check $? "$mode/detach: rocedp status says not loaded, exit 3" "$(cat "$T_TMP/status.out")"
}

for mode in "${modes[@]}"; do
	teardown >/dev/null 2>&1
	if ! lab_up >"$T_TMP/lab.out" 2>&1; then
		t_fail "$mode: lab up (3 netns)" "$(tail -n3 "$T_TMP/lab.out")"
		continue
	fi
	# tc mode: an operator's clsact on r1 exists before rocedp; it must stay
	[ "$mode" = tc ] && in_r tc qdisc add dev r1 clsact
	rd attach r0 r1 --mode "$mode" >"$T_TMP/attach.out" 2>&1
	t_check $? "$mode: rocedp attach r0 r1 --mode $mode (pins in $PIN)" "$(cat "$T_TMP/attach.out")"
	sync_start
	t_check $? "$mode: rocedp sync --daemon in the router netns" "$(tail -n2 "$T_TMP/sync.out")"
	wait_route 10.71.9.0/24 && route4 10.71.9.0/24 | grep -qv '^0 '
	t_check $? "$mode: sync mirrored 10.71.9.0/24 via the receiver into a group ($(route4 10.71.9.0/24))"
	members_resolved
	t_check $? "$mode: sync resolved both gateways (every group member UP and RESOLVED)"
	phase_sync_kill
	phase_upgrade
	phase_detach
	teardown >/dev/null 2>&1
done

# A pin left by a version whose map differs: attach names it and the way
# out, and works after detach --all.
phase_stale_pin() {
	ip netns add "$NS_R" && router_pin && ip -n "$NS_R" link add r0 type veth peer name r0p &&
		ip -n "$NS_R" link set r0 up && ip -n "$NS_R" link set r0p up &&
		mkdir -p "$PIN" &&
		bpftool map create "$PIN/rd_port_cfg" type hash key 4 value 32 \
			entries 512 name rd_port_cfg
	t_check $? "stale pin: a HASH rd_port_cfg pinned as an older version left it"
	rd attach r0 >"$T_TMP/stale.out" 2>&1
	[ $? -ne 0 ] && [ "$(wc -l <"$T_TMP/stale.out")" -eq 1 ] &&
		grep -q "rd_port_cfg: pinned by another version (hash.*wants array.*rocedp detach --all" "$T_TMP/stale.out"
	t_check $? "stale pin: attach fails with one line naming the map and the way out" "$(cat "$T_TMP/stale.out")"
	rd detach --all >/dev/null 2>&1 && rd attach r0 >"$T_TMP/stale.out" 2>&1
	t_check $? "stale pin: after detach --all, attach works" "$(cat "$T_TMP/stale.out")"
}
phase_stale_pin
teardown >/dev/null 2>&1

# Pins removed under a running sync (by hand, or by a detach that did not
# stop it): the daemon finds its maps unpinned and stops by itself within
# a few seconds, removing its lock file; an upgrade (attach again, same
# pins) does not stop it, nor a relative --pin-dir once daemon() moved to
# /; any sync removes its lock file as it stops.
phase_pins_gone() {
	local spid lock
	ip netns add "$NS_R" && router_pin && ip -n "$NS_R" link add r0 type veth peer name r0p &&
		ip -n "$NS_R" link set r0 up && ip -n "$NS_R" link set r0p up &&
		rd attach r0 >"$T_TMP/gone.out" 2>&1 && : >"$T_TMP/sync.out" && sync_start
	spid=$(cat "$SYNC_PID" 2>/dev/null)
	[ -n "$spid" ]
	t_check $? "pins gone: attach r0 and sync --daemon (pid $spid)" "$(cat "$T_TMP/gone.out")"
	rd attach r0 >"$T_TMP/gone.out" 2>&1
	t_check $? "pins gone: attach again over the same pins (an upgrade)" "$(cat "$T_TMP/gone.out")"
	sleep 2.5 # two of the daemon's once-a-second checks
	running "$spid"
	t_check $? "pins gone: the upgrade leaves the daemon (pid $spid) running" "$(tail -n2 "$T_TMP/sync.out")"
	lock=$(grep -lE "^$spid( |$)" /run/rocedp/sync-*.lock 2>/dev/null | head -1)
	kill -TERM "$spid"
	t_wait_for 5 stopped "$spid" && [ -n "$lock" ] && [ ! -e "$lock" ]
	t_check $? "pins gone: a daemon stopped by SIGTERM exits and takes its lock file ($lock) with it" "$(ls /run/rocedp)"
	# a relative --pin-dir: daemon() moves to /, the check must still
	# find the pins (nsenter keeps this mount namespace and its bpffs)
	rm -f "$SYNC_PID"
	(cd "$(dirname "$PIN")" && nsenter --net=/run/netns/"$NS_R" "$ROCEDP" sync --daemon \
		--pin-dir "$(basename "$PIN")" --pid-file "$SYNC_PID" >>"$T_TMP/sync.out" 2>&1)
	t_wait_for 3 test -s "$SYNC_PID"
	spid=$(cat "$SYNC_PID" 2>/dev/null)
	sleep 2.5
	[ -n "$spid" ] && running "$spid"
	t_check $? "pins gone: a daemon given a relative --pin-dir keeps running (pid $spid)" "$(tail -n2 "$T_TMP/sync.out")"
	lock=$(grep -lE "^$spid( |$)" /run/rocedp/sync-*.lock 2>/dev/null | head -1)
	rm -rf "$PIN"
	t_wait_for 6 stopped "$spid"
	t_check $? "pins gone: the daemon (pid $spid) stops by itself once $PIN is removed" "$(tail -n2 "$T_TMP/sync.out")"
	[ "$(grep -c "its maps are no longer pinned there (detached): stopping" "$T_TMP/sync.out")" = 1 ] &&
		[ -n "$lock" ] && [ ! -e "$lock" ]
	t_check $? "pins gone: it says why in one line and removed its lock file ($lock)" "$(tail -n2 "$T_TMP/sync.out")"
	rm -f "$SYNC_PID"
}
phase_pins_gone
teardown >/dev/null 2>&1
t_done
