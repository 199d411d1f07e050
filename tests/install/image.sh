#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest image of `make test-install`: a Debian 12 root file system from
# Debian's archive (mmdebstrap, no loop mounts: mkfs.ext4 -d), with systemd,
# udev, apt, iproute2, kmod, bpftool, python3 and Debian's 6.1 kernel
# (linux-image-amd64, so initramfs-tools makes an initrd that mounts a virtio
# disk). Cached under CACHE, keyed by this script and the mirror: a rerun
# with the same inputs does nothing.
#
# Writes CACHE/root.img (raw ext4, label rocedp-root), CACHE/vmlinuz,
# CACHE/initrd.img, CACHE/status (the image's dpkg status, for the
# dependency closure), CACHE/status.base (the status before DKMS's
# toolchain was added), CACHE/lists + CACHE/sources.list (the archive state
# the image was made from, so the closure resolves against the same
# versions, e.g. the headers of exactly the image's kernel) and
# CACHE/image.env.
#
# usage: tests/install/image.sh CACHE
set -euo pipefail

cache=${1:?usage: image.sh CACHE}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

log() { echo "install-image: $*" >&2; }
die() { echo "install-image: error: $*" >&2; exit 1; }

MIRROR=${ITEST_MIRROR:-http://deb.debian.org/debian}
SECMIRROR=${ITEST_SECMIRROR:-http://deb.debian.org/debian-security}
SUITE=bookworm
# What an operator's minimal Debian switch has, plus what the checks use
# (bpftool to look at programs, python3 to send raw frames and read JSON).
PKGS="systemd,systemd-sysv,udev,apt,iproute2,kmod,linux-image-amd64,initramfs-tools,bpftool,procps,python3"
# DKMS's toolchain, installed into the image by apt as an operator's
# `apt-get install` would (Recommends included), after the base status is
# saved. Installing these ~115 packages inside the TCG guest takes over
# 15 minutes on a busy 2-core machine; here it takes seconds. The host
# still checks that the packages' metadata pulls all of it in from the
# base (tests/install/run.sh), and the guest installs whatever else the
# packages need.
TOOLCHAIN="dkms dwarves linux-headers-amd64"
SIZE=${ITEST_IMAGE_SIZE:-4G}

key=$( { cat "$0" "$here/guest-setup.sh"; echo "$MIRROR $SECMIRROR $SUITE $PKGS $TOOLCHAIN $SIZE"; } | sha256sum | cut -c1-16)
if [ -f "$cache/image.env" ] && grep -qx "IMAGE_KEY=$key" "$cache/image.env" &&
	[ -f "$cache/root.img" ]; then
	exit 0
fi

command -v mmdebstrap >/dev/null || die "mmdebstrap missing (tools/install-deps.sh kernel)"
[ "$(id -u)" = 0 ] || die "needs root (the root file system keeps its owners)"

rm -rf "$cache/rootfs" "$cache/lists" "$cache/image.env" "$cache/root.img"
printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
	"$MIRROR" "$SUITE" "$MIRROR" "$SUITE" "$SECMIRROR" "$SUITE" >"$cache/sources.list"
t0=$(date +%s)
log "mmdebstrap $SUITE into $cache/rootfs (about 2 minutes)"
# No docs, man pages or locales: they are not what is tested and they
# make every dpkg run in the TCG guest slower. The customize hook runs
# before mmdebstrap drops the package lists: keep them (and the final
# dpkg status) beside the image for the closure.
mmdebstrap --variant=apt --mode=root --format=directory \
	--include="$PKGS" \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-include=/usr/share/doc/*/copyright' \
	--customize-hook="bash $here/guest-setup.sh \"\$1\"" \
	--customize-hook="cp \"\$1/var/lib/dpkg/status\" $cache/status.base" \
	--customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o APT::Install-Recommends=true $TOOLCHAIN" \
	--customize-hook="cp -a \"\$1/var/lib/apt/lists\" $cache/lists" \
	--customize-hook="cp \"\$1/var/lib/dpkg/status\" $cache/status" \
	"$SUITE" "$cache/rootfs" - <"$cache/sources.list" >"$cache/mmdebstrap.log" 2>&1 ||
	die "mmdebstrap failed (log: $cache/mmdebstrap.log)"

kver=$(cd "$cache/rootfs/boot" && ls vmlinuz-* | sed 's/^vmlinuz-//' | sort -V | tail -n1)
[ -n "$kver" ] || die "no kernel in the image"
cp "$cache/rootfs/boot/vmlinuz-$kver" "$cache/vmlinuz"
cp "$cache/rootfs/boot/initrd.img-$kver" "$cache/initrd.img"
kpkg=$(chroot "$cache/rootfs" dpkg-query -W -f='${Version}' "linux-image-$kver")

# ext4 straight from the directory: no loop device, no mount
truncate -s "$SIZE" "$cache/root.img.tmp"
mkfs.ext4 -q -F -L rocedp-root -d "$cache/rootfs" "$cache/root.img.tmp" ||
	die "mkfs.ext4 -d failed"
mv "$cache/root.img.tmp" "$cache/root.img"
rm -rf "$cache/rootfs"
cat >"$cache/image.env" <<ENV
IMAGE_KEY=$key
GUEST_KVER=$kver
GUEST_KPKGVER=$kpkg
ENV
log "image ready: Debian $SUITE, kernel $kver ($kpkg), $(($(date +%s) - t0)) s"
