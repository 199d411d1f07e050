#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/frr_failover.sh.

usage: frr_failover.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def event():
    """event FO.json EVENT: the failover bench's row for EVENT: every message
    delivered, the route dropped the dead spine, nothing sent to it after, no
    misforwarding, losses ended within a second."""
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


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
