#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare everything needed to build rocedp_ecn.ko for Debian's
# linux-headers-amd64 kernel and to boot that kernel under qemu:
#   - the exact linux-image deb of the headers' version (unpacked, never
#     installed): vmlinuz and the few modules the boot test needs
#   - the vmlinux BTF of that image (module BTF is split BTF on top of it)
#   - resolve_btfids built from Debian's linux-source of the same version
#   - a shadow kernel build dir: the headers plus "vmlinux" (the BTF blob) and
#     resolve_btfids, which Kbuild's module BTF step looks for
# Everything is cached under CACHE (default build/kernel); reruns are no-ops.
# Writes CACHE/env.sh (KVER, KDIR, VMLINUZ, KMODS) for the other scripts.
#
# usage: kernel/prepare.sh [CACHE]
set -eu

cache=${1:-build/kernel}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# Modules copied out of the image for the boot test (deps are added);
# 8021q for the VLAN sub-interface check of XDP VLAN offload handling.
KMOD_WANT=${KMOD_WANT:-"sch_ingress cls_bpf veth 8021q"}
# ... and for the lab's Soft-RoCE guests (tools/lab/rdma.sh), in their own
# dir: the same unpack, so the image is downloaded once for both.
# (rxe asks the crypto API for "crc32", which nothing loads without modprobe)
KMOD_RDMA=${KMOD_RDMA:-"rdma_rxe ib_uverbs rdma_ucm crc32_generic virtio_net virtio_pci"}

log() { echo "kernel-prep: $*" >&2; }
die() { echo "kernel-prep: error: $*" >&2; exit 1; }

"$top/tools/install-deps.sh" kernel

# The kernel release comes from what linux-headers-amd64 pulls in, so an
# update of the metapackage moves everything along; never hardcoded.
# ROCEDP_KVER=RELEASE picks another installed headers package instead
# (e.g. a backports kernel) to check the module on a newer kernel.
if [ -n "${ROCEDP_KVER:-}" ]; then
	hpkg=linux-headers-$ROCEDP_KVER
else
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null) ||
		die "linux-headers-amd64 is not installed"
	hpkg=$(echo "$dep" | tr ',' '\n' | sed -n 's/^ *\(linux-headers-[^ ]*-amd64\).*/\1/p' | head -n1)
	[ -n "$hpkg" ] || die "cannot read the headers package from '$dep'"
fi
KVER=${hpkg#linux-headers-}
PKGVER=$(dpkg-query -W -f='${Version}' "$hpkg" 2>/dev/null) ||
	die "$hpkg is not installed"
HDIR=/usr/src/$hpkg
[ -f "$HDIR/.config" ] || die "$HDIR/.config missing"

kc=$cache/$KVER
mkdir -p "$kc/debs"

fetch() { # package=version -> path of the .deb in the cache
	name=${1%%=*}
	ver=${1#*=}
	f=$(ls "$kc/debs/${name}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$f" ]; then
		log "downloading $1"
		# a stale or missing package list is the usual failure: refresh once
		(cd "$kc/debs" && apt-get download -q=2 \
			-o APT::Sandbox::User=root "$1" >&2) ||
			(apt-get update -qq >&2 && cd "$kc/debs" &&
				apt-get download -q=2 -o APT::Sandbox::User=root "$1" >&2) ||
			die "apt-get download $1 failed (apt-get update, or the headers are older than the archive: upgrade linux-headers-amd64)"
		f=$(ls "$kc/debs/${name}_"*.deb | head -n1)
	fi
	echo "$f"
}

# --- the kernel image: vmlinuz, BTF, modules --------------------------------
if [ ! -f "$kc/image.stamp" ] ||
	[ "$(cat "$kc/kmods/want" 2>/dev/null)" != "$KMOD_WANT" ] ||
	[ "$(cat "$kc/kmods-rdma/want" 2>/dev/null)" != "$KMOD_RDMA" ]; then
	deb=$(fetch "linux-image-$KVER=$PKGVER")
	tmp=$kc/image.tmp
	rm -rf "$tmp" "$kc/kmods" "$kc/kmods-rdma"
	mkdir -p "$tmp" "$kc/kmods" "$kc/kmods-rdma"
	log "unpacking $(basename "$deb")"
	dpkg-deb -x "$deb" "$tmp"
	cp "$tmp/boot/vmlinuz-$KVER" "$kc/vmlinuz"
	mdir=$tmp/lib/modules/$KVER

	# Resolve module dependencies from .modinfo (no kmod on the host),
	# depth first so that kmods/order lists every dependency before its user.
	modcat() {
		case "$1" in
		*.xz) xz -dc "$1" ;;
		*.zst) zstd -qdc "$1" ;;
		*) cat "$1" ;;
		esac
	}
	seen=" "
	visit() {
		local m=$1 f d
		case "$seen" in *" $m "*) return 0 ;; esac
		seen="$seen$m "
		f=$(find "$mdir" -name "$m.ko*" -o -name "${m//_/-}.ko*" | head -n1)
		[ -n "$f" ] || die "module $m not found in $(basename "$deb")"
		for d in $(modcat "$f" | tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '); do
			visit "$d"
		done
		modcat "$f" >"$kdest/$m.ko"
		echo "$m" >>"$kdest/order"
	}
	kdest=$kc/kmods
	for m in $KMOD_WANT; do
		visit "$m"
	done
	seen=" "
	kdest=$kc/kmods-rdma
	for m in $KMOD_RDMA; do
		visit "$m"
	done
	echo "$KMOD_WANT" >"$kc/kmods/want"
	echo "$KMOD_RDMA" >"$kc/kmods-rdma/want"
	rm -rf "$tmp" "$deb"
	touch "$kc/image.stamp"
fi

# The lab's RDMA guests need only the image: no linux-source download.
if [ "${KPREP_IMAGE_ONLY:-0}" = 1 ]; then
	cat >"$cache/image-env.sh" <<EOF
KVER=$KVER
KPKGVER=$PKGVER
VMLINUZ=$kc/vmlinuz
KMODS=$kc/kmods
KMODS_RDMA=$kc/kmods-rdma
EOF
	log "image ready: $KVER ($PKGVER) in $kc"
	exit 0
fi

# --- linux-source: resolve_btfids and extract-vmlinux -----------------------
if [ ! -x "$kc/resolve_btfids" ]; then
	series=$(echo "$KVER" | cut -d. -f1,2)
	deb=$(fetch "linux-source-$series=$PKGVER")
	# linux-source-6.1 ships a tarball; tools/, scripts/ and include/ build
	# resolve_btfids (its libbpf generates helper defs from the uapi header).
	rm -rf "$kc/src"
	mkdir -p "$kc/src"
	log "extracting tools from $(basename "$deb")"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$series.tar.xz" |
		xz -dc -T0 | tar -x -C "$kc/src" --strip-components=1 \
			"linux-source-$series/tools" \
			"linux-source-$series/scripts" \
			"linux-source-$series/include"
	log "building resolve_btfids"
	mkdir -p "$kc/rbtf"
	make -s -C "$kc/src/tools/bpf/resolve_btfids" OUTPUT="$kc/rbtf/" \
		HOSTCC=gcc CC=gcc -j"$(nproc)" >&2
	cp "$kc/rbtf/resolve_btfids" "$kc/resolve_btfids"
	cp "$kc/src/scripts/extract-vmlinux" "$kc/extract-vmlinux"
	rm -rf "$kc/src" "$kc/rbtf" "$deb"
fi

if [ ! -s "$kc/vmlinux.btf" ]; then
	log "extracting vmlinux BTF"
	sh "$kc/extract-vmlinux" "$kc/vmlinuz" >"$kc/vmlinux.elf"
	objcopy -O binary --only-section=.BTF "$kc/vmlinux.elf" "$kc/vmlinux.btf.tmp"
	rm -f "$kc/vmlinux.elf"
	[ -s "$kc/vmlinux.btf.tmp" ] || die "no .BTF section in vmlinuz-$KVER"
	mv "$kc/vmlinux.btf.tmp" "$kc/vmlinux.btf"
fi

# --- shadow build dir ---------------------------------------------------------
# Kbuild's modfinal step generates module BTF only if "vmlinux" exists in
# the build dir and runs $(objtree)/tools/bpf/resolve_btfids; Debian's
# headers ship neither, and /usr/src is not ours to change.
kdir=$kc/kdir
if [ ! -e "$kdir/vmlinux" ]; then
	rm -rf "$kdir"
	mkdir -p "$kdir/tools/bpf/resolve_btfids"
	for f in .config .kernelvariables Makefile Module.symvers arch include scripts; do
		ln -s "$HDIR/$f" "$kdir/$f"
	done
	for f in "$HDIR"/tools/*; do
		ln -s "$f" "$kdir/tools/$(basename "$f")"
	done
	ln -s "$kc/resolve_btfids" "$kdir/tools/bpf/resolve_btfids/resolve_btfids"
	# pahole and resolve_btfids both accept raw BTF as the base
	ln -s "$kc/vmlinux.btf" "$kdir/vmlinux"
fi

cat >"$cache/env.sh" <<EOF
KVER=$KVER
KPKGVER=$PKGVER
KDIR=$kdir
VMLINUZ=$kc/vmlinuz
VMLINUX_BTF=$kc/vmlinux.btf
KMODS=$kc/kmods
KMODS_RDMA=$kc/kmods-rdma
EOF
log "ready: $KVER ($PKGVER) in $kc"
