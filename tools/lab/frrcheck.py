#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# frrcheck.py ZEBRA_JSON KERNEL_JSON: zebra's installed BGP
# routes (`vtysh -c 'show ip route json'`) against the kernel's
# (`ip -j -4 route show`), by prefix and egress devices. FRR 8.4 keeps a
# stale nexthop group when a link comes back: zebra lists every path while
# the kernel's group (and so rocedp, which mirrors the kernel) still lacks
# the returned one (docs/frr.md). Prints one line per difference and a
# summary; exit 1 when any.
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


zebra, kernel = load(sys.argv[1]), load(sys.argv[2])
if zebra is None or kernel is None:
    print("frrcheck: cannot read zebra's or the kernel's routes")
    sys.exit(1)

want = {}
for prefix, entries in zebra.items():
    for r in entries:
        if r.get("protocol") != "bgp" or not r.get("installed"):
            continue
        devs = sorted(h.get("interfaceName", "?") for h in r.get("nexthops", [])
                      if h.get("fib"))
        want[prefix] = devs

have = {}
for r in kernel:
    if r.get("protocol") != "bgp":
        continue
    dst = r["dst"] if "/" in r["dst"] else r["dst"] + "/32"
    hops = r.get("nexthops") or [r]
    have[dst] = sorted(h.get("dev", "?") for h in hops
                       if not set(h.get("flags", [])) & {"dead", "linkdown"})

bad = 0
for p in sorted(set(want) | set(have)):
    z, k = want.get(p), have.get(p)
    if z == k:
        continue
    bad += 1
    print(f"    STALE {p}: zebra {len(z or [])} paths ({','.join(z or []) or '-'}),"
          f" kernel {len(k or [])} ({','.join(k or []) or '-'})")
print(f"    zebra vs kernel: {len(want)} BGP routes, "
      + ("agree" if not bad else f"{bad} differ (fix: ip nexthop replace, docs/frr.md)"))
sys.exit(1 if bad else 0)
