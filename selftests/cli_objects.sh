#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The rocedp CLI object by object, against a live attachment.
#
#  - help at every level: `rocedp help`, `rocedp OBJECT help|--help|-h`,
#    `rocedp OBJECT VERB help` for the verbs that take arguments;
#  - `-j` (and `-p`) output of every object parses as JSON;
#  - bad arguments for each object: exactly one line `rocedp: OBJECT: ...`
#    on stderr, nothing on stdout, non-zero exit, and for writers the
#    running config unchanged;
#  - bad config files: `check` and `load` refuse each with one line naming
#    the key, and the running config is unchanged, verified by reading the
#    maps back (bpftool dumps of every config map and `config show -j`,
#    byte-identical); a failed write is rolled back (fault injection);
#  - privileges: as nobody every object but help fails with one clear line;
#    the pin directory is 0700 and no pinned file is group/world accessible,
#    even when attach runs under umask 000.
#
# Devices are a veth pair (and a second one for tc) in our own netns; rocedp
# runs there through nsenter (keeps the host's /sys/fs/bpf) with its pins in
# our own directory.
#
# Usage: selftests/cli_objects.sh   (root)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/nobody_reach.bash"
nobody_reach "$0" "$@"
. "$(dirname "$0")/lib.sh"

missing=$(t_need nsenter bpftool setpriv ip) || {
	t_fail "tools present" "missing: $missing"
	t_done
	exit 1
}
[ -x "$ROCEDP" ] || { t_fail "$ROCEDP built"; t_done; exit 1; }

NS=lc_cli$$
PIN=/sys/fs/bpf/lc_cli$$
export ROCEDP_PIN_DIR=$PIN
CFG=$T_TMP/cfg
mkdir -p "$CFG"
OBJECTS="attach detach status config qos ecn stats flows sync replay selftest-load"
HIDDEN="selftest-load" # a test hook: runs, answers help, not in the user's list
# the maps that hold configuration (the others count traffic)
CFG_MAPS="rd_config rd_qos rd_cts_rules rd_routes4 rd_routes6 rd_groups rd_tx_ports rd_port_cfg"

rd() { nsenter --net="/run/netns/$NS" "$ROCEDP" "$@"; }
# the test build with the fault hooks on (docs/faults.md); $ROCEDP has none
ROCEDP_FAULTS_BIN=${ROCEDP_FAULTS_BIN:-$(dirname "$ROCEDP")/rocedp-faults}
rdf() { nsenter --net="/run/netns/$NS" "$ROCEDP_FAULTS_BIN" "$@"; }
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

teardown() {
	local id
	id=$(bpftool -j map show pinned "$PIN/rd_cts_rules" 2>/dev/null |
		$PY -c 'import json,sys; print(json.load(sys.stdin)["id"])' 2>/dev/null)
	[ -e "/run/netns/$NS" ] && rd detach --all
	[ -n "$id" ] && rm -f "/run/rocedp/cts-$id.names"
	for p in $(ip netns pids "$NS" 2>/dev/null); do kill "$p"; done
	ip netns del "$NS" 2>/dev/null
	rm -rf "$PIN"
}
t_cleanup teardown

ip netns add "$NS" || { t_fail "netns $NS"; t_done; exit 1; }
ip -n "$NS" link set lo up
ip -n "$NS" link add lcx0 type veth peer name lcx1
ip -n "$NS" link add lcx2 type veth peer name lcx3
for d in lcx0 lcx1 lcx2 lcx3; do
	ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1"
	ip -n "$NS" link set "$d" up
done

# run NAME ARGS...: rocedp ARGS in the netns; NAME.out, NAME.err, NAME.rc
run() {
	local n=$1
	shift
	rd "$@" >"$T_TMP/$n.out" 2>"$T_TMP/$n.err"
	echo $? >"$T_TMP/$n.rc"
}

# bad OBJECT ARGS...: refused with exactly one stderr line
# "rocedp: OBJECT: <reason>", nothing on stdout, non-zero exit
bad() {
	local obj=$1 rc err
	shift
	run bad "$@"
	rc=$(cat "$T_TMP/bad.rc")
	err=$(tr '\n' '|' <"$T_TMP/bad.err" | sed 's/|$//')
	[ "$rc" != 0 ] && [ ! -s "$T_TMP/bad.out" ] &&
		[ "$(wc -l <"$T_TMP/bad.err")" = 1 ] &&
		grep -qE "^rocedp: $obj: .+" "$T_TMP/bad.err"
	t_check $? "bad args: rocedp $* -> ${err:-(nothing)}" \
		"rc $rc; stdout $(head -c 100 "$T_TMP/bad.out" | tr '\n' '|'); stderr: $(tr '\n' '|' <"$T_TMP/bad.err")"
}

# jsonok DESC ARGS...: exit $JSON_RC (default 0) and stdout is one JSON
# document
jsonok() {
	local desc=$1
	shift
	run j "$@"
	[ "$(cat "$T_TMP/j.rc")" = "${JSON_RC:-0}" ] && [ -s "$T_TMP/j.out" ] &&
		$PY -m json.tool "$T_TMP/j.out" >/dev/null 2>&1
	t_check $? "json: rocedp $* parses ($desc)" \
		"rc $(cat "$T_TMP/j.rc"): $(head -c 200 "$T_TMP/j.out" | tr '\n' '|') $(head -c 200 "$T_TMP/j.err" | tr '\n' '|')"
}

# helpok ARGS...: exit 0, usage of the object on stdout, nothing on stderr
helpok() {
	local obj=$1
	[ "$obj" = help ] && obj= # the top level: every object
	run h "$@"
	[ "$(cat "$T_TMP/h.rc")" = 0 ] && [ ! -s "$T_TMP/h.err" ] &&
		grep -q "^Usage: rocedp $obj" "$T_TMP/h.out"
	t_check $? "help: rocedp $*" "rc $(cat "$T_TMP/h.rc"): $(head -c 150 "$T_TMP/h.out" | tr '\n' '|') $(head -c 150 "$T_TMP/h.err")"
}

# snap NAME: the running config as the maps hold it
snap() {
	local m
	rd -j config show >"$T_TMP/$1.show" 2>&1
	for m in $CFG_MAPS; do
		echo "== $m"
		bpftool -j map dump pinned "$PIN/$m" 2>&1
	done >"$T_TMP/$1.maps"
}
# same A B: snapshots identical (and not empty)
same() {
	cmp -s "$T_TMP/$1.show" "$T_TMP/$2.show" && cmp -s "$T_TMP/$1.maps" "$T_TMP/$2.maps" &&
		grep -q '"hash"' "$T_TMP/$1.show" && [ "$(grep -c '^== ' "$T_TMP/$1.maps")" = 8 ]
}

# ------------------------------------------------------------ top level
helpok help
run top help
for o in $OBJECTS; do
	[[ " $HIDDEN " == *" $o "* ]] && continue
	grep -qE "^  $o " "$T_TMP/top.out" || t_fail "rocedp help lists $o"
done
t_ok "rocedp help lists every object ($OBJECTS)"
for o in $HIDDEN; do
	! grep -qE "^  $o " "$T_TMP/top.out"
	t_check $? "rocedp help does not list the test hook $o"
done
run top -h
grep -q "^Usage: rocedp" "$T_TMP/top.out"
t_check $? "help: rocedp -h"
run top --version
grep -qE "^rocedp [0-9]" "$T_TMP/top.out"
t_check $? "rocedp --version ($(cat "$T_TMP/top.out"))"
run top
[ "$(cat "$T_TMP/top.rc")" != 0 ] && grep -q "^Usage: rocedp" "$T_TMP/top.err"
t_check $? "rocedp without an object: usage on stderr, non-zero exit"
bad bogus bogus
bad options -x status
bad options --bogus status

for o in $OBJECTS; do
	helpok "$o" help
	helpok "$o" --help
done
helpok stats -h
# verbs that take arguments answer `help` too
helpok config set help
helpok config load help
helpok config check help
helpok qos set help
helpok ecn set help

# ------------------------------------------------------------ nothing attached
run st status
[ "$(cat "$T_TMP/st.rc")" = 3 ] && grep -q "not loaded" "$T_TMP/st.out"
t_check $? "status before attach: not loaded, exit 3 (nothing attached)" "$(cat "$T_TMP/st.out" "$T_TMP/st.err")"
# The record a deleted namespace with this one's nsfs inode left behind
# (inodes are reused at once; rocedp names its record by the netns cookie).
NS_INO=$(stat -L -c %i "/run/netns/$NS")
# made as rocedp makes it: the mode is checked below
mkdir -p -m 0700 /run/rocedp && echo "r0 3 native 0" >"/run/rocedp/attached.$NS_INO"
t_cleanup rm -f "/run/rocedp/attached.$NS_INO"
JSON_RC=3 jsonok "not loaded" -j status
t_pyj "$T_TMP/j.out" 'j["maps_pinned"] is False and j["interfaces"] == []' >/dev/null
t_check $? "status -j before attach: maps_pinned false, no interfaces (a dead namespace's record with this inode ignored)" "$(cat "$T_TMP/j.out")"
for args in "stats" "flows" "qos show" "ecn show" "config show"; do
	set -- $args
	bad "$1" $args
done
echo '{"hash": {"mode": "5tuple", "seed": 9}}' >"$CFG/offline.json"
run chk config check "$CFG/offline.json"
[ "$(cat "$T_TMP/chk.rc")" = 0 ]
t_check $? "config check works with nothing attached" "$(cat "$T_TMP/chk.err")"

# ------------------------------------------------------------ attach
bad attach attach
bad attach attach nosuchdev0
bad attach attach lcx0 --mode bogus
bad attach attach lcx0 --mode
bad attach attach lcx0 --features warp
bad attach attach lcx0 --bogus
[ ! -e "$PIN" ]
t_check $? "refused attaches created no pin directory"
# umask 000: the pins must still be root-only
(umask 000 && rd attach lcx0 --mode native) >"$T_TMP/att.out" 2>&1
t_check $? "attach lcx0 --mode native (under umask 000)" "$(cat "$T_TMP/att.out")"
(umask 000 && rd attach lcx2 --mode tc) >"$T_TMP/att.out" 2>&1
t_check $? "attach lcx2 --mode tc" "$(cat "$T_TMP/att.out")"
rd attach lcx0 --mode native >"$T_TMP/att.out" 2>&1
t_check $? "attach is idempotent (lcx0 again)" "$(cat "$T_TMP/att.out")"
bad attach attach lcx0 --mode tc
bad attach attach lcx0 nosuchdev0
jsonok "attached" -j status
t_pyj "$T_TMP/j.out" 'j["maps_pinned"] and sorted((i["name"], i["mode"]) for i in j["interfaces"]) == [("lcx0", "native"), ("lcx2", "tc")]' >/dev/null
t_check $? "status -j: lcx0 native and lcx2 tc, each once" "$(cat "$T_TMP/j.out")"
# status names every feature the dataplane has on, from the one vocabulary
feat0=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["features"] or "none")' "$T_TMP/j.out")
rd attach lcx0 --features forward,ecn,telemetry >"$T_TMP/att.out" 2>&1
t_check $? "attach lcx0 --features forward,ecn,telemetry" "$(cat "$T_TMP/att.out")"
jsonok "features with telemetry" -j status
t_pyj "$T_TMP/j.out" 'j["features"] == "forward,ecn,telemetry"' >/dev/null
t_check $? "status -j: features forward,ecn,telemetry" "$(cat "$T_TMP/j.out")"
run st status
grep -q "^features: forward,ecn,telemetry " "$T_TMP/st.out"
t_check $? "status: features forward,ecn,telemetry" "$(cat "$T_TMP/st.out")"
rd attach lcx0 --features "$feat0" >"$T_TMP/att.out" 2>&1
t_check $? "attach lcx0 --features $feat0 (as before)" "$(cat "$T_TMP/att.out")"
# an older version named the record by the netns inode: trusted where the
# attachments are really there, and moved to the cookie name on next write
REC=$(t_state_file "$NS")
mv "$REC" "/run/rocedp/attached.$NS_INO" &&
	echo "lcx1 $(ip netns exec "$NS" cat /sys/class/net/lcx1/ifindex) native 0" \
		>>"/run/rocedp/attached.$NS_INO"
jsonok "record under the inode name" -j status
t_pyj "$T_TMP/j.out" 'sorted((i["name"], i["mode"]) for i in j["interfaces"]) == [("lcx0", "native"), ("lcx2", "tc")]' >/dev/null
t_check $? "status -j reads an inode-named record, without its entry for lcx1 (nothing attached there)" "$(cat "$T_TMP/j.out")"
rd attach lcx0 --mode native >"$T_TMP/att.out" 2>&1 && [ -s "$REC" ] &&
	[ ! -e "/run/rocedp/attached.$NS_INO" ] && ! grep -q lcx1 "$REC"
t_check $? "the next attach moves the record to the cookie name" "$(cat "$T_TMP/att.out"; ls /run/rocedp)"

# ------------------------------------------------------------ safety
out=$(stat -c '%a %U' "$PIN" "$PIN/links" "$PIN/progs" | sort -u | xargs)
[ "$out" = "700 root" ]
t_check $? "pin directory and its subdirectories are 0700 root ($out)" "$out"
out=$(find "$PIN" -mindepth 1 \( -perm /077 \) -printf '%m %p\n' | head -3)
[ -z "$out" ] && [ "$(find "$PIN" -type f | wc -l)" -ge 17 ]
t_check $? "no pinned file is group/world accessible ($(find "$PIN" -type f | wc -l) files)" "$out"
out=$(stat -c %a /run/rocedp)
[ "$out" = 700 ]
t_check $? "/run/rocedp (attachment records) is 0700 ($out)"
nobody cat "$PIN/rd_config" >/dev/null 2>&1
[ $? != 0 ]
t_check $? "nobody cannot open a pinned map"
for o in $OBJECTS; do
	args=$o
	[ "$o" = config ] && args="config show"
	[ "$o" = qos ] && args="qos show"
	[ "$o" = ecn ] && args="ecn show"
	[ "$o" = attach ] && args="attach lcx1"
	[ "$o" = replay ] && args="replay --in /dev/null"
	nobody env ROCEDP_PIN_DIR="$PIN" "$ROCEDP" $args >"$T_TMP/nb.out" 2>"$T_TMP/nb.err"
	rc=$?
	[ $rc != 0 ] && [ ! -s "$T_TMP/nb.out" ] && [ "$(wc -l <"$T_TMP/nb.err")" = 1 ] &&
		grep -qE "^rocedp: $o: .*(root|permission|Permission)" "$T_TMP/nb.err"
	t_check $? "as nobody: rocedp $args -> $(cat "$T_TMP/nb.err")" "rc $rc: $(cat "$T_TMP/nb.out" "$T_TMP/nb.err" | head -c 200)"
done
nobody "$ROCEDP" help >"$T_TMP/nb.out" 2>&1
t_check $? "as nobody: rocedp help works"

# ------------------------------------------------------------ JSON everywhere
for args in "status" "config show" "config dump" "qos show" "qos rules" "ecn show" "stats" "flows" "sync --once"; do
	jsonok "" -j $args
	jsonok "pretty" -p $args
done
jsonok "dump is JSON without -j" config dump
jsonok "" -j config check "$CFG/offline.json"

# a small capture for replay: three RoCEv2 RDMA WRITE ONLY frames
$PY "$T_TOP/selftests/cli_objects.py" pcap "$T_TMP/t.pcap"
jsonok "summary" -j replay --in "$T_TMP/t.pcap"
run rp -j replay --in "$T_TMP/t.pcap" --verdicts - --out "$T_TMP/o.pcap"
n=$($PY -c '
import json, sys
print(sum(1 for l in open(sys.argv[1]) if l.strip() and json.loads(l).get("frame")))' "$T_TMP/rp.out" 2>/dev/null)
[ "$(cat "$T_TMP/rp.rc")" = 0 ] && [ "$n" = 3 ]
t_check $? "json: replay --verdicts - gives one JSON object per frame ($n of 3)" "$(head -c 300 "$T_TMP/rp.out" "$T_TMP/rp.err" | tr '\n' '|')"

# Prometheus text exposition and the node_exporter textfile
run prom stats --prometheus
$PY "$T_TOP/selftests/cli_objects.py" exposition "$T_TMP/prom.out" >"$T_TMP/prom.why"
t_check $? "stats --prometheus is text exposition format ($(grep -vc '^#' "$T_TMP/prom.out") samples)" "$(cat "$T_TMP/prom.why")"
mkdir -p "$T_TMP/tf"
run tf stats --textfile "$T_TMP/tf"
[ "$(cat "$T_TMP/tf.rc")" = 0 ] && cmp -s <(grep -v '^#' "$T_TMP/tf/rocedp.prom" | sed 's/ .*//') <(grep -v '^#' "$T_TMP/prom.out" | sed 's/ .*//')
t_check $? "stats --textfile DIR writes DIR/rocedp.prom (same series)" "$(cat "$T_TMP/tf.err")"
# action verbs print nothing that is not JSON under -j
for args in "qos set data leave" "config set hash.seed=0" "ecn set lcx0 kmin 102400 kmax 409600"; do
	run act -j $args
	[ "$(cat "$T_TMP/act.rc")" = 0 ] && { [ ! -s "$T_TMP/act.out" ] || $PY -m json.tool "$T_TMP/act.out" >/dev/null 2>&1; }
	t_check $? "json: rocedp -j $args prints nothing or JSON" "$(head -c 200 "$T_TMP/act.out" "$T_TMP/act.err")"
done

# ------------------------------------------------------------ a config to keep
cat >"$CFG/good.json" <<'EOF'
{
  "features": ["forward", "remark", "ecn"],
  "hash": {"mode": "5tuple", "seed": 77},
  "qos": {"cnp": {"dscp": 40}, "cts": {"dscp": 30, "pcp": 5}},
  "cts_rules": [{"name": "cts", "opcodes": ["send_only"], "qp": "0x100-0x1ff", "max_payload": 64}],
  "ecn": {"ports": {"lcx0": {"kmin_bytes": 1000, "kmax_bytes": 2000, "pmax_percent": 50}}},
  "groups": [{"id": 1, "members": [{"dev": "lcx0", "dmac": "02:00:00:00:00:01"},
                                   {"dev": "lcx2", "dmac": "02:00:00:00:00:02", "weight": 3}]}],
  "routes": [{"prefix": "10.1.0.0/16", "group": 1}, {"prefix": "10.9.0.0/24", "local": true}]
}
EOF
snap base
run good config load "$CFG/good.json"
t_check "$(cat "$T_TMP/good.rc")" "config load good.json" "$(cat "$T_TMP/good.err")"
snap good
! same base good && t_pyj "$T_TMP/good.show" 'j["hash"] == {"mode": "5tuple", "seed": 77, "symmetric": False} and j["qos"]["cnp"] == {"dscp": 40} and len(j["groups"][0]["members"]) == 2 and len(j["routes"]) == 2 and j["cts_rules"][0]["max_payload"] == 64' >/dev/null
t_check $? "the loaded config reads back from the maps (the snapshots see a change)"

# ------------------------------------------------------------ bad config files
w() { printf '%s\n' "$2" >"$CFG/$1.json"; }
w syntax '{"hash": {"mode": qp}}'
w trunc '{"hash": {"mode": "qp"}'
printf '' >"$CFG/empty.json"
w array '[1, 2]'
w unknown_key '{"hash": {"mdoe": "qp"}}'
w unknown_top '{"hashes": {}}'
w dscp_range '{"qos": {"ack": {"dscp": 64}}}'
w pcp_range '{"qos": {"cts": {"dscp": 1, "pcp": 8}}}'
w bad_class '{"qos": {"malformed": {"dscp": 1}}}'
w seed_type '{"hash": {"seed": "7"}}'
w seed_float '{"hash": {"seed": 7.0}}'
w hash_mode '{"hash": {"mode": "round-robin"}}'
w feature '{"features": ["forward", "warp"]}'
w gap '{"flowlet": {"gap_min_us": 100, "gap_max_us": 10}}'
w cts_qp '{"cts_rules": [{"name": "a", "opcodes": [4], "qp": "0x200-0x100"}]}'
w cts_op '{"cts_rules": [{"name": "a", "opcodes": ["send_everything"]}]}'
w cts_name '{"cts_rules": [{"name": "bad name!", "opcodes": [4]}]}'
$PY -c 'import json; print(json.dumps({"cts_rules": [{"name": "r%d" % i, "opcodes": [4]} for i in range(17)]}))' >"$CFG/cts_many.json"
w ecn_k '{"ecn": {"ports": {"lcx0": {"kmin_bytes": 5000, "kmax_bytes": 100}}}}'
w ecn_port '{"ecn": {"ports": {"nosuchdev0": {}}}}'
w pmax '{"ecn": {"ports": {"lcx0": {"pmax_percent": 101}}}}'
w nodev '{"groups": [{"id": 1, "members": [{"dev": "nosuchdev0", "dmac": "02:00:00:00:00:01"}]}]}'
w mac '{"groups": [{"id": 1, "members": [{"dev": "lcx0", "dmac": "02:00:00:00:00:zz"}]}]}'
w gid0 '{"groups": [{"id": 0, "members": [{"dev": "lcx0", "dmac": "02:00:00:00:00:01"}]}]}'
w nomembers '{"groups": [{"id": 1, "members": []}]}'
w nogroup '{"routes": [{"prefix": "10.1.0.0/16", "group": 5}]}'
w hostbits '{"routes": [{"prefix": "10.1.0.1/16", "local": true}]}'
w dupprefix '{"routes": [{"prefix": "10.1.0.0/16", "local": true}, {"prefix": "10.1.0.0/16", "local": true}]}'
w badprefix '{"routes": [{"prefix": "10.1.0.0/33", "local": true}]}'
# a good file made bad by its last key: nothing of the good part may apply
w late_error '{"hash": {"mode": "qp", "seed": 1}, "qos": {"cnp": {"dscp": 10}}, "routes": [{"prefix": "10.7.0.0/16", "local": true}], "flowlet": {"choice": "best"}}'
for f in "$CFG"/*.json "$CFG/does-not-exist.json" "$CFG"; do
	case $f in */good.json | */offline.json) continue ;; esac
	name=$(basename "$f")
	bad config config check "$f"
	bad config config load "$f"
	snap after
	same good after
	t_check $? "config load $name: running config unchanged (maps and config show -j byte-identical)" \
		"$(diff <(cat "$T_TMP/good.show" "$T_TMP/good.maps") <(cat "$T_TMP/after.show" "$T_TMP/after.maps") | head -5)"
done
# from stdin too
echo '{"hash": {"mode": "bogus"}}' | rd config load - >"$T_TMP/stdin.out" 2>"$T_TMP/stdin.err"
rc=$?
snap after
[ $rc != 0 ] && [ "$(wc -l <"$T_TMP/stdin.err")" = 1 ] && grep -q "^rocedp: config: hash.mode" "$T_TMP/stdin.err" && same good after
t_check $? "config load - (stdin) with a bad value: one line, unchanged ($(cat "$T_TMP/stdin.err"))"
# a write that fails half way (test hook) is rolled back
cat >"$CFG/big.json.in" <<'EOF'
{"hash": {"mode": "qp"}, "qos": {"cnp": {"dscp": 10}},
 "groups": [{"id": 2, "members": [{"dev": "lcx2", "dmac": "02:00:00:00:00:09"}]}],
 "routes": [{"prefix": "10.5.0.0/16", "group": 2}],
 "cts_rules": [{"name": "x", "opcodes": [4], "qp": 5}],
 "ecn": {"ports": {"lcx2": {"kmin_bytes": 10, "kmax_bytes": 20}}}}
EOF
for n in 1 2 3 4 6 9; do
	ROCEDP_FAULT_CONFIG_WRITE=$n rdf config load "$CFG/big.json.in" >"$T_TMP/f.out" 2>"$T_TMP/f.err"
	rc=$?
	snap after
	[ $rc != 0 ] && ! grep -qv "^rocedp: config: " "$T_TMP/f.err" &&
		tail -n1 "$T_TMP/f.err" | grep -q "nothing applied" && same good after
	t_check $? "config load with map write $n failing: rolled back, unchanged ($(head -n1 "$T_TMP/f.err"))" \
		"rc $rc: $(cat "$T_TMP/f.err")"
done

# ------------------------------------------------------------ config set / qos / ecn (writers)
writer_bad() { # OBJECT ARGS...: refused and nothing changed
	bad "$@"
	snap after
	same good after
	t_check $? "rocedp ${*:2}: running config unchanged" \
		"$(diff <(cat "$T_TMP/good.show" "$T_TMP/good.maps") <(cat "$T_TMP/after.show" "$T_TMP/after.maps") | head -5)"
}
writer_bad config config set
writer_bad config config set noequals
writer_bad config config set nokey=1
writer_bad config config set hash.mode=bogus
writer_bad config config set hash.seed=abc
writer_bad config config set qos.ack.dscp=99
writer_bad config config set cts_rules.3.max_payload=1
writer_bad config config set 'qos.cts={"dscp": 30, "pcp": 9}'
# all pairs or none: the good first pair must not apply
writer_bad config config set hash.seed=5 qos.ack.dscp=64
writer_bad config config load
writer_bad config config bogus
bad config config show extra
bad config config dump extra
writer_bad qos qos bogus
writer_bad qos qos set
writer_bad qos qos set bogus dscp 1
writer_bad qos qos set malformed dscp 1
writer_bad qos qos set ack dscp 64
writer_bad qos qos set ack dscp -1
writer_bad qos qos set ack dscp
writer_bad qos qos set ack dscp 1 pcp 8
writer_bad qos qos set ack leave extra
bad qos qos show extra
bad qos qos rules extra
writer_bad ecn ecn bogus
writer_bad ecn ecn set
writer_bad ecn ecn set nosuchdev0 kmin 1
writer_bad ecn ecn set lcx0 kmin
writer_bad ecn ecn set lcx0 kmin 5000 kmax 1000
writer_bad ecn ecn set lcx0 bogus 1
writer_bad ecn ecn set lcx0 kmin abc
writer_bad ecn ecn set lcx0 pmax 101
bad ecn ecn show extra

# good writes do change the maps (so "unchanged" above means something)
rd qos set ack dscp 20 >/dev/null 2>&1 && snap after && ! same good after &&
	t_pyj "$T_TMP/after.show" 'j["qos"]["ack"] == {"dscp": 20}' >/dev/null
t_check $? "qos set ack dscp 20 applies (reads back from rd_qos)"
rd ecn set lcx0 kmin 3000 kmax 6000 pmax 30 >/dev/null 2>&1 && rd -j ecn show >"$T_TMP/e.json" &&
	t_pyj "$T_TMP/e.json" '[(p["kmin_bytes"], p["kmax_bytes"], p["pmax_percent"]) for p in j["ports"] if p["port"] == "lcx0"] == [(3000, 6000, 30)]' >/dev/null
t_check $? "ecn set lcx0 kmin 3000 kmax 6000 pmax 30 applies"
rd config set hash.seed=5 flowlet.gap=auto >/dev/null 2>&1 && rd -j config show >"$T_TMP/c.json" &&
	t_pyj "$T_TMP/c.json" 'j["hash"]["seed"] == 5 and j["flowlet"]["gap"] == "auto" and j["qos"]["ack"] == {"dscp": 20}' >/dev/null
t_check $? "config set hash.seed=5 flowlet.gap=auto applies, keeps the rest"

# ------------------------------------------------------------ readers and the rest
bad status status extra
bad stats stats --bogus
bad stats stats extra
bad stats stats --watch abc
bad stats stats --watch 0
bad stats stats --textfile
bad stats stats --textfile /nonexistent/dir
bad flows flows --limit abc
bad flows flows extra
bad sync sync --bogus
bad sync sync --once --daemon
bad sync sync --table abc
bad sync sync --table 255
bad sync sync --rcvbuf -1
bad sync sync --once extra
# only one sync per pin directory
T_BG_OUT=$T_TMP/syncd.out T_BG_ERR=$T_TMP/syncd.err t_bg syncd \
	nsenter --net="/run/netns/$NS" "$ROCEDP" sync --pid-file "$T_TMP/sync.pid"
for _ in $(seq 60); do [ -s "$T_TMP/sync.pid" ] && break; sleep 0.05; done
bad sync sync --once
kill "$syncd" 2>/dev/null
wait "$syncd" 2>/dev/null
bad replay replay
bad replay replay --bogus
bad replay replay --in
bad replay replay --in "$T_TMP/nonexistent.pcap"
bad replay replay --in "$CFG/good.json"
bad replay replay --in "$T_TMP/t.pcap" extra
bad replay replay --in "$T_TMP/t.pcap" --out /nonexistent/dir/o.pcap
bad config replay --in "$T_TMP/t.pcap" --config "$CFG/dscp_range.json"
bad selftest-load selftest-load extra

# ------------------------------------------------------------ detach
# an attached interface deleted: its programs went with it, and so does
# its line in status, and (XDP) its link pin at the next detach; a renamed
# one is listed by its new name
ip -n "$NS" link add lcx4 type veth peer name lcx5 &&
	ip -n "$NS" link add lcx6 type veth peer name lcx7 &&
	ip -n "$NS" link set lcx4 up && ip -n "$NS" link set lcx6 up &&
	ip -n "$NS" link set lcx7 up &&
	rd attach lcx4 --mode tc >"$T_TMP/att.out" 2>&1 &&
	rd attach lcx6 --mode native >>"$T_TMP/att.out" 2>&1 &&
	LCX6=$(ip netns exec "$NS" cat /sys/class/net/lcx6/ifindex) &&
	[ -e "$PIN/links/xdp_$LCX6" ] &&
	ip -n "$NS" link set lcx4 down && ip -n "$NS" link set lcx4 name lcx4r &&
	ip -n "$NS" link set lcx4r up && ip -n "$NS" link del lcx6
t_check $? "attach lcx4 (tc) and lcx6 (native), rename lcx4 to lcx4r, delete lcx6" "$(cat "$T_TMP/att.out")"
jsonok "after a rename and a delete" -j status
t_pyj "$T_TMP/j.out" 'sorted(i["name"] for i in j["interfaces"]) == ["lcx0", "lcx2", "lcx4r"]' >/dev/null
t_check $? "status -j: lcx4r by its new name, lcx6 (deleted) gone" "$(cat "$T_TMP/j.out")"
rd detach lcx4r >"$T_TMP/d.out" 2>&1 &&
	[ -z "$(ip netns exec "$NS" tc qdisc show dev lcx4r | grep clsact)" ] &&
	[ ! -e "$PIN/links/xdp_$LCX6" ]
t_check $? "detach lcx4r (renamed) removes its clsact, and the deleted lcx6's link pin" "$(cat "$T_TMP/d.out"; ls "$PIN/links")"
bad detach detach nosuchdev0
bad detach detach lcx1
bad detach detach --bogus
rd detach lcx2 >"$T_TMP/d.out" 2>&1
t_check $? "detach lcx2" "$(cat "$T_TMP/d.out")"
[ -e "$PIN/rd_config" ] && [ -z "$(ip netns exec "$NS" tc qdisc show dev lcx2 | grep clsact)" ]
t_check $? "after detaching one interface the pins stay, its clsact is gone"
rd detach --all >"$T_TMP/d.out" 2>&1
t_check $? "detach --all" "$(cat "$T_TMP/d.out")"
[ ! -e "$PIN" ] && [ -z "$(ip -n "$NS" -d link show | grep -E 'xdp|prog/xdp')" ]
t_check $? "detach --all leaves no pins and no XDP program" "$(ls -R "$PIN" 2>&1 | head -3)"
run d2 detach --all
[ "$(cat "$T_TMP/d2.rc")" = 0 ]
t_check $? "detach --all with nothing attached is a no-op (exit 0)" "$(cat "$T_TMP/d2.err")"
t_done
