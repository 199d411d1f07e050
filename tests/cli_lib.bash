# SPDX-License-Identifier: GPL-2.0
# Sourced by the CLI suites in tests/ (not a suite: the runner takes
# tests/*.sh only). Needs ROOT set; pin_maps needs TMP too.

# OUT is the build dir (default build, relative to ROOT); the binary under
# test is the one in it unless ROCEDP names another.
OUT=${OUT:-build}
case $OUT in /*) ;; *) OUT=$ROOT/$OUT ;; esac
ROCEDP=${ROCEDP:-$OUT/rocedp}
PY=/usr/bin/python3

N=0
FAILED=0

ok() {
	N=$((N + 1))
	echo "ok $N - $1"
}

nok() {
	N=$((N + 1))
	FAILED=$((FAILED + 1))
	echo "not ok $N - $1"
	[ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/#   /'
	return 0
}

# pin_maps DIR: the dataplane's own map definitions (bpf/maps.h, with BTF)
# pinned into DIR by `bpftool prog loadall ... pinmaps`, in an object whose
# program is trivial, so the tests do not depend on the real programs.
# Prints a failed check and returns 1 when it cannot.
pin_maps() {
	local dir=$1 multiarch
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	mkdir -p "$dir"
	cat >"$TMP/maps.bpf.c" <<'EOC'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "maps.h"
SEC("xdp") int rd_test_xdp(struct xdp_md *ctx) { return XDP_PASS; }
char LICENSE[] SEC("license") = "GPL";
EOC
	multiarch=$(cc -print-multiarch 2>/dev/null)
	if ! ${CLANG:-clang} -g -O2 -target bpf -I "$ROOT/bpf" \
		-I "/usr/include/$multiarch" -c "$TMP/maps.bpf.c" \
		-o "$TMP/maps.bpf.o" >"$TMP/load.out" 2>&1 ||
		! bpftool prog loadall "$TMP/maps.bpf.o" "$dir/progs" \
			pinmaps "$dir" >>"$TMP/load.out" 2>&1; then
		nok "pin the dataplane's maps with bpftool" "$(tail -5 "$TMP/load.out")"
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
