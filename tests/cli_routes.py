#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The JSON check of tests/cli_routes.sh.

usage: cli_routes.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def check():
    """check FILE: rocedp -j routes (FILE) against the Python statements on stdin,
    which see the routes as r and get(prefix, source), and append their
    complaints to bad. Prints the complaints, "; "-joined."""
    import json, sys
    r = json.load(open(sys.argv[1]))
    def get(prefix, source):
        m = [x for x in r if x["prefix"] == prefix and x["source"] == source]
        return m[0] if len(m) == 1 else None
    bad = []
    # one namespace, as at a script's top level: comprehensions see r
    exec(sys.stdin.read(), dict(globals(), r=r, get=get, bad=bad))
    print("; ".join(bad))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
