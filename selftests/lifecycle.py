#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/lifecycle.sh.

usage: lifecycle.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def route4():
    """route4 PREFIX < DUMP: the rd_routes4 entry of PREFIX in bpftool's raw dump
    (stdin) as "group_id flags", or nothing."""
    import json, sys
    want = sys.argv[1]
    for e in json.load(sys.stdin):
        k = [int(x, 16) for x in e["key"]]; v = [int(x, 16) for x in e["value"]]
        plen = int.from_bytes(bytes(k[0:4]), "little")
        p = ".".join(map(str, k[4:8])) + "/" + str(plen)
        if p == want:
            print(int.from_bytes(bytes(v[0:4]), "little"), int.from_bytes(bytes(v[4:8]), "little"))


def monotonic():
    """monotonic A B: every counter in rocedp stats -j snapshot B >= A."""
    import json, sys
    a, b = (json.load(open(p)) for p in sys.argv[1:3])
    bad, n = [], [0]
    def walk(x, y, path):
        if isinstance(x, bool) or x is None:
            return
        if isinstance(x, (int, float)):
            n[0] += 1
            # gauges (loads, EWMAs, imbalance ratios) may go down; counters not
            if any(s in path for s in ("load", "rtt", "imbalance", "ewma", "queue", "weight", "flags", "ifindex", "mean", "id", "slot")):
                return
            if y is None or y < x: bad.append(f"{path}: {x} -> {y}")
        elif isinstance(x, dict):
            for k in x: walk(x[k], y.get(k) if isinstance(y, dict) else None, f"{path}.{k}")
        elif isinstance(x, list):
            for i, v in enumerate(x): walk(v, y[i] if isinstance(y, list) and i < len(y) else None, f"{path}[{i}]")
    walk(a, b, "")
    print("; ".join(bad[:5]) or f"{n[0]} values, none went down")
    sys.exit(1 if bad or not n[0] else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
