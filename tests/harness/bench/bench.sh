#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench` (docs/bench.md): sets up the bn_* namespaces, runs the
# rdbench measurements and writes one JSON file per section into
# $OUT/bench, then tests/harness/bench/report.py merges them into bench.json and
# prints the table. Every figure is measured in this run.
#
#   tests/harness/bench/bench.sh [-j] [SECTION...]    sections: cost tput sync mem resil lbeval failover scale prom
#
# Environment: OUT (build), PY (/usr/bin/python3), BENCH_TPUT_SECONDS (2),
# BENCH_TPUT_RUNS (6), BENCH_TPUT_PARTS, BENCH_TPUT_SIZES (sec_tput), BENCH_CPU (1: the CPU the traffic source is pinned to),
# BENCH_COST_ARGS (rdbench cost passes/batches/repeat: -n 5 -b 1000 -r 200).
set -u

OUT=${OUT:-build}
PY=${PY:-/usr/bin/python3}
B=$OUT/bench
RDB=$B/rdbench
ROCEDP=$OUT/rocedp
JSON=0
TPUT_S=${BENCH_TPUT_SECONDS:-2}
TPUT_RUNS=${BENCH_TPUT_RUNS:-6}
CPU=${BENCH_CPU:-1}
[ "$(nproc)" -gt "$CPU" ] || CPU=0

SECTIONS=()
for a in "$@"; do
	case $a in
	-j) JSON=1 ;;
	cost | tput | sync | mem | resil | lbeval | failover | scale | prom) SECTIONS+=("$a") ;;
	*) echo "bench: unknown argument '$a'" >&2; exit 2 ;;
	esac
done
[ ${#SECTIONS[@]} -gt 0 ] || SECTIONS=(cost tput sync mem resil lbeval failover scale prom)

if [ "$(id -u)" != 0 ]; then
	echo "bench: needs root (BPF_PROG_TEST_RUN, namespaces)" >&2
	exit 1
fi
mkdir -p "$B"
ROCEDP=$(realpath "$ROCEDP")
RDB=$(realpath "$RDB")

NSS="bn_cost bn_src bn_fw bn_sink bn_sync bn_syncp"
PINS="/sys/fs/bpf/bn_fw /sys/fs/bpf/bn_sync /sys/fs/bpf/bn_sink_count"
SYNC_PID=

in_ns() { # in_ns NS CMD...: same mount namespace (bpffs stays visible)
	local ns=$1
	shift
	nsenter --net=/run/netns/"$ns" "$@"
}

cleanup() {
	if [ -n "$SYNC_PID" ]; then
		kill "$SYNC_PID" 2>/dev/null
		wait "$SYNC_PID" 2>/dev/null
		SYNC_PID=
	fi
	for ns in bn_fw bn_sync; do
		[ -e /run/netns/$ns ] || continue
		ROCEDP_PIN_DIR=/sys/fs/bpf/$ns in_ns $ns "$ROCEDP" detach --all \
			>/dev/null 2>&1
	done
	for ns in $NSS; do
		ip netns del "$ns" 2>/dev/null
	done
	rm -f /sys/fs/bpf/bn_sink_count
	for p in $PINS; do
		[ -d "$p" ] && rm -rf "$p"
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "bench: $*" >&2; }
mac_of() { ip -n "$1" -j link show "$2" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])'; }

mkns() {
	ip netns del "$1" 2>/dev/null
	ip netns add "$1" || exit 1
	ip -n "$1" link set lo up
	in_ns "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
}

# ------------------------------------------------------------------ cost
sec_cost() {
	local ns=bn_cost i
	log "per-packet cost (BPF_PROG_TEST_RUN, ~5 s)"
	mkns $ns
	ip -n $ns link add bcin type veth peer name bcin_p
	# veths that stay down: hold rocedp_xdp and the bare flowlet and
	# default forwarders in the XDP dispatcher (the baselines and the bare
	# forwarder are held on bcin and bcup0..3)
	ip -n $ns link add bchold type veth peer name bchold_p
	ip -n $ns link add bchold2 type veth peer name bchold2_p
	ip -n $ns link add bchold3 type veth peer name bchold3_p
	# and libxdp's dispatcher (the "dispatcher" row); the kernel-FIB
	# forwarder and the hash and helper unit costs
	for i in 4 5 6 7; do
		ip -n $ns link add bchold$i type veth peer name bchold${i}_p
	done
	for i in 0 1 2 3; do
		ip -n $ns link add bcup$i type veth peer name bcup${i}_p
		ip -n $ns link set bcup$i up
		ip -n $ns link set bcup${i}_p up
		# the kernel's route and neighbours, for the kernel-FIB forwarder
		ip -n $ns addr add 10.100.$i.1/24 dev bcup$i
		ip -n $ns neigh replace 10.100.$i.2 lladdr 02:bb:00:00:00:0$((i + 1)) \
			nud permanent dev bcup$i
	done
	in_ns $ns sysctl -qw net.ipv4.ip_forward=1
	ip -n $ns route add 10.9.0.0/16 nexthop via 10.100.0.2 dev bcup0 \
		nexthop via 10.100.1.2 dev bcup1 nexthop via 10.100.2.2 dev bcup2 \
		nexthop via 10.100.3.2 dev bcup3
	ip -n $ns link set bcin up
	ip -n $ns link set bcin_p up
	taskset -c "$CPU" nsenter --net=/run/netns/$ns "$RDB" cost -i bcin \
		-p bcup0,bcup1,bcup2,bcup3 -H bchold,bchold2,bchold3 -D bchold4 \
		-F bchold5,bchold6,bchold7 \
		${BENCH_COST_ARGS:--n 5 -b 1000 -r 200} \
		>"$B/cost.json"
	local rc=$?
	ip netns del $ns
	return $rc
}

# ------------------------------------------------------------------ tput
fabric_up() {
	local i m
	for ns in bn_src bn_fw bn_sink; do mkns $ns; done
	# two queues a veth: frames sent on CPU n go to the peer's queue n,
	# whose NAPI runs on CPU n (the two-CPU rows); one CPU uses one queue
	ip link add bs0 $Q2 netns bn_src type veth peer name bfin $Q2 netns bn_fw
	for i in 0 1 2 3; do
		ip link add bfup$i $Q2 netns bn_fw type veth peer name bsk$i $Q2 netns bn_sink
	done
	ip -n bn_src link set bs0 up
	# stays down: holds the source program in the XDP dispatcher (rdbench src -H)
	ip -n bn_src link add bshold type veth peer name bshold_p
	ip -n bn_src link add bshold2 type veth peer name bshold2_p
	ip -n bn_fw link set bfin up
	ip -n bn_fw addr add 10.200.0.1/24 dev bfin
	for i in 0 1 2 3; do
		ip -n bn_sink link set bsk$i up
		ip -n bn_fw link set bfup$i up
		ip -n bn_fw addr add 10.100.$i.1/24 dev bfup$i
		m=$(mac_of bn_sink bsk$i)
		ip -n bn_fw neigh replace 10.100.$i.2 lladdr "$m" nud permanent dev bfup$i
	done
	in_ns bn_fw sysctl -qw net.ipv4.ip_forward=1 \
		net.ipv4.fib_multipath_hash_policy=1 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		net.ipv4.conf.bfin.rp_filter=0
	ip -n bn_fw route add 10.9.0.0/16 \
		nexthop via 10.100.0.2 dev bfup0 nexthop via 10.100.1.2 dev bfup1 \
		nexthop via 10.100.2.2 dev bfup2 nexthop via 10.100.3.2 dev bfup3
	# the live-frame source redirects into bs0: its peer needs NAPI (GRO)
	in_ns bn_fw ethtool -K bfin gro on >/dev/null
	# and bfin's peer too: nothing is redirected into bfin here, but
	# rocedp attach rightly warns that such frames would drop, on every
	# one of the section's attaches (GRO only acts on bs0's receive side)
	in_ns bn_src ethtool -K bs0 gro on >/dev/null
	tput_part v6 && { fabric_v6 || return 1; }
	in_ns bn_sink "$RDB" sink /sys/fs/bpf/bn_sink_count bsk0 bsk1 bsk2 bsk3 ||
		return 1
}

# IPv6 in bn_fw only, for the _v6 rows: the same four next hops as
# fd00:100:N::2 (on link, permanent neighbours: no addresses of its own),
# fd09::/16 over them, as 10.9.0.0/16 (rocedp syncs it from the kernel, as
# the IPv4 route). No addresses, no link-locals, no forwarding (nothing but
# XDP forwards here): nothing joins a multicast group, so no MLD report,
# router solicitation or DAD frame of the forwarder's own reaches the sinks'
# counts.
V6_SRC=fd00:200::2
V6_DST=fd09::1
fabric_v6() {
	local i m
	for i in default all bfin bfup0 bfup1 bfup2 bfup3; do
		in_ns bn_fw sysctl -qw net.ipv6.conf.$i.addr_gen_mode=1 \
			net.ipv6.conf.$i.accept_dad=0 \
			net.ipv6.conf.$i.router_solicitations=0 || return 1
	done
	in_ns bn_fw sysctl -qw net.ipv6.fib_multipath_hash_policy=1 || return 1
	for i in default all bfin bfup0 bfup1 bfup2 bfup3; do
		in_ns bn_fw sysctl -qw net.ipv6.conf.$i.disable_ipv6=0 || return 1
	done
	for i in 0 1 2 3; do
		m=$(mac_of bn_sink bsk$i)
		ip -n bn_fw neigh replace fd00:100:$i::2 lladdr "$m" nud permanent \
			dev bfup$i || return 1
	done
	ip -n bn_fw -6 route add fd09::/16 \
		nexthop via fd00:100:0::2 dev bfup0 onlink \
		nexthop via fd00:100:1::2 dev bfup1 onlink \
		nexthop via fd00:100:2::2 dev bfup2 onlink \
		nexthop via fd00:100:3::2 dev bfup3 onlink
}

# The ECN port settings of the tput section (`rocedp ecn set` words), for
# rocedp and the bare default forwarder alike.
TPUT_ECN="kmin 100000 kmax 400000 pmax 20 rate 25000"

# rocedp on the fabric: attach, group from the kernel route, then ECN port
# settings with a rate, so RED really runs (sync leaves the rate at 0).
# native_fwd: features forward only (hash qp), the kernel's own job.
rocedp_up() { # rocedp_up native|native_fwd|native_flowlet[_same]|tc
	local i mode=${1%_v6} feat=()
	mode=${mode%_fwd}
	mode=${mode%_same}
	mode=${mode%_flowlet}
	[ "$1" = native_fwd ] && feat=(--features forward)
	case $1 in native_flowlet*) feat=(--features forward,remark,ecn,flowlet) ;; esac
	rd_fw attach --mode "$mode" ${feat[@]+"${feat[@]}"} bfin bfup0 bfup1 bfup2 bfup3 ||
		return 1
	rd_fw sync --once >"$B/tput-sync-$1.txt" 2>&1 || return 1
	[ "$1" = native_fwd ] && return 0
	for i in 0 1 2 3; do
		rd_fw ecn set bfup$i $TPUT_ECN || return 1
	done
}

rocedp_down() { # rocedp_down MODE (as rocedp_up): keeps the last stats of each mode
	rd_fw -j stats >"$B/tput-stats-$1.json" 2>&1
	rd_fw detach --all
}

rd_fw() { ROCEDP_PIN_DIR=/sys/fs/bpf/bn_fw in_ns bn_fw "$ROCEDP" "$@"; }

# the bare forwarder (tests/harness/bench/empty.bpf.c) natively on the same ports:
# the ceiling any XDP forwarder with rocedp's table layout reaches here
bare_up() { in_ns bn_fw "$RDB" barefwd bfin "${BARE_PORTS:-bfup0,bfup1,bfup2,bfup3}"; }
# the bare default forwarder: rocedp's default job done as cheaply as this
# table layout allows (empty.bpf.c, bench_ref_bare_default)
bare_default_up() { in_ns bn_fw "$RDB" barefwd -d "$TPUT_ECN" bfin bfup0,bfup1,bfup2,bfup3; }
bare_down() { ip -n bn_fw link set dev bfin xdpdrv off; }
# the kernel-FIB forwarder (empty.bpf.c, bench_ref_fib_fwd): what xdp-tools'
# xdp-forward does, bpf_fib_lookup in the kernel's own route and neighbours
fib_up() { in_ns bn_fw "$RDB" fibfwd bfin bfup0,bfup1,bfup2,bfup3; }

fwd_up() { # fwd_up MODE: kernel (nothing), bare, or a rocedp mode (_v6: the same)
	case ${1%_v6} in
	kernel) ;;
	bare) bare_up ;;
	bare_default) bare_default_up ;;
	fib) fib_up ;;
	*) rocedp_up "$1" ;;
	esac
}
fwd_down() {
	case ${1%_v6} in
	kernel) ;;
	bare | bare_default | fib) bare_down ;;
	*) rocedp_down "$1" ;;
	esac
}
tput_name() { case ${1%_v6} in kernel | bare | bare_default | fib) echo "$1" ;; *) echo "rocedp_$1" ;; esac; }
Q2="numtxqueues 2 numrxqueues 2"
# BENCH_TPUT_PARTS (main onepath twocpu jumbo v6) and BENCH_TPUT_SIZES (64
# 1024, the main part's): a subset, to re-measure only the rows in question.
# v6 adds the IPv6 rows to the main part's 64 B runs and to the jumbo runs
# (it measures only beside them: "main jumbo v6" with BENCH_TPUT_SIZES=64
# for the IPv6 rows and the IPv4 rows they are compared with)
tput_part() { case " ${BENCH_TPUT_PARTS:-main onepath twocpu jumbo v6} " in *" $1 "*) ;; *) return 1 ;; esac; }

# tput_two MODE RUN: the source on both CPUs at once (64 bytes, a hold
# veth each); frames at the sinks over the union of the two windows. Each
# CPU's source has flows of its own (its own source address), as RSS
# gives a NIC queue's CPU its own flows; a mode ending in _same sends the
# same flows from both, a flow's frames arriving on two CPUs at once.
tput_two() {
	local mode=$1 r=$2 c0='{}' c1='{}' k0 k1 pid src1=10.200.0.3
	case $mode in *_same_c2) src1=10.200.0.2 ;; esac
	case $mode in rocedp_*) c0=$("$RDB" ctrs /sys/fs/bpf/bn_fw) || return 1 ;; esac
	k0=$("$RDB" sink-read /sys/fs/bpf/bn_sink_count) || return 1
	taskset -c 0 nsenter --net=/run/netns/bn_src "$RDB" src -i bs0 -d "$DMAC" \
		-s 10.200.0.2 -D 10.9.0.1 -l 64 -t "$TPUT_S" \
		-k /sys/fs/bpf/bn_sink_count -H bshold2 >"$B/tput-src0.json" &
	pid=$!
	taskset -c 1 nsenter --net=/run/netns/bn_src "$RDB" src -i bs0 -d "$DMAC" \
		-s "$src1" -D 10.9.0.1 -l 64 -t "$TPUT_S" \
		-k /sys/fs/bpf/bn_sink_count -H bshold >"$B/tput-src1.json" || return 1
	wait $pid || return 1
	k1=$("$RDB" sink-read /sys/fs/bpf/bn_sink_count) || return 1
	case $mode in rocedp_*) c1=$("$RDB" ctrs /sys/fs/bpf/bn_fw) || return 1 ;; esac
	$PY - "$mode" "$r" "$c0" "$c1" "$k0" "$k1" "$B/tput-src0.json" "$B/tput-src1.json" \
		>>"$B/tput.jsonl" <<'EOF'
import json, sys
mode, run, c0, c1, k0, k1 = sys.argv[1:7]
s = [json.load(open(f)) for f in sys.argv[7:9]]
secs = (max(x["t1_ns"] for x in s) - min(x["t0_ns"] for x in s)) / 1e9
rec = int(k1) - int(k0)
print(json.dumps({"mode": mode, "run": int(run), "ctrs_before": json.loads(c0),
                  "ctrs_after": json.loads(c1), "size": 64, "cpus": 2,
                  "sent": sum(x["sent"] for x in s), "received": rec,
                  "seconds": round(secs, 4), "mpps": round(rec / secs / 1e6, 4)}))
EOF
}

set_mtu() { # set_mtu MTU: every link of the fabric, both ends
	local i
	ip -n bn_src link set bs0 mtu "$1" &&
		ip -n bn_fw link set bfin mtu "$1" || return 1
	for i in 0 1 2 3; do
		ip -n bn_fw link set bfup$i mtu "$1" &&
			ip -n bn_sink link set bsk$i mtu "$1" || return 1
	done
}

# RoCE with a 4096-byte payload: Ethernet, IPv4, UDP, BTH, payload, ICRC
JUMBO_SIZE=$((14 + 20 + 8 + 12 + 4096 + 4))
# The IPv6 rows' frames: at 64 B the IPv4 frame's 10 bytes after the BTH
# behind a 40-byte IPv6 header (84 B: 64 B cannot hold it); the jumbo row's
# as long as IPv4's (4154 B, 20 bytes less payload, as the cost rows' IPv6
# frames are), so both compare the same bytes on the wire
V6_SMALL=84
JUMBO6_SIZE=$JUMBO_SIZE

# tput_one MODE RUN SIZE: one source run, a line appended to tput.jsonl
tput_one() {
	local mode=$1 r=$2 size=$3 c0='{}' c1='{}' out sa=10.200.0.2 da=10.9.0.1
	case $mode in *_v6) sa=$V6_SRC da=$V6_DST ;; esac
	case $mode in rocedp_*) c0=$("$RDB" ctrs /sys/fs/bpf/bn_fw) || return 1 ;; esac
	out=$(taskset -c "$CPU" nsenter --net=/run/netns/bn_src "$RDB" src \
		-i bs0 -d "$DMAC" -s "$sa" -D "$da" -l "$size" \
		-t "$TPUT_S" -k /sys/fs/bpf/bn_sink_count -H bshold) || return 1
	case $mode in rocedp_*) c1=$("$RDB" ctrs /sys/fs/bpf/bn_fw) || return 1 ;; esac
	echo "{\"mode\":\"$mode\",\"run\":$r,\"ctrs_before\":$c0,\"ctrs_after\":$c1,${out#\{}" \
		>>"$B/tput.jsonl"
}

# Interleaved in time: every run and size measures the kernel, rocedp native
# (default features, then forward only), rocedp tc, the bare forwarder
# (the ceiling) and the kernel-FIB XDP forwarder (what a user would pick
# instead) back to back, so each ratio compares neighbours (the
# machine's speed drifts by tens of percent over minutes). Then the jumbo
# row: the fabric at MTU 9000, 4096-byte RoCE payloads (AF_PACKET source:
# live test-run frames must fit a page) through the kernel, rocedp native
# and the bare forwarder, again back to back per run. The v6 part adds
# rocedp native and the bare forwarder over IPv6 right after the 64 B
# forwarders and after the jumbo ones, in the same runs.
sec_tput() {
	local r size mode
	# interleaved runs, jumbo and one path; two CPUs: 4 forwarders x 2 runs
	log "throughput on the veth fabric, interleaved (~$(((2 * 6 + 3 + 3 + 2 + 2) * TPUT_RUNS * (TPUT_S + 1) + 8 * ${BENCH_TPUT_2CPU_RUNS:-3} * (TPUT_S + 1))) s)"
	rm -f "$B/tput.jsonl"
	fabric_up || return 1
	DMAC=$(mac_of bn_fw bfin)
	for r in $(seq "$TPUT_RUNS"); do
		tput_part main || break
		for size in ${BENCH_TPUT_SIZES:-64 1024}; do
			tput_one kernel "$r" $size || return 1
			for mode in native native_fwd tc bare fib; do
				fwd_up $mode || return 1
				tput_one "$(tput_name $mode)" "$r" $size || return 1
				fwd_down $mode || return 1
			done
			# the IPv6 rows beside the 64 B ones, same run
			[ "$size" = 64 ] && tput_part v6 || continue
			for mode in native_v6 bare_v6; do
				fwd_up $mode || return 1
				tput_one "$(tput_name $mode)" "$r" $V6_SMALL || return 1
				fwd_down $mode || return 1
			done
		done
	done
	# one path: the route's single next hop (the bare forwarder's four
	# members all bfup0), default features against the bare forwarder and
	# the kernel-FIB forwarder
	ip -n bn_fw route replace 10.9.0.0/16 via 10.100.0.2 dev bfup0 || return 1
	for r in $(seq "$TPUT_RUNS"); do
		tput_part onepath || break
		for mode in native bare fib; do
			BARE_PORTS=bfup0,bfup0,bfup0,bfup0 fwd_up $mode || return 1
			tput_one "$(tput_name $mode)_1p" "$r" 64 || return 1
			fwd_down $mode || return 1
		done
	done
	ip -n bn_fw route replace 10.9.0.0/16 \
		nexthop via 10.100.0.2 dev bfup0 nexthop via 10.100.1.2 dev bfup1 \
		nexthop via 10.100.2.2 dev bfup2 nexthop via 10.100.3.2 dev bfup3 || return 1
	# two CPUs: each forwarder on one CPU, then with the source on both,
	# back to back; flowlets on in two rocedp rows, the second with the
	# same flows on both CPUs (its lost claims)
	if [ "$(nproc)" -ge 2 ] && tput_part twocpu; then
		for r in $(seq "${BENCH_TPUT_2CPU_RUNS:-3}"); do
			for mode in native native_flowlet native_flowlet_same bare; do
				fwd_up $mode || return 1
				tput_one "$(tput_name $mode)_c1" "$r" 64 || return 1
				tput_two "$(tput_name $mode)_c2" "$r" || return 1
				fwd_down $mode || return 1
			done
		done
	fi
	set_mtu 9000 || return 1
	for r in $(seq "$TPUT_RUNS"); do
		tput_part jumbo || break
		for mode in kernel native bare_default bare; do
			fwd_up $mode || return 1
			tput_one "$(tput_name $mode)" "$r" $JUMBO_SIZE || return 1
			fwd_down $mode || return 1
		done
		tput_part v6 || continue
		for mode in native_v6 bare_v6; do
			fwd_up $mode || return 1
			tput_one "$(tput_name $mode)" "$r" $JUMBO6_SIZE || return 1
			fwd_down $mode || return 1
		done
	done
	for ns in bn_src bn_fw bn_sink; do ip netns del $ns; done
	rm -f /sys/fs/bpf/bn_sink_count
}

# ------------------------------------------------------------------ sync
SPIN=/sys/fs/bpf/bn_sync

route_batch() { # route_batch add|del N FILE
	$PY tests/harness/bench/bench.py route_batch "$1" "$2" >"$3"
}

last_addr() { # an address inside the N-th route of route_batch
	$PY -c "a=(10<<24|128<<16)+(($1-1)<<6)+1; print('%d.%d.%d.%d'%(a>>24,a>>16&255,a>>8&255,a&255))"
}

sync_start() {
	ROCEDP_PIN_DIR=$SPIN nsenter --net=/run/netns/bn_sync "$ROCEDP" -j sync \
		--latency-log >>"$B/sync-latency.jsonl" 2>>"$B/sync-daemon.err" &
	SYNC_PID=$!
}

sync_stop() {
	kill "$SYNC_PID" 2>/dev/null
	wait "$SYNC_PID" 2>/dev/null
	SYNC_PID=
}

# live_and_cold LABEL N FILE TIMEOUT FLAPS: with the daemon running, load
# FILE (N routes) and time it into the map, count the map, time FLAPS link
# flaps; then stop the daemon and time a cold sync --once into fresh maps
live_and_cold() {
	local r
	r=$(in_ns bn_sync "$RDB" routewait $SPIN "$(last_addr "$2")" present "$4" -- \
		ip -batch "$3") || return 1
	echo "\"live_$1\":$r,"
	echo "\"live_$1_in_map\":$(in_ns bn_sync "$RDB" count $SPIN/rd_routes4),"
	echo "\"flap_$1\":$(flap "$5" "$1" || echo null),"
	sync_stop
	sync_fresh_maps || return 1
	echo "\"cold_$1\":$(sync_once_timed),"
}

sync_fresh_maps() { # detach and attach again: new, empty maps
	ROCEDP_PIN_DIR=$SPIN in_ns bn_sync "$ROCEDP" detach --all || return 1
	ROCEDP_PIN_DIR=$SPIN in_ns bn_sync "$ROCEDP" attach --mode native \
		sy0 sy1 sy2 sy3 || return 1
	# a cold sync must start from empty maps, or it only adopts them
	local n
	n=$(in_ns bn_sync "$RDB" count $SPIN/rd_routes4)
	if [ "$n" != 0 ]; then
		log "rd_routes4 still holds $n routes after detach/attach"
		return 1
	fi
}

sync_once_timed() { # prints {"seconds":..,"routes_in_map":..}
	local t0 t1 n
	t0=$(date +%s%N)
	ROCEDP_PIN_DIR=$SPIN in_ns bn_sync "$ROCEDP" sync --once >"$B/sync-once.txt" 2>&1 ||
		return 1
	t1=$(date +%s%N)
	n=$(in_ns bn_sync "$RDB" count $SPIN/rd_routes4)
	printf '{"seconds":%s,"routes_in_map":%s}\n' \
		"$($PY -c "print('%.4f' % (($t1 - $t0) / 1e9))")" "$n"
}

flap() { # flap N TAG
	local l0 out
	l0=$(wc -l <"$B/sync-latency.jsonl")
	out=$(in_ns bn_sync "$RDB" flap $SPIN sy1 10.9.0.1 "$1") || return 1
	# the daemon's own arrival-to-map time for the batches during the flaps
	echo "{\"table\":\"$2\",${out#\{}" | $PY tests/harness/bench/bench.py latency "$B/sync-latency.jsonl" "$l0"
}

sec_sync() {
	local i m r f10 f100
	log "route sync: 10k/100k routes, link-down latency (~60 s)"
	: >"$B/sync-latency.jsonl"
	: >"$B/sync-daemon.err"
	mkns bn_sync
	mkns bn_syncp
	for i in 0 1 2 3; do
		ip link add sy$i netns bn_sync type veth peer name syp$i netns bn_syncp
		ip -n bn_syncp link set syp$i up
		# as bs0 in fabric_up: no attach warning for the peer
		in_ns bn_syncp ethtool -K syp$i gro on >/dev/null
		# answers ARP: a link down flushes even permanent neighbours
		ip -n bn_syncp addr add 10.100.$i.2/24 dev syp$i
		ip -n bn_sync link set sy$i up
		ip -n bn_sync addr add 10.100.$i.1/24 dev sy$i
		m=$(mac_of bn_syncp syp$i)
		ip -n bn_sync neigh replace 10.100.$i.2 lladdr "$m" nud permanent dev sy$i
	done
	f10=$B/routes-10k.batch
	f100=$B/routes-100k.batch
	route_batch add 10000 "$f10"
	route_batch add 100000 "$f100"
	route_batch del 10000 "$B/routes-10k-del.batch"
	ROCEDP_PIN_DIR=$SPIN in_ns bn_sync "$ROCEDP" attach --mode native \
		sy0 sy1 sy2 sy3 || return 1
	sync_start
	{
		echo '{'
		# a first multipath route: the daemon is up once it is mapped
		r=$(in_ns bn_sync "$RDB" routewait $SPIN 10.9.0.1 present 10 -- \
			ip route add 10.9.0.0/16 nexthop via 10.100.0.2 dev sy0 \
			nexthop via 10.100.1.2 dev sy1 nexthop via 10.100.2.2 dev sy2 \
			nexthop via 10.100.3.2 dev sy3) || return 1
		echo "\"first_route\":$r,"
		echo "\"flap_small\":$(flap 20 small || echo null),"
		live_and_cold 10k 10000 "$f10" 60 20 || return 1
		sync_start
		r=$(in_ns bn_sync "$RDB" routewait $SPIN "$(last_addr 10000)" gone 60 -- \
			ip -batch "$B/routes-10k-del.batch") || return 1
		echo "\"del_10k\":$r,"
		live_and_cold 100k 100000 "$f100" 120 10 || return 1
		echo "\"kernel_routes\":$(ip -n bn_sync route show | grep -c '^[0-9d]')"
		echo '}'
	} >"$B/sync.json.tmp" || return 1
	mv "$B/sync.json.tmp" "$B/sync.json"
	ROCEDP_PIN_DIR=$SPIN in_ns bn_sync "$ROCEDP" detach --all
	ip netns del bn_sync
	ip netns del bn_syncp
}

# ------------------------------------------------------------------ mem
sec_mem() {
	log "map memory"
	"$RDB" mem >"$B/mem.json"
}

# ------------------------------------------------------------------ resil
# healthy flows moved when one member of 8 goes down and comes back,
# through the program, with the old hash-threshold choice beside it
sec_resil() {
	log "resilient member choice (100k flows, 8 members)"
	"$B/resil" 100000 >"$B/resil.json"
}

# ------------------------------------------------------------------ lbeval
sec_lbeval() {
	local tool=
	if [ -x "$OUT/lbeval" ]; then
		tool=$OUT/lbeval
	elif "$ROCEDP" lbeval --help >/dev/null 2>&1; then
		tool="$ROCEDP lbeval"
	fi
	if [ -z "$tool" ]; then
		echo '{"missing":true,"why":"no build/lbeval and no rocedp lbeval"}' >"$B/lbeval.json"
		return 0
	fi
	log "load-balance evaluator ($tool --standard)"
	# one run: its JSON is kept whole and report.py renders the table from it
	if $tool --standard -j --png "$B/lbeval-standard.png" >"$B/lbeval.out" \
		2>"$B/lbeval.err" &&
		$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$B/lbeval.out" 2>/dev/null; then
		$PY -c 'import json,sys; print(json.dumps({"tool":sys.argv[2]+" --standard","png":sys.argv[3],"result":json.load(open(sys.argv[1]))}))' \
			"$B/lbeval.out" "$tool" "$B/lbeval-standard.png" >"$B/lbeval.json"
	else
		$PY -c 'import json,sys; print(json.dumps({"tool":sys.argv[1],"failed":True,"why":open(sys.argv[2]).read()[-500:]}))' \
			"$tool" "$B/lbeval.err" >"$B/lbeval.json"
	fi
}

# ------------------------------------------------------------------ failover
# FRR fabric, RoCE traffic through 5 BGP events, rocedp against the kernel
# (tests/harness/bench/failover.sh, about 2 min; docs/frr.md)
sec_failover() {
	log "failover under traffic on the FRR fabric, rocedp and the kernel (~2 min)"
	if [ ! -x /usr/lib/frr/bgpd ]; then
		echo '{"missing":true,"why":"frr is not installed"}' >"$B/failover.json"
		return 0
	fi
	ROCEDP=$ROCEDP ROCEGEN=$(realpath "$OUT/rocegen") tests/harness/bench/failover.sh \
		-j "$B/failover.json" >"$B/failover.out" 2>"$B/failover.err"
}

# ------------------------------------------------------------------ scale
# an injector bgpd feeds 100k IPv4 + 20k IPv6 prefixes over eBGP to a leaf:
# kernel against maps on advertise, withdraw, re-advertise; the daemon's
# peak memory and CPU (tests/harness/bench/scale.sh, about 30 s; docs/frr.md)
sec_scale() {
	log "route scale over BGP (${BENCH_SCALE_V4:-100000} + ${BENCH_SCALE_V6:-20000} prefixes, ~30 s)"
	if [ ! -x /usr/lib/frr/bgpd ]; then
		echo '{"missing":true,"why":"frr is not installed"}' >"$B/scale.json"
		return 0
	fi
	tests/harness/bench/scale.sh "$ROCEDP" "$RDB" "$B/scale.json" "${BENCH_SCALE_V4:-100000}" \
		"${BENCH_SCALE_V6:-20000}" 2>"$B/scale.err"
}

# ------------------------------------------------------------------ prom
# the exporter and Prometheus against the default row (prom.sh)
. tests/harness/bench/prom.sh

T0=$(date +%s)
FAIL=0
for s in cost tput sync mem resil lbeval failover scale prom; do # nothing stale reaches the report
	rm -f "$B/$s.json" "$B/$s.jsonl"
done
for s in "${SECTIONS[@]}"; do
	if ! "sec_$s"; then
		log "section $s failed"
		FAIL=1
	fi
done
args=()
[ $JSON = 1 ] && args+=(-j)
$PY tests/harness/bench/report.py "${args[@]}" --dir "$B" --elapsed $(($(date +%s) - T0)) \
	"${SECTIONS[@]}" || FAIL=1
exit $FAIL
