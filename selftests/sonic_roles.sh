#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sonic sync` in its two roles (docs/sonic.md, "Counters"), against
# a redis-server of this test's own (unix socket in a temp dir):
#
# Beside syncd: COUNTERS_DB, STATE_DB and APPL_DB are seeded the way syncd
# and orchagent leave them (port and queue name maps and their type, index
# and port maps, COUNTERS:<oid> for 4 ports and their queues, RATES,
# COUNTERS_ARS_NAME_MAP, SWITCH_CAPABILITY|switch, PORT_TABLE). The daemon
# runs for 30 s under traffic with a CONFIG_DB change in the middle; every
# key present before must DUMP byte-identical afterwards, no key may carry
# an OID rocedp made, and rocedp's own COUNTERS_ROCEDP:<port> must equal
# `rocedp -j stats`.
#
# As the dataplane (no syncd maps): selftests/sonic_portstat.py reads
# COUNTERS_DB as portstat and queuestat do; no column may be N/A, the
# columns equal `rocedp -j stats` (packets, bytes, the group-addressed
# split) and the kernel's counters (errors, discards) once the port
# interval has passed, and under traffic lie between two `rocedp -j stats`
# reads a port interval (and a margin) apart around them, queuestat's per-port totals equal the port's, and
# broadcast and multicast frames (IPv4 broadcast and multicast datagrams,
# IPv6 ND/MLD) move the non-unicast columns only.
#
# Usage: selftests/sonic_roles.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip redis-server redis-cli || exit $?
H1=S_h1$$
SW=S_sw$$
H2=S_h2$$
SOCK=$T_TMP/redis.sock
X() { ip netns exec "$SW" "$ROCEDP" "$@"; }
rc() { redis-cli -s "$SOCK" "$@"; }

t_switch3 "$H1" "$SW" "$H2" || { t_fail "topology h1 - sw - h2"; t_done; exit 1; }
X attach s0 s1 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach s0 s1 in the switch namespace" "$(cat "$T_TMP/attach.out")"

t_redis REDIS_PID "$SOCK"
t_check $? "redis-server on $SOCK answers" "$(tail -n3 "$T_TMP/redis.out")"

rc -n 4 >"$T_TMP/load.out" 2>&1 <<'EOF'
HSET "PORT|Ethernet0" alias etp1 lanes 0,1,2,3 speed 100000 admin_status up
HSET "PORT|Ethernet4" alias etp2 lanes 4,5,6,7 speed 100000 admin_status up
HSET "PORT|Ethernet8" alias etp3 lanes 8,9,10,11 speed 100000 admin_status up
HSET "PORT|Ethernet12" alias etp4 lanes 12,13,14,15 speed 100000 admin_status up
HSET "WRED_PROFILE|AZURE_LOSSLESS" wred_green_enable true ecn ecn_all green_min_threshold 1048576 green_max_threshold 2097152 green_drop_probability 5
HSET "QUEUE|Ethernet0|3-4" wred_profile AZURE_LOSSLESS
HSET "QUEUE|Ethernet4|3-4" wred_profile AZURE_LOSSLESS
HSET "ARS_OBJECT|ars1" assign_mode per_flowlet_quality flowlet_idle_time 256
SET CONFIG_DB_INITIALIZED 1
EOF
t_check $? "CONFIG_DB written with redis-cli HSET" "$(cat "$T_TMP/load.out")"

# --- beside syncd: what syncd and orchagent leave in the databases ---
seed() {
	local i p q o qo
	for i in 0 1 2 3; do
		p=Ethernet$((i * 4))
		o=oid:0x10000000000$((i + 2))a
		echo "HSET COUNTERS_PORT_NAME_MAP $p $o"
		echo "HSET COUNTERS:$o SAI_PORT_STAT_IF_IN_UCAST_PKTS $((1000 + i)) SAI_PORT_STAT_IF_IN_NON_UCAST_PKTS 7 SAI_PORT_STAT_IF_IN_OCTETS 98765 SAI_PORT_STAT_IF_OUT_UCAST_PKTS 2000 SAI_PORT_STAT_IF_OUT_OCTETS 123456 SAI_PORT_STAT_IF_IN_ERRORS 0"
		echo "HSET RATES:$o RX_BPS 1.5 RX_PPS 0.1 TX_BPS 2.5 TX_PPS 0.2"
		for q in 0 1 2 3 4 5 6 7; do
			qo=oid:0x15000000000$i$q
			echo "HSET COUNTERS_QUEUE_NAME_MAP $p:$q $qo"
			echo "HSET COUNTERS_QUEUE_PORT_MAP $qo $o"
			echo "HSET COUNTERS_QUEUE_INDEX_MAP $qo $q"
			echo "HSET COUNTERS_QUEUE_TYPE_MAP $qo SAI_QUEUE_TYPE_UNICAST"
			echo "HSET COUNTERS:$qo SAI_QUEUE_STAT_PACKETS $((i * 10 + q)) SAI_QUEUE_STAT_BYTES 4096 SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS 3"
		done
	done
	echo "HSET COUNTERS_ARS_NAME_MAP ars1 oid:0x5000000000b01"
	echo "HSET COUNTERS:oid:0x5000000000b01 SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS 11"
}
seed | rc -n 2 >"$T_TMP/seed.out" 2>&1
printf '%s\n' \
	'HSET "SWITCH_CAPABILITY|switch" ECMP_HASH_CAPABLE true LAG_HASH_CAPABLE true ECMP_HASH_ALGORITHM_CAPABLE true ECMP_HASH_ALGORITHM CRC,XOR,RANDOM "HASH|NATIVE_HASH_FIELD_LIST" SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,IN_PORT' \
	'HSET "PORT_TABLE|Ethernet0" state ok speed 100000' |
	rc -n 6 >>"$T_TMP/seed.out" 2>&1
printf '%s\n' 'HSET PORT_TABLE:Ethernet0 admin_status up oper_status up speed 100000' |
	rc -n 0 >>"$T_TMP/seed.out" 2>&1
n2=$(rc -n 2 dbsize)
[ "$n2" -ge 45 ]
t_check $? "syncd-like snapshot seeded: $n2 keys in COUNTERS_DB, SWITCH_CAPABILITY|switch in STATE_DB" "$(tail -n3 "$T_TMP/seed.out")"

# snap FILE: every key of databases 0, 2 and 6 with its DUMP
snap() {
	local db k
	for db in 0 2 6; do
		rc -n $db --scan | sort | while read -r k; do
			printf '%s %s %s\n' "$db" "$k" "$(rc -n $db --no-raw dump "$k")"
		done
	done >"$1"
}
snap "$T_TMP/before"

T_BG_OUT=$T_TMP/sync.out T_BG_ERR=$T_TMP/sync.log t_bg SYNC_PID \
	ip netns exec "$SW" "$ROCEDP" sonic sync --redis "unix:$SOCK" \
	--ports Ethernet0=s0,Ethernet4=s1 --port-interval 0.2 --queue-interval 0.5
state() { rc -n 6 hget "ROCEDP|status" "$1"; }
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "sonic sync applies CONFIG_DB (state $(state state))" "$(tail -n5 "$T_TMP/sync.log")"
[ "$(state role)" = beside-syncd ]
t_check $? "STATE_DB ROCEDP|status role: beside-syncd (got '$(state role)')"

# udp NS DST COUNT INTERVAL: COUNT 64-byte datagrams to DST (port 9)
udp() {
	ip netns exec "$1" $PY "$T_TOP/selftests/sonic_roles.py" udp "$2" "$3" "$4"
}
kmin() {
	X -j config dump >"$T_TMP/dump.json" 2>/dev/null &&
		t_pyj "$T_TMP/dump.json" 'j["ecn"]["ports"]["s0"]["kmin_bytes"]' 2>/dev/null
}
# 30 s of traffic h1 -> h2 (forwarded by the switch), a change at 15 s
T_BG_OUT=$T_TMP/udp.out T_BG_ERR=$T_TMP/udp.out t_bg UDP_PID \
	timeout 30 bash -c "$(declare -f udp); PY=$PY T_TOP=$T_TOP; udp $H1 10.2.0.2 100000 0.02"
sleep 15
rc -n 4 hset "WRED_PROFILE|AZURE_LOSSLESS" green_min_threshold 524288 >/dev/null
for _ in $(seq 30); do [ "$(kmin)" = 524288 ] && break; sleep 0.1; done
[ "$(kmin)" = 524288 ]
t_check $? "under traffic: green_min_threshold 524288 reaches the maps (got $(kmin))"
wait "$UDP_PID"
sleep 0.6 # a queue interval: every write the daemon makes has happened
snap "$T_TMP/after"
# the keys present before: byte-identical (rocedp's own keys are new)
sort "$T_TMP/before" >"$T_TMP/before.s"
sort "$T_TMP/after" >"$T_TMP/after.s"
changed=$(comm -23 "$T_TMP/before.s" "$T_TMP/after.s" | cut -d' ' -f1,2 | head -n5 | tr '\n' ' ')
[ -z "$changed" ] && [ "$(wc -l <"$T_TMP/before")" -ge 48 ]
t_check $? "every one of the $(wc -l <"$T_TMP/before") keys present before DUMPs byte-identical after 30 s" "changed: $changed"
mine=$(rc -n 2 --scan --pattern '*5244*' | head -n3)
[ -z "$mine" ]
t_check $? "no key in COUNTERS_DB carries an OID rocedp made" "$mine"
new=$(comm -13 <(cut -d' ' -f1,2 "$T_TMP/before") <(cut -d' ' -f1,2 "$T_TMP/after") | tr '\n' ' ')
case "$new" in *SWITCH_CAPABILITY* | *COUNTERS:oid* | *NAME_MAP*) r=1 ;; *) r=0 ;; esac
t_check $r "the keys rocedp added are its own: $new"
caps=$(rc -n 6 hget "ROCEDP_CAPABILITY|switch" "HASH|NATIVE_HASH_FIELD_LIST")
case ",$caps," in *,RDMA_BTH_DEST_QP,*) r=0 ;; *) r=1 ;; esac
t_check $r "STATE_DB ROCEDP_CAPABILITY|switch HASH|NATIVE_HASH_FIELD_LIST: $caps"
# own_agree PORT DEV: COUNTERS_ROCEDP:PORT equals rocedp -j stats for DEV
own_agree() {
	local got want
	got=$(rc -n 2 hmget "COUNTERS_ROCEDP:$1" rx_pkts rx_bytes tx_pkts tx_bytes rx_mcast rx_bcast | tr '\n' ' ')
	X -j stats >"$T_TMP/stats.json" 2>/dev/null || return 1
	want=$(t_pyj "$T_TMP/stats.json" '" ".join(str(p[k]) for p in j["ports"] if p["name"] == "'"$2"'" for k in ("rx_pkts", "rx_bytes", "tx_pkts", "tx_bytes", "rx_mcast", "rx_bcast")) + " "')
	echo "$got / $want" >"$T_TMP/own.$1"
	[ "$got" = "$want" ]
}
t_wait_for 5 own_agree Ethernet0 s0
t_check $? "COUNTERS_ROCEDP:Ethernet0 = rocedp stats s0 (rx/tx pkts, bytes, mcast, bcast: $(cat "$T_TMP/own.Ethernet0"))"
rx=$(rc -n 2 hget COUNTERS_ROCEDP:Ethernet0 rx_pkts)
[ "${rx:-0}" -ge 500 ]
t_check $? "COUNTERS_ROCEDP:Ethernet0 rx_pkts $rx: the 30 s of datagrams h1 sent (50/s at most)"
t_wait_for 5 own_agree Ethernet4 s1
t_check $? "COUNTERS_ROCEDP:Ethernet4 = rocedp stats s1 ($(cat "$T_TMP/own.Ethernet4"))"
kill -TERM "$SYNC_PID" 2>/dev/null
wait "$SYNC_PID"
t_check $? "SIGTERM: the daemon exits 0"

# --- as the dataplane: no syncd, nothing in COUNTERS_DB ---
rc -n 2 flushdb >/dev/null
rc -n 6 del "SWITCH_CAPABILITY|switch" >/dev/null
T_BG_OUT=$T_TMP/sync2.out T_BG_ERR=$T_TMP/sync2.log t_bg SYNC_PID \
	ip netns exec "$SW" "$ROCEDP" sonic sync --redis "unix:$SOCK" \
	--ports Ethernet0=s0,Ethernet4=s1 --port-interval 0.2 --queue-interval 0.5
t_wait_for 5 sh -c "[ \"\$(redis-cli -s '$SOCK' -n 6 hget 'ROCEDP|status' role)\" = dataplane ]"
t_check $? "empty COUNTERS_DB: STATE_DB ROCEDP|status role dataplane" "$(tail -n5 "$T_TMP/sync2.log")"
PS() { t_py "$T_TOP/selftests/sonic_portstat.py" "$SOCK" 2 >"$T_TMP/ps.json" 2>"$T_TMP/ps.err"; }
t_wait_for 3 sh -c "[ -n \"\$(redis-cli -s '$SOCK' -n 2 keys 'RATES:*')\" ]"
PS
t_check $? "portstat/queuestat reader: ports and queues readable" "$(cat "$T_TMP/ps.err")"
na=$(t_pyj "$T_TMP/ps.json" '[(p, k) for p, r in j["ports"].items() for k, v in r.items() if v == "N/A"] + [(q, k) for q, r in j["queues"].items() for k, v in r.items() if v == "N/A"]')
[ "$na" = "[]" ]
t_check $? "no N/A in any port column (rx/tx ok, err, drp, ovr, bytes, uca/mca/bca, rates) or queue column" "$na"
t_pyj "$T_TMP/ps.json" 'sorted(j["ports"]) == ["Ethernet0", "Ethernet4"] and len(j["queues"]) == 16 and all(r["queuetype"] == "UC" for r in j["queues"].values())' >/dev/null
t_check $? "Ethernet0 and Ethernet4 with 8 unicast queues each" "$(head -c 300 "$T_TMP/ps.json")"

# group-addressed frames only from h1: IPv4 broadcast and multicast
# datagrams and whatever ND/MLD h1 sends
col() { t_pyj "$T_TMP/ps.json" "j[\"ports\"][\"Ethernet0\"][\"$1\"]" 2>/dev/null; }
PS
u0=$(col rx_uca) m0=$(col rx_mca) b0=$(col rx_bca)
udp "$H1" 10.1.0.255 10 0.01
udp "$H1" 239.1.2.3 10 0.01
sleep 0.5
PS
u1=$(col rx_uca) m1=$(col rx_mca) b1=$(col rx_bca)
# a stray unicast frame of h1's own (an ARP or ND reachability probe) may
# land in the window; the 20 group-addressed frames must not
[ $((u1 - u0)) -le 2 ] && [ $((m1 - m0)) -ge 10 ] && [ $((b1 - b0)) -ge 10 ]
t_check $? "10 broadcast + 10 multicast frames: IN_UCAST $u0 -> $u1 (not +20), MULTICAST $m0 -> $m1, BROADCAST $b0 -> $b1"

# unicast forwarded by rocedp itself (a gateway route from `rocedp sync`;
# connected subnets stay the kernel's), then the columns against rocedp
# and the kernel
T_BG_OUT=/dev/null T_BG_ERR=$T_TMP/rsync.log t_bg RSYNC_PID \
	ip netns exec "$SW" "$ROCEDP" sync
ip -n "$H2" addr add 10.9.0.2/32 dev eth0
ip -n "$SW" route add 10.9.0.0/24 via 10.2.0.2 dev s1
sleep 1 # sync's first dump
# under traffic: each column no older than one port interval (0.2 s).
# rocedp -j stats is read, then, a port interval and a margin later,
# COUNTERS_DB, then rocedp again: A <= COUNTERS_DB <= B for the counters
# that move (RX on Ethernet0, TX on Ethernet4), while they move (A < B)
T_BG_OUT=/dev/null T_BG_ERR=/dev/null t_bg UDP_PID \
	timeout 8 bash -c "$(declare -f udp); PY=$PY T_TOP=$T_TOP; udp $H1 10.9.0.2 400 0.01"
fresh() {
	X -j stats >"$T_TMP/sa.json" 2>/dev/null || return 1
	sleep 0.3
	PS || return 1
	X -j stats >"$T_TMP/sb.json" 2>/dev/null || return 1
	$PY "$T_TOP/selftests/sonic_roles.py" fresh "$T_TMP/sa.json" "$T_TMP/ps.json" "$T_TMP/sb.json" >"$T_TMP/fresh" 2>&1
}
t_wait_for 6 fresh
t_check $? "under traffic, portstat's columns are no older than a port interval: $(cat "$T_TMP/fresh")"
wait "$UDP_PID"
agree() {
	PS || return 1
	X -j stats >"$T_TMP/stats.json" 2>/dev/null || return 1
	ip netns exec "$SW" cat /proc/net/dev >"$T_TMP/netdev" || return 1
	$PY "$T_TOP/selftests/sonic_roles.py" agree "$T_TMP/ps.json" "$T_TMP/stats.json" "$T_TMP/netdev" >"$T_TMP/agree" 2>&1
}
t_wait_for 5 agree
t_check $? "portstat columns = rocedp -j stats (ok, bytes, uca/mca/bca) and /proc/net/dev (err, drp, ovr)" "$(cat "$T_TMP/agree")"
# port and queue counters are written by their own polls and read here a
# key at a time, so one read may straddle a poll: read again until they
# agree (the traffic has ended), as the columns above do
qsum() {
	PS && t_pyj "$T_TMP/ps.json" 'all(sum(q["totalpacket"] for q in j["queues"].values() if q["port"] == p) == r["tx_ok"] for p, r in j["ports"].items())' >/dev/null
}
t_wait_for 5 qsum
rc=$?
txok=$(t_pyj "$T_TMP/ps.json" 'j["ports"]["Ethernet4"]["tx_ok"]')
[ $rc = 0 ] && [ "${txok:-0}" -ge 50 ]
t_check $? "queuestat: each port's queues add up to its TX_OK (Ethernet4: $txok, rocedp-forwarded)"
kill -TERM "$RSYNC_PID" 2>/dev/null
wait "$RSYNC_PID" 2>/dev/null

kill -TERM "$SYNC_PID" 2>/dev/null
wait "$SYNC_PID"
t_check $? "SIGTERM: the daemon exits 0"
rc shutdown nosave >/dev/null 2>&1
wait "$REDIS_PID" 2>/dev/null
t_done
