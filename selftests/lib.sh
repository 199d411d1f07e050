# SPDX-License-Identifier: GPL-2.0
# The one TAP library of the shell tests: the netns selftests and the
# suites in tests/ source it (never run on its own).
#
#   t_ok DESC | t_fail DESC [WHY] | t_check RC DESC | t_skip DESC REASON
#   ok DESC | nok DESC [WHY]    the same as t_ok and t_fail (tests/ suites)
#   t_done                      "N passed, M failed", exit status
#   need_root / need_rocedp     skip unless root / one failed check unless
#                               rocedp is built
#   pin_maps DIR / unpin_maps DIR   the dataplane's maps pinned by bpftool
#   t_wait_for SECONDS CMD...   poll CMD until it succeeds (1 on timeout)
#   t_cleanup CMD...            run CMD at exit (last registered runs first)
#   t_bg VAR CMD...             start CMD in the background, its pid in VAR,
#                               killed at exit if still running
#   t_pyj FILE EXPR             evaluate a python expression over json j
#   t_need TOOL...              all present? (else the caller skips)
#   t_rx NETNS DEV / t_tx       interface packet counters
#   t_cap_start VAR NETNS DEV FILE [FILTER] / t_cap_stop PID
#   t_serve VAR NAME NETNS DEV  rocegen responder, pid in VAR, once ready
#   t_pin_ns NAME               netns NAME + pin dir for rocedp; X ARGS...
#   t_rd_bg VAR ARGS...         rocedp ARGS... (sync) in it, in the background
#   t_ns_ab                     veths a0-a1, b0-b1 in it, a0/b0 addressed
#
# Tests print TAP-like lines `ok N - ...` / `not ok N - ...` (skips as
# `ok N - ... # SKIP reason`), which tests/run.sh parses, and end with
# `N passed, M failed`; the exit status is non-zero when anything failed.

T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# the binaries of the build dir OUT (as tests/run.sh), unless named
T_OUT=${OUT:-build}
case $T_OUT in /*) ;; *) T_OUT=$T_TOP/$T_OUT ;; esac
# OUT too, absolute: the suites in tests/ name their programs through it
OUT=$T_OUT
ROCEDP=$(readlink -f "${ROCEDP:-$T_OUT/rocedp}")
ROCEGEN=$(readlink -f "${ROCEGEN:-$T_OUT/rocegen}")
LAB=$T_TOP/tools/lab/rocedp-lab
PY=/usr/bin/python3
export ROCEDP

t_n=0
t_pass=0
t_failed=0
t_skipped=0
t_cleanups=()
t_pids=()
T_TMP=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")

t_ok() {
	t_n=$((t_n + 1))
	t_pass=$((t_pass + 1))
	echo "ok $t_n - $1"
}

t_fail() {
	t_n=$((t_n + 1))
	t_failed=$((t_failed + 1))
	echo "not ok $t_n - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/#   /'
	return 0
}

ok() { t_ok "$@"; }
nok() { t_fail "$@"; }

# t_wait_for SECONDS CMD...: poll CMD (output discarded) every 0.1 s until
# it succeeds; 1 when it has not within SECONDS
t_wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# t_check RC DESC [WHY]: ok when RC is 0
t_check() {
	if [ "$1" = 0 ]; then t_ok "$2"; else t_fail "$2" "${3:-}"; fi
}

t_skip() {
	t_n=$((t_n + 1))
	t_pass=$((t_pass + 1))
	t_skipped=$((t_skipped + 1))
	echo "ok $t_n - $1 # SKIP $2"
	echo "#   SKIPPED (not tested here): $1: $2" >&2
}

t_done() {
	[ -s "$T_TMP/workarounds" ] && sort "$T_TMP/workarounds" | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2 (x\1)/'
	[ "$t_skipped" -gt 0 ] && echo "# $t_skipped SKIPPED: see the '# SKIP' lines above"
	echo "$t_pass passed, $t_failed failed"
	[ "$t_failed" = 0 ]
}

t_cleanup() { t_cleanups+=("$*"); }

t_run_cleanups() {
	local i p
	for p in "${t_pids[@]}"; do kill "$p" 2>/dev/null; done
	for ((i = ${#t_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${t_cleanups[i]}" >/dev/null 2>&1
	done
	wait 2>/dev/null
	if [ -n "${KEEP:-}" ]; then echo "# kept $T_TMP"; else rm -rf "$T_TMP"; fi
}
trap 't_run_cleanups' EXIT
trap 'exit 130' INT TERM

# t_bg VAR CMD...: background CMD (stdout/stderr as redirected by the caller
# through T_BG_OUT/T_BG_ERR), pid in VAR
t_bg() {
	local var=$1
	shift
	"$@" >"${T_BG_OUT:-/dev/null}" 2>"${T_BG_ERR:-/dev/null}" &
	t_pids+=($!)
	printf -v "$var" %s $!
}

# t_redis VAR SOCK [ARG...]: a private redis-server listening only on the
# unix socket SOCK (no TCP port, no persistence, output in
# $T_TMP/redis.out), its pid in VAR; 0 once it answers PING
t_redis() {
	local var=$1 sock=$2
	shift 2
	T_BG_OUT=$T_TMP/redis.out T_BG_ERR=$T_TMP/redis.out t_bg "$var" \
		redis-server --port 0 --unixsocket "$sock" --unixsocketperm 700 \
		--dir "$T_TMP" --save "" --appendonly no --daemonize no "$@"
	t_wait_for 5 sh -c "redis-cli -s '$sock' ping 2>/dev/null | grep -q PONG"
}

# t_netns_cookie NS: the cookie of netns NS (SO_NETNS_COOKIE = 71), which
# keys rocedp's attachment record and pin directory there
t_netns_cookie() {
	ip netns exec "$1" $PY -c 'import socket, struct
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])'
}

# t_state_file NS: the attachment record rocedp keeps for netns NS
# (/run/rocedp/attached.c<netns cookie>)
t_state_file() {
	local c
	c=$(t_netns_cookie "$1") && echo "/run/rocedp/attached.c$c"
}

# t_pyj FILE EXPR: python expression over j = json.load(FILE); prints the
# value, exits 0 when it is truthy
t_pyj() {
	$PY "$T_TOP/selftests/lib.py" pyj "$1" "$2"
}

t_need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || { echo "$t"; return 1; }
	done
	return 0
}

# t_require TOOL...: end the test with one failed check unless every tool
# is on PATH and rocedp and rocegen are built.
t_require() {
	local missing b
	missing=$(t_need "$@") || {
		t_fail "tools present" "missing: $missing"
		t_done
		exit 1
	}
	for b in "$ROCEDP" "$ROCEGEN"; do
		[ -x "$b" ] || { t_fail "$b built"; t_done; exit 1; }
	done
}

t_rx() { ip -n "$1" -s -j link show dev "$2" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["rx"]["packets"])'; }
t_tx() { ip -n "$1" -s -j link show dev "$2" | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["stats64"]["tx"]["packets"])'; }

# t_cap_start VAR NETNS DEV FILE [FILTER]: tcpdump until t_cap_stop; returns
# once it listens. --immediate-mode: without it tcpdump reads the kernel's
# ring a block at a time, and a capture stopped before its first block was
# handed over writes nothing ("1024 packets received by filter, 0 captured"
# at MTU 9000, where a short run fills no block)
t_cap_start() {
	local var=$1 netns=$2 dev=$3 file=$4 filter=${5:-}
	ip netns exec "$netns" tcpdump -i "$dev" -s 128 -B 32768 -U --immediate-mode -n -w "$file" $filter \
		2>"$file.err" &
	t_pids+=($!)
	printf -v "$var" %s $!
	for _ in $(seq 100); do
		grep -q "listening on" "$file.err" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

t_cap_stop() {
	sleep 0.2 # let the last frames reach the capture
	kill -INT "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# t_serve VAR NAME NETNS DEV: a rocegen responder on DEV in NETNS (output in
# NAME.serve and NAME.serve.err), its pid in VAR; returns when it is ready,
# 1 when it is not within 5 s
t_serve() {
	local var=$1 name=$2
	rm -f "$T_TMP/ready"
	T_BG_OUT=$T_TMP/$name.serve T_BG_ERR=$T_TMP/$name.serve.err \
		t_bg "$var" ip netns exec "$3" "$ROCEGEN" serve --dev "$4" \
		--ready "$T_TMP/ready" -j
	for _ in $(seq 100); do [ -e "$T_TMP/ready" ] && return 0; sleep 0.05; done
	return 1
}

# tshark 4.0 decodes UDP 4791 as InfiniBand and tries RDMA upper-layer
# heuristics on the payload; keep those out of the field output
T_TSHARK_OPTS=(--disable-protocol rpcordma --disable-protocol smb_direct
	--disable-protocol nvme-rdma --disable-protocol iser -n)

# lab helpers: the fabric builder, with this test's prefix
lab() { "$LAB" "$1" --prefix "$T_LAB_PREFIX" "${@:2}"; }
lab_exec() { "$LAB" exec --prefix "$T_LAB_PREFIX" "$@"; }
# ns NODE: the lab namespace of a node
ns() { echo "$T_LAB_PREFIX-$1"; }

# rocedp_set NODE OBJECT ARGS...: a `rocedp config|qos|ecn set` on a lab
# leaf. WORKAROUND: while `rocedp sync` runs it holds an exclusive flock on
# the pin directory for its whole life, and config/qos writers take the same
# lock blocking, so they hang. If the command does not finish in 3 s, stop
# the leaf's sync, run it, and start sync again (the dataplane keeps its
# maps meanwhile); said loudly, since it is a bug to fix in rocedp.
rocedp_set() {
	local node=$1 rc
	shift
	timeout 3 "$LAB" exec --prefix "$T_LAB_PREFIX" "$node" "$ROCEDP" "$@"
	rc=$?
	[ $rc = 124 ] || return $rc
	echo "# WORKAROUND: 'rocedp $1 $2' blocked >3 s while 'rocedp sync' ran (both flock the pin dir); sync was restarted around it" >>"$T_TMP/workarounds"
	"$LAB" sync --prefix "$T_LAB_PREFIX" stop "$node"
	"$LAB" exec --prefix "$T_LAB_PREFIX" "$node" "$ROCEDP" "$@"
	rc=$?
	"$LAB" sync --prefix "$T_LAB_PREFIX" start "$node" || return 1
	return $rc
}

# t_pin_ns NAME: a network namespace NAME, created here; sets NS, PIN (the
# pin directory rocedp picks there by itself, as the host sees it:
# /sys/fs/bpf/rocedp-netns/<netns cookie>, docs/netns.md) and defines
# X ARGS... (plain `ip netns exec NS rocedp ARGS...`, no environment). At
# exit rocedp is detached, the namespace deleted and the pins removed.
t_pin_ns() {
	local c
	NS=$1
	X() { ip netns exec "$NS" "$ROCEDP" "$@"; }
	t_cleanup t_pin_ns_down
	PIN=
	ip netns add "$NS" && c=$(t_netns_cookie "$NS") && [ -n "$c" ] &&
		PIN=/sys/fs/bpf/rocedp-netns/$c
}
t_pin_ns_down() {
	[ -e "/run/netns/$NS" ] && X detach --all >/dev/null 2>&1
	ip netns del "$NS" 2>/dev/null
	[ -n "$PIN" ] && rm -rf "$PIN"
}

# t_switch3 H1 SW H2: h1 -- s0 [SW] s1 -- h2, routed through SW
# (10.1.0.0/24 on s0, 10.2.0.0/24 on s1, hosts .2, SW .1, forwarding on);
# PIN is SW's pin directory. At exit (t_cleanup) rocedp is detached in SW
# and the namespaces and SW's pins are removed, even after a failure.
t_switch3() {
	local h1=$1 sw=$2 h2=$3 n
	t_sw3=("$h1" "$sw" "$h2")
	PIN=
	t_cleanup t_switch3_down
	for n in "$h1" "$sw" "$h2"; do ip netns add "$n" || return 1; done
	PIN=/sys/fs/bpf/rocedp-netns/$(t_netns_cookie "$sw") || return 1
	ip -n "$h1" link add eth0 type veth peer name s0 netns "$sw" &&
		ip -n "$h2" link add eth0 type veth peer name s1 netns "$sw" || return 1
	for n in "$h1" "$sw" "$h2"; do ip -n "$n" link set lo up; done
	ip -n "$h1" link set eth0 up && ip -n "$h2" link set eth0 up &&
		ip -n "$sw" link set s0 up && ip -n "$sw" link set s1 up &&
		ip -n "$h1" addr add 10.1.0.2/24 dev eth0 &&
		ip -n "$h2" addr add 10.2.0.2/24 dev eth0 &&
		ip -n "$sw" addr add 10.1.0.1/24 dev s0 &&
		ip -n "$sw" addr add 10.2.0.1/24 dev s1 &&
		ip -n "$h1" route add default via 10.1.0.1 &&
		ip -n "$h2" route add default via 10.2.0.1 &&
		ip netns exec "$sw" sysctl -qw net.ipv4.ip_forward=1
}

t_switch3_down() {
	local n
	[ -e "/run/netns/${t_sw3[1]}" ] &&
		ip netns exec "${t_sw3[1]}" "$ROCEDP" detach --all >/dev/null 2>&1
	for n in "${t_sw3[@]}"; do ip netns del "$n" 2>/dev/null; done
	[ -n "$PIN" ] && rm -rf "$PIN"
}

# t_rd_bg VAR ARGS...: `rocedp ARGS...` (the sync daemon) in t_pin_ns's
# namespace, in the background (t_bg: T_BG_OUT/T_BG_ERR, pid in VAR;
# `ip netns exec` execs rocedp, so the pid is the daemon's)
t_rd_bg() {
	local var=$1
	shift
	t_bg "$var" ip netns exec "$NS" "$ROCEDP" "$@"
}

# t_py ARGS...: python with selftests/ on its path (kernel_fib.py: the
# kernel's IPv4 routes as rocedp's maps should hold them)
t_py() { PYTHONPATH=$T_TOP/selftests${PYTHONPATH:+:$PYTHONPATH} $PY "$@"; }

# t_ns_ab: in t_pin_ns's namespace, veth pairs a0-a1 and b0-b1 (and lo) up,
# a0 10.100.0.1/24 and b0 10.100.1.1/24: the two uplinks of the sync tests
t_ns_ab() {
	ip -n "$NS" link add a0 type veth peer name a1 &&
		ip -n "$NS" link add b0 type veth peer name b1 || return 1
	for d in lo a0 a1 b0 b1; do ip -n "$NS" link set "$d" up || return 1; done
	ip -n "$NS" addr add 10.100.0.1/24 dev a0 &&
		ip -n "$NS" addr add 10.100.1.1/24 dev b0
}

# pin_maps DIR: the dataplane's own map definitions (bpf/maps.h, with BTF)
# pinned into DIR by `bpftool prog loadall ... pinmaps`, in an object whose
# program is trivial, so the tests do not depend on the real programs.
# Prints a failed check and returns 1 when it cannot.
pin_maps() {
	local dir=$1 multiarch
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	mkdir -p "$dir"
	cat >"$T_TMP/maps.bpf.c" <<'EOC'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "maps.h"
SEC("xdp") int rd_test_xdp(struct xdp_md *ctx) { return XDP_PASS; }
char LICENSE[] SEC("license") = "GPL";
EOC
	multiarch=$(cc -print-multiarch 2>/dev/null)
	if ! ${CLANG:-clang} -g -O2 -target bpf -I "$T_TOP/bpf" \
		-I "/usr/include/$multiarch" -c "$T_TMP/maps.bpf.c" \
		-o "$T_TMP/maps.bpf.o" >"$T_TMP/load.out" 2>&1 ||
		! bpftool prog loadall "$T_TMP/maps.bpf.o" "$dir/progs" \
			pinmaps "$dir" >>"$T_TMP/load.out" 2>&1; then
		nok "pin the dataplane's maps with bpftool" "$(tail -5 "$T_TMP/load.out")"
		return 1
	fi
}

# unpin_maps DIR: remove the pins of pin_maps DIR, and the CTS rule names
# the CLI keeps for DIR's rd_cts_rules in /run/rocedp (cts-<map id>.names),
# which nothing else removes once the map is gone with a test's pins.
unpin_maps() {
	local id
	id=$(bpftool -j map show pinned "$1/rd_cts_rules" 2>/dev/null |
		$PY -c 'import json,sys; print(json.load(sys.stdin)["id"])' 2>/dev/null)
	[ -n "$id" ] && rm -f "/run/rocedp/cts-$id.names"
	rm -rf "$1"
}

# need_root: the suite is skipped (exit 0) unless we are root
need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root"
		exit 0
	fi
}

# need_rocedp: a missing binary is one failed check (exit 1)
need_rocedp() {
	if [ ! -x "$ROCEDP" ]; then
		echo "not ok 1 - missing $ROCEDP (run make)"
		exit 1
	fi
}
