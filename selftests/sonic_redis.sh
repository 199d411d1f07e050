#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sonic sync` against a real Redis (docs/sonic.md, "Live"): a
# redis-server of this test's own on a unix socket in a temp dir (never the
# system service) holds a SONiC CONFIG_DB written with redis-cli HSETs as
# SONiC's tools write it (hashes "TABLE|key", lists as "field@" "a,b").
# rocedp runs on two veths of a switch namespace between two hosts. The
# daemon must: apply CONFIG_DB to the maps; follow live WRED and hash
# changes (a burst applied once); publish the native hash fields in STATE_DB
# and counters in COUNTERS_DB that move with RoCE traffic (per-port packets
# and bytes; per-queue ECN marks once rocedp forwards and marks); survive a Redis
# restart (maps and forwarding untouched meanwhile, then reconnect and keep
# following); refuse a bad change, keep the running config and say so in
# STATE_DB ROCEDP|status.
#
# Usage: selftests/sonic_redis.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip redis-server redis-cli || exit $?
H1=R_h1$$
SW=R_sw$$
H2=R_h2$$
SOCK=$T_TMP/redis.sock
X() { ip netns exec "$SW" "$ROCEDP" "$@"; }
rc() { redis-cli -s "$SOCK" "$@"; }

redis_start() {
	t_redis REDIS_PID "$SOCK" --dbfilename dump.rdb
}
redis_stop() { # SHUTDOWN SAVE: the data comes back, as SONiC's does
	rc shutdown save >/dev/null 2>&1
	wait "$REDIS_PID" 2>/dev/null
}

# state FIELD: STATE_DB ROCEDP|status FIELD
state() { rc -n 6 hget "ROCEDP|status" "$1"; }
# dump EXPR: python over j = rocedp's running config (config dump)
dump() {
	X -j config dump >"$T_TMP/dump.json" 2>"$T_TMP/dump.err" &&
		t_pyj "$T_TMP/dump.json" "$1"
}
kmin() { dump 'j["ecn"]["ports"]["s0"]["kmin_bytes"]' 2>/dev/null; }
mode() { dump 'j["hash"]["mode"]' 2>/dev/null; }
# ctr NAME_MAP NAME FIELD: a COUNTERS_DB counter through its name map
ctr() {
	local o
	o=$(rc -n 2 hget "$1" "$2") && [ -n "$o" ] &&
		rc -n 2 hget "COUNTERS:$o" "$3"
}
# qmarks QUEUE: "PACKETS BYTES" of a queue's ECN marks, read in one HMGET
# (both are written by one HSET, so they are always of the same instant)
qmarks() {
	local o
	o=$(rc -n 2 hget COUNTERS_QUEUE_NAME_MAP "$1") && [ -n "$o" ] &&
		rc -n 2 hmget "COUNTERS:$o" SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS \
			SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES | tr '\n' ' '
}

# --- topology: h1 -- s0 [sw: rocedp] s1 -- h2 ---
t_switch3 "$H1" "$SW" "$H2" || { t_fail "topology h1 - sw - h2"; t_done; exit 1; }
X attach s0 s1 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach s0 s1 (generic XDP) in the switch namespace" "$(cat "$T_TMP/attach.out")"

redis_start
t_check $? "redis-server on $SOCK answers" "$(tail -n3 "$T_TMP/redis.out")"

# --- CONFIG_DB as SONiC's templates write it (sonic-cfggen, config CLI) ---
rc -n 4 >"$T_TMP/load.out" 2>&1 <<'EOF'
HSET "DEVICE_METADATA|localhost" hostname rsw1 hwsku Force10-S6000 type LeafRouter
HSET "PORT|Ethernet0" alias fortyGigE0/0 lanes 29,30,31,32 speed 100000 mtu 9100 admin_status up
HSET "PORT|Ethernet4" alias fortyGigE0/4 lanes 25,26,27,28 speed 100000 mtu 9100 admin_status up
HSET "SWITCH_HASH|GLOBAL" ecmp_hash@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL ecmp_hash_ipv4_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP ecmp_hash_ipv6_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP
HSET "WRED_PROFILE|AZURE_LOSSLESS" wred_green_enable true wred_yellow_enable true wred_red_enable true ecn ecn_all green_max_threshold 2097152 green_min_threshold 1048576 yellow_max_threshold 2097152 yellow_min_threshold 1048576 red_max_threshold 2097152 red_min_threshold 1048576 green_drop_probability 5 yellow_drop_probability 5 red_drop_probability 5
HSET "QUEUE|Ethernet0|3-4" wred_profile AZURE_LOSSLESS
HSET "QUEUE|Ethernet4|3-4" wred_profile AZURE_LOSSLESS
HSET "DSCP_TO_TC_MAP|AZURE" 0 1 1 1 2 1 3 3 4 4 5 1 6 1 7 1 8 0 46 5 48 6
HSET "TC_TO_QUEUE_MAP|AZURE" 0 0 1 1 3 3 4 4 5 5 6 6
HSET "PORT_QOS_MAP|Ethernet0" dscp_to_tc_map AZURE tc_to_queue_map AZURE pfc_enable 3,4
HSET "PORT_QOS_MAP|Ethernet4" dscp_to_tc_map AZURE tc_to_queue_map AZURE pfc_enable 3,4
HSET "ARS_PROFILE|default" algorithm ewma sampling_interval 16 past_load_weight 1 future_load_weight 0 max_flows 512
HSET "ARS_OBJECT|ars1" assign_mode per_flowlet_quality flowlet_idle_time 256 max_flows 512
SET CONFIG_DB_INITIALIZED 1
EOF
[ "$(rc -n 4 dbsize)" -ge 12 ]
t_check $? "CONFIG_DB loaded with redis-cli HSET ($(rc -n 4 dbsize) keys)" "$(cat "$T_TMP/load.out")"

T_BG_OUT=$T_TMP/sync.out T_BG_ERR=$T_TMP/sync.log t_bg SYNC_PID \
	ip netns exec "$SW" "$ROCEDP" sonic sync --redis "unix:$SOCK" --ports Ethernet0=s0,Ethernet4=s1 \
	--port-interval 0.2 --queue-interval 0.5
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "sonic sync applies CONFIG_DB: STATE_DB ROCEDP|status state ok" "$(tail -n5 "$T_TMP/sync.log")"

[ "$(kmin)" = 1048576 ]
t_check $? "maps: s0 (Ethernet0) ECN kmin = AZURE_LOSSLESS green_min_threshold (got $(kmin))" "$(cat "$T_TMP/dump.err")"
[ "$(mode)" = qp ]
t_check $? "maps: hash mode qp from ecmp_hash_ipv4_rdma with RDMA_BTH_DEST_QP (got $(mode))"

caps=$(rc -n 6 hget "SWITCH_CAPABILITY|switch" "HASH|NATIVE_HASH_FIELD_LIST")
case ",$caps," in *,RDMA_BTH_DEST_QP,*) r=0 ;; *) r=1 ;; esac
t_check $r "STATE_DB SWITCH_CAPABILITY|switch HASH|NATIVE_HASH_FIELD_LIST: $caps"

# --- live changes: WRED, then the hash lists in one burst ---
rc -n 4 hset "WRED_PROFILE|AZURE_LOSSLESS" green_min_threshold 524288 >/dev/null
for _ in $(seq 30); do [ "$(kmin)" = 524288 ] && break; sleep 0.1; done
[ "$(kmin)" = 524288 ]
t_check $? "live: green_min_threshold 524288 reaches the maps (got $(kmin))"

before=$(state applies)
printf '%s\n' \
	'HSET "SWITCH_HASH|GLOBAL" ecmp_hash_ipv4_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL' \
	'HSET "SWITCH_HASH|GLOBAL" ecmp_hash_ipv6_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL' |
	rc -n 4 >/dev/null
for _ in $(seq 30); do [ "$(mode)" = 5tuple ] && break; sleep 0.1; done
[ "$(mode)" = 5tuple ]
t_check $? "live: RDMA_BTH_DEST_QP dropped from the RDMA hash lists: mode 5tuple (got $(mode))"
sleep 0.3
[ $(($(state applies) - before)) = 1 ]
t_check $? "the burst of two HSETs is applied once (applies $before -> $(state applies))"

# --- counters: RoCE traffic h1 -> h2 through the switch ---
sleep 0.5
in0=$(ctr COUNTERS_PORT_NAME_MAP Ethernet0 SAI_PORT_STAT_IF_IN_UCAST_PKTS)
[ -n "$in0" ]
t_check $? "COUNTERS_DB: Ethernet0 in COUNTERS_PORT_NAME_MAP, IN_UCAST_PKTS $in0"
q=$(ctr COUNTERS_QUEUE_NAME_MAP Ethernet0:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS)
[ -n "$q" ]
t_check $? "COUNTERS_DB: Ethernet0:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS present ($q)"
q=$(ctr COUNTERS_QUEUE_NAME_MAP Ethernet0:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES)
[ -n "$q" ]
t_check $? "COUNTERS_DB: Ethernet0:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES present ($q)"
a=$(ctr COUNTERS_ARS_NAME_MAP ars1 SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS)
[ -n "$a" ]
t_check $? "COUNTERS_DB: ARS object ars1 NEXT_HOP_REASSIGNMENTS present ($a)"

send() { # NAME [DST]: RoCE messages h1 -> h2, the responder on h2
	local srv
	t_serve srv "$1" "$H2" eth0 || return 1
	ip netns exec "$H1" "$ROCEGEN" send --dst "${2:-10.2.0.2}" --qps 2 --msg 16K \
		--count 4 --timeout 5 -j >"$T_TMP/$1.send" 2>"$T_TMP/$1.send.err"
	local r=$?
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	return $r
}
send traffic1
t_check $? "rocegen: 8 messages h1 -> h2 through the switch" "$(head -c 300 "$T_TMP/traffic1.send.err")"
moved() {
	local v
	v=$(ctr COUNTERS_PORT_NAME_MAP Ethernet0 SAI_PORT_STAT_IF_IN_UCAST_PKTS)
	[ -n "$v" ] && [ "$v" -gt "${in0:-0}" ]
}
t_wait_for 3 moved
t_check $? "COUNTERS_DB moves: Ethernet0 IN_UCAST_PKTS $in0 -> $(ctr COUNTERS_PORT_NAME_MAP Ethernet0 SAI_PORT_STAT_IF_IN_UCAST_PKTS), OUT_OCTETS on Ethernet4 $(ctr COUNTERS_PORT_NAME_MAP Ethernet4 SAI_PORT_STAT_IF_OUT_OCTETS)"

# --- Redis restarts: maps and forwarding stay, the daemon comes back ---
redis_stop
sleep 0.5
[ "$(kmin)" = 524288 ] && [ "$(mode)" = 5tuple ]
t_check $? "Redis down: the maps are unchanged (kmin $(kmin), mode $(mode))"
send traffic2
t_check $? "Redis down: RoCE traffic still goes through" "$(head -c 300 "$T_TMP/traffic2.send.err")"
kill -0 "$SYNC_PID" 2>/dev/null
t_check $? "Redis down: the daemon keeps running" "$(tail -n3 "$T_TMP/sync.log")"
redis_start
t_check $? "redis-server restarted with its saved data"
t_wait_for 8 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' reconnects)\" -ge 1 ] 2>/dev/null"
t_check $? "the daemon reconnects (STATE_DB reconnects $(state reconnects))" "$(tail -n4 "$T_TMP/sync.log")"
rc -n 4 hset "WRED_PROFILE|AZURE_LOSSLESS" green_min_threshold 786432 >/dev/null
for _ in $(seq 30); do [ "$(kmin)" = 786432 ] && break; sleep 0.1; done
[ "$(kmin)" = 786432 ]
t_check $? "after the restart it follows again: green_min_threshold 786432 (got $(kmin))"

# --- a bad change is refused: running config kept, STATE_DB says why ---
refusals=$(state refusals)
rc -n 4 hset "ARS_OBJECT|ars1" flowlet_idle_time 99999 >/dev/null
t_wait_for 3 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = refused ]"
t_check $? "flowlet_idle_time 99999 (SONiC allows 2..2047): refused, STATE_DB state refused" "$(tail -n3 "$T_TMP/sync.log")"
err=$(state error)
case "$err" in *ARS_OBJECT*) r=0 ;; *) r=1 ;; esac
t_check $r "STATE_DB ROCEDP|status error names the key: $err"
[ "$(state refusals)" = $((refusals + 1)) ] && [ "$(kmin)" = 786432 ] && [ "$(mode)" = 5tuple ]
t_check $? "the running config stays (kmin $(kmin), mode $(mode), refusals $(state refusals))"
grep -q "refused" "$T_TMP/sync.log"
t_check $? "the refusal is logged"
rc -n 4 hset "ARS_OBJECT|ars1" flowlet_idle_time 256 >/dev/null
t_wait_for 3 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "fixed again: state ok, error cleared ('$(state error)')"

# --- ECN marks per queue: rocedp forwarding (routes from `rocedp sync`)
# and s1's queue estimate pinned above AZURE_LOSSLESS's Kmax (a test knob
# SONiC has no field for: veths have no queue to build) ---
T_BG_OUT=/dev/null T_BG_ERR=$T_TMP/rsync.log t_bg RSYNC_PID \
	ip netns exec "$SW" "$ROCEDP" sync
# rocedp forwards gateway routes (connected subnets stay the kernel's)
ip -n "$H2" addr add 10.9.0.2/32 dev eth0
ip -n "$SW" route add 10.9.0.0/24 via 10.2.0.2 dev s1
# the daemon repairs any drift from CONFIG_DB within a second, and this
# knob is one CONFIG_DB cannot express: it is paused while the knob holds
kill -STOP "$SYNC_PID"
X config set ecn.ports.s1.hold_queue_bytes=4194304 >"$T_TMP/hold.out" 2>&1
t_check $? "config set ecn.ports.s1.hold_queue_bytes (above Kmax)" "$(cat "$T_TMP/hold.out")"
m0=$(ctr COUNTERS_QUEUE_NAME_MAP Ethernet4:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS)
mb0=$(ctr COUNTERS_QUEUE_NAME_MAP Ethernet4:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES)
o0=$(ctr COUNTERS_PORT_NAME_MAP Ethernet4 SAI_PORT_STAT_IF_OUT_UCAST_PKTS)
sleep 1 # sync's first dump
send traffic3 10.9.0.2
t_check $? "rocegen: RoCE through rocedp's own forwarding" "$(head -c 300 "$T_TMP/traffic3.send.err")"
kill -CONT "$SYNC_PID"
marked() {
	local v
	v=$(ctr COUNTERS_QUEUE_NAME_MAP Ethernet4:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS)
	[ -n "$v" ] && [ "$v" -gt "${m0:-0}" ]
}
t_wait_for 3 marked
t_check $? "COUNTERS_DB: Ethernet4:3 WRED_ECN_MARKED_PACKETS $m0 -> $(ctr COUNTERS_QUEUE_NAME_MAP Ethernet4:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS), OUT_UCAST_PKTS $o0 -> $(ctr COUNTERS_PORT_NAME_MAP Ethernet4 SAI_PORT_STAT_IF_OUT_UCAST_PKTS)" "$(X -j stats 2>&1 | head -c 400)"
# _BYTES moves with _PACKETS: at least a minimum frame per mark, and once
# the traffic is over both equal s1's own counters in `rocedp stats`
bytes_agree() {
	local p b
	read -r p b <<<"$(qmarks Ethernet4:3)"
	X -j stats >"$T_TMP/stats.json" 2>/dev/null || return 1
	dp=$(t_pyj "$T_TMP/stats.json" '" ".join(str(sum(p[k] for p in j["ports"] if p.get("name") == "s1")) for k in ("ecn_marked", "ecn_marked_bytes"))') || return 1
	[ -n "$b" ] && [ "$p $b" = "$dp" ] && [ "$b" -gt "${mb0:-0}" ] &&
		[ $((b - ${mb0:-0})) -ge $(((p - ${m0:-0}) * 60)) ]
}
t_wait_for 12 bytes_agree
t_check $? "COUNTERS_DB: Ethernet4:3 WRED_ECN_MARKED_BYTES $mb0 -> $(ctr COUNTERS_QUEUE_NAME_MAP Ethernet4:3 SAI_QUEUE_STAT_WRED_ECN_MARKED_BYTES) with PACKETS, = rocedp stats s1 ($dp)" "$(qmarks Ethernet4:3)"
kill -TERM "$RSYNC_PID" 2>/dev/null
wait "$RSYNC_PID" 2>/dev/null

# --- rocedp detached: a change waits, and applies once rocedp is back ---
r0=$(state refusals)
X detach --all >/dev/null 2>&1
rc -n 4 hset "WRED_PROFILE|AZURE_LOSSLESS" green_min_threshold 655360 >/dev/null
t_wait_for 3 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = waiting ]" &&
	[ "$(state refusals)" = "$r0" ]
t_check $? "detached: STATE_DB state waiting ('$(state error)'), no refusal ($(state refusals))" "$(tail -n3 "$T_TMP/sync.log")"
X attach s0 s1 --mode generic >"$T_TMP/attach2.out" 2>&1
for _ in $(seq 40); do [ "$(kmin)" = 655360 ] && break; sleep 0.1; done
[ "$(kmin)" = 655360 ] && [ "$(state state)" = ok ]
t_check $? "attached again: the waiting change applies (kmin $(kmin), state $(state state))" "$(cat "$T_TMP/attach2.out")"

# --- drift: the maps changed behind CONFIG_DB's back are put back ---
X config set ecn.ports.s0.kmin_bytes=100000 >"$T_TMP/drift.out" 2>&1
for _ in $(seq 40); do [ "$(kmin)" = 655360 ] && break; sleep 0.1; done
[ "$(kmin)" = 655360 ] && grep -q "running config differs" "$T_TMP/sync.log"
t_check $? "config set kmin 100000 behind CONFIG_DB's back: repaired to 655360 (got $(kmin))" "$(cat "$T_TMP/drift.out"; tail -n3 "$T_TMP/sync.log")"
X detach --all >/dev/null 2>&1
X attach s0 s1 --mode generic >"$T_TMP/attach3.out" 2>&1
for _ in $(seq 40); do [ "$(kmin)" = 655360 ] && break; sleep 0.1; done
[ "$(kmin)" = 655360 ]
t_check $? "detach and attach with CONFIG_DB unchanged: the new maps get CONFIG_DB (kmin $(kmin))" "$(cat "$T_TMP/attach3.out"; tail -n3 "$T_TMP/sync.log")"

# SIGTERM while the daemon waits for a reply (Redis stalled): the cut
# connection is out of step, so the restore must go on a fresh one.
# Its own state says when it waits: blocked reading the Redis socket.
kill -STOP "$REDIS_PID"
t_wait_for 5 grep -q unix_stream_read "/proc/$SYNC_PID/wchan"
t_check $? "Redis stalled: the daemon waits for a reply ($(cat "/proc/$SYNC_PID/wchan" 2>/dev/null))"
kill -TERM "$SYNC_PID" 2>/dev/null
kill -CONT "$REDIS_PID"
wait "$SYNC_PID"
t_check $? "SIGTERM: the daemon exits 0" "$(tail -n2 "$T_TMP/sync.log")"
ev=$(rc config get notify-keyspace-events | tail -n1)
[ -z "$ev" ]
t_check $? "notify-keyspace-events back to what the server had ('' , got '$ev')" "$(tail -n3 "$T_TMP/sync.log")"
[ "$(state state)" = stopped ]
t_check $? "STATE_DB ROCEDP|status state stopped (got '$(state state)')"
redis_stop

t_done
