#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `rocedp sync` under pressure (docs/sync.md, "Under
# pressure"):
#  lock   a SIGHUP or SIGTERM while the daemon waits for the pin directory's
#         lock (held here, as `config load` holds it) never lets a map write
#         through: after SIGHUP it keeps waiting, after SIGTERM it exits
#         cleanly without writing. Before the fix flock's EINTR was ignored
#         and the write went ahead under the other writer's lock.
#  fanout one nexthop in 120 nexthop groups is replaced: the routes of every
#         group follow (nexthop_compat_mode=0: the kernel sends no route
#         event then). Before the fix only 63 groups were re-evaluated.
#  flood  thousands of route changes per second for 15 s against 3000
#         routes, with a small event buffer and the daemon stopped for 2 s
#         of it (so its buffer overflows on any machine): it keeps running
#         (interrupted dumps are retried with a backoff, the deferred-event
#         buffer is bounded) and after the churn its maps equal the kernel's
#         table. Before the fix it exited after 5 interrupted dumps.
#  (and --pid-file replaces a symlink planted at its name, never follows it)
#
# Usage: selftests/sync_stress.sh [lock] [fanout] [flood]   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool flock || exit $?
PARTS=${*:-lock fanout flood}
FLOOD_S=${FLOOD_S:-15}
t_pin_ns G_sync$$ || exit 1

# fib COMMAND ARGS: what the maps hold against the kernel (IPv4)
#   diff        differences between the kernel's main+local tables and the
#               maps (as in faults.sh); exit 1 when any
#   gws PREFIX  "N SET" lines: routes under PREFIX (a /16) by member gateways
fib() {
	t_py - "$NS" "$PIN" "$@" <<'EOF'
import ipaddress, json, subprocess, sys
from kernel_fib import kernel_routes4
ns, pin, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def sh(*a):
    return subprocess.run(a, check=True, capture_output=True, text=True).stdout
def u32_ip(v):
    return str(ipaddress.IPv4Address(v.to_bytes(4, "little")))
groups = {}
for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", pin + "/rd_groups")):
    g = e["formatted"]["value"]
    groups[e["formatted"]["key"]] = tuple(sorted(
        (u32_ip(m["nh_addr"][0]), m["ifindex"], m["weight"]) for m in g["members"][: g["n_members"]]))
have = {}
for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", pin + "/rd_routes4")):
    k, v = e["formatted"]["key"], e["formatted"]["value"]
    net = f"{u32_ip(k['addr'])}/{k['prefixlen']}"
    have[net] = "LOCAL" if v["flags"] & 1 else groups.get(v["group_id"], f"missing group {v['group_id']}")
if cmd == "gws":
    pre = ipaddress.ip_network(args[0])
    count = {}
    for n, v in have.items():
        if ipaddress.ip_network(n).subnet_of(pre):
            s = "LOCAL" if v == "LOCAL" else ",".join(h[0] for h in v)
            count[s] = count.get(s, 0) + 1
    for s, c in sorted(count.items()):
        print(c, s)
    sys.exit(0)
want = kernel_routes4(ns)
d = [f"{n}: kernel {want.get(n)} map {have.get(n)}" for n in sorted(set(want) | set(have)) if want.get(n) != have.get(n)]
print(f"{len(want)} kernel routes; " + ("maps equal the kernel" if not d else f"{len(d)} differ: " + "; ".join(d[:3])))
sys.exit(1 if d else 0)
EOF
}

# has PREFIX: the maps hold a route for PREFIX
has() { fib gws "$1" | grep -q .; }
start_sync() { # VAR ARGS...: the daemon (-j summary at exit in $T_TMP/sync.out), once the maps are synced
	local var=$1
	shift
	T_BG_OUT=$T_TMP/sync.out T_BG_ERR=$T_TMP/sync.err t_rd_bg "$var" -j sync "$@"
	t_wait_for 10 fib diff
}
# exited PID SECONDS: PID ended within SECONDS; its status in $rc
exited() {
	local end=$((SECONDS + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.05
	done
	wait "$1"
	rc=$?
	return 0
}

t_ns_ab || exit 1
for g in 10.100.0.2 10.100.0.3; do
	ip -n "$NS" neigh replace $g lladdr 02:00:00:00:00:02 nud permanent dev a0
done
ip -n "$NS" neigh replace 10.100.1.2 lladdr 02:00:00:00:01:02 nud permanent dev b0
X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach a0 b0" "$(cat "$T_TMP/attach.out")"

# ------------------------------------------------------------------ lock
part_lock() {
	local pid rc opid
	# a symlink planted at the pid file's name is replaced, never followed
	echo keep >"$T_TMP/victim"
	ln -s "$T_TMP/victim" "$T_TMP/sync.pid"
	start_sync pid --verbose --pid-file "$T_TMP/sync.pid"
	[ "$(cat "$T_TMP/victim")" = keep ] && [ ! -L "$T_TMP/sync.pid" ] &&
		[ "$(cat "$T_TMP/sync.pid")" = "$(pgrep -P "$pid" -x rocedp || echo "$pid")" ]
	t_check $? "pid file: a planted symlink is replaced, its target untouched ($(cat "$T_TMP/victim"))"
	exec 9<"$PIN"
	flock -x 9
	ip -n "$NS" route add 10.9.0.0/16 via 10.100.0.2 dev a0
	sleep 0.5 # the daemon has the event and waits for the lock
	kill -HUP "$pid"
	sleep 0.5
	! has 10.9.0.0/16
	t_check $? "lock: SIGHUP while the daemon waits for the pin dir's lock: no map write while it is held"
	kill -0 "$pid" 2>/dev/null
	t_check $? "lock: the daemon still runs (waiting)"
	flock -u 9
	t_wait_for 3 has 10.9.0.0/16
	t_check $? "lock: released: the route is written ($(fib gws 10.9.0.0/16))"

	flock -x 9
	ip -n "$NS" route add 10.8.0.0/16 via 10.100.0.2 dev a0
	sleep 0.5
	kill -TERM "$pid"
	exited "$pid" 3 && [ "$rc" = 0 ]
	t_check $? "lock: SIGTERM while waiting for the lock: clean exit (status ${rc:-none}) with the lock still held" "$(tail -n 3 "$T_TMP/sync.err")"
	! has 10.8.0.0/16
	t_check $? "lock: ... and no map write happened"
	# sync --once stopped the same way did not do its job: it says so
	# and exits 1 (detach --all sends this signal to a running sync)
	T_BG_ERR=$T_TMP/once.err t_rd_bg opid sync --once
	sleep 0.5
	kill -TERM "$opid"
	exited "$opid" 3 && [ "$rc" = 1 ] && ! has 10.8.0.0/16 &&
		grep -q "stopped by a signal before the sync completed: nothing written" "$T_TMP/once.err"
	t_check $? "lock: SIGTERM to sync --once waiting for the lock: exit 1 (status ${rc:-none}), one line, nothing written" "$(tail -n 2 "$T_TMP/once.err")"
	flock -u 9
	exec 9<&-
	kill "$pid" 2>/dev/null
	ip -n "$NS" route del 10.9.0.0/16
	ip -n "$NS" route del 10.8.0.0/16
}

# ---------------------------------------------------------------- fanout
part_fanout() {
	local pid i n=120 out rc
	# compat mode off (as FRR wants it): the kernel then sends no route
	# event for a nexthop replace, only the nexthop's own
	ip netns exec "$NS" sysctl -qw net.ipv4.nexthop_compat_mode=0
	start_sync pid
	{
		echo "nexthop add id 1 via 10.100.0.2 dev a0"
		echo "nexthop add id 2 via 10.100.1.2 dev b0"
		for i in $(seq $n); do
			echo "nexthop add id $((100 + i)) group 1/2"
			echo "route add 10.60.$i.0/24 nhid $((100 + i))"
		done
	} | ip -n "$NS" -batch -
	fanout_ok() { [ "$(fib gws 10.60.0.0/16)" = "$n $1,10.100.1.2" ]; }
	t_wait_for 5 fanout_ok 10.100.0.2
	t_check $? "fanout: $n routes over $n nexthop groups sharing nexthop 1 ($(fib gws 10.60.0.0/16 | tr '\n' ' '))"
	ip -n "$NS" nexthop replace id 1 via 10.100.0.3 dev a0
	t_wait_for 5 fanout_ok 10.100.0.3
	rc=$?
	out=$(fib gws 10.60.0.0/16 | tr '\n' ' ')
	t_check $rc "fanout: nexthop 1 replaced: every group's routes follow ($out)" "$out"
	ip -n "$NS" nexthop del id 1
	fanout_gone() { [ "$(fib gws 10.60.0.0/16)" = "$n 10.100.1.2" ]; }
	t_wait_for 5 fanout_gone
	rc=$?
	out=$(fib gws 10.60.0.0/16 | tr '\n' ' ')
	t_check $rc "fanout: nexthop 1 deleted: every group's routes leave it ($out)" "$out"
	kill "$pid"
	exited "$pid" 3
	ip -n "$NS" nexthop flush >/dev/null
}

# ----------------------------------------------------------------- flood
part_flood() {
	local pid i t0 ms st rc out stall
	# 3000 routes and 3000 nexthop objects make every dump a multi-part
	# one; nexthop changes during a nexthop dump interrupt it (DUMP_INTR)
	ip netns exec "$NS" sysctl -qw net.ipv4.nexthop_compat_mode=1
	for i in $(seq 0 2999); do
		echo "route add 10.70.$((i / 250)).$((i % 250))/32 nexthop via 10.100.0.2 dev a0 nexthop via 10.100.1.2 dev b0"
		echo "nexthop add id $((10000 + i)) via 10.100.$((i % 2)).2 dev $([ $((i % 2)) = 0 ] && echo a0 || echo b0)"
	done | ip -n "$NS" -batch -
	start_sync pid --rcvbuf 65536
	fib diff >"$T_TMP/diff0"
	t_check $? "flood: 3000 routes synced before the churn ($(cat "$T_TMP/diff0"))"
	# a daemon that falls behind, as on a loaded switch: stopped for 2 s
	# mid-churn, its 64 KB receive buffer overflows for certain, so the
	# overrun and resync path runs whatever this machine's speed (left to
	# the churn alone, a quiet machine kept up once: 1 resync, 0 overruns)
	(
		sleep 2
		kill -STOP "$pid"
		sleep 2
		kill -CONT "$pid"
	) &
	stall=$!
	# the churn at full speed: adds, replaces and deletes of 2000 /32s and
	# of 1000 nexthop objects
	timeout "$FLOOD_S" $PY "$T_TOP/selftests/sync_stress.py" churn "$T_TMP/churn.n" |
		ip -n "$NS" -force -batch - 2>/dev/null
	wait "$stall"
	t0=$(date +%s%N)
	kill -0 "$pid" 2>/dev/null
	t_check $? "flood: the daemon survived ${FLOOD_S} s of churn" "$(tail -n 3 "$T_TMP/sync.err")"
	t_wait_for 30 fib diff
	ms=$((($(date +%s%N) - t0) / 1000000))
	fib diff >"$T_TMP/diff1"
	t_check $? "flood: after the churn the maps equal the kernel's table in $ms ms ($(cat "$T_TMP/diff1"))"
	kill "$pid"
	exited "$pid" 5 && [ "$rc" = 0 ]
	t_check $? "flood: afterwards SIGTERM stops it cleanly (status ${rc:-none})"
	st=$(tail -n 1 "$T_TMP/sync.out")
	echo "# flood: daemon summary $st"
	echo "$st" >"$T_TMP/st.json"
	echo "# flood: $(cat "$T_TMP/churn.n") changes generated in ${FLOOD_S} s; $(t_pyj "$T_TMP/st.json" '"%.0f events/s handled, %d resyncs, %d overruns, %d dump retries, %d deferred-buffer drops" % (j["events"] / '"$FLOOD_S"', j["resyncs"], j["overruns"], j.get("dump_retries", -1), j.get("deferred_drops", -1))')"
	echo "# flood: converged ${ms} ms after the churn ended"
	t_pyj "$T_TMP/st.json" 'j["resyncs"] > 1 and j["events"] > 0' >/dev/null
	t_check $? "flood: the churn forced full resyncs (events, resyncs, overruns, dump retries: $(t_pyj "$T_TMP/st.json" '(j["events"], j["resyncs"], j["overruns"], j.get("dump_retries"))'))"
}

for p in $PARTS; do "part_$p"; done
t_done
