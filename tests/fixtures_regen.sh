#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The committed fixtures (tests/fixtures/*.fix) are what the generator
# (tests/gen_fixtures.py, with tests/fixgen/) writes today: regenerated into
# a temporary directory and compared file by file. A fixture edited by hand,
# or a generator change committed without its output, fails here.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
TMP=$(mktemp -d /tmp/rdregen.XXXXXX)
t_cleanup 'rm -rf "$TMP"'

if ! "$PY" "$ROOT/tests/gen_fixtures.py" "$TMP/fix" >"$TMP/gen.out" 2>&1; then
	nok "tests/gen_fixtures.py runs" "$(tail -5 "$TMP/gen.out")"
	t_done
	exit 1
fi
ok "tests/gen_fixtures.py runs: $(tail -1 "$TMP/gen.out")"

committed=$(cd "$ROOT/tests/fixtures" && ls -- *.fix)
generated=$(cd "$TMP/fix" && ls -- *.fix)
[ "$committed" = "$generated" ] && ok "the same $(echo "$generated" | wc -l) fixture files" ||
	nok "fixture files differ (make fixtures-gen)" \
		"$(diff <(echo "$committed") <(echo "$generated"))"

for f in $generated; do
	[ -f "$ROOT/tests/fixtures/$f" ] || continue
	if cmp -s "$TMP/fix/$f" "$ROOT/tests/fixtures/$f"; then
		ok "$f: as generated"
	else
		nok "$f: differs from the generator's output (make fixtures-gen, review the diff)" \
			"$(diff "$ROOT/tests/fixtures/$f" "$TMP/fix/$f" | head -20)"
	fi
done

t_done
