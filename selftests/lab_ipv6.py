#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/lab_ipv6.sh.

usage: lab_ipv6.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def maps():
    """maps PIN: in the pinned maps under PIN, fd00:2::/32 goes to a group of
    4 up and resolved IPv6 next hops, and fd00:1:1::/64 is LOCAL."""
    import ipaddress, json, subprocess, sys
    pin = sys.argv[1]
    def dump(m):
        return json.loads(subprocess.run(["bpftool", "-j", "map", "dump", "pinned", f"{pin}/{m}"],
                                         capture_output=True, text=True, check=True).stdout)
    groups = {e["formatted"]["key"]: e["formatted"]["value"] for e in dump("rd_groups")}
    routes = {}
    for e in dump("rd_routes6"):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        routes[f"{ipaddress.IPv6Address(bytes(k['addr']))}/{k['prefixlen']}"] = v
    bad = []
    r = routes.get("fd00:2::/32")
    if not r or r["flags"] & 1:
        bad.append(f"fd00:2::/32: {r}")
    else:
        g = groups.get(r["group_id"], {})
        up = [m for m in g.get("members", [])[: g.get("n_members", 0)] if m["flags"] & 3 == 3 and m["nh_family"] == 10]
        if len(up) != 4:
            bad.append(f"fd00:2::/32: group {r['group_id']} has {len(up)} up+resolved IPv6 members")
    l = routes.get("fd00:1:1::/64")
    if not l or not l["flags"] & 1:
        bad.append(f"fd00:1:1::/64 not LOCAL: {l}")
    print("; ".join(bad) if bad else f"{len(routes)} IPv6 routes; fd00:2::/32 -> 4 IPv6 next hops, fd00:1:1::/64 LOCAL")
    sys.exit(1 if bad else 0)


def ring():
    """ring DIR SPINES QPS: the IPv6 ring run (DIR/ring.json, stats snapshots
    a and b): every message delivered, no oos or NAK, IPv6 senders, leaf1
    forwarded what its hosts sent, each uplink carried 10% or more."""
    import json, sys
    tmp, spines, qps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    run = json.load(open(f"{tmp}/ring.json"))
    def stats(w, leaf):
        return json.load(open(f"{tmp}/{w}.{leaf}.json"))
    def port(leaf, name, key):
        p = lambda w: {x["name"]: x for x in stats(w, leaf)["ports"] if "name" in x}.get(name, {}).get(key, 0)
        return p("b") - p("a")
    def ctr(leaf, key):
        return stats("b", leaf)["counters"][key] - stats("a", leaf)["counters"][key]
    S, R, T = list(run["senders"].values()), list(run["responders"].values()), run["total"]
    bad = []
    want = 4 * qps * 2
    got = sum(r["total"]["messages"] for r in R)
    if got != want: bad.append(f"responders got {got} messages, want {want}")
    if run["failed_processes"] or T["qps_failed"]: bad.append("rocegen failures")
    oos = sum(r["total"]["oos"] for r in R)
    naks = sum(r["total"]["naks"] for r in R)
    if oos or naks: bad.append(f"oos {oos}, NAKs {naks}")
    if not all(":" in s["src"] for s in S): bad.append("a sender without an IPv6 address")
    sent = sum(s["total"]["frames"] for s in S if s["src"].startswith("fd00:1:"))
    fwd = ctr("leaf1", "forwarded_packets")
    tx = [port("leaf1", f"up{i}", "tx_pkts") for i in range(1, spines + 1)]
    if fwd < sent: bad.append(f"leaf1's rocedp forwarded {fwd} frames, its hosts sent {sent}")
    if min(tx) < 0.10 * sum(tx): bad.append(f"an uplink carried under 10%: {tx}")
    print("; ".join(bad) if bad else
          f"{got} messages, oos 0, NAKs 0; leaf1 forwarded {fwd} >= {sent} sent by its hosts, per uplink {tx}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
