#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Inputs of tests/cli_files.sh.

usage: cli_files.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def pcaps():
    """pcaps IN CUT: IN, a capture of 300 frames (RoCEv2 and plain UDP); CUT, its
    first 200 records and half of the next (a truncated capture)."""
    import struct, sys
    recs = []
    for i in range(300):
        udp_dport = 4791 if i % 3 else 5000
        payload = bytes([0x0a, 0, 0xff, 0xff, 0, 0, 0, i % 200, 0, 0, 0, i % 256]) + bytes(64)
        udp = struct.pack("!HHHH", 49152 + i, udp_dport, 8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0x02, 20 + len(udp), i, 0x4000, 64, 17, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 1, 0, 2])) + udp
        eth = bytes.fromhex("020000000002" "020000000001" "0800") + ip
        recs.append(struct.pack("<IIII", 1000 + i, 0, len(eth), len(eth)) + eth)
    hdr = struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1)
    open(sys.argv[1], "wb").write(hdr + b"".join(recs))
    # 200 whole records, then half of one: "truncated or corrupt record"
    cut = hdr + b"".join(recs[:200]) + recs[200][:30]
    open(sys.argv[2], "wb").write(cut)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
