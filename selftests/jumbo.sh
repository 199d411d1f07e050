#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Jumbo frames through a live fabric: 2 leaves x 2 spines, one
# host per leaf (tools/lab/rocedp-lab), every link at MTU 9000, rocedp on
# the leaves with every feature on (forward, remark, ECN with a virtual
# queue on the uplinks, flowlet).
#
#  1. `rocedp attach` in native mode took every leaf port at MTU 9000 (the
#     programs are xdp.frags); the ports show a native, not generic, program.
#  2. rocegen picks a 4096-byte path MTU from the interface MTU: 4096-byte
#     RoCE payloads (RDMA WRITE FIRST/MIDDLE/LAST, 4154..4170-byte frames)
#     from h1-1 to h2-1 all arrive in order with a valid ICRC (intact), and
#     every message is ACKed.
#  3. The leaves counted them whole: leaf1's host port received at least the
#     sender's frames, at >= 4096 bytes a frame, and forwarded them; none
#     was `not_linear`. On the tc path these skbs are non-linear (rocegen
#     sends through AF_PACKET, which leaves only the Ethernet header in the
#     linear part): without rocedp's bpf_skb_pull_data all 512 came out
#     not_linear and went to the kernel instead.
#  4. A device without native XDP at MTU 9000 gets one line naming it, its
#     MTU and the way out (--mode generic or tc).
#  5. (native run) The frames captured at h2-1 replay offline through the
#     XDP program whole (`rocedp replay`: 512 data frames, none malformed);
#     with --hook tc, which test runs cannot take over a page, replay says
#     so in one line.
#
# Usage: selftests/jumbo.sh [native|tc|generic ...]   (root; default: native tc)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(native tc)
MTU=9000
QPS=4
COUNT=8
MSG=64K

t_require ethtool dumpcap

stats() { lab_exec leaf1 "$ROCEDP" -j stats >"$T_TMP/$1.json" 2>"$T_TMP/$1.err"; }

one_mode() { # MODE
	local mode=$1 out rc srv
	# lab prefixes are lower case; "aj" keeps this helper's namespaces apart
	T_LAB_PREFIX=aj$((RANDOM % 9000 + 1000))
	t_cleanup "$LAB down --prefix $T_LAB_PREFIX"
	if ! lab up --leaves 2 --spines 2 --hosts 1 --mode "$mode" --mtu $MTU \
		--features forward,remark,ecn,flowlet >"$T_TMP/lab.out" 2>&1; then
		t_fail "$mode: fabric up at MTU $MTU" "$(tail -n3 "$T_TMP/lab.out")"
		return
	fi
	t_ok "$mode: fabric up at MTU $MTU (2 leaves x 2 spines, rocedp attached --mode $mode)"
	# ECN's virtual queue on every uplink, fast enough not to mark: the
	# whole-frame length goes through it
	for l in leaf1 leaf2; do
		for u in up1 up2; do
			rocedp_set $l ecn set $u rate 100000 >"$T_TMP/ecn.out" 2>&1 ||
				t_fail "$mode: rocedp ecn set $u rate 100000 on $l" "$(cat "$T_TMP/ecn.out")"
		done
	done

	# 1. every leaf port at 9000, with the program of the asked mode
	out=$(for l in leaf1 leaf2; do
		ip -n "$(ns $l)" -j -d link show | $PY "$T_TOP/selftests/jumbo.py" ports "$mode" $MTU
	done)
	t_check "$([ -z "$out" ] && echo 0 || echo 1)" \
		"$mode: every leaf port at MTU $MTU with a $mode program" "$out"

	# 2. 4096-byte payloads from h1-1 to h2-1
	stats "$mode.a"
	[ "$mode" = native ] && cap_start
	if ! t_serve srv "$mode" "$(ns h2-1)" eth0; then
		t_fail "$mode: rocegen responder on h2-1" "$(cat "$T_TMP/$mode.serve.err")"
		return
	fi
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2 --qps $QPS \
		--msg $MSG --count $COUNT --rate 2000 --rto 200000 -j \
		>"$T_TMP/$mode.send.json" 2>"$T_TMP/$mode.send.err"
	rc=$?
	sleep 0.3
	kill -INT "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	[ "$mode" = native ] && t_cap_stop "$CAP"
	stats "$mode.b"
	t_check $rc "$mode: rocegen send over the fabric exits 0" \
		"rc $rc: $(tail -c 300 "$T_TMP/$mode.send.err")"
	out=$($PY "$T_TOP/selftests/jumbo.py" delivered "$T_TMP" "$mode" $QPS $COUNT)
	t_check $? "$mode: 4096-byte RoCE payloads arrive in order with a valid ICRC, every message ACKed ($out)" "$out"

	# 3. counted whole by leaf1
	out=$($PY "$T_TOP/selftests/jumbo.py" counted "$T_TMP" "$mode")
	t_check $? "$mode: leaf1 counted the frames whole and forwarded them ($out)" "$out"
	[ "$mode" = native ] && replay_check
	"$LAB" down --prefix "$T_LAB_PREFIX" >/dev/null 2>&1
}

# whole frames (t_cap_start's snap length is 128) of the RoCE traffic at
# h2-1, as classic pcap (what rocedp replay reads); dumpcap comes with
# tshark, which install-deps.sh installs
cap_start() {
	ip netns exec "$(ns h2-1)" dumpcap -i eth0 -P -s 0 -B 64 \
		-w "$T_TMP/jumbo.pcap" -f "udp port 4791" 2>"$T_TMP/jumbo.pcap.err" &
	CAP=$!
	t_pids+=("$CAP")
	for _ in $(seq 100); do
		grep -q "Capturing on" "$T_TMP/jumbo.pcap.err" 2>/dev/null && return 0
		sleep 0.05
	done
}

# 5. the capture through `rocedp replay`: XDP takes the jumbo frames whole,
# tc test runs refuse them and replay says why
replay_check() {
	local out rc
	"$ROCEDP" -j replay --in "$T_TMP/jumbo.pcap" >"$T_TMP/replay.json" 2>"$T_TMP/replay.err"
	out=$(t_pyj "$T_TMP/replay.json" \
		'j["classes"]["data"] >= 512 and j["classes"]["malformed"] == 0 and (j["frames"], j["classes"]["data"])')
	t_check $? "replay --hook xdp of the capture at h2-1: every data frame parsed whole, none malformed (frames, data: $out)" \
		"$out $(cat "$T_TMP/replay.err")"
	out=$("$ROCEDP" replay --in "$T_TMP/jumbo.pcap" --hook tc 2>&1 >/dev/null)
	rc=$?
	[ $rc != 0 ] && [ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"bytes: tc test runs take one page at most"*"--hook xdp"* ]]
	t_check $? "replay --hook tc of jumbo frames: one line saying why and what to use" "rc $rc: $out"
}

# 4. a device without native XDP, at MTU 9000: one line with the way out
refusal() {
	local n=A_jumbo$$ out
	ip netns add $n || { t_fail "netns $n"; return; }
	t_cleanup "ip netns del $n"
	ip -n $n link add A_jbr type bridge && ip -n $n link set A_jbr mtu $MTU up
	out=$(ip netns exec $n "$ROCEDP" attach A_jbr --mode native 2>&1)
	[ "$(echo "$out" | wc -l)" = 1 ] && [[ $out == *"A_jbr: native mode:"*"MTU $MTU"*"--mode generic or --mode tc"* ]]
	t_check $? "native attach to a device without XDP: one line naming it, its MTU and the options" "$out"
	ip netns exec $n "$ROCEDP" detach --all >/dev/null 2>&1
}

for m in "${modes[@]}"; do
	one_mode "$m"
done
refusal
t_done
