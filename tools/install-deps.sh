#!/bin/sh
# Install what rocedp needs to build, test and demo on Debian 12, and only
# what is missing: an already-provisioned machine runs no apt-get at all.
# Extra package sets: install-deps.sh [base] [kernel] [bench]
set -eu

base="clang llvm make gcc pkg-config libbpf-dev libxdp-dev libmnl-dev
libjson-c-dev bpftool iproute2 linux-libc-dev clang-format python3-scapy
tshark tcpdump gnuplot-nox ethtool libclang-rt-14-dev frr
libhiredis-dev redis-server redis-tools libncurses-dev tmux prometheus
libyang2-tools libmicrohttpd-dev libssl-dev openssl chromium"
kernel="qemu-system-x86 busybox-static cpio linux-headers-amd64 xz-utils
zstd bc flex bison libelf-dev libssl-dev dwarves file xdp-tools mmdebstrap
qemu-utils dpkg-dev e2fsprogs"
bench="dpkg-dev debhelper"
# make deb: debian/ (debhelper, dh_dkms), lintian for selftests/deb.sh
deb="dpkg-dev debhelper dh-dkms lintian"

sets="${*:-base}"
want=""
for s in $sets; do
	eval "want=\"\$want \$$s\""
done

missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing (run as root to install)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
