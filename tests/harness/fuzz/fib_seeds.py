#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds for the route-sync fuzzer (tests/harness/fuzz/fuzz_fib.c): operation
sequences, decoded there a byte at a time. Each operation once after two
routes are set, and a few mixed sequences.

usage: fib_seeds.py OUTDIR
"""
import os
import sys

# op_set: op 0, prefix, hop count, LOCAL (0 = LOCAL), then one byte per hop
SET_V4 = [0, 1, 2, 3, 0x11, 0x22]        # 10.1.0.0/16, two hops
SET_V6 = [1, 8, 3, 5, 0x01, 0x12, 0x23]   # 2001:db8:1::/48, three hops
OPS = {
    "del": [3, 1],
    "neigh": [4, 1, 0, 1],
    "link": [5, 2, 1],
    "commit": [6, 0],
    "commit_full": [7, 1],
    "groups_only": [8],
    "resync": [9],
    "restart": [10],
    "sweep": [11],
    "many_hops": [2, 5, 7, 1, 1] + list(range(66)),
    "local": [0, 3, 2, 0, 0x11, 0x22],
    "cover": [0, 0, 2, 3, 0x21, 0x32, 0, 2, 1, 3, 0x13, 0, 5, 1, 3, 0x13],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, ops in OPS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes(SET_V4 + SET_V6 + ops + [6, 0]))
    with open(os.path.join(out, "mixed"), "wb") as f:
        f.write(bytes(SET_V4 + SET_V6 + [4, 0, 0, 0, 6, 0, 10, 5, 1, 0, 8, 9, 3, 8, 7, 1, 10]))


main()
