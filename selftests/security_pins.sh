#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pin directories and output files that no one but root can steer.
#
# Runs in a private mount namespace with a bpffs of its own, mounted with
# its default mode 1777 (as a host's usually is); the host's /sys/fs/bpf is
# never touched. Each switch is a pid+net namespace of its own, entered
# with nsenter: the container case, where pid 1 is the container's init.
#
#  1. Two pid+net namespaces on one bpffs get separate pin directories:
#     neither reads nor writes the other's settings, and `detach --all` in
#     one leaves the other attached.
#  2. As `nobody` (setpriv): a symlink from one switch's cookie directory
#     to another's, a symlink to an unrelated directory, a directory made
#     before root's, renaming root's directory, and a symlink in place of
#     the initial namespace's <bpffs>/rocedp, and libxdp's <bpffs>/xdp
#     made first. Each is refused: no maps
#     shared, nothing chmod'ed, nothing of root's in a directory nobody
#     owns, the settings unchanged.
#  3. FIFOs planted by `nobody` as output files: `stats --textfile`,
#     `replay --out/--verdicts` and `sync --daemon --pid-file` fail at once
#     (no hang; sync before it daemonizes), and a FIFO of root's with a
#     reader still gets the data.
# About 30 s. The checks on attacks fail with the code before these rules.
set -u
if [ -z "${SECPIN_INNER:-}" ]; then
	SECPIN_INNER=1 exec unshare -m --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

t_require setpriv nsenter bpftool
unset ROCEDP_PIN_DIR
BPF=/sys/fs/bpf
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
HOLDERS=()
CONTAINERS=()

# our own bpffs (1777), over whatever this mount namespace had: private
# to it, gone with it
fresh_bpffs() {
	mount -t bpf bpf "$BPF" && [ "$(stat -c %a "$BPF")" = 1777 ]
}

# holder VAR [C]: a pid+net namespace (own /proc), its holder's pid in
# VAR; with C, a net namespace only, inside container C's pid and mount
# namespaces (C: `holder C` with no netns of its own, see container). A
# veth pair v0-v1 up in it.
holder() {
	local up p=
	if [ -n "${2:-}" ]; then
		nsenter -t "$2" -m -p unshare -n sleep 600 2>/dev/null &
	else
		unshare -p -n -f --mount-proc sleep 600 2>/dev/null &
	fi
	up=$!
	t_pids+=("$up")
	for _ in $(seq 50); do
		p=$(ps -o pid= --ppid "$up" | tr -d ' ')
		[ -n "$p" ] && break
		sleep 0.1
	done
	[ -n "$p" ] || return 1
	HOLDERS+=("$p")
	printf -v "$1" %s "$p"
	N "$p" ip link add v0 type veth peer name v1 &&
		N "$p" ip link set v0 up && N "$p" ip link set v1 up
}
# container VAR: a pid and mount namespace in the host's netns (its init
# is pid 1 there), whose network namespaces are keyed by cookie with the
# code before these rules too, so the attacks below reach that code
container() {
	local up p=
	unshare -p -f --mount-proc sleep 600 2>/dev/null &
	up=$!
	t_pids+=("$up")
	for _ in $(seq 50); do
		p=$(ps -o pid= --ppid "$up" | tr -d ' ')
		[ -n "$p" ] && break
		sleep 0.1
	done
	[ -n "$p" ] || return 1
	CONTAINERS+=("$p")
	printf -v "$1" %s "$p"
}
# N PID CMD...: CMD in that switch (its mount, pid and net namespaces)
N() { local p=$1; shift; nsenter -t "$p" -m -p -n "$@"; }
R() { local p=$1; shift; N "$p" "$ROCEDP" "$@"; }
cookie() {
	N "$1" $PY -c 'import socket, struct
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])'
}
pin_dir() { R "$1" -j status 2>/dev/null | $PY -c 'import json,sys; print(json.load(sys.stdin)["pin_dir"])'; }
seed() { R "$1" -j config show 2>/dev/null | $PY -c 'import json,sys; print(json.load(sys.stdin)["hash"]["seed"])'; }
has_xdp() { N "$1" ip -d link show v0 | grep -q 'prog/xdp'; }
map_id() { bpftool -j map show pinned "$1/rd_config" 2>/dev/null | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])' 2>/dev/null; }
# down: every switch detached and its holder gone, then the pins
down() {
	local p
	for p in "${HOLDERS[@]}"; do
		R "$p" detach --all >/dev/null 2>&1
		# a pid namespace's init takes only SIGKILL from outside
		kill -KILL "$p" 2>/dev/null
	done
	HOLDERS=()
	for p in "${CONTAINERS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	CONTAINERS=()
	rm -rf "$BPF"/rocedp "$BPF"/rocedp-netns
}
t_cleanup down

# ------------------------------------------- 1. two pid+net namespaces
fresh_bpffs || t_fail "a bpffs of our own, mode 1777"
holder A && holder B || t_fail "two pid+net namespaces"
CA=$(cookie "$A") CB=$(cookie "$B")
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
t_check $? "attach in A" "$(cat "$T_TMP/a.out")"
R "$B" attach v0 --mode generic >"$T_TMP/b.out" 2>&1
t_check $? "attach in B" "$(cat "$T_TMP/b.out")"
PA=$(pin_dir "$A") PB=$(pin_dir "$B")
[ "$PA" = "$BPF/rocedp-netns/$CA" ] && [ "$PB" = "$BPF/rocedp-netns/$CB" ]
t_check $? "A and B: their own pin directories, keyed by cookie" "A: $PA B: $PB (cookies $CA $CB)"
IA=$(map_id "$PA") IB=$(map_id "$PB")
[ -n "$IA" ] && [ -n "$IB" ] && [ "$IA" != "$IB" ]
t_check $? "A and B: different rd_config maps" "ids '$IA' '$IB'"
R "$A" config set hash.seed=4242 >/dev/null 2>&1
R "$B" config set hash.seed=777 >/dev/null 2>&1
SA=$(seed "$A") SB=$(seed "$B")
[ "$SA" = 4242 ] && [ "$SB" = 777 ]
t_check $? "config set in B leaves A's seed; B reads its own" "A: $SA B: $SB"
R "$B" detach --all >/dev/null 2>&1
has_xdp "$A" && R "$A" -j status | grep -q '"name":"v0"'
t_check $? "detach --all in B leaves A attached"
! has_xdp "$B"
t_check $? "detach --all in B detaches B"

# nobody: not a directory on the way, nor a rename of root's
"${NOBODY[@]}" mv "$BPF/rocedp-netns" "$BPF/moved" 2>/dev/null
[ -d "$BPF/rocedp-netns/$CA" ] && [ "$(pin_dir "$A")" = "$PA" ] &&
	R "$A" -j status | grep -q '"maps_pinned":true'
t_check $? "nobody cannot rename root's rocedp-netns on the sticky bpffs"

# 2e. a symlink in place of the initial namespace's <bpffs>/rocedp,
# pointing at A's directory: root's `config set` in the initial netns
# (this mount namespace's bpffs) must not reach A
"${NOBODY[@]}" ln -s "$PA" "$BPF/rocedp"
"$ROCEDP" config set hash.seed=31337 >"$T_TMP/init.out" 2>&1
rc=$?
[ "$(seed "$A")" = 4242 ] && [ $rc != 0 ] && grep -q "symlink" "$T_TMP/init.out"
t_check $? "initial netns: nobody's symlink at <bpffs>/rocedp refused, A's seed kept" \
	"rc $rc, A's seed $(seed "$A"): $(cat "$T_TMP/init.out")"
rm -f "$BPF/rocedp"
down

# ---------------------------------------------------- 2. as nobody
# plant CMD...: a fresh bpffs, switches A and B, then nobody's CMD
plant() {
	fresh_bpffs && container C && holder A "$C" && holder B "$C" || return 1
	CA=$(cookie "$A") CB=$(cookie "$B")
	"${NOBODY[@]}" mkdir -m 0777 "$BPF/rocedp-netns" || return 1
	"${NOBODY[@]}" "$@"
}
# nothing of root's below nobody's directory
clean_below() { [ -z "$(find "$BPF/rocedp-netns" -mindepth 1 -user 0 2>/dev/null)" ]; }

# 2a. B's cookie directory a symlink to A's
plant ln -s "$CA" "$BPF/rocedp-netns/$CB" ||
	t_fail "plant: symlink from B's cookie dir to A's"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
ra=$?
R "$B" attach v0 --mode generic >"$T_TMP/b.out" 2>&1
rb=$?
IA=$(map_id "$BPF/rocedp-netns/$CA") IB=$(map_id "$BPF/rocedp-netns/$CB")
{ [ -z "$IA" ] || [ "$IA" != "$IB" ]; } && clean_below
t_check $? "symlink B -> A: maps not shared, nothing of root's in nobody's dir" \
	"attach rc A $ra B $rb, rd_config ids '$IA' '$IB'"
[ $ra != 0 ] && [ $rb != 0 ] && grep -q "not owned by root" "$T_TMP/a.out"
t_check $? "symlink B -> A: attach refused, naming why" "$(cat "$T_TMP/a.out" "$T_TMP/b.out")"
down

# 2b. A's cookie directory a symlink to an unrelated directory
mkdir -m 0755 "$T_TMP/unrelated"
chmod 0711 "$T_TMP"
plant ln -s "$T_TMP/unrelated" "$BPF/rocedp-netns/$CA" ||
	t_fail "plant: symlink to an unrelated directory"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
ra=$?
[ "$(stat -c %a "$T_TMP/unrelated")" = 755 ] && [ $ra != 0 ] && clean_below
t_check $? "symlink to an unrelated directory: not chmod'ed, attach refused" \
	"mode $(stat -c %a "$T_TMP/unrelated"), rc $ra: $(cat "$T_TMP/a.out")"
down
# ... and rocedp-netns itself a symlink to one
mkdir -m 0755 "$T_TMP/unrelated2"
fresh_bpffs && container C && holder A "$C" && CA=$(cookie "$A") &&
	"${NOBODY[@]}" ln -s "$T_TMP/unrelated2" "$BPF/rocedp-netns" ||
	t_fail "plant: rocedp-netns a symlink"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
ra=$?
[ -z "$(ls -A "$T_TMP/unrelated2")" ] && [ "$(stat -c %a "$T_TMP/unrelated2")" = 755 ] && [ $ra != 0 ]
t_check $? "rocedp-netns a symlink: nothing made or chmod'ed there, attach refused" \
	"rc $ra, $(ls -A "$T_TMP/unrelated2"): $(cat "$T_TMP/a.out")"
rm -f "$BPF/rocedp-netns"
down

# 2c. A's directory made by nobody before root's attach
plant mkdir -m 0777 "$BPF/rocedp-netns/$CA" || t_fail "plant: A's directory"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
ra=$?
"${NOBODY[@]}" rm -f "$BPF/rocedp-netns/$CA/rd_config" 2>/dev/null
[ $ra != 0 ] && ! has_xdp "$A" && clean_below
t_check $? "directory made by nobody: attach refused, root's pins never land there" \
	"rc $ra: $(cat "$T_TMP/a.out"); root's: $(find "$BPF/rocedp-netns" -user 0 | head -3)"
down

# 2d. nobody renames A's directory (its parent nobody's) after attach
plant true || t_fail "plant: rocedp-netns of nobody's"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
ra=$?
"${NOBODY[@]}" mv "$BPF/rocedp-netns/$CA" "$BPF/rocedp-netns/x" 2>/dev/null
# attached and lost its maps, or never attached there
if has_xdp "$A"; then
	R "$A" -j status | grep -q '"maps_pinned":true'
else
	[ $ra != 0 ]
fi
t_check $? "rename of A's directory: status never loses a running switch" \
	"rc $ra: $(cat "$T_TMP/a.out"); $(R "$A" status 2>&1 | head -2)"
# the owner can take it back: remove nobody's directory, attach works
rm -rf "$BPF/rocedp-netns"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1 && has_xdp "$A" &&
	[ "$(stat -c '%u %a' "$BPF/rocedp-netns/$CA")" = "0 700" ]
t_check $? "after root removed nobody's directory: attach works, its dir root's 0700" \
	"$(cat "$T_TMP/a.out")"
down

# 2f. libxdp's <bpffs>/xdp made by nobody first: libxdp would pin the
# port's dispatcher there with no owner check
fresh_bpffs && container C && holder A "$C" &&
	"${NOBODY[@]}" mkdir -m 0777 "$BPF/xdp" || t_fail "plant: <bpffs>/xdp"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
ra=$?
[ $ra != 0 ] && ! has_xdp "$A" && grep -q "xdp: not owned by root" "$T_TMP/a.out" &&
	[ -z "$(find "$BPF/xdp" -mindepth 1 2>/dev/null)" ]
t_check $? "libxdp's directory made by nobody: attach refused, nothing pinned there" \
	"rc $ra: $(cat "$T_TMP/a.out")"
rm -rf "$BPF/xdp"
R "$A" attach v0 --mode generic >"$T_TMP/a.out" 2>&1 && has_xdp "$A" &&
	[ "$(stat -c '%u %a' "$BPF/xdp")" = "0 700" ]
t_check $? "after root removed it: attach works, <bpffs>/xdp root's 0700" \
	"$(cat "$T_TMP/a.out"); $(stat -c '%u %a' "$BPF/xdp" 2>&1)"
down

# ----------------------------------------- 3. FIFOs planted by nobody
fresh_bpffs && holder A && R "$A" attach v0 --mode generic >/dev/null 2>&1 ||
	t_fail "a switch for the output tests"
PUB=$T_TMP/pub
mkdir -m 1777 "$PUB"
$PY "$T_TOP/selftests/security_pins.py" pcap "$T_TMP/in.pcap"
for f in rocedp.prom o.pcap v.json s.pid; do
	"${NOBODY[@]}" mkfifo -m 0666 "$PUB/$f" || t_fail "nobody: mkfifo $f"
done
# refused DESC CMD...: CMD fails without waiting (not 124: hung for 60 s;
# a replay alone takes seconds on a busy machine),
# saying why
refused() {
	local desc=$1 rc
	shift
	timeout 60 "$@" >"$T_TMP/o.out" 2>&1
	rc=$?
	[ $rc != 0 ] && [ $rc != 124 ] && grep -q "another user" "$T_TMP/o.out"
	t_check $? "$desc" "rc $rc (124: hung for 60 s): $(cat "$T_TMP/o.out")"
}
refused "stats --textfile: nobody's FIFO refused, no hang" nsenter -t "$A" -m -p -n "$ROCEDP" stats --textfile "$PUB"
refused "replay --out: nobody's FIFO refused, no hang" \
	"$ROCEDP" replay --in "$T_TMP/in.pcap" --out "$PUB/o.pcap"
refused "replay --verdicts: nobody's FIFO refused, no hang" \
	"$ROCEDP" replay --in "$T_TMP/in.pcap" --verdicts "$PUB/v.json"
refused "sync --daemon --pid-file: nobody's FIFO refused before the daemon returns" \
	nsenter -t "$A" -m -p -n "$ROCEDP" sync --daemon --pid-file "$PUB/s.pid"
R "$A" -j status | grep -q '"maps_pinned":true'
t_check $? "the switch still has its maps after the refused sync"
# root's FIFO: with no reader it fails at once, with one it gets the data
mkfifo -m 0600 "$T_TMP/root.fifo"
timeout 60 "$ROCEDP" replay --in "$T_TMP/in.pcap" --verdicts "$T_TMP/root.fifo" >"$T_TMP/o.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "no reader" "$T_TMP/o.out"
t_check $? "root's FIFO with no reader: exit 1, no wait for one" "rc $rc: $(cat "$T_TMP/o.out")"
# the reader holds the FIFO open (non-blocking, so it counts as a reader
# at once) before replay starts, and reads until the writer closes
$PY "$T_TOP/selftests/security_pins.py" fifo_reader "$T_TMP/root.fifo" "$T_TMP/got" "$T_TMP/ready" &
rpid=$!
t_wait_for 10 test -e "$T_TMP/ready"
timeout 60 "$ROCEDP" replay --in "$T_TMP/in.pcap" --verdicts "$T_TMP/root.fifo" >"$T_TMP/o.out" 2>&1
rc=$?
wait "$rpid"
[ $rc = 0 ] && [ "$(grep -c . "$T_TMP/got")" -ge 20 ]
t_check $? "root's FIFO with a reader: the verdicts arrive" \
	"rc $rc, $(wc -l <"$T_TMP/got") lines: $(cat "$T_TMP/o.out")"
down

t_done
