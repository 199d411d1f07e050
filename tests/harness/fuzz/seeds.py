#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Seed corpus for the dataplane fuzzer: every `in:` frame of
tests/fixtures/*.fix, plus frames built here with scapy that reach the
fuzz config's paths (routed prefixes, CTS rules, every control class,
tagged and QinQ frames, IPv6 extension headers, ECT/CE codepoints, bad
IPv4 checksums, path-quality probes). One file per frame, named by the SHA-1 of its bytes as
libFuzzer does. Scapy is optional: without it only the fixtures are used.

Usage: /usr/bin/python3 tests/harness/fuzz/seeds.py OUTDIR [FIXTURE.fix...]
"""
import glob
import hashlib
import os
import sys

MAX_FRAME = 1514


def fixture_frames(paths):
    """The hex of every `in:` block (continuation lines are indented)."""
    for path in paths:
        cur = None
        with open(path) as f:
            for line in f:
                if cur is not None and line[:1] in (" ", "\t"):
                    cur.append(line.strip())
                    continue
                if cur:
                    yield bytes.fromhex("".join(cur))
                cur = [] if line.rstrip() == "in:" else None
        if cur:
            yield bytes.fromhex("".join(cur))


def scapy_frames():
    try:
        import logging
        logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
        from scapy.all import (Ether, Dot1Q, Dot1AD, IP, IPv6, UDP, TCP,
                               ARP, Raw, raw)
        from scapy.layers.inet6 import (IPv6ExtHdrRouting, IPv6ExtHdrDestOpt,
                                        IPv6ExtHdrFragment)
    except ImportError:
        return
    eth = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")

    def bth(op, qp, psn=0x100, ackreq=0):
        return bytes([op, 0, 0xff, 0xff, 0, qp >> 16 & 0xff, qp >> 8 & 0xff,
                      qp & 0xff, ackreq << 7, psn >> 16 & 0xff,
                      psn >> 8 & 0xff, psn & 0xff])

    aeth_ack = bytes([0x00, 0, 0, 1])
    aeth_nak = bytes([0x61, 0, 0, 1])
    aeth_rnr = bytes([0x21, 0, 0, 1])
    icrc = b"\x11\x22\x33\x44"
    bodies = [
        bth(0x11, 0x12) + aeth_ack + icrc,  # ACK
        bth(0x11, 0x12) + aeth_nak + icrc,  # NAK
        bth(0x12, 0x12) + aeth_rnr + bytes(8) + icrc,  # atomic ack, RNR
        bth(0x81, 0x34) + bytes(16) + icrc,  # CNP
        bth(0x04, 0x150) + bytes(32) + icrc,  # CTS (cts-v4)
        bth(0x24, 0x250) + bytes(16) + icrc,  # UC send only (cts-v6)
        bth(0x0b, 0x300) + bytes(100) + icrc,  # cts-any
        bth(0x0a, 0x1234, ackreq=1) + bytes(256) + icrc,  # data, AckReq
        bth(0x0c, 0x77) + bytes(16) + icrc,  # read request
        bth(0x64, 0x99) + bytes(64) + icrc,  # UD send only
        bth(0x1f, 0x5) + bytes(8) + icrc,  # roce_other
    ]
    for i, body in enumerate(bodies):
        for tos in (0x00, 0x02, 0x6a, 0x03):
            udp = UDP(sport=49152 + i, dport=4791) / Raw(body)
            yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.%d" % (i + 2),
                               tos=tos, ttl=64) / udp)
            yield raw(eth / IPv6(src="2001:db8:2::1", dst="2001:db8:1::%d" %
                                 (i + 2), tc=tos, hlim=64) / udp)
        udp = UDP(sport=50000, dport=4791) / Raw(body)
        yield raw(eth / Dot1Q(vlan=10, prio=1) /
                  IP(src="10.0.0.1", dst="10.1.0.9", tos=2) / udp)
        yield raw(Ether(dst="02:00:00:00:00:02", type=0x88a8) /
                  Dot1AD(vlan=100, prio=2, type=0x8100) /
                  Dot1Q(vlan=10, prio=3) /
                  IPv6(src="2001:db8:2::1", dst="2001:db8:1::9", tc=1) / udp)
    udp = UDP(sport=1, dport=4791) / Raw(bodies[0])
    # bad IPv4 checksum, local route, no member, TTL 1, options, fragment
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1", chksum=0x1234) / udp)
    yield raw(eth / IP(src="10.0.0.1", dst="10.9.0.1", tos=2) / udp)
    yield raw(eth / IP(src="10.0.0.1", dst="192.168.1.1", tos=2) / udp)
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1", ttl=1) / udp)
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1", ihl=6,
                       options=b"\x01\x01\x01\x00") / udp)
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1", flags=1) / udp)
    yield raw(eth / IPv6(src="2001:db8:2::1", dst="2001:db8:1::1") /
              IPv6ExtHdrDestOpt() / IPv6ExtHdrRouting() / udp)
    yield raw(eth / IPv6(src="2001:db8:2::1", dst="2001:db8:1::1") /
              IPv6ExtHdrFragment(m=1) / udp)
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1", tos=0x29) /
              TCP(sport=1234, dport=80) / Raw(b"x" * 40))
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1") /
              UDP(sport=1234, dport=53) / Raw(b"y" * 30))
    yield raw(Ether(dst="ff:ff:ff:ff:ff:ff") / ARP())
    yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.1", tos=2) /
              UDP(sport=5, dport=4791) / Raw(bth(0x0a, 7) + bytes(1400) +
                                              icrc))
    # path-quality probes (docs/paths.md; the harness's flags bits:
    # 0x80 signed by it, 0x20 stamped with its clock, 0x40 spine role):
    # taken by a leaf, stamped by a spine, stale, unsigned, own, too many
    # hops; the authenticator is the harness's to write
    for flags, origin, hops in ((0xa0, 2, 0), (0xe0, 3, 1), (0x80, 2, 0),
                                (0x00, 2, 0), (0xa0, 1, 0), (0xa0, 2, 4)):
        probe = (b"RP" + bytes([1, hops, 3, flags, 0, origin]) +
                 bytes([0, 0, 1, 0]) + bytes(12) + bytes(8))
        yield raw(eth / IP(src="10.0.0.1", dst="10.1.0.7") /
                  UDP(sport=47000, dport=47000, chksum=0) / Raw(probe))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: seeds.py OUTDIR [FIXTURE.fix...]")
    out = sys.argv[1]
    fixtures = sys.argv[2:] or sorted(glob.glob(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests",
        "fixtures", "*.fix")))
    os.makedirs(out, exist_ok=True)
    seen = set()
    for frame in list(fixture_frames(fixtures)) + list(scapy_frames()):
        frame = frame[:MAX_FRAME]
        name = hashlib.sha1(frame).hexdigest()
        if name in seen:
            continue
        seen.add(name)
        with open(os.path.join(out, name), "wb") as f:
            f.write(frame)
    print("seeds: %d frames in %s" % (len(seen), out))


if __name__ == "__main__":
    main()
