#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print tests/harness/bench/failover.sh's JSON as a table, rocedp and the kernel
side by side per event. Usage: failover_table.py FILE"""
import json
import sys

EVENTS = {
    "linkdown": "(a) leaf uplink down",
    "bgpkill": "(b) spine bgpd killed",
    "bgpstop": "(b') spine bgpd SIGSTOP",
    "spineback": "(c) spine back",
    "flap": "(d) clear ip bgp * (leaf)",
}


def cell(v):
    return "-" if v is None else str(v)


def table(doc):
    rows = doc.get("rows", [])
    out = [f"failover under RoCE traffic (FRR {doc.get('bgp')}, {doc.get('qps')} QPs at "
           f"{doc.get('rate_mbps')} Mbit/s; rocedp | kernel)",
           f"  {'event':28} {'lost':>13} {'to dead':>9} {'oos':>11} {'misfwd':>9} "
           f"{'known ms':>16} {'recovery ms':>13}"]
    by = {(r["mode"], r["event"]): r for r in rows}
    for ev in [e for e in EVENTS if any(r["event"] == e for r in rows)]:
        a, b = by.get(("rocedp", ev), {}), by.get(("kernel", ev), {})

        def pair(k, w):
            return f"{cell(a.get(k)) + ' | ' + cell(b.get(k)):>{w}}"
        err = "; ".join(x["error"] for x in (a, b) if "error" in x)
        out.append(f"  {EVENTS[ev]:28} {pair('lost', 13)} {pair('to_dead', 9)} {pair('oos', 11)} "
                   f"{pair('misforwarded', 9)} {pair('known_ms', 16)} {pair('recovery_ms', 13)}"
                   + (f"  ({err})" if err else ""))
    return "\n".join(out)


if __name__ == "__main__":
    print(table(json.load(open(sys.argv[1]))))
