#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot test of rocedp on Debian's own kernel (the one linux-headers-amd64
# points to, 6.1 on Debian 12), run by `make test-kernel`.
#
# Host side: check the kfunc probe loads here without the module, build a
# small initramfs (busybox-static, the module, the image's sch_ingress /
# cls_bpf / veth, kfunc_probe, rocedp and its BPF objects and fixture suite
# when built, their shared libraries, tests/kernel/guest-init.sh as /init),
# boot it under qemu TCG with a watchdog, and turn the guest's marker lines
# into per-check results and one summary line. Fails on any FAIL, a hang, a
# missing DONE marker, or a pass/fail disagreement with isa-debug-exit.
#
# Env: OUT (build), KTEST_TIMEOUT (seconds, default 840: below
# tests/run.sh's 900 s per suite), KTEST_KEEP=1 keeps
# the initramfs staging dir, QEMU_EXTRA (more qemu args).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
OUT=${OUT:-build}
cache=${KTEST_CACHE:-$OUT/kernel}
timeout_s=${KTEST_TIMEOUT:-840}
t0=$(date +%s)

die() { echo "test-kernel: error: $*" >&2; exit 1; }

kernel/prepare.sh "$cache"
# shellcheck disable=SC1091
. "$cache/env.sh"
KO=$cache/mod/rocedp_ecn.ko
PROBE=$cache/probe/kfunc_probe
[ -f "$KO" ] || die "$KO missing (make module)"
[ -x "$PROBE" ] || die "$PROBE missing (make $PROBE)"

results=()
npass=0
nfail=0
nskip=0
record() { # STATUS NAME[: detail]
	results+=("$1 $2")
	case $1 in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	SKIP) nskip=$((nskip + 1)) ;;
	esac
}

# --- on this host's kernel: the object loads without the module --------------
host=$(uname -r)
if [ -e /sys/kernel/btf/rocedp_ecn ]; then
	record SKIP "host-probe-nomodule: rocedp_ecn is loaded on this host"
else
	got=$("$PROBE" load 2>&1 && "$PROBE" read 0 2>&1) || true
	if [ "$got" = "$(printf 'kfunc_probe: loaded, kfunc off\n0 none')" ]; then
		record PASS "host-probe-nomodule: loads on $host, map fallback"
	else
		record FAIL "host-probe-nomodule: on $host: $(echo "$got" | tr '\n' ' ')"
	fi
fi

# --- initramfs -----------------------------------------------------------------
stage=$cache/initramfs
rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,etc,lib/kmods,lib/rocedp,usr/bin,rocedp}

cp /usr/bin/busybox "$stage/bin/busybox"
file -L "$stage/bin/busybox" | grep -q 'statically linked' ||
	die "/usr/bin/busybox is not static (install busybox-static)"
install -m 0755 tests/kernel/guest-init.sh "$stage/init"
cp "$KO" "$stage/lib/rocedp/"
cp "$KMODS"/*.ko "$KMODS/order" "$stage/lib/kmods/"
cp "$PROBE" "$stage/usr/bin/"

# Limits from the shared ABI header, so the guest checks what was compiled.
abi() {
	printf '#include "rocedp_abi.h"\n%s\n' "$1" |
		cc -E -P -Ibpf -x c - | tail -n 1
}
echo $(($(abi ROCEDP_ECN_MAX_PROFILES))) >"$stage/etc/rocedp-ecn-profiles"
echo $(($(abi ROCEDP_ECN_MAX_BYTES))) >"$stage/etc/rocedp-ecn-max-bytes"
echo "$(($(abi ROCEDP_DEFAULT_KMIN_BYTES))) $(($(abi ROCEDP_DEFAULT_KMAX_BYTES))) $(($(abi ROCEDP_DEFAULT_PMAX_PERCENT)))" \
	>"$stage/etc/rocedp-ecn-defaults"

# rocedp pieces: $OUT/X on the host is /rocedp/build/X in the guest, which
# runs from /rocedp like a checkout.
bins=("$PROBE")
for f in rocedp tests/fixtures; do
	if [ -x "$OUT/$f" ]; then
		mkdir -p "$stage/rocedp/build/$(dirname "$f")"
		cp "$OUT/$f" "$stage/rocedp/build/$f"
		bins+=("$OUT/$f")
	fi
done
for f in "$OUT"/*.bpf.o; do
	[ -f "$f" ] || continue
	mkdir -p "$stage/rocedp/build"
	cp "$f" "$stage/rocedp/build/"
done
# XDP coexistence: xdp-loader, libxdp's dispatcher object (at its host
# path, where libxdp looks for it) and bpftool to read the other program's
# counter.
for b in /usr/sbin/xdp-loader /usr/sbin/bpftool; do
	[ -x "$b" ] || continue
	mkdir -p "$stage/usr/sbin"
	cp "$b" "$stage/usr/sbin/"
	bins+=("$b")
done
for f in /usr/lib/*/bpf/xdp-dispatcher.o; do
	[ -f "$f" ] || continue
	mkdir -p "$stage$(dirname "$f")"
	cp "$f" "$stage$f"
done
# Fixture data, if the suite reads any at run time.
[ -d tests/fixtures ] && mkdir -p "$stage/rocedp/tests" &&
	cp -r tests/configs "$stage/rocedp/tests/" &&
	cp -r tests/fixtures "$stage/rocedp/tests/"

# Shared libraries of every dynamic binary, at their host paths.
for b in "${bins[@]}"; do
	# static binaries and scripts have none (ldd and grep fail: fine)
	{ ldd "$b" 2>/dev/null || true; } | { grep -o '/[^ ]*' || true; } |
		while read -r lib; do
			mkdir -p "$stage$(dirname "$lib")"
			cp -L "$lib" "$stage$lib"
		done
done
# the 64-bit loader is looked up at /lib64 whichever path ldd printed
[ -e "$stage/lib64/ld-linux-x86-64.so.2" ] || {
	mkdir -p "$stage/lib64"
	cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib64/"
}

initrd=$cache/initramfs.cpio.gz
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd"
[ "${KTEST_KEEP:-0}" = 1 ] || rm -rf "$stage"
echo "test-kernel: booting $KVER ($KPKGVER) under qemu TCG," \
	"initramfs $(($(stat -c %s "$initrd") / 1024)) KiB, watchdog ${timeout_s}s"

# --- boot ----------------------------------------------------------------------
log=$cache/console.log
t1=$(date +%s)
set +e
# -nographic puts the serial console on stdio; the guest's exit code
# comes back through isa-debug-exit as (value << 1) | 1.
timeout -k 5 "$timeout_s" qemu-system-x86_64 -accel tcg -m 1024 -smp 1 \
	-nographic -no-reboot -cpu max -nic none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$VMLINUZ" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 oops=panic" \
	${QEMU_EXTRA:-} </dev/null 2>&1 | tr -d '\r' | tee "$log" |
	sed -n 's/^ROCEDP-KTEST: \(BEGIN.*\)/test-kernel: guest: \1/p'
qrc=${PIPESTATUS[0]}
set -e
t2=$(date +%s)

done_line=$(grep -a '^ROCEDP-KTEST: DONE ' "$log" | tail -n 1 || true)
while IFS= read -r line; do
	st=${line#ROCEDP-KTEST: }
	record "${st%% *}" "${st#* }"
done < <(grep -a -E '^ROCEDP-KTEST: (PASS|FAIL|SKIP) ' "$log")

case $qrc in
1) exit_says=pass ;;
3) exit_says=fail ;;
124 | 137) exit_says=hang ;;
*) exit_says="exit code $qrc" ;;
esac
if [ "$exit_says" = hang ]; then
	record FAIL "boot: watchdog: no exit after ${timeout_s}s (see $log)"
elif [ -z "$done_line" ]; then
	record FAIL "boot: no DONE marker, qemu $exit_says (see $log)"
elif [ "$exit_says" != pass ] && [ "$exit_says" != fail ]; then
	record FAIL "boot: qemu ended with $exit_says, not isa-debug-exit"
else
	gfail=$(echo "$done_line" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
	if { [ "$gfail" = 0 ] && [ "$exit_says" = fail ]; } ||
		{ [ "$gfail" != 0 ] && [ "$exit_says" = pass ]; }; then
		record FAIL "boot: DONE says fail=$gfail but isa-debug-exit says $exit_says"
	fi
fi

for r in "${results[@]}"; do
	echo "test-kernel: $r"
done
if [ "$nfail" != 0 ]; then
	echo "test-kernel: console log: $log (last lines below)"
	grep -a -v '^ROCEDP-KTEST: ' "$log" | tail -n 70 | sed 's/^/  | /'
fi
echo "test-kernel: timings: prepare+initramfs $((t1 - t0))s, boot+tests $((t2 - t1))s"
echo "test-kernel: $npass passed, $nfail failed, $nskip skipped"
[ "$nfail" = 0 ]
