#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The `make test-install` scenario, run inside the Debian 12 guest by
# guestcheck.service at every boot, from the read-only test disk
# (/run/itest: this script, frames.py, the config, the apt repository).
#
# Boot 1 (install): add the disk's apt repository, `apt-get install rocedp
# rocedp-dkms` (dependencies from the packages' metadata), write
# /etc/rocedp/rocedp.json naming swp1 and swp2 and the ports' network
# config, enable the package's units, reboot.
# Boot 2 (after the reboot, nothing typed): the module, the programs, the
# config, sync, the ECN source and forwarding are checked as they came
# up; then `apt-get purge rocedp rocedp-dkms` and nothing may be left.
#
# Every check prints "ROCEDP-ITEST: PASS|FAIL name: detail" on the serial
# console; the host turns them into TAP lines. "ROCEDP-ITEST: DONE" ends.
set -u
D=/run/itest
STATE=/var/lib/guestcheck
mkdir -p "$STATE"
exec 3>/dev/ttyS0
. "$D/guest.env" # GUEST_KVER, FRAMES

say() { echo "ROCEDP-ITEST: $*" >&3; }
# check NAME DETAIL CMD...: one line, PASS when CMD succeeds
check() {
	local name=$1 detail=$2
	shift 2
	if "$@" >"$STATE/out" 2>&1; then
		say "PASS $name: $detail"
	else
		say "FAIL $name: $detail: $(tr '\n' ' ' <"$STATE/out" | cut -c1-300)"
	fi
}
finish() {
	say "LOG journal of the rocedp units follows"
	journalctl -b --no-pager -o short-monotonic -u 'rocedp*' 2>&1 |
		tail -n 60 | sed 's/^/ROCEDP-ITEST-LOG: /' >&3
	say "DONE"
	sync
	systemctl poweroff
	exit 0
}
now() { cut -d' ' -f1 /proc/uptime; }

phase=$(cat "$STATE/phase" 2>/dev/null || echo install)
# Wait until boot is over (every unit started or failed); "degraded"
# is an answer too, the checks say what failed.
systemctl is-system-running --wait >/dev/null 2>&1
say "BEGIN $phase at $(now) s after boot, kernel $(uname -r)"

# unit files the packages ship (not templates): read from the package,
# not hardcoded, so a renamed unit is still found
units() {
	dpkg -L rocedp rocedp-dkms 2>/dev/null |
		grep -E '^/(usr/)?lib/systemd/system/[^/@]+\.(service|timer)$' |
		xargs -r -n1 basename | sort -u
}
# the ones this box enables: all but the SONiC one (no redis here), and
# a service that a timer of the same name starts is the timer's
enabled_units() {
	local u all
	all=$(units)
	for u in $all; do
		case $u in *sonic*) continue ;; esac
		case $u in *.service)
			echo "$all" | grep -qx "${u%.service}.timer" && continue ;;
		esac
		echo "$u"
	done
}

if [ "$phase" = install ]; then
	echo 'deb [trusted=yes] file:/run/itest/repo ./' \
		>/etc/apt/sources.list.d/rocedp-local.list
	: >/etc/apt/sources.list
	rm -f /etc/apt/sources.list.d/debian.sources
	t0=$(date +%s)
	# unsafe-io: no fsync per file; the disk is a throwaway overlay
	# progress on the console: which package, and DKMS's own lines
	if apt-get update -q >"$STATE/apt.log" 2>&1 &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			-o Dpkg::Options::=--force-unsafe-io \
			rocedp rocedp-dkms 2>&1 | tee -a "$STATE/apt.log" |
		grep --line-buffered -E '^(Setting up|Unpacking) |[Dd][Kk][Mm][Ss]|rocedp' |
			sed -u 's/^/ROCEDP-ITEST-LOG: /' >&3 &&
		[ "${PIPESTATUS[0]}" = 0 ]; then
		n=$(grep -c '^Setting up ' "$STATE/apt.log")
		say "PASS apt-install: apt-get install rocedp rocedp-dkms from the test repository: $n packages set up in $(($(date +%s) - t0)) s"
	else
		say "FAIL apt-install: $(tail -n 15 "$STATE/apt.log" | tr '\n' ' ' | cut -c1-600)"
		finish
	fi
	# the image had none of rocedp's run-time libraries: apt brought
	# what the Depends name, and that must be all the binary needs
	check runtime-deps "rocedp's shared libraries all found ($(grep '^Setting up lib' "$STATE/apt.log" | cut -d' ' -f3 | tr '\n' ' '))" \
		sh -c '! ldd "$(command -v rocedp)" | grep "not found" && rocedp help >/dev/null'
	check dkms-built "rocedp_ecn built by DKMS for $GUEST_KVER" \
		sh -c "dkms status | grep -i 'rocedp.*$GUEST_KVER.*installed'"
	check no-build-tree "no path of a build tree in the installed files" \
		sh -c "! dpkg -L rocedp | grep -E '/work/|/build/'"

	# the operator's configuration, persisted: ports, addresses, a route
	# through swp2 with its neighbour, and rocedp's one config file
	mkdir -p /etc/rocedp
	cp "$D/rocedp.json" /etc/rocedp/rocedp.json
	cp "$D"/network/*.network /etc/systemd/network/
	enabled=$(enabled_units | tr '\n' ' ')
	check enable-units "systemctl enable $enabled" systemctl enable $enabled
	echo "$enabled" >"$STATE/enabled"
	dpkg -L rocedp rocedp-dkms | sort >"$STATE/files"
	echo reboot >"$STATE/phase"
	say "REBOOT"
	sync
	systemctl reboot
	exit 0
fi

if [ "$phase" = reboot ]; then
	echo purged >"$STATE/phase"
	kver=$(uname -r)
	check boot-kernel "booted Debian's $GUEST_KVER after the reboot" \
		test "$kver" = "$GUEST_KVER"
	for u in $(cat "$STATE/enabled"); do
		check "active-$u" "$u came up by itself ($(systemctl is-active "$u"))" \
			systemctl is-active --quiet "$u"
	done
	check module-loaded "rocedp_ecn loaded at boot, its BTF present" \
		test -d /sys/module/rocedp_ecn -a -e /sys/kernel/btf/rocedp_ecn
	# the kernel shows an XDP program on the port (rocedp's, or libxdp's
	# dispatcher in front of it) and rocedp counts the port as attached
	rocedp -j status >"$STATE/status.json" 2>&1
	for p in swp1 swp2; do
		check "attached-$p" "$p: $(bpftool net show dev "$p" 2>&1 | grep -E 'xdp|tc' | tr -s ' \n' ' ' | cut -c1-120)" \
			sh -c "ip -d link show $p | grep -q 'prog/xdp' &&
				python3 -c 'import json,sys; j = json.load(open(sys.argv[1])); assert sys.argv[2] in [i[\"name\"] for i in j[\"interfaces\"]], j' $STATE/status.json $p"
	done
	# the values below are in /etc/rocedp/rocedp.json and are not defaults
	rocedp -j config show >"$STATE/cfg.json" 2>&1
	check config-loaded "rocedp -j config show has the file's hash seed 4242 and data DSCP 26" \
		python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
assert c["hash"]["seed"] == 4242, c["hash"]
assert c["qos"]["data"]["dscp"] == 26, c["qos"]
' "$STATE/cfg.json"
	rocedp -j ecn show >"$STATE/ecn.json" 2>&1
	check ecn-module "rocedp -j ecn show: thresholds from the module ($(grep -o '"source": *"[a-z]*"' "$STATE/ecn.json" | head -n1))" \
		grep -q '"source": *"module"' "$STATE/ecn.json"
	# the route networkd installed, in the dataplane's LPM map (key:
	# prefix length 16, address 10.9.0.0 in network order = 0x090a)
	pin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pin_dir"])' "$STATE/status.json")
	bpftool -j map dump pinned "$pin/rd_routes4" >"$STATE/r4.json" 2>&1
	check sync-routes "rocedp-sync mirrored the route 10.9.0.0/16 into $pin/rd_routes4" \
		python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert any(e["formatted"]["key"] == {"prefixlen": 16, "addr": 0x090a} for e in j), j[:4]
' "$STATE/r4.json"
	check no-kernel-forwarding "the kernel does not forward (net.ipv4.ip_forward=0): what crosses is rocedp's" \
		test "$(cat /proc/sys/net/ipv4/ip_forward)" = 0
	rocedp -j stats >"$STATE/stats0.json" 2>&1
	python3 "$D/frames.py" hosta hostb "$FRAMES" >"$STATE/frames.json" 2>&1
	rocedp -j stats >"$STATE/stats1.json" 2>&1
	check forwarded "$FRAMES RoCEv2 frames in on swp1 forwarded out of swp2, rewritten: $(cat "$STATE/frames.json" | tr '\n' ' ' | cut -c1-200)" \
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert r["received"] == n and r["rewritten"] == n, r
' "$STATE/frames.json" "$FRAMES"
	check stats-counted "rocedp -j stats counts them on swp2" \
		python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
tx = lambda j: sum(p.get("tx_pkts", 0) for p in j["ports"] if p.get("name") == "swp2")
d = tx(b) - tx(a)
print(d)
assert d >= int(sys.argv[3]), d
' "$STATE/stats0.json" "$STATE/stats1.json" "$FRAMES"

	# --- apt purge leaves nothing -----------------------------------------
	t0=$(date +%s)
	check apt-purge "apt-get purge rocedp rocedp-dkms" \
		env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q \
		-o Dpkg::Options::=--force-unsafe-io rocedp rocedp-dkms
	say "INFO purge took $(($(date +%s) - t0)) s"
	for p in swp1 swp2; do
		check "purged-prog-$p" "no XDP or tc program on $p" \
			sh -c "! ip -d link show $p | grep -q 'prog/' &&
				! tc filter show dev $p ingress | grep -q . &&
				! tc filter show dev $p egress | grep -q ."
		check "purged-qdisc-$p" "no clsact qdisc left on $p" \
			sh -c "! tc qdisc show dev $p | grep -q clsact"
	done
	check purged-pins "nothing of rocedp pinned under /sys/fs/bpf" \
		sh -c '! find /sys/fs/bpf -name "*rocedp*" -o -name "rd_*" | grep .'
	check purged-units "no rocedp unit loaded or running" \
		sh -c '! systemctl list-units --all --plain --no-legend "rocedp*" | grep .'
	check purged-procs "no rocedp process" sh -c '! pgrep -a rocedp'
	check purged-module "rocedp_ecn unloaded and its .ko gone" \
		sh -c '! test -d /sys/module/rocedp_ecn &&
			! find /lib/modules -name "rocedp_ecn.ko*" | grep . &&
			! ls -d /var/lib/dkms/rocedp* 2>/dev/null'
	check purged-files "no file the packages installed is left" \
		sh -c 'while read -r f; do [ -d "$f" ] || [ ! -e "$f" ] || echo "$f"; done <'"$STATE/files"' | grep . && exit 1; exit 0'
	check purged-etc "/etc/rocedp holds only the operator's own rocedp.json" \
		sh -c '[ ! -d /etc/rocedp ] || [ "$(ls -A /etc/rocedp)" = rocedp.json ]'
	finish
fi

say "FAIL phase: unexpected state '$phase' (the test ran on this disk before?)"
finish
