#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp paths`: the probe settings (paths set), port roles (paths
# port), the leaf map (paths leaf), and the path-quality table as text,
# JSON and Prometheus, with each entry's age and a timed-out entry shown
# failed; bad input refused with one line, changing nothing. The table's
# entries are written with bpftool, as the dataplane would (the fixtures
# in tests/fixtures/probes.fix show the programs filling it). Maps pinned
# by bpftool into a private directory (selftests/lib.sh); a veth pair
# in a private netns (name prefix PA_NS_PREFIX), rocedp run in it.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh" # OUT, ROCEDP, PY, ok, nok, pin_maps
need_root
need_rocedp
NS=${PA_NS_PREFIX:-}rdpa$$
PIN=/sys/fs/bpf/rdpa$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdpa.XXXXXX)
KEY=000102030405060708090a0b0c0d0e0f

cleanup() {
	ip netns del "$NS" 2>/dev/null
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

rd() { nsenter --net=/run/netns/"$NS" "$ROCEDP" "$@"; }

pin_maps "$PIN/maps" || exit 1
ip netns add "$NS" && ip -n "$NS" link add up1 type veth peer name up2 &&
	ip -n "$NS" link set up1 up && ip -n "$NS" link set up2 up
if [ $? != 0 ]; then
	nok "netns $NS with up1/up2"
	exit 1
fi
IF1=$(ip netns exec "$NS" cat /sys/class/net/up1/ifindex)
IF2=$(ip netns exec "$NS" cat /sys/class/net/up2/ifindex)

# check NAME CMD...: the command succeeds
check() {
	local name=$1
	shift
	if "$@" >"$TMP/out" 2>&1; then ok "$name"; else nok "$name" "$(cat "$TMP/out")"; fi
}
# refuse NAME WANT_RC PATTERN CMD...: exit WANT_RC, one line matching
refuse() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >"$TMP/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$TMP/out")" = 1 ] &&
		grep -q -- "$pat" "$TMP/out"; then
		ok "$name: $(cat "$TMP/out")"
	else
		nok "$name (rc $rc, want $want, '$pat')" "$(cat "$TMP/out")"
	fi
}
# pyj NAME EXPR: EXPR over j, the JSON of `rocedp paths -j`, is true
pyj() {
	if rd paths -j >"$TMP/p.json" 2>&1 &&
		$PY -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" \
			"$TMP/p.json" 2>>"$TMP/p.json"; then
		ok "$1"
	else
		nok "$1" "$(cat "$TMP/p.json")"
	fi
}

pyj "fresh maps: role none, the defaults, no paths" \
	'j["role"] == "none" and j["port"] == 47000 and j["timeout_us"] == 50000 and j["paths"] == [] and j["probes"]["seen"] == 0'
check "paths set role leaf leaf-id 1 key K timeout-us 20000" \
	rd paths set role leaf leaf-id 1 key $KEY timeout-us 20000
pyj "paths -j: role leaf, leaf id 1, timeout 20000 us, interval kept" \
	'j["role"] == "leaf" and j["leaf_id"] == 1 and j["timeout_us"] == 20000 and j["interval_us"] == 500'
refuse "set role bogus is refused" 2 "role: 'bogus' is not a valid value" rd paths set role bogus
refuse "set a short key is refused" 2 "key: '0102' is not a valid value" rd paths set key 0102
refuse "set port 4791 is refused (RoCE's own)" 2 "port: '4791'" rd paths set port 4791
refuse "set interval-us above the timeout is refused" 2 "interval-us 30000 must be below timeout-us 20000" \
	rd paths set interval-us 30000
refuse "set an unknown key is refused" 2 "'colour' is no probe setting" rd paths set colour blue
refuse "set a key without a value is refused" 2 "no value" rd paths set role leaf dscp
pyj "refused sets changed nothing" \
	'j["role"] == "leaf" and j["timeout_us"] == 20000 and j["interval_us"] == 500'

check "paths port up1 fabric" rd paths port up1 fabric
check "paths port up2 fabric band 3" rd paths port up2 fabric band 3
refuse "port with band 8 is refused" 2 "band: '8' is not 0..7" rd paths port up1 fabric band 8
refuse "port with role edge is refused" 2 "is not fabric or host" rd paths port up1 edge
refuse "port of a missing device fails" 1 "nosuch0: no such interface" rd paths port nosuch0 host
v=$(bpftool map lookup pinned "$ROCEDP_PIN_DIR/rd_probe_port" key $((IF2 & 255)) $(((IF2 >> 8) & 255)) 0 0 -j 2>&1)
if $PY -c 'import json,sys; v=json.loads(sys.argv[1])["value"]; sys.exit(0 if [int(x, 16) for x in v] == [1, 3, 0, 0] else 1)' "$v"; then
	ok "rd_probe_port of up2: fabric, band floor 3"
else
	nok "rd_probe_port of up2: fabric, band floor 3" "$v"
fi
check "paths leaf 10.2.0.0/16 2" rd paths leaf 10.2.0.0/16 2
refuse "leaf with a bad prefix is refused" 2 "'10.2.0.0/40' is not an IPv4 prefix" rd paths leaf 10.2.0.0/40 2
refuse "leaf with a bad id is refused" 2 "'x' is not a leaf id" rd paths leaf 10.2.0.0/16 x
check "paths leaf 10.2.0.0/16 delete" rd paths leaf 10.2.0.0/16 delete
refuse "deleting it again fails" 1 "10.2.0.0/16: writing rd_leaf4" rd paths leaf 10.2.0.0/16 delete

# two entries as a leaf's probes leave them: leaf 2 on up1, band 4 =
# max(own 1, probe 4), seq 77, stamped a minute ahead of the clock (so it
# is live however long this busy machine takes to read it back: age 0);
# leaf 2 on up2, seen at boot, older than the timeout: failed
hex() { $PY -c 'import struct,sys; a=[int(x) for x in sys.argv[2:]]; print(" ".join("%d" % b for b in struct.pack(sys.argv[1], *a)))' "$@"; }
NOW=$($PY -c 'import time; print(time.monotonic_ns())')
bpftool map update pinned "$ROCEDP_PIN_DIR/rd_pathq" key $(hex "<II" 2 "$IF1") \
	value $(hex "<QQQIBBBB" $((NOW + 60000000000)) "$NOW" 5 77 4 4 1 1) &&
	bpftool map update pinned "$ROCEDP_PIN_DIR/rd_pathq" key $(hex "<II" 2 "$IF2") \
		value $(hex "<QQQIBBBB" 1000 900 9 12 2 2 0 1)
if [ $? = 0 ]; then ok "two rd_pathq entries written"; else nok "two rd_pathq entries written"; fi
pyj "paths -j: up1's entry live: band 4, own 1, probe 4, seq 77, age 0" \
	'[(p["leaf"], p["band"], p["failed"], p["own_band"], p["probe_band"], p["seq"], p["accepted"], p["age_us"]) for p in j["paths"] if p["dev"] == "up1"] == [(2, 4, False, 1, 4, 77, 5, 0)]'
pyj "paths -j: up2's entry older than the timeout: failed, band 8, its age in us" \
	'[(p["band"], p["failed"], p["age_us"] > 1000000) for p in j["paths"] if p["dev"] == "up2"] == [(8, True, True)]'
rd paths >"$TMP/t.txt" 2>&1
if grep -q "^role leaf, leaf id 1, probe port 47000, timeout 20000 us" "$TMP/t.txt" &&
	grep -Eq "^2 +up1 +4 +1 +4 +1 +0 +77 +5$" "$TMP/t.txt" && grep -Eq "^2 +up2 +failed " "$TMP/t.txt" &&
	grep -q "^probes: seen 0 accepted 0" "$TMP/t.txt"; then
	ok "paths: the settings, one row per (leaf, uplink), failed shown, counters"
else
	nok "paths: the settings, one row per (leaf, uplink), failed shown, counters" "$(cat "$TMP/t.txt")"
fi
rd stats --prometheus >"$TMP/prom" 2>&1
if grep -q '^rocedp_path_band{leaf="2",port="up1"} 4$' "$TMP/prom" &&
	grep -q '^rocedp_path_band{leaf="2",port="up2"} 8$' "$TMP/prom" &&
	grep -q '^rocedp_path_age_seconds{leaf="2",port="up1"} 0.000000$' "$TMP/prom" &&
	grep -q '^rocedp_probes_total{outcome="bad_auth"} 0$' "$TMP/prom"; then
	ok "stats --prometheus: rocedp_path_band, rocedp_path_age_seconds, rocedp_probes_total"
else
	nok "stats --prometheus: path families" "$(grep -E 'path|probe' "$TMP/prom")"
fi
check "paths clear" rd paths clear
pyj "after paths clear: no paths, settings kept" 'j["paths"] == [] and j["role"] == "leaf"'
check "paths set role none" rd paths set role none
rd stats --prometheus >"$TMP/prom" 2>&1
if grep -q "rocedp_path\|rocedp_probes" "$TMP/prom"; then
	nok "role none: no path families in the exposition" "$(grep -E 'path|probe' "$TMP/prom")"
else
	ok "role none: no path families in the exposition"
fi
refuse "paths send as no leaf fails" 1 "role is none, not leaf" rd paths send --src 10.0.0.1 --count 1

t_done
