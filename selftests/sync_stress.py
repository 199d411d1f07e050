#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/sync_stress.sh.

usage: sync_stress.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def churn():
    """churn OUT: writes ip -batch route and nexthop churn (adds, replaces,
    deletes of 2000 /32s and 1000 nexthop objects) to stdout until killed;
    then the number of lines into OUT."""
    import random, signal, sys
    r, n, devs = random.Random(17), 0, ("a0", "b0")
    def done(*a):
        open(sys.argv[1], "w").write(f"{n}\n")
        sys.exit(0)
    signal.signal(signal.SIGTERM, done)
    try:
        while True:
            if n % 3 == 0:
                i = r.randrange(1000)
                sys.stdout.write(f"nexthop del id {20000 + i}\n" if r.randrange(2) else
                                 f"nexthop replace id {20000 + i} via 10.100.{i % 2}.2 dev {devs[i % 2]}\n")
                n += 1
                continue
            a = f"10.80.{r.randrange(8)}.{r.randrange(250)}/32"
            op = r.choice(("add", "replace", "del", "del"))
            hops = r.choice(("via 10.100.0.2 dev a0", "via 10.100.1.2 dev b0",
                "nexthop via 10.100.0.2 dev a0 nexthop via 10.100.1.2 dev b0 weight 2"))
            sys.stdout.write(f"route {op} {a}" + ("" if op == "del" else " " + hops) + "\n")
            n += 1
    except BrokenPipeError:
        done()


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
