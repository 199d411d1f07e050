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
	why=$($PY - "$T_TMP/fo.json" "$ev" <<'EOF'
import json, sys
try:
    r = [x for x in json.load(open(sys.argv[1]))["rows"] if x["event"] == sys.argv[2]][0]
except (OSError, ValueError, KeyError, IndexError) as e:
    print(f"no result: {e}"); sys.exit(1)
bad = []
if "error" in r: bad.append(r["error"])
elif r["qps_failed"] or r["delivered"] != r["messages"] or r["messages"] == 0:
    bad.append(f"{r['qps_failed']} QPs failed, {r['delivered']} of {r['messages']} messages delivered")
if r.get("known_ms") is None: bad.append("leaf1's kernel route never dropped spine1")
if r.get("to_dead") != 0: bad.append(f"{r.get('to_dead')} frames reached spine1 after the route dropped it")
if r.get("rd_tx_dead") not in (0, None): bad.append(f"rocedp sent {r['rd_tx_dead']} frames on up1 after that")
if r.get("misforwarded") != 0: bad.append(f"{r.get('misforwarded')} misforwarded")
if (r.get("recovery_ms") or 0) > 1000: bad.append(f"losses went on {r['recovery_ms']} ms after the event")
print("; ".join(bad) or f"{r['delivered']} messages delivered, {r['lost']} frames lost, {r['oos']} oos, "
      f"known after {r['known_ms']} ms, losses ended {r['recovery_ms']} ms after the event, 0 to the dead member, 0 misforwarded")
sys.exit(1 if bad else 0)
EOF
	)
	t_check $? "$ev: $why" "$why"
done
t_done
