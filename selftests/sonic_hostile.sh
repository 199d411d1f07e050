#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sonic sync` against real redis-servers that do not cooperate
# (docs/sonic.md, "A daemon that holds"), each its own redis-server on a
# unix socket in a temp dir: bad options refused up front; a password
# (requirepass) and an ACL user without SCAN, AUTH from a file that never
# shows in ps or the log; a `config reload` (FLUSHDB, CONFIG_DB_INITIALIZED
# 0, the keys in bursts, then 1) that must never apply defaults or half a
# database; a port whose device appears later; a server with CONFIG
# renamed away; and a warm restart under RoCE traffic (killed, restarted:
# no frame lost, no map entry written, WARM_RESTART_TABLE restored then
# reconciled). After each: the daemon alive and the maps equal CONFIG_DB.
#
# Usage: selftests/sonic_hostile.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip redis-server redis-cli || exit $?
H1=RH_h1$$
SW=RH_sw$$
H2=RH_h2$$
X() { ip netns exec "$SW" "$ROCEDP" "$@"; }

# redis NAME ARGS...: a redis-server of this test on $T_TMP/NAME.sock
redis() {
	local name=$1
	shift
	T_BG_OUT=$T_TMP/$name.out T_BG_ERR=$T_TMP/$name.out t_bg RPID \
		redis-server --port 0 --unixsocket "$T_TMP/$name.sock" \
		--unixsocketperm 700 --dir "$T_TMP" --dbfilename "$name.rdb" \
		--save "" --appendonly no --daemonize no "$@"
	t_wait_for 5 sh -c "redis-cli -s '$T_TMP/$name.sock' ${RAUTH:-} ping 2>/dev/null | grep -q PONG"
}
# rc NAME ARGS...: redis-cli on server NAME (RAUTH: its admin password)
rc() {
	local name=$1
	shift
	redis-cli -s "$T_TMP/$name.sock" ${RAUTH:-} "$@" 2>/dev/null
}
# sync VAR NAME LOG ARGS...: the daemon on server NAME in the switch ns
sync_bg() {
	local var=$1 name=$2 log=$3
	shift 3
	T_BG_OUT=/dev/null T_BG_ERR=$log t_bg "$var" \
		ip netns exec "$SW" "$ROCEDP" sonic sync --redis "unix:$T_TMP/$name.sock" \
		--ports Ethernet0=s0,Ethernet4=s1,Ethernet8=s2 --port-interval 0.5 \
		--queue-interval 5 "$@"
}
stop_sync() { # PID: its exit status after SIGTERM; KILL (and 137) after 5 s
	local i
	kill -TERM "$1" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}
state() { rc "$1" -n 6 hget "ROCEDP|status" "$2"; }
dump() {
	X -j config dump >"$T_TMP/dump.json" 2>"$T_TMP/dump.err" &&
		t_pyj "$T_TMP/dump.json" "$1"
}
kmin() { dump 'j["ecn"]["ports"]["'"${1:-s0}"'"]["kmin_bytes"]' 2>/dev/null; }
seed() { dump 'j["hash"]["seed"]' 2>/dev/null; }
# conns NAME: connections the server has accepted so far
conns() { rc "$1" info stats | sed -n 's/^total_connections_received:\([0-9]*\).*/\1/p'; }

# CONFIG_DB as SONiC's templates write it; Ethernet8 (s2) has no device yet
configdb() { # NAME SEED
	rc "$1" -n 4 >"$T_TMP/load.out" 2>&1 <<EOF
HSET "PORT|Ethernet0" speed 100000 admin_status up
HSET "PORT|Ethernet4" speed 100000 admin_status up
HSET "PORT|Ethernet8" speed 100000 admin_status up
HSET "SWITCH_HASH|GLOBAL" ecmp_hash_ipv4_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP ecmp_hash_seed $2
HSET "WRED_PROFILE|AZURE_LOSSLESS" wred_green_enable true ecn ecn_all green_max_threshold 2097152 green_min_threshold 1048576 green_drop_probability 5
HSET "QUEUE|Ethernet0|3-4" wred_profile AZURE_LOSSLESS
HSET "QUEUE|Ethernet4|3-4" wred_profile AZURE_LOSSLESS
HSET "QUEUE|Ethernet8|3-4" wred_profile AZURE_LOSSLESS
SET CONFIG_DB_INITIALIZED 1
EOF
}

# --- options: refused before anything runs ---
opt() { # WANT_IN_ERR ARGS...: exit 2 and the error line says WANT
	local want=$1
	shift
	# bounded: a daemon that accepts the option would run for ever
	timeout -s KILL 5 "$ROCEDP" sonic sync "$@" >/dev/null 2>"$T_TMP/opt.err"
	local r=$?
	[ $r = 2 ] && grep -q -- "$want" "$T_TMP/opt.err"
}
opt "seconds 0.1..3600" --redis unix:/nonexistent --port-interval 0.0001
t_check $? "--port-interval 0.0001 (a busy loop on the shared Redis) refused: $(cat "$T_TMP/opt.err")"
opt "garbage" --redis unix:/nonexistent --ports garbage
t_check $? "--ports garbage refused: $(cat "$T_TMP/opt.err")"
opt "password in the address" --redis rd:Sekr1t@127.0.0.1:6379 &&
	! grep -q Sekr1t "$T_TMP/opt.err"
t_check $? "a password in --redis refused, and not repeated: $(cat "$T_TMP/opt.err")"
printf 'Sekr1t\n' >"$T_TMP/open.auth"
chmod 644 "$T_TMP/open.auth"
opt "readable by everyone" --redis unix:/nonexistent --auth-file "$T_TMP/open.auth"
t_check $? "an auth file everyone can read refused: $(cat "$T_TMP/opt.err")"

# --- topology: h1 -- s0 [sw: rocedp] s1 -- h2 ---
t_switch3 "$H1" "$SW" "$H2" || { t_fail "topology h1 - sw - h2"; t_done; exit 1; }
X attach s0 s1 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach s0 s1 (generic XDP) in the switch namespace" "$(cat "$T_TMP/attach.out")"

# --- requirepass: AUTH from a file, the password nowhere else ---
RAUTH="-a Sekr1t --no-auth-warning" redis pw --requirepass Sekr1t
t_check $? "redis-server with requirepass"
RAUTH="-a Sekr1t --no-auth-warning" configdb pw 77
printf 'Sekr1t\n' >"$T_TMP/pw.auth"
chmod 600 "$T_TMP/pw.auth"
sync_bg SPW pw "$T_TMP/pw.log" --auth-file "$T_TMP/pw.auth"
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$T_TMP/pw.sock' -a Sekr1t --no-auth-warning -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "requirepass: AUTH from --auth-file, CONFIG_DB applied (state ok)" "$(tail -n3 "$T_TMP/pw.log")"
[ "$(kmin)" = 1048576 ] && [ "$(seed)" = 77 ]
t_check $? "requirepass: the maps hold CONFIG_DB (kmin $(kmin), seed $(seed))"
! grep -q Sekr1t "$T_TMP/pw.log" && ! ps -eo args | grep -v grep | grep "sonic sync" | grep -q Sekr1t
t_check $? "the password is in neither the log nor ps"
stop_sync "$SPW"
# the same server without the file: refused, said, paced
sync_bg SNO pw "$T_TMP/nopw.log"
c0=$(RAUTH="-a Sekr1t --no-auth-warning" conns pw)
sleep 3
c1=$(RAUTH="-a Sekr1t --no-auth-warning" conns pw)
# one connection a try: NOAUTH is no reason to open the subscriber
kill -0 "$SNO" 2>/dev/null && grep -q "NOAUTH" "$T_TMP/nopw.log" && [ $((c1 - c0)) -le 16 ] &&
	! grep -q "CONFIG refused" "$T_TMP/nopw.log"
t_check $? "requirepass without the file: alive, logs the server's NOAUTH, $((c1 - c0)) connections in 3 s" "$(tail -n2 "$T_TMP/nopw.log")"
stop_sync "$SNO"
RAUTH="-a Sekr1t --no-auth-warning" rc pw shutdown nosave >/dev/null

# --- an ACL user without SCAN: NOPERM, backoff, then SCAN granted ---
redis acl
configdb acl 77
rc acl acl setuser rd on '>Pw2' '~*' '&*' +@all -scan >/dev/null
printf 'rd\nPw2\n' >"$T_TMP/acl.auth"
chmod 600 "$T_TMP/acl.auth"
sync_bg SACL acl "$T_TMP/acl.log" --auth-file "$T_TMP/acl.auth"
sleep 0.5
c0=$(conns acl)
sleep 3
c1=$(conns acl)
kill -0 "$SACL" 2>/dev/null && grep -q "NOPERM" "$T_TMP/acl.log" &&
	[ $((c1 - c0)) -le 16 ] && [ "$(wc -l <"$T_TMP/acl.log")" -le 8 ]
t_check $? "ACL without SCAN: alive, logs NOPERM, $((c1 - c0)) connections in 3 s, $(wc -l <"$T_TMP/acl.log") log lines" "$(tail -n3 "$T_TMP/acl.log")"
rc acl acl setuser rd +scan >/dev/null
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$T_TMP/acl.sock' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "SCAN granted: the next try applies (state $(state acl state))" "$(tail -n2 "$T_TMP/acl.log")"
# HGETALL refused on every key: a read that lost its keys is no CONFIG_DB
rc acl acl setuser rd -hgetall >/dev/null
rc acl -n 4 hset "PORT|Ethernet0" mtu 9100 >/dev/null
t_wait_for 5 grep -q "NOPERM.*(HGETALL" "$T_TMP/acl.log"
[ $? = 0 ] && [ "$(kmin)" = 1048576 ] && [ "$(seed)" = 77 ]
t_check $? "HGETALL refused (NOPERM): nothing applied, the maps keep CONFIG_DB (kmin $(kmin), seed $(seed))" "$(tail -n2 "$T_TMP/acl.log")"
rc acl acl setuser rd +hgetall >/dev/null

# --- a port whose device appears later: skipped, then applied ---
[ "$(state acl refusals)" = 0 ] && grep -q "ecn.ports.s2: no such device" "$T_TMP/acl.log"
t_check $? "Ethernet8 (s2) has no device: skipped with a warning, not a refusal (refusals $(state acl refusals))" "$(grep -m1 s2 "$T_TMP/acl.log")"
ip -n "$SW" link add s2 type veth peer name s2p
for _ in $(seq 40); do [ "$(kmin s2)" = 1048576 ] && break; sleep 0.1; done
[ "$(kmin s2)" = 1048576 ]
t_check $? "s2 appears: its ECN settings are applied without a CONFIG_DB change (kmin $(kmin s2))" "$(tail -n2 "$T_TMP/acl.log")"

# --- config reload: FLUSHDB, INITIALIZED 0, keys in bursts, then 1 ---
# sampled all along: never rocedp's defaults, never half a database
(
	for _ in $(seq 60); do
		echo "$(kmin) $(seed)"
		sleep 0.05
	done >"$T_TMP/samples"
) &
SAMPLER=$!
rc acl -n 4 flushdb >/dev/null
rc acl -n 4 set CONFIG_DB_INITIALIZED 0 >/dev/null
sleep 0.3
rc acl -n 4 hset "SWITCH_HASH|GLOBAL" ecmp_hash_ipv4_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP ecmp_hash_seed 78 >/dev/null
sleep 1.3 # past the daemon's longest coalescing (1 s)
rc acl -n 4 hset "PORT|Ethernet0" speed 100000 >/dev/null
rc acl -n 4 hset "PORT|Ethernet4" speed 100000 >/dev/null
rc acl -n 4 hset "WRED_PROFILE|AZURE_LOSSLESS" wred_green_enable true ecn ecn_all green_max_threshold 2097152 green_min_threshold 1048576 green_drop_probability 5 >/dev/null
sleep 0.5
rc acl -n 4 hset "QUEUE|Ethernet0|3-4" wred_profile AZURE_LOSSLESS >/dev/null
rc acl -n 4 hset "QUEUE|Ethernet4|3-4" wred_profile AZURE_LOSSLESS >/dev/null
rc acl -n 4 set CONFIG_DB_INITIALIZED 1 >/dev/null
wait "$SAMPLER"
bad=$(grep -cv '^1048576 7[78]$' "$T_TMP/samples")
[ "$bad" = 0 ]
t_check $? "config reload: $(wc -l <"$T_TMP/samples") samples, all kmin 1048576 and seed 77 or 78 ($bad others)" "$(grep -v '^1048576 7[78]$' "$T_TMP/samples" | sort | uniq -c | head -3)"
for _ in $(seq 30); do [ "$(seed)" = 78 ] && break; sleep 0.1; done
[ "$(seed)" = 78 ] && [ "$(kmin)" = 1048576 ] && grep -q "CONFIG_DB not loaded" "$T_TMP/acl.log"
t_check $? "after CONFIG_DB_INITIALIZED 1: the reloaded CONFIG_DB applies (seed $(seed), kmin $(kmin))" "$(tail -n3 "$T_TMP/acl.log")"
stop_sync "$SACL"
t_check $? "SIGTERM: exit 0"
rc acl shutdown nosave >/dev/null

# --- CONFIG renamed away, keyspace events on as SONiC's redis.conf has ---
redis nocfg --rename-command CONFIG "" --notify-keyspace-events AKE
configdb nocfg 77
sync_bg SNC nocfg "$T_TMP/nocfg.log"
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$T_TMP/nocfg.sock' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "CONFIG renamed away, events on: connects and applies (state $(state nocfg state))" "$(tail -n3 "$T_TMP/nocfg.log")"
rc nocfg -n 4 hset "SWITCH_HASH|GLOBAL" ecmp_hash_seed 79 >/dev/null
for _ in $(seq 30); do [ "$(seed)" = 79 ] && break; sleep 0.1; done
[ "$(seed)" = 79 ]
t_check $? "and follows a live change (seed $(seed))"

# --- warm restart under traffic: killed, restarted, nothing lost or rewritten ---
# RTO 2 s: a busy machine's scheduling stalls must not pass for losses
t_serve SRV warm "$H2" eth0
T_BG_OUT=$T_TMP/warm.send T_BG_ERR=$T_TMP/warm.send.err t_bg SEND \
	ip netns exec "$H1" "$ROCEGEN" send --dst 10.2.0.2 --qps 2 --msg 64K \
	--rate 20 --duration 4 --rto 2000000 --timeout 20 -j
sleep 1
kill -KILL "$SNC"
wait "$SNC" 2>/dev/null
w0=$(rc nocfg -n 6 hget "WARM_RESTART_TABLE|rocedp" restore_count)
rc nocfg -n 4 set CONFIG_DB_INITIALIZED 0 >/dev/null # held back: restored
sync_bg SNC nocfg "$T_TMP/warm.log"
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$T_TMP/nocfg.sock' -n 6 hget 'WARM_RESTART_TABLE|rocedp' state)\" = restored ]"
t_check $? "restarted: WARM_RESTART_TABLE|rocedp state restored (restore_count ${w0:-none} -> $(rc nocfg -n 6 hget "WARM_RESTART_TABLE|rocedp" restore_count))" "$(tail -n3 "$T_TMP/warm.log")"
rc nocfg -n 4 set CONFIG_DB_INITIALIZED 1 >/dev/null
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$T_TMP/nocfg.sock' -n 6 hget 'WARM_RESTART_TABLE|rocedp' state)\" = reconciled ]"
t_check $? "then reconciled once CONFIG_DB is loaded" "$(tail -n3 "$T_TMP/warm.log")"
[ "$(state nocfg map_writes)" = 0 ] && [ "$(seed)" = 79 ]
t_check $? "the reconcile wrote $(state nocfg map_writes) map entries (none changed; seed $(seed))" "$(grep applied "$T_TMP/warm.log" | tail -n1)"
wait "$SEND"
t_check $? "rocegen: RoCE h1 -> h2 across the restart" "$(head -c 300 "$T_TMP/warm.send.err")"
lost=$(t_pyj "$T_TMP/warm.send" 'j["total"]["retx_frames"] + j["total"]["timeouts"] + j["total"]["naks"]')
frames=$(t_pyj "$T_TMP/warm.send" 'j["total"]["frames"]')
[ "$lost" = 0 ] && [ "${frames:-0}" -gt 0 ]
t_check $? "no frame lost across the restart: $frames frames, retransmits+timeouts+NAKs $lost"
kill -TERM "$SRV" 2>/dev/null
stop_sync "$SNC"
t_check $? "SIGTERM: exit 0"
rc nocfg shutdown nosave >/dev/null

# --- CONFIG renamed away and keyspace events off: read every 10 s ---
redis noev --rename-command CONFIG ""
configdb noev 81
sync_bg SNE noev "$T_TMP/noev.log"
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$T_TMP/noev.sock' -n 6 hget 'ROCEDP|status' state)\" = ok ]" &&
	[ "$(seed)" = 81 ]
t_check $? "CONFIG renamed away, events off: applies (seed $(seed))" "$(tail -n3 "$T_TMP/noev.log")"
rc noev -n 4 hset "SWITCH_HASH|GLOBAL" ecmp_hash_seed 82 >/dev/null
for _ in $(seq 150); do [ "$(seed)" = 82 ] && break; sleep 0.1; done
[ "$(seed)" = 82 ]
t_check $? "no event comes, the 10 s re-read applies the change (seed $(seed))" "$(tail -n2 "$T_TMP/noev.log")"
stop_sync "$SNE"
rc noev shutdown nosave >/dev/null

t_done
