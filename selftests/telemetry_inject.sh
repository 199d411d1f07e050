#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rocedp's per-QP telemetry against independent counts (docs/telemetry.md,
# The injection selftest). A 2-leaf x 2-spine lab at MTU
# 1500 with telemetry on, rocedp in native XDP and then in tc mode; rocegen
# sends 8 QPs from h1-1 to h2-1 (8 KiB messages: 8 frames each) while the
# lab's injector (rocedp-lab inject, a tc program on spine1's ports) drops,
# duplicates or reorders every Nth eligible request of each QP crossing
# spine1. Per QP, exactly:
#
#   drop N:    leaf2 gaps = gap_psns = injector drops = responder's gaps
#              and NAKs = rocedp's PSN-sequence NAKs on both leaves =
#              rewinds on both leaves; leaf1 (upstream) sees no gap
#   dup N:     leaf2 dups = injector copies = responder's duplicates; no
#              gap, rewind or NAK anywhere
#   reorder N: leaf2 gaps = gap_psns = frames held back - held_stale
#              (swaps behind a retransmission, counted by the injector)
#              = responder's gaps; held back = released
#   drop N --any, one-frame messages, window 1: every drop is a tail drop,
#              found only by the sender's 1 s timeout: leaf1 stalls and
#              dups = drops, leaf2 sees nothing amiss
#
# and in every case: the QPs the injector saw are exactly those leaf1 sent
# up1 (to spine1), the others count nothing; leaf2's request frames per
# QP = what reached the responder, leaf1's - leaf2's = drops - copies. The
# injector acts only on new frames (a PSN it never let through), never on a
# go-back-N retransmission, which would make no gap after it.
# The responder's own counts (rocegen serve: wire_*) follow rocedp's rules
# from what arrived at the host, so they are a second observer after leaf2.
#
# Usage: selftests/telemetry_inject.sh   (root)
#   TELEMETRY_INJECT_MODES="native tc", TELEMETRY_INJECT_CASES="drop dup
#   reorder stall" pick runs; TELEMETRY_INJECT_PCAP=DIR keeps each run's
#   counts and a capture at both hosts there. A failed comparison prints
#   the mismatching QPs' whole rows (both leaves, responder, injector).
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool tc ethtool || exit $?
[ -r "$T_OUT/lab_inject.bpf.o" ] || {
	t_fail "$T_OUT/lab_inject.bpf.o built (make)"
	t_done
	exit 1
}
export LAB_INJECT_OBJ=$T_OUT/lab_inject.bpf.o
T_LAB_PREFIX=ex$((RANDOM % 10000))
t_cleanup "lab down"

# quiet: until rocedp's per-QP totals on both leaves and the packets the
# responder's interface received are the same in two reads 0.2 s apart
# (at most 20 s); each read is appended to $T_TMP/quiet
quiet() {
	local prev="" cur i l
	for i in $(seq 100); do
		cur=$(for l in 1 2; do
			lab_exec "leaf$l" "$ROCEDP" qps -j | $PY -c 'import json,sys
t = json.load(sys.stdin)["totals"]; t.pop("stalled", None); print(json.dumps(t, sort_keys=True))'
		done
			ip netns exec "$(ns h2-1)" cat /sys/class/net/eth0/statistics/rx_packets)
		echo "$cur" | tr '\n' ' ' >>"$T_TMP/quiet" && echo >>"$T_TMP/quiet"
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.2
	done
	return 1
}

# run NAME QPN_BASE INJECT_ARGS -- SEND_ARGS: one run; files in $T_TMP/NAME.*
run() {
	local name=$1 base=$2 spid inj=() l
	shift 2
	while [ "$1" != -- ]; do inj+=("$1"); shift; done
	shift
	t_serve spid "$name" "$(ns h2-1)" eth0 || { t_fail "$name: responder ready"; return 1; }
	lab inject spine1 "${inj[@]}" >/dev/null || { t_fail "$name: inject ${inj[*]}"; return 1; }
	if [ -n "${TELEMETRY_INJECT_PCAP:-}" ]; then
		mkdir -p "$TELEMETRY_INJECT_PCAP"
		for l in h1-1 h2-1; do
			ip netns exec "$(ns "$l")" tcpdump -U -B 16384 -i eth0 -s 80 \
				-w "$TELEMETRY_INJECT_PCAP/$name.$l.pcap" udp port 4791 >/dev/null 2>&1 &
			t_pids+=($!)
		done
		sleep 1
	fi
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dev eth0 --dst 10.2.1.2 \
		--qpn-base "$base" --rate 200 -j "$@" >"$T_TMP/$name.send" 2>&1 ||
		t_fail "$name: rocegen send" "$(tail -n2 "$T_TMP/$name.send")"
	# the last frames (a timeout's resend, the final ACKs) may sit in a
	# veth's backlog on a busy machine: wait until every count stops
	quiet || t_fail "$name: counts still moving after 20 s" "$(tail -n1 "$T_TMP/quiet")"
	if [ -n "${TELEMETRY_INJECT_PCAP:-}" ]; then
		sleep 0.5
		for l in "${t_pids[@]: -2}"; do kill -INT "$l"; wait "$l" 2>/dev/null; done
	fi
	kill -INT "$spid"
	wait "$spid" 2>/dev/null
	lab inject spine1 -j >"$T_TMP/$name.inj"
	lab inject spine1 off >/dev/null
	for l in 1 2; do
		lab_exec "leaf$l" "$ROCEDP" qps -j >"$T_TMP/$name.leaf$l" 2>&1 ||
			t_fail "$name: rocedp qps -j on leaf$l" "$(head -n2 "$T_TMP/$name.leaf$l")"
	done
	[ -n "${TELEMETRY_INJECT_PCAP:-}" ] && cp "$T_TMP/$name".* "$TELEMETRY_INJECT_PCAP/"
	return 0
}

# check NAME CASE QPN_BASE: the comparisons, one TAP line each
check() {
	local n=0
	while IFS='|' read -r st desc why; do
		n=$((n + 1))
		case $st in
		ok) t_ok "$1: $desc" ;;
		'#') echo "#   $desc" && continue ;;
		*) t_fail "$1: $desc" "$why" ;;
		esac
	done < <($PY "$T_TOP/selftests/telemetry_inject.py" case "$T_TMP/$1" "$2" "$3")
	[ $n -gt 0 ] || t_fail "$1: the comparison ran"
}

# rocedp in native XDP and in tc mode (TELEMETRY_INJECT_MODES picks)
for mode in ${TELEMETRY_INJECT_MODES:-native tc}; do
	lab up --mode "$mode" --leaves 2 --spines 2 --hosts 1 --mtu 1500 >"$T_TMP/up.log" 2>&1
	t_check $? "$mode: lab up: 2 leaves, 2 spines, 1 host each, MTU 1500" "$(tail -n3 "$T_TMP/up.log")"
	for l in 1 2; do
		rocedp_set "leaf$l" config set features=forward,remark,ecn,telemetry \
			telemetry.qp_stall_us=500000 >"$T_TMP/set$l.log" 2>&1
		t_check $? "$mode: leaf$l: telemetry on, stall threshold 500 ms" "$(cat "$T_TMP/set$l.log")"
	done
	# 8 QPs x 40 messages of 8 KiB, window 8 frames < N / 2: a QP's drop
	# is recovered (one NAK, one go-back) before its next one is due.
	# Every case runs with a 1 s RTO (rocegen's default: 100 ms) and the
	# stall threshold at half of it: a busy machine holds an ACK for over
	# 100 ms at times, and every QP's timer then fired a go-back-N that no
	# drop caused (one more rewind each, seen beside a CPU hog per core),
	# or a 20 ms threshold counted a stall that no drop caused. A drop's
	# wait is the whole RTO: each is still one stall
	for c in ${TELEMETRY_INJECT_CASES:-drop dup reorder stall}; do
		case $c in
		drop) b=0x1000 ;;
		dup) b=0x2000 ;;
		reorder) b=0x3000 ;;
		stall) b=0x4000 ;;
		*) t_fail "TELEMETRY_INJECT_CASES: '$c': drop, dup, reorder or stall" && continue ;;
		esac
		case $c in
		drop) run "$mode-$c" "$b" drop 20 -- --qps 8 --msg 8192 --count 40 --window 8 --rto 1000000 ;;
		dup | reorder) run "$mode-$c" "$b" "$c" 10 -- --qps 8 --msg 8192 --count 40 --window 8 --rto 1000000 ;;
		stall) run "$mode-$c" "$b" drop 10 --any -- --qps 8 --msg 1024 --count 30 --window 1 --rto 1000000 ;;
		esac
		check "$mode-$c" "$c" "$b"
	done
	lab down >/dev/null 2>&1
done
t_done
