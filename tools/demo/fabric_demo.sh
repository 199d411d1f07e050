#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, part 2: the same AllReduce-like ring through a live 2-leaf x
# 4-spine fabric (tools/lab/rocedp-lab, rocedp on the leaves) once per hash
# mode, and one table: how leaf1 spreads its bytes over its 4 uplinks, the
# imbalance, the collective's completion time, out-of-sequence arrivals, ECN
# marks, CNPs and ACKs that arrive remarked. Also a PNG of the shares.
#
# The ring alternates leaves (h1-1 -> h2-1 -> h1-2 -> h2-2 -> h1-1), so every
# connection crosses the spines. Each connection has QPS QPs but one UDP
# source port (--sport), the low-entropy case Meta describes: plain 5-tuple
# ECMP sees one flow per host pair. The fabric links are the bottleneck:
# each spine port is shaped (tbf) to LINK Mbit/s, below a sender's RATE, so
# a host pair pinned to one uplink runs at LINK while one spread over four
# runs at RATE; the table prints how much sooner qp and flowlet finish the
# collective than 5tuple. rocedp on the leaf uplinks ECN-marks above the
# same rate (a leaf's uplink s feeds exactly one shaped spine port), so the
# senders' DCQCN keeps the spine queues short. Both leaves' counters are
# sampled during each run (`rocedp -j stats --watch SAMPLE`), and
# tools/demo/report.py turns it all into report.html.
#
# Environment: OUT (build dir), ROCEDP, ROCEGEN, LBEVAL, DEMO_PREFIX (lab
# prefix, default "dm"), QPS, COUNT, MSG, RATE (Mbit/s per sender), LINK
# (Mbit/s per shaped spine port, 0: no shaping), ECN_RATE (Mbit/s per uplink,
# default LINK), TAU (flowlet load tau in us), MTU (every link, default
# 9000), ROUTING (bgp, the default: FRR's eBGP fabric as operators run it,
# docs/frr.md; static: the lab's static routes), CAPTURE=1 (capture what leaf1's
# hosts send and replay it through lbeval: docs/flowlet.md), LAB_ARGS (more
# `rocedp-lab up` options: --ipv6 runs the same fabric, hosts, routes and
# BGP, on IPv6), SAMPLE (seconds between the report's samples, 0.1).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$top/build}/demo
ROCEDP=$(readlink -f "${ROCEDP:-$top/build/rocedp}")
ROCEGEN=$(readlink -f "${ROCEGEN:-$top/build/rocegen}")
LBEVAL=$(readlink -f "${LBEVAL:-${OUT:-$top/build}/lbeval}")
export ROCEDP
LAB=$top/tools/lab/rocedp-lab
prefix=${DEMO_PREFIX:-dm}
SPINES=4
QPS=${QPS:-32}
COUNT=${COUNT:-4}
MSG=${MSG:-64K}
RATE=${RATE:-100}
LINK=${LINK:-50}
ECN_RATE=${ECN_RATE:-$LINK}
# The load estimate must hold several frames per port to rank ports: at
# tens of Mbit/s a port sends a frame every ~150 us, and the default tau
# (10 us, tuned for 100 Gbit/s) forgets each one before the next
# (docs/flowlet.md, "The live fabric against the evaluator").
TAU=${TAU:-2000}
CAPTURE=${CAPTURE:-0}
# jumbo frames, as RoCE fabrics run them: rocegen then sends 4096-byte
# payloads (the largest IB MTU that fits)
MTU=${MTU:-9000}
ROUTING=${ROUTING:-bgp}
case $ROUTING in
bgp) routing=(--bgp) ;;
static) routing=() ;;
*) echo "fabric_demo: ROUTING must be bgp or static, not '$ROUTING'" >&2; exit 2 ;;
esac
KMIN=20000
KMAX=100000
SPORT=49152
read -ra modes <<<"${MODES:-5tuple qp flowlet}"
read -ra lab_args <<<"${LAB_ARGS:-}"
# DCQCN's timers are made for 100 Gbit/s, where a QP sends a frame every
# few hundred ns; here it sends one every few ms, and a 100 us recovery
# timer undoes every cut before the QP's next frame.
DCQCN_TIMER=${DCQCN_TIMER:-100}
# Unacknowledged frames per QP (at least a message: the responder ACKs
# whole messages). It bounds what the QPs that share a shaped port can
# queue there, so the port's limit below is never reached, however late
# DCQCN reacts.
WINDOW=${WINDOW:-16}
mkdir -p "$out"

# lab, leaf; the lab of $prefix goes at exit
. "$top/tools/demo/demolab.sh"

fam=IPv4
case " ${lab_args[*]} " in *" --ipv6 "*) fam=IPv6 ;; esac
echo "== fabric: 2 leaves x $SPINES spines, 2 hosts per leaf, $ROUTING routes, $fam (rocedp-lab, prefix $prefix) =="
if ! lab up --leaves 2 --spines $SPINES --hosts 2 --mtu $MTU "${routing[@]}" \
	${lab_args[@]+"${lab_args[@]}"} >"$out/lab.log" 2>&1; then
	echo "fabric_demo: rocedp-lab up failed:" >&2
	tail -n 5 "$out/lab.log" >&2
	exit 1
fi
# ring order alternates the leaves so every hop crosses the spines; the
# addresses are the lab's (either family)
lab hosts >"$out/lab.hosts" || exit 1
for h in h1-1 h2-1 h1-2 h2-2; do
	grep "^$h " "$out/lab.hosts" || { echo "fabric_demo: lab has no host $h" >&2; exit 1; }
done >"$out/fabric.hosts"
# leaf1's hosts' subnet, for the capture filter
src_net=10.1.0.0/16
[ $fam = IPv6 ] && src_net=fd00:1::/32

for l in leaf1 leaf2; do
	for s in $(seq $SPINES); do
		[ "$ECN_RATE" = 0 ] ||
			leaf $l "$ROCEDP" ecn set up$s rate $ECN_RATE kmin $KMIN kmax $KMAX \
				pmax 100 >/dev/null
	done
	leaf $l "$ROCEDP" config set "flowlet.load_tau_us=$TAU" >/dev/null
	# per-QP health for a table after the runs (docs/telemetry.md); the
	# senders here time out after 1 s and a 64 KiB message takes tens of
	# ms on the shaped links, so an ACK wait is a stall only past 100 ms
	leaf $l "$ROCEDP" config set features=forward,remark,ecn,telemetry \
		telemetry.qp_stall_us=100000 >/dev/null
done
# XDP on the leaves redirects straight into the veth peers, past any qdisc
# on the leaf side, so the links are shaped where the kernel forwards: each
# spine's port towards each leaf. Leaf1's uplink s then feeds exactly one
# shaped port (spine s towards leaf2), and so does leaf2's. The limit holds
# every frame both host pairs of a leaf may have unacknowledged (plus a
# quarter), so a port never drops: the window and DCQCN settle the rate.
if [ "$LINK" != 0 ]; then
	for s in $(seq $SPINES); do
		for l in leaf1 leaf2; do
			ip -n "$prefix-spine$s" link set $l txqueuelen 10000
			tc -n "$prefix-spine$s" qdisc replace dev $l root tbf rate ${LINK}mbit \
				burst $((2 * MTU + 16384)) limit $((2 * QPS * WINDOW * (MTU + 100) * 5 / 4))
		done
	done
fi
spine_tx() { # bytes and drops of every shaped spine port: "spine1/leaf2 bytes drops ..."
	for s in $(seq $SPINES); do
		for l in leaf1 leaf2; do
			tc -n "$prefix-spine$s" -s qdisc show dev $l | awk -v p="spine$s/$l" \
				'/Sent/ {print p, $2, $7 + 0; exit}'
		done
	done
}
capture_start() { # what leaf1's hosts send: the input of leaf1's uplinks
	local h
	caps=()
	cpids=()
	for h in h1-1 h1-2; do
		rm -f "$out/cap-$1-$h.pcap"
		ip netns exec "$prefix-$h" dumpcap -q -P -s 128 -i eth0 \
			-f "udp port 4791 and src net $src_net" -w "$out/cap-$1-$h.pcap" \
			2>"$out/cap-$1-$h.log" &
		cpids+=($!)
		caps+=(--pcap "$out/cap-$1-$h.pcap")
	done
	for h in h1-1 h1-2; do # dumpcap writes the file header once it captures
		for _ in $(seq 50); do
			[ "$(stat -c %s "$out/cap-$1-$h.pcap" 2>/dev/null || echo 0)" -ge 24 ] && break
			sleep 0.1
		done
	done
}
capture_stop() {
	kill -INT "${cpids[@]}" 2>/dev/null || true
	wait "${cpids[@]}" 2>/dev/null || true
	"$LBEVAL" "${caps[@]}" --members $SPINES --tau-us "$TAU" --modes "$1" -j \
		>"$out/fabric-$1.lbeval.json" 2>"$out/fabric-$1.lbeval.err" ||
		echo "fabric_demo: $1: lbeval replay failed (see $out/fabric-$1.lbeval.err)" >&2
}

# timestamped samples of both leaves' counters during each run (`stats -j`
# carries the read's time), for the report's plots over time
SAMPLE=${SAMPLE:-0.1}
sample_start() {
	local l
	spids=()
	for l in leaf1 leaf2; do
		ip netns exec "$prefix-$l" "$ROCEDP" -j stats --watch "$SAMPLE" \
			>"$out/samples-$1.$l.jsonl" 2>"$out/samples-$1.$l.err" &
		spids+=($!)
	done
}
sample_stop() {
	sleep "$SAMPLE" # the last frames' counts
	kill "${spids[@]}" 2>/dev/null || true
	wait "${spids[@]}" 2>/dev/null || true
}

for mode in "${modes[@]}"; do
	for l in leaf1 leaf2; do
		leaf $l "$ROCEDP" config set "hash.mode=$mode" >/dev/null
		leaf $l "$ROCEDP" -j stats >"$out/fabric-$mode.$l.before.json"
	done
	spine_tx >"$out/fabric-$mode.spines.before"
	rm -f "$out/fabric-$mode.lbeval.json"
	if [ "$CAPTURE" = 1 ]; then capture_start $mode; fi
	sample_start $mode
	rc=0
	"$ROCEGEN" run --pattern ring --hosts "@$out/fabric.hosts" --qps "$QPS" \
		--msg "$MSG" --count "$COUNT" --rate "$RATE" --sport $SPORT \
		--rto 1000000 --dcqcn-timer "$DCQCN_TIMER" --window "$WINDOW" -j >"$out/fabric-$mode.json" 2>"$out/fabric-$mode.err" || rc=$?
	[ $rc = 0 ] || echo "fabric_demo: $mode: rocegen run exited $rc (see $out/fabric-$mode.err)" >&2
	sample_stop
	for l in leaf1 leaf2; do
		leaf $l "$ROCEDP" -j stats >"$out/fabric-$mode.$l.after.json"
	done
	spine_tx >"$out/fabric-$mode.spines.after"
	# the QPs of the first run only: a later run reuses their numbers and
	# restarts their PSNs, which the entries would count as rewinds
	if [ "$mode" = "${modes[0]}" ]; then
		for l in leaf1 leaf2; do
			leaf $l "$ROCEDP" qps --limit 8 >"$out/fabric-qps.$l.txt" 2>&1 || true
		done
	fi
	if [ "$CAPTURE" = 1 ]; then capture_stop $mode; fi
done

/usr/bin/python3 "$top/tools/demo/demo.py" fabric_report "$out" $SPINES $QPS "$MSG" $COUNT $RATE $ECN_RATE $LINK $TAU $MTU "${modes[@]}" | tee "$out/fabric.txt"

for l in leaf1 leaf2; do
	echo "-- $l: rocedp qps --limit 8 after the ${modes[0]} run (the busiest QPs; in>out: ports)"
	cat "$out/fabric-qps.$l.txt"
done

if command -v gnuplot >/dev/null; then
	gnuplot -e "datafile='$out/fabric.dat'; outfile='$out/fabric.png'; qps='$QPS'" \
		"$top/tools/demo/fabric.gp" && echo "chart: $out/fabric.png"
else
	echo "gnuplot missing (tools/install-deps.sh installs gnuplot-nox): no chart"
fi
# the report: the table, the plots over time, the topology (docs/demo.md)
/usr/bin/python3 "$top/tools/demo/report.py" "$out" $SPINES "${modes[@]}"
