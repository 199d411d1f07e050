#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sync` mirrors a kernel resilient nexthop group (NHA_RES_GROUP,
# `type resilient buckets 64`) with the kernel's own bucket assignment
# (docs/sync.md, Resilient groups): every bucket names the member the
# kernel's bucket names, after the group is created, after a member is
# taken out (the kernel hands its buckets to the others), after it comes
# back (the kernel migrates idle buckets later, one notification each),
# and when a member's neighbour fails (rocedp moves only that member's
# buckets; the kernel still counts it). A plain multipath route keeps
# rocedp's own table of the default size.
#
# Usage: selftests/sync_resilient.sh   (root, kernel 5.13+)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool || exit $?
t_pin_ns B_res$$ || exit 1
for i in 0 1 2 3; do
	ip -n "$NS" link add p$i type veth peer name q$i
	ip -n "$NS" link set p$i up
	ip -n "$NS" link set q$i up
	ip -n "$NS" addr add 10.100.$i.1/24 dev p$i
	ip -n "$NS" neigh replace 10.100.$i.2 lladdr 02:00:00:00:0$i:02 \
		nud permanent dev p$i
	ip -n "$NS" nexthop add id $((i + 1)) via 10.100.$i.2 dev p$i
done
if ! ip -n "$NS" nexthop add id 98 group 1 type resilient buckets 8 2>/dev/null; then
	t_skip "resilient nexthop groups" "this kernel has none (5.13+)"
	t_done
	exit $?
fi
ip -n "$NS" nexthop del id 98
X attach p0 p1 p2 p3 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach p0..p3" "$(cat "$T_TMP/attach.out")"
t_rd_bg SYNC_PID sync
sleep 0.5

ip -n "$NS" nexthop add id 100 group 1/2/3/4 type resilient buckets 64 \
	idle_timer 1 unbalanced_timer 0
ip -n "$NS" route add 10.9.0.0/16 nhid 100
ip -n "$NS" route add 10.8.0.0/16 nexthop via 10.100.0.2 dev p0 \
	nexthop via 10.100.1.2 dev p1

# Compare rd_groups' value for 10.9.0.0/16 with the kernel's buckets:
# prints "ok", or what differs. $1: a member (nexthop id) rocedp holds
# out (its neighbour failed): its buckets must go elsewhere, the rest
# must match.
compare() {
	local nhs buckets
	nhs=$(ip -n "$NS" -j nexthop show)
	buckets=$(ip -n "$NS" -j nexthop bucket show id 100)
	NHS=$nhs BUCKETS=$buckets bpftool -j map dump pinned "$PIN/rd_routes4" >"$T_TMP/r4"
	bpftool -j map dump pinned "$PIN/rd_groups" >"$T_TMP/g"
	NHS=$nhs BUCKETS=$buckets OUTNH=${1:-0} T=$T_TMP $PY "$T_TOP/selftests/sync_resilient.py" buckets
}
wait_same() {
	local i
	for i in $(seq 40); do
		[ "$(compare "$@")" = ok ] && return 0
		sleep 0.1
	done
	return 1
}

wait_same
t_check $? "resilient group of 4, 64 buckets: rocedp's table is the kernel's ($(compare))"

ip -n "$NS" nexthop replace id 100 group 1/2/3 type resilient buckets 64 \
	idle_timer 1 unbalanced_timer 0
wait_same
t_check $? "member 4 taken out: the kernel's reassignment mirrored ($(compare))"

ip -n "$NS" nexthop replace id 100 group 1/2/3/4 type resilient buckets 64 \
	idle_timer 1 unbalanced_timer 0
sleep 2.5 # idle buckets migrate after idle_timer
n4=$(ip -n "$NS" -j nexthop bucket show id 100 | $PY -c 'import json,sys; print(sum(b["bucket"]["nhid"] == 4 for b in json.load(sys.stdin)))')
wait_same
t_check $? "member 4 back: the kernel migrated $n4 idle buckets to it, mirrored ($(compare))"

v8=$(bpftool -j map dump pinned "$PIN/rd_groups" | $PY "$T_TOP/selftests/sync_resilient.py" two_member)
[ "$v8" = "128 [0, 1]" ]
t_check $? "plain multipath route: rocedp's own table, 128 buckets over both members (got $v8)"

ip -n "$NS" neigh replace 10.100.1.2 dev p1 nud failed 2>/dev/null ||
	ip -n "$NS" neigh del 10.100.1.2 dev p1
wait_same 2
t_check $? "neighbour of member 2 failed: only its buckets move, the rest stay the kernel's ($(compare 2))"

t_done
