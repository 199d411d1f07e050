#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fabric seen from Prometheus (docs/metrics.md, docs/lab.md): a
# 2-leaf x 2-spine lab with --prometheus (one rocedp exporter per switch,
# Debian's Prometheus with tools/prometheus/rocedp.rules.yml), telemetry
# on, rocegen sending 8 QPs from h1-1 to h2-1:
#
#   - under traffic, `promtool check metrics` finds nothing in any
#     switch's /metrics (leaves with rocedp, spines with rocedp_up 0);
#   - without loss: no rocedp alert firing, `rocedp-lab
#     diagnose` says no frames are lost (exit 0);
#   - the lab's injector drops 1 in 20 requests on spine2: diagnose, from
#     Prometheus alone, names spine2 first (exit 3), the links it names
#     all come from spine2, and RocedpLossyLink fires for them only;
#
#   - a 2 ms delay on the link spine2 -> leaf2 (`rocedp-lab inject spine2
#     delay 2000 --to leaf2`: an AF_PACKET relay, tools/lab/delay.py, as
#     this kernel has neither netem nor fq): RocedpPathRttRegression
#     fires for leaf1's requests leaving by up2, the paths through
#     spine2, and for no other path. (The delay stays below rocedp's 4.19
#     ms RTT sample age limit; a token bucket's queue, tried before, grew
#     past it and left no samples.) The no-loss phase above is the run
#     without delay, where nothing fires.
#
# Usage: selftests/prom_lab.sh   (root). About 3 minutes.
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool tc ethtool prometheus promtool || exit $?
[ -r "$T_OUT/lab_inject.bpf.o" ] || {
	t_fail "$T_OUT/lab_inject.bpf.o built (make)"
	t_done
	exit 1
}
export LAB_INJECT_OBJ=$T_OUT/lab_inject.bpf.o
T_LAB_PREFIX=pl$((RANDOM % 10000))
t_cleanup "lab down"

DIAG() { lab diagnose "$@"; }
# pq EXPR: an instant query's result as "labels value" lines, from the
# lab's Prometheus
pq() {
	ip netns exec "$(ns mgmt)" $PY "$T_TOP/selftests/prom_lab.py" query "$1"
}
# send NAME QPN_BASE [RTO_US [QPS [COUNT]]]: 8 QPs x 300 messages of 8 KiB
# at 10 Mb/s (about 20 s). The timeout and the stall threshold are 1 s:
# on a loaded machine an ACK can take a few hundred ms, and a timeout or
# a stall there is the machine's, not the fabric's (the loss phase's
# drops are found by NAKs, not timeouts).
send() {
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dev eth0 --dst 10.2.1.2 \
		--qpn-base "$2" --qps "${4:-8}" --msg 8192 --count "${5:-300}" --window 8 \
		--rate 10 --rto "${3:-1000000}" -j >"$T_TMP/$1.send" 2>&1
}

lab up --leaves 2 --spines 2 --hosts 1 --mtu 1500 --prometheus >"$T_TMP/up.log" 2>&1
t_check $? "lab up --prometheus: 2 leaves, 2 spines, every exporter scraped" "$(tail -n3 "$T_TMP/up.log")" || {
	t_done
	exit 1
}
for l in 1 2; do
	rocedp_set "leaf$l" config set features=forward,remark,ecn,telemetry \
		telemetry.qp_stall_us=1000000 >"$T_TMP/set$l.log" 2>&1
	t_check $? "leaf$l: telemetry on" "$(cat "$T_TMP/set$l.log")"
done
t_serve spid serve "$(ns h2-1)" eth0 || t_fail "responder ready"

# ---------------------------------------------------------------- no loss
send clean 0x100 &
cpid=$!
sleep 8
bad=
for sw in leaf1:10.253.1.1 leaf2:10.253.1.2 spine1:10.253.2.1 spine2:10.253.2.2; do
	ip netns exec "$(ns mgmt)" $PY -c 'import sys, urllib.request
sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1], timeout=10).read())' \
		"http://${sw#*:}:9436/metrics" >"$T_TMP/${sw%%:*}.prom" 2>"$T_TMP/m.err" || {
		bad="$bad ${sw%%:*}: $(cat "$T_TMP/m.err")"
		continue
	}
	promtool check metrics <"$T_TMP/${sw%%:*}.prom" >"$T_TMP/lint" 2>&1 && [ ! -s "$T_TMP/lint" ] ||
		bad="$bad ${sw%%:*}: $(head -n 3 "$T_TMP/lint")"
done
n=$(grep -c '^rocedp_qp_bytes_total{' "$T_TMP/leaf1.prom")
[ -z "$bad" ] && [ "$n" -ge 1 ] && grep -qx 'rocedp_up 0' "$T_TMP/spine1.prom"
t_check $? "under traffic, promtool check metrics finds nothing on any switch's /metrics (leaf1: $n QP series a family; spines: rocedp_up 0)" "$bad"
wait "$cpid"
t_check $? "clean run: rocegen send completes" "$(tail -n2 "$T_TMP/clean.send")"
# the rules have seen the whole run (20 s for: the alerts had time)
sleep 6
# firing, not pending: on a loaded machine a path's RTT EWMA can leave
# its young baseline for a few evaluations (pending), never for the 20 s
# an alert needs to fire
al=$(pq 'ALERTS{alertname=~"Rocedp.*",alertstate="firing"}')
[ -z "$al" ]
t_check $? "no loss, no delay: no rocedp alert fires" "$al"
DIAG >"$T_TMP/diag.clean" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^no frames lost' "$T_TMP/diag.clean"
t_check $? "no loss: diagnose says no frames lost, exit 0" "exit $rc: $(cat "$T_TMP/diag.clean")"

# ---------------------------------------------------------------- loss
lab inject spine2 drop 20 >/dev/null || t_fail "inject spine2 drop 20"
send lossy 0x200 &
cpid=$!
named=
for _ in $(seq 45); do
	sleep 1
	DIAG >"$T_TMP/diag.lossy" 2>&1
	[ $? = 3 ] || continue
	al=$(pq 'ALERTS{alertname="RocedpLossyLink",alertstate="firing"}')
	[ -n "$al" ] && { named=1; break; }
done
head -n 1 "$T_TMP/diag.lossy" | grep -q '^frames lost at spine2:'
t_check $? "drops on spine2: diagnose names spine2 from Prometheus alone ($(head -n 1 "$T_TMP/diag.lossy"))" "$(cat "$T_TMP/diag.lossy")"
links=$(sed -n '/ qp /d; s/^  \([^ ]*\) *-> \([^ ]*:[^ ]*\) .*/\1->\2/p' "$T_TMP/diag.lossy" | tr '\n' ' ')
[ -n "$links" ] && ! grep -qv '^spine2->' <<<"$(tr ' ' '\n' <<<"$links" | sed '/^$/d')"
t_check $? "every lossy link diagnose names comes from spine2: $links" "$(cat "$T_TMP/diag.lossy")"
[ -n "$named" ] && ! grep -v 'peer=spine2' <<<"$al" | grep -q .
t_check $? "RocedpLossyLink fires, for links from spine2 only ($(cut -d' ' -f1 <<<"$al" | tr '\n' ' '))" "$al"
wait "$cpid"
lab inject spine2 off >/dev/null

# ---------------------------------------------------------------- delay
# 16 new QPs, so both uplinks of leaf1 carry some; 2 ms on spine2 -> leaf2
lab inject spine2 delay 2000 --to leaf2 >"$T_TMP/delay.log" 2>&1
t_check $? "inject spine2 delay 2000 us --to leaf2" "$(cat "$T_TMP/delay.log")"
send delayed 0x300 1000000 16 200 &
cpid=$!
al=
for _ in $(seq 60); do
	sleep 1
	al=$(pq 'ALERTS{alertname="RocedpPathRttRegression",alertstate="firing"}')
	[ -n "$al" ] && break
done
# what each path's RTT looked like when it fired
pq 'rocedp:path_rtt_ewma:seconds' >"$T_TMP/rtt.paths"
pq 'rocedp:path_rtt_baseline_loaded:seconds' >>"$T_TMP/rtt.paths"
paths=$(sed -n 's/.*out_port=\([^,]*\),.*switch=\([^, ]*\).*/\2:\1/p' <<<"$al" | sort -u | tr '\n' ' ')
[ "$paths" = "leaf1:up2 " ]
t_check $? "2 ms on spine2 -> leaf2: RocedpPathRttRegression fires for leaf1:up2 (through spine2) only (firing: ${paths:-none})" "$al | $(tr '\n' ' ' <"$T_TMP/rtt.paths")"
# the first line per path is its mean EWMA: spine1's path stays well
# under the 2 ms that spine2's gained
up1=$(awk '/out_port=up1,switch=leaf1 / {print $2; exit}' "$T_TMP/rtt.paths")
[ -n "$up1" ] && awk -v v="$up1" 'BEGIN { exit !(v < 0.001) }'
t_check $? "leaf1:up1 (through spine1) carried QPs and its RTT stayed under 1 ms: ${up1:-none} s" "$(cat "$T_TMP/rtt.paths")"
# (its completion is not checked: only the RTT matters here, and a loaded
# machine can make the relay late enough for the sender's timeouts)
wait "$cpid"
lab inject spine2 off >/dev/null

kill -INT "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
t_done
