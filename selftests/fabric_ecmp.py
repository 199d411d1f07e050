#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/fabric_ecmp.sh.

usage: fabric_ecmp.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def member_up():
    """member_up IFINDEX < STATS: the uplink IFINDEX is an active (UP|RESOLVED)
    member of a group in rocedp -j stats (stdin)."""
    import json, sys, subprocess
    j = json.load(sys.stdin)
    idx = {p["name"]: p["ifindex"] for p in j["ports"] if "name" in p}
    want = int(sys.argv[1])
    ok = any(m["ifindex"] == want and m["flags"] & 3 == 3 for g in j.get("groups", []) for m in g["members"])
    sys.exit(0 if ok else 1)


def share():
    """share A B SPINES: per-uplink frames between snapshots A and B, as JSON
    {"spine": [n1..], "rocedp": [n1..], "total_sp": , "total_rd": }."""
    import json, sys
    a, b, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    def sp(p):
        return {l.split()[0]: int(l.split()[1]) for l in open(p + ".spines")}
    def rd(p):
        j = json.load(open(p + ".stats"))
        return {x["name"]: x["tx_pkts"] for x in j["ports"] if "name" in x}
    sa, sb, ra, rb = sp(a), sp(b), rd(a), rd(b)
    spine = [sb[f"spine{i}"] - sa[f"spine{i}"] for i in range(1, n + 1)]
    rocedp = [rb.get(f"up{i}", 0) - ra.get(f"up{i}", 0) for i in range(1, n + 1)]
    print(json.dumps({"spine": spine, "rocedp": rocedp,
                      "total_sp": sum(spine), "total_rd": sum(rocedp)}))


def spread():
    """spread SHARE HM: the per-uplink frame counts SHARE (JSON, from share) fit hash
    mode HM: all on one uplink for 5tuple, 15-35% on each otherwise; each spine
    saw what rocedp sent it."""
    import json, sys
    d, hm = json.loads(sys.argv[1]), sys.argv[2]
    sp, rd = d["spine"], d["rocedp"]
    tot = d["total_rd"]
    # 256 QPs x 4 messages of 4K: 1024 frames at the lab's MTU 9000, 4096 at 1500
    ok = tot >= 1024
    # each spine saw what rocedp sent it (plus at most a few ARP/ICMP frames)
    ok = ok and all(0 <= s - r <= 8 for s, r in zip(sp, rd))
    if hm == "5tuple":
        ok = ok and max(rd) == tot and sorted(rd)[-2] == 0
    else:
        ok = ok and all(0.15 <= r / tot <= 0.35 for r in rd)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
