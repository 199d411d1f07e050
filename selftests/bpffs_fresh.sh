#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A fresh machine: nothing has mounted bpffs, and the lab and
# `ip netns exec NS rocedp attach` must still work, rocedp mounting it (as
# bpftool does) in the host's mount namespace, with mode 0700.
#
# The "host" is a private mount namespace in a pid namespace of its own:
# this script is its pid 1, so rocedp takes this mount namespace for the
# host's, and the /sys/fs/bpf unmounted here is this namespace's copy
# only (propagation private, checked before the unmount); the machine's
# own bpffs is never touched.
#  1. `rocedp-lab up` (2 leaves, 1 spine, rocedp attached through
#     `ip netns exec` on each leaf) comes up and forwards across the
#     fabric; bpffs is then mounted here with mode 1700 (0700 + the sticky
#     bit the kernel adds) and holds each leaf's pins.
#     With it unmounted again, `rocedp-lab inject` mounts one for its
#     pins as well.
#  2. With it unmounted again: `ip netns exec X rocedp attach` mounts it
#     and pins there, `status` in a later call finds the maps, detach
#     leaves nothing.
# About 10 s. Both fail with the code that refused outside the host's
# mount namespace ("no bpffs here outlives this command").
set -u
if [ -z "${FRESH_INNER:-}" ]; then
	FRESH_INNER=1 exec unshare -m -p -f --mount-proc --propagation private bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

t_require ethtool findmnt
unset ROCEDP_PIN_DIR
BPF=/sys/fs/bpf
T_LAB_PREFIX=bf$((RANDOM % 10000))
NS=bfx$RANDOM

# unmount every bpffs here, but only where that cannot reach the host
unmount_bpffs() {
	local p
	while mountpoint -q "$BPF"; do
		p=$(findmnt -n -o PROPAGATION "$BPF" | tail -n 1)
		[ "$p" = private ] || { echo "# $BPF propagation '$p': not unmounting"; return 1; }
		umount "$BPF" || return 1
	done
}
bpffs_here() { [ "$(stat -f -c %T "$BPF" 2>/dev/null)" = bpf_fs ]; }

[ "$$" = 1 ] && unmount_bpffs && ! bpffs_here
t_check $? "a pid namespace of our own, no bpffs mounted in this mount namespace" \
	"pid $$, $(findmnt "$BPF")"

# ----------------------------------------------------------- 1. the lab
t_cleanup 'lab down'
lab up --leaves 2 --spines 1 --hosts 1 --mode generic >"$T_TMP/lab.out" 2>&1
t_check $? "rocedp-lab up with nothing mounted: up, and h1-1 reaches h2-1 across the fabric" \
	"$(tail -n 5 "$T_TMP/lab.out")"
bpffs_here && [ "$(stat -c %a "$BPF")" = 1700 ]
t_check $? "bpffs mounted by rocedp in the host's mount namespace, mode 0700" \
	"$(findmnt "$BPF"; stat -c %a "$BPF" 2>&1)"
n=0
for l in 1 2; do
	d=$(lab_exec "leaf$l" "$ROCEDP" -j status 2>/dev/null | $PY -c 'import json,sys; print(json.load(sys.stdin)["pin_dir"])')
	[ -e "$BPF/rocedp-netns/${d##*/}/rd_config" ] && n=$((n + 1))
done
[ $n = 2 ]
t_check $? "each leaf's maps pinned on that bpffs ($n of 2)"
# the lab's injector pins its program too: with bpffs gone again it
# mounts one itself, as rocedp does, rather than failing on the path
export LAB_INJECT_OBJ=$T_OUT/lab_inject.bpf.o
# (lazily: the leaves' daemons keep it busy; private, as checked above)
step=unmount
[ "$(findmnt -n -o PROPAGATION "$BPF" | tail -n 1)" = private ] &&
	umount -l "$BPF" && ! bpffs_here && step=inject &&
	lab inject spine1 drop 1 >"$T_TMP/inj.out" 2>&1 && step=pinned &&
	[ -e "$BPF/rocedp-lab-$T_LAB_PREFIX/inject-spine1" ] && step=off &&
	lab inject spine1 off >>"$T_TMP/inj.out" 2>&1 && step=removed &&
	[ ! -e "$BPF/rocedp-lab-$T_LAB_PREFIX" ] && step=
t_check $? "rocedp-lab inject with nothing mounted: pins on a bpffs it mounts, off removes them" \
	"failed at: $step; $(tail -n 3 "$T_TMP/inj.out"; findmnt "$BPF"; ls -A "$BPF")"
lab down >/dev/null 2>&1

# ------------------------------------- 2. ip netns exec X rocedp attach
unmount_bpffs && ! bpffs_here
t_check $? "unmounted again"
t_cleanup "ip netns exec $NS $ROCEDP detach --all; ip netns del $NS"
ip netns add "$NS" && ip -n "$NS" link add v0 type veth peer name v1 &&
	ip -n "$NS" link set v0 up && ip -n "$NS" link set v1 up ||
	t_fail "netns $NS with a veth pair"
ip netns exec "$NS" "$ROCEDP" attach v0 --mode generic >"$T_TMP/a.out" 2>&1
t_check $? "ip netns exec $NS rocedp attach: ok with nothing mounted" "$(cat "$T_TMP/a.out")"
ip netns exec "$NS" "$ROCEDP" -j status >"$T_TMP/s.json" 2>&1
t_pyj "$T_TMP/s.json" "j['maps_pinned'] and j['interfaces'][0]['name'] == 'v0'" >/dev/null
t_check $? "a later ip netns exec call finds the maps" "$(cat "$T_TMP/s.json")"
bpffs_here && [ "$(stat -c %a "$BPF")" = 1700 ]
t_check $? "mounted here, mode 0700" "$(findmnt "$BPF")"
# (maps.debug and progs.debug are the kernel's own, from bpf_preload;
# xdp/ is libxdp's dispatcher state)
ip netns exec "$NS" "$ROCEDP" detach --all && ! ls -A "$BPF" | grep -q '^rocedp'
t_check $? "detach --all leaves nothing of rocedp's on it" "$(ls -A "$BPF")"

t_done
