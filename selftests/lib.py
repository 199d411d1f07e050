#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Python helpers of selftests/lib.sh (the shell TAP library).

usage: lib.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def pyj():
    """pyj FILE EXPR: a Python expression over j = json.load(FILE); prints the
    value, exits 0 when it is truthy."""
    import json, sys
    try:
        j = json.load(open(sys.argv[1]))
        # one namespace, as at a script's top level: a generator in the
        # expression sees j
        v = eval(sys.argv[2], dict(globals(), j=j, json=json))
    except Exception as e:
        print(f"error: {e}")
        sys.exit(1)
    print(v)
    sys.exit(0 if v else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
