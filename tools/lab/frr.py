#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python of tools/lab/frr.sh (sourced by rocedp-lab).

usage: frr.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def established():
    """established AFI < SUMMARY: of vtysh's show bgp summary json (stdin), the
    sessions of AFI established, as "N of M"; nothing when unreadable."""
    import json,sys
    try:
        p = json.load(sys.stdin)[sys.argv[1]]["peers"]
    except Exception:
        sys.exit(0)
    print(sum(v.get("state") == "Established" for v in p.values()), "of", len(p))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
