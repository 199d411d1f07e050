#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One committer of routes and groups (docs/design.md, "One committer of
# routes and groups"). While `rocedp sync` runs, `config load` hands its
# static routes and groups to it over the hand-off socket and exits 0
# only once the daemon committed them; the socket is root's, 0600, and
# the daemon refuses a peer without CAP_NET_ADMIN even when the file
# lets it in. A daemon that dies in the middle of a request fails the
# load with a clear line, and the load puts back what was there (the
# maps as before). With no daemon (its socket left behind), the load
# commits itself. Before, every load wrote the maps from its own process.
#
# Usage: selftests/sync_handoff.sh   (root)
set -u
# nobody runs the helper: a clone in a 0700 directory is bind-mounted
# where nobody can read it
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/nobody_reach.bash"
nobody_reach "$0" "$@"
. "$(dirname "$0")/lib.sh"

t_require ip bpftool setpriv || exit $?
t_pin_ns lc_ho$$ || exit 1
FAULTS=${ROCEDP_FAULTS_BIN:-$(dirname "$ROCEDP")/rocedp-faults}
HELP="$T_TOP/selftests/sync_handoff.py"
LINKDIR=/run/rdho$$
SOCK=
# the hard link, and the socket the killed daemon leaves behind
cleanup_link() { rm -rf "$LINKDIR"; [ -z "$SOCK" ] || rm -f "$SOCK"; }
t_cleanup cleanup_link

route() { $PY "$HELP" route "$PIN"; }
maps() { $PY "$HELP" state "$PIN"; }

t_ns_ab || exit 1
ip -n "$NS" neigh replace 10.100.0.2 lladdr 02:00:00:00:00:02 nud permanent dev a0
X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1
t_check $? "attach a0 b0" "$(cat "$T_TMP/attach.out")"
id=$(bpftool map show pinned "$PIN/rd_config" | awk -F: 'NR == 1 {print $1}')
SOCK=/run/rocedp/sync-map$id.sock

T_BG_ERR=$T_TMP/sync.err t_rd_bg SYNC_PID sync --verbose
t_wait_for 10 test -S "$SOCK"
t_check $? "rocedp sync listens on $SOCK" "$(cat "$T_TMP/sync.err")"
[ "$(stat -c '%a %u' "$SOCK")" = "600 0" ]
t_check $? "the socket is root's, mode 0600 (got $(stat -c '%a %u' "$SOCK"))"

printf '%s\n' '{"groups": [{"id": 5, "members": [{"dev": "a0", "dmac": "02:00:00:00:00:09"}]}],' \
	' "routes": [{"prefix": "10.9.0.0/16", "group": 5}]}' >"$T_TMP/static.json"
X config load "$T_TMP/static.json" >"$T_TMP/load.out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(route)" = "5 2" ]
t_check $? "config load while sync runs: exit $rc, 10.9.0.0/16 on group 5, static (got $(route))" \
	"$(cat "$T_TMP/load.out")"
grep -q "config hand-off from pid [0-9]*: 1 groups, 1 routes: committed" "$T_TMP/sync.err"
t_check $? "the daemon committed them (its log)" "$(cat "$T_TMP/sync.err")"

out=$(setpriv --reuid=65534 --regid=65534 --clear-groups $PY "$HELP" peer "$SOCK" 2>&1)
[ "$out" = "connect: EACCES" ]
t_check $? "nobody cannot connect (got: $out)"

# the file's mode is the first guard; the daemon checks the peer itself
mkdir -m 711 "$LINKDIR" && ln "$SOCK" "$LINKDIR/s" && chmod 666 "$SOCK"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups $PY "$HELP" peer "$LINKDIR/s" 2>&1)
chmod 600 "$SOCK"
rm -rf "$LINKDIR"
[ "$out" = "reply: -1" ] && grep -q "refused: no CAP_NET_ADMIN" "$T_TMP/sync.err"
t_check $? "nobody through a 0666 link: the daemon refuses, EPERM (got: $out)" \
	"$(tail -3 "$T_TMP/sync.err")"
[ "$(route)" = "5 2" ]
t_check $? "and nothing changed (got $(route))"

kill "$SYNC_PID" 2>/dev/null
wait "$SYNC_PID" 2>/dev/null
[ ! -e "$SOCK" ]
t_check $? "a stopped sync removes its socket"

# a daemon that dies after the first write of a request
T_BG_ERR=$T_TMP/crash.err t_bg CRASH_PID env ROCEDP_FAULT_SYNC_HANDOFF_CRASH=1 \
	ip netns exec "$NS" "$FAULTS" sync
t_wait_for 10 test -S "$SOCK"
t_check $? "the test build's sync listens" "$(cat "$T_TMP/crash.err")"
maps >"$T_TMP/before.json"
printf '%s\n' '{"groups": [{"id": 6, "members": [{"dev": "b0", "dmac": "02:00:00:00:00:0a"}]}],' \
	' "routes": [{"prefix": "10.8.0.0/16", "group": 6}]}' >"$T_TMP/other.json"
X config load "$T_TMP/other.json" >"$T_TMP/crash.out" 2>&1
rc=$?
wait "$CRASH_PID"
drc=$?
[ $rc != 0 ] && [ $drc = 71 ] && grep -q "did not acknowledge" "$T_TMP/crash.out"
t_check $? "the daemon dies mid-request (exit $drc): the load fails (exit $rc) and says so" \
	"$(cat "$T_TMP/crash.out")"
maps | cmp -s - "$T_TMP/before.json"
t_check $? "no half state: routes and groups as before the load" \
	"$(cat "$T_TMP/crash.out"); after: $(maps | cut -c1-300)"

# no daemon (its socket is still there, nobody listens): in-process
X config load "$T_TMP/other.json" >"$T_TMP/alone.out" 2>&1
t_check $? "config load with no sync commits itself" "$(cat "$T_TMP/alone.out")"
[ "$(route)" = "none" ]
t_check $? "10.9.0.0/16 gone with the old config (got $(route))"

t_done
