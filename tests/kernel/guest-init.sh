#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the boot-test initramfs (see tests/kernel/run.sh). Runs every
# check inside Debian's kernel and reports on the serial console with marker
# lines the host parses:
#   ROCEDP-KTEST: PASS|FAIL|SKIP name[: detail]
#   ROCEDP-KTEST: DONE pass=N fail=N skip=N
# then ends qemu through isa-debug-exit (0 written = pass, 1 = fail).
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t bpf bpf /sys/fs/bpf
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /run
mount -t tmpfs tmpfs /run
# Only errors on the console; the markers are what the host reads.
echo 3 >/proc/sys/kernel/printk

cd /rocedp
ROCEDP=build/rocedp
FIXTURES=build/tests/fixtures
PROBE=/usr/bin/kfunc_probe
ECN=/sys/kernel/rocedp_ecn
NPROF=$(cat /etc/rocedp-ecn-profiles)
MAXB=$(cat /etc/rocedp-ecn-max-bytes)
DEF="$(cat /etc/rocedp-ecn-defaults)"
npass=0
nfail=0
nskip=0

pass() { npass=$((npass + 1)); echo "ROCEDP-KTEST: PASS $*"; }
fail() { nfail=$((nfail + 1)); echo "ROCEDP-KTEST: FAIL $*"; }
skip() { nskip=$((nskip + 1)); echo "ROCEDP-KTEST: SKIP $*"; }
# check NAME CMD...: PASS if CMD succeeds; its output is shown on failure
check() {
	name=$1
	shift
	if out=$("$@" 2>&1); then
		pass "$name${out:+: $(echo "$out" | tail -n 1)}"
	else
		fail "$name: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
	fi
}
# expect NAME WANT CMD...: PASS if CMD succeeds and prints exactly WANT
expect() {
	name=$1
	want=$2
	shift 2
	got=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ] && [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name: want '$want', got '$(echo "$got" | tr '\n' ' ')' rc=$rc"
	fi
}

finish() {
	echo "ROCEDP-KTEST: DONE pass=$npass fail=$nfail skip=$nskip"
	# isa-debug-exit: qemu exits with (value << 1) | 1
	if [ "$nfail" = 0 ]; then v='\000'; else v='\001'; fi
	printf "$v" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	# not reached when the device is present; -no-reboot ends qemu
	poweroff -f
}

echo "ROCEDP-KTEST: BEGIN kernel $(uname -r)"

# --- modules from the image ---------------------------------------------------
for m in $(cat /lib/kmods/order); do
	check "insmod-$m" insmod "/lib/kmods/$m.ko"
done

# --- kfunc_probe without the module: guard off, weak ksym unresolved --------
expect probe-nomodule-load "kfunc_probe: loaded, kfunc off" $PROBE load
expect probe-nomodule-read "0 none" $PROBE read 0
# The guard is what makes the object loadable: forcing it on must fail.
if $PROBE -f on load >/dev/null 2>&1; then
	fail "probe-unguarded-rejected: loaded with the kfunc forced on and no module"
else
	pass probe-unguarded-rejected
fi

# --- the module ----------------------------------------------------------------
check module-insmod insmod /lib/rocedp/rocedp_ecn.ko
check module-btf test -e /sys/kernel/btf/rocedp_ecn
check module-sysfs test -d $ECN/profile0 -a -d $ECN/profile$((NPROF - 1)) \
	-a ! -e $ECN/profile$NPROF

knob() { cat $ECN/profile$1/$2; }
# all_knobs P: the three single knobs of profile P, as "KMIN KMAX PMAX"
all_knobs() { echo "$(knob $1 kmin_bytes) $(knob $1 kmax_bytes) $(knob $1 pmax_percent)"; }
# put P KNOB VALUE: write like an operator would (one write(2)), sh-quiet
put() { echo "$3" 2>/dev/null >$ECN/profile$1/$2; }

ok=1
bad=""
for p in $(seq 0 $((NPROF - 1))); do
	[ "$(knob $p thresholds)" = "$DEF" ] && [ "$(all_knobs $p)" = "$DEF" ] ||
		{ ok=0; bad="$bad p$p='$(knob $p thresholds)'"; }
	for k in kmin_bytes kmax_bytes pmax_percent thresholds; do
		m=$(stat -c '%a %u' $ECN/profile$p/$k)
		[ "$m" = "644 0" ] || { ok=0; bad="$bad p$p/$k:mode=$m"; }
	done
done
[ $ok = 1 ] && pass knobs-defaults || fail "knobs-defaults: want '$DEF'$bad"

# Set every knob of every profile, each to a distinct value, and read back.
ok=1
bad=""
for p in $(seq 0 $((NPROF - 1))); do
	kmin=$((1000 + p * 100))
	kmax=$((500000 + p * 1000))
	pmax=$((10 + p))
	put $p kmax_bytes $kmax && put $p kmin_bytes $kmin && put $p pmax_percent $pmax ||
		{ ok=0; bad="$bad p$p:write-refused"; }
	[ "$(all_knobs $p)" = "$kmin $kmax $pmax" ] &&
		[ "$(knob $p thresholds)" = "$kmin $kmax $pmax" ] ||
		{ ok=0; bad="$bad p$p='$(knob $p thresholds)'"; }
done
[ $ok = 1 ] && pass knobs-set-each || fail "knobs-set-each:$bad"

# The atomic knob moves both bounds past each other in one write, which the
# single knobs can't (kmin first would exceed the old kmax).
put 1 thresholds "1000 2000 10"
if put 1 thresholds "5000000 8000000 30" &&
	[ "$(all_knobs 1)" = "5000000 8000000 30" ]; then
	pass knobs-atomic-move-up
else
	fail "knobs-atomic-move-up: got '$(knob 1 thresholds)'"
fi
if put 1 thresholds "100 200 100" && [ "$(all_knobs 1)" = "100 200 100" ]; then
	pass knobs-atomic-move-down
else
	fail "knobs-atomic-move-down: got '$(knob 1 thresholds)'"
fi
check knobs-edges sh -c "echo '0 0 0' >$ECN/profile2/thresholds &&
	echo $MAXB >$ECN/profile2/kmax_bytes && echo $MAXB >$ECN/profile2/kmin_bytes &&
	[ \"\$(cat $ECN/profile2/thresholds)\" = '$MAXB $MAXB 0' ]"

# Invalid writes: refused (write fails) and nothing changes.
refused() { # NAME KNOB VALUE
	put 3 thresholds "4000 8000 50"
	if put 3 "$2" "$3"; then
		fail "refuse-$1: '$3' > $2 accepted, now '$(knob 3 thresholds)'"
	elif [ "$(knob 3 thresholds)" != "4000 8000 50" ]; then
		fail "refuse-$1: '$3' > $2 refused but profile changed to '$(knob 3 thresholds)'"
	else
		pass "refuse-$1"
	fi
}
refused kmin-above-kmax kmin_bytes 8001
refused kmax-below-kmin kmax_bytes 3999
refused pmax-above-100 pmax_percent 101
refused kmax-too-big kmax_bytes $((MAXB + 1))
refused kmin-too-big kmin_bytes $((MAXB + 1))
refused kmin-negative kmin_bytes -1
refused kmin-not-a-number kmin_bytes abc
refused kmax-overflow kmax_bytes 4294967296
refused pmax-empty pmax_percent ""
refused atomic-kmin-above-kmax thresholds "9000 8000 50"
refused atomic-pmax-above-100 thresholds "1000 2000 101"
refused atomic-too-big thresholds "1000 $((MAXB + 1)) 50"
refused atomic-two-fields thresholds "1000 2000"
refused atomic-four-fields thresholds "1000 2000 30 4"
refused atomic-garbage thresholds "a b c"
# one strict parser for every knob: sscanf("%u") once made these a silent 0
refused atomic-kmin-overflow thresholds "4294967296 8000 50"
refused atomic-kmax-overflow thresholds "0 4294967296 50"
refused atomic-pmax-overflow thresholds "1000 2000 4294967306"
refused atomic-trailing-junk thresholds "1000 2000 30x"
refused kmin-trailing-junk kmin_bytes "4000abc"
# blanks between and around are fine; numbers are decimal on every knob
put 3 thresholds "  1000   2000	30 "
put 3 pmax_percent "010"
if [ "$(knob 3 thresholds)" = "1000 2000 10" ]; then
	pass "knobs-blanks-decimal"
else
	fail "knobs-blanks-decimal: got '$(knob 3 thresholds)'"
fi

# --- the kfunc from tc and XDP programs -----------------------------------------
expect probe-module-load "kfunc_probe: loaded, kfunc on" $PROBE load
ok=1
bad=""
for p in $(seq 0 $((NPROF - 1))); do
	want="$p $(knob $p thresholds)"
	got=$($PROBE read $p 2>&1) || { ok=0; bad="$bad p$p:$got"; continue; }
	[ "$got" = "$want" ] || { ok=0; bad="$bad want '$want' got '$got'"; }
done
[ $ok = 1 ] && pass "probe-kfunc-reads-knobs" || fail "probe-kfunc-reads-knobs:$bad"
expect probe-kfunc-bad-profile "$NPROF none" $PROBE read $NPROF
expect probe-kfunc-huge-profile "4294967295 none" $PROBE read 4294967295
# Knob changes are visible to the next BPF read.
put 0 thresholds "7777 8888 42"
expect probe-kfunc-follows-write "0 7777 8888 42" $PROBE read 0

# Torn reads: a writer flips profile 4 between two disjoint ranges while the
# kfunc is called in a loop; no snapshot may have kmin > kmax, and the reader
# must have seen the writer's changes for the check to mean anything.
(
	while :; do
		echo "100 200 5" >$ECN/profile4/thresholds
		echo "1000000 2000000 50" >$ECN/profile4/thresholds
	done
) &
writer=$!
out=$($PROBE race 4 1000000 2>&1)
rc=$?
kill $writer
wait $writer 2>/dev/null
set -- $out
if [ $rc = 0 ] && [ "$1" = snapshots ] && [ "${4:-0}" -gt 0 ]; then
	pass "probe-kfunc-no-torn-reads: $out"
else
	fail "probe-kfunc-no-torn-reads: rc=$rc $out"
fi

# --- rocedp (hooks provided by the lead) ------------------------------------------
# contains NAME WANT CMD...: PASS if CMD succeeds and its output holds WANT
contains() {
	name=$1
	want=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ] && echo "$out" | grep -qF -- "$want"; then
		pass "$name"
	else
		fail "$name: rc=$rc, no '$want' in: $(echo "$out" | tail -n 4 | tr '\n' ' ')"
	fi
}

if [ -x $ROCEDP ]; then
	# every program loads on this kernel, the kfunc path compiled in
	contains rocedp-selftest-load "ecn kfunc: used" $ROCEDP selftest-load
	# on failure, the end of the verifier log goes to the console log
	[ $rc = 0 ] || ROCEDP_DEBUG=1 $ROCEDP selftest-load 2>&1 | tail -n 60
else
	skip "rocedp-selftest-load: $ROCEDP not built"
fi

if [ -x $FIXTURES ]; then
	# its own netns with veth ports 2..5: XDP test runs with an ingress
	# ifindex (the l2 fixtures) need the device to exist
	out=$($FIXTURES 2>&1)
	rc=$?
	echo "$out" | grep "^not ok" | head -n 20
	echo "$out" | tail -n 5
	# closing line "N passed, N failed[, N skipped]", maybe after "word: "
	sum=$(echo "$out" | grep -E '^(# )?([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	set -- $(echo "$sum" | sed 's/^# //; s/^[A-Za-z_-]*: //; s/,//g')
	np=${1:-}
	nf=${3:-}
	if [ $rc = 0 ] && [ -n "$np" ] && [ "$np" -gt 0 ] && [ "$nf" = 0 ]; then
		pass "fixtures: $np passed"
	else
		fail "fixtures: rc=$rc summary='$sum'"
	fi
else
	skip "fixtures: $FIXTURES not built"
fi

# rmmod_retry: programs that called the kfunc hold the module until their
# deferred free has run, so give a detached program a moment to go away.
rmmod_retry() {
	i=0
	while ! rmmod rocedp_ecn 2>/dev/null; do
		i=$((i + 1))
		[ $i -ge 50 ] && { rmmod rocedp_ecn; return 1; }
		sleep 0.1
	done
}

# ecn_json NAME WANT...: `rocedp -j ecn show` (spaces dropped) holds each WANT
ecn_json() {
	name=$1
	shift
	out=$($ROCEDP -j ecn show 2>&1)
	rc=$?
	flat=$(echo "$out" | tr -d ' \n')
	bad=""
	[ $rc = 0 ] || bad=" rc=$rc"
	for w in "$@"; do
		echo "$flat" | grep -qF -- "$w" || bad="$bad missing $w"
	done
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name:$bad in: $(echo "$out" | head -c 300)"
	fi
}

if [ -x $ROCEDP ]; then
	# The real programs on a real (veth) port, tc path: cls_bpf + clsact.
	# busybox ip ignores "peer name": the peer gets the kernel's name
	ip link add rdk0 type veth peer name rdk1
	for l in $(ls /sys/class/net); do ip link set "$l" up; done
	check guest-veth test -e /sys/class/net/rdk0
	put 0 thresholds "123456 654321 17"
	check rocedp-attach-module $ROCEDP attach -m tc rdk0
	ecn_json rocedp-ecn-show-module '"source":"module"' \
		'{"profile":0,"kmin_bytes":123456,"kmax_bytes":654321,"pmax_percent":17}'
	contains rocedp-ecn-show-text-module "module" $ROCEDP ecn show
	check rocedp-detach-module $ROCEDP detach rdk0
	check module-rmmod rmmod_retry
	# Re-attached without the module: same object, map fallback.
	check rocedp-attach-map $ROCEDP attach -m tc rdk0
	ecn_json rocedp-ecn-show-map '"source":"map"'
	contains rocedp-ecn-show-text-map "map" $ROCEDP ecn show
	contains rocedp-selftest-load-map "ecn kfunc: not used" $ROCEDP selftest-load
	check rocedp-detach-map $ROCEDP detach --all
else
	skip "rocedp-ecn-show-module: $ROCEDP not built"
	check module-rmmod rmmod rocedp_ecn
	skip "rocedp-ecn-show-map: $ROCEDP not built"
fi

# --- XDP: beside an xdp-loader program, and VLAN tags ---------------------------
# rocedp and xdp-loader's program on one port through libxdp's dispatcher,
# in both orders: frames reach both, and either detaches alone. Then VLAN
# 10 frames from a VLAN sub-interface (the tag inserted by offload, in
# metadata) must not be routed by rocedp's main table.
XL=/usr/sbin/xdp-loader
BT=/usr/sbin/bpftool
FOREIGN=build/xdp_foreign.bpf.o
# veth NAME: a pair NAME0/NAME1, up (busybox ip ignores "peer name")
veth() {
	ip link add "${1}0" type veth peer name "${1}1" 2>/dev/null || return 1
	if [ ! -e "/sys/class/net/${1}1" ]; then
		ix=$(cat "/sys/class/net/${1}0/ifindex")
		for d in /sys/class/net/*; do
			[ "${d##*/}" != "${1}0" ] && [ "$(cat "$d/iflink")" = "$ix" ] &&
				ip link set dev "${d##*/}" name "${1}1"
		done
	fi
	ip link set "${1}0" up && ip link set "${1}1" up
}
mac() { cat "/sys/class/net/$1/address"; }
# member OBJ KEY: a number in `rocedp -j stats`'s OBJ ("counters", "pass")
member() {
	$ROCEDP -j stats 2>/dev/null | tr -d ' \n' |
		sed -n "s/.*\"$1\":{\([^}]*\)}.*/\1/p" | tr ',' '\n' |
		sed -n "s/^\"$2\":\([0-9]*\)$/\1/p"
}
foreign_count() {
	$BT -j map dump name xf_count 2>/dev/null | tr -d ' \n' |
		sed -n 's/.*"value":\([0-9]*\).*/\1/p'
}
foreign_id() {
	$BT -j prog show name xdp_foreign 2>/dev/null | tr -d ' \n' |
		sed -n 's/^\[*{"id":\([0-9]*\),.*/\1/p'
}
# frames N DEV: N pings to 10.20.0.5 out of DEV (its ARP entry is static)
frames() { ping -c "$1" -i 0.1 -W 1 -I "$2" 10.20.0.5 >/dev/null 2>&1; }
# both_run NAME: 10 frames into rdx0 reach the foreign program and rocedp
both_run() {
	f0=$(foreign_count) r0=$(member counters rx_packets)
	frames 10 rdx1
	f1=$(foreign_count) r1=$(member counters rx_packets)
	if [ $((${f1:-0} - ${f0:-0})) -ge 10 ] && [ $((${r1:-0} - ${r0:-0})) -ge 10 ]; then
		pass "$1: xdp_foreign +$((f1 - f0)), rocedp +$((r1 - r0))"
	else
		fail "$1: xdp_foreign '$f0' -> '$f1', rocedp '$r0' -> '$r1' for 10 frames; $($XL status rdx0 2>&1 | grep rdx0 | tr '\n' ' ')"
	fi
}

if [ -x $ROCEDP ] && [ -x $XL ] && [ -x $BT ] && [ -f $FOREIGN ]; then
	check xdp-veth veth rdx
	arp -i rdx1 -s 10.20.0.5 "$(mac rdx0)"

	# foreign program first, rocedp joins its dispatcher
	check coexist-a-foreign-load $XL load -m skb rdx0 $FOREIGN
	check coexist-a-rocedp-attach $ROCEDP attach --mode generic rdx0
	contains coexist-a-status-shared "in libxdp's dispatcher with 1 other program" $ROCEDP status
	both_run coexist-a-both-run
	check coexist-a-rocedp-detach $ROCEDP detach rdx0
	contains coexist-a-foreign-stays "xdp_foreign" $XL status rdx0
	f0=$(foreign_count)
	frames 10 rdx1
	f1=$(foreign_count)
	[ $((${f1:-0} - ${f0:-0})) -ge 10 ] && pass "coexist-a-foreign-still-runs: +$((f1 - f0))" ||
		fail "coexist-a-foreign-still-runs: '$f0' -> '$f1'"
	check coexist-a-foreign-unload $XL unload rdx0 --all

	# rocedp first, xdp-loader's program joins rocedp's dispatcher
	check coexist-b-rocedp-attach $ROCEDP attach --mode generic rdx0
	contains coexist-b-status-dispatcher "in libxdp's dispatcher, alone so far" $ROCEDP status
	check coexist-b-foreign-load $XL load -m skb rdx0 $FOREIGN
	contains coexist-b-status-shared "in libxdp's dispatcher with 1 other program" $ROCEDP status
	both_run coexist-b-both-run
	check coexist-b-foreign-unload $XL unload rdx0 -i "$(foreign_id)"
	r0=$(member counters rx_packets)
	frames 10 rdx1
	r1=$(member counters rx_packets)
	[ $((${r1:-0} - ${r0:-0})) -ge 10 ] && pass "coexist-b-rocedp-still-runs: +$((r1 - r0))" ||
		fail "coexist-b-rocedp-still-runs: '$r0' -> '$r1'; $($XL status rdx0 2>&1 | grep rdx0 | tr '\n' ' ')"
	contains coexist-b-status-alone "in libxdp's dispatcher, alone so far" $ROCEDP status
	check coexist-b-rocedp-detach $ROCEDP detach rdx0
	contains coexist-b-port-free "No XDP program loaded" $XL status rdx0

	# VLAN 10 from a sub-interface of rdy1 into rdy0; a route out of rdx0
	check vlan-veth veth rdy
	check vlan-subif sh -c 'ip link add link rdy1 name rdy1.10 type vlan id 10 2>/dev/null ||
		vconfig add rdy1 10'
	ip link set rdy1.10 up
	ip addr add 10.10.0.2/24 dev rdy1.10
	ip addr add 10.11.0.2/24 dev rdy1
	ip addr add 10.12.0.1/24 dev rdx0
	arp -i rdx0 -s 10.12.0.2 02:00:00:00:12:02
	ip route add 10.20.0.0/24 via 10.12.0.2
	arp -i rdy1 -s 10.20.0.5 "$(mac rdy0)"
	arp -i rdy1.10 -s 10.20.0.5 "$(mac rdy0)"
	check vlan-attach $ROCEDP attach --mode generic rdy0 rdx0
	check vlan-sync $ROCEDP sync --once
	contains vlan-status-offload "rx tag stripping off (turned off by rocedp" $ROCEDP status
	f0=$(member counters forwarded_packets) v0=$(member pass vlan)
	frames 10 rdy1
	f1=$(member counters forwarded_packets) v1=$(member pass vlan)
	frames 10 rdy1.10
	f2=$(member counters forwarded_packets) v2=$(member pass vlan)
	[ $((f1 - f0)) = 10 ] && pass "vlan-untagged-routed: 10 frames forwarded" ||
		fail "vlan-untagged-routed: forwarded $((f1 - f0)) of 10 (the route is not used)"
	[ "$f2" = "$f1" ] && [ $((v2 - v1)) = 10 ] &&
		pass "vlan-subif-not-routed: 10 VLAN 10 frames: forwarded 0, passed as vlan 10" ||
		fail "vlan-subif-not-routed: forwarded $((f2 - f1)), passed as vlan $((v2 - v1)) of 10"
	check vlan-detach $ROCEDP detach --all
else
	skip "xdp-coexist: rocedp, xdp-loader, bpftool or $FOREIGN missing"
fi

# --- unloaded: gone, probe back to "none" -------------------------------------------
check module-sysfs-gone test ! -e $ECN
check module-btf-gone test ! -e /sys/kernel/btf/rocedp_ecn
expect probe-after-rmmod "0 none" $PROBE read 0

# Reload: a fresh module starts from the defaults again.
check module-reinsmod insmod /lib/rocedp/rocedp_ecn.ko
expect module-reinsmod-defaults "$DEF" cat $ECN/profile0/thresholds
expect probe-after-reinsmod "0 $DEF" $PROBE read 0

finish
