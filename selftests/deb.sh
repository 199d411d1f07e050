#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make deb` builds Debian packages the Debian way (debian/, debhelper) that
# lintian passes, that rebuild byte for byte, and that install, run and
# remove cleanly.
#
# The packages are built twice from a scratch copy of the tree (the files
# git knows plus untracked, not ignored ones; no build/), as a clean clone
# would be. Checked:
#   - lintian: no error and no warning on any of the three packages;
#   - the second build gives the same sha256 for every .deb;
#   - control: Depends computed by dpkg-shlibdeps (libc6, libbpf1, libxdp1,
#     libmnl0, libjson-c5, libncurses6 ...), rocedp-dkms Architecture all;
#   - contents: a stripped, hardened (PIE, BIND_NOW, stack protector,
#     fortify) binary with its symbols in -dbgsym, the BPF object, a
#     compressed man page, the units, the module source with dkms.conf,
#     dkms-build.sh and btfids.c, the modules-load.d entry;
#   - maintainer scripts never call systemctl and never enable a unit;
#   - `make install DESTDIR=... PREFIX=...` honours both variables;
#   - dpkg -i of rocedp: the binary runs, attaches and detaches in a netns
#     of ours; `dpkg -r` with a port still attached detaches it (no program
#     on the port, no pin left) and takes every file away; `dpkg -P` the
#     record. Removal runs inside our netns with our pin dir, so the host's
#     rocedp (if any) is never touched.
#
# rocedp-dkms is not installed here: its module is for Debian's 6.1 kernel,
# not this host's (make test-kernel loads a module built by the same
# dkms-build.sh; make test-install installs the package in a 6.1 guest).
# A rocedp package that is already installed is left alone (the install
# steps are skipped rather than replace someone's package).
#
# Usage: selftests/deb.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

missing=$(t_need dpkg dpkg-deb dpkg-buildpackage lintian make tar nsenter readelf) || {
	t_fail "tools present" "missing: $missing (tools/install-deps.sh base deb)"
	t_done
	exit 1
}

NS=lc_deb$$
PIN=/sys/fs/bpf/lc_deb$$
SRC=$T_TMP/src
# why FILE...: the files on one line, for a "not ok" explanation
why() { cat "$@" 2>/dev/null | tr '\n' '|' | cut -c1-400; }
installed_by_us=

teardown() {
	[ -e "/run/netns/$NS" ] && [ -x /usr/sbin/rocedp ] &&
		nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" \
			/usr/sbin/rocedp detach --all
	# in our netns, with our pin dir: prerm's detach never sees the host's
	[ -n "$installed_by_us" ] && [ -e "/run/netns/$NS" ] &&
		nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" dpkg -P rocedp
	ip netns del "$NS" 2>/dev/null
	rm -rf "$PIN"
}
t_cleanup teardown

# ------------------------------------------------------------ build
mkdir -p "$SRC"
(cd "$T_TOP" && git ls-files -co --exclude-standard | grep -v '^build/' |
	while read -r f; do [ -e "$f" ] && echo "$f"; done |
	tar -cf - -T -) | tar -xf - -C "$SRC"
t_check $? "scratch copy of the tree ($(find "$SRC" -type f | wc -l) files)"
version=$(sed -n 's/^\#define ROCEDP_VERSION "\(.*\)"/\1/p' "$SRC/userspace/lib/rocedp.h")
arch=$(dpkg --print-architecture)
D=$SRC/build/deb
deb=$D/rocedp_${version}_$arch.deb
dkms=$D/rocedp-dkms_${version}_all.deb
dbg=$D/rocedp-dbgsym_${version}_$arch.deb

nice make -C "$SRC" deb >"$T_TMP/deb.out" 2>&1
rc=$?
[ $rc = 0 ] && [ -f "$deb" ] && [ -f "$dkms" ] && [ -f "$dbg" ]
t_check $? "make deb in the scratch copy: $(cd "$D" 2>/dev/null && ls ./*.deb | tr '\n' ' ')" \
	"rc $rc: $(tail -n5 "$T_TMP/deb.out" | why)"
[ -f "$deb" ] || {
	t_done
	exit 1
}
# nothing written outside the tree (dpkg-buildpackage's default is ..)
out=$(find "$T_TMP" -maxdepth 1 \( -name '*.deb' -o -name '*.changes' -o -name '*.buildinfo' \))
[ -z "$out" ] && [ -f "$D/rocedp_${version}_$arch.changes" ] &&
	[ ! -e "$SRC/debian/rocedp" ] && [ ! -e "$SRC/debian/files" ]
t_check $? "the .debs, .changes and .buildinfo are in build/deb, nothing beside the tree, debian/ cleaned" \
	"$(echo "$out" | why)"

lintian "$D"/*.deb >"$T_TMP/lintian.out" 2>&1
grep -E '^[EW]: ' "$T_TMP/lintian.out" >"$T_TMP/lintian.ew"
[ ! -s "$T_TMP/lintian.ew" ]
t_check $? "lintian: 0 errors, 0 warnings on the three packages" "$(why "$T_TMP/lintian.ew")"
grep -q '^#' "$SRC/debian/rocedp.lintian-overrides" &&
	! grep -v '^#' "$SRC/debian/rocedp.lintian-overrides" | grep -v '^$' |
	grep -v '^rocedp: binary-from-other-architecture \[usr/lib/rocedp/rocedp.bpf.o\]$' | grep -q .
t_check $? "the only lintian override is the BPF object's architecture, with its reason"

(cd "$D" && sha256sum ./*.deb) >"$T_TMP/sha1"
nice make -C "$SRC" deb >"$T_TMP/deb2.out" 2>&1
rc=$?
(cd "$D" && sha256sum ./*.deb) >"$T_TMP/sha2"
[ $rc = 0 ] && cmp -s "$T_TMP/sha1" "$T_TMP/sha2"
t_check $? "a second make deb gives byte-identical packages ($(wc -l <"$T_TMP/sha2") .debs)" \
	"rc $rc: $(diff "$T_TMP/sha1" "$T_TMP/sha2" | why)"

# ------------------------------------------------------------ metadata
dpkg-deb -f "$deb" Package Version Architecture Depends >"$T_TMP/control"
ok=0
grep -qx "Package: rocedp" "$T_TMP/control" && grep -qx "Version: $version" "$T_TMP/control" &&
	grep -qx "Architecture: $arch" "$T_TMP/control" || ok=1
for p in libc6 libbpf1 libxdp1 libmnl0 libjson-c5 libhiredis0.14 libncurses6 libtinfo6 libmicrohttpd12; do
	grep -q "^Depends: .*\b$p (>= " "$T_TMP/control" || {
		ok=1
		echo "# Depends lacks $p"
	}
done
t_check $ok "rocedp: Version $version (debian/changelog = ROCEDP_VERSION), Depends from dpkg-shlibdeps" "$(why "$T_TMP/control")"
dpkg-deb -f "$dkms" Architecture Depends | tr '\n' ' ' >"$T_TMP/dcontrol"
grep -q "Architecture: all" "$T_TMP/dcontrol" && grep -q "dkms" "$T_TMP/dcontrol" &&
	grep -q "dwarves" "$T_TMP/dcontrol"
t_check $? "rocedp-dkms: Architecture all, Depends dkms and dwarves (pahole)" "$(why "$T_TMP/dcontrol")"

X=$T_TMP/x
rm -rf "$X" && mkdir -p "$X/r" "$X/k" "$X/g"
dpkg-deb -x "$deb" "$X/r" && dpkg-deb -x "$dkms" "$X/k" && dpkg-deb -x "$dbg" "$X/g"
dpkg-deb -c "$deb" | awk '{print $1, $2, $6}' >"$T_TMP/contents"
out=$(grep -v '^d' "$T_TMP/contents" | grep -v ' root/root ' | head -3)
[ -z "$out" ]
t_check $? "every file in the package is owned by root:root" "$(echo "$out" | why)"
bin=$X/r/usr/sbin/rocedp
readelf -SW "$bin" >"$T_TMP/sec" && readelf -dW "$bin" >"$T_TMP/dyn" && readelf -hW "$bin" >"$T_TMP/hdr" &&
	readelf -sW --dyn-syms "$bin" >"$T_TMP/syms"
ok=0
! grep -q '\.debug_info' "$T_TMP/sec" && ! grep -q '\.symtab' "$T_TMP/sec" || {
	ok=1
	echo "# not stripped"
}
grep -q 'Type: *DYN' "$T_TMP/hdr" || {
	ok=1
	echo "# not PIE"
}
grep -q 'BIND_NOW' "$T_TMP/dyn" && grep -q 'GNU_RELRO' <(readelf -lW "$bin") || {
	ok=1
	echo "# no full RELRO"
}
grep -q '__stack_chk_fail' "$T_TMP/syms" && grep -qE '__[a-z_]+_chk' <(grep -v stack_chk "$T_TMP/syms") || {
	ok=1
	echo "# no stack protector or fortify"
}
id=$(readelf -nW "$bin" | sed -n 's/.*Build ID: *\([0-9a-f]*\)/\1/p')
[ -n "$id" ] && [ -f "$X/g/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] || {
	ok=1
	echo "# no -dbgsym file for build id $id"
}
t_check $ok "/usr/sbin/rocedp: stripped, PIE, full RELRO, stack protector and fortify; its symbols in rocedp-dbgsym (build id $id)"
readelf -h "$X/r/usr/lib/rocedp/rocedp.bpf.o" 2>/dev/null | grep -q "Linux BPF" &&
	readelf -SW "$X/r/usr/lib/rocedp/rocedp.bpf.o" | grep -q ' \.BTF ' &&
	! strings "$X/r/usr/lib/rocedp/rocedp.bpf.o" | grep -qF "$SRC"
t_check $? "rocedp.bpf.o: a BPF object with BTF, no build path in it"
ok=0
for f in usr/share/man/man8/rocedp.8.gz usr/share/doc/rocedp/copyright usr/share/doc/rocedp/changelog.gz \
	lib/systemd/system/rocedp.service lib/systemd/system/rocedp-sync.service \
	lib/systemd/system/rocedp-sonic-sync.service lib/systemd/system/rocedp-textfile.service \
	lib/systemd/system/rocedp-textfile.timer lib/systemd/system/rocedp-exporter.service \
	usr/share/bash-completion/completions/rocedp; do
	[ -f "$X/r/$f" ] || {
		ok=1
		echo "# missing /$f"
	}
done
t_check $ok "rocedp: compressed man page, copyright, changelog, the 6 units, completion"
ok=0
src=usr/src/rocedp-ecn-$version
for f in $src/rocedp_ecn.c $src/Kbuild $src/abi_ecn.h $src/btfids.c $src/dkms-build.sh \
	$src/dkms.conf usr/lib/modules-load.d/rocedp-ecn.conf; do
	[ -f "$X/k/$f" ] || {
		ok=1
		echo "# missing /$f"
	}
done
(set +u && . "$X/k/$src/dkms.conf" && [ "$PACKAGE_NAME" = rocedp-ecn ] &&
	[ "$PACKAGE_VERSION" = "$version" ] && [ "${BUILT_MODULE_NAME[0]}" = rocedp_ecn ] &&
	case ${MAKE[0]} in *dkms-build.sh*) ;; *) false ;; esac) 2>/dev/null || ok=1
grep -qx rocedp_ecn "$X/k/usr/lib/modules-load.d/rocedp-ecn.conf" || ok=1
t_check $ok "rocedp-dkms: module source, dkms.conf ($version, built by dkms-build.sh), modules-load.d loads rocedp_ecn" \
	"$(why "$X/k/$src/dkms.conf")"
ok=0
for p in "$deb" "$dkms"; do
	rm -rf "$T_TMP/ctl" && dpkg-deb -e "$p" "$T_TMP/ctl"
	for f in "$T_TMP"/ctl/postinst "$T_TMP"/ctl/prerm "$T_TMP"/ctl/postrm; do
		[ -f "$f" ] || continue
		sh -n "$f" || ok=1
		# ours, not debhelper's sections (which start only enabled units)
		sed '/^# Automatically added by/,/^# End automatically added section/d' "$f" >"$f.own"
		grep -v '^\s*#' "$f.own" | grep -qw systemctl && {
			ok=1
			echo "# $(basename "$p") $(basename "$f") calls systemctl"
		}
		grep -v '^\s*#' "$f.own" | grep -qE 'deb-systemd-helper|deb-systemd-invoke' && {
			ok=1
			echo "# $(basename "$p") $(basename "$f") enables or starts a unit"
		}
	done
done
rm -rf "$T_TMP/ctl" && dpkg-deb -e "$dkms" "$T_TMP/ctl"
grep -q "dkms" "$T_TMP/ctl/postinst" && grep -q "dkms remove" "$T_TMP/ctl/prerm" || ok=1
rm -rf "$T_TMP/ctl" && dpkg-deb -e "$deb" "$T_TMP/ctl"
# debhelper's postinst enables a unit only where it was enabled before
# (an upgrade); its prerm stops the units on removal
grep -q "deb-systemd-invoke stop" "$T_TMP/ctl/prerm" &&
	[ "$(grep -c 'deb-systemd-helper enable' "$T_TMP/ctl/postinst")" = \
		"$(grep -c 'deb-systemd-helper --quiet was-enabled' "$T_TMP/ctl/postinst")" ] || ok=1
t_check $ok "maintainer scripts: valid sh, no systemctl of ours, units enabled only if they were, stopped on removal; rocedp-dkms adds and removes the DKMS module"

# ------------------------------------------------------------ make install
nice make -j2 -C "$SRC" install DESTDIR="$T_TMP/stage" PREFIX=/opt/rd >"$T_TMP/inst.out" 2>&1
rc=$?
ok=0
for f in opt/rd/sbin/rocedp opt/rd/lib/rocedp/rocedp.bpf.o opt/rd/share/man/man8/rocedp.8 \
	lib/systemd/system/rocedp-sync.service opt/rd/src/rocedp-ecn-$version/dkms.conf; do
	[ -f "$T_TMP/stage/$f" ] || {
		ok=1
		echo "# missing $f"
	}
done
[ $rc = 0 ] && [ $ok = 0 ] && grep -q "^ExecStart=/opt/rd/sbin/rocedp sync" "$T_TMP/stage/lib/systemd/system/rocedp-sync.service"
t_check $? "make install DESTDIR=... PREFIX=/opt/rd puts everything under both (unit runs /opt/rd/sbin/rocedp)" \
	"rc $rc: $(tail -n3 "$T_TMP/inst.out" | why)"

# ------------------------------------------------------------ install
# someone's rocedp (installed, or removed with its config left): not ours
if dpkg -s rocedp >/dev/null 2>&1; then
	t_skip "dpkg -i, files, rocedp status, dpkg -r" "a rocedp package is already installed here; not replacing it"
	t_done
	exit $?
fi
dpkg -i "$deb" >"$T_TMP/dpkg.out" 2>&1
rc=$?
[ $rc = 0 ] && installed_by_us=1
t_check $rc "dpkg -i $(basename "$deb") (dependencies from its metadata are present here)" "$(tail -n5 "$T_TMP/dpkg.out" | why)"
[ -n "$installed_by_us" ] || {
	t_done
	exit 1
}
dpkg -s rocedp 2>/dev/null | grep -qx "Status: install ok installed"
t_check $? "dpkg -s rocedp: install ok installed"
MANWIDTH=80 man --warnings /usr/share/man/man8/rocedp.8.gz >/dev/null 2>"$T_TMP/man.err"
[ ! -s "$T_TMP/man.err" ] && man -w rocedp >/dev/null 2>&1
t_check $? "man page renders without warnings and man finds rocedp(8)" "$(why "$T_TMP/man.err")"
/usr/sbin/rocedp --version | grep -qx "rocedp $version"
t_check $? "/usr/sbin/rocedp --version says $version"

ip netns add "$NS" && ip -n "$NS" link add lcd0 type veth peer name lcd1 &&
	ip -n "$NS" link set lcd0 up && ip -n "$NS" link set lcd1 up
pr() { nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" /usr/sbin/rocedp "$@"; }
pr attach lcd0 --mode native >"$T_TMP/a.out" 2>&1 && pr -j status >"$T_TMP/s.json" 2>&1 &&
	t_pyj "$T_TMP/s.json" 'j["maps_pinned"] and [i["name"] for i in j["interfaces"]] == ["lcd0"]' >/dev/null
t_check $? "installed rocedp attaches lcd0 (native XDP) and status -j shows it" "$(why "$T_TMP/a.out" "$T_TMP/s.json")"
pr detach --all >"$T_TMP/d.out" 2>&1 && [ ! -e "$PIN" ]
t_check $? "installed rocedp detaches, no pins left" "$(why "$T_TMP/d.out")"

# ------------------------------------------------------------ remove
# attached again: removal must take it down (prerm: detach --all)
pr attach lcd0 lcd1 --mode native >"$T_TMP/a2.out" 2>&1
t_check $? "attached lcd0 and lcd1 before dpkg -r" "$(why "$T_TMP/a2.out")"
nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" dpkg -r rocedp >"$T_TMP/rm.out" 2>&1
rc=$?
[ $rc = 0 ] && installed_by_us=
t_check $rc "dpkg -r rocedp" "$(tail -n3 "$T_TMP/rm.out" | why)"
ip -n "$NS" -d link show lcd0 >"$T_TMP/l0" 2>&1
ip -n "$NS" -d link show lcd1 >"$T_TMP/l1" 2>&1
! grep -q "prog/xdp" "$T_TMP/l0" "$T_TMP/l1" && [ ! -e "$PIN" ]
t_check $? "after dpkg -r no XDP program on lcd0/lcd1 and no pin dir" "$(why "$T_TMP/l0" "$T_TMP/l1")"
left=$(for f in /usr/sbin/rocedp /usr/lib/rocedp /usr/share/man/man8/rocedp.8.gz \
	/lib/systemd/system/rocedp.service /lib/systemd/system/rocedp-sync.service \
	/lib/systemd/system/rocedp-textfile.timer /usr/share/doc/rocedp; do
	[ -e "$f" ] && echo "$f"
done)
[ -z "$left" ] && ! dpkg -s rocedp 2>/dev/null | grep -q "^Status: install ok installed"
t_check $? "after dpkg -r nothing of the package is left" "left: $(echo "$left" | why)"
dpkg -P rocedp >"$T_TMP/purge.out" 2>&1 && ! dpkg -s rocedp >/dev/null 2>&1
t_check $? "dpkg -P rocedp: the package is gone from dpkg's database" "$(tail -n3 "$T_TMP/purge.out" | why)"
t_done
