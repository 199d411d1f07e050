#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No circles between modules. A module is a file's directory and name
# without the extension (userspace/lib/attach/attach_xdp.c and .h are one
# module). A circle (A needs B, B needs A, directly or through others)
# means neither can be read, tested or linked without the other: the
# layers are gone.
#
# Two views, both must be free of circles:
#  - includes: A needs B when A's .c or .h includes B's header. Over
#    userspace/, bpf/, tools/ and tests/, with the include paths the
#    makefiles give (the including file's directory, then userspace/lib and
#    its subsystem folders, bpf, tests/harness/lbeval); generated headers (the skeletons) are skipped.
#  - links: A needs B when A's object uses a symbol B's object defines.
#    This sees what includes hide: a shared header declaring functions of
#    several files (rocegen.h once declared main.c's rg_err for send.c).
#    Over the rocedp objects in $OUT/user and rocegen's sources, compiled
#    here.
#
# First each checker is shown a circle it must find, then the tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
OUT=${OUT:-build}
PY=${PY:-/usr/bin/python3}
CC=${CC:-cc}

# circles inc ROOT | circles link OBJ...: one line per circle, exit 1 if any
circles() {
	"$PY" "$top/tests/include_circles.py" "$@"
}

# expect NAME WANT CMD...: WANT is "circle: ..." to find, or "none"
expect() {
	local name=$1 want=$2 out rc
	shift 2
	out=$("$@")
	rc=$?
	if [ "$want" = none ] && [ $rc -eq 0 ]; then
		echo "ok - $name"
	elif [ "$want" != none ] && [ $rc -ne 0 ] && grep -qF "$want" <<<"$out"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
	fi
	echo "$out" | sed 's/^/# /'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# includes: a -> b -> c -> a is found; the chain a -> b -> c is not
mkdir -p "$tmp/userspace" "$tmp/tools/x"
printf '#include "b.h"\n' >"$tmp/userspace/a.c"
printf '#include "c.h"\n' >"$tmp/userspace/b.c"
: >"$tmp/userspace/a.h" >"$tmp/userspace/b.h" >"$tmp/userspace/c.h"
printf '#include "a.h"\n' >"$tmp/userspace/c.c"
printf '#include "y.h"\n' >"$tmp/tools/x/m.c"
: >"$tmp/tools/x/y.h"
expect "includes: the checker finds a -> b -> c -> a" \
	"circle: userspace/a userspace/b userspace/c" circles inc "$tmp"
: >"$tmp/userspace/c.c"
expect "includes: the checker accepts the chain a -> b -> c" none \
	circles inc "$tmp"

# links: main calls run() in send, send calls main's err(): a circle
printf 'void err(void) {}\nvoid run(void);\nint main(void) { run(); return 0; }\n' >"$tmp/main.c"
printf 'void err(void);\nvoid run(void) { err(); }\n' >"$tmp/send.c"
$CC -c "$tmp/main.c" -o "$tmp/main.o" && $CC -c "$tmp/send.c" -o "$tmp/send.o"
expect "links: the checker finds main <-> send" "circle: main send" \
	circles link "$tmp/main.o" "$tmp/send.o"

expect "includes: no circle in userspace, bpf, tools, tests" none \
	circles inc "$top"

# rocedp as linked: every object of $OUT/user (main.c's too), those of
# the library in a folder per subsystem; only the sources' objects, so a
# stale one of a file since renamed is not taken for a module
objs=()
for f in userspace/cli/*.c userspace/lib/*/*.c; do
	o=${f#userspace/cli/}
	o=${o#userspace/lib/}
	[ -f "$OUT/user/${o%.c}.o" ] && objs+=("$OUT/user/${o%.c}.o")
done
if [ ${#objs[@]} -gt 0 ]; then
	expect "links: no circle among the rocedp objects" none \
		circles link "${objs[@]}"
else
	echo "not ok - links: no circle among the rocedp objects"
	echo "# $OUT/user/*.o: not built"
fi

# rocegen: its sources as rocegen.mk lists them, compiled here
mkdir -p "$tmp/rg"
rgsrcs=$(make -s --no-print-directory -f - print <<'EOF'
include tools/rocegen/rocegen.mk
print:
	@echo $(ROCEGEN_SRCS)
EOF
)
ok=1
libinc=(-Iuserspace/lib)
for d in userspace/lib/*/; do libinc+=("-I${d%/}"); done
for f in $rgsrcs; do
	$CC -std=gnu11 -D_GNU_SOURCE -Ibpf -I"$OUT" "${libinc[@]}" -Itools/rocegen \
		-c "$f" -o "$tmp/rg/$(basename "$f" .c).o" || ok=0
done
if [ $ok = 1 ]; then
	expect "links: no circle among the rocegen objects" none \
		circles link "$tmp"/rg/*.o
else
	echo "not ok - links: no circle among the rocegen objects"
	echo "# compiling rocegen's sources failed"
fi

# One header name, one file: a directory's own header is found before the
# -I paths, and -Ibpf comes before userspace/lib's, so a second "x.h"
# would be a different file depending on who includes it (userspace's
# maps.h was shadowed by bpf/maps.h outside userspace/lib; it is mapset.h).
dups=$(find bpf userspace tools/rocegen tests -name '*.h' \
	-not -path '*/build*' -printf '%f %h\n' | sort |
	awk '$1 == p { print pl; print } { p = $1; pl = $0 }' | sort -u)
if [ -z "$dups" ]; then
	echo "ok - header names: each names one file on the include paths"
else
	echo "not ok - header names: each names one file on the include paths"
	echo "$dups" | sed 's/^/# /'
fi
