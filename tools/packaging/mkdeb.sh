#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build build/rocedp_VERSION_ARCH.deb from a staged `make install`
# (dpkg-deb on a DESTDIR tree: the same package dpkg-buildpackage would
# make, without a debian/ directory to keep in step with the Makefile).
set -eu
out=$1
version=$2
stage=$out/deb-stage
arch=$(dpkg --print-architecture)
rm -rf "$stage"
# the same OUT as `make deb`: the binary built there (no fault hooks,
# docs/faults.md), not a second build in the default build/
make --no-print-directory install OUT="$out" DESTDIR="$stage" PREFIX=/usr >/dev/null
mkdir -p "$stage/DEBIAN"
depends=$(dpkg-query -W -f='${Package} (>= ${Version}), ' libbpf1 libxdp1 libmnl0 libjson-c5 libhiredis0.14 2>/dev/null | sed 's/, $//')
cat >"$stage/DEBIAN/control" <<CTL
Package: rocedp
Version: $version
Architecture: $arch
Maintainer: rocedp developers <rocedp@localhost>
Depends: $depends
Recommends: dkms, iproute2
Section: net
Priority: optional
Description: RoCEv2-aware eBPF dataplane (QP-aware ECMP, flowlets, DSCP remark, ECN)
 XDP and tc programs, the rocedp CLI and sync daemon, and the rocedp_ecn
 kernel module source for DKMS.
CTL
# maintainer scripts: the DKMS module and the systemd unit (see each)
for f in postinst prerm postrm; do
	sed "s|@VERSION@|$version|" "tools/packaging/$f" >"$stage/DEBIAN/$f"
	chmod 0755 "$stage/DEBIAN/$f"
done
dpkg-deb --root-owner-group -b "$stage" "$out/rocedp_${version}_${arch}.deb" >/dev/null
echo "$out/rocedp_${version}_${arch}.deb"
