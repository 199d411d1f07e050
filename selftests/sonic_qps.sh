#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sonic sync`'s per-QP counters (docs/sonic.md, "QP counters"):
# COUNTERS_ROCEDP_QP:<src>|<dst>|<dest_qp> in COUNTERS_DB for the top K QPs
# of the telemetry table, against a redis-server of this test's own and
# a COUNTERS_DB seeded as syncd leaves it (the beside-syncd role).
#
# Under RoCE traffic (rocegen, 4 QPs, --qp-top 2) there are exactly 2 keys,
# and each field lies between two `rocedp -j qps` reads taken around it;
# once the traffic ends the fields equal `rocedp -j qps` and the keys are
# its top 2. New QPs that take the top K (a second rocegen on other QP
# numbers) replace the old keys, which are deleted; a daemon restarted
# with --qp-top 1 deletes what the earlier one left beyond its top 1. No
# key present before (syncd's) changes: each DUMPs byte-identical.
#
# Usage: selftests/sonic_qps.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip redis-server redis-cli || exit $?
H1=SQ_h1$$
SW=SQ_sw$$
H2=SQ_h2$$
SOCK=$T_TMP/redis.sock
X() { ip netns exec "$SW" "$ROCEDP" "$@"; }
rc() { redis-cli -s "$SOCK" "$@"; }
# qp_keys: how many COUNTERS_ROCEDP_QP keys COUNTERS_DB holds
qp_keys() { rc -n 2 --scan --pattern 'COUNTERS_ROCEDP_QP:*' | wc -l; }

t_switch3 "$H1" "$SW" "$H2" || { t_fail "topology h1 - sw - h2"; t_done; exit 1; }
X attach s0 s1 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach s0 s1 in the switch namespace" "$(cat "$T_TMP/attach.out")"

t_redis REDIS_PID "$SOCK"
t_check $? "redis-server on $SOCK answers" "$(tail -n3 "$T_TMP/redis.out")"

# CONFIG_DB with telemetry on (rocedp's own table); COUNTERS_DB as syncd
# leaves it for two ports, and orchagent's SWITCH_CAPABILITY
rc -n 4 >"$T_TMP/load.out" 2>&1 <<'EOF2'
HSET "PORT|Ethernet0" alias etp1 speed 100000 admin_status up
HSET "PORT|Ethernet4" alias etp2 speed 100000 admin_status up
HSET "ROCEDP|global" features@ forward,remark,ecn,telemetry telemetry_qp_stall_us 60000000
SET CONFIG_DB_INITIALIZED 1
EOF2
# a stall (an ACK late by the 4 ms default) would make a QP "sick", and
# the sick rank first for good: a busy machine must not reorder the top K
t_check $? "CONFIG_DB written, ROCEDP|global features@ with telemetry" "$(cat "$T_TMP/load.out")"
{
	for i in 0 1; do
		o=oid:0x10000000000$((i + 2))a
		echo "HSET COUNTERS_PORT_NAME_MAP Ethernet$((i * 4)) $o"
		echo "HSET COUNTERS:$o SAI_PORT_STAT_IF_IN_UCAST_PKTS 100$i SAI_PORT_STAT_IF_OUT_UCAST_PKTS 200$i"
		for q in 0 3; do
			echo "HSET COUNTERS_QUEUE_NAME_MAP Ethernet$((i * 4)):$q oid:0x15000000000$i$q"
			echo "HSET COUNTERS:oid:0x15000000000$i$q SAI_QUEUE_STAT_PACKETS $q"
		done
	done
	# a key of another exporter that looks like rocedp's but is not
	echo "HSET COUNTERS_ROCEDP_QPX:1 owner other"
} | rc -n 2 >"$T_TMP/seed.out" 2>&1
rc -n 6 hset "SWITCH_CAPABILITY|switch" ECMP_HASH_CAPABLE true >>"$T_TMP/seed.out" 2>&1
[ "$(rc -n 2 dbsize)" -ge 9 ]
t_check $? "syncd-like COUNTERS_DB seeded ($(rc -n 2 dbsize) keys)" "$(tail -n3 "$T_TMP/seed.out")"
snap() {
	local db k
	for db in 0 2 6; do
		rc -n $db --scan | sort | while read -r k; do
			printf '%s %s %s\n' "$db" "$k" "$(rc -n $db --no-raw dump "$k")"
		done
	done >"$1"
}
snap "$T_TMP/before"

sync_bg() { # VAR LOG ARGS...
	local var=$1 log=$2
	shift 2
	T_BG_OUT=/dev/null T_BG_ERR=$log t_bg "$var" \
		ip netns exec "$SW" "$ROCEDP" sonic sync --redis "unix:$SOCK" \
		--ports Ethernet0=s0,Ethernet4=s1 --port-interval 0.2 \
		--queue-interval 1 "$@"
}
sync_bg SYNC "$T_TMP/sync.log" --qp-top 2
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "sonic sync applies CONFIG_DB (role $(rc -n 6 hget 'ROCEDP|status' role))" "$(tail -n5 "$T_TMP/sync.log")"
X -j config dump >"$T_TMP/dump.json" 2>&1
t_pyj "$T_TMP/dump.json" '"telemetry" in j["features"]' >/dev/null
t_check $? "telemetry on in the maps" "$(head -c 200 "$T_TMP/dump.json")"

# qpdb FILE: every COUNTERS_ROCEDP_QP key with its fields, as JSON
qpdb() {
	$PY "$T_TOP/selftests/sonic_qps.py" qpdb "$SOCK" >"$1"
}
# compare MODE A.json DB.json B.json: the QP keys against rocedp -j qps
# reads A (before) and B (after). MODE "between": A <= DB <= B for every
# counter; "equal": DB == B, and the keys are B's top K by bytes
compare() {
	$PY "$T_TOP/selftests/sonic_qps.py" compare "$@" >"$T_TMP/compare" 2>&1
}
# between: rocedp -j qps, then (after a port interval) the keys, then again
between() {
	X -j qps >"$T_TMP/a.json" 2>/dev/null || return 1
	sleep 0.3
	qpdb "$T_TMP/db.json" || return 1
	X -j qps >"$T_TMP/b.json" 2>/dev/null || return 1
	[ "$(t_pyj "$T_TMP/db.json" 'len(j)')" = 2 ] || return 1
	compare between "$T_TMP/a.json" "$T_TMP/db.json" "$T_TMP/b.json"
}
equal() {
	qpdb "$T_TMP/db.json" || return 1
	X -j qps --sort bytes >"$T_TMP/b.json" 2>/dev/null || return 1
	compare equal "$T_TMP/b.json" "$T_TMP/db.json" "$T_TMP/b.json"
}

t_serve SRV qps "$H2" eth0
t_check $? "rocegen responder on h2" "$(cat "$T_TMP/qps.serve.err")"
# send BASE DURATION: 4 QPs from h1 to h2, requester QPNs from BASE
send() {
	T_BG_OUT=$T_TMP/send$1.json T_BG_ERR=$T_TMP/send$1.err t_bg SEND \
		ip netns exec "$H1" "$ROCEGEN" send --dst 10.2.0.2 --qps 4 \
		--qpn-base "$1" --msg 16K --rate 20 --duration "$2" \
		--rto 2000000 --timeout 20 -j
}
send 256 6
sleep 2
t_wait_for 4 between
t_check $? "under traffic: 2 keys (--qp-top 2 of $(t_pyj "$T_TMP/b.json" 'j["count"]') QPs), each field within two rocedp -j qps reads around it" "$(cat "$T_TMP/compare")"
wait "$SEND"
t_check $? "rocegen: 4 QPs h1 -> h2" "$(head -c 300 "$T_TMP/send256.err")"
t_wait_for 5 equal
t_check $? "traffic over: the keys are rocedp -j qps's top 2 by bytes, every counter equal" "$(cat "$T_TMP/compare")"
cp "$T_TMP/db.json" "$T_TMP/db1.json"
ip=$(t_pyj "$T_TMP/db1.json" 'sorted(set(v["in_port"] for v in j.values()))')
[ "$ip" = "['Ethernet0', 'Ethernet4']" ] || [ "$ip" = "['Ethernet0']" ] || [ "$ip" = "['Ethernet4']" ]
t_check $? "in_port by SONiC name: $ip"

# new, busier QPs take the top K: the old keys go
send 1024 4
newkeys() {
	qpdb "$T_TMP/db.json" &&
		t_pyj "$T_TMP/db.json" 'len(j) == 2 and all(not k in j for k in json.load(open("'"$T_TMP/db1.json"'")))' | grep -qx True
}
t_wait_for 6 newkeys
t_check $? "new QPs in the top 2: their keys replace the old ones, which are deleted ($(t_pyj "$T_TMP/db.json" 'sorted(j)'))"
wait "$SEND"
X -j qps >"$T_TMP/all.json" 2>/dev/null
n=$(t_pyj "$T_TMP/all.json" 'j["count"]')
[ "$(qp_keys)" = 2 ] && [ "${n:-0}" -ge 8 ]
t_check $? "$n QPs in the telemetry table, 2 keys in COUNTERS_DB"

kill -TERM "$SYNC" 2>/dev/null
wait "$SYNC"
t_check $? "SIGTERM: exit 0"
sync_bg SYNC "$T_TMP/sync1.log" --qp-top 1
one() { [ "$(qp_keys)" = 1 ]; }
t_wait_for 5 one
t_check $? "restarted with --qp-top 1: the key left beyond its top 1 is deleted ($(qp_keys) left)" "$(tail -n3 "$T_TMP/sync1.log")"
kill -TERM "$SYNC" 2>/dev/null
wait "$SYNC"
t_check $? "SIGTERM: exit 0"

sync_bg SYNC "$T_TMP/sync0.log" --qp-top 0
zero() { [ "$(qp_keys)" = 0 ]; }
t_wait_for 5 zero
t_check $? "--qp-top 0: no QP key" "$(tail -n3 "$T_TMP/sync0.log")"
kill -TERM "$SYNC" 2>/dev/null
wait "$SYNC"

snap "$T_TMP/after"
changed=$(comm -23 <(sort "$T_TMP/before") <(sort "$T_TMP/after") | cut -d' ' -f1,2 | head -n5 | tr '\n' ' ')
[ -z "$changed" ]
t_check $? "every one of the $(wc -l <"$T_TMP/before") keys present before DUMPs byte-identical (COUNTERS_ROCEDP_QPX:1 too)" "changed: $changed"

out=$(X sonic sync --redis "unix:$SOCK" --qp-top 1025 2>&1)
[ $? = 2 ] && [ "$(echo "$out" | grep -c 'qp-top 1025')" -ge 1 ]
t_check $? "--qp-top 1025 refused: $(echo "$out" | head -n1)"
kill -TERM "$SRV" 2>/dev/null
rc shutdown nosave >/dev/null 2>&1
wait "$REDIS_PID" 2>/dev/null
t_done
