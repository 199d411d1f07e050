#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Failover under traffic on the FRR fabric, rocedp against the kernel
# (docs/frr.md, "Failover under traffic").
#
# rocedp-lab up --bgp: 2 leaves x 4 spines, FRR (1 s / 3 s timers). RoCE
# WRITEs (rocegen, 64 QPs, 4 KiB, paced at 100 Mbit/s) flow h1-1 -> h2-1
# while one event hits spine1's path:
#   linkdown   leaf1's up1 goes down
#   bgpkill    spine1's bgpd is SIGKILLed (the session closes, FRR withdraws)
#   bgpstop    spine1's bgpd is SIGSTOPped (only the 3 s hold timer notices)
#   spineback  spine1's bgpd starts again (after bgpkill)
#   flap       `clear ip bgp *` on leaf1: every route withdrawn and relearnt
# Per event: frames lost (sent - received at the responder), frames that
# reached spine1 from leaf1 after leaf1's kernel route had dropped that
# member ("to dead", tcpdump at spine1's ingress, so the same count for
# rocedp's XDP redirects and the kernel's forwarding), out-of-order frames
# at the responder, misforwarded frames (RoCE for h2-1 arriving at a spine
# from leaf2: a loop), the time until leaf1's kernel route changed
# ("known") and the time to recovery: from the event to the end of the
# last 20 ms window in which h2-1 received less than 70% of the rate it
# had before the event. Once with rocedp (native XDP + sync) and once with
# the kernel alone (--no-rocedp), same fabric, same events. Both leaves and
# spines hash on L4 (fib_multipath_hash_policy=1) so the kernel spreads the
# QPs too; otherwise it would put all of them on one uplink.
#
# Usage: tests/harness/bench/failover.sh [-j FILE] [--modes "rocedp kernel"]
#        [--events "linkdown bgpkill spineback bgpstop flap"] [--bgp numbered|unnumbered]
# Environment: ROCEDP, ROCEGEN (build/...), PREFIX (lab prefix, fo), PY.
set -u

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
LAB=$TOP/tools/lab/rocedp-lab
PY=${PY:-/usr/bin/python3}
export ROCEDP=${ROCEDP:-$TOP/build/rocedp} ROCEGEN=${ROCEGEN:-$TOP/build/rocegen}
PREFIX=${PREFIX:-fo}
MODES="rocedp kernel"
EVENTS="linkdown bgpkill spineback bgpstop flap"
BGP=numbered
JOUT=
SECS=${FAILOVER_SECONDS:-6}
while [ $# -gt 0 ]; do
	case $1 in
	-j) JOUT=$2; shift ;;
	--modes) MODES=$2; shift ;;
	--events) EVENTS=$2; shift ;;
	--bgp) BGP=$2; shift ;;
	*) echo "failover: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -x /usr/lib/frr/bgpd ] || { echo "failover: frr is not installed" >&2; exit 3; }
TMP=$(mktemp -d /tmp/failover.XXXXXX)
DST=10.2.1.2
PIDS=()

lab() { "$LAB" "$1" --prefix "$PREFIX" "${@:2}"; }
lx() { "$LAB" exec --prefix "$PREFIX" "$@"; }
ns() { echo "$PREFIX-$1"; }
now() { date +%s%N; }
log() { echo "failover: $*" >&2; }
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	lab down >/dev/null 2>&1
	[ -n "${KEEP:-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT

paths() { # paths LEAF PREFIX: next hops of the kernel's route (0: none)
	ip -n "$(ns "$1")" -j route show "$2" | $PY -c 'import json,sys
r = json.load(sys.stdin)
print(len(r[0].get("nexthops") or [r[0]]) if r else 0)'
}
# wait_paths LEAF PREFIX N SECONDS: prints the time (ns) it became so;
# N = !K: until it is not K
wait_paths() {
	local end=$(($(now) + $4 * 1000000000)) p
	while p=$(paths "$1" "$2"); if [ "${3#!}" != "$3" ]; then [ "$p" = "${3#!}" ]; else [ "$p" != "$3" ]; fi; do
		[ "$(now)" -gt $end ] && return 1
		sleep 0.01
	done
	now
}
zpaths() { # zebra holds PREFIX installed with N paths
	lx "$1" vtysh -c "show ip route $2 json" | $PY -c 'import json,sys
r = [e for e in json.load(sys.stdin).get(sys.argv[1], []) if e.get("installed")]
sys.exit(not r or sum(bool(h.get("fib")) for h in r[0]["nexthops"]) != int(sys.argv[2]))' "$2" "$3"
}
# healthy: 4 paths both ways, zebra and the kernel agreeing (FRR 8.4's stale
# group repaired: docs/frr.md, Trap 1)
healthy() {
	
	for _ in $(seq 150); do
		zpaths leaf1 10.2.1.0/24 4 && zpaths leaf2 10.1.1.0/24 4 && break
		sleep 0.1
	done
	if [ "$(paths leaf1 10.2.1.0/24)" != 4 ] || [ "$(paths leaf2 10.1.1.0/24)" != 4 ]; then
		lab frr-repair >/dev/null 2>&1
	fi
	wait_paths leaf1 10.2.1.0/24 4 5 >/dev/null && wait_paths leaf2 10.1.1.0/24 4 5 >/dev/null
}
up1_rd_tx() { # rocedp's tx frames on leaf1's up1 (- without rocedp)
	[ "$1" = rocedp ] || { echo -; return; }
	lx leaf1 "$ROCEDP" -j stats 2>/dev/null | $PY -c 'import json,sys
print(sum(x["tx_pkts"] for x in json.load(sys.stdin)["ports"] if x.get("name") == "up1"))' 2>/dev/null || echo -
}

# run_event MODE EVENT: one traffic run around one event; appends a JSON row
run_event() {
	local mode=$1 ev=$2 count t0 tk=0 srv snd tds=() s rd0 rd1 rc
	local base=$TMP/$mode-$ev
	count=$((SECS * 100000000 / 8 / (64 * 4096)))
	rm -f "$TMP/ready"
	ip netns exec "$(ns h2-1)" "$ROCEGEN" serve --dev eth0 --ready "$TMP/ready" -j \
		>"$base.serve" 2>"$base.serve.err" &
	srv=$!
	PIDS+=("$srv")
	for _ in $(seq 100); do [ -e "$TMP/ready" ] && break; sleep 0.05; done
	# every frame h1-1 sends and h2-1 receives: which ones were lost, when
	ip netns exec "$(ns h1-1)" tcpdump -n -s 64 -Q out -i eth0 -w "$base.tx.pcap" \
		"udp dst port 4791 and dst host $DST" 2>/dev/null &
	tds+=($!)
	ip netns exec "$(ns h2-1)" tcpdump -n -s 64 -Q in -i eth0 -w "$base.rx.pcap" \
		"udp dst port 4791 and dst host $DST" 2>/dev/null &
	tds+=($!)
	PIDS+=("${tds[@]}")
	# spine S's ingress from leaf1 (S=1: the dead member) and from leaf2 (a loop)
	for s in 1 2 3 4; do
		for l in 1 2; do
			[ $l = 1 ] && [ $s != 1 ] && continue
			ip netns exec "$(ns spine$s)" tcpdump -l -n -tt -Q in -i leaf$l \
				"udp dst port 4791 and dst host $DST" >"$base.s$s-l$l" 2>/dev/null &
			tds+=($!)
			PIDS+=($!)
		done
	done
	sleep 0.3
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst $DST --qps 64 --msg 4K --count "$count" \
		--rate 100 --rto 200000 --retries 40 --timeout 30 -j >"$base.send" 2>"$base.send.err" &
	snd=$!
	PIDS+=("$snd")
	sleep 1.5
	t0=$(now)
	case $ev in
	linkdown) lx leaf1 ip link set up1 down ;;
	bgpkill) kill -9 "$(cat "/run/rocedp-lab/$PREFIX/frr/spine1/bgpd.pid")" ;;
	bgpstop) kill -STOP "$(cat "/run/rocedp-lab/$PREFIX/frr/spine1/bgpd.pid")" ;;
	spineback) lab frr start spine1 bgpd >/dev/null 2>&1 ;;
	flap) lx leaf1 vtysh -c 'clear ip bgp *' >/dev/null ;;
	esac
	case $ev in
	linkdown | bgpkill | bgpstop) tk=$(wait_paths leaf1 10.2.1.0/24 3 10) || tk=0 ;;
	spineback) tk=$(wait_paths leaf1 10.2.1.0/24 4 20) || tk=0 ;;
	flap)
		# withdrawn, then 4 paths again: "known" is the route's return
		wait_paths leaf1 10.2.1.0/24 '!4' 5 >/dev/null
		tk=$(wait_paths leaf1 10.2.1.0/24 4 20) || tk=0
		;;
	esac
	rd0=$(up1_rd_tx "$mode")
	wait $snd
	rc=$?
	rd1=$(up1_rd_tx "$mode")
	kill -TERM $srv "${tds[@]}" 2>/dev/null
	wait $srv "${tds[@]}" 2>/dev/null
	$PY "$TOP/tests/harness/bench/failover.py" row "$base" "$mode" "$ev" "$t0" "$tk" "$rc" "$rd0" "$rd1" >>"$TMP/rows.jsonl"
	tail -n1 "$TMP/rows.jsonl" >&2
	# restore
	case $ev in
	linkdown) lx leaf1 ip link set up1 up ;;
	bgpstop)
		kill -CONT "$(cat "/run/rocedp-lab/$PREFIX/frr/spine1/bgpd.pid")"
		;;
	esac
	[ "$ev" = bgpkill ] && return 0 # spineback follows
	healthy || log "$mode/$ev: the fabric did not return to 4 paths"
}

: >"$TMP/rows.jsonl"
for mode in $MODES; do
	args=(--bgp="$BGP" --spines 4 --hosts 1)
	[ "$mode" = kernel ] && args+=(--no-rocedp)
	log "$mode: lab up ${args[*]}"
	lab up "${args[@]}" >"$TMP/$mode.up" 2>&1 || { log "lab up failed: $(tail -n3 "$TMP/$mode.up")"; exit 1; }
	for n in leaf1 leaf2 spine1 spine2 spine3 spine4; do
		ip netns exec "$(ns $n)" sysctl -qw net.ipv4.fib_multipath_hash_policy=1
	done
	healthy || log "$mode: not converged to 4 paths"
	for ev in $EVENTS; do
		# spineback needs spine1's bgpd dead
		if [ "$ev" = spineback ] && kill -0 "$(cat "/run/rocedp-lab/$PREFIX/frr/spine1/bgpd.pid" 2>/dev/null)" 2>/dev/null; then
			kill -9 "$(cat "/run/rocedp-lab/$PREFIX/frr/spine1/bgpd.pid")"
			wait_paths leaf1 10.2.1.0/24 3 10 >/dev/null
			sleep 1
		fi
		log "$mode: $ev"
		run_event "$mode" "$ev"
	done
	lab down >/dev/null 2>&1
done

$PY - "$TMP/rows.jsonl" "$BGP" <<'EOF' >"$TMP/out.json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(json.dumps({"bgp": sys.argv[2], "qps": 64, "rate_mbps": 100, "rows": rows}))
EOF
[ -n "$JOUT" ] && cp "$TMP/out.json" "$JOUT"
$PY "$TOP/tests/harness/bench/failover_table.py" "$TMP/out.json"
