#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make deb` builds a package that installs and runs (issue 8, "Done when").
#
# The package is built from a scratch copy of the tree (the files git knows
# plus untracked, not ignored ones; no build/), as a clean clone would be,
# then installed with dpkg -i. Checked: the files it must carry (binary, BPF
# object, man page, systemd unit for `rocedp sync`, the rocedp_ecn module
# source with a dkms.conf of the same version), that `/usr/sbin/rocedp
# status` runs (exit 0, "not loaded" or the state), that the installed
# binary attaches, reports and detaches in a netns of ours, and that
# `dpkg -r rocedp` takes every file away again and `dpkg -P` the record. `make install DESTDIR=...
# PREFIX=...` is checked to honour both variables.
#
# A rocedp package that is already installed is left alone (the test skips
# the install steps rather than replace someone's package).
#
# Usage: selftests/deb.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

missing=$(t_need dpkg dpkg-deb make tar nsenter) || {
	t_fail "tools present" "missing: $missing"
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
	[ -e "/run/netns/$NS" ] && nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" \
		/usr/sbin/rocedp detach --all
	ip netns del "$NS" 2>/dev/null
	rm -rf "$PIN"
	[ -n "$installed_by_us" ] && dpkg -P rocedp
}
t_cleanup teardown

# ------------------------------------------------------------ build
mkdir -p "$SRC"
(cd "$T_TOP" && git ls-files -co --exclude-standard | grep -v '^build/' |
	tar -cf - -T -) | tar -xf - -C "$SRC"
t_check $? "scratch copy of the tree ($(find "$SRC" -type f | wc -l) files)"
make -C "$SRC" deb >"$T_TMP/deb.out" 2>&1
rc=$?
deb=$(grep '\.deb$' "$T_TMP/deb.out" | tail -n1)
case $deb in /*) ;; ?*) deb=$SRC/$deb ;; esac
[ $rc = 0 ] && [ -f "$deb" ]
t_check $? "make deb in the scratch copy: $(basename "$deb")" "rc $rc: $(tail -n5 "$T_TMP/deb.out" | why)"
[ -f "$deb" ] || { t_done; exit 1; }

dpkg-deb -f "$deb" Package Version Architecture Depends >"$T_TMP/control"
version=$(sed -n 's/^\#define ROCEDP_VERSION "\(.*\)"/\1/p' "$SRC/userspace/lib/rocedp.h")
grep -qx "Package: rocedp" "$T_TMP/control" && grep -qx "Version: $version" "$T_TMP/control" &&
	grep -qx "Architecture: $(dpkg --print-architecture)" "$T_TMP/control" &&
	grep -q "^Depends: .*libbpf1.*" "$T_TMP/control" && grep -q "libxdp1" "$T_TMP/control" &&
	grep -q "libmnl0" "$T_TMP/control" && grep -q "libjson-c5" "$T_TMP/control"
t_check $? "control: Package rocedp, Version $version, this architecture, Depends on libbpf1 libxdp1 libmnl0 libjson-c5" "$(why "$T_TMP/control")"
dpkg-deb -c "$deb" | awk '{print $1, $2, $6}' >"$T_TMP/contents"
out=$(grep -v '^d' "$T_TMP/contents" | grep -v ' root/root ' | head -3)
[ -z "$out" ]
t_check $? "every file in the package is owned by root:root" "$(echo "$out" | why)"
out=$(grep -v '^d' "$T_TMP/contents" | awk '$1 ~ /w.$/ || $1 ~ /w....$/ {print}' | head -3)
[ -z "$out" ]
t_check $? "no file in the package is group/world writable" "$(echo "$out" | why)"
rm -rf "$T_TMP/ctl" && dpkg-deb -e "$deb" "$T_TMP/ctl"
ok=0
for f in postinst prerm postrm; do
	[ -x "$T_TMP/ctl/$f" ] && sh -n "$T_TMP/ctl/$f" || ok=1
done
for f in postinst prerm; do
	grep -qx "VERSION=$version" "$T_TMP/ctl/$f" || ok=1
done
grep -q "dkms add -m rocedp-ecn" "$T_TMP/ctl/postinst" &&
	grep -q "dkms remove -m rocedp-ecn" "$T_TMP/ctl/prerm" || ok=1
! grep -v '^#' "$T_TMP/ctl/postinst" | grep -qE "systemctl (enable|start) " || ok=1
[ $ok = 0 ]
t_check $? "maintainer scripts: postinst, prerm, postrm, executable, valid sh, VERSION $version; DKMS add/remove; the service never enabled or started by the package" \
	"$(ls -l "$T_TMP/ctl" 2>&1 | why)"

# ------------------------------------------------------------ make install
make -C "$SRC" install DESTDIR="$T_TMP/stage" PREFIX=/opt/rd >"$T_TMP/inst.out" 2>&1
rc=$?
ok=0
for f in opt/rd/sbin/rocedp opt/rd/lib/rocedp/rocedp.bpf.o opt/rd/share/man/man8/rocedp.8 \
	lib/systemd/system/rocedp-sync.service opt/rd/src/rocedp-ecn-$version/dkms.conf; do
	[ -f "$T_TMP/stage/$f" ] || { ok=1; echo "# missing $f"; }
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
# Without dkms here, a stand-in records what the maintainer scripts ask
# of it (dpkg passes PATH on to them); with dkms, the real one runs.
fake=
if ! command -v dkms >/dev/null 2>&1; then
	fake=$T_TMP/fakebin
	mkdir -p "$fake"
	printf '#!/bin/sh\necho "$*" >>%s\n' "$T_TMP/dkms.calls" >"$fake/dkms"
	chmod +x "$fake/dkms"
fi
PATH=${fake:+$fake:}$PATH dpkg -i "$deb" >"$T_TMP/dpkg.out" 2>&1
rc=$?
[ $rc = 0 ] && installed_by_us=1
t_check $rc "dpkg -i $(basename "$deb")" "$(tail -n5 "$T_TMP/dpkg.out" | why)"
[ -n "$installed_by_us" ] || { t_done; exit 1; }
dpkg -s rocedp 2>/dev/null | grep -qx "Status: install ok installed"
t_check $? "dpkg -s rocedp: install ok installed"
# postinst ran: it registered the module and built it for every kernel
# with headers (not only the running one)
if [ -z "$fake" ]; then
	dkms status -m rocedp-ecn -v "$version" | grep -q .
	t_check $? "postinst: dkms knows rocedp-ecn/$version" "$(dkms status 2>&1 | why)"
else
	ok=0
	grep -qx "add -m rocedp-ecn -v $version" "$T_TMP/dkms.calls" || ok=1
	for b in /lib/modules/*/build; do
		[ -e "$b" ] || continue
		k=$(basename "$(dirname "$b")")
		grep -qx "install -m rocedp-ecn -v $version -k $k" "$T_TMP/dkms.calls" || ok=1
	done
	t_check $ok "postinst: dkms add, then install for every kernel with headers" "$(why "$T_TMP/dkms.calls")"
	PATH=/usr/sbin:/usr/bin:/sbin:/bin sh /var/lib/dpkg/info/rocedp.postinst configure 2>"$T_TMP/nodkms.err"
	grep -q "dkms is not installed: the rocedp_ecn module is not built" "$T_TMP/nodkms.err"
	t_check $? "postinst without dkms: says the module is not built and why" "$(why "$T_TMP/nodkms.err")"
fi

for f in /usr/sbin/rocedp /usr/lib/rocedp/rocedp.bpf.o /usr/share/man/man8/rocedp.8 \
	/lib/systemd/system/rocedp-sync.service /usr/src/rocedp-ecn-$version/rocedp_ecn.c \
	/usr/src/rocedp-ecn-$version/Kbuild /usr/src/rocedp-ecn-$version/rocedp_abi.h \
	/usr/src/rocedp-ecn-$version/dkms.conf /usr/share/doc/rocedp/config.md; do
	[ -f "$f" ]
	t_check $? "installed: $f"
done
[ -x /usr/sbin/rocedp ] && [ "$(stat -c '%a %U' /usr/sbin/rocedp)" = "755 root" ]
t_check $? "/usr/sbin/rocedp is 0755 root"
# the BPF object is a BPF ELF with the four entry programs
readelf -h /usr/lib/rocedp/rocedp.bpf.o 2>/dev/null | grep -q "Linux BPF" &&
	[ "$(readelf -S /usr/lib/rocedp/rocedp.bpf.o | grep -cE ' (xdp|xdp\.frags|tc) ')" -ge 2 ]
t_check $? "rocedp.bpf.o is a BPF object with xdp and tc sections"
man -l /usr/share/man/man8/rocedp.8 2>/dev/null | grep -q "rocedp"
MANWIDTH=80 man --warnings -l /usr/share/man/man8/rocedp.8 >/dev/null 2>"$T_TMP/man.err"
[ ! -s "$T_TMP/man.err" ] && man -w rocedp >/dev/null 2>&1
t_check $? "man page renders without warnings and man finds rocedp(8)" "$(why "$T_TMP/man.err")"
unit=/lib/systemd/system/rocedp-sync.service
grep -qx "ExecStart=/usr/sbin/rocedp sync" $unit && grep -q "^Restart=" $unit &&
	grep -q "^WantedBy=multi-user.target" $unit &&
	grep -qx "ConditionPathExists=/sys/fs/bpf/rocedp/rd_routes4" $unit
t_check $? "systemd unit runs /usr/sbin/rocedp sync, restarts, installs into multi-user.target, skipped until the maps are pinned"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify $unit >"$T_TMP/unit.err" 2>&1
	t_check $? "systemd-analyze verify $unit" "$(why "$T_TMP/unit.err")"
fi
dk=/usr/src/rocedp-ecn-$version/dkms.conf
(set +u && . $dk && [ "$PACKAGE_NAME" = rocedp-ecn ] && [ "$PACKAGE_VERSION" = "$version" ] &&
	[ "${BUILT_MODULE_NAME[0]}" = rocedp_ecn ] && [ -n "${MAKE[0]}" ]) 2>/dev/null &&
	grep -q "obj-m := rocedp_ecn.o" /usr/src/rocedp-ecn-$version/Kbuild &&
	grep -q '#include "rocedp_abi.h"' /usr/src/rocedp-ecn-$version/rocedp_ecn.c
t_check $? "dkms.conf: rocedp-ecn $version builds rocedp_ecn (Kbuild obj-m, header beside the source)" "$(why $dk)"

# ------------------------------------------------------------ run it
/usr/sbin/rocedp status >"$T_TMP/st.out" 2>&1
rc=$?
[ $rc = 0 ] && grep -qE "^rocedp $version: (not loaded|maps pinned)" "$T_TMP/st.out"
t_check $? "/usr/sbin/rocedp status exits 0: $(head -n1 "$T_TMP/st.out")" "rc $rc: $(why "$T_TMP/st.out")"
/usr/sbin/rocedp --version | grep -qx "rocedp $version"
t_check $? "/usr/sbin/rocedp --version says $version"
ip netns add "$NS" && ip -n "$NS" link add lcd0 type veth peer name lcd1 &&
	ip -n "$NS" link set lcd0 up && ip -n "$NS" link set lcd1 up
pr() { nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" /usr/sbin/rocedp "$@"; }
pr status | grep -q "not loaded"
t_check $? "installed rocedp status in a fresh netns: not loaded"
pr attach lcd0 --mode native >"$T_TMP/a.out" 2>&1 && pr -j status >"$T_TMP/s.json" 2>&1 &&
	t_pyj "$T_TMP/s.json" 'j["maps_pinned"] and [i["name"] for i in j["interfaces"]] == ["lcd0"]' >/dev/null
t_check $? "installed rocedp attaches lcd0 (native XDP) and status -j shows it" "$(why "$T_TMP/a.out" "$T_TMP/s.json")"
pr detach --all >"$T_TMP/d.out" 2>&1 && [ ! -e "$PIN" ]
t_check $? "installed rocedp detaches, no pins left" "$(why "$T_TMP/d.out")"

# ------------------------------------------------------------ remove
PATH=${fake:+$fake:}$PATH dpkg -r rocedp >"$T_TMP/rm.out" 2>&1
rc=$?
if [ -n "$fake" ]; then
	grep -qx "remove -m rocedp-ecn -v $version --all" "$T_TMP/dkms.calls"
	t_check $? "prerm: dkms remove of rocedp-ecn/$version" "$(why "$T_TMP/dkms.calls")"
fi
[ $rc = 0 ] && installed_by_us=
t_check $rc "dpkg -r rocedp" "$(tail -n3 "$T_TMP/rm.out" | why)"
left=$(for f in /usr/sbin/rocedp /usr/lib/rocedp /usr/share/man/man8/rocedp.8 \
	/lib/systemd/system/rocedp-sync.service /usr/src/rocedp-ecn-$version /usr/share/doc/rocedp; do
	[ -e "$f" ] && echo "$f"
done)
[ -z "$left" ] && ! dpkg -s rocedp 2>/dev/null | grep -q "^Status: install ok installed"
t_check $? "after dpkg -r nothing of the package is left" "left: $(echo "$left" | why)"
# postrm makes dpkg keep a config-files record until purge: purge it
dpkg -P rocedp >"$T_TMP/purge.out" 2>&1 && ! dpkg -s rocedp >/dev/null 2>&1
t_check $? "dpkg -P rocedp: the package is gone from dpkg's database (postrm purge ran)" "$(tail -n3 "$T_TMP/purge.out" | why)"
t_done
