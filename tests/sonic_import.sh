#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocedp sonic import (docs/sonic.md). For every case:
# the document printed equals tests/sonic/NAME.expected, the warnings
# (stderr) equal NAME.warnings line for line (so their count too),
# `rocedp config check` accepts the document (its ports exist as veths in a
# private network namespace, as the kernel interfaces do on a SONiC box),
# and --strict refuses a document with warnings and prints nothing. Every
# tests/sonic/bad/*.json is refused with exactly the one error line of its
# .error file and nothing on stdout.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
DIR=$ROOT/tests/sonic
TMP=$(mktemp -d /tmp/rdsonic.XXXXXX)
t_cleanup 'rm -rf "$TMP"'
check() { # DESC CMD...: ok when CMD succeeds
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
same() { # DESC EXPECTED-FILE GOT-FILE
	if diff -u "$2" "$3" >"$TMP/diff"; then
		ok "$1"
	else
		nok "$1"
		sed 's/^/# /' "$TMP/diff" | head -n 40
	fi
}

# config check of FILE with its ecn.ports as devices in a private netns
config_check() { # FILE
	local ports
	ports=$($PY -c 'import json,sys
print(" ".join(json.load(open(sys.argv[1])).get("ecn", {}).get("ports", {})))' "$1")
	unshare -n sh -c '
		f=$1; shift; i=0
		for p in "$@"; do
			ip link add "$p" type veth peer name "sp$i" || exit 3
			i=$((i + 1))
		done
		'"$ROCEDP"' config check "$f"' sh "$1" $ports >"$TMP/check" 2>&1
}

# NAME INPUT [ARGS...]: NAME.expected and NAME.warnings in tests/sonic
import_case() {
	local name=$1 in=$DIR/$2 rc nw
	shift 2
	"$ROCEDP" sonic import "$in" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	check "$name: import exits 0" [ "$rc" -eq 0 ]
	same "$name: document as expected" "$DIR/$name.expected" "$TMP/$name.out"
	same "$name: warnings as expected" "$DIR/$name.warnings" "$TMP/$name.err"
	if [ "$can_netns" = 1 ]; then
		if config_check "$TMP/$name.out"; then
			ok "$name: rocedp config check accepts it"
		else
			nok "$name: rocedp config check accepts it"
			sed 's/^/# /' "$TMP/check"
		fi
	else
		ok "$name: config check # skip no root/unshare"
	fi
	nw=$(wc -l <"$DIR/$name.warnings")
	"$ROCEDP" sonic import "$in" "$@" --strict >"$TMP/$name.sout" 2>"$TMP/$name.serr"
	rc=$?
	if [ "$nw" -gt 0 ]; then
		check "$name: --strict refuses $nw warnings" [ "$rc" -ne 0 ]
		check "$name: --strict prints no document" [ ! -s "$TMP/$name.sout" ]
		check "$name: --strict says why" grep -q "refused: $nw warning" "$TMP/$name.serr"
	else
		check "$name: --strict accepts a document without warnings" [ "$rc" -eq 0 ]
		same "$name: --strict prints the same document" "$DIR/$name.expected" "$TMP/$name.sout"
	fi
}

can_netns=0
if [ "$(id -u)" = 0 ] && unshare -n ip link add sq0 type veth peer name sq1 2>/dev/null; then
	can_netns=1
fi

import_case default default.json
import_case default_ports default.json --ports Ethernet0=swp1,Ethernet4=swp2
import_case qp_only qp_only.json
import_case spray spray.json
import_case fallback fallback.json
import_case unsupported unsupported.json
# ARS as the HLD rev 1.4 lays it out: sonic-swss tests/test_ars.py's own
# configuration (upper-case PER_FLOWLET_QUALITY, flowlet_idle_time 10000,
# interfaces naming an object that does not exist), objects chosen per
# interface, and the global selector with the default object only
import_case ars_swss ars_swss.json
import_case ars_iface ars_iface.json
import_case ars_global ars_global.json
# rocedp's own tables (ROCEDP|global, ROCEDP_QOS, ROCEDP_CTS_RULE), over
# what SWITCH_HASH gave
import_case rocedp_table rocedp_table.json
# packet trimming: BUFFER_PROFILE.packet_discard_action bound through
# BUFFER_QUEUE, SWITCH_TRIMMING|GLOBAL with from-tc: each port's DSCP from
# its TC_TO_DSCP_MAP (hosts 10, fabric 12), the trimmed queues' DSCPs
import_case trim trim.json

# a malformed document: one error line, nothing on stdout, exit non-zero
for f in "$DIR"/bad/*.json; do
	b=$(basename "$f" .json)
	"$ROCEDP" sonic import "$f" >"$TMP/bad.out" 2>"$TMP/bad.err"
	rc=$?
	sed "s|@FILE@|$f|" "$DIR/bad/$b.error" >"$TMP/bad.want"
	if [ "$rc" -ne 0 ] && [ ! -s "$TMP/bad.out" ] && diff -q "$TMP/bad.want" "$TMP/bad.err" >/dev/null; then
		ok "bad/$b: refused with one error line"
	else
		nok "bad/$b: refused with one error line (exit $rc)"
		sed 's/^/# got: /' "$TMP/bad.err"
		sed 's/^/# want: /' "$TMP/bad.want"
	fi
done

bad_ports() { # DESC PORTS
	"$ROCEDP" sonic import "$DIR/default.json" --ports "$2" >"$TMP/p.out" 2>"$TMP/p.err"
	if [ $? -ne 0 ] && [ ! -s "$TMP/p.out" ] && [ "$(wc -l <"$TMP/p.err")" -eq 1 ] &&
		grep -q -- '--ports' "$TMP/p.err"; then
		ok "--ports $1 refused with one line"
	else
		nok "--ports $1 refused with one line"
		sed 's/^/# /' "$TMP/p.err"
	fi
}
bad_ports "without =" Ethernet0
bad_ports "a device twice" Ethernet0=a,Ethernet4=a
bad_ports "a port twice" Ethernet0=a,Ethernet0=b
bad_ports "a too long device" Ethernet0=abcdefghijklmnopq

"$ROCEDP" sonic import >/dev/null 2>&1
check "import without a file exits 2" [ $? -eq 2 ]
"$ROCEDP" sonic frobnicate >/dev/null 2>&1
check "an unknown verb exits 2" [ $? -eq 2 ]
"$ROCEDP" sonic import "$TMP/none.json" >"$TMP/n.out" 2>&1
check "a missing file is refused" [ $? -ne 0 ]

# a key with a newline cannot split a warning or forge another line
printf '{"PFC_WD": {"Ethernet0\\nrocedp: forged": {"action": "drop"}}}' >"$TMP/nl.json"
"$ROCEDP" sonic import "$TMP/nl.json" >/dev/null 2>"$TMP/nl.err"
check "a newline in a key stays on one warning line" \
	[ "$(wc -l <"$TMP/nl.err")" -eq 1 ]
check "the newline shows as '?'" grep -qF 'Ethernet0?rocedp: forged' "$TMP/nl.err"

# a 129 KB QUEUE key (10000 ports times queues 0-255) once took 623 MB:
# refused at the cap, within 256 MB of address space
$PY "$ROOT/tests/sonic_import.py" big_queue "$TMP/big.json"
(ulimit -v 262144 && exec "$ROCEDP" sonic import "$TMP/big.json") >"$TMP/big.out" 2>"$TMP/big.err"
rc=$?
[ $rc -eq 1 ] && [ ! -s "$TMP/big.out" ] && grep -q "over 65536 port/queue pairs" "$TMP/big.err"
r=$?
check "a $(($(stat -c %s "$TMP/big.json") / 1024)) KB QUEUE expansion refused in 256 MB (exit $rc): $(head -c 120 "$TMP/big.err")" \
	[ $r -eq 0 ]
