#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make test-install`: install the built packages on a Debian 12 guest
# (Debian's 6.1 kernel, systemd, apt) the way an operator would, reboot it,
# and check that rocedp came back by itself and that `apt purge` leaves
# nothing (docs/install-test.md).
#
# Host side:
#   1. the guest image (tests/install/image.sh, cached under CACHE);
#   2. a local apt repository: the .debs from `make deb` and the Debian
#      packages their dependencies need, computed by apt from the
#      packages' metadata against the image's own dpkg status and the
#      archive state the image was made from (never the build tree's
#      binaries);
#   3. a read-only test disk (ext4 made with mkfs.ext4 -d): the repository,
#      tests/install/guest.sh, frames.py, the config and network files;
#   4. qemu TCG boots the image through a throwaway qcow2 overlay with four
#      virtio-net NICs on two qemu hubs (swp1 <-> hosta, swp2 <-> hostb),
#      under a watchdog. The guest installs, reboots itself, checks, purges
#      and powers off; its "ROCEDP-ITEST:" console lines become TAP lines.
#
# Env: OUT (build), DEB_DIR ($OUT/deb), ITEST_CACHE ($OUT/install),
# ITEST_TIMEOUT (watchdog seconds, default 1800), ITEST_MEM (MiB, 1280),
# ITEST_FRAMES (frames sent through the guest, 100), ITEST_KEEP=1 keeps the
# run dir (overlay, test disk), QEMU_EXTRA (more qemu arguments).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
OUT=${OUT:-build}
DEB_DIR=${DEB_DIR:-$OUT/deb}
cache=${ITEST_CACHE:-$OUT/install}
timeout_s=${ITEST_TIMEOUT:-1800}
mem=${ITEST_MEM:-1280}
frames=${ITEST_FRAMES:-100}
t0=$(date +%s)

n=0
nfail=0
tap() { # ok|fail NAME: DETAIL
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		nfail=$((nfail + 1))
	fi
}
die() {
	tap fail "test-install: $*"
	echo "test-install: $n checks, $nfail failed"
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap --mode=root, apt-get download)"
tools/install-deps.sh kernel >&2 || die "tools/install-deps.sh kernel failed"
for t in qemu-system-x86_64 qemu-img mmdebstrap dpkg-scanpackages mkfs.ext4; do
	command -v "$t" >/dev/null || die "$t missing (tools/install-deps.sh kernel)"
done

# --- 1. the image --------------------------------------------------------------
tests/install/image.sh "$cache" >&2 || die "guest image: see $cache/mmdebstrap.log"
# shellcheck disable=SC1091
. "$cache/image.env"
cache=$(cd "$cache" && pwd)

# --- 2. the packages and their dependency closure ------------------------------
mapfile -t debs < <(ls "$DEB_DIR"/*.deb 2>/dev/null | grep -v -- '-dbgsym_' || true)
[ "${#debs[@]}" -gt 0 ] || die "no .deb in $DEB_DIR (make deb)"
pkgs=()
for d in "${debs[@]}"; do
	pkgs+=("$(dpkg-deb -f "$d" Package)")
done
for want in rocedp rocedp-dkms; do
	printf '%s\n' "${pkgs[@]}" | grep -qx "$want" ||
		die "$DEB_DIR has no $want package (${pkgs[*]})"
done

run=$cache/run.$$
rm -rf "$run"
mkdir -p "$run/disk/repo" "$run/disk/network" "$cache/archives/partial" \
	"$run/apt/etc" "$run/apt/state"
cleanup() { [ "${ITEST_KEEP:-0}" = 1 ] || rm -rf "$run"; }
trap cleanup EXIT

# apt as the guest would run it: the guest's dpkg status, the archive's
# lists from the image build, the host's apt otherwise untouched. What
# `apt-get install ./the.debs` would fetch is what the guest will need
# (Recommends included, as apt does by default).
aptc=(-o "Dir::State::status=$cache/status"
	-o "Dir::State::Lists=$cache/lists"
	-o "Dir::State=$run/apt/state"
	-o "Dir::Etc::SourceList=$cache/sources.list"
	-o "Dir::Etc::SourceParts=$run/apt/etc"
	-o "Dir::Etc::Preferences=/dev/null"
	-o "Dir::Etc::PreferencesParts=$run/apt/etc"
	-o "Dir::Cache=$run/apt"
	-o "Dir::Cache::archives=$cache/archives"
	-o "APT::Sandbox::User=root"
	-o "Debug::NoLocking=1")
abs=()
for d in "${debs[@]}"; do abs+=("$(cd "$(dirname "$d")" && pwd)/$(basename "$d")"); done
apt-get "${aptc[@]}" install -y -q --download-only "${abs[@]}" \
	>"$cache/closure.log" 2>&1 ||
	die "dependency closure: apt-get install --download-only failed: $(tail -n 5 "$cache/closure.log" | tr '\n' ' ')"
# From the base system (before DKMS's toolchain was put into the image),
# the packages' metadata alone must pull in DKMS, a compiler and the
# headers of exactly the guest's kernel.
base=$(apt-get "${aptc[@]}" -o "Dir::State::status=$cache/status.base" \
	install -s "${abs[@]}" 2>&1 | sed -n 's/^Inst \([^ ]*\) .*/\1/p')
missing=
for want in dkms gcc make "linux-headers-$GUEST_KVER"; do
	echo "$base" | grep -qx "$want" || missing="$missing $want"
done
if [ -z "$missing" ]; then
	tap ok "closure from a base system: apt pulls in dkms, gcc, make and linux-headers-$GUEST_KVER from the packages' metadata ($(echo "$base" | wc -l) packages)"
else
	tap fail "closure from a base system: apt would not install$missing for the packages (see $cache/closure.log)"
fi
# exactly the packages apt would install, nothing left over from older runs
mapfile -t closure < <(apt-get "${aptc[@]}" install -s "${abs[@]}" 2>/dev/null |
	sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1_\2/p')
for p in "${closure[@]}"; do
	name=${p%%_*} ver=${p#*_}
	printf '%s\n' "${pkgs[@]}" | grep -qx "$name" && continue
	# apt's cache names carry the epoch as %3a
	f=$(ls "$cache/archives/${name}_${ver/:/%3a}_"*.deb 2>/dev/null | head -n1 || true)
	[ -n "$f" ] || die "dependency $name $ver not downloaded (see $cache/closure.log)"
	cp "$f" "$run/disk/repo/"
done
cp "${debs[@]}" "$run/disk/repo/"
(cd "$run/disk/repo" && dpkg-scanpackages -m . /dev/null 2>/dev/null >Packages) ||
	die "dpkg-scanpackages failed"
ndeps=$(($(ls "$run/disk/repo" | grep -c '\.deb$') - ${#debs[@]}))
repo_kib=$(du -sk "$run/disk/repo" | cut -f1)
tap ok "repository: ${pkgs[*]} + $ndeps dependencies from the archive ($((repo_kib / 1024)) MiB), resolved by apt from the packages' metadata"

# --- 3. the test disk ------------------------------------------------------------
cp tests/install/guest.sh tests/install/frames.py "$run/disk/"
cp tests/install/rocedp.json "$run/disk/"
cp tests/install/network/*.network "$run/disk/network/"
printf 'GUEST_KVER=%s\nFRAMES=%s\n' "$GUEST_KVER" "$frames" >"$run/disk/guest.env"
sz=$(( $(du -sk "$run/disk" | cut -f1) / 1024 + 64 ))
truncate -s "${sz}M" "$run/test.img"
mkfs.ext4 -q -F -L rocedp-itest -d "$run/disk" "$run/test.img" || die "mkfs.ext4 -d of the test disk failed"
rm -rf "$run/disk"
qemu-img create -q -f qcow2 -b "$cache/root.img" -F raw "$run/root.qcow2" ||
	die "qemu-img create of the overlay failed"

# --- 4. boot, install, reboot, check, purge ----------------------------------------
log=$cache/console.log
nic() { # ID HUB MAC
	echo "-netdev hubport,id=$1,hubid=$2 -device virtio-net-pci,netdev=$1,mac=52:54:00:d0:00:$3"
}
echo "test-install: booting Debian $GUEST_KVER ($GUEST_KPKGVER) under qemu TCG," \
	"${mem} MiB, watchdog ${timeout_s}s" >&2
t1=$(date +%s)
set +e
# shellcheck disable=SC2046
timeout -k 5 "$timeout_s" qemu-system-x86_64 -accel tcg -m "$mem" -smp 1 \
	-cpu max -nographic -nodefaults -serial stdio -no-user-config \
	-kernel "$cache/vmlinuz" -initrd "$cache/initrd.img" \
	-append "root=/dev/vda rw console=ttyS0 quiet systemd.show_status=0 panic=-1 net.ifnames=0" \
	-drive "file=$run/root.qcow2,if=virtio,format=qcow2,cache=unsafe" \
	-drive "file=$run/test.img,if=virtio,format=raw,readonly=on" \
	$(nic swp1 1 01) $(nic hosta 1 11) $(nic swp2 2 02) $(nic hostb 2 12) \
	${QEMU_EXTRA:-} </dev/null 2>&1 | sed -u 's/\r$//' | tee "$log" |
	sed -un 's/^ROCEDP-ITEST: \(BEGIN\|REBOOT\|INFO\)\(.*\)/test-install: guest: \1\2/p' >&2
qrc=${PIPESTATUS[0]}
set -e
t2=$(date +%s)

while IFS= read -r line; do
	st=${line#ROCEDP-ITEST: }
	case $st in
	PASS\ *) tap ok "${st#PASS }" ;;
	FAIL\ *) tap fail "${st#FAIL }" ;;
	esac
done < <(grep -a -E '^ROCEDP-ITEST: (PASS|FAIL) ' "$log")

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	tap fail "guest-finished: watchdog: qemu killed after ${timeout_s}s (console: $log)"
elif ! grep -aq '^ROCEDP-ITEST: DONE' "$log"; then
	tap fail "guest-finished: no DONE marker, qemu exit $qrc (console: $log)"
elif ! grep -aq '^ROCEDP-ITEST: BEGIN purged\|^ROCEDP-ITEST: BEGIN reboot' "$log"; then
	tap fail "guest-finished: the guest never came back from its reboot (console: $log)"
else
	tap ok "guest-finished: installed, rebooted, checked, purged, powered off in $((t2 - t1)) s"
fi
echo "test-install: $n checks, $nfail failed; guest $((t2 - t1)) s, total $(($(date +%s) - t0)) s"
[ "$nfail" = 0 ]
