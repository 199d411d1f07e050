#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build rocedp_ecn.ko with the module BTF and the patched .BTF_ids that its
# kfunc needs, against a kernel's installed headers. DKMS runs it as the
# module's MAKE step (dkms.conf); `make module` runs it too, so the boot
# test loads a module built this way.
#
# A kfunc module needs split BTF on top of the exact vmlinux BTF of the
# kernel that loads it, and resolve_btfids to fill .BTF_ids. Debian's
# linux-headers ship neither the vmlinux nor resolve_btfids, and Kbuild
# skips module BTF without them. So this script:
#   1. takes the base BTF: ROCEDP_BTF_BASE if set, else /sys/kernel/btf/vmlinux
#      for the running kernel, else the .BTF section of /boot/vmlinuz-KVER
#      (a kernel being installed, not yet booted);
#   2. builds btfids (btfids.c, beside this script): the resolve_btfids
#      step for modules;
#   3. builds in a shadow of the headers dir (symlinks, plus "vmlinux" = the
#      raw BTF and tools/bpf/resolve_btfids/resolve_btfids = btfids),
#      because Kbuild looks for exactly those and /usr/src is not ours;
#   4. refuses a .ko without .BTF: such a module would not load.
#
# usage: dkms-build.sh KERNELVER KERNEL_SOURCE_DIR   (in the source dir)
#        dkms-build.sh clean
set -eu

log() { echo "rocedp_ecn: $*" >&2; }
die() {
	log "error: $*"
	exit 1
}

if [ "${1:-}" = clean ]; then
	rm -rf .kdir btfids vmlinux.btf ./*.o ./*.ko ./*.mod ./*.mod.c .*.cmd \
		Module.symvers modules.order
	exit 0
fi
[ $# = 2 ] || die "usage: dkms-build.sh KERNELVER KERNEL_SOURCE_DIR | clean"
kver=$1
ksrc=$2
here=$(pwd)
[ -f "$ksrc/Makefile" ] || die "no kernel headers for $kver in $ksrc (install linux-headers-$kver)"
grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$ksrc/.config" 2>/dev/null ||
	die "$kver is built without CONFIG_DEBUG_INFO_BTF_MODULES: the kfunc needs module BTF"
command -v pahole >/dev/null || die "pahole is missing (install dwarves): it writes the module BTF"

# --- 1. the base BTF --------------------------------------------------------
# vmlinuz_btf IMAGE OUT: cut .BTF out of a compressed kernel image; the
# payload starts at some compression magic (as the kernel's
# scripts/extract-vmlinux finds it, which the headers do not ship)
vmlinuz_btf() {
	tmp=$here/vmlinux.elf
	for c in "1f8b08 gzip -dc" "fd377a585a00 xz -dc" "28b52ffd zstd -qdc" \
		"425a68 bzip2 -dc" "5d000000 unlzma -c" "894c5a lzop -dc" \
		"02214c18 lz4 -dc"; do
		magic=${c%% *}
		cmd=${c#* }
		command -v "${cmd%% *}" >/dev/null || continue
		for off in $(od -An -v -tx1 "$1" | tr -d ' \n' |
			grep -bo "$magic" | cut -d: -f1); do
			# od gives two hex digits per byte: only even offsets
			[ $((off % 2)) = 0 ] || continue
			tail -c +$((off / 2 + 1)) "$1" | $cmd >"$tmp" 2>/dev/null || true
			if objcopy -O binary --only-section=.BTF "$tmp" "$2" 2>/dev/null &&
				[ -s "$2" ]; then
				rm -f "$tmp"
				return 0
			fi
		done
	done
	rm -f "$tmp"
	return 1
}

btf=$here/vmlinux.btf
if [ -n "${ROCEDP_BTF_BASE:-}" ]; then
	cp "$ROCEDP_BTF_BASE" "$btf"
elif [ "$kver" = "$(uname -r)" ] && [ -r /sys/kernel/btf/vmlinux ]; then
	cat /sys/kernel/btf/vmlinux >"$btf"
elif [ -r "/boot/vmlinuz-$kver" ]; then
	log "reading the vmlinux BTF of $kver from /boot/vmlinuz-$kver"
	vmlinuz_btf "/boot/vmlinuz-$kver" "$btf" ||
		die "no .BTF section found in /boot/vmlinuz-$kver"
else
	die "no BTF for $kver: it is not the running kernel and /boot/vmlinuz-$kver is missing"
fi
[ -s "$btf" ] || die "empty base BTF for $kver"

# --- 2. btfids ----------------------------------------------------------------
${CC:-cc} -O2 -Wall -o btfids btfids.c || die "cannot build btfids (is gcc installed?)"

# --- 3. the shadow headers dir and the build --------------------------------
rm -rf .kdir
mkdir -p .kdir/tools/bpf/resolve_btfids
for f in "$ksrc"/* "$ksrc"/.[!.]*; do
	case ${f##*/} in tools | vmlinux | '.[!.]*') continue ;; esac
	ln -s "$f" ".kdir/${f##*/}"
done
if [ -d "$ksrc/tools" ]; then
	for f in "$ksrc"/tools/*; do
		[ -e "$f" ] && [ "${f##*/}" != bpf ] && ln -s "$f" ".kdir/tools/${f##*/}"
	done
fi
ln -s "$here/vmlinux.btf" .kdir/vmlinux
ln -s "$here/btfids" .kdir/tools/bpf/resolve_btfids/resolve_btfids
make -C .kdir M="$here" modules

# --- 4. the check ---------------------------------------------------------------
objcopy --dump-section .BTF=.btf.check rocedp_ecn.ko /dev/null 2>/dev/null || true
if [ ! -s .btf.check ]; then
	rm -f .btf.check rocedp_ecn.ko
	die "rocedp_ecn.ko has no BTF: it would not load"
fi
rm -f .btf.check
log "built rocedp_ecn.ko for $kver with module BTF"
