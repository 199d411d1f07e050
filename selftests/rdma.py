#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/rdma.sh.

usage: rdma.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def members():
    """members LEAF < STATS: "LEAF SLOT PKTS" per group member of rocedp -j stats."""
    import json, sys
    for g in json.load(sys.stdin)["groups"]:
        for m in g["members"]:
            print(sys.argv[1], m["slot"], m["pkts"])


def drops():
    """drops NS < LINKS: the interfaces of ip -s -j link show (stdin) that dropped
    frames, as "NS:IF rx_dropped N tx_dropped N;"."""
    import json, sys
    for l in json.load(sys.stdin):
        s = l.get("stats64", {})
        d = {k: s.get(k, {}).get("dropped", 0) for k in ("rx", "tx")}
        if any(d.values()):
            print("%s:%s rx_dropped %d tx_dropped %d;" % (sys.argv[1], l["ifname"], d["rx"], d["tx"]), end=" ")


def spread():
    """spread A B: data frames per spine from the members' counters A and B
    ("LEAF SLOT PKTS" lines), both leaves added up; exit 1 unless two
    spines carried 5% or more each."""
    import sys
    def rd(p):
        r = {}
        for line in open(p):
            leaf, slot, pkts = line.split()
            r[int(slot)] = r.get(int(slot), 0) + int(pkts)
        return r
    a, b = rd(sys.argv[1]), rd(sys.argv[2])
    dl = [b[s] - a.get(s, 0) for s in sorted(b)]
    tot = sum(dl) or 1
    print(" ".join(f"spine{s + 1} {x} ({100 * x / tot:.0f}%)" for s, x in enumerate(dl)))
    sys.exit(0 if len(dl) == 2 and min(dl) >= tot * 0.05 else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
