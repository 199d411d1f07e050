#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rocedp's own CONFIG_DB tables live (docs/sonic.md, "rocedp's own
# tables"): a redis-server of this test's own holds ROCEDP|global and
# ROCEDP_QOS; `rocedp sonic sync` applies them. A change of
# ROCEDP|global flowlet_rtt_us reaches the pinned maps within one second;
# an out-of-range value and a malformed one are refused (STATE_DB
# ROCEDP|status refused, the reason logged) and the maps keep what they
# had; ROCEDP_QOS|cnp dscp reaches the class's remark action.
#
# Usage: selftests/sonic_table.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip redis-server redis-cli || exit $?
SW=T_sw$$
PIN=
SOCK=$T_TMP/redis.sock
X() { ip netns exec "$SW" "$ROCEDP" "$@"; }
rc() { redis-cli -s "$SOCK" "$@"; }
teardown() {
	[ -e "/run/netns/$SW" ] && X detach --all >/dev/null 2>&1
	ip netns del "$SW" 2>/dev/null
	[ -n "$PIN" ] && rm -rf "$PIN"
}
t_cleanup teardown

ip netns add "$SW" || exit 1
PIN=/sys/fs/bpf/rocedp-netns/$(t_netns_cookie "$SW") || exit 1
ip -n "$SW" link add s0 type veth peer name s0p
ip -n "$SW" link set s0 up
ip -n "$SW" link set s0p up
X attach s0 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach s0 in the switch namespace" "$(cat "$T_TMP/attach.out")"

t_redis REDIS_PID "$SOCK"
t_check $? "redis-server on $SOCK answers" "$(tail -n3 "$T_TMP/redis.out")"
printf '%s\n' \
	'HSET "PORT|Ethernet0" speed 100000 admin_status up' \
	'HSET "ROCEDP|global" features@ forward,remark,ecn,flowlet flowlet_rtt_us 40 hash_seed 5' \
	'SET CONFIG_DB_INITIALIZED 1' |
	rc -n 4 >"$T_TMP/load.out" 2>&1
t_check $? "CONFIG_DB: ROCEDP|global written with redis-cli HSET" "$(cat "$T_TMP/load.out")"

T_BG_OUT=$T_TMP/sync.out T_BG_ERR=$T_TMP/sync.log t_bg SYNC_PID \
	ip netns exec "$SW" "$ROCEDP" sonic sync --redis "unix:$SOCK" --ports Ethernet0=s0
state() { rc -n 6 hget "ROCEDP|status" "$1"; }
dump() {
	X -j config dump >"$T_TMP/dump.json" 2>/dev/null &&
		t_pyj "$T_TMP/dump.json" "$1" 2>/dev/null
}
rtt() { dump 'j["flowlet"]["rtt_us"]'; }
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "sonic sync applies CONFIG_DB (state $(state state))" "$(tail -n5 "$T_TMP/sync.log")"
[ "$(rtt)" = 40 ] && [ "$(dump 'j["hash"]["seed"]')" = 5 ] &&
	dump 'sorted(j["features"]) == ["ecn", "flowlet", "forward", "remark"]' >/dev/null
t_check $? "maps: flowlet.rtt_us 40, hash.seed 5, flowlet on, from ROCEDP|global" "$(head -c 400 "$T_TMP/dump.json")"

# a live change: the maps within one second of the HSET. The daemon
# counts the apply in STATE_DB after the map writes, so the time it moves
# bounds when the maps changed; it is polled with redis-cli, which is
# cheap even on a loaded machine (a `config dump` per poll was not: its
# own run time was counted in)
a0=$(state applies)
t0=$(date +%s%N)
rc -n 4 hset "ROCEDP|global" flowlet_rtt_us 100 >/dev/null
while [ "$(state applies)" = "$a0" ] && [ $(($(date +%s%N) - t0)) -lt 3000000000 ]; do sleep 0.01; done
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$(rtt)" = 100 ] && [ "$ms" -le 1000 ]
t_check $? "HSET ROCEDP|global flowlet_rtt_us 100 reaches the maps in $ms ms (<= 1000)" "$(tail -n3 "$T_TMP/sync.log")"

# refused: out of rocedp's range, then not a number; nothing changes
refuse() { # VALUE WANT-IN-ERROR
	local r0
	r0=$(state refusals)
	rc -n 4 hset "ROCEDP|global" flowlet_rtt_us "$1" >/dev/null
	t_wait_for 3 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' refusals)\" -gt $r0 ]" || return 1
	[ "$(state state)" = refused ] || return 1
	case "$(state error)" in *"$2"*) ;; *) return 1 ;; esac
	[ "$(rtt)" = 100 ] && [ "$(dump 'j["hash"]["seed"]')" = 5 ]
}
refuse 0 "flowlet.rtt_us"
t_check $? "flowlet_rtt_us 0: refused ('$(state error)'), the maps keep 100" "$(tail -n3 "$T_TMP/sync.log")"
refuse abc "flowlet_rtt_us"
t_check $? "flowlet_rtt_us abc: refused ('$(state error)'), the maps keep 100"
grep -q "refused" "$T_TMP/sync.log"
t_check $? "the refusals are logged" "$(tail -n3 "$T_TMP/sync.log")"
rc -n 4 hset "ROCEDP|global" flowlet_rtt_us 60 >/dev/null
for _ in $(seq 30); do [ "$(rtt)" = 60 ] && break; sleep 0.1; done
[ "$(rtt)" = 60 ] && [ "$(state state)" = ok ]
t_check $? "a good value again: flowlet.rtt_us 60, state ok"

rc -n 4 hset "ROCEDP_QOS|cnp" dscp 40 >/dev/null
for _ in $(seq 30); do [ "$(dump 'j["qos"]["cnp"]["dscp"]')" = 40 ] && break; sleep 0.1; done
[ "$(dump 'j["qos"]["cnp"]["dscp"]')" = 40 ]
t_check $? "ROCEDP_QOS|cnp dscp 40 reaches the maps (qos.cnp.dscp $(dump 'j["qos"]["cnp"]["dscp"]'))"

kill -TERM "$SYNC_PID" 2>/dev/null
wait "$SYNC_PID"
t_check $? "SIGTERM: the daemon exits 0"

# --- database numbers from database_config.json (no --redis: its socket),
# and a multi-ASIC namespace from database_global.json beside it ---
mkdir -p "$T_TMP/sonic-db/asic0"
dbconf() { # FILE APPL COUNTERS CONFIG STATE
	cat >"$1" <<EOF
{"INSTANCES": {"redis": {"hostname": "127.0.0.1", "port": 6379, "unix_socket_path": "$SOCK"}},
 "DATABASES": {"APPL_DB": {"id": $2, "separator": ":", "instance": "redis"},
  "COUNTERS_DB": {"id": $3, "separator": ":", "instance": "redis"},
  "CONFIG_DB": {"id": $4, "separator": "|", "instance": "redis"},
  "STATE_DB": {"id": $5, "separator": "|", "instance": "redis"}},
 "VERSION": "1.0"}
EOF
}
dbconf "$T_TMP/sonic-db/database_config.json" 0 12 14 13
dbconf "$T_TMP/sonic-db/asic0/database_config.json" 0 9 10 11
printf '%s\n' '{"INCLUDES": [{"include": "database_config.json"},' \
	'{"namespace": "asic0", "include": "asic0/database_config.json"}], "VERSION": "1.0"}' \
	>"$T_TMP/sonic-db/database_global.json"
# DB CONFIG STATE COUNTERS RTT [--namespace NS]: CONFIG_DB in CONFIG, the
# daemon started with the file, STATE_DB and COUNTERS_DB where it says
db_run() {
	local cfg=$1 st=$2 ctr=$3 want=$4
	shift 4
	printf '%s\n' 'HSET "PORT|Ethernet0" speed 100000' \
		"HSET \"ROCEDP|global\" flowlet_rtt_us $want" 'SET CONFIG_DB_INITIALIZED 1' |
		rc -n "$cfg" >/dev/null
	T_BG_OUT=$T_TMP/sync3.out T_BG_ERR=$T_TMP/sync3.log t_bg SYNC_PID \
		ip netns exec "$SW" "$ROCEDP" sonic sync --ports Ethernet0=s0 \
		--db-config "$T_TMP/sonic-db/database_config.json" "$@"
	t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$SOCK' -n $st hget 'ROCEDP|status' state)\" = ok ]" &&
		[ "$(rtt)" = "$want" ] &&
		t_wait_for 3 sh -c "[ -n \"\$(redis-cli -s '$SOCK' -n $ctr hget 'COUNTERS_ROCEDP:Ethernet0' rx_pkts)\" ]"
	local r=$?
	kill -TERM "$SYNC_PID" 2>/dev/null
	wait "$SYNC_PID"
	return $r
}
db_run 14 13 12 70
t_check $? "--db-config, no --redis: CONFIG_DB 14 applied (rtt $(rtt)), ROCEDP|status in 13, COUNTERS_ROCEDP in 12" "$(tail -n4 "$T_TMP/sync3.log")"
grep -q "databases: CONFIG_DB 14, COUNTERS_DB 12, STATE_DB 13" "$T_TMP/sync3.log"
t_check $? "the log names the databases in use" "$(head -n3 "$T_TMP/sync3.log")"
db_run 10 11 9 90 --namespace asic0
t_check $? "--namespace asic0: its database_config.json (CONFIG_DB 10, STATE_DB 11, COUNTERS_DB 9), rtt $(rtt)" "$(tail -n4 "$T_TMP/sync3.log")"
X sonic sync --db-config "$T_TMP/sonic-db/database_config.json" --namespace asic7 >/dev/null 2>"$T_TMP/ns.err"
[ $? = 2 ] && grep -q 'no namespace "asic7"' "$T_TMP/ns.err"
t_check $? "an unknown namespace: exit 2, named ($(cat "$T_TMP/ns.err"))"
rc shutdown nosave >/dev/null 2>&1
wait "$REDIS_PID" 2>/dev/null
t_done
