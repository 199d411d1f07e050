#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rocegen in two network namespaces joined by a veth pair: requester in A,
# NIC-like responder in B. Checks delivery, ACKs, NAK on an injected gap,
# CNPs and rate cuts on CE marks, IPv6, coalesced ACKs, frame bytes (tshark
# dissection + ICRC recomputed with scapy), the pattern runner and the
# error messages for bad arguments.
# Usage: selftests/rocegen_basic.sh [path/to/rocegen]   (root; default
# $ROCEGEN, else $OUT/rocegen as tests/run.sh sets them, else build/rocegen)
set -u

RG=${1:-${ROCEGEN:-${OUT:-build}/rocegen}}
RG=$(readlink -f "$RG")
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
A=rg_a_$$
B=rg_b_$$
T=$(mktemp -d /tmp/rg_selftest.XXXXXX)
pass=0
fail=0
pids=()

cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	# anything still running inside our own namespaces was started here
	for n in "$A" "$B"; do
		for p in $(ip netns pids "$n" 2>/dev/null); do kill "$p"; done
	done
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT INT TERM

ok() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok - $2"
	else
		fail=$((fail + 1))
		echo "not ok - $2"
	fi
}

# check FILE 'python expression over j' DESCRIPTION
check() {
	$PY - "$1" "$2" <<'PYEOF' >/dev/null 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
PYEOF
	ok $? "$3"
}

[ -x "$RG" ] || { echo "not ok - $RG not built"; echo "0 passed, 1 failed"; exit 1; }

ip netns add "$A" && ip netns add "$B" || exit 1
ip link add rg_va$$ netns "$A" type veth peer name rg_vb$$ netns "$B"
ip -n "$A" addr add 10.201.0.1/24 dev rg_va$$
ip -n "$B" addr add 10.201.0.2/24 dev rg_vb$$
ip -n "$A" addr add fd20:1::1/64 dev rg_va$$ nodad
ip -n "$B" addr add fd20:1::2/64 dev rg_vb$$ nodad
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set rg_va$$ up
ip -n "$B" link set rg_vb$$ up
inA() { ip netns exec "$A" "$@"; }
inB() { ip netns exec "$B" "$@"; }

# serve_start NAME [serve options]: responder in B, waits until it listens.
serve_start() {
	local name=$1
	shift
	rm -f "$T/ready"
	# not through inB: $! must be rocegen itself, for serve_stop
	ip netns exec "$B" "$RG" serve --dev rg_vb$$ --ready "$T/ready" -j "$@" \
		>"$T/$name.serve" 2>"$T/$name.serve.err" &
	srv=$!
	pids+=("$srv")
	for _ in $(seq 100); do [ -e "$T/ready" ] && return 0; sleep 0.05; done
	return 1
}
serve_stop() {
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
}

# --- 1. bad arguments: one line "rocegen: what: reason", non-zero exit
badarg() {
	local desc=$1
	shift
	inA "$RG" "$@" >"$T/out" 2>"$T/err"
	local rc=$?
	[ $rc -ne 0 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		grep -q '^rocegen: [^:]*: ' "$T/err"
	ok $? "bad argument refused: $desc ($(head -c 70 "$T/err"))"
}
badarg "zero QPs" send --dst 10.201.0.2 --qps 0
badarg "MTU too small" send --dst 10.201.0.2 --mtu 200
badarg "bad IP" send --dst 10.201.0.300
badarg "bad MAC" send --dst 10.201.0.2 --dmac 02:zz:00:00:00:01
badarg "unknown interface" send --dev rg_nope0 --dst 10.201.0.2
badarg "unknown host" run --pattern incast --hosts "a=$A:10.201.0.1,b=$B:10.201.0.2" --sink c
badarg "unknown pattern" run --pattern star --hosts "a=$A:10.201.0.1,b=$B:10.201.0.2"
badarg "no route" send --dst 10.202.0.9
badarg "unknown command" blast

# --- 2. clean run: all frames, zero OOS, every message ACKed
# ICMP (v4 + v6) destination-unreachable messages B has sent
nstat_b() {
	inB awk '/^Icmp:/ && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		/^Icmp:/ { s += $c["OutDestUnreachs"] }
		/^Icmp6OutDestUnreachs/ { s += $2 }
		END { print s + 0 }' /proc/net/snmp /proc/net/snmp6
}
unreach0=$(nstat_b)
serve_start basic || ok 1 "responder starts"
inA "$RG" send --dst 10.201.0.2 --qps 4 --msg 8K --count 50 -j >"$T/basic.send" 2>"$T/basic.err"
ok $? "send exits 0 (4 QPs x 50 x 8 KiB)"
serve_stop
check "$T/basic.serve" 'j["total"]["frames"] == 4*50*8 and j["total"]["messages"] == 200' \
	"responder counted all 1600 frames / 200 messages"
check "$T/basic.serve" 'j["total"]["oos"] == 0 and j["total"]["naks"] == 0' "zero out-of-sequence, no NAK"
check "$T/basic.serve" 'j["total"]["icrc_errors"] == 0 and j["total"]["bad_qp"] == 0' "every ICRC valid at the responder"
check "$T/basic.serve" 'len(j["qps"]) == 4 and all(q["messages"] == 50 for q in j["qps"])' "50 messages on each of 4 QPs"
check "$T/basic.send" 'j["total"]["acks"] == 200 and j["total"]["qps_failed"] == 0' "sender got 200 ACKs, all QPs done"
check "$T/basic.send" 'j["total"]["icrc_errors"] == 0 and j["total"]["retx_frames"] == 0' "ACK ICRCs valid, no retransmission"
check "$T/basic.send" 'len({q["sport"] for q in j["qps"]}) == 4 and all(q["sport"] >= 0xc000 for q in j["qps"])' \
	"UDP source port per QP, hashed into 0xC000.."
check "$T/basic.send" 'j["rx_dscp"]["ack"] == {"26": 200}' "ACKs carry the data DSCP (26)"
[ "$(nstat_b)" = "$unreach0" ]
ok $? "responder host sent no ICMP port unreachable"

# --- 3. injected gap: NAK, go-back-N, still complete
serve_start gap
inA "$RG" send --dst 10.201.0.2 --qps 2 --msg 16K --count 40 --drop-every 61 -j >"$T/gap.send" 2>&1
ok $? "send with --drop-every 61 completes"
serve_stop
check "$T/gap.send" 'j["total"]["drops_injected"] > 0 and j["total"]["naks"] > 0' "sender received NAKs for the injected gaps"
check "$T/gap.serve" 'j["total"]["oos"] > 0 and j["total"]["naks"] > 0' "responder counted out-of-sequence and sent NAKs"
check "$T/gap.serve" 'all(q["oos"] > 0 for q in j["qps"])' "out-of-sequence counted per QP"
check "$T/gap.serve" 'j["total"]["messages"] == 80 and j["total"]["frames"] == 80*16' \
	"after go-back-N every message was delivered once"
check "$T/gap.send" 'j["total"]["retx_frames"] > 0 and j["total"]["qps_failed"] == 0' "retransmitted, all QPs done"

# --- 4. CE marks: CNPs back, DCQCN-like rate cut
serve_start ce --cnp-interval 50
inA "$RG" send --dst 10.201.0.2 --qps 2 --msg 16K --count 100 --rate 2000 --ce-every 8 -j >"$T/ce.send" 2>&1
ok $? "send with --ce-every 8 completes"
serve_stop
check "$T/ce.serve" 'j["total"]["ce"] == 3200 // 8 and j["total"]["cnps"] > 0' "responder saw every CE mark and sent CNPs"
check "$T/ce.serve" 'j["total"]["cnps"] + j["total"]["cnps_suppressed"] == j["total"]["ce"]' \
	"CNPs rate-limited per QP (sent + suppressed = CE)"
check "$T/ce.send" 'j["total"]["cnps"] > 0 and j["total"]["rate_cuts"] == j["total"]["cnps"]' "sender cut its rate on each CNP"
check "$T/ce.send" 'all(q["rate_min_mbps"] < 2000 for q in j["qps"])' "per-QP rate dropped below the 2000 Mbps line rate"
check "$T/ce.send" 'j["rx_dscp"]["cnp"] and list(j["rx_dscp"]["cnp"]) == ["48"]' "CNPs carry DSCP 48"
check "$T/ce.serve" 'j["total"]["ect"] == 3200 - 400' "unmarked data frames arrive ECT(0)"

# --- 5. IPv6 and coalesced ACKs
serve_start v6 --ack-every 8 --ack-dscp 46
inA "$RG" send --dst fd20:1::2 --qps 3 --msg 3000 --count 30 -j >"$T/v6.send" 2>&1
ok $? "IPv6 send completes"
serve_stop
check "$T/v6.serve" 'j["total"]["messages"] == 90 and j["total"]["oos"] == 0 and j["total"]["icrc_errors"] == 0' \
	"IPv6: 90 messages, zero OOS, ICRCs valid"
check "$T/v6.serve" '0 < j["total"]["acks"] < 90' "ACKs coalesced (--ack-every 8: $(
	$PY -c 'import json,sys;print(json.load(open(sys.argv[1]))["total"]["acks"])' "$T/v6.serve" 2>/dev/null) for 90 messages)"
check "$T/v6.send" 'j["total"]["qps_failed"] == 0 and list(j["rx_dscp"]["ack"]) == ["46"]' "IPv6: all QPs done, ACKs on DSCP 46"

# --- 6. frame bytes: tshark dissection and ICRC recomputed by scapy
serve_start cap
ip netns exec "$B" tshark -i rg_vb$$ -f "udp port 4791" -c 16 -w "$T/cap.pcap" >/dev/null 2>&1 &
cap=$!
pids+=("$cap")
for _ in $(seq 100); do [ -e "$T/cap.pcap" ] && break; sleep 0.1; done
sleep 0.5
inA "$RG" send --dst 10.201.0.2 --qps 1 --msg 2501 --count 2 --ce-every 6 >/dev/null 2>&1
inA "$RG" send --dst fd20:1::2 --qps 1 --msg 2501 --count 1 --qpn-base 0x200 >/dev/null 2>&1
for _ in $(seq 50); do kill -0 $cap 2>/dev/null || break; sleep 0.1; done
kill $cap 2>/dev/null
serve_stop
tshark -r "$T/cap.pcap" -T fields -E separator=, -e infiniband.bth.opcode -e infiniband.bth.a \
	-e infiniband.bth.padcnt -e infiniband.reth.dmalen -e infiniband.aeth.syndrome 2>/dev/null >"$T/cap.txt"
grep -q '^6,0,0,2501,$' "$T/cap.txt" && grep -q '^7,0,0,,$' "$T/cap.txt" && grep -q '^8,1,3,,$' "$T/cap.txt"
ok $? "tshark: WRITE FIRST (RETH len 2501) / MIDDLE / LAST (ack-req, pad 3)"
grep -q '^17,0,0,,31$' "$T/cap.txt"
ok $? "tshark: ACK with AETH syndrome 0x1f"
grep -q '^129,' "$T/cap.txt"
ok $? "tshark: CNP (opcode 0x81) for the CE-marked frame"
res=$($PY "$HERE/rocegen_basic.py" capture "$T/cap.pcap" 2>&1)
ok $? "ICRC of every captured rocegen frame matches scapy ($res)"

# --- 7. pattern runner: 2-host ring, each host sends and serves
inA "$RG" run --pattern ring --hosts "a=$A:10.201.0.1,b=$B:10.201.0.2" \
	--qps 2 --msg 8K --count 20 -j >"$T/ring.json" 2>"$T/ring.err"
ok $? "rocegen run --pattern ring exits 0"
check "$T/ring.json" 'j["total"]["messages"] == 80 and j["total"]["oos"] == 0 and j["failed_processes"] == 0' \
	"ring: 80 messages, zero OOS, every process reported"
check "$T/ring.json" 'set(j["senders"]) == {"a","b"} and set(j["responders"]) == {"a","b"}' "ring: both hosts send and serve"
check "$T/ring.json" 'j["completion_us"] > 0 and j["total"]["acks"] == 80' "ring: completion time and 80 ACKs"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
