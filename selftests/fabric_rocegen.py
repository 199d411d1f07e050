#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The check runner of selftests/fabric_rocegen.sh.

usage: fabric_rocegen.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def check():
    """check DIR NAME SPINES QPS COUNT < SNIPPET: runs the Python SNIPPET (stdin)
    over the ring run DIR/NAME.json and the leaves' stats snapshots
    DIR/NAME.{a,b}.LEAF.json; it sees run, S, R, T, ports(), delta(), counter(),
    sender_dscps(), and sets bad (list of reasons) and info. Prints the
    reasons, or info; exit 1 on a reason."""
    import json, os, sys
    tmp, name, spines, qps, count = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    run = json.load(open(f"{tmp}/{name}.json"))
    def ports(p):
        return {x["name"]: x for x in json.load(open(p))["ports"] if "name" in x}
    def delta(leaf, port, key):
        a = ports(f"{tmp}/{name}.a.{leaf}.json").get(port, {})
        b = ports(f"{tmp}/{name}.b.{leaf}.json").get(port, {})
        return b.get(key, 0) - a.get(key, 0)
    def counter(leaf, key):
        a = json.load(open(f"{tmp}/{name}.a.{leaf}.json"))["counters"][key]
        return json.load(open(f"{tmp}/{name}.b.{leaf}.json"))["counters"][key] - a
    S = list(run["senders"].values())
    R = list(run["responders"].values())
    def sender_dscps(kind):  # {dscp: frames} of kind ("ack", "cnp") over the senders
        by = {}
        for s in S:
            for d, n in s["rx_dscp"][kind].items():
                by[d] = by.get(d, 0) + n
        return by
    T = run["total"]
    bad, info = [], ""
    # one namespace, as at a script's top level: the snippet's
    # comprehensions see these names, and its info= is read back
    ns = dict(globals(), **locals())
    exec(sys.stdin.read(), ns)
    bad, info = ns["bad"], ns["info"]
    print("; ".join(bad) if bad else info)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
