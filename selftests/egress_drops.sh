#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Frames rocedp redirects into a veth that cannot take them (docs/frr.md,
# "The veth redirect trap"). A native XDP redirect
# into a veth whose peer runs no XDP program and has GRO off is dropped by
# the kernel without any counter moving. The lab (1 leaf pair, 1 spine)
# turns GRO off on spine1's end of leaf1's uplink:
#   - `rocedp attach up1 --mode native` warns, naming the peer's netns;
#     with GRO on it says nothing, nor in generic mode;
#   - RoCE traffic h1-1 -> h2-1 is lost, and `rocedp status` names the
#     frames rocedp sent that the veth did not take (rocedp's per-port count
#     against ethtool's tx_queue_N_xdp_xmit), exactly sent - took;
#   - with GRO on again traffic crosses and the deficit does not grow.
#
# Usage: selftests/egress_drops.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ethtool
T_LAB_PREFIX=ed$((RANDOM % 10000))
t_cleanup 'lab down >/dev/null 2>&1'

lab up --spines 1 --hosts 1 >"$T_TMP/up" 2>&1
t_check $? "lab up (1 spine)" "$(tail -n3 "$T_TMP/up")" || true
[ -e "/run/rocedp-lab/$T_LAB_PREFIX/lab.conf" ] || { t_done; exit 1; }

gro() { ip netns exec "$(ns spine1)" ethtool -K leaf1 gro "$1" >/dev/null 2>&1; }
reattach() { # MODE: up1 again in MODE; its stderr in $T_TMP/attach
	lab_exec leaf1 "$ROCEDP" detach up1 >/dev/null 2>&1
	# less the line a kernel without libxdp's dispatcher adds (not ours)
	lab_exec leaf1 "$ROCEDP" attach up1 --mode "$1" 2>&1 |
		grep -v "libxdp's dispatcher is unavailable" >"$T_TMP/attach"
}
# send NAME: a short RoCE run h1-1 -> h2-1; the sender's summary in NAME.send
send() {
	t_serve srv "$1" "$(ns h2-1)" eth0 || return 1
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2 --qps 2 --msg 1K \
		--count 4 --rate 100 --timeout 2 -j >"$T_TMP/$1.send" 2>/dev/null
	local rc=$?
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	return $rc
}
# deficit: "SENT TOOK" from rocedp status' line for up1 (0 0 when none)
deficit() {
	lab_exec leaf1 "$ROCEDP" status 2>&1 |
		sed -n 's/.*up1 *EGRESS DROPS: rocedp sent \([0-9]*\) frames, the veth took \([0-9]*\):.*/\1 \2/p' |
		grep . || echo "0 0"
}
took() { lab_exec leaf1 ethtool -S up1 | awk '/tx_queue_[0-9]+_xdp_xmit:/ { s += $2 } END { print s + 0 }'; }
sent() { lab_exec leaf1 "$ROCEDP" -j stats | $PY -c 'import json,sys
print(sum(p["tx_pkts"] for p in json.load(sys.stdin)["ports"] if p.get("name") == "up1"))'; }

reattach native
[ ! -s "$T_TMP/attach" ]
t_check $? "GRO on at the peer: native attach warns of nothing" "$(cat "$T_TMP/attach")"

gro off
reattach native
grep -q "up1: warning: its veth peer (ifindex [0-9]* in netns $(ns spine1)) has no XDP program and GRO off" "$T_TMP/attach"
t_check $? "GRO off at the peer: native attach warns ($(head -c 120 "$T_TMP/attach")...)" "$(cat "$T_TMP/attach")"
reattach generic
[ ! -s "$T_TMP/attach" ]
t_check $? "generic mode (an skb into the veth): no warning" "$(cat "$T_TMP/attach")"
reattach native

send lost
t_check $((!$?)) "GRO off: the RoCE run fails (frames dropped)" "$(head -c 300 "$T_TMP/lost.send")"
read -r s k <<<"$(deficit)"
S=$(sent) K=$(took)
[ "$s" -gt 0 ] && [ "$s" = "$S" ] && [ "$k" = "$K" ] && [ "$s" -gt "$k" ]
t_check $? "rocedp status: $((s - k)) frames dropped at up1 (rocedp sent $s = stats $S, the veth took $k = ethtool $K)"

gro on
send ok
t_check $? "GRO on again: the RoCE run completes" "$(head -c 300 "$T_TMP/ok.send")"
read -r s2 k2 <<<"$(deficit)"
[ "$s2" -gt "$s" ] && [ $((s2 - k2)) = $((s - k)) ]
t_check $? "the deficit does not grow ($((s2 - k2)) after $((s2 - s)) more frames)"

t_done
