#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/xdp_coexist.sh.

usage: xdp_coexist.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def prog():
    """prog < LINK: "NAME ID" of the XDP program in ip -d -j link show (stdin),
    empty when none."""
    import json, sys
    x = json.load(sys.stdin)[0].get("xdp", {})
    p = x.get("prog") or (x.get("attached") or [{}])[0].get("prog") or {}
    print(p.get("name", ""), p.get("id", "")) if p else print("")


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
