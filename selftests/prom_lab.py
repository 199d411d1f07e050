#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/prom_lab.sh.

usage: prom_lab.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def query():
    """query EXPR: an instant query's result from the lab's Prometheus, as
    "labels value" lines."""
    import json, sys, urllib.parse, urllib.request
    u = "http://127.0.0.1:9090/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[1]})
    for r in json.load(urllib.request.urlopen(u, timeout=10))["data"]["result"]:
        m = r["metric"]
        print(",".join("%s=%s" % kv for kv in sorted(m.items()) if kv[0] != "__name__"), r["value"][1])


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
