#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: loss on one spine, which QPs suffer and where. A 2-leaf x
# 2-spine lab (static routes, telemetry on) carries two jobs from leaf1 to
# leaf2 while the lab's injector drops every 10th RoCE request that crosses
# spine2 (rocedp-lab inject spine2 drop 10 --any): a streaming job (h1-1 ->
# h2-1, 8 QPs of 16 KiB messages) whose losses come back as NAKs and
# go-back-N rewinds, and a ping-pong job (h1-2 -> h2-2, 8 QPs, one frame in
# flight) whose losses only the sender's 30 ms timeout repairs: stalls.
# Then rocedp qps on both leaves, and the diagnosis from rocedp's tables
# alone: which QPs are sick, that leaf1 saw no gap (the loss is after it),
# that leaf2 saw gaps on the frames that came in from spine2.
#
# Environment: OUT (build dir), ROCEDP, ROCEGEN, QPDEMO_PREFIX (lab prefix,
# default "dq").
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$top/build}/demo
ROCEDP=$(readlink -f "${ROCEDP:-$top/build/rocedp}")
ROCEGEN=$(readlink -f "${ROCEGEN:-$top/build/rocegen}")
export ROCEDP
export LAB_INJECT_OBJ=${LAB_INJECT_OBJ:-${OUT:-$top/build}/lab_inject.bpf.o}
LAB=$top/tools/lab/rocedp-lab
prefix=${QPDEMO_PREFIX:-dq}
SICK=spine2
mkdir -p "$out"

# lab, leaf; the lab of $prefix goes at exit
. "$top/tools/demo/demolab.sh"

echo "== per-QP health: loss injected on $SICK (2 leaves x 2 spines, rocedp-lab prefix $prefix) =="
if ! lab up --leaves 2 --spines 2 --hosts 2 >"$out/qp-lab.log" 2>&1; then
	echo "qp_demo: rocedp-lab up failed:" >&2
	tail -n 5 "$out/qp-lab.log" >&2
	exit 1
fi
for l in leaf1 leaf2; do
	# a stall: an ACK wait over 10 ms (default 4 ms; this VM is shared and
	# a responder descheduled that long is not the network)
	leaf $l "$ROCEDP" config set features=forward,remark,ecn,telemetry \
		telemetry.qp_stall_us=10000 >/dev/null
done
lab inject $SICK drop 10 --any

spids=()
for h in 1 2; do
	ip netns exec "$prefix-h2-$h" "$ROCEGEN" serve --dev eth0 --idle 1.5 -j \
		>"$out/qp-serve$h.json" 2>&1 &
	spids+=($!)
done
sleep 0.3
rc=0
ip netns exec "$prefix-h1-1" "$ROCEGEN" send --dev eth0 --dst 10.2.1.2 --qps 8 \
	--msg 16K --count 24 --window 16 --rate 4000 -j >"$out/qp-stream.json" 2>&1 &
p1=$!
ip netns exec "$prefix-h1-2" "$ROCEGEN" send --dev eth0 --dst 10.2.2.2 --qps 8 \
	--msg 4096 --count 20 --window 1 --rto 30000 --rate 500 -j >"$out/qp-pingpong.json" 2>&1 &
p2=$!
wait $p1 || rc=$?
wait $p2 || rc=$?
wait "${spids[@]}" || true
[ $rc = 0 ] || echo "qp_demo: a rocegen sender exited $rc (see $out/qp-*.json)" >&2
lab inject $SICK -j >"$out/qp-inject.json"
for l in leaf1 leaf2; do
	echo "-- $l: rocedp qps --sort rewinds --limit 8"
	leaf $l "$ROCEDP" qps --sort rewinds --limit 8
	leaf $l "$ROCEDP" qps -j >"$out/qp-$l.json"
done
echo "-- leaf1: rocedp qps --sort stalls --limit 4"
leaf leaf1 "$ROCEDP" qps --sort stalls --limit 4

/usr/bin/python3 "$top/tools/demo/demo.py" qp_report "$out"
