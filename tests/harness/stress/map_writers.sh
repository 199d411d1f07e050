#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One writer per map (docs/design.md, "Who writes which map"): `rocedp ecn
# set`, `rocedp config load` and a running `rocedp sync` on the same pin
# directory, raced for MW_ROUNDS rounds (default 1000). A stress run by
# hand, not part of `make test`: routes and groups have one committer
# now (the sync daemon while it runs), tests/fib_mix_test checks their
# result against the RIB, selftests/sync_handoff.sh the hand-off, and
# tests/map_owners.sh the writer modules.
#
# Each round starts `ecn set a0 kmin K kmax 2K` (K new every round),
# `qos set data dscp D` and `config load` of one of two files (they differ in a0's rate, pmax and
# profile) at the same time, while the kernel route sync follows moves to
# the other port. Afterwards a0's rd_port_cfg entry must be exactly one of
# the two orders: the config's entry (config last), or the config's entry
# with this round's kmin/kmax (ecn set last). Anything else is a lost or
# half-applied write, e.g. the rate of the previous round's config under
# this round's thresholds: `ecn set` read the entry before the load and
# wrote it back after. `ecn set` runs from rocedp-faults with
# ROCEDP_FAULT_PORT_EDIT_DELAY_US, which widens its read-modify-write
# window so that an unlocked writer is caught within a few rounds.
# rd_qos's data class must be qos set's D or the config's default (leave).
# Every round, sync's route 10.9.0.0/16 and the config's static
# 10.7.0.0/16 are both in rd_routes4 with their group in rd_groups (a load
# keeps sync's routes, sync keeps the config's). At the end sync's route is
# on the last kernel port and the static route on b0.
#
# The maps are the dataplane's own definitions pinned by bpftool into a
# private directory (as tests/cli_config.sh); the ports are veths in a
# private netns (name prefix MW_NS_PREFIX), every rocedp call runs in it
# through nsenter, which keeps our mount namespace and so the bpffs.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh" # OUT, ROCEDP, PY, ok, nok, pin_maps
ROCEDP_FAULTS_BIN=${ROCEDP_FAULTS_BIN:-$(dirname "$ROCEDP")/rocedp-faults}
ROUNDS=${MW_ROUNDS:-1000}
NS=${MW_NS_PREFIX:-}rdmw$$
PIN=/sys/fs/bpf/rdmw$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdmw.XXXXXX)
SYNC_PID=

cleanup() {
	[ -n "$SYNC_PID" ] && kill "$SYNC_PID" 2>/dev/null && wait "$SYNC_PID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

rd() { nsenter --net=/run/netns/"$NS" "$ROCEDP" "$@"; }
rdf() {
	nsenter --net=/run/netns/"$NS" env ROCEDP_FAULT_PORT_EDIT_DELAY_US=2000 \
		"$ROCEDP_FAULTS_BIN" "$@"
}

# Statically: map writes appear only in the writer modules of the table
# in docs/design.md (engine.c writes the offline engine's own clock/trace).
# flaps.c: rd_port_flaps (the link watcher); porttab.c: the reset of
# rd_port_hwm (the programs raise it).
WRITERS="config_txn.c groupw.c portw.c routew.c portl2.c engine.c flaps.c porttab.c probew.c"
stray=$(cd "$ROOT/userspace" &&
	grep -lE 'bpf_map_(update|delete)_(elem|batch)|bpf_map__(update|delete)_elem' \
		-- */*.c */*/*.c 2>/dev/null | while read -r f; do
		case " $WRITERS " in *" ${f##*/} "*) ;; *) echo "$f" ;; esac
	done)
if [ -z "$stray" ]; then
	ok "map writes only in the writer modules ($WRITERS)"
else
	nok "map writes only in the writer modules ($WRITERS)" "also in: $stray"
fi

if [ "$(id -u)" != 0 ]; then
	t_done
	exit
fi
for b in "$ROCEDP" "$ROCEDP_FAULTS_BIN"; do
	if [ ! -x "$b" ]; then
		echo "not ok 1 - missing $b (run make all test-progs)"
		exit 1
	fi
done
pin_maps "$PIN/maps" || exit 1
ip netns add "$NS" &&
	ip -n "$NS" link add a0 type veth peer name a1 &&
	ip -n "$NS" link add b0 type veth peer name b1 &&
	for d in lo a0 a1 b0 b1; do ip -n "$NS" link set "$d" up || false; done &&
	ip -n "$NS" addr add 10.100.0.1/24 dev a0 &&
	ip -n "$NS" addr add 10.100.1.1/24 dev b0 &&
	ip -n "$NS" neigh replace 10.100.0.2 lladdr 02:00:00:00:00:02 nud permanent dev a0 &&
	ip -n "$NS" neigh replace 10.100.1.2 lladdr 02:00:00:00:01:02 nud permanent dev b0 &&
	ip -n "$NS" route add 10.9.0.0/16 via 10.100.0.2 dev a0
if [ $? != 0 ]; then
	nok "netns $NS with a0/b0"
	exit 1
fi
IFA=$(ip netns exec "$NS" cat /sys/class/net/a0/ifindex)
IFB=$(ip netns exec "$NS" cat /sys/class/net/b0/ifindex)

# two configs that differ in a0's entry; both keep b0's static route
cfg() { # RATE PMAX PROFILE
	cat <<EOF
{"ecn": {"ports": {"a0": {"rate_mbps": $1, "pmax_percent": $2, "profile": $3}}},
 "groups": [{"id": 1, "members": [{"dev": "b0", "dmac": "02:00:00:00:01:02"}]}],
 "routes": [{"prefix": "10.7.0.0/16", "group": 1}]}
EOF
}
cfg 1000 30 1 >"$TMP/c0.json"
cfg 2000 40 2 >"$TMP/c1.json"
RATE=(1000 2000)
PMAX=(30 40)
PROF=(1 2)
DKMIN=102400 # a port's defaults (docs/config.md)
DKMAX=409600

if ! rd config load "$TMP/c1.json" >"$TMP/out" 2>&1; then
	nok "config load before the race" "$(cat "$TMP/out")"
	exit 1
fi
# ecn set on a port with no entry starts from the defaults (it used to
# start from the all-zero slot); a refused edit writes nothing
port_of() { rd ecn show | awk -v p="$1" '$1 == p { print $3, $6, $8, $10 }'; }
rd ecn set b1 rate 10 >"$TMP/out" 2>&1
got=$(port_of b1)
if [ "$got" = "10 $DKMIN $DKMAX 20%" ]; then
	ok "ecn set b1 rate 10 on an unset port: the defaults and the rate"
else
	nok "ecn set b1 rate 10 on an unset port: the defaults and the rate" "got '$got' (rate kmin kmax pmax): $(cat "$TMP/out")"
fi
if ! rd ecn set b1 kmin 500000 >"$TMP/out" 2>&1 &&
	grep -q "kmin 500000 is above kmax $DKMAX" "$TMP/out" &&
	[ "$(port_of b1)" = "$got" ]; then
	ok "ecn set b1 kmin above kmax: refused by name, entry unchanged"
else
	nok "ecn set b1 kmin above kmax: refused by name, entry unchanged" "$(cat "$TMP/out"); now '$(port_of b1)'"
fi
nsenter --net=/run/netns/"$NS" "$ROCEDP" sync >"$TMP/sync.log" 2>&1 &
SYNC_PID=$!
sleep 0.5
if kill -0 "$SYNC_PID" 2>/dev/null; then
	ok "setup: maps in $ROCEDP_PIN_DIR, netns $NS (a0=$IFA b0=$IFB), rocedp sync running"
else
	nok "rocedp sync starts" "$(tail -5 "$TMP/sync.log")"
	exit 1
fi

# a0's entry as "RATE_MBPS KMIN KMAX PMAX PROFILE" (rocedp ecn show)
port_a0() {
	rd ecn show | awk '$1 == "a0" {
		for (i = 2; i < NF; i++) v[$i] = $(i + 1)
		sub("%", "", v["pmax"])
		print v["rate"], v["kmin"], v["kmax"], v["pmax"], v["profile"]
	}'
}

# route_ok A.B.C.D: a route covers the address, and its group exists. A
# reader can see the route just before sync moves it to a new group and
# drops the old one, so a miss is read again; a lost route stays lost.
route_ok() {
	local try v gid
	for try in 1 2 3; do
		v=$(bpftool -j map lookup pinned "$ROCEDP_PIN_DIR/rd_routes4" \
			key 32 0 0 0 ${1//./ } 2>/dev/null)
		gid=$(sed -n 's/.*"group_id":\([0-9]*\).*/\1/p' <<<"$v")
		[ -n "$gid" ] && bpftool map lookup pinned \
			"$ROCEDP_PIN_DIR/rd_groups" key $((gid & 255)) \
			$((gid >> 8 & 255)) 0 0 >/dev/null 2>&1 && return 0
		sleep 0.01
	done
	return 1
}

ecn_last=0
cfg_last=0
rbad=0
bad=0
qos_last=0
qbad=0
badlog=
for r in $(seq 1 "$ROUNDS"); do
	c=$((r % 2))
	k=$((4096 + 8 * r))
	rdf ecn set a0 kmin "$k" kmax $((2 * k)) >"$TMP/ecn.out" 2>&1 &
	e=$!
	d=$((r % 63 + 1))
	rd qos set data dscp "$d" >"$TMP/qos.out" 2>&1 &
	q=$!
	if [ $c = 0 ]; then
		ip -n "$NS" route replace 10.9.0.0/16 via 10.100.1.2 dev b0 &
	else
		ip -n "$NS" route replace 10.9.0.0/16 via 10.100.0.2 dev a0 &
	fi
	rt=$!
	rd config load "$TMP/c$c.json" >"$TMP/cfg.out" 2>&1
	lrc=$?
	wait "$e"
	erc=$?
	wait "$q"
	qrc=$?
	wait "$rt"
	if [ $lrc != 0 ] || [ $erc != 0 ] || [ $qrc != 0 ]; then
		bad=$((bad + 1))
		badlog+="round $r: load exit $lrc ($(cat "$TMP/cfg.out")), ecn set exit $erc ($(cat "$TMP/ecn.out")), qos set exit $qrc ($(cat "$TMP/qos.out"))"$'\n'
		continue
	fi
	# the config leaves data alone (its default): qos set's value or that
	got=$(rd qos show | awk '$1 == "data" { print $2, $3 }')
	if [ "$got" = "set $d" ]; then
		qos_last=$((qos_last + 1))
	elif [ "$got" != "leave -" ]; then
		qbad=$((qbad + 1))
		[ "$qbad" -le 5 ] && badlog+="round $r: rd_qos data is '$got'; want 'set $d' or 'leave -'"$'\n'
	fi
	got=$(port_a0)
	base="${RATE[$c]} %s %s ${PMAX[$c]} ${PROF[$c]}"
	# shellcheck disable=SC2059
	if [ "$got" = "$(printf "$base" "$k" $((2 * k)))" ]; then
		ecn_last=$((ecn_last + 1))
	elif [ "$got" = "$(printf "$base" $DKMIN $DKMAX)" ]; then
		cfg_last=$((cfg_last + 1))
	else
		bad=$((bad + 1))
		[ "$bad" -le 5 ] && badlog+="round $r: a0 is '$got' (rate kmin kmax pmax profile); want '$(printf "$base" "$k|$DKMIN" "$((2 * k))|$DKMAX")'"$'\n'
	fi
	for a in 10.7.0.1 10.9.0.1; do
		if ! route_ok $a; then
			rbad=$((rbad + 1))
			[ "$rbad" -le 5 ] && badlog+="round $r: no route (or no group) for $a"$'\n'
		fi
	done
done

if [ $bad = 0 ]; then
	ok "$ROUNDS rounds: a0's rd_port_cfg entry always one writer's whole result (ecn set last $ecn_last, config last $cfg_last)"
else
	nok "$ROUNDS rounds: $bad with a lost or half-applied write (ecn set last $ecn_last, config last $cfg_last)" "$badlog"
fi
if [ $qbad = 0 ]; then
	ok "$ROUNDS rounds: rd_qos data always qos set's value or the config's ($qos_last with qos set last)"
else
	nok "$ROUNDS rounds: rd_qos data lost a write in $qbad rounds"
fi
if [ $rbad = 0 ]; then
	ok "$ROUNDS rounds: sync's 10.9.0.0/16 and the static 10.7.0.0/16 always in rd_routes4, their groups in rd_groups"
else
	nok "$ROUNDS rounds: a route or its group missing $rbad times" "$badlog"
fi
if [ $ecn_last -gt 0 ] && [ $cfg_last -gt 0 ]; then
	ok "the writers did interleave: both orders were seen"
else
	nok "the writers did interleave: both orders were seen" "ecn set last $ecn_last, config last $cfg_last"
fi

# sync's route follows the last kernel change; the config's static route stays
last=$((ROUNDS % 2 == 0 ? IFB : IFA))
sleep 1.5 # sync's tick
bpftool -j map dump pinned "$ROCEDP_PIN_DIR/rd_routes4" >"$TMP/r4.json"
bpftool -j map dump pinned "$ROCEDP_PIN_DIR/rd_groups" >"$TMP/g.json"
bpftool -j map dump pinned "$ROCEDP_PIN_DIR/rd_port_cfg" >"$TMP/pc.json"
out=$($PY - "$TMP" "$last" "$IFB" "$DKMIN" "$DKMAX" <<'EOF'
import json, sys
d, last, ifb, dkmin, dkmax = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
routes = {}
for e in json.load(open(d + "/r4.json")):
    k, v = e["formatted"]["key"], e["formatted"]["value"]
    routes[(k["addr"], k["prefixlen"])] = v
groups = {e["formatted"]["key"]: e["formatted"]["value"] for e in json.load(open(d + "/g.json"))}
def ports(gid):
    g = groups.get(gid)
    return sorted(m["ifindex"] for m in g["members"][:g["n_members"]]) if g else None
err = []
st = routes.get((0x070a, 16))
if not st or st["group_id"] != 1 or ports(1) != [ifb]:
    err.append("static 10.7.0.0/16: %r, group 1: %r" % (st, ports(1)))
dy = routes.get((0x090a, 16))
if not dy or ports(dy["group_id"]) != [last]:
    err.append("synced 10.9.0.0/16: %r, its group's ports %r (want [%d])" % (dy, dy and ports(dy["group_id"]), last))
pcs = {e["formatted"]["key"]: e["formatted"]["value"] for e in json.load(open(d + "/pc.json"))}
b = pcs.get(ifb, {})
if (b.get("kmin_bytes"), b.get("kmax_bytes")) != (dkmin, dkmax):
    err.append("b0's rd_port_cfg is not the defaults: %r" % b)
print("\n".join(err))
EOF
)
if [ -z "$out" ]; then
	ok "after the race: sync's 10.9.0.0/16 on the last kernel port, the static 10.7.0.0/16 on b0, b0 at the defaults"
else
	nok "after the race: no lost route, b0 at the defaults" "$out"
fi
if kill -0 "$SYNC_PID" 2>/dev/null; then
	ok "rocedp sync still running"
else
	nok "rocedp sync still running" "$(tail -5 "$TMP/sync.log")"
fi
t_done
