#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/rocegen_basic.sh.

usage: rocegen_basic.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def capture():
    """capture PCAP: the ICRC of every RoCEv2 frame of the capture equals the
    one computed independently (scapy.contrib.roce for IPv4, the masked
    CRC32 for IPv6), with at least 8 IPv4 and 3 IPv6 frames."""
    import struct, sys, zlib
    from scapy.all import rdpcap, raw, IP, IPv6, UDP
    from scapy.contrib.roce import BTH
    n4 = n6 = bad = 0
    for p in rdpcap(sys.argv[1]):
        if BTH not in p:
            continue
        got = raw(p[UDP])[-4:]
        if IP in p:
            # scapy.contrib.roce computes the ICRC itself when icrc is None
            q = p.copy()
            q[BTH].icrc = None
            want = raw(q[UDP])[-4:]
            n4 += 1
        else:
            ip = p[IPv6].copy()
            ip.tc, ip.fl, ip.hlim = 0xff, 0xfffff, 0xff
            ip[UDP].chksum = 0xffff
            b = bytearray(raw(ip)[:ip.plen + 40])
            b[48 + 4] = 0xff
            want = struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(b[:-4])))
            n6 += 1
        if got != want:
            bad += 1
    print("%d IPv4 + %d IPv6 frames, %d mismatches" % (n4, n6, bad))
    sys.exit(0 if bad == 0 and n4 >= 8 and n6 >= 3 else 1)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
