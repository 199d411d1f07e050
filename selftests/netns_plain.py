#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/netns_plain.sh.

usage: netns_plain.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def carried():
    """carried A B SEND EXPR: rocedp's up1 tx between stats A and B is at
    least EXPR over the sender's totals (SEND), which is above 0."""
    import json, sys
    a, b, s = (json.load(open(p)) for p in sys.argv[1:4])
    up = lambda j: sum(p.get("tx_pkts", 0) for p in j["ports"] if p.get("name") == "up1")
    d, want = up(b) - up(a), eval(sys.argv[4], {}, s["total"])
    print(f"{d} frames forwarded onto up1 by rocedp, {want} expected ({sys.argv[4]})")
    sys.exit(0 if want > 0 and d >= want else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
