#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp top` in a real terminal: a detached tmux session of a
# given size on a tmux server of our own (-L), driven with send-keys and
# read with capture-pane. The maps are pinned by bpftool into a private pin
# directory and filled by tests/qps_fill.py as the dataplane lays them out.
# Checks: it draws the headings and the QP rows, it refreshes (a value
# written between two captures shows up; a stalled QP's wait grows), s
# cycles the sort, p pauses, a resize redraws at the new size, and q,
# SIGTERM and Ctrl-C each end it with the terminal given back (alternate
# screen left, cursor visible, process gone), q with exit 0. Also --once
# and -j without a terminal, and the one-line errors.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines. Root. About 15 s.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
ROCEDP=$(readlink -f "$ROCEDP")
PIN=/sys/fs/bpf/rdtopt$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdtopt.XXXXXX)
SOCK=rdtopt$$
FILL="$PY $ROOT/tests/qps_fill.py $ROCEDP_PIN_DIR"
TM="tmux -L $SOCK"

cleanup() {
	$TM kill-server 2>/dev/null
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp
if ! command -v tmux >/dev/null; then
	echo "not ok 1 - tmux is not installed (tools/install-deps.sh)"
	exit 1
fi
pin_maps "$ROCEDP_PIN_DIR" || exit 1

# QP 0x11 busy (its counters keep first_ns, so the next fill is growth),
# 0x22 stalled now, fd00::1 with NAKs; port lo with flaps and a mark
# (per-CPU values are written to every possible CPU: a reader sums them)
NCPU=$(($(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1))
$FILL --qp src=10.0.0.1,dst=10.0.0.2,qp=0x11,first_ns=1000,bytes=1000000,pkts=1000 \
	--qp src=10.0.0.3,dst=10.0.0.4,qp=0x22,bytes=500,stalls=1,wait_us=20000 \
	--qp src=fd00::1,dst=fd00::2,qp=0x33,bytes=800,nak_psn_seq=2 \
	--port ifindex=1,rx_pkts=100,tx_pkts=90,rx_data=8,tx_data=7,hwm=12345,flaps=3 \
	--stall-us 5000 2>"$TMP/err" || nok "fill" "$(cat "$TMP/err")"

# start NAME COLSxROWS: rocedp top in a new session; its exit code goes to
# $TMP/NAME.rc, then the pane stays (sleep) so that the terminal can be
# inspected after it ended. Ctrl-C must reach rocedp, not kill the shell
# first: the shell traps INT with a handler (an ignored INT would be
# inherited).
start() {
	local name=$1 size=$2
	$TM new-session -d -s "$name" -x "${size%x*}" -y "${size#*x}" \
		"bash -c 'trap : INT; ROCEDP_PIN_DIR=$ROCEDP_PIN_DIR $ROCEDP top --interval 0.3; echo \$? >$TMP/$name.rc; sleep 120'"
}
cap() { $TM capture-pane -p -t "$1"; }
# wait_for NAME REGEX [TRIES]: until the pane shows it (0.1 s a try)
wait_for() {
	local i
	for ((i = 0; i < ${3:-50}; i++)); do
		cap "$1" | grep -qE -- "$2" && return 0
		sleep 0.1
	done
	return 1
}
pid_of() { pgrep -P "$($TM display -p -t "$1" '#{pane_pid}')" -x rocedp; }
# ended NAME RC: exit code RC, process gone, terminal given back
ended() {
	local name=$1 want=$2 i alt cur
	for ((i = 0; i < 50; i++)); do
		[ -s "$TMP/$name.rc" ] && break
		sleep 0.1
	done
	alt=$($TM display -p -t "$name" '#{alternate_on}')
	cur=$($TM display -p -t "$name" '#{cursor_flag}')
	if [ "$(cat "$TMP/$name.rc" 2>/dev/null)" = "$want" ] && [ -z "$(pid_of "$name")" ] &&
		[ "$alt" = 0 ] && [ "$cur" = 1 ]; then
		return 0
	fi
	echo "exit $(cat "$TMP/$name.rc" 2>/dev/null), pid '$(pid_of "$name")', alternate_on $alt, cursor_flag $cur"
	cap "$name" | head -5
	return 1
}

# ------------------------------------------------------------ draws

start main 100x30
if wait_for main 'Ports \(' && cap main >"$TMP/c1" &&
	grep -q '^rocedp top ' "$TMP/c1" && grep -q '^Busiest QPs (by bytes/s)' "$TMP/c1" &&
	grep -q '^Sickest QPs' "$TMP/c1" && grep -q '^port ' "$TMP/c1" &&
	grep -qE '^10\.0\.0\.1 +10\.0\.0\.2 +0x11 ' "$TMP/c1" &&
	grep -qE "^lo .* 12\.3k +3 [0-9:]{8} +$((8 * NCPU))/$((7 * NCPU)) " "$TMP/c1" && grep -q '^q quit' <(tail -1 "$TMP/c1"); then
	ok "draws: headings, a QP row, the port with its mark and flaps, the key line"
else
	nok "draws" "$(cat "$TMP/c1" 2>/dev/null)"
fi
if grep -qE '^10\.0\.0\.3 +10\.0\.0\.4 +0x22 +0 +0 +0 +1 +[0-9]+!' "$TMP/c1"; then
	ok "the stalled QP heads the sickest, its wait marked"
else
	nok "sickest: stalled QP first" "$(grep -A2 '^Sickest' "$TMP/c1")"
fi

# ------------------------------------------------------------ refreshes

# the wait of 0x22 grows by itself; the rate of 0x11 appears once it grows
w1=$(grep -E '^10\.0\.0\.3 .*!' "$TMP/c1" | grep -oE '[0-9]+!' | head -1)
$FILL --qp src=10.0.0.1,dst=10.0.0.2,qp=0x11,first_ns=1000,bytes=9000000,pkts=9000
if wait_for main '^10\.0\.0\.1 +10\.0\.0\.2 +0x11 +[1-9][0-9.]*k? +[1-9][0-9.]*M '; then
	ok "refreshes: the bytes written between captures show as pkt/s and bit/s"
else
	nok "refresh: rates of 0x11" "$(cap main | sed -n 4,8p)"
fi
sleep 0.4
w2=$(cap main | grep -E '^10\.0\.0\.3 .*!' | grep -oE '[0-9]+!' | head -1)
if [ -n "$w1" ] && [ -n "$w2" ] && [ "${w2%!}" -gt "${w1%!}" ]; then
	ok "refreshes: the stalled QP's wait grows ($w1 -> $w2 us)"
else
	nok "refresh: wait grows" "'$w1' -> '$w2'"
fi

# ------------------------------------------------------------ keys

# key NAME KEY REGEX DESC: pressing KEY makes the pane show REGEX
key() {
	$TM send-keys -t "$1" "$2"
	if wait_for "$1" "$3"; then
		ok "$4"
	else
		nok "$4" "$(cap "$1" | head -3)"
	fi
}
key main s '^Busiest QPs \(by rewinds/s\)' "s: the sort moves to rewinds"
key main p '^rocedp top .*PAUSED' "p: paused"
key main p '^rocedp top .*every 0\.3 s$' "p again: running"

# ------------------------------------------------------------ resize

$TM resize-window -t main -x 60 -y 14
sleep 0.5
cap main >"$TMP/c2"
if [ "$(wc -l <"$TMP/c2")" = 14 ] && grep -q '^q quit' <(tail -1 "$TMP/c2") &&
	grep -q '^Busiest QPs' "$TMP/c2" && grep -q '^Sickest QPs' "$TMP/c2" &&
	grep -qE '^lo ' "$TMP/c2" && [ -n "$(pid_of main)" ]; then
	ok "resize to 60x14: redrawn to fit, every table, the key line at the bottom"
else
	nok "resize small" "$(cat "$TMP/c2")"
fi
$TM resize-window -t main -x 130 -y 45
sleep 0.5
cap main >"$TMP/c3"
if [ "$(wc -l <"$TMP/c3")" = 45 ] && grep -q '^q quit' <(tail -1 "$TMP/c3") &&
	grep -qE '^lo ' "$TMP/c3" && grep -qE '^fd00::1 ' "$TMP/c3"; then
	ok "resize to 130x45: every table back"
else
	nok "resize large" "$(cat "$TMP/c3")"
fi

# ------------------------------------------------------------ quits

$TM send-keys -t main q
if msg=$(ended main 0); then
	ok "q: exit 0, process gone, terminal given back (alternate screen off, cursor on)"
else
	nok "q" "$msg"
fi

start term 80x24
wait_for term 'Ports \(' && kill -TERM "$(pid_of term)"
if msg=$(ended term 143); then
	ok "SIGTERM: dies of it (143), terminal given back"
else
	nok "SIGTERM" "$msg"
fi

start int 80x24
wait_for int 'Ports \(' && $TM send-keys -t int C-c
if msg=$(ended int 130); then
	ok "Ctrl-C: dies of SIGINT (130), terminal given back"
else
	nok "Ctrl-C" "$msg"
fi

# ------------------------------------------------------------ no terminal

if "$ROCEDP" top --once --interval 0.2 >"$TMP/once" 2>&1 &&
	grep -q '^Busiest QPs' "$TMP/once" && grep -qE '^10\.0\.0\.1 ' "$TMP/once" &&
	! grep -q $'\e' "$TMP/once"; then
	ok "--once: one plain frame to a pipe"
else
	nok "--once" "$(cat "$TMP/once")"
fi
if "$ROCEDP" -j top -n 2 --interval 0.2 --limit 2 >"$TMP/j" 2>&1 &&
	$PY "$ROOT/tests/cli_top.py" two_docs "$TMP/j" 2>"$TMP/err"; then
	ok "-j -n 2: two JSON documents with rates and ports"
else
	nok "-j -n 2" "$(cat "$TMP/j" "$TMP/err" | head)"
fi
"$ROCEDP" top </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 2 ] && [ "$(cat "$TMP/err")" = "rocedp: top: needs a terminal; --once or -j print to a pipe" ]; then
	ok "no terminal: exit 2, one line"
else
	nok "no terminal" "exit $rc: $(cat "$TMP/err")"
fi
for a in "--interval 0" "--interval x" "-n 0" "--sort size" "--limit 0"; do
	# shellcheck disable=SC2086
	"$ROCEDP" top $a --once >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q '^rocedp: top: ' "$TMP/err"; then
		ok "top $a: exit 2, '$(cat "$TMP/err")'"
	else
		nok "top $a" "exit $rc: $(cat "$TMP/err")"
	fi
done

t_done
