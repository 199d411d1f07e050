#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Inputs of tests/replay_l2.sh.

usage: replay_l2.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def pcap():
    """pcap FILE: three RoCEv2 frames to 10.1.0.2 (TTL 64): to the port's MAC, to
    another host's, broadcast."""
    import struct, sys
    recs = []
    for i, dmac in enumerate(["02aa00000001", "02aa000000ee", "ffffffffffff"]):
        payload = bytes([0x04, 0, 0xff, 0xff, 0, 0, 0, 0x10, 0, 0, 0, i]) + bytes(4)
        udp = struct.pack("!HHHH", 49152, 4791, 8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0x02, 20 + len(udp), i, 0x4000, 64,
                         17, 0, bytes([10, 0, 0, 1]), bytes([10, 1, 0, 2])) + udp
        eth = bytes.fromhex(dmac + "02cc00000001" "0800") + ip
        recs.append(struct.pack("<IIII", 1000 + i, 0, len(eth), len(eth)) + eth)
    hdr = struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1)
    open(sys.argv[1], "wb").write(hdr + b"".join(recs))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
