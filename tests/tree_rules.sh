#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Rules of the tree that no compiler checks:
#  * no file over 1000 lines, except the generated fixtures
#    (tests/fixtures/*): a file that long holds more than one concept;
#  * no references to an issue tracker ("issue 17", "issues 3 and 9"): the
#    tracker is not in the repository, so such a reference explains
#    nothing to its reader. Say the reason in words instead;
#  * a function-like macro of userspace/ (ARRAY_LEN) is defined in one
#    file: copies drift apart;
#  * no shell script under tests/, selftests/ or tools/ embeds a Python
#    block (heredoc or multi-line `python3 -c`) over PY_MAX lines: Python
#    lives in .py files (tests/py_in_shell.py finds the blocks;
#    tests/py_in_shell.allow lists what is left to move, and may only
#    shrink).
# Over the files git knows (tracked, and new ones not ignored), or every
# file outside build*/ and .git when the tree is no git checkout.
# Each checker is first shown a planted offender it must find.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
TMP=$(mktemp -d /tmp/rdtree.XXXXXX)
t_cleanup 'rm -rf "$TMP"'

MAX_LINES=1000

# files DIR: the files to check, one per line, relative to DIR
files() {
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$1" ls-files --cached --others --exclude-standard
	else
		(cd "$1" && find . -path './build*' -prune -o -path ./.git -prune \
			-o -type f -print | sed 's|^\./||')
	fi
}

# too_long DIR: "LINES FILE" for each file over MAX_LINES, fixtures excepted
too_long() {
	files "$1" | grep -v '^tests/fixtures/' | while IFS= read -r f; do
		[ -f "$1/$f" ] || continue # deleted, not yet committed
		n=$(wc -l <"$1/$f")
		[ "$n" -gt "$MAX_LINES" ] && echo "$n $f"
	done
}

# tracker_refs DIR: "FILE:LINE: text" for each reference to the tracker
tracker_refs() {
	files "$1" | grep -v '^tests/fixtures/' | grep -v '^tests/tree_rules.sh$' |
		(cd "$1" && xargs -d '\n' grep -nIiE '\bissues? *#?[0-9]+' -- 2>/dev/null)
}

# macro_dups DIR: "NAME FILE..." for each function-like macro of DIR's
# userspace/ that more than one file defines
macro_dups() {
	(cd "$1" && files . | grep -E '^userspace/.*\.[ch]$' |
		xargs -d '\n' grep -oE '^#[[:space:]]*define [A-Za-z_0-9]+\(' -- 2>/dev/null) |
		sed -E 's/^([^:]*):#[[:space:]]*define ([A-Za-z_0-9]+)\(/\2 \1/' | sort -u |
		awk '$1 == p { l = l " " $2; n++; next }
			{ if (n > 1) print l; p = $1; l = $0; n = 1 }
			END { if (n > 1) print l }'
}

PY_MAX=3
# shell_files DIR: the shell scripts under tests/, selftests/, tools/
shell_files() {
	(cd "$1" && files . | grep -E '^(tests|selftests|tools)/' | grep -v '^tests/fixtures/' |
		while IFS= read -r f; do
			[ -f "$f" ] || continue
			case "$f" in
			*.sh | *.bash) echo "$f" ;;
			*.py | *.c | *.h | *.md | *.json | *.yaml | *.txt) ;;
			*) head -n1 "$f" | grep -qE '^#!.*\b(ba)?sh\b' && echo "$f" ;;
			esac
		done)
}

# py_blocks DIR [ALLOW]: the Python blocks over PY_MAX lines in DIR's
# shell scripts, beyond what ALLOW still permits
py_blocks() {
	(cd "$1" && shell_files . | xargs -d '\n' /usr/bin/python3 "$ROOT/tests/py_in_shell.py" \
		--max $PY_MAX ${2:+--allow "$2"})
}

# the checkers find what they must
mkdir -p "$TMP/plant/tests/fixtures"
seq 1 $((MAX_LINES + 1)) >"$TMP/plant/long.txt"
seq 1 $MAX_LINES >"$TMP/plant/fits.txt"
seq 1 5000 >"$TMP/plant/tests/fixtures/big.fix"
printf 'fixed in issue 17\n' >"$TMP/plant/a.c"
printf 'see issues 3 and 9\n' >"$TMP/plant/b.md"
printf 'no tracker here; tissue 4 is not one\n' >"$TMP/plant/c.md"
mkdir -p "$TMP/plant/userspace/x"
printf '#define ARRAY_LEN(a) 1\n#define ONCE(a) 1\n' >"$TMP/plant/userspace/x/p.h"
printf '#define ARRAY_LEN(a) 2\n' >"$TMP/plant/userspace/q.c"
mkdir -p "$TMP/plant/tests" "$TMP/plant/tools"
printf 'python3 - <<EOF\n1\n2\n3\n4\nEOF\n$PY - "$a" <<-PY\n\t1\n\t2\n\t3\n\tPY\n' >"$TMP/plant/tests/h.sh"
printf '#!/bin/bash\nx=$(/usr/bin/python3 -c "\n1\n2\n3\n4\n")\ncat <<EOF\n1\n2\n3\n4\nEOF\n' >"$TMP/plant/tools/run"
printf 'python3 - <<EOF\n1\n2\n3\n4\n5\nEOF\n' >"$TMP/plant/tests/k.sh"
printf 'tests/k.sh 5\n' >"$TMP/plant/allow"
got=$(py_blocks "$TMP/plant" "$TMP/plant/allow" | sort | tr '\n' ' ')
[ "$got" = "tests/h.sh:1: 4 lines of Python (heredoc) tools/run:2: 4 lines of Python (python -c) " ] &&
	ok "planted: Python blocks over $PY_MAX lines in shell are found, shorter, allowed and non-Python ones are not" ||
	nok "planted: py_blocks finds h.sh:1 and run:2 only" "$got"
printf 'python3 - <<EOF\n1\n2\n3\n4\n5\n6\nEOF\n' >"$TMP/plant/tests/k.sh"
got=$(py_blocks "$TMP/plant" "$TMP/plant/allow" | grep -c k.sh)
[ "$got" = 2 ] && ok "planted: an allowed file that grows its Python is found" ||
	nok "planted: py_blocks finds k.sh grown past its allowance" "$got"
got=$(too_long "$TMP/plant")
[ "$got" = "$((MAX_LINES + 1)) long.txt" ] && ok "planted: a file of $((MAX_LINES + 1)) lines is found, one of $MAX_LINES and a fixture are not" ||
	nok "planted: too_long finds exactly long.txt" "$got"
got=$(tracker_refs "$TMP/plant" | cut -d: -f1 | sort | tr '\n' ' ')
[ "$got" = "a.c b.md " ] && ok "planted: tracker references are found, nothing else" ||
	nok "planted: tracker_refs finds a.c and b.md" "$got"
got=$(macro_dups "$TMP/plant")
[ "$got" = "ARRAY_LEN userspace/q.c userspace/x/p.h" ] &&
	ok "planted: a macro defined in two files is found, one defined once is not" ||
	nok "planted: macro_dups finds ARRAY_LEN in q.c and p.h" "$got"

# the tree
got=$(too_long "$ROOT")
[ -z "$got" ] && ok "no file over $MAX_LINES lines (tests/fixtures excepted)" ||
	nok "files over $MAX_LINES lines: split them by concern" "$got"
got=$(tracker_refs "$ROOT")
[ -z "$got" ] && ok "no tracker references in the tree" ||
	nok "tracker references: say the reason in words" "$got"

got=$(py_blocks "$ROOT" "$ROOT/tests/py_in_shell.allow")
[ -z "$got" ] && ok "no Python block over $PY_MAX lines in shell scripts (beyond tests/py_in_shell.allow)" ||
	nok "Python embedded in shell: move it to a .py file next to its caller" "$got"

got=$(macro_dups "$ROOT")
[ -z "$got" ] && ok "each function-like macro of userspace/ is defined in one file" ||
	nok "macros defined in more than one file: keep one" "$got"

t_done
