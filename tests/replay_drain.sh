#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Draining a member of an unequal group ("drain": true keeps its weight,
# the member gets weight 0) moves no flow of another member, through
# `rocedp replay --config`: 1500 QP flows over 6 members weighted
# 8,8,8,3,1,1, each member drained in turn. Plain weight 0 changes the
# weights layer and moved 42-79 flows per member before "drain" existed.
# Also: "drain" without a weight to keep is refused.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
TMP=$(mktemp -d /tmp/rddrain.XXXXXX)
t_cleanup 'rm -rf "$TMP"'
trap 'exit 1' INT TERM
H="$ROOT/tests/replay_drain.py"
FLOWS=1500

# members CONFIG: each frame's member slot, one per line
members() {
	"$ROCEDP" replay --in "$TMP/in.pcap" --config "$1" \
		--ingress-ifindex 1 --out "$TMP/out.pcap" >/dev/null 2>"$TMP/err" &&
		$PY "$H" members "$TMP/out.pcap"
}

$PY "$H" gen $FLOWS "$TMP/in.pcap"
$PY "$H" cfg "$TMP/all.json" -1
members "$TMP/all.json" >"$TMP/all" || true
n=$(wc -l <"$TMP/all")
if [ "$n" -ne $FLOWS ]; then
	nok "replay of $FLOWS flows over 8,8,8,3,1,1" \
		"$n frames sent; $(cat "$TMP/err")"
	t_done
	exit
fi

moved=0 lost=0 bad=""
for x in 0 1 2 3 4 5; do
	$PY "$H" cfg "$TMP/d$x.json" $x
	if ! members "$TMP/d$x.json" >"$TMP/d$x"; then
		bad="$bad drain $x: $(cat "$TMP/err")"
		continue
	fi
	# a flow of member x must leave it; a flow of another must stay
	read -r m l < <(paste -d' ' "$TMP/all" "$TMP/d$x" | awk -v x="$x" '
		$1 != x && $2 != $1 { m++ } $2 == x { l++ }
		END { print m + 0, l + 0 }')
	moved=$((moved + m)) lost=$((lost + l))
	[ "$(wc -l <"$TMP/d$x")" -eq $FLOWS ] || bad="$bad drain $x: frames lost"
done
if [ -z "$bad" ] && [ "$moved" -eq 0 ] && [ "$lost" -eq 0 ]; then
	ok "replay, $FLOWS QP flows over 8,8,8,3,1,1, each member drained in turn: 0 flows of the other members moved, none left on the drained one"
else
	nok "draining a member moves no other flow" \
		"moved $moved, still on the drained member $lost;$bad"
fi

printf '{"groups": [{"id": 1, "members": [{"ifindex": 1, "dmac": "02:00:00:00:00:01", "smac": "02:aa:00:00:00:01", "weight": 0, "drain": true}]}]}\n' >"$TMP/w0.json"
if "$ROCEDP" config check "$TMP/w0.json" >"$TMP/out" 2>&1; then
	nok "drain without a weight is refused" "$(cat "$TMP/out")"
else
	ok "config: drain with weight 0 refused ($(head -1 "$TMP/out"))"
fi
t_done
