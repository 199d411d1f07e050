#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CLI tests for `rocedp config` and `rocedp qos` against real pinned maps.
#
# The maps come from `bpftool prog loadall ... pinmaps` into a private pin
# directory (ROCEDP_PIN_DIR), so a live dataplane under /sys/fs/bpf/rocedp is
# never touched and parallel runs do not collide. Devices eth1/eth2 (a veth
# pair) live in a private netns; every rocedp call runs in it through
# nsenter, which keeps our mount namespace and so the bpffs.
#
# Every refusal is checked three ways: non-zero exit, the expected error
# line naming the key, and a byte-identical snapshot of the maps (bpftool
# dumps) and of `config show -j` before and after.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
# the test build with the fault hooks on (docs/faults.md); $ROCEDP has none
ROCEDP_FAULTS_BIN=${ROCEDP_FAULTS_BIN:-$(dirname "$ROCEDP")/rocedp-faults}
EX=$ROOT/docs/examples
CHK="$PY $ROOT/tests/cli_config.py" # the map checks
NS=rdcfgt$$
PIN=/sys/fs/bpf/rdcfgt$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdcfgt.XXXXXX)

cleanup() {
	unpin_maps "$ROCEDP_PIN_DIR"
	ip netns del "$NS" 2>/dev/null
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

check() { # check DESC CMD...: ok when CMD succeeds
	local d=$1
	shift
	if "$@" >"$TMP/check.out" 2>&1; then ok "$d"; else nok "$d" "$(cat "$TMP/check.out")"; fi
}

rd() { nsenter --net=/run/netns/"$NS" "$ROCEDP" "$@"; }
rdf() { nsenter --net=/run/netns/"$NS" "$ROCEDP_FAULTS_BIN" "$@"; }

MAPS="rd_config rd_qos rd_cts_rules rd_groups rd_routes4 rd_routes6 rd_tx_ports rd_port_cfg rd_port_state"
snapshot() { # the maps' raw bytes and the CLI's view
	local m
	for m in $MAPS; do
		echo "== $m"
		bpftool map dump pinned "$ROCEDP_PIN_DIR/$m" || echo "dump failed"
	done
	echo "== show"
	rd -j config show 2>&1
}

# dump the map NAME as bpftool JSON (with BTF "formatted" values)
mapjson() { bpftool -j map dump pinned "$ROCEDP_PIN_DIR/$1"; }

# ------------------------------------------------------------ setup

need_root
need_rocedp
# the dataplane's own map definitions in an object whose program is
# trivial: these tests are about the CLI and the maps, not the programs
pin_maps "$PIN/maps" || exit 1
ip netns add "$NS" &&
	ip -n "$NS" link add eth1 type veth peer name eth2 &&
	ip -n "$NS" link set eth1 up && ip -n "$NS" link set eth2 up
if [ $? != 0 ]; then
	nok "netns $NS with eth1/eth2"
	exit 1
fi
IF1=$(ip netns exec "$NS" cat /sys/class/net/eth1/ifindex)
IF2=$(ip netns exec "$NS" cat /sys/class/net/eth2/ifindex)
ok "setup: maps pinned in $ROCEDP_PIN_DIR, netns $NS (eth1=$IF1 eth2=$IF2)"

# ------------------------------------------------------------ defaults

echo '{}' >"$TMP/empty.json"
check "config load {} (defaults)" rd config load "$TMP/empty.json"

check "defaults match the contract (rd_config and rd_qos read back)" $CHK defaults "$ROCEDP_PIN_DIR"

rd config dump >"$TMP/defaults.dump" 2>&1
check "config dump of the defaults equals docs/examples/defaults.json" $PY -c "
import json, sys
a = json.load(open('$TMP/defaults.dump')); b = json.load(open('$EX/defaults.json'))
sys.exit(a != b)"

# ------------------------------------------------------------ examples

for f in "$EX"/*.json; do
	check "config check docs/examples/${f##*/}" rd config check "$f"
done

# ------------------------------------------------------------ a full load

check "config load docs/examples/leaf.json" rd config load "$EX/leaf.json"

check "leaf.json is in the maps (config, rules, groups, routes, ports)" \
	$CHK leaf "$ROCEDP_PIN_DIR" "$IF1" "$IF2"

# XDP marks ECN in the ingress program: no devmap egress program to run
check "devmap entries of member ports carry no egress program" \
	sh -c "bpftool -j map dump pinned '$ROCEDP_PIN_DIR/rd_tx_ports' |
	$CHK devmap"

check "config show (text) names rules, groups and routes" \
	sh -c "nsenter --net=/run/netns/$NS $ROCEDP config show | grep -q 'nccl-cts' &&
	       nsenter --net=/run/netns/$NS $ROCEDP config show | grep -q '10.1.0.0/16 group 1'"

# ------------------------------------------------------------ round trip

rd config dump >"$TMP/dump1.json" 2>&1
snapshot >"$TMP/snap1"
check "config load of config dump succeeds" rd config load "$TMP/dump1.json"
snapshot >"$TMP/snap2"
rd config dump >"$TMP/dump2.json" 2>&1
check "round trip: dump -> load -> dump is identical" cmp "$TMP/dump1.json" "$TMP/dump2.json"
check "round trip: maps byte-identical after reloading the dump" cmp "$TMP/snap1" "$TMP/snap2"

# ------------------------------------------------------------ refusals

# refuse NAME FILE|-set ARGS EXPECT: must fail, print EXPECT, change nothing
refuse() {
	local desc=$1 expect=$2
	shift 2
	snapshot >"$TMP/before"
	if "$@" >"$TMP/out" 2>"$TMP/err"; then
		nok "$desc: accepted" "$(cat "$TMP/err")"
		return
	fi
	snapshot >"$TMP/after"
	if ! grep -qF -- "$expect" "$TMP/err"; then
		nok "$desc: error line" "want: $expect
got: $(cat "$TMP/err")"
	elif ! cmp -s "$TMP/before" "$TMP/after"; then
		nok "$desc: running config changed" "$(diff "$TMP/before" "$TMP/after" | head -20)"
	else
		ok "$desc: refused ($(head -1 "$TMP/err")), maps unchanged"
	fi
}

# a copy of leaf.json with one change, made by a Python expression on `d`
variant() { # NAME EXPR
	$CHK variant "$EX/leaf.json" "$TMP/$1.json" "$2"
	echo "$TMP/$1.json"
}

f=$(variant dscp64 'd["qos"]["ack"]["dscp"] = 64')
refuse "load: DSCP 64" "rocedp: config: qos.ack.dscp: 64 is out of range 0..63" rd config load "$f"
f=$(variant pcp8 'd["qos"]["cnp"]["pcp"] = 8')
refuse "load: PCP 8" "qos.cnp.pcp: 8 is out of range 0..7" rd config load "$f"
f=$(variant badclass 'd["qos"]["acks"] = {"dscp": 46}')
refuse "load: unknown class" "qos.acks: unknown class" rd config load "$f"
f=$(variant nonip 'd["qos"]["non_ip"] = {"dscp": 1}')
refuse "load: class non_ip cannot be remarked" "qos.non_ip: unknown class" rd config load "$f"
f=$(variant unknownkey 'd["hash"]["colour"] = "blue"')
refuse "load: unknown key" "hash.colour: unknown key" rd config load "$f"
f=$(variant topkey 'd["qoss"] = {}')
refuse "load: unknown top-level key" "qoss: unknown key" rd config load "$f"
f=$(variant wrongtype 'd["hash"]["seed"] = "7"')
refuse "load: wrong type" "hash.seed: expected an integer" rd config load "$f"
f=$(variant badmode 'd["hash"]["mode"] = "ecmp"')
refuse "load: unknown hash mode" "hash.mode: unknown hash mode" rd config load "$f"
f=$(variant badfeature 'd["features"].append("turbo")')
refuse "load: unknown feature" 'features[4]: unknown feature "turbo"' rd config load "$f"
f=$(variant noopcodes 'del d["cts_rules"][1]["opcodes"]')
refuse "load: rule without opcodes" "cts_rules[1]: missing key opcodes" rd config load "$f"
f=$(variant badopcode 'd["cts_rules"][0]["opcodes"].append("send_everything")')
refuse "load: rule with unknown opcode" 'cts_rules[0].opcodes[2]: unknown opcode' rd config load "$f"
f=$(variant qprange 'd["cts_rules"][0]["qp"] = "0x200-0x100"')
refuse "load: rule QP range min > max" "cts_rules[0].qp" rd config load "$f"
f=$(variant qp25 'd["cts_rules"][0]["qp"] = [0, 16777216]')
refuse "load: rule QP beyond 24 bits" "cts_rules[0].qp[1]: 16777216 is out of range" rd config load "$f"
f=$(variant hostbits 'd["cts_rules"][0]["dst"] = "10.1.2.3/16"')
refuse "load: rule prefix with host bits" 'cts_rules[0].dst: "10.1.2.3/16" has host bits set' rd config load "$f"
f=$(variant badprefix 'd["routes"][0]["prefix"] = "10.1.0.0/33"')
refuse "load: route prefix /33" "routes[0].prefix" rd config load "$f"
f=$(variant toomanyrules 'd["cts_rules"] = [{"opcodes": [4]}] * 17')
refuse "load: 17 CTS rules" "cts_rules: 17 rules, at most 16" rd config load "$f"
f=$(variant toomanymembers 'd["groups"][0]["members"] = [d["groups"][0]["members"][0]] * 65')
refuse "load: 65 members" "groups[0].members: 65 members, expected 1..64" rd config load "$f"
f=$(variant weight 'd["groups"][0]["members"][0]["weight"] = 65536')
refuse "load: weight 65536" "groups[0].members[0].weight: 65536 is out of range 0..65535" rd config load "$f"
f=$(variant dupgroup 'd["groups"][1]["id"] = 1')
refuse "load: duplicate group id" "groups[1].id: duplicate group id 1" rd config load "$f"
f=$(variant bigid 'd["groups"][1]["id"] = 1024; d["routes"][1]["group"] = 1')
refuse "load: group id >= ROCEDP_MAX_GROUPS" "groups[1].id: 1024 is out of range 1..1023" rd config load "$f"
f=$(variant missinggroup 'd["routes"][1]["group"] = 9')
refuse "load: route to a missing group" "routes[1].group: group 9 is not defined in groups" rd config load "$f"
f=$(variant baddev 'd["groups"][0]["members"][0]["dev"] = "nosuch0"')
refuse "load: unknown dev" 'groups[0].members[0].dev: no such device "nosuch0"' rd config load "$f"
f=$(variant badmac 'd["groups"][0]["members"][0]["dmac"] = "02:00:00:00:02"')
refuse "load: bad MAC" "groups[0].members[0].dmac" rd config load "$f"
f=$(variant kminkmax 'd["ecn"]["ports"]["eth1"]["kmin_bytes"] = 500000')
refuse "load: kmin > kmax" "ecn.ports.eth1.kmin_bytes: 500000 is above kmax_bytes 409600" rd config load "$f"
f=$(variant pmax 'd["ecn"]["ports"]["eth1"]["pmax_percent"] = 101')
refuse "load: pmax 101" "ecn.ports.eth1.pmax_percent: 101 is out of range 0..100" rd config load "$f"
f=$(variant gaps 'd["flowlet"]["gap_min_us"] = 3000')
refuse "load: gap_min > gap_max" "flowlet.gap_min_us: 3000 is above gap_max_us 2047" rd config load "$f"
# promises the dataplane cannot keep: refused, not kept broken
for m in qp qp-only flowlet spray; do
	f=$(variant sym_$m "d['hash'] = {'mode': '$m', 'symmetric': True}")
	refuse "load: symmetric with hash mode $m" "hash.symmetric: true cannot hold with hash mode $m" rd config load "$f"
done
f=$(variant sym_fl 'd["hash"] = {"mode": "5tuple", "symmetric": True}')
refuse "load: symmetric with the flowlet feature" "hash.symmetric: true cannot hold with the flowlet feature" rd config load "$f"
refuse "set: symmetric with mode qp" "hash.symmetric: true cannot hold with hash mode qp" rd config set hash.mode=qp hash.symmetric=true
i=0
for op in '"acknowledge"' '"atomic_acknowledge"' '"xrc_acknowledge"' '"cnp"' 129 17; do
	i=$((i + 1))
	f=$(variant cts_ack$i "d['cts_rules'][0]['opcodes'].append($op)")
	refuse "load: CTS rule on $op" "cts_rules[0].opcodes[2]: $op is no data opcode: CTS rules are checked on data opcodes only" rd config load "$f"
done
f=$(variant buffer 'd["ecn"]["ports"]["eth1"]["buffer_bytes"] = 1000')
refuse "load: buffer below kmax" "ecn.ports.eth1.buffer_bytes: 1000 is below kmax_bytes 409600" rd config load "$f"
printf '{"qos": {"ack": }}' >"$TMP/syntax.json"
refuse "load: JSON syntax error" "syntax.json:1:17: JSON syntax error" rd config load "$TMP/syntax.json"
printf '{"qos": {}' >"$TMP/trunc.json"
refuse "load: truncated JSON" "trunc.json: unexpected end of file" rd config load "$TMP/trunc.json"
printf '{} {}' >"$TMP/trailing.json"
refuse "load: text after the document" "unexpected text after the JSON document" rd config load "$TMP/trailing.json"
refuse "load: missing file" "rocedp: config: $TMP/nope.json: No such file or directory" \
	rd config load "$TMP/nope.json"
refuse "check: missing file" "$TMP/nope.json: No such file or directory" rd config check "$TMP/nope.json"

# one bad value: exactly one error line
rd config check "$(variant one 'd["qos"]["ack"]["dscp"] = 99')" 2>"$TMP/one.err"
check "one bad value gives exactly one error line" test "$(wc -l <"$TMP/one.err")" = 1
# a key with a newline in it: still one line, the character shown as "?"
printf '{"qos": {"a\\nrocedp: config: forged": 1}}' >"$TMP/nlkey.json"
rd config check "$TMP/nlkey.json" 2>"$TMP/nlkey.err"
check "a key with a newline gives one error line, no forged second one" \
	sh -c "[ \$(wc -l <'$TMP/nlkey.err') = 1 ] && grep -q 'qos.a?rocedp: config: forged: unknown' '$TMP/nlkey.err'"
# several: one line each
f=$(variant many 'd["qos"]["ack"]["dscp"] = 99; d["hash"]["mode"] = "x"; d["groups"][0]["members"][0]["weight"] = -1')
rd config check "$f" 2>"$TMP/many.err"
check "three bad values give three error lines" test "$(wc -l <"$TMP/many.err")" = 3

refuse "set: all-or-nothing (hash.mode valid, qos.ack.dscp=64 not)" \
	"qos.ack.dscp: 64 is out of range 0..63" rd config set hash.mode=qp-only qos.ack.dscp=64
refuse "set: unknown key" "hash.colour: unknown key" rd config set hash.colour=1
refuse "set: unknown class" "qos.bulk: unknown class" rd config set qos.bulk.dscp=1
refuse "set: malformed pair" "expected KEY=VALUE" rd config set hash.mode
refuse "qos set: DSCP 64" "rocedp: qos: dscp 64 is out of range 0..63" rd qos set ack dscp 64
refuse "qos set: unknown class" "rocedp: qos: bulk: unknown class" rd qos set bulk dscp 10
refuse "qos set: PCP 8" "pcp 8 is out of range 0..7" rd qos set cnp dscp 48 pcp 8
refuse "qos set: not a number" "dscp 'high' is not a number" rd qos set cnp dscp high
refuse "qos set: missing dscp" "missing dscp" rd qos set cnp pcp 3

# ------------------------------------------------------------ rollback

# Make the Nth map write fail (test hook) for every N the load performs:
# each time the maps must be as before, byte for byte.
f=$(variant other '
d["hash"]["mode"] = "qp"
d["cts_rules"] = [d["cts_rules"][1], {"opcodes": [4], "qp": 7}]
d["groups"] = [{"id": 3, "members": [{"dev": "eth2", "dmac": "02:00:00:00:00:09"}]},
               d["groups"][0]]
d["routes"] = [{"prefix": "10.1.0.0/16", "group": 3}, {"prefix": "10.4.0.0/16", "group": 1},
               {"prefix": "2001:db8:4::/48", "local": True}]
d["ecn"]["ports"] = {"eth1": {"kmin_bytes": 1000, "kmax_bytes": 2000, "hold_queue_bytes": 1500}}
d["qos"]["cnp"] = {"dscp": 40}')
# fail_each_write FILE MAX: load FILE with its Nth write failing, N = 1..,
# until a load needs fewer than N writes (applied=1); after each failure
# the maps must be as in $TMP/before and the error must name ENOMEM.
# Sets fails, bad, applied.
fail_each_write() {
	local i
	fails=0 bad="" applied=0
	for i in $(seq 1 "$2"); do
		if ROCEDP_FAULT_CONFIG_WRITE=$i rdf config load "$1" >/dev/null 2>"$TMP/err"; then
			applied=1
			break
		fi
		fails=$((fails + 1))
		snapshot >"$TMP/after"
		cmp -s "$TMP/before" "$TMP/after" || bad="$bad $i"
		grep -q "Cannot allocate memory" "$TMP/err" || bad="$bad $i(msg)"
	done
}
snapshot >"$TMP/before"
fail_each_write "$f" 60
if [ -n "$bad" ] || [ "$fails" -lt 10 ]; then
	nok "rollback: a failed write at any point leaves the maps unchanged" \
		"failures at writes:$bad; $fails failure points"
else
	ok "rollback: failed write at each of $fails points, maps unchanged every time"
fi
snapshot >"$TMP/after"
check "the same load with no fault left applies and changes the maps" \
	sh -c "[ $applied = 1 ] && ! cmp -s '$TMP/before' '$TMP/after'"
# the shipped binary has no hooks: the variable is inert (docs/faults.md)
check "shipped rocedp ignores ROCEDP_FAULT_CONFIG_WRITE=1" \
	env ROCEDP_FAULT_CONFIG_WRITE=1 nsenter --net=/run/netns/"$NS" \
	"$ROCEDP" config load "$f"
check "shipped rocedp holds no ROCEDP_FAULT_ string" \
	sh -c "! grep -q ROCEDP_FAULT_ '$ROCEDP'"

check "stale static routes/groups removed, kept ones updated, ports reset" \
	$CHK stale "$ROCEDP_PIN_DIR" "$IF1" "$IF2"

# ------------------------------------------------------------ killed mid-load

# Kill the load right after its Nth map write (test hook, no rollback) for
# every N: the dataplane keeps whatever state that leaves, so each one must
# be whole. The live CTS list and rd_config are exactly the old or the new
# ones (rules from the bank rd_config names), every route's group exists,
# every usable member's port is in the devmap. A later load recovers: it
# gives the same view as a load from a clean state.
old_f=$f
new_f=$(variant crashnew '
r = d["cts_rules"]
r[0]["max_payload"] = 128
d["cts_rules"] = [r[2], r[0], r[1]]
d["hash"]["mode"] = "5tuple"
d["routes"][0]["group"] = 2
d["qos"]["ack"] = {"dscp": 46}')
rd -j config show >"$TMP/old.show"
$CHK live save "$ROCEDP_PIN_DIR" "$TMP/old.view"
rd config load "$new_f" >/dev/null
rd -j config show >"$TMP/new.show"
$CHK live save "$ROCEDP_PIN_DIR" "$TMP/new.view"
rd config load "$old_f" >/dev/null
crashes=0 bad="" done_at=
for i in $(seq 1 80); do
	ROCEDP_FAULT_CONFIG_CRASH=$i rdf config load "$new_f" >/dev/null 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		done_at=$i
		break
	fi
	[ $rc = 70 ] || bad="$bad $i(exit $rc)"
	crashes=$((crashes + 1))
	out=$($CHK live check "$ROCEDP_PIN_DIR" "$TMP/old.view" "$TMP/new.view" 2>&1) ||
		bad="$bad $i($out)"
	rd config load "$new_f" >/dev/null 2>&1 || bad="$bad $i(recovery load failed)"
	rd -j config show | cmp -s - "$TMP/new.show" || bad="$bad $i(recovered view differs)"
	rd config load "$old_f" >/dev/null 2>&1 || bad="$bad $i(reload of old failed)"
	rd -j config show | cmp -s - "$TMP/old.show" || bad="$bad $i(old view differs)"
done
if [ -n "$bad" ] || [ "$crashes" -lt 10 ] || [ -z "$done_at" ]; then
	nok "killed after any write, the maps hold a whole state and a load recovers" \
		"$crashes kill points, done at ${done_at:-never}; bad:$bad"
else
	ok "killed after each of $crashes writes: live CTS list and config old or new, routes and groups whole, a load recovers"
fi
check "after the kill tests the old config loads again" rd config load "$old_f"
check "and gives the view it gave before" \
	sh -c "nsenter --net=/run/netns/$NS $ROCEDP -j config show | cmp -s - $TMP/old.show"

# ------------------------------------------------------------ set / qos

check "config set hash.mode=qp hash.seed=7 flowlet.gap=auto features=forward,remark qos.cnp.dscp=48" \
	rd config set hash.mode=qp hash.seed=7 flowlet.gap=auto features=forward,remark qos.cnp.dscp=48
check "config set reached rd_config, the rest is unchanged" $CHK set "$ROCEDP_PIN_DIR"
check "config set KEY=null returns a key to its default" rd config set hash.seed=null
check "hash.seed back to 0" sh -c "nsenter --net=/run/netns/$NS $ROCEDP -j config show |
	$PY -c 'import json,sys; sys.exit(json.load(sys.stdin)[\"hash\"][\"seed\"] != 0)'"

check "config set features=[JSON list] takes the list as a file does" \
	rd config set 'features=["forward", "remark","ecn"]'
check "features are forward, remark and ecn" sh -c "nsenter --net=/run/netns/$NS $ROCEDP -j config show |
	$PY -c 'import json,sys; f=json.load(sys.stdin)[\"features\"]; sys.exit(sorted(f) != [\"ecn\", \"forward\", \"remark\"])'"
check "config set features=forward,remark still takes words" rd config set features=forward,remark

check "qos set cnp dscp 40 pcp 5" rd qos set cnp dscp 40 pcp 5
check "qos set data leave" rd qos set data leave
check "rd_qos holds {set, 40, pcp 5} for cnp and leave for data" $CHK qos "$ROCEDP_PIN_DIR"
check "qos show -j lists the ten settable classes" sh -c "nsenter --net=/run/netns/$NS $ROCEDP qos show -j |
	$CHK qos_show"

# per-rule hits: bpftool writes the value on every CPU, the CLI sums them
POSSIBLE=$(bpftool -j map dump pinned "$ROCEDP_PIN_DIR/rd_cts_stats" |
	$PY -c 'import json,sys; print(len(json.load(sys.stdin)[0]["values"]))')
bpftool map update pinned "$ROCEDP_PIN_DIR/rd_cts_stats" key 1 0 0 0 value 7 0 0 0 0 0 0 0
check "qos rules -j: rule hits summed over $POSSIBLE CPUs" sh -c "nsenter --net=/run/netns/$NS $ROCEDP -j qos rules |
	$CHK rules $POSSIBLE"

# A new prefix under a covering route, then a later write fails: the undo
# must delete the new prefix. (A trie lookup of the new key finds the
# covering route, and the undo once wrote that route's value under the new
# prefix; found by the config fuzzer.)
f1=$(variant cover1 'd["routes"].append({"prefix": "10.0.0.0/8", "group": 2})')
f2=$(variant cover2 'd["routes"].append({"prefix": "10.0.0.0/8", "group": 2})
d["routes"].append({"prefix": "10.7.0.0/16", "group": 1})
d["routes"].append({"prefix": "2001:db8:2:7::/64", "group": 1})
d["qos"]["ack"] = {"dscp": 10}')
rd config load "$f1" >/dev/null
snapshot >"$TMP/before"
fail_each_write "$f2" 20
if [ -n "$bad" ] || [ "$fails" -lt 3 ]; then
	nok "rollback under covering routes: the new prefixes are deleted again" \
		"maps differ after failed writes:$bad ($fails failure points)"
else
	ok "rollback under covering routes: maps unchanged at each of $fails failure points"
fi

# A pin of rd_route_gen that cannot be mapped (made without
# BPF_F_MMAPABLE, as a stale or foreign pin would be): a load that writes
# a route is refused naming the map, and nothing is written.
rd config load "$EX/leaf.json" >/dev/null
# (bpffs refuses a rename: a second pin keeps the real map alive)
bpftool map pin pinned "$ROCEDP_PIN_DIR/rd_route_gen" "$ROCEDP_PIN_DIR/rd_route_gen_real"
rm -f "$ROCEDP_PIN_DIR/rd_route_gen"
bpftool map create "$ROCEDP_PIN_DIR/rd_route_gen" type array key 4 value 4 \
	entries 1 name rd_route_gen
f=$(variant newroute 'd["routes"].append({"prefix": "10.77.0.0/16", "group": d["routes"][0]["group"]})')
refuse "load: rd_route_gen cannot be mapped" "rd_route_gen: cannot map it" rd config load "$f"
check "qos set writes no route: it needs no rd_route_gen mapping" rd qos set ack dscp 40
rm -f "$ROCEDP_PIN_DIR/rd_route_gen"
bpftool map pin pinned "$ROCEDP_PIN_DIR/rd_route_gen_real" "$ROCEDP_PIN_DIR/rd_route_gen"
rm -f "$ROCEDP_PIN_DIR/rd_route_gen_real"
check "with the real rd_route_gen back, the same load succeeds" rd config load "$f"

check "config help" rd config help
refuse "config: unknown verb" "unknown command 'frobnicate'" rd config frobnicate

t_done
