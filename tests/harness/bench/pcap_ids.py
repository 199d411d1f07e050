# SPDX-License-Identifier: GPL-2.0
"""pcap_ids: (time ns, dest QP, PSN) of every RoCE frame in a capture
(Ethernet, IPv4 without options, UDP, BTH), for the failover bench's loss
accounting (tests/harness/bench/failover.py)."""
import struct
def ids(path):
    out = []
    with open(path, "rb") as f:
        hdr = f.read(24)
        if len(hdr) < 24:
            return out
        nano = hdr[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
        while True:
            h = f.read(16)
            if len(h) < 16:
                break
            sec, frac, incl, _ = struct.unpack("<IIII", h)
            d = f.read(incl)
            if len(d) < 54:
                continue
            qp = int.from_bytes(d[47:50], "big")
            psn = int.from_bytes(d[51:54], "big")
            out.append((sec * 10**9 + (frac if nano else frac * 1000), qp, psn))
    return out
