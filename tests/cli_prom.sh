#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Prometheus exposition and the exporter (docs/metrics.md) against the
# dataplane's real map definitions pinned by bpftool and filled by
# tests/qps_fill.py: `promtool check metrics` passes, every family has
# HELP and TYPE, times are in seconds, reads leave the high-water mark
# alone; `stats -j` carries the read's time and `--watch` takes fractions
# of a second; `rocedp exporter` serves the same text over HTTP, keeps
# the per-QP series to the top K, takes the marks only on its own window,
# and says in one line what is wrong with a bad --listen.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines. Root.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
PIN=/sys/fs/bpf/rdprom$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdprom.XXXXXX)
FILL="$PY $ROOT/tests/qps_fill.py $ROCEDP_PIN_DIR"
EXP_PID=

cleanup() {
	[ -n "$EXP_PID" ] && kill "$EXP_PID" 2>/dev/null && wait "$EXP_PID" 2>/dev/null
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp
pin_maps "$ROCEDP_PIN_DIR" || exit 1
command -v promtool >/dev/null || { nok "promtool (tools/install-deps.sh installs prometheus)"; exit 1; }

# one sick QP with RTT, one busy one, 30 more; a port with a queue mark
$FILL --qp src=10.0.0.1,dst=10.0.0.2,qp=0x11,bytes=4000000,gaps=3,rtt_min_ns=9000,rtt_ewma_ns=30000,rtt_samples=4,in_ifindex=1,out_ifindex=1,cnps=5 \
	--qp src=10.0.0.3,dst=10.0.0.4,qp=0x22,bytes=9000000 \
	--many 30 --port ifindex=1,rx_pkts=10,tx_pkts=10,hwm=5000 \
	--stall-us 5000 2>"$TMP/err" || nok "fill" "$(cat "$TMP/err")"

# lint FILE: promtool check metrics says nothing at all (a lint message
# is a problem: no HELP, a non-base unit, a counter without _total)
lint() {
	promtool check metrics <"$1" >"$TMP/lint" 2>&1 && [ ! -s "$TMP/lint" ]
}

# ------------------------------------------------------------ the text

if "$ROCEDP" stats --prometheus >"$TMP/p1" 2>"$TMP/err"; then
	if lint "$TMP/p1"; then
		ok "stats --prometheus: promtool check metrics finds nothing ($(grep -c '^# TYPE' "$TMP/p1") families)"
	else
		nok "promtool check metrics" "$(head -n 10 "$TMP/lint")"
	fi
else
	nok "stats --prometheus" "$(cat "$TMP/err")"
fi

# every family: HELP then TYPE, once, before its samples; no sample twice
if $PY "$ROOT/tests/cli_prom.py" exposition "$TMP/p1" >"$TMP/why" 2>&1; then
	ok "every family has HELP and TYPE before its samples, base units only ($(cat "$TMP/why") families)"
else
	nok "HELP and TYPE on every family" "$(cat "$TMP/why")"
fi

# times in seconds: 30000 ns EWMA, 9000 ns min; the QP's ports as labels
q='src="10.0.0.1",dst="10.0.0.2",qp="0x11",in_port="lo",out_port="lo"'
if grep -qxF "rocedp_qp_rtt_seconds{$q} 3e-05" "$TMP/p1" &&
	grep -qxF "rocedp_qp_rtt_min_seconds{$q} 9e-06" "$TMP/p1" &&
	grep -qxF "rocedp_qp_cnps_total{$q} 5" "$TMP/p1"; then
	ok "per-QP RTT in seconds (3e-05, 9e-06), CNPs, in_port and out_port labels"
else
	nok "per-QP seconds and labels" "$(grep "qp=\"0x11\"" "$TMP/p1" | head -n 20)"
fi
n=$(grep -c '^rocedp_qp_bytes_total{' "$TMP/p1")
[ "$n" = 10 ] && ok "32 QPs: 10 per-QP series per family (the default K)" ||
	nok "per-QP series bounded" "$n"

# a read never resets the mark: two scrapes, the same mark
"$ROCEDP" stats --prometheus >"$TMP/p2" 2>&1
h1=$(grep '^rocedp_port_vq_high_water_bytes{port="lo"}' "$TMP/p1")
h2=$(grep '^rocedp_port_vq_high_water_bytes{port="lo"}' "$TMP/p2")
if [ "${h1##* }" = 5000 ] && [ "${h2##* }" = 5000 ]; then
	ok "two scrapes both see the high-water mark 5000: reading changes nothing"
else
	nok "high-water mark kept across reads" "first '$h1', second '$h2'"
fi

# the textfile is the same exposition
if "$ROCEDP" stats --textfile "$TMP" 2>"$TMP/err" && lint "$TMP/rocedp.prom"; then
	ok "stats --textfile: promtool check metrics finds nothing"
else
	nok "stats --textfile lint" "$(cat "$TMP/err" "$TMP/lint" | head -n 5)"
fi

# ------------------------------------------------------------ JSON, watch

t0=$(date +%s.%N)
if "$ROCEDP" stats -j >"$TMP/j" 2>"$TMP/err" &&
	$PY -c 'import json,sys; t=json.load(open(sys.argv[1]))["timestamp"]; sys.exit(not (float(sys.argv[2]) - 1 <= t <= float(sys.argv[2]) + 60))' "$TMP/j" "$t0"; then
	ok "stats -j: timestamp, the read's CLOCK_REALTIME in seconds"
else
	nok "stats -j timestamp" "$(head -c 300 "$TMP/j"; cat "$TMP/err")"
fi
# --watch 0.2 for about 1.5 s: several documents, their times apart by
# at least 0.2 s (an upper bound would assume an idle machine)
timeout 1.5 "$ROCEDP" stats -j --watch 0.2 >"$TMP/w" 2>"$TMP/err"
if $PY "$ROOT/tests/cli_prom.py" watch "$TMP/w" >"$TMP/why" 2>&1; then
	ok "stats --watch 0.2: $(cat "$TMP/why") documents, each 0.2 s or more after the last"
else
	nok "stats --watch 0.2" "$(cat "$TMP/why" "$TMP/err")"
fi
for w in 0 0.05 -1 abc 1e9 ''; do
	out=$("$ROCEDP" stats --watch "$w" 2>&1)
	rc=$?
	if [ $rc != 2 ] || [ "$(wc -l <<<"$out")" != 1 ] || ! grep -q -- "--watch" <<<"$out"; then
		nok "stats --watch '$w': exit 2, one line" "exit $rc: $out"
		continue
	fi
	ok "stats --watch '$w': exit 2, one line naming --watch"
done

# ------------------------------------------------------------ the exporter

# fetch URL FILE: the body into FILE; prints the HTTP status
fetch() {
	$PY "$ROOT/tests/cli_prom.py" fetch "$1" "$2"
}

# bad --listen: exit 2 (or 1 for a port it cannot have), one line naming it
for l in nothing 127.0.0.1 127.0.0.1:0 127.0.0.1:65536 300.1.1.1:9 '[::1:9' 'host.example:9' '127.0.0.1:-5'; do
	out=$(timeout 10 "$ROCEDP" exporter --listen "$l" 2>&1)
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -qF -- "--listen: '$l'" <<<"$out"; then
		ok "exporter --listen '$l': exit 2, one line naming it"
	else
		nok "exporter --listen '$l'" "exit $rc: $out"
	fi
done
out=$(timeout 10 "$ROCEDP" exporter 2>&1)
rc=$?
[ $rc = 2 ] && grep -q -- "--listen" <<<"$out" && ok "exporter without --listen: exit 2 ($out)" ||
	nok "exporter without --listen" "exit $rc: $out"

# a free port: the kernel picks one, we give it back and take it
port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$ROCEDP" exporter --listen "127.0.0.1:$port" --hwm-window 4 >"$TMP/exp.log" 2>&1 &
EXP_PID=$!
up=
for _ in $(seq 100); do
	[ "$(fetch "http://127.0.0.1:$port/metrics" "$TMP/m1" 2>/dev/null | cut -d' ' -f1)" = 200 ] && { up=1; break; }
	kill -0 "$EXP_PID" 2>/dev/null || break
	sleep 0.1
done
if [ -n "$up" ]; then
	ok "exporter serves /metrics on 127.0.0.1:$port"
else
	nok "exporter up" "$(cat "$TMP/exp.log")"
fi
out=$(timeout 10 "$ROCEDP" exporter --listen "127.0.0.1:$port" 2>&1)
rc=$?
[ $rc = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "127.0.0.1:$port: Address already in use" <<<"$out" &&
	ok "a second exporter on the same port: exit 1, one line ($out)" ||
	nok "port taken" "exit $rc: $out"

if lint "$TMP/m1" && grep -qx 'rocedp_up 1' "$TMP/m1"; then
	ok "exporter /metrics: promtool check metrics finds nothing, rocedp_up 1"
else
	nok "exporter lint" "$(head -n 5 "$TMP/lint"; grep rocedp_up "$TMP/m1")"
fi
n=$(grep -c '^rocedp_qp_gaps_total{' "$TMP/m1")
[ "$n" = 10 ] && ok "exporter: 10 per-QP series per family" || nok "exporter top K" "$n"
code=$(fetch "http://127.0.0.1:$port/nothing" "$TMP/nf")
[ "${code%% *}" = 404 ] && ok "exporter: another path is 404" || nok "404" "$code"
ctype=$(fetch "http://127.0.0.1:$port/metrics" "$TMP/m2")
grep -q 'version=0.0.4' <<<"$ctype" && ok "exporter: Content-Type $ctype" || nok "content type" "$ctype"

# the marks: a scrape shows the last window's mark and leaves it; the
# exporter's own window takes it (4 s here), so within two windows and a
# bit it is gone. A port with a mark written again is seen again.
m=$(grep '^rocedp_port_vq_high_water_bytes{port="lo"}' "$TMP/m2")
if [ "${m##* }" = 5000 ] || [ "${m##* }" = 0 ]; then
	ok "exporter: high-water mark shown (${m##* }), the window is 4 s"
else
	nok "exporter hwm" "$m"
fi
$FILL --port ifindex=1,hwm=7000 2>"$TMP/err"
fetch "http://127.0.0.1:$port/metrics" "$TMP/m3" >/dev/null
fetch "http://127.0.0.1:$port/metrics" "$TMP/m4" >/dev/null
a=$(grep '^rocedp_port_vq_high_water_bytes{port="lo"}' "$TMP/m3")
b=$(grep '^rocedp_port_vq_high_water_bytes{port="lo"}' "$TMP/m4")
if [ "${a##* }" = 7000 ] && [ "${b##* }" = 7000 ]; then
	ok "exporter: two scrapes in a row both see the new mark 7000"
else
	nok "exporter: scrapes do not take the mark" "'$a' '$b'"
fi
gone=
for _ in $(seq 100); do
	sleep 0.2
	fetch "http://127.0.0.1:$port/metrics" "$TMP/m5" >/dev/null
	# a port with no traffic and no mark has no row
	grep -q '^rocedp_up 1' "$TMP/m5" &&
		! grep -q '^rocedp_port_vq_high_water_bytes{port="lo"} [1-9]' "$TMP/m5" && { gone=1; break; }
done
[ -n "$gone" ] && ok "exporter: the mark leaves after its window (taken by the exporter's clock)" ||
	nok "exporter window" "$(grep high_water "$TMP/m5")"

# the maps go: rocedp_up 0, still valid text
mv "$ROCEDP_PIN_DIR" "$PIN/away"
fetch "http://127.0.0.1:$port/metrics" "$TMP/m6" >/dev/null
mv "$PIN/away" "$ROCEDP_PIN_DIR"
if grep -qx 'rocedp_up 0' "$TMP/m6" && lint "$TMP/m6"; then
	ok "exporter with no maps pinned: rocedp_up 0, valid exposition"
else
	nok "exporter rocedp_up 0" "$(cat "$TMP/m6" "$TMP/lint" | head)"
fi
kill -TERM "$EXP_PID"
wait "$EXP_PID"
rc=$?
EXP_PID=
[ $rc = 0 ] && ok "exporter: SIGTERM, exit 0" || nok "exporter SIGTERM" "exit $rc: $(cat "$TMP/exp.log")"

t_done
