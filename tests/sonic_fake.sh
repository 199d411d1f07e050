#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sonic sync` against a faulty or hostile Redis: a scripted RESP
# server (tests/sonic_fake_redis.py) breaks one reply per run (nil, integer
# and nested entries in a SCAN reply, a cursor that never ends, a 300 MB
# bulk string, a 100-million-element array, -LOADING). After each, the
# daemon must be alive, have used under half a CPU, stay under 96 MB,
# reconnect at a bounded pace (backoff, not a storm), and log the cause.
# No maps are pinned (ROCEDP_PIN_DIR points nowhere): nothing is applied.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/selftests/lib.sh"
TMP=$(mktemp -d)
FAKE=
SYNC=
cleanup() {
	[ -n "$SYNC" ] && kill -KILL "$SYNC" 2>/dev/null
	[ -n "$FAKE" ] && kill -KILL "$FAKE" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
t_cleanup cleanup
TCK=$(getconf CLK_TCK)
WINDOW=3 # seconds each fault is left to act

# cpu PID: user+system clock ticks so far
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
# hwm PID: peak resident memory in kB
hwm() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

start_fake() { # MODE
	rm -f "$TMP/count"
	$PY "$ROOT/tests/sonic_fake_redis.py" "$TMP/redis.sock" "$1" \
		"$TMP/count" >"$TMP/fake.log" 2>&1 &
	FAKE=$!
	for _ in $(seq 50); do [ -e "$TMP/count" ] && return 0; sleep 0.1; done
	return 1
}
stop_fake() {
	kill -KILL "$FAKE" 2>/dev/null
	wait "$FAKE" 2>/dev/null
	FAKE=
}
start_sync() {
	ROCEDP_PIN_DIR=$TMP/nopins "$ROCEDP" sonic sync \
		--redis "unix:$TMP/redis.sock" --port-interval 1 \
		>/dev/null 2>"$TMP/sync.log" &
	SYNC=$!
}
stop_sync() { # exit status of the daemon after SIGTERM
	local rc i
	kill -TERM "$SYNC" 2>/dev/null
	for i in $(seq 50); do # bounded: KILL (and 137) after 5 s
		kill -0 "$SYNC" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$SYNC" 2>/dev/null
	wait "$SYNC"
	rc=$?
	SYNC=
	return $rc
}

# fault MODE WHAT LOGTEXT: one run
fault() {
	local mode=$1 what=$2 text=$3 c0 c1 conns mem
	if ! start_fake "$mode"; then
		nok "$mode: the fake server starts" "$(cat "$TMP/fake.log")"
		return
	fi
	start_sync
	sleep 0.5
	c0=$(cpu "$SYNC")
	sleep "$WINDOW"
	c1=$(cpu "$SYNC")
	mem=$(hwm "$SYNC")
	conns=$(cut -d' ' -f1 "$TMP/count")
	if kill -0 "$SYNC" 2>/dev/null && [ -n "$c1" ]; then
		ok "$mode: $what: the daemon is alive"
	else
		wait "$SYNC"
		nok "$mode: $what: the daemon is alive (exit $?)" "$(tail -n3 "$TMP/sync.log")"
		SYNC=
		stop_fake
		return
	fi
	[ $((c1 - c0)) -lt $((WINDOW * TCK / 2)) ] &&
		ok "$mode: CPU $((c1 - c0)) ticks in ${WINDOW} s (under half of $((WINDOW * TCK)))" ||
		nok "$mode: CPU $((c1 - c0)) ticks in ${WINDOW} s (under half of $((WINDOW * TCK)))"
	[ "${mem:-999999}" -lt 98304 ] &&
		ok "$mode: peak memory ${mem} kB (under 96 MB)" ||
		nok "$mode: peak memory ${mem} kB (under 96 MB)"
	# backoff: 10 ms doubling to 1 s, so about 10 in 3.5 s; a storm is
	# thousands
	[ "${conns:-0}" -le 40 ] &&
		ok "$mode: $conns connections in $((WINDOW + 1)) s (backoff, no storm)" ||
		nok "$mode: $conns connections in $((WINDOW + 1)) s (backoff, no storm)" "$(tail -n3 "$TMP/sync.log")"
	# the cause may take longer to show on a busy machine (4096 rounds)
	for _ in $(seq 150); do
		grep -q -- "$text" "$TMP/sync.log" && break
		sleep 0.1
	done
	grep -q -- "$text" "$TMP/sync.log" &&
		ok "$mode: the log says why: $(grep -m1 -- "$text" "$TMP/sync.log" | cut -c22-)" ||
		nok "$mode: the log says '$text'" "$(tail -n5 "$TMP/sync.log")"
	stop_sync
	[ $? = 0 ] && ok "$mode: SIGTERM: exit 0" || nok "$mode: SIGTERM: exit 0"
	stop_fake
}

fault ok "a well-behaved server (the control)" "no maps to apply to"
fault scan-nil "a nil among SCAN's keys" "key 0 is not a string"
fault scan-int "an integer among SCAN's keys" "key 0 is not a string"
fault scan-nested "an array among SCAN's keys" "key 0 is not a string"
fault cursor "a SCAN cursor that never returns to 0" "SCAN: no end after"
fault huge-bulk "a 300 MB bulk reply" "reply over"
fault huge-array "an array of 100 million elements" "reply over"
fault loading "-LOADING" "LOADING Redis is loading"

# SIGTERM inside the SCAN loop: it ends there, not after 4096 rounds
if start_fake slow-cursor; then
	start_sync
	sleep 1.5
	t0=$(date +%s%N)
	stop_sync
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ $rc = 0 ] && [ $ms -lt 2500 ] &&
		ok "SIGTERM inside an endless SCAN: exit 0 after $ms ms" ||
		nok "SIGTERM inside an endless SCAN: exit 0 (got $rc after $ms ms)" "$(tail -n3 "$TMP/sync.log")"
	stop_fake
fi

t_done
