#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp ipfix` (docs/metrics.md, IPFIX) against the dataplane's map
# definitions pinned by bpftool and filled by tests/qps_fill.py: two QPs
# with every counter set (one IPv4, one IPv6) and 100 more, exported once
# to a collector (tests/ipfix_collect.py), decoded by tshark's IPFIX
# dissector (cflow), an independent decoder: every QP of `rocedp -j qps`
# is in the export once, with the same addresses, QP, packets, bytes,
# gaps, rewinds, NAKs, CNPs, RTT min and mean and stalls; the templates
# come first; the sequence numbers count the records; bad arguments are
# one line and exit 2.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines. Root.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
PIN=/sys/fs/bpf/rdipfx$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdipfx.XXXXXX)
FILL="$PY $ROOT/tests/qps_fill.py $ROCEDP_PIN_DIR"

cleanup() {
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp
command -v tshark >/dev/null || { nok "tshark (tools/install-deps.sh)"; exit 1; }
pin_maps "$ROCEDP_PIN_DIR" || exit 1

for a in '' nothing 127.0.0.1 ':4739' '[::]:4739' 127.0.0.1:0; do
	out=$("$ROCEDP" ipfix ${a:+--collector "$a"} --count 1 2>&1)
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q -- "--collector" <<<"$out" &&
		ok "ipfix --collector '$a': exit 2, one line" || nok "ipfix --collector '$a'" "exit $rc: $out"
done
out=$("$ROCEDP" ipfix --collector 127.0.0.1:9 --interval 0.01 2>&1)
[ $? = 2 ] && grep -q -- "--interval" <<<"$out" && ok "ipfix --interval 0.01: exit 2" || nok "ipfix --interval" "$out"

$FILL --qp src=10.0.0.1,dst=10.0.0.2,qp=0x11,pkts=100,bytes=4000000,gaps=3,rewinds=2,nak_psn_seq=4,nak_rnr=1,cnps=5,rtt_min_ns=9000,rtt_ewma_ns=30000,rtt_samples=4,stalls=1 \
	--qp src=fd00::1,dst=fd00::2,qp=0x33,pkts=7,bytes=20000,rewinds=5,gaps=6,cnps=2,stalls=3 \
	--many 100 2>"$TMP/err" || nok "fill" "$(cat "$TMP/err")"
"$ROCEDP" -j qps --limit 1000 >"$TMP/qps.json" 2>"$TMP/err" || nok "rocedp -j qps" "$(cat "$TMP/err")"

$PY "$ROOT/tests/ipfix_collect.py" "$TMP/port" "$TMP/x.pcap" 1 >"$TMP/n" 2>"$TMP/cerr" &
cpid=$!
for _ in $(seq 100); do [ -e "$TMP/port" ] && break; sleep 0.1; done
if "$ROCEDP" ipfix --collector "127.0.0.1:$(cat "$TMP/port")" --count 1 --domain 7 2>"$TMP/err"; then
	ok "ipfix --count 1: one export sent"
else
	nok "ipfix --count 1" "$(cat "$TMP/err")"
fi
wait "$cpid"
tshark -r "$TMP/x.pcap" -V -d udp.port==4739,cflow >"$TMP/decoded" 2>"$TMP/terr" ||
	nok "tshark reads the export" "$(head -n 3 "$TMP/terr")"

$PY "$ROOT/tests/cli_ipfix_check.py" "$TMP/decoded" "$TMP/qps.json" >"$TMP/out" 2>&1
while IFS='|' read -r st desc why; do
	case $st in
	ok) ok "$desc" ;;
	fail) nok "$desc" "$why" ;;
	*) nok "decoder: $st $desc $why" ;;
	esac
done <"$TMP/out"
[ -s "$TMP/out" ] || nok "the comparison ran"

t_done
