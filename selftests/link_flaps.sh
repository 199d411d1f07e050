#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Link flaps in rd_port_flaps (docs/telemetry.md, Link flaps): while
# `rocedp sync` runs, a veth taken down and up N times counts N downs and N
# ups with the times of the last four in CLOCK_REALTIME; its peer, whose
# carrier alone goes (IFF_UP stays), counts the same; the kernel's own
# carrier_changes moved by as much. A port that did not flap counts 0, a
# flap while sync is stopped is not recorded, a restarted sync records no
# flap for the state it finds, and a deleted port's slot is cleared.
#
# Usage: selftests/link_flaps.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool || exit $?
t_pin_ns E_flaps$$ || exit 1
N=5

# flaps IF: "downs ups n last0 last1 last2 last3" of IF's slot
flaps() {
	local idx
	idx=$(ip -n "$NS" -j link show dev "$1" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["ifindex"])')
	bpftool -j map lookup pinned "$PIN/rd_port_flaps" key $(printf '%d %d %d %d' \
		$((idx & 255)) $((idx >> 8 & 255)) 0 0) | $PY -c '
import json, sys
v = json.load(sys.stdin)["formatted"]["value"]
print(v["downs"], v["ups"], v["n"], *v["last_ns"])'
}
cchanges() { ip netns exec "$NS" cat "/sys/class/net/$1/carrier_changes"; }
# flap IF COUNT
flap() {
	local i
	for i in $(seq "$2"); do
		ip -n "$NS" link set "$1" down
		sleep 0.05
		ip -n "$NS" link set "$1" up
		sleep 0.05
	done
}

t_ns_ab || exit 1
X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach a0 b0" "$(cat "$T_TMP/attach.out")"
T_BG_ERR=$T_TMP/sync.err t_rd_bg SYNC_PID sync
sleep 0.5
set -- $(flaps a0)
[ "$1 $2 $3" = "0 0 0" ]
t_check $? "a0 before any flap: 0 downs, 0 ups (got $1 $2 $3)"

c0=$(cchanges a0)
c1=$(cchanges a1)
t0=$(date +%s%N)
flap a0 $N
t1=$(date +%s%N)
t_wait_for 3 sh -c "[ \"\$(bpftool -j map dump pinned $PIN/rd_port_flaps | $PY -c 'import json,sys; print(sum(e[\"formatted\"][\"value\"][\"ups\"] for e in json.load(sys.stdin)))')\" -ge $((2 * N)) ]"
set -- $(flaps a0)
[ "$1 $2 $3" = "$N $N $((2 * N))" ]
t_check $? "a0 down/up $N times: $N downs, $N ups, $((2 * N)) events (got $1 $2 $3)" "$(cat "$T_TMP/sync.err")"
$PY "$T_TOP/selftests/link_flaps.py" newest "$t0" "$t1" "$@"
t_check $? "a0: the last 4 flap times lie within the flapping, newest at (n-1)%4 ($*)"
set -- $(flaps a1)
[ "$1 $2" = "$N $N" ]
t_check $? "a1 (peer: carrier only, IFF_UP kept): $N downs, $N ups (got $1 $2)"
k0=$(($(cchanges a0) - c0))
k1=$(($(cchanges a1) - c1))
[ "$k0" = $((2 * N)) ] && [ "$k1" = $((2 * N)) ]
t_check $? "the kernel's carrier_changes moved by $((2 * N)) on a0 and a1 too (got $k0, $k1)"
set -- $(flaps b0)
[ "$1 $2 $3" = "0 0 0" ]
t_check $? "b0, never flapped: 0 (got $1 $2 $3)"

kill "$SYNC_PID"
wait "$SYNC_PID" 2>/dev/null
flap b0 1
set -- $(flaps b0)
[ "$1 $2" = "0 0" ]
t_check $? "b0 flapped while sync was stopped: not recorded (got $1 $2)"
T_BG_ERR=$T_TMP/sync2.err t_rd_bg SYNC_PID sync
sleep 0.5
set -- $(flaps a0)
[ "$1 $2" = "$N $N" ]
t_check $? "a restarted sync keeps the counts and records no flap for what it finds (got $1 $2)"
flap b0 2
t_wait_for 3 sh -c "[ \"\$(bpftool -j map dump pinned $PIN/rd_port_flaps | $PY -c 'import json,sys; print(sum(e[\"formatted\"][\"value\"][\"ups\"] for e in json.load(sys.stdin)))')\" -ge $((2 * N + 4)) ]"
set -- $(flaps b0)
[ "$1 $2" = "2 2" ]
t_check $? "b0 down/up twice after the restart: 2 downs, 2 ups (got $1 $2)"
idx=$(ip -n "$NS" -j link show dev b0 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["ifindex"])')
ip -n "$NS" link del b0
t_wait_for 3 sh -c "bpftool -j map lookup pinned $PIN/rd_port_flaps key $((idx & 255)) $((idx >> 8 & 255)) 0 0 | grep -q '\"downs\":0,'"
t_check $? "b0 deleted: its slot ($idx) is cleared"
t_done
