#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sync` follows FRR (docs/frr.md).
#
# tools/lab/rocedp-lab up --bgp builds 2 leaves x 4 spines with Debian's
# zebra + bgpd in every leaf and spine (eBGP, RFC 7938), rocedp attached
# and `rocedp sync` on the leaves. Once with numbered /31 links, once BGP
# unnumbered (IPv6 link-local next hops: RTA_VIA). After convergence and
# after each event the leaves' maps (rd_routes4 + rd_groups) must equal the
# kernel's table (`ip -j route`: zebra's nexthop groups, expanded), and RoCE
# traffic (rocegen, 8 QPs) must cross leaf1 -> leaf2 through rocedp:
#   up        BGP converged: every remote /24 through 4 spines
#   linkdown  leaf1's up1 goes down: the maps lose that member
#   linkup    up1 returns. FRR 8.4 then often keeps a stale kernel group
#             (zebra lists 4 paths, the kernel 3): the maps follow the
#             kernel, `rocedp-lab status` must flag every disagreement,
#             and `rocedp-lab frr-repair` (ip nexthop replace) must end it
#   bgpkill   spine1's bgpd is SIGKILLed: the leaves withdraw its paths
#   bgpback   it is restarted: 4 paths again
# Only what the kernel holds is mirrored (sync reads the kernel, not
# zebra), so routes zebra marks rejected or not installed never reach the
# maps; the comparison is against the kernel for that reason.
#
# Usage: selftests/frr_sync.sh [numbered] [unnumbered]   (root)
set -u
. "$(dirname "$0")/lib.sh"

variants=("$@")
[ ${#variants[@]} = 0 ] && variants=(numbered unnumbered)
SPINES=4

if [ ! -x /usr/lib/frr/bgpd ] || [ ! -x /usr/lib/frr/zebra ]; then
	# tools/install-deps.sh installs frr; only a machine that cannot is skipped
	t_skip "FRR BGP lab" "frr is not installed (apt-get install frr)"
	t_done
	exit 0
fi
t_require bpftool vtysh

T_LAB_PREFIX=fs$((RANDOM % 10000))
t_cleanup 'lab down >/dev/null 2>&1'

# fibcmp LEAF: leaf's maps against its kernel table (IPv4), RTA_VIA
# included; prints a summary; exit 1 when they differ. A member the
# kernel flags dead/linkdown counts as absent, and so does a map member
# that is not up.
fibcmp() {
	$PY "$T_TOP/selftests/frr_sync.py" fibcmp "$LAB" "$T_LAB_PREFIX" "$1"
}

# paths LEAF PREFIX: how many next hops the kernel's route has
paths() { lab_exec "$1" ip -j route show "$2" | $PY -c 'import json,sys
r = json.load(sys.stdin)
print(len(r[0].get("nexthops") or [r[0]]) if r else 0)'; }

npaths() { [ "$(paths "$1" "$2")" = "$3" ]; }
# zpaths LEAF PREFIX N: zebra holds PREFIX installed with N paths
zpaths() {
	lab_exec "$1" vtysh -c "show ip route $2 json" | $PY -c 'import json,sys
r = [e for e in json.load(sys.stdin).get(sys.argv[1], []) if e.get("installed")]
sys.exit(not r or sum(bool(h.get("fib")) for h in r[0]["nexthops"]) != int(sys.argv[2]))' "$2" "$3"
}
both_equal() { fibcmp leaf1 && fibcmp leaf2; }

# check V EVENT: both leaves' maps equal their kernel's, and traffic crosses
check() {
	local v=$1 ev=$2 out rc
	t_wait_for 10 both_equal
	for l in leaf1 leaf2; do
		out=$(fibcmp $l)
		t_check $? "$v/$ev: $l: $out" "$out"
	done
	traffic "$v" "$ev"
}

# traffic V EVENT: RoCE WRITEs h1-1 -> h2-1 all delivered, and rocedp on
# leaf1 sent them out of its uplinks (the XDP path, not the kernel's)
traffic() {
	local v=$1 ev=$2 a b why
	t_serve srv "$v-$ev" "$(ns h2-1)" eth0 || { t_fail "$v/$ev: responder starts"; return; }
	a=$(uplinks_tx)
	ip netns exec "$(ns h1-1)" "$ROCEGEN" send --dst 10.2.1.2 --qps 8 --msg 4K \
		--count 4 --rate 200 --timeout 10 -j >"$T_TMP/$v-$ev.send" 2>"$T_TMP/$v-$ev.send.err"
	b=$(uplinks_tx)
	kill -TERM "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	why=$($PY "$T_TOP/selftests/frr_sync.py" crosses "$T_TMP/$v-$ev.send" "$T_TMP/$v-$ev.serve" "$a" "$b")
	t_check $? "$v/$ev: traffic crosses ($why)" "$why $(head -c 200 "$T_TMP/$v-$ev.send.err")"
}
uplinks_tx() {
	lab_exec leaf1 "$ROCEDP" -j stats | $PY -c 'import json,sys
j = json.load(sys.stdin)
print(sum(x["tx_pkts"] for x in j["ports"] if x.get("name", "").startswith("up")))'
}

run_variant() {
	local v=$1 t0 out rc fd
	t0=$(date +%s%N)
	lab up --bgp="$v" --spines $SPINES --hosts 1 >"$T_TMP/$v.up" 2>&1
	rc=$?
	t_check $rc "$v: lab up --bgp=$v ($((($(date +%s%N) - t0) / 1000000)) ms)" "$(tail -n3 "$T_TMP/$v.up")"
	[ $rc = 0 ] || return
	out=$(lab_exec leaf1 vtysh -c 'show bgp summary json' | $PY -c 'import json,sys
p = json.load(sys.stdin)["ipv4Unicast"]["peers"]
print(sum(v["state"] == "Established" for v in p.values()))')
	[ "$out" = $SPINES ]
	t_check $? "$v: rocedp-lab exec leaf1 vtysh: $out of $SPINES sessions established"
	if [ "$v" = unnumbered ]; then
		# RTA_VIA with nexthop objects (zebra's default); without them
		# (no zebra nexthop kernel enable) zebra's 169.254.0.1 onlink
		# next hop with a permanent neighbour entry (docs/frr.md)
		lab_exec leaf1 ip route show 10.2.1.0/24 >"$T_TMP/$v.route"
		grep -Eq 'via inet6 fe80:|via 169\.254\.0\.1 .*onlink' "$T_TMP/$v.route"
		t_check $? "$v: the kernel's next hops are link-local ($(grep -Eom1 'via inet6 fe80:|169\.254\.0\.1' "$T_TMP/$v.route"))" "$(cat "$T_TMP/$v.route")"
	fi
	check "$v" up

	lab_exec leaf1 ip link set up1 down
	t_wait_for 5 npaths leaf1 10.2.1.0/24 $((SPINES - 1))
	t_check $? "$v/linkdown: leaf1's route has $((SPINES - 1)) paths"
	check "$v" linkdown

	lab_exec leaf1 ip link set up1 up
	# the session comes back and zebra reinstalls the route
	t_wait_for 15 zpaths leaf1 10.2.1.0/24 $SPINES
	t_check $? "$v/linkup: zebra has $SPINES paths again"
	sleep 0.5
	check "$v" linkup
	fd=$(lab status 2>&1)
	if grep -q 'STALE' <<<"$fd"; then
		echo "# $v/linkup: FRR's stale group: $(grep -m1 STALE <<<"$fd" | sed 's/^ *//')"
		# every disagreement is one the status names: the kernel's
		# group is short of zebra's
		[ "$(paths leaf1 10.2.1.0/24)" -lt $SPINES ]
		t_check $? "$v/linkup: rocedp-lab status flags the stale group (kernel $(paths leaf1 10.2.1.0/24) paths, zebra $SPINES)"
		lab frr-repair >"$T_TMP/$v.repair" 2>&1
		t_check $? "$v/linkup: rocedp-lab frr-repair ($(wc -l <"$T_TMP/$v.repair") ip nexthop commands)" "$(cat "$T_TMP/$v.repair")"
	else
		echo "# $v/linkup: zebra and the kernel agree (FRR's stale group did not occur)"
		[ "$(paths leaf1 10.2.1.0/24)" = $SPINES ]
		t_check $? "$v/linkup: no stale group and the kernel has $SPINES paths"
	fi
	! lab status 2>&1 | grep -q STALE
	t_check $? "$v/linkup: status: zebra and the kernel agree on every node"
	t_wait_for 3 npaths leaf1 10.2.1.0/24 $SPINES
	t_check $? "$v/linkup: leaf1's route has $SPINES paths"
	check "$v" repaired

	kill -9 "$(cat "/run/rocedp-lab/$T_LAB_PREFIX/frr/spine1/bgpd.pid")"
	t_wait_for 10 npaths leaf1 10.2.1.0/24 $((SPINES - 1))
	t_check $? "$v/bgpkill: spine1's bgpd killed: leaf1's route has $((SPINES - 1)) paths"
	t_wait_for 10 npaths leaf2 10.1.1.0/24 $((SPINES - 1))
	t_check $? "$v/bgpkill: and leaf2's"
	check "$v" bgpkill

	lab frr start spine1 bgpd >"$T_TMP/$v.restart" 2>&1
	t_check $? "$v/bgpback: spine1's bgpd restarted" "$(cat "$T_TMP/$v.restart")"
	t_wait_for 20 npaths leaf1 10.2.1.0/24 $SPINES
	t_check $? "$v/bgpback: leaf1's route has $SPINES paths"
	t_wait_for 10 npaths leaf2 10.1.1.0/24 $SPINES
	t_check $? "$v/bgpback: and leaf2's"
	if lab status 2>&1 | grep -q STALE; then
		echo "# $v/bgpback: stale group after the restart; frr-repair"
		lab frr-repair >/dev/null 2>&1
	fi
	check "$v" bgpback

	lab down >"$T_TMP/$v.down" 2>&1
	t_check $? "$v: lab down" "$(cat "$T_TMP/$v.down")"
	! pgrep -f "/run/rocedp-lab/$T_LAB_PREFIX/frr/" >/dev/null &&
		! ls -d /var/run/frr/"$T_LAB_PREFIX"-* >/dev/null 2>&1
	t_check $? "$v: lab down leaves no FRR daemon and no /var/run/frr/$T_LAB_PREFIX-* behind"
}

for v in "${variants[@]}"; do
	case $v in numbered | unnumbered) run_variant "$v" ;; *) t_fail "variant '$v': numbered or unnumbered" ;; esac
done
t_done
