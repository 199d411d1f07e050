#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What json-c accepts but a config must not:
#  * a key given twice in one object (json-c keeps the last without a word),
#    also when the two are spelled differently ("cnp" and "c\u006ep");
#  * a NUL character in a string or a key ("10.0.0.0/24\u0000junk" read as
#    10.0.0.0/24, the key "hash\u0000x" as hash);
#  * a file of millions of errors: at most 100 error lines, then one line
#    with the count of the rest.
# `config check` and `config load` share the parser; `config set` values
# are checked the same way (against maps pinned by bpftool in a private pin
# directory, as in tests/cli_config.sh, and left unchanged).
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
PIN=/sys/fs/bpf/rdjsont$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdjsont.XXXXXX)

cleanup() {
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_rocedp

# refused DESC JSON WANT: config check exits 1 with the line WANT
refused() {
	local desc=$1 json=$2 want=$3
	printf '%s' "$json" >"$TMP/c.json"
	"$ROCEDP" config check "$TMP/c.json" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ $rc = 0 ]; then
		nok "$desc: accepted" "$(cat "$TMP/out" "$TMP/err")"
	elif ! grep -qF -- "c.json:$want" "$TMP/err"; then
		nok "$desc: error line" "want: c.json:$want
got: $(cat "$TMP/err")"
	else
		ok "$desc: refused ($(head -1 "$TMP/err" | sed "s|$TMP/||"))"
	fi
}

accepted() {
	local desc=$1 json=$2
	printf '%s' "$json" >"$TMP/c.json"
	if "$ROCEDP" config check "$TMP/c.json" >"$TMP/out" 2>&1; then
		ok "$desc: valid"
	else
		nok "$desc: refused" "$(cat "$TMP/out")"
	fi
}

# ------------------------------------------------------------ duplicate keys

refused "duplicate top-level key, both values valid" \
	'{"hash": {"mode": "qp"}, "hash": {"mode": "flowlet"}}' \
	'1:26: key "hash" is given twice in one object (first at 1:2)'
refused "duplicate key spelled with an escape" \
	'{"qos": {"cnp": {"dscp": 48}, "c\u006ep": {"dscp": 40}}}' \
	'1:31: key "c\u006ep" is given twice in one object (first at 1:10)'
refused "duplicate key inside an array element" \
	'{"routes": [{"prefix": "10.0.0.0/24", "local": true},
 {"prefix": "10.1.0.0/24", "local": true, "prefix": "10.2.0.0/24"}]}' \
	'2:43: key "prefix" is given twice in one object (first at 2:3)'
refused "duplicate key in single quotes (json-c's lenient syntax)" \
	"{'hash': {'mode': 'qp'}, \"hash\": {\"mode\": \"qp\"}}" \
	'1:26: key "hash" is given twice in one object (first at 1:2)'
accepted "the same key in different objects, keys inside comments and strings" \
	'{ /* "hash": { */ "hash": {"mode": "qp"}, "flowlet": {"rtt_us": 22},
  "qos": {"cnp": {"dscp": 48}, "ack": {"dscp": 46}} // "hash"
}'
accepted "a string value equal to a key" \
	'{"hash": {"mode": "qp"}, "cts_rules": [{"name": "hash", "opcodes": ["send_only"]}]}'

# ------------------------------------------------------------ NUL characters

refused "NUL in a prefix string" \
	'{"routes": [{"prefix": "10.0.0.0/24\u0000junk", "local": true}]}' \
	'1:24: a string holds a NUL character (\u0000)'
refused "NUL in a key" '{"hash\u0000x": {"mode": "qp"}}' \
	'1:2: a key holds a NUL character (\u0000)'
refused "NUL in a name" '{"hash": {"mode": "qp\u0000-only"}}' \
	'1:19: a string holds a NUL character (\u0000)'
# "\\u0000" is a backslash and "u0000": the name is refused for its
# backslash, not for a NUL
printf '%s' '{"cts_rules": [{"name": "a\\u0000b", "opcodes": ["send_only"]}]}' >"$TMP/c.json"
"$ROCEDP" config check "$TMP/c.json" >/dev/null 2>"$TMP/err"
if grep -q 'NUL' "$TMP/err" || ! grep -q 'cts_rules\[0\].name:.*names are' "$TMP/err"; then
	nok "an escaped backslash before u0000 is no NUL" "$(cat "$TMP/err")"
else
	ok "an escaped backslash before u0000 is no NUL (the name is refused for its backslash)"
fi

# ------------------------------------------------------------ error cap

# 10 MB of errors: 5M array elements that are no route
$PY -c 'import sys; sys.stdout.write("{\"routes\": [" + ",".join(["1"] * (5 << 20)) + "]}")' \
	>"$TMP/errors.json"
start=$(date +%s%N)
"$ROCEDP" config check "$TMP/errors.json" >/dev/null 2>"$TMP/err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
lines=$(wc -l <"$TMP/err")
if [ $rc = 1 ] && [ "$lines" = 101 ] &&
	[ "$(tail -1 "$TMP/err")" = "rocedp: config: ... and 5242780 more errors (only the first 100 are shown)" ]; then
	ok "10 MB file of 5242880 errors: 100 error lines and the count of the rest (${ms} ms)"
else
	nok "10 MB file of errors: capped" "exit $rc, $lines lines, ${ms} ms; last: $(tail -1 "$TMP/err")"
fi
$PY -c 'import sys; sys.stdout.write("{" + ",".join(["\"hash\": {}"] * 1001) + "}")' \
	>"$TMP/dups.json"
"$ROCEDP" config check "$TMP/dups.json" >/dev/null 2>"$TMP/err"
if [ "$(wc -l <"$TMP/err")" = 101 ] && grep -q '\.\.\. and 900 more errors' "$TMP/err"; then
	ok "1001 times the same key: 100 error lines and '... and 900 more errors'"
else
	nok "1001 times the same key: capped" "$(wc -l <"$TMP/err") lines; $(tail -1 "$TMP/err")"
fi

# ------------------------------------------------------------ config set

if [ "$(id -u)" != 0 ]; then
	echo "# not root: config set tests skipped"
else
	if pin_maps "$PIN/maps"; then
		echo '{}' >"$TMP/empty.json"
		"$ROCEDP" config load "$TMP/empty.json" >/dev/null 2>&1
		"$ROCEDP" -j config show >"$TMP/before" 2>&1
		for v in 'hash.mode="qp\u0000-only"' 'hash={"mode": "qp", "mode": "spray"}'; do
			"$ROCEDP" config set "$v" >"$TMP/out" 2>"$TMP/err"
			rc=$?
			"$ROCEDP" -j config show >"$TMP/after" 2>&1
			if [ $rc = 0 ]; then
				nok "config set $v: accepted" "$(diff "$TMP/before" "$TMP/after")"
			elif ! cmp -s "$TMP/before" "$TMP/after"; then
				nok "config set $v: running config changed"
			elif ! grep -qE 'NUL character|given twice' "$TMP/err"; then
				nok "config set $v: error line" "$(cat "$TMP/err")"
			else
				ok "config set $v: refused ($(head -1 "$TMP/err")), running config unchanged"
			fi
		done
	fi
fi

t_done
