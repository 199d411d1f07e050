#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every rocedp example in README.md and docs/*.md runs as written.
#
# The examples are the lines of fenced code blocks that run rocedp, and the
# inline `rocedp ...` spans that start with it. Each is one of:
#   run     - run in a test fabric and must exit 0: a network namespace of
#             our own with veth ports named as the docs name them (eth1-3,
#             up1, up2, rdk0), its own pin dir (automatic per netns,
#             docs/netns.md), the example's files (capture.pcap, cfg.json,
#             /etc/rocedp/rocedp.json through /etc/netns/NS/) in a scratch
#             cwd, and the build's rocedp first in PATH. A leading
#             `ip netns exec NAME` runs in our namespace instead: the name
#             is the reader's. Before each, the state it needs: detached for
#             attach, else attached with docs/examples/leaf.json loaded.
#   syntax  - a usage line (placeholders: FILE, [..], <..>): its object must
#             exist and `rocedp OBJECT help` must work.
#   name    - a bare `rocedp OBJECT` in prose: the object must exist.
#   allowed - cannot run here; listed below with the reason.
# An example the rules cannot place fails: add it to the docs correctly or
# to the allow-list with a reason.
#
# Output: TAP-like "ok N - ..." lines. Root. About 20 s.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh" # OUT, ROCEDP, PY, ok, nok, pin_maps
ROCEDP=$(readlink -f "$ROCEDP")
NS=${T_NS_PREFIX:-O_}doc$$
TMP=$(mktemp -d /tmp/rddoc.XXXXXX)
WORK=$TMP/work

# glob over the example's text | reason it cannot run here
ALLOWED=$(
	cat <<'EOF_ALLOW'
*rocedp-lab exec *|needs the lab fabric (make lab-up); selftests run the lab
*bfup0..3*|the bench fabric's ports (tests/harness/bench/bench.sh builds it), shorthand for bfup0 bfup1 bfup2 bfup3
*bfupN *|the bench fabric's ports; N is each uplink
rocedp ecn set upN *|the lab's uplinks; N is each (lab.md runs the same with up1)
rocedp lbeval|bench.sh's fallback name for the evaluator, not an object of this rocedp
rocedp replay --config|names one option of replay in prose; README shows the whole command
EOF_ALLOW
)

made_etc=0
cleanup() {
	local p
	for p in $(ip netns pids "$NS" 2>/dev/null); do
		kill "$p" 2>/dev/null # only ours: the sync daemons started here
	done
	ip netns del "$NS" 2>/dev/null
	rm -rf "/etc/netns/$NS" "$TMP"
	[ "$made_etc" = 1 ] && rmdir /etc/rocedp 2>/dev/null
}
t_cleanup cleanup

# every example: FILE:LINE, CLASS, REASON, TEXT (separated by \x1f)
extract() {
	ALLOWED="$ALLOWED" "$PY" "$ROOT/tests/doc_examples.py" extract "$ROOT" "$ROCEDP"
}

# and the test hook the kernel test documents, which help hides on purpose
objects=" $("$ROCEDP" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | tr '\n' ' ') selftest-load "
# the object of an example: the word after rocedp, past global options
object_of() {
	sed -E 's/^(ip netns exec [^ ]+ )?([^ ]*\/)?rocedp( +(-j|-p|--json|--pretty|--pin-dir [^ ]+))* +([a-z-]+).*/\5/' <<<"$1"
}

in_ns() { # CMD (a shell line) in our namespace, from $WORK, the build's rocedp first
	ip netns exec "$NS" env PATH="$(dirname "$ROCEDP"):$PATH" \
		bash -o pipefail -c "cd '$WORK' && $1"
}

# the state an example starts from; an attach or detach example leaves
# another (dirty=1), and the next example sets it up again
dirty=1
prepare() { # OBJECT
	if [ "$1" = attach ]; then
		in_ns "rocedp detach --all" >/dev/null 2>&1
		return 0
	fi
	[ "$dirty" = 0 ] && return 0
	in_ns "rocedp detach --all >/dev/null 2>&1
		rocedp attach eth1 eth2 eth3 up1 up2 rdk0 --mode generic &&
		rocedp config load /etc/rocedp/rocedp.json" && dirty=0
}

if [ ! -x "$ROCEDP" ]; then
	nok "rocedp built ($ROCEDP)"
	exit 1
fi
mapfile -t EXAMPLES < <(extract)
[ "${#EXAMPLES[@]}" -ge 20 ] && ok "found ${#EXAMPLES[@]} examples" ||
	nok "found ${#EXAMPLES[@]} examples (expected 20 or more)"

# the fabric
mkdir -p "$WORK" "/etc/netns/$NS/rocedp"
if [ ! -d /etc/rocedp ]; then
	mkdir /etc/rocedp && made_etc=1 # the mount point for ip netns exec
fi
cp "$ROOT/docs/examples/leaf.json" "/etc/netns/$NS/rocedp/rocedp.json"
cp "$ROOT/docs/examples/leaf.json" "$WORK/cfg.json"
"$PY" "$ROOT/tools/demo/mkcapture.py" "$WORK/capture.pcap" >/dev/null 2>&1
fab=0
ip netns add "$NS" && ip -n "$NS" link set lo up && fab=1
for p in eth1 eth2 eth3 up1 up2 rdk0; do
	ip -n "$NS" link add "$p" type veth peer name "x$p" &&
		ip -n "$NS" link set "$p" up && ip -n "$NS" link set "x$p" up || fab=0
done
[ "$fab" = 1 ] && [ -s "$WORK/capture.pcap" ] &&
	ok "test fabric: $NS, 6 veth ports, capture.pcap, /etc/rocedp/rocedp.json" || {
	nok "test fabric"
	exit 1
}

for e in "${EXAMPLES[@]}"; do
	IFS=$'\x1f' read -r loc class why text <<<"$e"
	obj=$(object_of "$text")
	case $class in
	allowed)
		ok "$loc: not run here: $text # $why"
		;;
	name)
		[[ $objects == *" $obj "* ]] && ok "$loc: $text: an object" ||
			nok "$loc: $text: no such object" "objects:$objects"
		;;
	syntax)
		if [[ $objects == *" $obj "* ]] && "$ROCEDP" "$obj" help >/dev/null 2>&1; then
			ok "$loc: usage of $obj: $text"
		else
			nok "$loc: usage of an unknown object '$obj': $text"
		fi
		;;
	run)
		cmd=$(sed -E 's/^ip netns exec [^ ]+ //' <<<"$text")
		if ! prepare "$obj" >"$TMP/prep.out" 2>&1; then
			nok "$loc: $text (the state before it)" "$(cat "$TMP/prep.out")"
			continue
		fi
		# sync without --once or --daemon runs until stopped: still
		# running after 2 s is what it should do
		limit=20 forever=0
		if [ "$obj" = sync ] && ! [[ $text =~ --once|--daemon ]]; then
			limit=2 forever=1
		fi
		timeout "$limit" bash -c "$(declare -f in_ns); NS='$NS' WORK='$WORK' \
			ROCEDP='$ROCEDP' in_ns \"\$1\"" _ "$cmd" >"$TMP/out" 2>&1
		rc=$?
		case $obj in attach | detach) dirty=1 ;; esac
		if [ "$rc" = 0 ] || { [ "$forever" = 1 ] && [ "$rc" = 124 ]; }; then
			ok "$loc: $text"
		else
			nok "$loc: $text" "exit $rc: $(tail -n 5 "$TMP/out")"
		fi
		;;
	*) nok "$loc: unclassified: $text" ;;
	esac
done
in_ns "rocedp detach --all" >/dev/null 2>&1

t_done
