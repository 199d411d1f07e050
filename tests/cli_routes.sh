#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp routes`: the RIB of the config's static routes and the kernel's
# routes, with distances, the selection per prefix and what the route
# maps hold. Maps pinned by bpftool into a private directory (as
# tests/cli_config.sh); veths in a private netns (name prefix
# RT_NS_PREFIX), rocedp run in it through nsenter.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh" # OUT, ROCEDP, PY, ok, nok, pin_maps
need_root
need_rocedp
NS=${RT_NS_PREFIX:-}rdrt$$
PIN=/sys/fs/bpf/rdrt$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdrt.XXXXXX)

cleanup() {
	ip netns del "$NS" 2>/dev/null
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

rd() { nsenter --net=/run/netns/"$NS" "$ROCEDP" "$@"; }

pin_maps "$PIN/maps" || exit 1
ip netns add "$NS" &&
	ip -n "$NS" link add a0 type veth peer name a1 &&
	ip -n "$NS" link add b0 type veth peer name b1 &&
	for d in lo a0 a1 b0 b1; do ip -n "$NS" link set "$d" up || false; done &&
	ip -n "$NS" addr add 10.100.0.1/24 dev a0 &&
	ip -n "$NS" addr add 10.100.1.1/24 dev b0 &&
	ip -n "$NS" route add 10.9.0.0/16 via 10.100.0.2 dev a0 proto bgp metric 20 &&
	ip -n "$NS" route add 10.7.0.0/16 via 10.100.0.2 dev a0 proto ospf &&
	ip -n "$NS" route add 10.6.0.0/16 proto static \
		nexthop via 10.100.0.2 dev a0 nexthop via 10.100.1.2 dev b0
if [ $? != 0 ]; then
	nok "netns $NS with a0/b0 and its routes"
	exit 1
fi

cat >"$TMP/c.json" <<'EOF'
{"groups": [{"id": 1, "members": [{"dev": "b0", "dmac": "02:00:00:00:01:02"}]}],
 "routes": [{"prefix": "10.7.0.0/16", "group": 1},
            {"prefix": "10.5.0.0/16", "group": 1}]}
EOF
if ! rd config load "$TMP/c.json" >"$TMP/out" 2>&1; then
	nok "config load" "$(cat "$TMP/out")"
	exit 1
fi

# check NAME: the JSON of `rocedp -j routes` (in $TMP/r.json) against the
# python expression on stdin, which sets bad to a list of complaints
check() {
	local name=$1 why
	why=$($PY "$ROOT/tests/cli_routes.py" check "$TMP/r.json" 2>&1)
	[ -z "$why" ] && ok "$name" || nok "$name" "$why"
}

if rd -j routes >"$TMP/r.json" 2>"$TMP/err"; then
	ok "routes -j exits 0"
else
	nok "routes -j exits 0" "$(cat "$TMP/err")"
fi
check "config static 10.7/16 [1/0] selected and in the maps; the kernel's ospf route [110] is not" <<'EOF'
c, k = get("10.7.0.0/16", "config"), get("10.7.0.0/16", "kernel")
if not c or not k: bad.append("missing: %s" % r)
else:
    if (c["distance"], c["selected"], c["fib"], c["group"]) != (1, True, True, 1): bad.append("config %s" % c)
    if (k["distance"], k["protocol"], k["selected"], k["fib"]) != (110, "ospf", False, False): bad.append("kernel %s" % k)
    if [h["dev"] for h in c["nexthops"]] != ["b0"]: bad.append("config hops %s" % c["nexthops"])
EOF
check "kernel bgp 10.9/16 [20/20] selected, not in the maps before a sync" <<'EOF'
k = get("10.9.0.0/16", "kernel")
if not k: bad.append("missing")
elif (k["distance"], k["metric"], k["protocol"], k["selected"], k["fib"]) != (20, 20, "bgp", True, False): bad.append("%s" % k)
elif [(h["dev"], h.get("gateway")) for h in k["nexthops"]] != [("a0", "10.100.0.2")]: bad.append("hops %s" % k["nexthops"])
EOF
check "kernel static multipath 10.6/16 [1]: both next hops; connected 10.100.0.0/24 [0] to the kernel" <<'EOF'
k, c = get("10.6.0.0/16", "kernel"), get("10.100.0.0/24", "kernel")
if not k or not c: bad.append("missing")
else:
    if (k["distance"], k["nexthops_total"], sorted(h["dev"] for h in k["nexthops"])) != (1, 2, ["a0", "b0"]): bad.append("%s" % k)
    if (c["distance"], c["protocol"], c["local"], c["selected"]) != (0, "connected", True, True): bad.append("%s" % c)
EOF
check "config static 10.5/16 alone: selected, in the maps" <<'EOF'
c = get("10.5.0.0/16", "config")
if not c or (c["selected"], c["fib"]) != (True, True): bad.append("%s" % c)
EOF

# after a sync the kernel's selected routes are in the maps as well
if rd sync --once >"$TMP/out" 2>&1 && rd -j routes >"$TMP/r.json" 2>"$TMP/err"; then
	check "after sync --once: 10.9/16 and 10.6/16 in the maps, 10.7/16 still the config's" <<'EOF'
for p in ("10.9.0.0/16", "10.6.0.0/16"):
    k = get(p, "kernel")
    if not k or (k["selected"], k["fib"]) != (True, True): bad.append("%s %s" % (p, k))
c, k = get("10.7.0.0/16", "config"), get("10.7.0.0/16", "kernel")
if not c or not k or not c["fib"] or k["fib"]: bad.append("10.7: %s %s" % (c, k))
if [x for x in r if x["source"] == "fib" and x["prefix"].startswith("10.")]: bad.append("orphans %s" % [x for x in r if x["source"] == "fib"])
EOF
else
	nok "sync --once, routes -j" "$(cat "$TMP/out" "$TMP/err")"
fi

# the text form: one line per route, codes as show ip route's
rd routes >"$TMP/r.txt" 2>&1
if grep -q '^C>\* 10.7.0.0/16 \[1/0\] group 1 dev b0$' "$TMP/r.txt" &&
	grep -q '^K   10.7.0.0/16 \[110/0\] ospf via 10.100.0.2 dev a0$' "$TMP/r.txt" &&
	grep -q '^K>\* 10.9.0.0/16 \[20/20\] bgp via 10.100.0.2 dev a0$' "$TMP/r.txt"; then
	ok "routes: text lines with source, selection, [distance/metric], protocol, hops"
else
	nok "routes: text lines with source, selection, [distance/metric], protocol, hops" "$(cat "$TMP/r.txt")"
fi

# a route the maps hold that no source has: the kernel's went away
ip -n "$NS" route del 10.9.0.0/16
rd -j routes >"$TMP/r.json" 2>"$TMP/err"
check "a route only the maps hold is listed as source fib, written by sync" <<'EOF'
f = get("10.9.0.0/16", "fib")
if not f or (f["written_by"], f["selected"]) != ("sync", False): bad.append("%s" % f)
EOF

if rd routes --table x >"$TMP/out" 2>&1; then
	nok "routes --table x is refused" "$(cat "$TMP/out")"
else
	ok "routes --table x is refused: $(head -1 "$TMP/out")"
fi

t_done
