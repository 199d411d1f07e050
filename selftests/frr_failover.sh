#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Failover under RoCE traffic on the FRR fabric (docs/frr.md,
# "Failover under traffic"). A short run of
# tests/harness/bench/failover.sh with rocedp only and two events: leaf1's up1 goes
# down; spine1's bgpd is SIGKILLed. `make bench` runs all five events
# against the kernel as well. Asserted, loosely (a loaded 2-core VM):
#   - traffic recovers: every message delivered, no QP failed;
#   - nothing reaches the dead member once leaf1's kernel route has
#     dropped it (tcpdump at spine1's ingress, and rocedp's tx counter of up1);
#   - 0 misforwarded frames (RoCE for h2-1 coming back up from leaf2);
#   - the losses stop within 1 s of the event.
#
# Usage: selftests/frr_failover.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

if [ ! -x /usr/lib/frr/bgpd ] || [ ! -x /usr/lib/frr/zebra ]; then
	t_skip "FRR failover" "frr is not installed (apt-get install frr)"
	t_done
	exit 0
fi
t_require bpftool vtysh tcpdump

T_LAB_PREFIX=ff$((RANDOM % 10000))
t_cleanup "\"$LAB\" down --prefix $T_LAB_PREFIX >/dev/null 2>&1"

PREFIX=$T_LAB_PREFIX ROCEDP=$ROCEDP ROCEGEN=$ROCEGEN FAILOVER_SECONDS=4 \
	"$T_TOP/tests/harness/bench/failover.sh" --modes rocedp --events "linkdown bgpkill" \
	-j "$T_TMP/fo.json" >"$T_TMP/fo.out" 2>"$T_TMP/fo.err"
t_check $? "tests/harness/bench/failover.sh ran (rocedp; linkdown, bgpkill)" "$(tail -n3 "$T_TMP/fo.err")"
sed 's/^/# /' "$T_TMP/fo.out"

for ev in linkdown bgpkill; do
	why=$($PY "$T_TOP/selftests/frr_failover.py" event "$T_TMP/fo.json" "$ev")
	t_check $? "$ev: $why" "$why"
done
t_done
