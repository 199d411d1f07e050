#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The systemd units as `make install` writes them (tools/packaging/*.service,
# *.timer, with the shared sandbox of hardening.inc), checked offline:
#  * `systemd-analyze verify` finds nothing wrong in any of them;
#  * `systemd-analyze security --offline=yes`: exposure <= 5.0 for each
#    service (Debian 12's systemd 252 has --offline);
#  * each service's CapabilityBoundingSet is exactly what it needs:
#    rocedp.service attaches (CAP_BPF CAP_NET_ADMIN, and CAP_SYS_ADMIN to
#    resolve the kfunc and find programs by id), the sync daemons write maps and
#    read netlink (CAP_BPF CAP_NET_ADMIN), the textfile job reads maps
#    (CAP_BPF), and so does the exporter (exposure <= 2.5: it alone takes
#    connections);
#  * the daemons are Type=notify and ordered after rocedp.service, with no
#    condition on a pin file that only attach creates;
#  * rocedp.service starts and stops from /etc/rocedp/rocedp.json.
# Whether they run on a booted system is make test-install's to show.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
TMP=$(mktemp -d /tmp/rdunits.XXXXXX)
t_cleanup 'rm -rf "$TMP"'
trap 'exit 1' INT TERM

command -v systemd-analyze >/dev/null || {
	echo "not ok 1 - systemd-analyze is missing (apt-get install systemd)"
	exit 1
}
need_rocedp

# installed under TMP with PREFIX=TMP/usr: ExecStart names a binary that
# exists, which verify checks
if ! make -s -C "$ROOT" install OUT="$OUT" PREFIX="$TMP/usr" UNITDIR="$TMP/units" \
	>"$TMP/inst.out" 2>&1; then
	nok "make install PREFIX=$TMP/usr UNITDIR=$TMP/units" "$(tail -5 "$TMP/inst.out")"
	t_done
	exit 1
fi
U=$TMP/units
units=$(cd "$U" && ls ./*.service ./*.timer | sed 's|^\./||')
[ "$(echo "$units" | LC_ALL=C sort | tr "\n" " ")" = "rocedp-exporter.service rocedp-sonic-sync.service rocedp-sync.service rocedp-textfile.service rocedp-textfile.timer rocedp.service " ] &&
	ok "make install writes the 6 units" || nok "make install writes the 6 units" "$units"
if grep -l '@HARDENING@\|@SBINDIR@' "$U"/* >"$TMP/left"; then
	nok "no placeholder left in an installed unit" "$(cat "$TMP/left")"
else
	ok "no placeholder left in an installed unit"
fi

for u in $units; do
	(cd "$U" && systemd-analyze verify --man=no "./$u") >"$TMP/v.out" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$TMP/v.out" ]; then
		ok "systemd-analyze verify $u"
	else
		nok "systemd-analyze verify $u" "rc $rc: $(head -5 "$TMP/v.out")"
	fi
done

# key UNIT KEY: the unit's values of KEY, one line
key() { sed -n "s/^$2=//p" "$U/$1" | tr '\n' ' ' | sed 's/ $//'; }

for u in rocedp.service rocedp-sync.service rocedp-sonic-sync.service rocedp-textfile.service rocedp-exporter.service; do
	max=5.0
	[ "$u" = rocedp-exporter.service ] && max=2.5
	systemd-analyze security --offline=yes "$U/$u" >"$TMP/s.out" 2>&1
	score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$TMP/s.out")
	if [ -n "$score" ] && awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }'; then
		ok "systemd-analyze security $u: exposure $score <= $max"
	else
		nok "systemd-analyze security $u: exposure <= $max" "got '${score:-none}': $(tail -3 "$TMP/s.out")"
	fi
done

caps() {
	local got
	got=$(key "$1" CapabilityBoundingSet)
	[ "$got" = "$2" ] && ok "$1: CapabilityBoundingSet=$2" ||
		nok "$1: CapabilityBoundingSet=$2" "got '$got'"
}
caps rocedp.service "CAP_BPF CAP_NET_ADMIN CAP_SYS_ADMIN"
caps rocedp-sync.service "CAP_BPF CAP_NET_ADMIN"
caps rocedp-sonic-sync.service "CAP_BPF CAP_NET_ADMIN"
caps rocedp-textfile.service "CAP_BPF"
caps rocedp-exporter.service "CAP_BPF"

r="$TMP/usr/sbin/rocedp"
[ "$(key rocedp.service Type)" = oneshot ] && [ "$(key rocedp.service RemainAfterExit)" = yes ] &&
	[ "$(key rocedp.service ExecStart)" = "$r start --config /etc/rocedp/rocedp.json" ] &&
	[ "$(key rocedp.service ExecStop)" = "$r stop" ] &&
	case " $(key rocedp.service After) " in *" systemd-modules-load.service "*) true ;; *) false ;; esac &&
	ok "rocedp.service: oneshot, rocedp start --config /etc/rocedp/rocedp.json, stop, after systemd-modules-load" ||
	nok "rocedp.service: oneshot, start/stop, after systemd-modules-load" "$(grep -E '^(Type|Exec|After)' "$U/rocedp.service")"
for u in rocedp-sync.service rocedp-sonic-sync.service rocedp-exporter.service; do
	[ "$(key $u Type)" = notify ] &&
		case " $(key $u After) " in *" rocedp.service "*) true ;; *) false ;; esac &&
		{ [ "$u" = rocedp-exporter.service ] || [ "$(key $u PartOf)" = rocedp.service ]; } &&
		! grep -q '^Condition' "$U/$u" &&
		ok "$u: Type=notify, after and part of rocedp.service, no condition on a pin" ||
		nok "$u: Type=notify, after and part of rocedp.service, no condition" "$(grep -E '^(Type|After|PartOf|Condition)' "$U/$u")"
done
[ "$(key rocedp-sync.service ExecStart)" = "$r sync" ] &&
	[ "$(key rocedp-sonic-sync.service ExecStart)" = "$r sonic sync \$ROCEDP_SONIC_ARGS" ] &&
	[ "$(key rocedp-textfile.service ExecStart)" = "$r stats --textfile /var/lib/prometheus/node-exporter" ] &&
	[ "$(key rocedp-textfile.timer OnUnitActiveSec)" = 15 ] &&
	[ "$(sed -n 's/^UMask=//p' "$U/rocedp-textfile.service" | tail -n1)" = 0022 ] &&
	ok "ExecStart: rocedp sync, rocedp sonic sync, rocedp stats --textfile every 15 s (umask 0022: node-exporter reads it)" ||
	nok "ExecStart of the sync, sonic sync and textfile units" "$(grep -h '^ExecStart' "$U"/*.service)"

[ "$(key rocedp-exporter.service ExecStart)" = "$r exporter \$ROCEDP_EXPORTER_ARGS" ] &&
	grep -qx 'Environment="ROCEDP_EXPORTER_ARGS=--listen :9436"' "$U/rocedp-exporter.service" &&
	[ "$(key rocedp-exporter.service IPAddressAllow)" = any ] &&
	ok "rocedp-exporter.service: rocedp exporter --listen :9436 (overridable), the one unit open to any address" ||
	nok "rocedp-exporter.service ExecStart, listen, IPAddressAllow" "$(grep -E '^(Exec|Env|IPAddress)' "$U/rocedp-exporter.service")"

t_done
