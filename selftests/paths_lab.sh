#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Path quality steering, measured (docs/paths.md, "The lab"): 2 leaves x
# 4 spines, 2 hosts per leaf (tools/lab/rocedp-lab, static routes, no
# sync), rocedp on every switch: the leaves in native XDP with flowlets
# (least-loaded), the spines in tc mode with the spine role (their
# downlinks' qdiscs shape what rocedp forwards). Every spine's link down
# to leaf2 is shaped with tbf to RATE, spine2's to RATE/4, and spine2's
# port there has an ECN virtual queue at RATE/4, which is the band it
# stamps into leaf2's probes toward leaf1.
#
# A collective from leaf1's two hosts to leaf2's two (rocegen), twice:
#   control: flowlets local-only (paths steer off)
#   steer:   flowlets by path quality (paths steer on)
# Checked, as ratios (a loaded 2-core VM): with steering leaf1 sends a
# smaller share of its frames through spine2 and the collective completes
# sooner than the control; every message is delivered both times. Then
# the shaping is removed and spine2's share comes back; then spine2's
# link to leaf2 goes down with the routes left in place, and leaf1 stops
# sending frames to spine2 once the probe timeout has passed.
#
# Usage: selftests/paths_lab.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

SPINES=4
RATE=40 # Mbit/s: the spines' links down to leaf2; spine2's is RATE/4
SEND_RATE=40 # Mbit/s per sender (two senders: 80 offered, 130 capacity)
QPS=${PATHS_LAB_QPS:-4} # per destination
MSG=${PATHS_LAB_MSG:-16K}
WIN=${PATHS_LAB_WIN:-16} # frames: a message, so a QP idles an RTT between messages
COUNT=${PATHS_LAB_COUNT:-40} # messages per QP
FL_RTT=${PATHS_LAB_FLRTT:-2000} # us: the flowlet gap is half
KEY=5a17c0ffee0000000000000000000042
TMO=20000 # us: the path entry timeout
IVL=500 # us: the probe interval

t_require ethtool tc

T_LAB_PREFIX=pq$((RANDOM % 9000 + 1000))
t_cleanup "\"$LAB\" down --prefix $T_LAB_PREFIX >/dev/null 2>&1"
if ! lab up --leaves 2 --spines $SPINES --hosts 2 --mode native --no-rocedp \
	>"$T_TMP/lab.out" 2>&1; then
	t_fail "fabric up (2 leaves x $SPINES spines, 2 hosts per leaf)" "$(tail -n3 "$T_TMP/lab.out")"
	t_done
	exit 1
fi
t_ok "fabric up (2 leaves x $SPINES spines, 2 hosts per leaf)"

X() { local n=$1; shift; lab_exec "$n" "$ROCEDP" "$@"; }
mac() { ip -n "$(ns "$1")" -j link show dev "$2" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["address"])'; }
# members DEV:PEER_NODE:PEER_DEV...: a group's members as JSON
members() {
	local sep= m= d
	for d in "$@"; do
		IFS=: read -r dev pn pd <<<"$d"
		m="$m$sep{\"dev\": \"$dev\", \"dmac\": \"$(mac "$pn" "$pd")\"}"
		sep=,
	done
	echo "$m"
}
leaf_cfg() { # L OTHER: leaf L's config: the other leaf over the spines, its hosts
	local l=$1 o=$2 s ups=()
	for s in $(seq $SPINES); do ups+=("up$s:spine$s:leaf$l"); done
	cat <<EOF
{"features": ["forward", "remark", "flowlet", "ecn"],
 "hash": {"mode": "flowlet"}, "flowlet": {"choice": "least-loaded", "rtt_us": $FL_RTT},
 "groups": [{"id": 1, "members": [$(members "${ups[@]}")]},
	    {"id": 2, "members": [$(members "host1:h$l-1:eth0")]},
	    {"id": 3, "members": [$(members "host2:h$l-2:eth0")]}],
 "routes": [{"prefix": "10.$o.0.0/16", "group": 1},
	    {"prefix": "10.$l.1.0/24", "group": 2},
	    {"prefix": "10.$l.2.0/24", "group": 3}]}
EOF
}
spine_cfg() { # S: spine S's config: each leaf's /16 down its link
	cat <<EOF
{"features": ["forward", "remark", "ecn"],
 "groups": [{"id": 1, "members": [$(members "leaf1:leaf1:up$1")]},
	    {"id": 2, "members": [$(members "leaf2:leaf2:up$1")]}],
 "routes": [{"prefix": "10.1.0.0/16", "group": 1},
	    {"prefix": "10.2.0.0/16", "group": 2}]}
EOF
}

ok=0
for l in 1 2; do
	leaf_cfg $l $((3 - l)) >"$T_TMP/leaf$l.json"
	ifs=(host1 host2)
	for s in $(seq $SPINES); do ifs+=("up$s"); done
	X leaf$l attach "${ifs[@]}" --mode native >"$T_TMP/leaf$l.att" 2>&1 &&
		X leaf$l config load "$T_TMP/leaf$l.json" >>"$T_TMP/leaf$l.att" 2>&1 &&
		X leaf$l paths set role leaf leaf-id $l key $KEY timeout-us $TMO interval-us $IVL \
			>>"$T_TMP/leaf$l.att" 2>&1 &&
		X leaf$l paths leaf 10.1.0.0/16 1 && X leaf$l paths leaf 10.2.0.0/16 2 &&
		X leaf$l paths port host1 host && X leaf$l paths port host2 host || ok=1
	for s in $(seq $SPINES); do
		X leaf$l paths port up$s fabric >>"$T_TMP/leaf$l.att" 2>&1 || ok=1
	done
	[ $ok = 0 ] || break
done
t_check $ok "leaves: rocedp native, flowlets least-loaded, role leaf, uplinks fabric, hosts host" \
	"$(cat "$T_TMP"/leaf*.json "$T_TMP"/leaf*.att)"
ok=0
for s in $(seq $SPINES); do
	spine_cfg $s >"$T_TMP/spine$s.json"
	X spine$s attach leaf1 leaf2 --mode tc >"$T_TMP/spine$s.att" 2>&1 &&
		X spine$s config load "$T_TMP/spine$s.json" >>"$T_TMP/spine$s.att" 2>&1 &&
		X spine$s paths set role spine key $KEY timeout-us $TMO interval-us $IVL \
			>>"$T_TMP/spine$s.att" 2>&1 &&
		X spine$s paths port leaf1 fabric && X spine$s paths port leaf2 fabric || ok=1
	[ $ok = 0 ] || break
done
t_check $ok "spines: rocedp tc, role spine, both ports fabric" \
	"$(cat "$T_TMP"/spine*.json "$T_TMP"/spine*.att)"

# shape SPINE MBIT: the spine's link down to leaf2, and its port model
shape() {
	local q=$(($2 * 1000000 / 8 / ${PATHS_LAB_QDIV:-200})) # 5 ms of the rate: the queue
	lab_exec "spine$1" tc qdisc replace dev leaf2 root tbf rate "$2mbit" \
		burst 16kb limit $q &&
		X "spine$1" ecn set leaf2 rate "$2" kmin $((q / 8)) kmax $((q / 2)) pmax 20 >/dev/null
}
ok=0
for s in $(seq $SPINES); do
	r=$RATE
	[ "$s" = 2 ] && r=$((RATE / 4))
	shape "$s" "$r" || ok=1
done
t_check $ok "spines' links down to leaf2 shaped (tbf): $RATE Mbit/s, spine2's $((RATE / 4))" \
	"$(lab_exec spine2 tc qdisc show dev leaf2)"

for l in 1 2; do
	T_BG_OUT=$T_TMP/send$l.out T_BG_ERR=$T_TMP/send$l.out t_bg SEND$l \
		ip netns exec "$(ns leaf$l)" "$ROCEDP" paths send --src 10.$l.1.1
done
entry() { # LEAF UPLINK: leaf L's entry for the other leaf via UPLINK is fresh
	X "$1" paths -j >"$T_TMP/p.json" 2>&1 &&
		t_pyj "$T_TMP/p.json" "[p['failed'] for p in j['paths'] if p['dev'] == '$2'] == [False]"
}
ok=0
for s in $(seq $SPINES); do
	t_wait_for 10 entry leaf1 "up$s" || ok=1
done
t_check $ok "leaf1 has a fresh path to leaf 2 over each of the $SPINES spines" "$(X leaf1 paths)"
printf '%s\n' "h1-1 $(ns h1-1) 10.1.1.2" "h1-2 $(ns h1-2) 10.1.2.2" \
	"h2-1 $(ns h2-1) 10.2.1.2" "h2-2 $(ns h2-2) 10.2.2.2" >"$T_TMP/hosts"

snap() { X leaf1 -j stats >"$T_TMP/$1.json" 2>"$T_TMP/$1.err"; }
# collective NAME: h1-1 and h1-2 each send to h2-1 and h2-2; NAME.res is
# one line: completion_ms delivered wanted spine2_share
collective() {
	local n=$1 h
	for h in 1 2; do
		rm -f "$T_TMP/$n.ready$h"
		T_BG_OUT=$T_TMP/$n.serve$h T_BG_ERR=$T_TMP/$n.serve$h.err t_bg SRV$h \
			ip netns exec "$(ns h2-$h)" "$ROCEGEN" serve --idle 3 --ready "$T_TMP/$n.ready$h" -j
	done
	t_wait_for 10 test -e "$T_TMP/$n.ready1" -a -e "$T_TMP/$n.ready2"
	snap "$n.a"
	# leaf1's table every 50 ms while the collective runs
	(i=0; while [ ! -e "$T_TMP/$n.done" ]; do
		X leaf1 paths -j >"$T_TMP/$n.paths.$i" 2>/dev/null
		i=$((i + 1)); sleep 0.05
	done) &
	SAMPLER=$!
	for h in 1 2; do
		T_BG_OUT=$T_TMP/$n.send$h T_BG_ERR=$T_TMP/$n.send$h.err t_bg SND$h \
			ip netns exec "$(ns h1-$h)" "$ROCEGEN" send --dst 10.2.1.2,10.2.2.2 --qps $QPS --msg $MSG \
			--count $COUNT --rate $SEND_RATE --window $WIN --rto 50000 --retries 100 -j
	done
	wait "$SND1" "$SND2"
	: >"$T_TMP/$n.done"
	wait "$SAMPLER"
	snap "$n.b"
	wait "$SRV1" "$SRV2"
	t_py "$T_TOP/selftests/paths_lab.py" collective "$T_TMP" "$n" $SPINES >"$T_TMP/$n.res"
}

X leaf1 paths set steer off >/dev/null
collective control
t_check $? "control (flowlets local-only): $(cat "$T_TMP/control.res")"
X leaf1 paths set steer on >/dev/null
collective steer
t_check $? "steer (flowlets by path quality): $(cat "$T_TMP/steer.res")"
t_py "$T_TOP/selftests/paths_lab.py" compare "$T_TMP/control.res" "$T_TMP/steer.res" >"$T_TMP/cmp"
t_check $? "steering: $(cat "$T_TMP/cmp")"
t_py "$T_TOP/selftests/paths_lab.py" bands "$T_TMP" steer >"$T_TMP/bands"
echo "# while shaped, leaf1's table: $(cat "$T_TMP/bands")"

# recovery: the shaping removed, spine2 carries its share again
shape 2 $RATE
t_check $? "spine2's link down to leaf2 unshaped ($RATE Mbit/s)"
collective unshaped
t_check $? "unshaped, steer on: $(cat "$T_TMP/unshaped.res")"
t_py "$T_TOP/selftests/paths_lab.py" recovered "$T_TMP/steer.res" "$T_TMP/unshaped.res" >"$T_TMP/cmp"
t_check $? "recovery: $(cat "$T_TMP/cmp")"

# failure: spine2's link to leaf2 down, every route left in place (as
# while BGP waits out its hold time). A long send from h1-1; the window
# of the check starts well after the probe timeout, so a busy machine
# cannot make it late.
failure() { # STEER
	local mode=$1
	X leaf1 paths set steer "$mode" >/dev/null
	T_BG_OUT=$T_TMP/fail.$mode.send T_BG_ERR=$T_TMP/fail.$mode.err t_bg FSND 		ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2,10.2.2.2 --qps $QPS --msg $MSG 		--count 100000 --rate $SEND_RATE --window $WIN --rto 50000 --retries 1000
	sleep 1
	local t0 i
	t0=$(date +%s%N)
	lab_exec spine2 ip link set leaf2 down
	# how soon leaf1's table shows the path failed (a poll: an upper bound)
	for i in $(seq 100); do
		X leaf1 paths -j >"$T_TMP/p.json" 2>&1 &&
			t_pyj "$T_TMP/p.json" "[p['failed'] for p in j['paths'] if p['dev'] == 'up2'] == [True]" >/dev/null &&
			break
		sleep 0.01
	done
	echo $((($(date +%s%N) - t0) / 1000000)) >"$T_TMP/fail.$mode.seen_ms"
	sleep 0.5
	snap "fail.$mode.a"
	sleep 1
	snap "fail.$mode.b"
	X leaf1 paths >"$T_TMP/paths.failed.$mode"
	kill "$FSND"
	wait "$FSND" 2>/dev/null
	lab_exec spine2 ip link set leaf2 up
}
t_wait_for 10 entry leaf1 up2
for h in 1 2; do
	T_BG_OUT=$T_TMP/fail.serve$h T_BG_ERR=$T_TMP/fail.serve$h.err t_bg SRV$h \
		ip netns exec "$(ns h2-$h)" "$ROCEGEN" serve --idle 30
done
failure on && t_wait_for 10 entry leaf1 up2 && failure off
t_py "$T_TOP/selftests/paths_lab.py" failed "$T_TMP" $SPINES >"$T_TMP/cmp"
t_check $? "link down, routes kept: from 0.5 s to 1.5 s after, $(cat "$T_TMP/cmp"); leaf1 showed the path failed $(cat "$T_TMP/fail.on.seen_ms") ms after (timeout $((TMO / 1000)) ms, a poll)"
kill "$SRV1" "$SRV2" 2>/dev/null
echo "# rocedp paths on leaf1, spine2's link to leaf2 down:"
sed 's/^/#   /' "$T_TMP/paths.failed.on"
t_done
