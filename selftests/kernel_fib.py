# SPDX-License-Identifier: GPL-2.0
"""What rocedp's IPv4 route maps should hold for a network namespace, from
the kernel's own tables. Imported by the selftests that compare the maps
with the kernel (sync_stress.sh, faults.sh; run through t_py in lib.sh)."""
import ipaddress
import json
import subprocess


def _ip(ns, *a):
    return json.loads(subprocess.run(("ip", "-n", ns, "-j") + a, check=True,
                                     capture_output=True, text=True).stdout)


def kernel_routes4(ns):
    """{prefix: "LOCAL" | sorted tuple of (gateway, ifindex, weight)} for the
    main and local tables of NS (local wins: it is looked up first)"""
    idx = {l["ifname"]: l["ifindex"] for l in _ip(ns, "link")}
    want = {}
    for table in ("main", "local"):
        for r in _ip(ns, "-4", "route", "show", "table", table):
            if r.get("type", "unicast") not in ("unicast", "local", "broadcast", "anycast", "multicast"):
                continue
            dst = "0.0.0.0/0" if r["dst"] == "default" else r["dst"]
            net = str(ipaddress.ip_network(dst if "/" in dst else dst + "/32", strict=False))
            hops = r.get("nexthops") or ([r] if "gateway" in r else [])
            if table == "local" or r.get("type", "unicast") != "unicast" or not hops or any("gateway" not in h for h in hops):
                v = "LOCAL"
            else:
                v = tuple(sorted((h["gateway"], idx[h["dev"]], h.get("weight", 1)) for h in hops))
            if table == "local" or net not in want:
                want[net] = v
    return want
