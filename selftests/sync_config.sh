#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sync` and `rocedp config load` on the same maps (docs/sync.md,
# "Config changes while sync runs"). A static route wins over the kernel's
# route for the same prefix, also when the config is loaded while the
# daemon runs and the kernel route changes afterwards; when the config
# drops its route again, the daemon puts the kernel's back within its 1 s
# tick, with no event needed. Before the fix, the daemon knew the config's
# entries only from its own start or SIGHUP, and the kernel change made it
# overwrite the static route. A config may also name the id of a group the
# daemon uses: the load moves the daemon's group to a free id first, and
# the daemon follows it there (before, the load was refused).
#
# Usage: selftests/sync_config.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool || exit $?
t_pin_ns lc_sc$$ || exit 1

# the map's value for 10.9.0.0/16: "GROUP FLAGS", or "none"
route() {
	bpftool -j map dump pinned "$PIN/rd_routes4" | $PY "$T_TOP/selftests/sync_config.py" route_9
}
# wait until route matches the awk condition (on $1 group, $2 flags), 3 s
wait_route() {
	local i
	for i in $(seq 30); do
		route | awk "{exit !($1)}" && return 0
		sleep 0.1
	done
	return 1
}

t_ns_ab || exit 1
ip -n "$NS" neigh replace 10.100.0.2 lladdr 02:00:00:00:00:02 nud permanent dev a0
ip -n "$NS" neigh replace 10.100.1.2 lladdr 02:00:00:00:01:02 nud permanent dev b0
X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach a0 b0" "$(cat "$T_TMP/attach.out")"
t_rd_bg SYNC_PID sync
sleep 0.5

ip -n "$NS" route add 10.9.0.0/16 nexthop via 10.100.0.2 dev a0 nexthop via 10.100.1.2 dev b0
wait_route '$2 == 0 && $1 > 0'
t_check $? "kernel route 10.9.0.0/16: sync installs it (group $(route))"


cat >"$T_TMP/static.json" <<EOF
{"groups": [{"id": 5, "members": [{"dev": "a0", "dmac": "02:00:00:00:00:09"}]}],
 "routes": [{"prefix": "10.9.0.0/16", "group": 5}]}
EOF
X config load "$T_TMP/static.json" >"$T_TMP/load.out" 2>&1
[ "$(route)" = "5 2" ]
t_check $? "config load while sync runs: the static route replaces the kernel's (got $(route))" "$(cat "$T_TMP/load.out")"

ip -n "$NS" route replace 10.9.0.0/16 nexthop via 10.100.0.2 dev a0 weight 2 nexthop via 10.100.1.2 dev b0
sleep 0.5
[ "$(route)" = "5 2" ]
t_check $? "the kernel route changes: the static route stays (got $(route))"

echo '{}' >"$T_TMP/empty.json"
X config load "$T_TMP/empty.json" >"$T_TMP/load2.out" 2>&1
wait_route '$2 == 0 && $1 > 0 && $1 != 5'
t_check $? "the config drops its route: sync puts the kernel's back, no event needed (got $(route))" "$(cat "$T_TMP/load2.out")"
g=$(route | awk '{print $1}')
bpftool map lookup pinned "$PIN/rd_groups" key $((g & 255)) $((g >> 8)) 0 0 >/dev/null 2>&1
t_check $? "its group $g exists"

ip -n "$NS" route del 10.9.0.0/16
wait_route '$1 == "none"'
t_check $? "the kernel route goes: so does the map's (got $(route))"

# The config names the id of a group sync uses: the load moves sync's
# group (and its route) to a free id first, then takes the id; sync
# follows the move. Both routes forward all along.
ip -n "$NS" route add 10.9.0.0/16 nexthop via 10.100.0.2 dev a0 nexthop via 10.100.1.2 dev b0
wait_route '$2 == 0 && $1 > 0'
g=$(route | awk '{print $1}')
cat >"$T_TMP/clash.json" <<EOF
{"groups": [{"id": $g, "members": [{"dev": "b0", "dmac": "02:00:00:00:00:0a"}]}],
 "routes": [{"prefix": "10.8.0.0/16", "group": $g}]}
EOF
X config load "$T_TMP/clash.json" >"$T_TMP/clash.out" 2>&1
t_check $? "config load takes group id $g, which sync uses" "$(cat "$T_TMP/clash.out")"
group_of() { # PREFIX-HEX-KEY: the group of 10.x.0.0/16
	bpftool -j map dump pinned "$PIN/rd_routes4" | $PY "$T_TOP/selftests/sync_config.py" group_of "$1"
}
members() { # GROUP: the ifindexes of its members
	bpftool -j map lookup pinned "$PIN/rd_groups" key $(($1 & 255)) $(($1 >> 8)) 0 0 |
		$PY -c 'import json,sys; g=json.load(sys.stdin)["formatted"]["value"]; print(sorted(m["ifindex"] for m in g["members"][:g["n_members"]]))'
}
g9=$(group_of 090a)
g8=$(group_of 080a)
ia=$(ip netns exec "$NS" cat /sys/class/net/a0/ifindex)
ib=$(ip netns exec "$NS" cat /sys/class/net/b0/ifindex)
[ "$g8" = "$g" ] && [ "$g9" != "$g" ] && [ "$g9" != none ] &&
	[ "$(members "$g9")" = "[$ia, $ib]" ] && [ "$(members "$g")" = "[$ib]" ]
t_check $? "the config's 10.8/16 on group $g (b0), sync's 10.9/16 moved to group $g9 (a0, b0)"
ip -n "$NS" route replace 10.9.0.0/16 nexthop via 10.100.0.2 dev a0 weight 3 nexthop via 10.100.1.2 dev b0
sleep 1.5
g9b=$(group_of 090a)
[ "$(group_of 080a)" = "$g" ] && [ "$(members "$g")" = "[$ib]" ] &&
	[ "$g9b" != "$g" ] && [ "$(members "$g9b")" = "[$ia, $ib]" ]
t_check $? "a kernel change afterwards: sync writes its own group $g9b, not the config's $g"

kill "$SYNC_PID" 2>/dev/null
wait "$SYNC_PID" 2>/dev/null

t_done
