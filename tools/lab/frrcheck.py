#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# frrcheck.py ZEBRA_JSON KERNEL_JSON: zebra's installed BGP
# routes (`vtysh -c 'show ip route json'`) against the kernel's
# (`ip -j -4 route show`), by prefix and egress devices. FRR 8.4 keeps a
# stale nexthop group when a link comes back: zebra lists every path while
# the kernel's group (and so rocedp, which mirrors the kernel) still lacks
# the returned one (docs/frr.md). Prints one line per difference and a
# summary; exit 1 when any.
#
# frrcheck.py --repair NETNS VTYDIR: the workaround. For every BGP route
# whose kernel group lacks paths zebra believes installed, re-create the
# member nexthops the kernel deleted and `ip nexthop replace` the group with
# zebra's members (ids from `show nexthop-group rib ID`). Prints the ip
# commands it ran.
import json
import re
import subprocess
import sys


def repair(netns, vtydir):
    def run(*a, check=True):
        return subprocess.run(a, capture_output=True, text=True, check=check).stdout
    vty = ["ip", "netns", "exec", netns, "vtysh", "--vty_socket", vtydir, "-c"]
    zebra = json.loads(run(*vty, "show ip route json"))
    kernel = json.loads(run("ip", "-n", netns, "-j", "-4", "route", "show"))
    khops = {r["dst"]: len(r.get("nexthops") or [r]) for r in kernel if r.get("protocol") == "bgp"}
    done = set()
    for prefix, entries in zebra.items():
        for r in entries:
            g = r.get("installedNexthopGroupId")
            n = sum(1 for h in r.get("nexthops", []) if h.get("fib"))
            if not r.get("installed") or g is None or g in done or khops.get(prefix, n) >= n:
                continue
            done.add(g)
            text = run(*vty, f"show nexthop-group rib {g}")
            m = re.search(r"Depends:((?: \(\d+\))+)", text)
            if not m:
                continue
            ids = re.findall(r"\d+", m.group(1))
            vias = re.findall(r"via (\S+), (\S+) \(vrf [^)]*\)(?:, weight (\d+))?", text)
            if len(ids) != len(vias):
                continue
            members = []
            for nid, (ip, dev, w) in zip(ids, vias):
                if subprocess.run(["ip", "-n", netns, "nexthop", "show", "id", nid],
                                  capture_output=True).returncode:
                    cmd = ["ip", "-n", netns, "nexthop", "replace", "id", nid, "via", ip,
                           "dev", dev, "proto", "zebra"]
                    print(" ".join(cmd))
                    run(*cmd)
                members.append(nid + (f",{w}" if w and w != "1" else ""))
            cmd = ["ip", "-n", netns, "nexthop", "replace", "id", str(g), "group",
                   "/".join(members), "proto", "zebra"]
            print(" ".join(cmd))
            run(*cmd)


if sys.argv[1] == "--repair":
    repair(sys.argv[2], sys.argv[3])
    sys.exit(0)


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
    dst = r["dst"] if "/" in r["dst"] else r["dst"] + ("/128" if ":" in r["dst"] else "/32")
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
      + ("agree" if not bad else f"{bad} differ (workaround: rocedp-lab frr-repair, or ip nexthop replace: docs/frr.md)"))
sys.exit(1 if bad else 0)
