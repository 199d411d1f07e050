#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fail the build if rocedp_ecn.ko lacks what kfunc registration needs at
# load time: module BTF (split on the target vmlinux BTF) with the kfunc in
# it, and a .BTF_ids set that resolve_btfids filled with that type id.
# usage: kernel/check-btf.sh MODULE.ko ENV.sh
set -eu
ko=$1
. "$2"
die() { echo "check-btf: $ko: $*" >&2; exit 1; }

id=$(bpftool -B "$VMLINUX_BTF" btf dump file "$ko" 2>/dev/null |
	sed -n "s/^\[\([0-9]*\)\] FUNC 'rocedp_ecn_thresholds'.*/\1/p")
[ -n "$id" ] || die "no module BTF for kfunc rocedp_ecn_thresholds"

# BTF_SET8 layout: u32 cnt, u32 flags, then {u32 id, u32 flags} pairs.
set -- $(objcopy -O binary --only-section=.BTF_ids "$ko" /dev/stdout |
	od -An -tu4 -v)
[ "$#" -ge 4 ] || die "no .BTF_ids kfunc set"
[ "$1" = 1 ] || die ".BTF_ids set holds $1 entries, expected 1"
[ "$3" = "$id" ] || die "kfunc id in .BTF_ids is $3, BTF says $id (resolve_btfids did not run?)"
echo "check-btf: $(basename "$ko"): kfunc rocedp_ecn_thresholds = BTF id $id"
