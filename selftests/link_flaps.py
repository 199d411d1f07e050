#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/link_flaps.sh.

usage: link_flaps.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def newest():
    """newest T0 T1 DOWNS UPS EVENTS N T1..T4 (rocedp's flap record of a
    port): the last 4 flap times lie within [T0, T1], the newest in slot
    (N-1)%4."""
    import sys
    t0, t1 = int(sys.argv[1]), int(sys.argv[2])
    n, last = int(sys.argv[5]), [int(x) for x in sys.argv[6:10]]
    newest = last[(n - 1) % 4]
    ok = all(t0 <= t <= t1 for t in last) and newest == max(last)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
