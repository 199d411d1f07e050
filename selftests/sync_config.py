#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/sync_config.sh.

usage: sync_config.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def route_9():
    """route_9 < DUMP: the rd_routes4 value for 10.9.0.0/16, "GROUP FLAGS", or
    "none"."""
    import json, sys
    for e in json.load(sys.stdin):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        if k["prefixlen"] == 16 and k["addr"] == 0x090a:
            print(v["group_id"], v["flags"]); break
    else:
        print("none")


def group_of():
    """group_of ADDR < DUMP: the group of the /16 at ADDR (hex, as rd_routes4's key
    holds it), or "none"."""
    import json, sys
    for e in json.load(sys.stdin):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        if k["prefixlen"] == 16 and k["addr"] == int(sys.argv[1], 16):
            print(v["group_id"]); break
    else:
        print("none")


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
