#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sonic sync --tls` (docs/sonic.md, "TLS") against a redis-server
# of this test's own that listens on a TLS port only, in a namespace of its
# own (127.0.0.1 there is nobody else's). A test CA made with openssl(1)
# signs the server's certificate (redis.test, IP 127.0.0.1) and a client
# certificate, which the server requires (tls-auth-clients, its default).
#
# Bad --tls options exit 2 with one line. With the right CA, certificate
# and name the daemon applies CONFIG_DB, follows a live change and writes
# COUNTERS_DB and STATE_DB. A CA that did not sign the server's
# certificate, a server name the certificate does not carry, and no client
# certificate are each refused: the daemon stays alive, logs one line
# naming the reason, and backs off (the server's log counts the handshakes:
# at most 16 in 3 s; without backoff it would be thousands), using little
# CPU; given the right files again it connects. A Redis restart is
# followed by a reconnect over TLS. SIGTERM ends it with exit 0.
#
# Usage: selftests/sonic_tls.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip redis-server redis-cli openssl || exit $?
t_pin_ns "STLS$$" || { t_fail "netns"; t_done; exit 1; }
t_ns_ab || { t_fail "veths a0-a1, b0-b1"; t_done; exit 1; }
X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach a0 b0" "$(cat "$T_TMP/attach.out")"

# --- the test CA, the server's and the client's certificates ---
C=$T_TMP/pki
mkdir -p "$C"
cert() { # NAME CN CA [EXT]: NAME.key, NAME.crt signed by CA (self if "")
	openssl req -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$C/$1.key" \
		-out "$C/$1.csr" 2>>"$C/log" || return 1
	if [ -z "$3" ]; then
		openssl x509 -req -in "$C/$1.csr" -signkey "$C/$1.key" -days 2 \
			-out "$C/$1.crt" 2>>"$C/log"
	else
		openssl x509 -req -in "$C/$1.csr" -CA "$C/$3.crt" -CAkey "$C/$3.key" \
			-CAcreateserial -days 2 ${4:+-extfile "$4"} -out "$C/$1.crt" 2>>"$C/log"
	fi
}
printf 'subjectAltName=DNS:redis.test,IP:127.0.0.1\n' >"$C/srv.ext"
cert ca "rocedp test CA" "" && cert other "another CA" "" &&
	cert srv redis.test ca "$C/srv.ext" && cert cli rocedp ca
t_check $? "openssl: a test CA, the server's certificate (redis.test, 127.0.0.1), a client certificate" "$(tail -n3 "$C/log")"
chmod 600 "$C"/*.key

PORT=6390
N() { ip netns exec "$NS" "$@"; }
rc() { N redis-cli --tls --cacert "$C/ca.crt" --cert "$C/cli.crt" --key "$C/cli.key" -h 127.0.0.1 -p $PORT "$@" 2>/dev/null; }
redis() {
	T_BG_OUT=$T_TMP/redis.out T_BG_ERR=$T_TMP/redis.out t_bg RPID \
		ip netns exec "$NS" redis-server --port 0 --tls-port $PORT \
		--tls-cert-file "$C/srv.crt" --tls-key-file "$C/srv.key" \
		--tls-ca-cert-file "$C/ca.crt" --dir "$T_TMP" --save "" \
		--appendonly no --daemonize no --loglevel verbose
	t_wait_for 5 sh -c "$(declare -f N rc); C=$C NS=$NS PORT=$PORT; rc ping | grep -q PONG"
}
redis
t_check $? "redis-server with only a TLS port (127.0.0.1:$PORT in the namespace) answers redis-cli --tls" "$(tail -n3 "$T_TMP/redis.out")"
rc -n 4 >"$T_TMP/load.out" <<'EOF2'
HSET "PORT|Ethernet0" speed 100000 admin_status up
HSET "SWITCH_HASH|GLOBAL" ecmp_hash_ipv4_rdma@ SRC_IP,DST_IP,L4_SRC_PORT,L4_DST_PORT,IP_PROTOCOL,RDMA_BTH_DEST_QP ecmp_hash_seed 77
SET CONFIG_DB_INITIALIZED 1
EOF2
t_check $? "CONFIG_DB written over TLS" "$(cat "$T_TMP/load.out")"

# --- options: refused before anything runs ---
opt() { # WANT ARGS...: exit 2 and one line saying WANT
	local want=$1 r
	shift
	timeout -s KILL 5 "$ROCEDP" sonic sync "$@" >/dev/null 2>"$T_TMP/opt.err"
	r=$?
	[ $r = 2 ] && grep -q -- "$want" "$T_TMP/opt.err" && [ "$(wc -l <"$T_TMP/opt.err")" -le 2 ]
}
U=127.0.0.1:$PORT
opt "tls-ca without --tls" --redis $U --tls-ca "$C/ca.crt"
t_check $? "--tls-ca without --tls: exit 2" "$(cat "$T_TMP/opt.err")"
opt "no TLS on unix sockets" --redis unix:/nonexistent --tls
t_check $? "--tls with unix:PATH: exit 2" "$(cat "$T_TMP/opt.err")"
opt "go together" --redis $U --tls --tls-cert "$C/cli.crt"
t_check $? "--tls-cert without --tls-key: exit 2" "$(cat "$T_TMP/opt.err")"
opt "tls-ca $T_TMP/none.pem" --redis $U --tls --tls-ca "$T_TMP/none.pem"
t_check $? "a CA file that does not exist: exit 2 ($(head -n1 "$T_TMP/opt.err"))"
cp "$C/cli.key" "$C/open.key" && chmod 644 "$C/open.key"
opt "readable by everyone" --redis $U --tls --tls-cert "$C/cli.crt" --tls-key "$C/open.key"
t_check $? "a key file others can read: exit 2 ($(head -n1 "$T_TMP/opt.err"))"
opt "not the key of" --redis $U --tls --tls-cert "$C/cli.crt" --tls-key "$C/srv.key"
t_check $? "a key that is not the certificate's: exit 2 ($(head -n1 "$T_TMP/opt.err"))"

sync_bg() { # VAR LOG ARGS...
	local var=$1 log=$2
	shift 2
	T_BG_OUT=/dev/null T_BG_ERR=$log t_bg "$var" \
		ip netns exec "$NS" "$ROCEDP" sonic sync --redis "$U" --tls \
		--ports Ethernet0=a0 --port-interval 0.2 --queue-interval 1 "$@"
}
stop_sync() { # PID: its exit status after SIGTERM; KILL (and 137) after 5 s
	kill -TERM "$1" 2>/dev/null
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}
seed() {
	X -j config dump >"$T_TMP/dump.json" 2>/dev/null &&
		t_pyj "$T_TMP/dump.json" 'j["hash"]["seed"]' 2>/dev/null
}
GOOD=(--tls-ca "$C/ca.crt" --tls-cert "$C/cli.crt" --tls-key "$C/cli.key")
sync_bg SYNC "$T_TMP/good.log" "${GOOD[@]}"
t_wait_for 5 sh -c "$(declare -f N rc); C=$C NS=$NS PORT=$PORT; [ \"\$(rc -n 6 hget 'ROCEDP|status' state)\" = ok ]"
t_check $? "over TLS: CONFIG_DB applied, STATE_DB ROCEDP|status ok (seed $(seed))" "$(tail -n4 "$T_TMP/good.log")"
rc -n 4 hset "SWITCH_HASH|GLOBAL" ecmp_hash_seed 78 >/dev/null
for _ in $(seq 30); do [ "$(seed)" = 78 ] && break; sleep 0.1; done
[ "$(seed)" = 78 ]
t_check $? "a live change arrives through the TLS subscription (seed $(seed))"
t_wait_for 3 sh -c "$(declare -f N rc); C=$C NS=$NS PORT=$PORT; [ -n \"\$(rc -n 2 hget COUNTERS_ROCEDP:Ethernet0 rx_pkts)\" ]"
t_check $? "COUNTERS_DB COUNTERS_ROCEDP:Ethernet0 written over TLS (rx_pkts $(rc -n 2 hget COUNTERS_ROCEDP:Ethernet0 rx_pkts))"
# a Redis restart: the TLS sessions end, the daemon connects again
rc shutdown nosave >/dev/null
wait "$RPID" 2>/dev/null
redis
rc -n 4 >/dev/null <<'EOF2'
HSET "PORT|Ethernet0" speed 100000 admin_status up
HSET "SWITCH_HASH|GLOBAL" ecmp_hash_seed 79
SET CONFIG_DB_INITIALIZED 1
EOF2
for _ in $(seq 50); do [ "$(seed)" = 79 ] && break; sleep 0.1; done
[ "$(seed)" = 79 ] && grep -q "redis: .*lost" "$T_TMP/good.log"
t_check $? "Redis restarted: reconnected over TLS, the new CONFIG_DB applied (seed $(seed))" "$(tail -n4 "$T_TMP/good.log")"
stop_sync "$SYNC"
t_check $? "SIGTERM: exit 0 (the TLS pumps end with it)" "$(tail -n2 "$T_TMP/good.log")"

# refused: alive, one line, backing off, little CPU
hs() { grep -c "Error accepting a client connection" "$T_TMP/redis.out"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
refused() { # NAME WANT ARGS...
	local name=$1 want=$2 h0 h1 c0 c1 lines
	shift 2
	h0=$(hs)
	sync_bg P "$T_TMP/$name.log" "$@"
	sleep 0.2
	c0=$(cpu_ticks "$P" 2>/dev/null || echo 0)
	sleep 3
	c1=$(cpu_ticks "$P" 2>/dev/null || echo 999)
	h1=$(hs)
	lines=$(grep -c -- "$want" "$T_TMP/$name.log")
	kill -0 "$P" 2>/dev/null && [ "$lines" = 1 ] &&
		[ $((h1 - h0)) -ge 2 ] && [ $((h1 - h0)) -le 16 ] &&
		[ $((c1 - c0)) -le 150 ]
	t_check $? "$name: refused with one log line ('$(grep -o -- "$want.*" "$T_TMP/$name.log" | head -n1)'), alive, $((h1 - h0)) handshakes in 3 s, $((c1 - c0)) CPU ticks" "$(tail -n3 "$T_TMP/$name.log")"
	stop_sync "$P"
	t_check $? "$name: SIGTERM: exit 0"
}
refused "wrong CA" "certificate is refused: self-signed certificate in certificate chain" \
	--tls-ca "$C/other.crt" --tls-cert "$C/cli.crt" --tls-key "$C/cli.key"
refused "wrong server name" "certificate is refused: hostname mismatch" \
	"${GOOD[@]}" --tls-server-name other.test
refused "no client certificate" "alert certificate required" \
	--tls-ca "$C/ca.crt" --tls-server-name redis.test

# the right name given explicitly: connects
sync_bg SYNC "$T_TMP/name.log" "${GOOD[@]}" --tls-server-name redis.test
rc -n 4 hset "SWITCH_HASH|GLOBAL" ecmp_hash_seed 80 >/dev/null
for _ in $(seq 50); do [ "$(seed)" = 80 ] && break; sleep 0.1; done
[ "$(seed)" = 80 ]
t_check $? "--tls-server-name redis.test (the certificate's DNS name): applies (seed $(seed))" "$(tail -n3 "$T_TMP/name.log")"
stop_sync "$SYNC"
t_check $? "SIGTERM: exit 0"
rc shutdown nosave >/dev/null
wait "$RPID" 2>/dev/null
t_done
