#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/security_pins.sh.

usage: security_pins.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def pcap():
    """pcap FILE: a capture of 20 RoCEv2 frames for replay."""
    import struct, sys
    recs = []
    for i in range(20):
        payload = bytes([0x0a, 0, 0xff, 0xff, 0, 0, 0, i, 0, 0, 0, i]) + bytes(32)
        udp = struct.pack("!HHHH", 49152 + i, 4791, 8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0x02, 20 + len(udp), i, 0x4000, 64, 17, 0,
                         bytes([10, 0, 0, 1]), bytes([10, 1, 0, 2])) + udp
        eth = bytes.fromhex("020000000002" "020000000001" "0800") + ip
        recs.append(struct.pack("<IIII", 1000 + i, 0, len(eth), len(eth)) + eth)
    open(sys.argv[1], "wb").write(struct.pack("<IHHiIII", 0xa1b23c4d, 2, 4, 0, 0, 65535, 1) + b"".join(recs))


def fifo_reader():
    """fifo_reader FIFO OUT READY: holds FIFO open for reading (non-blocking) and
    touches READY, then copies what comes to OUT until the writer closes."""
    import os, sys, time
    fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
    open(sys.argv[3], "w").close()
    out, seen, end = open(sys.argv[2], "wb"), False, time.time() + 90
    while time.time() < end:
        try:
            d = os.read(fd, 65536)
        except BlockingIOError:
            d = None
        if d:
            out.write(d)
            seen = True
        elif d == b"" and seen:
            break
        else:
            time.sleep(0.02)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
