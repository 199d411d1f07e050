#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rocedp beside another XDP program (docs/design.md, "Sharing a port with
# other XDP programs"). rocedp joins libxdp's dispatcher by default; where
# libxdp's dispatcher is unavailable (on 6.18, Debian's libxdp 1.3.1 fails
# its compatibility check with EPERM and falls back to a single program)
# it must say so, and it must never replace a program that is not its own
# unless told to. Per XDP mode (generic, native), on a veth pair in a netns:
#  1. attach on a free port: the attach line and `status` (text and -j) say
#     how the program sits there; where libxdp fell back, both say the
#     dispatcher is unavailable and the program is exclusive;
#  2. another program (tests/xdp/foreign.bpf.c, attached by `ip link` as a
#     tool that does not use the dispatcher would): attach refuses, exit 1,
#     naming it; so does --exclusive; the program is still there, the same
#     one, and rocedp recorded nothing;
#  3. --force replaces it: rocedp's program is on the port;
#  4. detach removes rocedp's program; a foreign program on the other
#     port of the pair is left alone throughout.
# The 6.1 guest (tests/kernel) runs both programs together in the
# dispatcher, in both orders.
#
# Usage: selftests/xdp_coexist.sh [generic|native ...]  (root; default both)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(generic native)
t_require ip bpftool || exit $?
OBJ=$T_OUT/xdp_foreign.bpf.o
[ -r "$OBJ" ] || { t_fail "$OBJ built (make)"; t_done; exit 1; }

NS=xc$$
in_ns() { ip netns exec "$NS" "$@"; }
X() { in_ns "$ROCEDP" "$@"; }
cleanup() {
	[ -e "/run/netns/$NS" ] && X detach --all >/dev/null 2>&1
	ip netns del "$NS" 2>/dev/null
}
t_cleanup cleanup

ip netns add "$NS" && ip -n "$NS" link add xc0 type veth peer name xc1 &&
	ip -n "$NS" link set xc0 up && ip -n "$NS" link set xc1 up
t_check $? "netns $NS with veth xc0-xc1" || { t_done; exit 1; }

# prog DEV: "NAME ID" of the XDP program on DEV, empty when none
prog() {
	ip -n "$NS" -d -j link show dev "$1" | $PY "$T_TOP/selftests/xdp_coexist.py" prog
}
flag() { [ "$1" = native ] && echo xdpdrv || echo xdpgeneric; }

for mode in "${modes[@]}"; do
	# the other end carries a foreign program all along
	ip -n "$NS" link set dev xc1 "$(flag "$mode")" obj "$OBJ" sec xdp
	t_check $? "$mode: foreign program on xc1"
	keep=$(prog xc1)

	X attach --mode "$mode" xc0 2>"$T_TMP/attach.err"
	t_check $? "$mode: attach xc0 (a free port)" "$(cat "$T_TMP/attach.err")"
	X status >"$T_TMP/status.txt" 2>&1
	X -j status >"$T_TMP/status.json" 2>&1
	if grep -q "dispatcher is unavailable" "$T_TMP/attach.err"; then
		grep -q "xdp: exclusive (own link): libxdp's dispatcher is unavailable" "$T_TMP/status.txt"
		t_check $? "$mode: fallback: status says libxdp's dispatcher is unavailable" "$(cat "$T_TMP/status.txt")"
		t_pyj "$T_TMP/status.json" '[(i["xdp"], i["dispatcher_unavailable"]) for i in j["interfaces"]] == [("exclusive", True)]' >/dev/null
		t_check $? "$mode: fallback: status -j: exclusive, dispatcher_unavailable" "$(cat "$T_TMP/status.json")"
		[ "$(prog xc0 | cut -d' ' -f1)" = rocedp_xdp ]
		t_check $? "$mode: fallback: rocedp_xdp alone on xc0" "$(prog xc0)"
	else
		grep -q "xdp: in libxdp's dispatcher" "$T_TMP/status.txt"
		t_check $? "$mode: status says rocedp is in libxdp's dispatcher" "$(cat "$T_TMP/status.txt")"
		t_pyj "$T_TMP/status.json" '[(i["xdp"], i["dispatcher_unavailable"]) for i in j["interfaces"]] == [("dispatcher", False)]' >/dev/null
		t_check $? "$mode: status -j: dispatcher" "$(cat "$T_TMP/status.json")"
		[ "$(prog xc0 | cut -d' ' -f1)" = xdp_dispatcher ]
		t_check $? "$mode: libxdp's dispatcher on xc0" "$(prog xc0)"
	fi
	X detach xc0
	t_check $? "$mode: detach xc0"
	[ -z "$(prog xc0)" ]
	t_check $? "$mode: nothing left on xc0" "$(prog xc0)"

	ip -n "$NS" link set dev xc0 "$(flag "$mode")" obj "$OBJ" sec xdp
	t_check $? "$mode: foreign program on xc0"
	before=$(prog xc0)
	for how in "" --exclusive; do
		X attach --mode "$mode" $how xc0 2>"$T_TMP/refuse.err"
		rc=$?
		[ $rc = 1 ] && grep -q "xdp_foreign id ${before#* } is on it.*only with --force" "$T_TMP/refuse.err"
		t_check $? "$mode: attach ${how:-(dispatcher)} refused over xdp_foreign, exit $rc, named" "$(cat "$T_TMP/refuse.err")"
		[ "$(prog xc0)" = "$before" ]
		t_check $? "$mode: xdp_foreign still on xc0, the same program" "before '$before', now '$(prog xc0)'"
	done
	X -j status >"$T_TMP/status.json" 2>&1
	t_pyj "$T_TMP/status.json" 'j["interfaces"] == []' >/dev/null
	t_check $? "$mode: nothing recorded after the refusals" "$(cat "$T_TMP/status.json")"

	X attach --mode "$mode" --force xc0 2>"$T_TMP/force.err"
	t_check $? "$mode: attach --force" "$(cat "$T_TMP/force.err")"
	now=$(prog xc0)
	case $now in rocedp_xdp* | xdp_dispatcher*) true ;; *) false ;; esac
	t_check $? "$mode: --force put rocedp's program on xc0" "now '$now'"
	X detach xc0
	t_check $? "$mode: detach xc0 after --force"
	[ -z "$(prog xc0)" ] && [ "$(prog xc1)" = "$keep" ]
	t_check $? "$mode: xc0 free, xc1's foreign program untouched" "xc0 '$(prog xc0)', xc1 '$(prog xc1)' (was '$keep')"
	ip -n "$NS" link set dev xc1 "$(flag "$mode")" off
done
t_done
