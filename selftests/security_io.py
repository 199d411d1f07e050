#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/security_io.sh.

usage: security_io.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def route4():
    """route4 PREFIX < DUMP: the rd_routes4 entry for PREFIX ("GROUP FLAGS"), or
    "none"."""
    import ipaddress, json, sys
    want = ipaddress.ip_network(sys.argv[1])
    for e in json.load(sys.stdin):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        a = ipaddress.IPv4Address(k["addr"].to_bytes(4, "little"))
        if k["prefixlen"] == want.prefixlen and a == want.network_address:
            print(v["group_id"], v["flags"]); break
    else:
        print("none")


def member_cfg():
    """member_cfg DEV: a config with group 1 of one member on DEV and a route to it."""
    import json, sys
    print(json.dumps({"groups": [{"id": 1, "members": [{"dev": sys.argv[1],
        "smac": "02:00:00:00:01:01", "dmac": "02:00:00:00:02:01", "via": "10.0.1.2"}]}],
        "routes": [{"prefix": "10.1.0.0/16", "group": 1}]}))


def control_bytes():
    """control_bytes FILE NAME MUST: FILE's first line parses as JSON, FILE holds no
    control byte but newlines, and (MUST 1) the string NAME appears in it."""
    import json, sys
    d = open(sys.argv[1], "rb").read()
    j = json.loads(d.splitlines()[0])
    bad = [b for b in d if (b < 0x20 and b != 10) or b == 0x7f]
    def strings(v):
        if isinstance(v, dict):
            for x in v.values():
                yield from strings(x)
        elif isinstance(v, list):
            for x in v:
                yield from strings(x)
        elif isinstance(v, str):
            yield v
    found = sys.argv[2] in strings(j)
    print("parses, %d control bytes, name %s" % (len(bad), "found" if found else "absent"))
    sys.exit(1 if bad or (sys.argv[3] == "1" and not found) else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
