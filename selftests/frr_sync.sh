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
	$PY - "$LAB" "$T_LAB_PREFIX" "$1" <<'EOF'
import ipaddress, json, os, subprocess, sys
lab, prefix, leaf = sys.argv[1:4]
def sh(*a):
    return subprocess.run([lab, "exec", "--prefix", prefix, leaf, *a], check=True,
                          capture_output=True, text=True).stdout
def nh(m):
    b = b"".join(x.to_bytes(4, "little") for x in m["nh_addr"])
    return str(ipaddress.IPv6Address(b) if m["nh_family"] == 10 else ipaddress.IPv4Address(b[:4]))
idx = {l["ifname"]: l["ifindex"] for l in json.loads(sh("ip", "-j", "link"))}
want = {}
for table in ("main", "local"):
    for r in json.loads(sh("ip", "-j", "-4", "route", "show", "table", table)):
        if r.get("type", "unicast") not in ("unicast", "local", "broadcast", "anycast", "multicast"):
            continue
        dst = "0.0.0.0/0" if r["dst"] == "default" else r["dst"]
        net = str(ipaddress.ip_network(dst if "/" in dst else dst + "/32", strict=False))
        hops = r.get("nexthops") or ([r] if "gateway" in r or "via" in r else [])
        hops = [h for h in hops if not set(h.get("flags", [])) & {"dead", "linkdown"}]
        if table == "local" or r.get("type", "unicast") != "unicast" or not hops:
            v = "LOCAL"
        else:
            v = tuple(sorted((h["gateway"] if "gateway" in h else h["via"]["host"],
                              idx[h["dev"]], h.get("weight", 1)) for h in hops))
        if table == "local" or net not in want:
            want[net] = v
# the leaf's own pin directory, as its rocedp names it (docs/netns.md)
pin = json.loads(sh(os.environ["ROCEDP"], "-j", "status"))["pin_dir"]
groups = {}
for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", f"{pin}/rd_groups")):
    g = e["formatted"]["value"]
    groups[e["formatted"]["key"]] = tuple(sorted(
        (nh(m), m["ifindex"], m["weight"]) for m in g["members"][: g["n_members"]] if m["flags"] & 1))
have = {}
for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", f"{pin}/rd_routes4")):
    k, v = e["formatted"]["key"], e["formatted"]["value"]
    net = f"{ipaddress.IPv4Address(k['addr'].to_bytes(4, 'little'))}/{k['prefixlen']}"
    have[net] = "LOCAL" if v["flags"] & 1 else groups.get(v["group_id"], f"missing group {v['group_id']}")
d = [f"{n}: kernel {want.get(n)} map {have.get(n)}" for n in sorted(set(want) | set(have)) if want.get(n) != have.get(n)]
paths = max((len(v) for v in want.values() if v != "LOCAL"), default=0)
print(f"{len(want)} kernel routes (widest group {paths}); " + ("maps equal the kernel" if not d else f"{len(d)} differ: " + "; ".join(d[:3])))
sys.exit(1 if d else 0)
EOF
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
	why=$($PY - "$T_TMP/$v-$ev.send" "$T_TMP/$v-$ev.serve" "$a" "$b" <<'EOF'
import json, sys
try:
    s, r = (json.load(open(p))["total"] for p in sys.argv[1:3])
except (OSError, ValueError, KeyError) as e:
    print(f"no rocegen summary: {e}"); sys.exit(1)
fwd = int(sys.argv[4]) - int(sys.argv[3])
bad = []
if s["qps_failed"]: bad.append(f"{s['qps_failed']} QPs failed")
if r["messages"] != s["messages"] or s["messages"] == 0: bad.append(f"responder {r['messages']} messages, sender {s['messages']}")
if fwd < s["frames"]: bad.append(f"rocedp sent {fwd} frames out of leaf1's uplinks, fewer than the {s['frames']} sent")
print("; ".join(bad) or f"{s['messages']} messages, {s['frames']} frames delivered, {fwd} through rocedp's uplinks")
sys.exit(1 if bad else 0)
EOF
	)
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
