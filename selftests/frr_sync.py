#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/frr_sync.sh.

usage: frr_sync.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def fibcmp():
    """fibcmp LAB PREFIX LEAF: the leaf's maps against its kernel table (IPv4),
    RTA_VIA included; prints a summary, exit 1 when they differ."""
    import ipaddress, json, os, subprocess, sys
    lab, prefix, leaf = sys.argv[1:4]
    def sh(*a):
        return subprocess.run([lab, "exec", "--prefix", prefix, leaf, *a], check=True,
                              capture_output=True, text=True).stdout
    def nh(m):
        b = b"".join(x.to_bytes(4, "little") for x in m["nh_addr"])
        return str(ipaddress.IPv6Address(b) if m["nh_family"] == 10 else ipaddress.IPv4Address(b[:4]))
    idx = {l["ifname"]: l["ifindex"] for l in json.loads(sh("ip", "-j", "link"))}
    want = {}
    for table in ("main", "local"):
        for r in json.loads(sh("ip", "-j", "-4", "route", "show", "table", table)):
            if r.get("type", "unicast") not in ("unicast", "local", "broadcast", "anycast", "multicast"):
                continue
            dst = "0.0.0.0/0" if r["dst"] == "default" else r["dst"]
            net = str(ipaddress.ip_network(dst if "/" in dst else dst + "/32", strict=False))
            hops = r.get("nexthops") or ([r] if "gateway" in r or "via" in r else [])
            hops = [h for h in hops if not set(h.get("flags", [])) & {"dead", "linkdown"}]
            if table == "local" or r.get("type", "unicast") != "unicast" or not hops:
                v = "LOCAL"
            else:
                v = tuple(sorted((h["gateway"] if "gateway" in h else h["via"]["host"],
                                  idx[h["dev"]], h.get("weight", 1)) for h in hops))
            if table == "local" or net not in want:
                want[net] = v
    # the leaf's own pin directory, as its rocedp names it (docs/netns.md)
    pin = json.loads(sh(os.environ["ROCEDP"], "-j", "status"))["pin_dir"]
    groups = {}
    for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", f"{pin}/rd_groups")):
        g = e["formatted"]["value"]
        groups[e["formatted"]["key"]] = tuple(sorted(
            (nh(m), m["ifindex"], m["weight"]) for m in g["members"][: g["n_members"]] if m["flags"] & 1))
    have = {}
    for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", f"{pin}/rd_routes4")):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        net = f"{ipaddress.IPv4Address(k['addr'].to_bytes(4, 'little'))}/{k['prefixlen']}"
        have[net] = "LOCAL" if v["flags"] & 1 else groups.get(v["group_id"], f"missing group {v['group_id']}")
    d = [f"{n}: kernel {want.get(n)} map {have.get(n)}" for n in sorted(set(want) | set(have)) if want.get(n) != have.get(n)]
    paths = max((len(v) for v in want.values() if v != "LOCAL"), default=0)
    print(f"{len(want)} kernel routes (widest group {paths}); " + ("maps equal the kernel" if not d else f"{len(d)} differ: " + "; ".join(d[:3])))
    sys.exit(1 if d else 0)


def crosses():
    """crosses SEND SERVE A B: the messages crossed, and rocedp forwarded at least
    the frames sent out of leaf1's uplinks (uplink tx counts A before, B after)."""
    import json, sys
    try:
        s, r = (json.load(open(p))["total"] for p in sys.argv[1:3])
    except (OSError, ValueError, KeyError) as e:
        print(f"no rocegen summary: {e}"); sys.exit(1)
    fwd = int(sys.argv[4]) - int(sys.argv[3])
    bad = []
    if s["qps_failed"]: bad.append(f"{s['qps_failed']} QPs failed")
    if r["messages"] != s["messages"] or s["messages"] == 0: bad.append(f"responder {r['messages']} messages, sender {s['messages']}")
    if fwd < s["frames"]: bad.append(f"rocedp sent {fwd} frames out of leaf1's uplinks, fewer than the {s['frames']} sent")
    print("; ".join(bad) or f"{s['messages']} messages, {s['frames']} frames delivered, {fwd} through rocedp's uplinks")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
