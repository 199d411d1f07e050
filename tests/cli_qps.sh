#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp qps` against real pinned maps: the dataplane's map
# definitions pinned by bpftool into a private pin directory, filled by
# tests/qps_fill.py with entries laid out as the dataplane writes them.
# Checks: the sort orders and --limit, the JSON form (parsed, fields and
# totals compared with what was written), the stall threshold from
# rd_config and its default, one-line errors with exit 2 on bad arguments,
# --pin-dir inside `ip netns exec`, the Prometheus series' bounded
# cardinality (top-K QPs plus totals, K settable), and the table as the
# real dataplane program writes it (frames run through it with
# BPF_PROG_TEST_RUN).
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines. Root.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
NS=${T_NS_PREFIX:-D_}qps$$
PIN=/sys/fs/bpf/rdqpst$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdqpst.XXXXXX)
FILL="$PY $ROOT/tests/qps_fill.py $ROCEDP_PIN_DIR"

cleanup() {
	ip netns del "$NS" 2>/dev/null
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp
pin_maps "$ROCEDP_PIN_DIR" || exit 1

# ------------------------------------------------------------ empty table

if out=$("$ROCEDP" qps 2>&1) && grep -q 'no QPs seen' <<<"$out"; then
	ok "empty table: says so"
else
	nok "empty table" "$out"
fi

# ------------------------------------------------------------ four QPs

# bytes order: A > B > C > D; rewinds: C > A; gaps: B > A; stalls: D
# (stalled now: waited 50 ms against a 5 ms threshold); rtt: A > C
$FILL --qp src=10.0.0.1,dst=10.0.0.2,qp=0x11,bytes=4000000,rewinds=2,gaps=1,rtt_min_ns=9000,rtt_ewma_ns=30000,rtt_samples=4 \
	--qp src=10.0.0.3,dst=10.0.0.4,qp=0x22,bytes=300000,gaps=7 \
	--qp src=fd00::1,dst=fd00::2,qp=0x33,bytes=20000,rewinds=5,nak_psn_seq=3,rtt_min_ns=5000,rtt_ewma_ns=6000,rtt_samples=2 \
	--qp src=10.0.0.7,dst=10.0.0.8,qp=0x44,bytes=100,stalls=1,wait_us=50000 \
	--stall-us 5000 2>"$TMP/err" || nok "fill" "$(cat "$TMP/err")"

# order SORT WANT: the qp column of `rocedp qps --sort SORT`
order() {
	local got
	got=$("$ROCEDP" qps --sort "$1" 2>&1 | awk 'NR > 1 { print $3 }' | tr '\n' ' ')
	if [ "$got" = "$2 " ]; then
		ok "--sort $1: $2"
	else
		nok "--sort $1" "want: $2
got:  $got"
	fi
}
order bytes "0x11 0x22 0x33 0x44"
order rewinds "0x33 0x11 0x22 0x44"
order gaps "0x22 0x11 0x44 0x33"
order stalls "0x44 0x11 0x22 0x33"
order rtt "0x11 0x33 0x22 0x44"

out=$("$ROCEDP" qps --limit 2 2>&1)
if [ "$(grep -c '^10\.\|^fd00' <<<"$out")" = 2 ] && grep -q '(2 more QPs' <<<"$out"; then
	ok "--limit 2: two rows and the count of the rest"
else
	nok "--limit 2" "$out"
fi
wait=$("$ROCEDP" qps --sort stalls --limit 1 | awk 'NR == 2 { print $12 }')
if [[ $wait =~ ^[0-9]+!$ ]] && [ "${wait%!}" -ge 50000 ]; then
	ok "a stalled QP's wait is shown and marked"
else
	nok "stalled QP's wait" "wait column: $wait"
fi

# ------------------------------------------------------------ JSON

if "$ROCEDP" -j qps --sort rewinds --limit 3 >"$TMP/q.json" 2>&1 &&
	$PY "$ROOT/tests/cli_qps.py" qps_json "$TMP/q.json" >"$TMP/check" 2>&1; then
	ok "-j: parses; sort, limit, fields and totals as written"
else
	nok "-j output" "$(cat "$TMP/q.json" "$TMP/check" 2>/dev/null | head -20)"
fi
"$ROCEDP" qps -j --sort stalls --limit 1 >"$TMP/s.json" 2>&1
if $PY -c 'import json,sys; q=json.load(open(sys.argv[1]))["qps"][0]; assert q["stalled"] and q["unacked_wait_us"] >= 50000, q' "$TMP/s.json" 2>"$TMP/err"; then
	ok "-j after the verb: the stalled QP has stalled true and its wait"
else
	nok "-j stalled QP" "$(cat "$TMP/s.json" "$TMP/err")"
fi

# threshold 0 in rd_config: the default applies
$FILL --stall-us 0
want=$(sed -n 's/^#define ROCEDP_DEFAULT_QP_STALL_US \([0-9]*\).*/\1/p' "$ROOT/bpf/abi_telemetry.h")
got=$("$ROCEDP" -j qps | $PY -c 'import json,sys; print(json.load(sys.stdin)["stall_threshold_us"])')
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	ok "qp_stall_us 0: the default threshold ($want us)"
else
	nok "default threshold" "want $want got $got"
fi

# ------------------------------------------------------------ bad arguments

# bad ARGS... WANT: exit 2 and one line naming qps and the reason
bad() {
	local want=$1
	shift
	"$ROCEDP" qps "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -qF "rocedp: qps: $want" "$TMP/err" &&
		[ ! -s "$TMP/out" ]; then
		ok "qps $*: exit 2, '$(cat "$TMP/err")'"
	else
		nok "qps $*" "exit $rc; $(cat "$TMP/err" "$TMP/out")"
	fi
}
bad "--sort: 'size' is not one of bytes|rewinds|gaps|stalls|rtt" --sort size
bad "--limit: 'ten' is not a number" --limit ten
bad "--limit: '-1' is not a number" --limit -1
bad "--sort needs a value" --sort
bad "unknown option '--bogus'" --bogus
bad "unexpected argument 'extra'" extra

# ------------------------------------------------------------ netns

ip netns add "$NS" || nok "ip netns add $NS"
out=$(ip netns exec "$NS" env -u ROCEDP_PIN_DIR "$ROCEDP" qps 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q 'is rocedp attached' <<<"$out"; then
	ok "ip netns exec, nothing attached there: one line, exit 1"
else
	nok "netns, not attached" "exit $rc: $out"
fi
# ip netns exec mounts its own /sys: the host's bpffs is reached through
# the root of a process in the host's mount namespace (docs/netns.md)
if ip netns exec "$NS" env -u ROCEDP_PIN_DIR "$ROCEDP" --pin-dir "/proc/2/root$ROCEDP_PIN_DIR" qps --limit 1 \
	>"$TMP/out" 2>&1 && grep -q '0x11' "$TMP/out"; then
	ok "ip netns exec with --pin-dir: reads those maps"
else
	nok "netns --pin-dir" "$(cat "$TMP/out")"
fi

# ------------------------------------------------------------ Prometheus

# 500 more QPs: the exposition still holds at most K per family
$FILL --many 500 2>"$TMP/err" || nok "fill 500" "$(cat "$TMP/err")"
# prom ARGS...: per-QP series count per family (max), and the QP count
prom() {
	"$ROCEDP" stats --prometheus "$@" >"$TMP/prom" 2>"$TMP/err" || return 1
	$PY "$ROOT/tests/cli_qps.py" prom_families "$TMP/prom"
}
if read -r max nfam nqps < <(prom); then
	if [ "$max" = 10 ] && [ "$nfam" -ge 6 ] && [ "$nqps" = 504 ]; then
		ok "prometheus: 504 QPs, at most 10 series per QP family ($nfam families), totals"
	else
		nok "prometheus default K" "max $max families $nfam qps $nqps"
	fi
else
	nok "stats --prometheus" "$(cat "$TMP/err")"
fi
if read -r max nfam nqps < <(prom --top-qps 3); then
	[ "$max" = 3 ] && ok "prometheus --top-qps 3: 3 series per family" ||
		nok "prometheus --top-qps 3" "max $max"
else
	nok "stats --prometheus --top-qps 3" "$(cat "$TMP/err")"
fi
# the exposition stays valid: each family typed once, before its samples,
# and no sample repeated
if $PY "$ROOT/tests/cli_qps.py" exposition "$TMP/prom" 2>"$TMP/err"; then
	ok "prometheus: every family typed once before its samples, no sample twice"
else
	nok "prometheus exposition valid" "$(cat "$TMP/err")"
fi
# the sick QPs come first: the stalled 0x44 is among the top 3 though it
# is the smallest by bytes of the first four
if grep -q 'rocedp_qp_bytes_total{src="10.0.0.7",dst="10.0.0.8",qp="0x44",' "$TMP/prom"; then
	ok "prometheus: the stalled QP is in the top K"
else
	nok "prometheus: stalled QP in top K" "$(grep rocedp_qp_bytes_total "$TMP/prom")"
fi

# ------------------------------------------------------------ the real writer

# The dataplane's own program fills the table: the object loaded by
# bpftool (its maps pinned in a second private directory), telemetry on,
# four requests of one QP with PSNs 1 2 4 3 run through rocedp_xdp with
# BPF_PROG_TEST_RUN (`bpftool prog run`): per docs/telemetry.md one gap of
# one PSN (4 after 2) and one rewind (3 behind 5), read back by rocedp qps.
OBJ=$OUT/rocedp.bpf.o
LIVE=$PIN/live
if [ ! -r "$OBJ" ]; then
	nok "the dataplane object $OBJ (make)"
elif ! mkdir -p "$LIVE" ||
	! bpftool prog loadall "$OBJ" "$LIVE/progs" pinmaps "$LIVE/maps" >"$TMP/load" 2>&1; then
	nok "load $OBJ with bpftool" "$(tail -3 "$TMP/load")"
else
	echo '{}' >"$TMP/empty.json"
	export ROCEDP_PIN_DIR=$LIVE/maps
	"$ROCEDP" config load "$TMP/empty.json" >"$TMP/cfg" 2>&1 &&
		"$ROCEDP" config set features=forward,remark,ecn,telemetry \
			telemetry.qp_stall_us=60000000 >>"$TMP/cfg" 2>&1 ||
		nok "telemetry on" "$(cat "$TMP/cfg")"
	$PY "$ROOT/tests/cli_qps.py" frames "$TMP" || nok "frames written with scapy"
	for i in 0 1 2 3; do
		bpftool prog run pinned "$LIVE/progs/rocedp_xdp" data_in "$TMP/f$i.bin" \
			repeat 1 >>"$TMP/run" 2>&1 || nok "bpftool prog run frame $i" "$(tail -2 "$TMP/run")"
	done
	if "$ROCEDP" -j qps >"$TMP/live.json" 2>&1 && $PY "$ROOT/tests/cli_qps.py" live "$TMP/live.json" 2>"$TMP/err"; then
		ok "frames through the real program: rocedp qps reads 4 requests, 1 gap, 1 rewind, a wait"
	else
		nok "qps after the real program" "$(cat "$TMP/live.json" "$TMP/err" | tail -5)"
	fi
	export ROCEDP_PIN_DIR=$PIN/maps
fi

t_done
