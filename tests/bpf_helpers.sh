#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every map helper call in the loaded programs is bound to one map. When
# clang merges two bpf_map_lookup_elem() calls on different maps into one
# call (it sinks identical calls and picks the map before), the verifier
# cannot bind that call site to a map: it keeps the generic helper, which
# calls through map->ops, an indirect call (a retpoline on this machine's
# CPU). The route lookup once did this: 10 ns a frame, a fifth of the bare
# forwarder (docs/bench-history.md). This loads rocedp.bpf.o as the live loader
# would (its default read-only settings: no trace, the real clock, no
# kfunc), dumps each program as the kernel rewrote it and fails on any
# generic map helper left. First the check is shown a merged call it must
# find, compiled here.
# Needs root (loads programs). TAP-like output.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CLANG=${CLANG:-clang}
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh" # OUT (absolute), ok, nok, need_root
need_root

# the helpers that dispatch through map->ops; a bound call shows the map
# type's own function (trie_lookup_elem, dev_hash_map_redirect) or none
GENERIC='call (bpf_map_(lookup|update|delete|push|pop|peek)_elem|bpf_map_lookup_percpu_elem|bpf_xdp_redirect_map|bpf_for_each_map_elem)#'

mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
# bpffs takes no dots in names, so no mktemp template
pins=/sys/fs/bpf/rocedp_helpers_$$
tmp=$(mktemp -d)
t_cleanup 'rm -rf "$pins" "$tmp"'
mkdir -p "$pins/merged" "$pins/rocedp" || {
	nok "no directory on the bpffs at /sys/fs/bpf"
	exit 1
}

# dump PIN: the program as the kernel rewrote it; fails on no output
dump() {
	bpftool prog dump xlated pinned "$1" >"$tmp/xlated" &&
		[ -s "$tmp/xlated" ]
}

cat >"$tmp/merged.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} h1 SEC(".maps"), h2 SEC(".maps");
SEC("xdp")
int merged(struct xdp_md *ctx)
{
	__u32 k = 0, *v;

	if (ctx->ingress_ifindex & 1)
		v = bpf_map_lookup_elem(&h1, &k);
	else
		v = bpf_map_lookup_elem(&h2, &k);
	return v ? *v : 2;
}
char LICENSE[] SEC("license") = "GPL";
EOF
multiarch=$(cc -print-multiarch 2>/dev/null)
if ! "$CLANG" -O2 -g -target bpf -I "/usr/include/$multiarch" \
	-c "$tmp/merged.bpf.c" -o "$tmp/merged.bpf.o" ||
	! bpftool prog loadall "$tmp/merged.bpf.o" "$pins/merged" ||
	! dump "$pins/merged/merged"; then
	nok "the merged-lookup example builds, loads and dumps"
elif [ "$(grep -c 'call .*#' "$tmp/xlated")" -ne 1 ]; then
	# this clang kept two calls: the example shows nothing
	nok "the example's two lookups were merged into one call (clang did not merge them)"
elif grep -qE "$GENERIC" "$tmp/xlated"; then
	ok "the check finds a lookup merged over two maps"
else
	nok "the check finds a lookup merged over two maps"
fi

if ! bpftool prog loadall "$OUT/rocedp.bpf.o" "$pins/rocedp"; then
	nok "rocedp.bpf.o loads"
	exit 1
fi
ok "rocedp.bpf.o loads"
# the route lookup, bound: the check would see its name if it were not,
# and a dump without symbol names (kptr_restrict) fails here
if dump "$pins/rocedp/rocedp_xdp" &&
	grep -q 'call trie_lookup_elem#' "$tmp/xlated"; then
	ok "rocedp_xdp: the route lookup calls trie_lookup_elem directly"
else
	nok "rocedp_xdp: the route lookup calls trie_lookup_elem directly"
fi
progs=0
for p in "$pins"/rocedp/*; do
	[ -e "$p" ] || continue
	progs=$((progs + 1))
	if ! dump "$p"; then
		nok "$(basename "$p"): bpftool dumps it"
		continue
	fi
	c=$(grep -cE "$GENERIC" "$tmp/xlated")
	if [ "$c" -eq 0 ]; then
		ok "$(basename "$p"): every map helper call bound to its map"
	else
		nok "$(basename "$p"): $c map helper calls through map->ops" \
			"$(grep -B3 -E "$GENERIC" "$tmp/xlated" | head -n 20)"
	fi
done
if [ "$progs" -ge 5 ]; then
	ok "all $progs entry programs checked"
else
	nok "only $progs entry programs pinned (expected 5)"
fi
t_done
