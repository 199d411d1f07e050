#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Path-quality probes live (docs/paths.md): two leaves, two spines, a
# switch per network namespace, rocedp on all four.
#
#   leaf1 up1 -- d1 spine1 d2 -- up1 leaf2
#   leaf1 up2 -- d1 spine2 d2 -- up2 leaf2
#
# spine2's port toward leaf2 (its d2) is marked degraded (band floor 5).
# Both leaves run `rocedp paths send`; every probe crosses a spine, which
# stamps and routes it, and the other leaf takes it. Checked: leaf1's
# table has leaf 2 via up1 at band 0 and via up2 at band 5, both fresh;
# leaf2's has leaf 1 at band 0 both ways (the degraded port is on the
# other direction); the spines forwarded probes and took none, the
# leaves took some and forwarded none; no probe reached a leaf's kernel
# (its UDP counters stay still); the sender's own bandwidth line; when
# spine2's d2 goes down, leaf1's entry via up2 turns failed within the
# timeout while up1's stays fresh, and comes back when the link does.
# Under two minutes on a loaded 2-core VM (the eight attaches take most).
#
# Usage: selftests/paths_probe.sh [native|generic|tc]   (root; default native)
set -u
. "$(dirname "$0")/lib.sh"

MODE=${1:-native}
P=J_pp$$
L1=${P}l1 S1=${P}s1 S2=${P}s2 L2=${P}l2
KEY=5a17c0ffee0000000000000000000042
TMO=20000 # us: the entry timeout

t_require ethtool
unset ROCEDP_PIN_DIR

X() { local n=$1; shift; ip netns exec "$n" "$ROCEDP" "$@"; }
cleanup() {
	local n
	for n in "$L1" "$S1" "$S2" "$L2"; do
		[ -e "/run/netns/$n" ] && X "$n" detach --all
	done
	for n in "$L1" "$S1" "$S2" "$L2"; do ip netns del "$n"; done
}
t_cleanup cleanup

for n in "$L1" "$S1" "$S2" "$L2"; do
	ip netns add "$n" && ip -n "$n" link set lo up ||
		{ t_fail "netns $n"; t_done; exit 1; }
done
link() { # NS_A IF_A NS_B IF_B: a veth pair, GRO on (XDP_REDIRECT into veth)
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" &&
		ip -n "$1" link set "$2" up && ip -n "$3" link set "$4" up &&
		ip netns exec "$1" ethtool -K "$2" gro on >/dev/null &&
		ip netns exec "$3" ethtool -K "$4" gro on >/dev/null
}
mac() { ip -n "$1" -j link show dev "$2" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])'; }
link "$L1" up1 "$S1" d1 && link "$L1" up2 "$S2" d1 &&
	link "$S1" d2 "$L2" up1 && link "$S2" d2 "$L2" up2 &&
	ip -n "$L1" addr add 10.1.0.1/16 dev lo && ip -n "$L2" addr add 10.2.0.1/16 dev lo
t_check $? "fabric: leaf1 and leaf2 over spine1 and spine2" || { t_done; exit 1; }

# cfg NS FILE PREFIX DEV... : a config routing PREFIX over the devices,
# each to its peer's MAC (PEER_NS:PEER_DEV after each DEV)
cfg() {
	local ns=$1 f=$2 sep= m= i=1
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		route:*) R="${R:-}${R:+,}{\"prefix\": \"${1#route:}\", \"group\": $i}"
			G="${G:-}${G:+,}{\"id\": $i, \"members\": [$m]}"
			m= sep= i=$((i + 1)) ;;
		*) m="$m$sep{\"dev\": \"$1\", \"dmac\": \"$(mac "${2%%:*}" "${2#*:}")\"}"
			sep=, && shift ;;
		esac
		shift
	done
	echo "{\"groups\": [$G], \"routes\": [$R]}" >"$f"
	G= R=
}
cfg "$L1" "$T_TMP/l1.json" up1 "$S1:d1" up2 "$S2:d1" route:10.2.0.0/16
cfg "$L2" "$T_TMP/l2.json" up1 "$S1:d2" up2 "$S2:d2" route:10.1.0.0/16
cfg "$S1" "$T_TMP/s1.json" d1 "$L1:up1" route:10.1.0.0/16 d2 "$L2:up1" route:10.2.0.0/16
cfg "$S2" "$T_TMP/s2.json" d1 "$L1:up2" route:10.1.0.0/16 d2 "$L2:up2" route:10.2.0.0/16
for n in L1:l1:up1:up2 S1:s1:d1:d2 S2:s2:d1:d2 L2:l2:up1:up2; do
	IFS=: read -r v f a b <<<"$n"
	ns=${!v}
	X "$ns" attach "$a" "$b" --mode "$MODE" >"$T_TMP/$f.att" 2>&1 &&
		X "$ns" config load "$T_TMP/$f.json" >>"$T_TMP/$f.att" 2>&1 &&
		X "$ns" paths port "$a" fabric >>"$T_TMP/$f.att" 2>&1 &&
		X "$ns" paths port "$b" fabric >>"$T_TMP/$f.att" 2>&1
	t_check $? "$f: attach $a $b --mode $MODE, config load, both ports fabric" \
		"$(cat "$T_TMP/$f.json" "$T_TMP/$f.att")"
done
for n in "$S1" "$S2"; do
	X "$n" paths set role spine key $KEY timeout-us $TMO interval-us 500
	t_check $? "$n: paths set role spine"
done
X "$S2" paths port d2 fabric band 5
t_check $? "spine2: its port toward leaf2 degraded (paths port d2 fabric band 5)"
for n in 1 2; do
	v=L$n
	X "${!v}" paths set role leaf leaf-id $n key $KEY timeout-us $TMO interval-us 500 &&
		X "${!v}" paths leaf 10.1.0.0/16 1 && X "${!v}" paths leaf 10.2.0.0/16 2
	t_check $? "leaf$n: paths set role leaf leaf-id $n, both leaves' prefixes"
done

udp_in() { ip netns exec "$1" awk '/^Udp:/ { n++ } /^Udp:/ && n == 2 { print $2 + $3 }' /proc/net/snmp; }
u1=$(udp_in "$L1") u2=$(udp_in "$L2")
T_BG_OUT=$T_TMP/send1.out T_BG_ERR=$T_TMP/send1.out t_bg SEND1 \
	ip netns exec "$L1" "$ROCEDP" paths send --src 10.1.0.1
T_BG_OUT=$T_TMP/send2.out T_BG_ERR=$T_TMP/send2.out t_bg SEND2 \
	ip netns exec "$L2" "$ROCEDP" paths send --src 10.2.0.1

# fresh L UPLINK BAND: leaf L's entry for the other leaf via UPLINK is
# live at BAND (paths -j)
entry() {
	X "$1" paths -j >"$T_TMP/p.json" 2>&1 &&
		t_pyj "$T_TMP/p.json" "[(p['band'], p['failed']) for p in j['paths'] if p['dev'] == '$2'] == [($3, $4)]"
}
t_wait_for 10 entry "$L1" up1 0 False && t_wait_for 10 entry "$L1" up2 5 False
t_check $? "leaf1: leaf 2 via up1 at band 0, via up2 at band 5 (spine2's degraded port), both fresh" \
	"$(X "$L1" paths)"
t_wait_for 10 entry "$L2" up1 0 False && t_wait_for 10 entry "$L2" up2 0 False
t_check $? "leaf2: leaf 1 at band 0 both ways (the degraded port is the other direction's)" \
	"$(X "$L2" paths)"
sleep 0.5
ctr() { X "$1" paths -j | $PY -c "import json,sys; print(json.load(sys.stdin)['probes']['$2'])"; }
for n in "$S1" "$S2"; do
	[ "$(ctr "$n" forwarded)" -gt 100 ] && [ "$(ctr "$n" accepted)" = 0 ] &&
		[ "$(ctr "$n" bad_auth)" = 0 ] && [ "$(ctr "$n" host_port)" = 0 ]
	t_check $? "$n: forwarded $(ctr "$n" forwarded) probes, took none, refused none" "$(X "$n" paths)"
done
for n in "$L1" "$L2"; do
	[ "$(ctr "$n" accepted)" -gt 100 ] && [ "$(ctr "$n" forwarded)" = 0 ] &&
		[ "$(ctr "$n" bad_auth)" = 0 ] && [ "$(ctr "$n" stale)" = 0 ]
	t_check $? "$n: took $(ctr "$n" accepted) probes, forwarded none, none stale or spoofed" "$(X "$n" paths)"
done
[ "$(udp_in "$L1")" = "$u1" ] && [ "$(udp_in "$L2")" = "$u2" ]
t_check $? "no probe reached a leaf's kernel (Udp InDatagrams + NoPorts unchanged)" \
	"leaf1 $u1 -> $(udp_in "$L1"), leaf2 $u2 -> $(udp_in "$L2")"
grep -q "1 remote leaves over 2 (leaf, uplink) pairs, every 500 us: 1568000 bit/s per uplink (0.0157% of 10 Gbit/s" "$T_TMP/send1.out"
t_check $? "paths send reports its bandwidth: $(head -1 "$T_TMP/send1.out" | cut -c1-150)" "$(cat "$T_TMP/send1.out")"

ip -n "$S2" link set d2 down
t_wait_for 5 entry "$L1" up2 8 True
t_check $? "spine2's link to leaf2 down: leaf1's entry via up2 failed (timeout $TMO us)" "$(X "$L1" paths)"
entry "$L1" up1 0 False >/dev/null
t_check $? "... while the path via up1 stays fresh" "$(X "$L1" paths)"
ip -n "$S2" link set d2 up
t_wait_for 10 entry "$L1" up2 5 False
t_check $? "the link back up: leaf1's entry via up2 fresh again at band 5" "$(X "$L1" paths)"

kill "$SEND1" "$SEND2" && wait "$SEND1" "$SEND2" 2>/dev/null
grep -q "^paths send: [0-9]* probes, [0-9]* bytes, 0 not sent" "$T_TMP/send1.out"
t_check $? "leaf1's sender on SIGTERM: $(tail -1 "$T_TMP/send1.out")" "$(cat "$T_TMP/send1.out")"
t_done
