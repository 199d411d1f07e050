#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python of tests/harness/bench/bench.sh (run from the tree's top).

usage: bench.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def prom_q():
    """prom_q WEB EXPR: an instant query's first value, from the Prometheus at WEB."""
    import json, sys, urllib.parse, urllib.request
    u = "http://%s/api/v1/query?%s" % (sys.argv[1], urllib.parse.urlencode({"query": sys.argv[2]}))
    r = json.load(urllib.request.urlopen(u, timeout=5))["data"]["result"]
    print(r[0]["value"][1] if r else "")


def route_batch():
    """route_batch add|del N: N /26 routes under 10.128.0.0/9 over four nexthops
    (sy0..sy3), as ip -batch lines."""
    import sys
    verb, n = sys.argv[1], int(sys.argv[2])
    base = (10 << 24) | (128 << 16)
    nh = " ".join("nexthop via 10.100.%d.2 dev sy%d" % (i, i) for i in range(4))
    for k in range(n):
        a = base + (k << 6)
        p = "%d.%d.%d.%d/26" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)
        print("route %s %s %s" % (verb, p, nh) if verb == "add" else "route del %s" % p)


def latency():
    """latency LOG FROM < ROW: ROW (JSON, stdin) with the daemon's own arrival-to-map
    latency of the batches in LOG (sync-latency.jsonl) from line FROM on: how
    many, median and max, in us."""
    import json,sys
    d=json.loads(sys.stdin.read())
    lat=[json.loads(l)["latency_ns"]/1e3 for l in open(sys.argv[1]).readlines()[int(sys.argv[2]):]
         if l.startswith("{")]
    lat.sort()
    d["daemon_batches"]=len(lat)
    d["daemon_median_us"]=lat[len(lat)//2] if lat else None
    d["daemon_max_us"]=lat[-1] if lat else None
    print(json.dumps(d))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
