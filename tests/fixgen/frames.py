# SPDX-License-Identifier: GPL-2.0
"""Frames for the fixtures: scapy builders, the ICRC (IPv6 by the spec's
recipe), the expected frame after remarking."""

import logging
import os
import struct
import sys
import zlib

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import (Ether, Dot1Q, Dot1AD, IP, IPv6, UDP, TCP, ICMP, ARP,
                       Raw, raw, conf)
from scapy.layers.inet import IPOption_RR
from scapy.layers.inet6 import (IPv6ExtHdrHopByHop, IPv6ExtHdrRouting,
                                IPv6ExtHdrDestOpt, IPv6ExtHdrFragment,
                                ICMPv6ND_NS, PadN)
from scapy.contrib.roce import BTH, AETH, CNPPadding

conf.verb = 0


SMAC = "02:00:00:00:00:01"
DMAC = "02:00:00:00:00:02"
SRC4, DST4 = "10.0.0.1", "10.1.0.2"
SRC6, DST6 = "2001:db8::1", "2001:db8:1::2"
ROCE_PORT = 4791

# Defaults of rd_config_apply_defaults (CONTRACT.md): the DSCP per class.
DEFAULT_QOS = {"ack": 46, "nak": 46, "cnp": 48, "cts": 46}

# ------------------------------------------------------------------ ICRC


def icrc_of(frame):
    """The RoCEv2 ICRC of an Ethernet frame, from the spec's recipe: CRC-32
    over 8 bytes of 0xff, then IP header, UDP header, BTH and payload with
    the variant fields (IPv4 TOS/TTL/checksum, IPv6 traffic class/flow
    label/hop limit, UDP checksum, BTH byte 4) set to ones. Returned as the
    4 wire bytes (least significant byte first)."""
    off = 12
    etype = struct.unpack_from("!H", frame, off)[0]
    off += 2
    while etype in (0x8100, 0x88a8):
        etype = struct.unpack_from("!H", frame, off + 2)[0]
        off += 4
    if etype == 0x0800:
        ihl = (frame[off] & 0x0f) * 4
        tot = struct.unpack_from("!H", frame, off + 2)[0]
        ip = bytearray(frame[off:off + ihl])
        ip[1] = 0xff
        ip[8] = 0xff
        ip[10:12] = b"\xff\xff"
        l4 = off + ihl
        end = off + tot
    elif etype == 0x86dd:
        plen = struct.unpack_from("!H", frame, off + 4)[0]
        ip = bytearray(frame[off:off + 40])
        ip[0] = (ip[0] & 0xf0) | 0x0f
        ip[1:4] = b"\xff\xff\xff"
        ip[7] = 0xff
        l4 = off + 40
        end = l4 + plen
        # extension headers (not masked) are covered as they stand
        nh = frame[off + 6]
        while nh in (0, 43, 60, 44):
            ln = 8 if nh == 44 else (frame[l4 + 1] + 1) * 8
            ip += frame[l4:l4 + ln]
            nh = frame[l4]
            l4 += ln
    else:
        raise ValueError("not IP")
    udp = bytearray(frame[l4:l4 + 8])
    udp[6:8] = b"\xff\xff"
    bth = bytearray(frame[l4 + 8:end - 4])
    bth[4] = 0xff
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth))
    return struct.pack("<I", crc & 0xffffffff)


def with_icrc(frame):
    """Store the ICRC in the last 4 bytes of the UDP payload."""
    f = bytearray(frame)
    f[-4:] = icrc_of(frame)
    return bytes(f)


def icrc_ok(frame):
    return frame[-4:] == icrc_of(frame)


# ------------------------------------------------------------------ frames


def l2(vlans=(), dmac=DMAC, smac=SMAC):
    """Ether plus tags; vlans: list of (tpid, vid, prio), outermost first."""
    if not vlans:
        return Ether(src=smac, dst=dmac)
    tpid0 = vlans[0][0]
    p = Ether(src=smac, dst=dmac, type=tpid0)
    for i, (tpid, vid, prio) in enumerate(vlans):
        nxt = vlans[i + 1][0] if i + 1 < len(vlans) else None
        cls = Dot1AD if tpid == 0x88a8 else Dot1Q
        tag = cls(vlan=vid, prio=prio)
        if nxt is not None:
            tag.type = nxt
        p = p / tag
    return p


def ip_layer(v6=False, tos=0, ttl=64, src=None, dst=None, **kw):
    if v6:
        return IPv6(src=src or SRC6, dst=dst or DST6, tc=tos, hlim=ttl, **kw)
    return IP(src=src or SRC4, dst=dst or DST4, tos=tos, ttl=ttl, id=1,
              flags="DF", **kw)


def roce(opcode, qp=0x12, psn=0x100, payload=b"", v6=False, vlans=(),
         dscp=0, ecn=0, ttl=64, sport=0xc000, src=None, dst=None, dmac=DMAC,
         ext=None, ackreq=0, tver=0, ip_kw=None):
    """A RoCEv2 frame with a correct ICRC (scapy computes it for IPv4; the
    recipe above for IPv6, cross-checked against scapy on IPv4)."""
    bth = BTH(opcode=opcode, dqpn=qp, psn=psn, ackreq=ackreq, version=tver,
              icrc=None if not v6 else 0)
    ipl = ip_layer(v6, (dscp << 2) | ecn, ttl, src, dst, **(ip_kw or {}))
    if ext is not None:
        ipl = ipl / ext
    p = l2(vlans, dmac=dmac) / ipl / UDP(sport=sport, dport=ROCE_PORT) / bth
    if payload:
        p = p / Raw(payload)
    f = raw(p)
    if v6:
        crc = icrc_of(f)
        p[BTH].icrc = int.from_bytes(crc, "big")
        f = raw(p)  # UDP checksum now covers the real ICRC
    else:
        assert f[-4:] == icrc_of(f), "ICRC recipe disagrees with scapy"
    assert icrc_ok(f)
    return f


def aeth(syndrome, msn=1):
    return struct.pack("!I", (syndrome << 24) | msn)


RETH = struct.pack("!QII", 0x7f0000001000, 0x1234, 64)
DETH = struct.pack("!II", 0x11111111, 0x000042)
ATOMIC_ACK_ETH = struct.pack("!Q", 0xdeadbeef)
ATOMIC_ETH = struct.pack("!QIQQ", 0x7f0000002000, 0x99, 1, 2)
CNP_PAD = bytes(16)


def ack(syn=0x00, **kw):
    return roce(0x11, payload=aeth(syn), **kw)


def cnp_frame(**kw):
    kw.setdefault("psn", 0)
    return roce(0x81, payload=CNP_PAD, **kw)


# ------------------------------------------------------------------ expected


def outer_tag(p):
    for layer in (Dot1AD, Dot1Q):
        if p.haslayer(layer):
            return p.getlayer(layer)
    return None


def expect(frame, dscp=None, pcp=None, fwd=None):
    """The frame rocedp should emit, built by editing the scapy packet.
    fwd: (smac, dmac) of the chosen member: MACs rewritten, TTL - 1."""
    p = Ether(frame)
    assert raw(p) == frame, "scapy does not round-trip this frame"
    ip = p[IP] if p.haslayer(IP) else (p[IPv6] if p.haslayer(IPv6) else None)
    if dscp is not None:
        if isinstance(ip, IPv6):
            ip.tc = (dscp << 2) | (ip.tc & 3)
        else:
            ip.tos = (dscp << 2) | (ip.tos & 3)
            ip.chksum = None
    if pcp is not None:
        tag = outer_tag(p)
        tag.prio = pcp
    if fwd is not None:
        p.src, p.dst = fwd
        if isinstance(ip, IPv6):
            ip.hlim -= 1
        else:
            ip.ttl -= 1
            ip.chksum = None
    out = raw(p)
    assert len(out) == len(frame)
    if p.haslayer(BTH) and not (isinstance(ip, IPv6) and ip.nh != 17):
        # the ICRC masks TOS/TTL: the original ICRC must still be right
        assert icrc_ok(out), "remark broke the ICRC in the model"
    return out
