#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/cli_objects.sh.

usage: cli_objects.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def pcap():
    """pcap FILE: three RoCEv2 RDMA WRITE ONLY frames, a capture for replay."""
    import struct, sys
    def csum(b):
        s = sum(struct.unpack(f"!{len(b)//2}H", b))
        while s >> 16: s = (s & 0xffff) + (s >> 16)
        return ~s & 0xffff
    def frame(qp):
        bth = bytes([0x0a, 0x40, 0xff, 0xff, 0, qp >> 16 & 255, qp >> 8 & 255, qp & 255, 0x80, 0, 0, 1])
        body = bth + bytes(16) + bytes(64) + bytes(4)  # BTH, RETH, payload, ICRC
        udp = struct.pack("!HHHH", 49152, 4791, 8 + len(body), 0) + body
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 26 << 2 | 2, 20 + len(udp), 1, 0x4000, 64, 17, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 1, 0, 2]))
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        return bytes.fromhex("020000000002020000000001") + b"\x08\x00" + ip + udp
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for i in range(3):
            fr = frame(0x100 + i)
            f.write(struct.pack("<IIII", 1000, i, len(fr), len(fr)) + fr)


def exposition():
    """exposition FILE: every sample line of the Prometheus text FILE is well formed."""
    import re, sys
    lines = [l for l in open(sys.argv[1]).read().splitlines() if l]
    sample = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? -?[0-9.e+]+$')
    bad = [l for l in lines if not l.startswith("#") and not sample.match(l)]
    ok = lines and not bad and any(l.startswith("# TYPE") for l in lines)
    print(" | ".join(bad[:3]) or "no samples"); sys.exit(0 if ok else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
