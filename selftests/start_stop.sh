#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot persistence from one config file, as rocedp.service runs it, in a
# netns of ours with two veth ports:
#   - `rocedp start --config FILE` attaches the ports the file's "attach"
#     section names, in its mode, and loads the rest of the file; a second
#     start is a no-op that succeeds (same programs, same settings);
#   - a bad "attach" section (mode, duplicate, not a name) is refused by
#     `config check`, and start refuses it with nothing attached; so is a
#     file without the section, and a port that does not exist;
#   - `rocedp stop` leaves no program, pin or attach record;
#   - `rocedp sync` under a NOTIFY_SOCKET says READY=1 once its first sync
#     is in, and STOPPING=1 when stopped (Type=notify without libsystemd);
#   - with stderr on the journal (JOURNAL_STREAM names it), an error line
#     carries journald's <3> priority prefix; elsewhere it does not.
#
# Usage: selftests/start_stop.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_pin_ns ss$$
why() { cat "$@" 2>/dev/null | tr '\n' '|' | cut -c1-400; }
t_ns_ab
t_check $? "netns $NS with veths a0-a1, b0-b1"

CFG=$T_TMP/rocedp.json
cat >"$CFG" <<'EOF'
{
  "attach": {"ports": ["a0", "b0"], "mode": "generic"},
  "qos": {"cnp": {"dscp": 48}},
  "hash": {"mode": "qp"}
}
EOF
X start --config "$CFG" >"$T_TMP/start.out" 2>&1
rc=$?
X -j status >"$T_TMP/st.json" 2>&1
t_pyj "$T_TMP/st.json" 'sorted((i["name"], i["mode"]) for i in j["interfaces"]) == [("a0", "generic"), ("b0", "generic")]' >/dev/null
ok=$?
[ $rc = 0 ] && [ $ok = 0 ]
t_check $? "start attaches a0 and b0 in generic mode: $(head -n1 "$T_TMP/start.out")" "rc $rc: $(why "$T_TMP/start.out" "$T_TMP/st.json")"
X qos show >"$T_TMP/qos.out" 2>&1
grep -qE '^cnp +set +48 ' "$T_TMP/qos.out"
t_check $? "start loaded the config: cnp dscp 48" "$(why "$T_TMP/qos.out")"
ip -n "$NS" -d link show a0 | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p' >"$T_TMP/id1"

X start --config "$CFG" >"$T_TMP/start2.out" 2>&1
rc=$?
ip -n "$NS" -d link show a0 | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p' >"$T_TMP/id2"
X -j status >"$T_TMP/st2.json" 2>&1
[ $rc = 0 ] && [ -s "$T_TMP/id1" ] && cmp -s "$T_TMP/id1" "$T_TMP/id2" &&
	t_pyj "$T_TMP/st2.json" 'len(j["interfaces"]) == 2' >/dev/null
t_check $? "a second start succeeds and changes nothing (a0 keeps XDP program id $(cat "$T_TMP/id1"))" \
	"rc $rc: $(why "$T_TMP/start2.out" "$T_TMP/id2")"

X stop >"$T_TMP/stop.out" 2>&1
rc=$?
X -j status >"$T_TMP/st3.json" 2>/dev/null
[ $rc = 0 ] && [ ! -e "$PIN" ] && ! ip -n "$NS" -d link show a0 | grep -q prog/xdp &&
	! ip -n "$NS" -d link show b0 | grep -q prog/xdp
t_check $? "stop: no XDP program on a0 or b0, no pin dir" "rc $rc: $(why "$T_TMP/stop.out")"

# ------------------------------------------------ refused, nothing attached
bad() { # NAME JSON-ATTACH EXPECTED-TEXT
	printf '{"attach": %s}\n' "$2" >"$T_TMP/$1.json"
	X config check "$T_TMP/$1.json" >"$T_TMP/$1.chk" 2>&1
	local crc=$?
	X start --config "$T_TMP/$1.json" >"$T_TMP/$1.out" 2>&1
	local rc=$?
	[ $crc != 0 ] && [ $rc = 1 ] && grep -q "$3" "$T_TMP/$1.chk" && [ ! -e "$PIN" ] &&
		! ip -n "$NS" -d link show a0 | grep -q prog/xdp
	t_check $? "attach $2: config check and start refuse it ($3), nothing attached" \
		"check rc $crc, start rc $rc: $(why "$T_TMP/$1.chk" "$T_TMP/$1.out")"
}
bad mode '{"ports": ["a0"], "mode": "fast"}' 'attach.mode'
bad dup '{"ports": ["a0", "a0"]}' 'a0 is listed twice'
bad name '{"ports": ["a0", "x/y"]}' 'is not an interface name'
bad empty '{"ports": []}' 'give 1 to'
bad noports '{"mode": "tc"}' 'missing key ports'
echo '{"qos": {"cnp": {"dscp": 48}}}' >"$T_TMP/none.json"
X start --config "$T_TMP/none.json" >"$T_TMP/none.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'no "attach"' "$T_TMP/none.out" && [ ! -e "$PIN" ]
t_check $? "a file without an attach section: start exits 1 and says so" "rc $rc: $(why "$T_TMP/none.out")"
echo '{"attach": {"ports": ["a0", "nosuch0"]}}' >"$T_TMP/gone.json"
X start --config "$T_TMP/gone.json" >"$T_TMP/gone.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'nosuch0: no such interface' "$T_TMP/gone.out" && [ ! -e "$PIN" ] &&
	! ip -n "$NS" -d link show a0 | grep -q prog/xdp
t_check $? "a port that does not exist: start exits 1, a0 is not attached either" "rc $rc: $(why "$T_TMP/gone.out")"
X start --config "$T_TMP/missing.json" >"$T_TMP/miss.out" 2>&1
t_check $([ $? = 1 ] && echo 0 || echo 1) "a missing config file: start exits 1" "$(why "$T_TMP/miss.out")"

# ------------------------------------------------ sd_notify, journald
X start --config "$CFG" >/dev/null 2>&1
SOCK=$T_TMP/notify.sock
$PY "$T_TOP/selftests/start_stop.py" notify "$SOCK" >"$T_TMP/notify.out" 2>&1 &
pypid=$!
t_wait_for 10 test -S "$SOCK"
T_BG_ERR=$T_TMP/sync.err NOTIFY_SOCKET=$SOCK t_bg SYNC ip netns exec "$NS" "$ROCEDP" sync
t_wait_for 30 grep -qx 'READY=1' "$T_TMP/notify.out"
t_check $? "rocedp sync sends READY=1 to NOTIFY_SOCKET after its first sync" "$(why "$T_TMP/notify.out" "$T_TMP/sync.err")"
kill -TERM "$SYNC" 2>/dev/null
t_wait_for 30 grep -qx 'STOPPING=1' "$T_TMP/notify.out"
t_check $? "and STOPPING=1 when told to stop" "$(why "$T_TMP/notify.out")"
kill "$pypid" 2>/dev/null
wait "$pypid" 2>/dev/null

# JOURNAL_STREAM is DEV:INODE of the stream: here a file stands in for it
X start --config "$T_TMP/missing.json" 2>"$T_TMP/j.err"
js=$(stat -c '%d:%i' "$T_TMP/j.err")
JOURNAL_STREAM=$js ip netns exec "$NS" "$ROCEDP" start --config "$T_TMP/missing.json" 2>"$T_TMP/j.err"
JOURNAL_STREAM=$js ip netns exec "$NS" "$ROCEDP" start --config "$T_TMP/missing.json" 2>"$T_TMP/k.err"
grep -q '^<3>rocedp: ' "$T_TMP/j.err" && ! grep -q '^<' "$T_TMP/k.err"
t_check $? "errors carry <3> when stderr is the journal's stream, no prefix elsewhere" "$(why "$T_TMP/j.err" "$T_TMP/k.err")"
X stop >/dev/null 2>&1
t_done
