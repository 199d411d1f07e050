#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp replay --config` knows each port's MAC from the config (the
# smac of the members that leave by it), as the live port knows its own:
# a unicast frame arriving on that port for another host's MAC is passed
# (other_host), one for the port's MAC is routed. A port the config does
# not name has no check (nothing to learn it from); members of one port
# that disagree on their smac give none either.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
TMP=$(mktemp -d /tmp/rdrepl2.XXXXXX)
t_cleanup 'rm -rf "$TMP"'
trap 'exit 1' INT TERM

# lo (ifindex 1) is the port the frames arrive on (a test run needs a
# real receiving device); the group's members leave by it from 02:aa::01
cat >"$TMP/cfg.json" <<'EOF'
{"features": ["forward"],
 "groups": [{"id": 1, "members": [
   {"ifindex": 1, "smac": "02:aa:00:00:00:01", "dmac": "02:00:00:00:00:01"},
   {"ifindex": 1, "smac": "02:aa:00:00:00:01", "dmac": "02:00:00:00:00:02"}]}],
 "routes": [{"prefix": "10.1.0.0/16", "group": 1}]}
EOF
# the same, the two members disagreeing on the port's MAC
sed 's/"smac": "02:aa:00:00:00:01", "dmac": "02:00:00:00:00:02"/"smac": "02:aa:00:00:00:09", "dmac": "02:00:00:00:00:02"/' \
	"$TMP/cfg.json" >"$TMP/clash.json"

# frame 1 to the port's MAC, frame 2 to another host's (both RoCEv2 to
# 10.1.0.2, TTL 64), frame 3 broadcast
$PY "$ROOT/tests/replay_l2.py" pcap "$TMP/in.pcap"

# verdicts CONFIG IFINDEX: "verdict/reason" of each frame, one line
verdicts() {
	"$ROCEDP" replay --in "$TMP/in.pcap" --config "$1" \
		--ingress-ifindex "$2" --verdicts - 2>"$TMP/err" |
		$PY -c 'import json, sys
print(" ".join("%s/%s" % (j["verdict"], j["reason"])
               for j in map(json.loads, sys.stdin)))'
}

got=$(verdicts "$TMP/cfg.json" 1)
want="redirect/none pass/other_host pass/mcast"
if [ "$got" = "$want" ]; then
	ok "replay on a port the config's members leave by: the port's MAC routed, another host's passed (other_host), as live ($got)"
else
	nok "replay learns the port's MAC from the members' smac" \
		"got:  $got
want: $want
$(cat "$TMP/err")"
fi

got=$(verdicts "$TMP/clash.json" 1)
want="redirect/none redirect/none pass/mcast"
if [ "$got" = "$want" ]; then
	ok "members of one port that disagree on its MAC: no check ($got)"
else
	nok "a port whose members disagree on the smac gets no MAC" \
		"got:  $got
want: $want
$(cat "$TMP/err")"
fi

t_done
