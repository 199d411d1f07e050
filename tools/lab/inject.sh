# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: GPL-2.0
# rocedp-lab inject: loss, reordering and duplication on one spine
# (sourced by rocedp-lab; docs/lab.md, Injecting faults).
#
#   rocedp-lab inject SPINE drop|reorder|dup N [--qp Q] [--any]
#   rocedp-lab inject SPINE delay US --to LEAF
#   rocedp-lab inject SPINE off
#   rocedp-lab inject SPINE [-j]          (what it did, per QP)
#
# The program (tools/lab/inject.bpf.c, built as $OUT/lab_inject.bpf.o) is
# loaded once per spine with bpftool, pinned with its maps under
# /sys/fs/bpf/rocedp-lab-<prefix>/inject-<spine>, and attached by tc to the
# egress of every port of the spine. The commands run under
# `nsenter --net` (not `ip netns exec`, which would remount /sys and hide
# the pins). Each `inject ... MODE N` starts from fresh counters. `delay`
# holds every frame the spine sends towards LEAF US microseconds: the
# program redirects them into a veth pair of the spine's (dly0 -> dly1),
# where tools/lab/delay.py, in the spine's namespace, holds each and sends
# it out of the port, marked to pass the program (its pid in the state
# directory; `off` and `down` stop it).

inj_obj() { echo "${LAB_INJECT_OBJ:-$(dirname "$ROCEDP")/lab_inject.bpf.o}"; }
# inj_bpffs: the bpffs the pins go on, found as rocedp finds it
# (userspace/lib/maps/pindir.c): /sys/fs/bpf if it is one, else the
# host's through PID 1's root (a private mount namespace without it, as
# `unshare -m` or a fresh boot's first shell leave), else one mounted here
inj_bpffs() {
	local d
	for d in /sys/fs/bpf /proc/1/root/sys/fs/bpf; do
		[ "$(stat -f -c %T "$d" 2>/dev/null)" = bpf_fs ] && { echo "$d"; return 0; }
	done
	mount -t bpf bpf /sys/fs/bpf 2>/dev/null || return 1
	echo /sys/fs/bpf
}
inj_dir() {
	local b
	b=$(inj_bpffs) || return 1
	echo "$b/rocedp-lab-$prefix"
}
inj_pin() {
	local d
	d=$(inj_dir) || return 1
	echo "$d/inject-$1"
}
inj_net() {
	local n=$1
	shift
	nsenter --net="/run/netns/$(ns "$n")" -- "$@"
}

# inj_detach SPINE: tc filters off every port, pins removed
inj_detach() {
	local sp=$1 l p
	for l in $(seq "$leaves"); do
		inj_net "$sp" tc filter del dev "leaf$l" egress pref 7 2>/dev/null
	done
	# a delay's relay and veth
	p=$(cat "$(state_dir)/inject-$sp.delay.pid" 2>/dev/null) && kill "$p" 2>/dev/null
	rm -f "$(state_dir)/inject-$sp.delay.pid"
	ip -n "$(ns "$sp")" link del dly0 2>/dev/null
	rm -rf "$(inj_pin "$sp")"
	rmdir "$(inj_dir)" 2>/dev/null
	return 0
}

# inj_cfg_bytes MODE N QP HAS_QP ANY IFINDEX: struct inj_cfg as bpftool bytes
inj_cfg_bytes() {
	/usr/bin/python3 -c 'import struct, sys
print(" ".join("%d" % b for b in struct.pack("<6I", *map(int, sys.argv[1:]))))' "$@"
}

INJ_MARK=0x1d1ec7ed # inject.bpf.c: frames with it pass
# inj_relay SPINE LEAF US: the delay's veth pair and relay; prints dly0's
# ifindex, the program's redirect target
inj_relay() {
	local sp=$1 l=$2 us=$3 d i
	d=$(state_dir)
	ip -n "$(ns "$sp")" link add dly0 type veth peer name dly1 || return 1
	inj_net "$sp" sysctl -qw net.ipv6.conf.dly0.disable_ipv6=1 net.ipv6.conf.dly1.disable_ipv6=1
	ip -n "$(ns "$sp")" link set dly0 mtu 9000 up && ip -n "$(ns "$sp")" link set dly1 mtu 9000 up || return 1
	inj_net "$sp" /usr/bin/python3 "$LAB_TOP/tools/lab/delay.py" dly1 "$l" "$us" $INJ_MARK \
		>"$d/inject-$sp.delay.log" 2>&1 &
	echo $! >"$d/inject-$sp.delay.pid"
	for i in $(seq 50); do
		grep -qx ready "$d/inject-$sp.delay.log" && break
		sleep 0.1
	done
	grep -qx ready "$d/inject-$sp.delay.log" || return 1
	ip -n "$(ns "$sp")" -o link show dly0 | cut -d: -f1
}

inj_show() {
	local sp=$1 json=$2 p
	p=$(inj_pin "$sp") || die "inject: no bpffs to pin on (/sys/fs/bpf is none and none could be mounted)"
	[ -e "$p/maps/inj_qps" ] || die "inject: $sp: no injector (inject $sp MODE N)"
	bpftool -j map dump pinned "$p/maps/inj_qps" |
		/usr/bin/python3 "$LAB_TOP/tools/lab/injshow.py" "$sp" "$json" "$(bpftool -j map dump pinned "$p/maps/inj_cfg" 2>/dev/null)"
}

cmd_inject() {
	local sp=${rest[0]:-} what=${rest[1]:-} n='' qp=0 has_qp=0 any=0 json=0 p l m i
	local to='' ports ifx=0
	load_conf || die "lab '$prefix' is not up"
	[[ $sp =~ ^spine[0-9]+$ ]] && [ -e "/run/netns/$(ns "$sp")" ] ||
		die "inject: '$sp': no such spine (see 'rocedp-lab nodes')"
	case $what in
	"" | -j)
		[ "$what" = -j ] && json=1
		inj_show "$sp" "$json"
		return
		;;
	off)
		inj_detach "$sp"
		say "inject: $sp off"
		return
		;;
	drop) m=1 ;;
	reorder) m=2 ;;
	dup) m=3 ;;
	delay) m=4 ;;
	*) die "inject: '$what': drop, reorder, dup, delay or off" ;;
	esac
	n=${rest[2]:-}
	if [ $m = 4 ]; then
		[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 1000000 ] ||
			die "inject: delay: '$n' is not a number of microseconds from 1 to 1000000"
	else
		[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || die "inject: N: '$n' is not a number >= 1"
	fi
	for ((i = 3; i < ${#rest[@]}; i++)); do
		case ${rest[i]} in
		--qp)
			i=$((i + 1))
			qp=${rest[i]:-}
			[[ $qp =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]] && [ $((qp)) -le 16777215 ] ||
				die "inject: --qp: '$qp' is not a QP number (0..0xffffff)"
			qp=$((qp)) has_qp=1
			;;
		--any) any=1 ;;
		--to)
			i=$((i + 1))
			to=${rest[i]:-}
			[ $m = 4 ] || die "inject: --to: only with delay"
			[[ $to =~ ^leaf[0-9]+$ ]] && [ "${to#leaf}" -ge 1 ] && [ "${to#leaf}" -le "$leaves" ] ||
				die "inject: --to: '$to' is not a leaf of this lab (leaf1..leaf$leaves)"
			;;
		*) die "inject: '${rest[i]}': unknown option (--qp Q, --any, --to LEAF)" ;;
		esac
	done
	[ $m != 4 ] || [ -n "$to" ] || die "inject: delay: --to LEAF names the link"
	[ -r "$(inj_obj)" ] || die "inject: $(inj_obj): not built (make)"
	command -v bpftool >/dev/null || die "inject: bpftool not found"
	inj_detach "$sp"
	if [ $m = 4 ]; then
		ifx=$(inj_relay "$sp" "$to" "$n") ||
			{ inj_detach "$sp"; die "inject: $sp: the delay relay did not start ($(tail -n 2 "$(state_dir)/inject-$sp.delay.log"))"; }
	fi
	p=$(inj_pin "$sp") || die "inject: no bpffs to pin on (/sys/fs/bpf is none and none could be mounted)"
	mkdir -p "$p" || die "inject: $p: cannot create"
	bpftool prog load "$(inj_obj)" "$p/prog" type classifier pinmaps "$p/maps" \
		>"$(state_dir)/inject-$sp.log" 2>&1 ||
		{ inj_detach "$sp"; die "inject: $sp: load failed (log: $(state_dir)/inject-$sp.log)"; }
	# shellcheck disable=SC2046
	bpftool map update pinned "$p/maps/inj_cfg" key 0 0 0 0 \
		value $(inj_cfg_bytes "$m" "$n" "$qp" "$has_qp" "$any" "$ifx") ||
		{ inj_detach "$sp"; die "inject: $sp: cannot write the settings"; }
	ports=$(seq "$leaves")
	[ -n "$to" ] && ports=${to#leaf}
	for l in $ports; do
		inj_net "$sp" tc qdisc replace dev "leaf$l" clsact 2>/dev/null
		inj_net "$sp" tc filter replace dev "leaf$l" egress pref 7 handle 1 \
			bpf da object-pinned "$p/prog" ||
			{ inj_detach "$sp"; die "inject: $sp: cannot attach to leaf$l"; }
	done
	if [ $m = 4 ]; then
		say "inject: $sp: every frame towards $to leaves $n us late"
	elif [ "$has_qp" = 1 ]; then
		say "inject: $sp: $what 1 in $n eligible RoCE requests of QP $(printf %#x "$qp")"
	else
		say "inject: $sp: $what 1 in $n eligible RoCE requests of each QP"
	fi
}

# at `down`: every injector of the lab
inj_down() {
	local p
	for p in "$(inj_dir)"/inject-*; do
		[ -e "$p" ] && rm -rf "$p"
	done
	rmdir "$(inj_dir)" 2>/dev/null
	return 0
}
