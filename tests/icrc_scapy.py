#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Check userspace/lib/wire/icrc.c against independent references, frame by frame:
- IPv4: the ICRC Debian's scapy.contrib.roce computes (BTH.icrc=None);
- IPv6 (this scapy only does IPv4): the spec's recipe written here with
  scapy layers: 8 x 0xff, then IPv6/UDP/BTH with traffic class, flow label,
  hop limit, UDP checksum and BTH byte 4 set to ones, zlib.crc32, sent LSB
  first.
Then: rewriting a masked field keeps the ICRC valid, changing a covered byte
breaks it, malformed or cut frames give an error, never a crash.
Usage: icrc_scapy.py build/librd_icrc.so
"""
import ctypes
import errno
import random
import struct
import sys
import zlib

from scapy.all import Ether, IP, IPv6, UDP, Raw, Dot1Q, raw, conf
from scapy.layers.inet import IPOption_RR
from scapy.contrib.roce import BTH, AETH, cnp

conf.verb = 0
lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "build/librd_icrc.so")
lib.rd_icrc_compute.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                ctypes.POINTER(ctypes.c_uint32)]
lib.rd_icrc_verify.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                               ctypes.POINTER(ctypes.c_uint32),
                               ctypes.POINTER(ctypes.c_uint32)]
lib.rd_icrc_set.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
lib.rd_icrc_crc32.argtypes = [ctypes.c_uint32, ctypes.c_char_p,
                              ctypes.c_size_t]
lib.rd_icrc_crc32.restype = ctypes.c_uint32

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok - " + what)
    else:
        failed += 1
        print("not ok - " + what)


def c_compute(frame):
    v = ctypes.c_uint32(0)
    rc = lib.rd_icrc_compute(frame, len(frame), ctypes.byref(v))
    return rc, v.value


def c_verify(frame):
    return lib.rd_icrc_verify(frame, len(frame), None, None)


def ref_icrc_v6(pkt):
    """Spec recipe for IPv6 with scapy layers (not the C code)."""
    ip = pkt[IPv6].copy()
    ip.tc = 0xff
    ip.fl = 0xfffff
    ip.hlim = 0xff
    ip[UDP].chksum = 0xffff
    body = raw(ip)
    # BTH byte 4 (FECN/BECN/reserved) sits 4 bytes into the BTH.
    bth = 40 + 8
    body = body[:bth + 4] + b"\xff" + body[bth + 5:]
    return zlib.crc32(b"\xff" * 8 + body[:-4]) & 0xffffffff


def stored(frame):
    # ICRC = last 4 bytes of the UDP payload, little endian on the wire.
    return struct.unpack("<I", frame[-4:])[0]


rng = random.Random(4791)
frames4 = []
frames6 = []
for i in range(40):
    opcode = rng.choice([0x00, 0x04, 0x06, 0x07, 0x08, 0x0a, 0x11, 0x81])
    plen = rng.choice([0, 1, 3, 4, 16, 255, 256, 1024, 4096])
    tos = rng.randrange(256)
    ttl = rng.randrange(1, 256)
    if opcode == 0x81:
        bth = cnp(rng.randrange(1 << 24))
    elif opcode == 0x11:
        bth = BTH(opcode=0x11, dqpn=rng.randrange(1 << 24),
                  psn=rng.randrange(1 << 24)) / AETH(syndrome=0x1f,
                                                     msn=rng.randrange(1 << 24))
    else:
        bth = BTH(opcode=opcode, dqpn=rng.randrange(1 << 24),
                  psn=rng.randrange(1 << 24), ackreq=rng.randrange(2),
                  becn=rng.randrange(2),
                  pkey=rng.choice([0xffff, 0x8001])) / Raw(
                      bytes(rng.randrange(256) for _ in range(plen)))
    opts = [IPOption_RR()] if i % 10 == 9 else []
    l3 = IP(src="10.%d.0.1" % i, dst="10.0.%d.2" % i, tos=tos, ttl=ttl,
            options=opts)
    p = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / l3 / UDP(sport=0xc000 + i, dport=4791, chksum=0) / bth
    if i % 7 == 3:
        p = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / Dot1Q(vlan=100) / l3 / UDP(sport=0xc000 + i,
                                               dport=4791, chksum=0) / bth
    frames4.append(raw(p))
    q = (Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IPv6(src="fd00::%x" % (i + 1), dst="fd00:1::%x" % (i + 1),
                        tc=tos, fl=rng.randrange(1 << 20), hlim=ttl) /
         UDP(sport=0xc000 + i, dport=4791) / bth.copy())
    q[BTH].icrc = 0
    b6 = bytearray(raw(q))
    b6[-4:] = struct.pack("<I", ref_icrc_v6(q))
    frames6.append(bytes(b6))

# 1. agreement with the references
for n, f in enumerate(frames4):
    rc, v = c_compute(f)
    check(rc == 0 and v == stored(f),
          "ipv4 frame %d: C icrc %#010x == scapy %#010x" % (n, v, stored(f)))
for n, f in enumerate(frames6):
    rc, v = c_compute(f)
    check(rc == 0 and v == stored(f),
          "ipv6 frame %d: C icrc %#010x == reference %#010x" % (n, v, stored(f)))

# 2. crc32 itself matches zlib, chained
blob = bytes(range(256)) * 3
check(lib.rd_icrc_crc32(0, blob, len(blob)) == zlib.crc32(blob),
      "rd_icrc_crc32 == zlib.crc32")
check(lib.rd_icrc_crc32(lib.rd_icrc_crc32(0, blob[:100], 100), blob[100:],
                        len(blob) - 100) == zlib.crc32(blob),
      "rd_icrc_crc32 chains like zlib")

# 3. masked fields: rewrite them, ICRC stays valid
def mutate(frame, off, val):
    b = bytearray(frame)
    b[off] = val
    return bytes(b)


f4 = raw(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(src="10.0.0.1", dst="10.0.0.2", tos=0x68) /
         UDP(sport=0xc123, dport=4791, chksum=0) /
         BTH(opcode=0x0a, dqpn=0x800101, psn=77) / Raw(b"x" * 64))
f6 = bytearray(raw(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IPv6(src="fd00::1", dst="fd00::2", tc=0x68,
                                  fl=0x12345, hlim=64) /
                   UDP(sport=0xc123, dport=4791) /
                   BTH(opcode=0x0a, dqpn=0x800101, psn=77, icrc=0) /
                   Raw(b"x" * 64)))
buf6 = ctypes.create_string_buffer(bytes(f6), len(f6))
check(lib.rd_icrc_set(buf6, len(f6)) == 0 and c_verify(buf6.raw) == 0,
      "rd_icrc_set then rd_icrc_verify (ipv6)")
f6 = buf6.raw
check(c_verify(f4) == 0, "scapy ipv4 frame verifies")
e4, e6 = 14, 14
for name, off, val in [("tos/dscp", e4 + 1, 0xb8), ("ecn ce", e4 + 1, 0x6b),
                       ("ttl", e4 + 8, 1), ("ip checksum", e4 + 10, 0x12),
                       ("udp checksum", e4 + 20 + 6, 0x55),
                       ("bth byte 4 (becn)", e4 + 28 + 4, 0x40)]:
    check(c_verify(mutate(f4, off, val)) == 0,
          "ipv4: rewriting masked %s keeps the icrc valid" % name)
for name, off, val in [("traffic class hi", e6, 0x6b), ("tc lo/flow label", e6 + 1, 0xf3),
                       ("flow label", e6 + 3, 0x99), ("hop limit", e6 + 7, 3),
                       ("udp checksum", e6 + 40 + 6, 0x55),
                       ("bth byte 4", e6 + 48 + 4, 0xc0)]:
    check(c_verify(mutate(f6, off, val)) == 0,
          "ipv6: rewriting masked %s keeps the icrc valid" % name)
for name, off, val in [("ip id", e4 + 4, 0x77), ("src ip", e4 + 12, 11),
                       ("udp sport", e4 + 20, 0xd1), ("opcode", e4 + 28, 0x0b),
                       ("dest qp", e4 + 28 + 7, 0x02), ("psn", e4 + 28 + 11, 78),
                       ("ackreq", e4 + 28 + 8, 0x80), ("payload", len(f4) - 10, 0),
                       ("icrc", len(f4) - 1, 0)]:
    check(c_verify(mutate(f4, off, val)) == -errno.EILSEQ,
          "ipv4: changing covered %s breaks the icrc (-EILSEQ)" % name)
for name, off, val in [("version nibble", e6, 0x46),
                       ("dst address", e6 + 24, 0xfe),
                       ("payload", len(f6) - 10, 0)]:
    r = c_verify(mutate(f6, off, val))
    check(r != 0, "ipv6: changing covered %s is detected (%d)" % (name, r))

# 4. robustness: every truncation of a frame, junk frames
bad = 0
for cut in range(len(f4)):
    rc, _ = c_compute(f4[:cut])
    if rc == 0:
        bad += 1  # the IP and UDP lengths no longer fit a cut frame
check(bad == 0, "ipv4: every truncation is refused (%d accepted)" % bad)
bad = sum(1 for cut in range(len(f6)) if c_compute(f6[:cut])[0] == 0)
check(bad == 0, "ipv6: every truncation is refused (%d accepted)" % bad)
check(c_verify(f4 + b"\0" * 20) == 0, "ethernet padding after the ICRC is ignored")
arp = raw(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02", type=0x0806) / Raw(b"\0" * 28))
check(c_verify(arp) == -errno.EPROTONOSUPPORT, "non-IP frame: -EPROTONOSUPPORT")
tcp = raw(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(proto=6) / Raw(b"\0" * 40))
check(c_verify(tcp) == -errno.EPROTONOSUPPORT, "non-UDP frame: -EPROTONOSUPPORT")
frag = raw(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(flags="MF") / UDP(dport=4791) / Raw(b"\0" * 20))
check(c_verify(frag) == -errno.EPROTONOSUPPORT, "IPv4 fragment: -EPROTONOSUPPORT")
short = raw(Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP() / UDP(dport=4791) / Raw(b"\0" * 8))
check(c_verify(short) == -errno.EBADMSG, "UDP payload < BTH + ICRC: -EBADMSG")
for i in range(300):
    junk = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 120)))
    c_compute(junk)
check(True, "300 random junk frames did not crash")
check(lib.rd_icrc_compute(None, 10, None) == -errno.EINVAL, "NULL frame: -EINVAL")

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
