#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
Generate the dataplane fixtures in tests/fixtures/*.fix (format: see
tests/fixtures/README.md) with scapy.

Every expected value here comes from this script's own knowledge: the frame
is built with scapy, the expected output frame is built by editing the scapy
packet (DSCP, PCP, MACs, TTL) and letting scapy recompute the IPv4 header
checksum, the ICRC is computed by scapy.contrib.roce (IPv4) and by the
spec's recipe written out below (IPv6), and the member of a forwarded frame
by a model of the hash documented in bpf/hash.h and bpf/member.h. Nothing
is copied from rocedp's output.

Usage: /usr/bin/python3 tests/gen_fixtures.py [OUTDIR]   (default
tests/fixtures next to this script). The output is committed; regenerate
and diff after changing a fixture here.
"""
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

HERE = os.path.dirname(os.path.abspath(__file__))
OUTDIR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "fixtures")

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


# ------------------------------------------------------------------ hash model
# bpf/hash.h: every hashed word in host order (addresses as big-endian u32
# of their network bytes) times its own odd constant, xor-folded with the
# seed: the address words, the L4 protocol, sport << 16 | dport unless
# qp-only, the BTH destination QP unless 5tuple; then MurmurHash3's
# finaliser. Member: bucket (hash * n_buckets) >> 32 of the group's bucket
# table, built as userspace/lib/buckets.c does (pick_member below).

M32 = 0xffffffff
K_SRC = (0x9e3779b1, 0xc2b2ae3d, 0x165667b1, 0xfd7046c5)
K_DST = (0x85ebca77, 0x27d4eb2f, 0xd3a2646d, 0xb55a4f09)
K_PROTO, K_PORTS, K_QP = 0x2c1b3c6d, 0x297a2d39, 0x7feb352d


def _hfinal(h):
    h ^= h >> 16
    h = (h * 0x85ebca6b) & M32
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & M32
    h ^= h >> 16
    return h


def flow_hash(frame, mode, seed):
    p = Ether(frame)
    if p.haslayer(IP):
        ip = p[IP]
        a = [int.from_bytes(bytes(map(int, ip.src.split("."))), "big")]
        b = [int.from_bytes(bytes(map(int, ip.dst.split("."))), "big")]
        proto = ip.proto
    else:
        import socket
        ip = p[IPv6]
        sa = socket.inet_pton(socket.AF_INET6, ip.src)
        da = socket.inet_pton(socket.AF_INET6, ip.dst)
        a = [int.from_bytes(sa[i:i + 4], "big") for i in range(0, 16, 4)]
        b = [int.from_bytes(da[i:i + 4], "big") for i in range(0, 16, 4)]
        # the upper layer after any extension headers
        proto = 17 if p.haslayer(UDP) else 6 if p.haslayer(TCP) else ip.nh
    sport = dport = 0
    is_roce = False
    qp = 0
    if p.haslayer(UDP):
        sport, dport = p[UDP].sport, p[UDP].dport
        if dport == ROCE_PORT and p.haslayer(BTH):
            is_roce = True
            qp = p[BTH].dqpn
    elif p.haslayer(TCP):
        sport, dport = p[TCP].sport, p[TCP].dport
    use_qp = is_roce and mode != "5tuple"
    use_ports = (not is_roce) or mode in ("5tuple", "qp")
    h = seed
    for i, (x, y) in enumerate(zip(a, b)):
        h ^= (x * K_SRC[i]) & M32
        h ^= (y * K_DST[i]) & M32
    h ^= (proto * K_PROTO) & M32
    if use_ports:
        h ^= (((sport << 16) | dport) * K_PORTS) & M32
    if use_qp:
        h ^= (qp * K_QP) & M32
    return _hfinal(h)


M64 = (1 << 64) - 1
NO_BUCKET = 0xff


def bucket_score(b, slot):
    # userspace/lib/buckets.c rd_bucket_score: splitmix64 of bucket << 8 | slot
    z = (((b << 8) | slot) + 0x9e3779b97f4a7c15) & M64
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def bucket_quotas(w, nb):
    # largest remainder; ties to the lower slot
    total = sum(w)
    if not total:
        return [0] * len(w)
    t = [nb * x // total for x in w]
    rem = [nb * x % total for x in w]
    order = sorted((i for i in range(len(w)) if w[i]),
                   key=lambda i: (-rem[i], i))
    for i in order[:nb - sum(t)]:
        t[i] += 1
    return t


def bucket_overlay(base, w):
    # each member keeps its best-scoring buckets up to its quota; the rest
    # go, in bucket order, to the best-scoring member with room
    nb, t = len(base), bucket_quotas(w, len(base))
    out, d = [NO_BUCKET] * nb, [0] * len(w)
    for i, wi in enumerate(w):
        if not wi:
            continue
        own = sorted((b for b in range(nb) if base[b] == i),
                     key=lambda b: -bucket_score(b, i))[:t[i]]
        for b in own:
            out[b] = i
        d[i] = t[i] - len(own)
    for b in range(nb):
        if out[b] != NO_BUCKET:
            continue
        cand = [i for i in range(len(w)) if w[i] and d[i] > 0]
        if not cand:
            break
        best = max(cand, key=lambda i: bucket_score(b, i))
        out[b] = best
        d[best] -= 1
    return out


def bucket_table(weights, usable=None, nb=128):
    # userspace/lib/buckets.c rd_buckets_build: equal shares, weights, states
    n = len(weights)
    usable = usable or [True] * n
    e = bucket_overlay([NO_BUCKET] * nb, [1] * n)
    w = list(weights)
    a = bucket_overlay(e, w)
    for i in range(n):  # members that are down leave in slot order
        if w[i] and not usable[i]:
            w[i] = 0
            a = bucket_overlay(a, w)
    return a


def pick_member(h, weights, nb=128):
    slot = bucket_table(tuple(weights), nb=nb)[(h * nb) >> 32]
    assert slot != NO_BUCKET, "no member"
    return slot


# ------------------------------------------------------------------ configs
# Mirrors of the JSON files in tests/configs/ that the model needs.

FWD_SEED = 0x5eed
FWD_MEMBERS = [(2 + i, "02:aa:00:00:00:%02x" % (i + 1),
                "02:bb:00:00:00:%02x" % (i + 1)) for i in range(4)]
WCMP_MEMBERS = [(2, "02:aa:00:00:01:01", "02:bb:00:00:01:01", 1),
                (3, "02:aa:00:00:01:02", "02:bb:00:00:01:02", 3)]
# group 4: a 7-bucket table (groups[].buckets), weights 1:2:0:3
B7_MEMBERS = [(2 + i, "02:aa:00:00:03:%02x" % (i + 1),
               "02:bb:00:00:03:%02x" % (i + 1)) for i in range(4)]
REMARK_ONLY_QOS = {"ack": 40, "nak": 46, "cnp": 48, "data": 10, "cts": 46,
                   "ip": 0}
REMARK_ONLY_PCP = {"cnp": 6, "nak": 5}

# ------------------------------------------------------------------ fixtures

fixtures = {}  # file -> list of blocks


def fx(file, name, frame, desc, config="default.json", hook="both", **exp):
    """One fixture block. exp: expected fields (see README.md)."""
    b = {"name": name, "desc": desc, "hook": hook, "config": config,
         "in": frame}
    b.update(exp)
    fixtures.setdefault(file, []).append(b)


def hexlines(data):
    h = data.hex()
    return "\n".join("  " + h[i:i + 64] for i in range(0, len(h), 64))


ORDER = ["desc", "hook", "config", "time_ns", "ifindex", "port_mac", "in", "refused",
         "truncate", "refused_below", "malformed_at", "verdict", "class", "malformed", "pass", "dscp_in",
         "dscp_out", "ecn_out", "opcode", "dest_qp", "psn", "aeth",
         "aeth_code", "cts_rule", "member", "egress", "out", "icrc",
         "ipcsum"]


def write_block(f, b):
    f.write("name: %s\n" % b["name"])
    for k in ORDER:
        if k not in b:
            continue
        v = b[k]
        if k in ("in", "out") and isinstance(v, (bytes, bytearray)):
            f.write("%s:\n%s\n" % (k, hexlines(v)))
        else:
            f.write("%s: %s\n" % (k, v))
    f.write("\n")


def roce_fields(frame):
    """opcode/dest_qp/psn as scapy dissects them."""
    p = Ether(frame)
    b = p[BTH]
    return {"opcode": "0x%02x" % b.opcode, "dest_qp": "0x%06x" % b.dqpn,
            "psn": "0x%06x" % b.psn}


def classed(file, name, frame, desc, cls, dscp_in=0, dscp=None, ecn=0,
            passr="no_route", config="default.json", aethk=None, aethc=None,
            cts_rule=None, pcp=None, hook="both"):
    """A frame that is classified and remarked but not forwarded."""
    out = expect(frame, dscp=dscp, pcp=pcp) if (
        dscp is not None or pcp is not None) else frame
    p = Ether(frame)
    if p.haslayer(IP) or p.haslayer(IPv6):
        tos = p[IP].tos if p.haslayer(IP) else p[IPv6].tc
        assert dscp_in == tos >> 2, (name, "dscp_in")
        ecn = tos & 3
    exp = {"verdict": "pass", "class": cls, "malformed": "none",
           "pass": passr, "dscp_in": dscp_in,
           "dscp_out": dscp if dscp is not None else dscp_in,
           "ecn_out": ecn, "member": "none", "egress": "none"}
    p = Ether(frame)
    roce_frame = p.haslayer(BTH) and cls not in ("ip", "non_ip")
    if roce_frame:
        exp.update(roce_fields(frame))
    if aethk is not None:
        exp["aeth"] = aethk
        exp["aeth_code"] = aethc
    if cts_rule is not None:
        exp["cts_rule"] = cts_rule
    exp["out"] = "same" if out == frame else out
    if roce_frame and p.haslayer(UDP) and not (
            p.haslayer(IPv6) and p[IPv6].nh != 17):
        exp["icrc"] = "valid"
    if p.haslayer(IP):
        exp["ipcsum"] = "valid"
    fx(file, name, frame, desc, config=config, hook=hook, **exp)


def gen_classes():
    F = "classes.fix"
    # ACK / NAK / RNR NAK: the AETH syndrome decides (IBTA 9.7.5.2.2)
    classed(F, "ack_v4_ect0", ack(0x00, dscp=26, ecn=2), "RC ACK, ECT(0), "
            "DSCP 26 -> 46, ECN kept", "ack", dscp_in=26, dscp=46, ecn=2,
            aethk="ack", aethc=0)
    classed(F, "ack_v4_credits", ack(0x1f, ecn=3), "RC ACK with credit "
            "field 31 (invalid credits), CE", "ack", dscp=46, ecn=3,
            aethk="ack", aethc=0x1f)
    classed(F, "ack_v6", ack(0x05, v6=True, ecn=1), "RC ACK over IPv6, "
            "ECT(1): traffic class rewritten", "ack", dscp=46, ecn=1,
            aethk="ack", aethc=5)
    classed(F, "ack_v4_ackreq_psn_max", ack(0x00, psn=0xffffff, qp=0xffffff,
                                            ackreq=1),
            "ACK with PSN and QP all ones (24-bit fields)", "ack", dscp=46,
            aethk="ack", aethc=0)
    naks = [("nak_psn_seq_v4", 0x60, False, 0),
            ("nak_invalid_req_v4", 0x61, False, 1),
            ("nak_remote_access_v4", 0x62, False, 2),
            ("nak_remote_op_v6", 0x63, True, 3),
            ("nak_invalid_rd_v4", 0x64, False, 4),
            ("nak_psn_seq_v6", 0x60, True, 0)]
    for name, syn, v6, code in naks:
        classed(F, name, ack(syn, v6=v6, ecn=2, psn=0x2000 + code),
                "NAK syndrome 0x%02x" % syn, "nak", dscp=46, ecn=2,
                aethk="nak", aethc=code)
    classed(F, "rnr_nak_v4", ack(0x2e), "RNR NAK, timer 14", "nak",
            dscp=46, aethk="rnr_nak", aethc=0x0e)
    classed(F, "rnr_nak_v6", ack(0x20, v6=True), "RNR NAK over IPv6",
            "nak", dscp=46, aethk="rnr_nak", aethc=0)
    classed(F, "atomic_ack_v4", roce(0x12, payload=aeth(0x00) +
                                     ATOMIC_ACK_ETH),
            "ATOMIC ACKNOWLEDGE with ACK syndrome", "ack", dscp=46,
            aethk="ack", aethc=0)
    classed(F, "atomic_ack_nak_v4", roce(0x12, payload=aeth(0x62) +
                                         ATOMIC_ACK_ETH),
            "ATOMIC ACKNOWLEDGE carrying a remote access NAK", "nak",
            dscp=46, aethk="nak", aethc=2)
    # CNP (opcode 0x81, 16 bytes reserved)
    classed(F, "cnp_v4", cnp_frame(qp=0x345, ecn=0), "CNP", "cnp", dscp=48)
    classed(F, "cnp_v4_sport0", cnp_frame(qp=0x346, sport=0),
            "CNP with UDP source port 0 (some NICs)", "cnp", dscp=48)
    classed(F, "cnp_v6", cnp_frame(qp=0x347, v6=True, dscp=8),
            "CNP over IPv6, DSCP 8 -> 48", "cnp", dscp_in=8, dscp=48)
    # data: requests and read responses stay untouched by default
    data = [("data_rc_send_only_v4", 0x04, b"\xab" * 32, False),
            ("data_rc_write_first_v4", 0x06, RETH + b"\x01" * 64, False),
            ("data_rc_read_request_v4", 0x0c, RETH, False),
            ("data_rc_cmp_swap_v4", 0x13, ATOMIC_ETH, False),
            ("data_rc_read_resp_only_v6", 0x10, aeth(0) + b"\x02" * 40,
             True),
            ("data_rc_read_resp_middle_v4", 0x0e, b"\x03" * 256, False),
            ("data_uc_send_only_v4", 0x24, b"\x04" * 16, False),
            ("data_uc_write_only_imm_v6", 0x2b, RETH + b"\0\0\0\7" +
             b"\x05" * 8, True),
            ("data_ud_send_only_v4", 0x64, DETH + b"\x06" * 64, False)]
    for name, op, pl, v6 in data:
        classed(F, name, roce(op, payload=pl, v6=v6, dscp=26, ecn=2,
                              ackreq=1),
                "opcode 0x%02x: payload-carrying request or response" % op,
                "data", dscp_in=26, ecn=2)
    # other valid BTH
    classed(F, "roce_other_rd_send_v4", roce(0x44, payload=b"\0" * 12),
            "RD SEND only (0x44)", "roce_other")
    classed(F, "roce_other_ack_reserved_syndrome", ack(0x40),
            "ACK opcode with reserved AETH syndrome type 2", "roce_other",
            aethk="reserved", aethc=0)
    classed(F, "roce_other_opcode_0x1f_v6", roce(0x1f, v6=True),
            "RC reserved opcode 0x1f", "roce_other")
    # plain IP
    ipf = [("ip_tcp_v4", l2() / ip_layer(tos=0x88) / TCP(sport=4791,
                                                         dport=80), False),
           ("ip_udp_dns_v4", l2() / ip_layer() / UDP(sport=5353, dport=53)
            / Raw(b"q" * 12), False),
           ("ip_icmp_v4", l2() / ip_layer() / ICMP() / Raw(b"ping"), False),
           ("ip_udp_sport4791_v4", l2() / ip_layer() /
            UDP(sport=4791, dport=4790) / Raw(bytes(20)), False),
           ("ip_udp_v6", l2() / ip_layer(v6=True) / UDP(sport=1, dport=2)
            / Raw(bytes(16)), True),
           ("ip_tcp_v6", l2() / ip_layer(v6=True) / TCP(), True)]
    for name, pkt, v6 in ipf:
        f = raw(pkt)
        dscp_in = 0x88 >> 2 if name == "ip_tcp_v4" else 0
        classed(F, name, f, "not RoCEv2: " + pkt.summary(), "ip",
                dscp_in=dscp_in)
    classed(F, "non_ip_arp", raw(Ether(src=SMAC, dst="ff:ff:ff:ff:ff:ff") /
                                 ARP(psrc=SRC4, pdst=DST4)),
            "ARP request", "non_ip", passr="non_ip")
    classed(F, "non_ip_lldp", raw(Ether(src=SMAC, dst="01:80:c2:00:00:0e",
                                        type=0x88cc) / Raw(bytes(46))),
            "LLDP ethertype", "non_ip", passr="non_ip")
    # VLAN tags: classified and remarked, never forwarded
    q = [(0x8100, 100, 3)]
    qinq = [(0x88a8, 200, 1), (0x8100, 100, 3)]
    classed(F, "vlan_ack_v4", ack(0x00, vlans=q), "802.1Q ACK", "ack",
            dscp=46, passr="vlan", aethk="ack", aethc=0)
    classed(F, "qinq_nak_v4", ack(0x61, vlans=qinq), "802.1ad + 802.1Q NAK",
            "nak", dscp=46, passr="vlan", aethk="nak", aethc=1)
    classed(F, "vlan_cnp_v6", cnp_frame(vlans=q, v6=True), "802.1Q CNP IPv6",
            "cnp", dscp=48, passr="vlan")
    classed(F, "qinq_data_v6", roce(0x0a, payload=RETH + bytes(8),
                                    vlans=qinq, v6=True),
            "QinQ RDMA WRITE only over IPv6", "data", passr="vlan")
    classed(F, "qinq_8100_8100_ack", ack(0x00, vlans=[(0x8100, 5, 0),
                                                      (0x8100, 6, 0)]),
            "two 0x8100 tags", "ack", dscp=46, passr="vlan", aethk="ack",
            aethc=0)
    # IPv4 fragments are never parsed as RoCE
    full = ack(0x00)
    p = Ether(full)
    p[IP].flags = "MF"
    p[IP].chksum = None
    classed(F, "ip4_frag_first_roce", raw(p), "first fragment (MF) of a "
            "RoCE ACK: not RoCE", "ip", passr="fragment")
    p = Ether(src=SMAC, dst=DMAC) / IP(src=SRC4, dst=DST4, proto=17,
                                       frag=100, id=7) / Raw(bytes(32))
    classed(F, "ip4_frag_nonfirst", raw(p), "non-first fragment, proto UDP",
            "ip", passr="fragment")
    # IPv6 extension headers (up to 4 walked)
    classed(F, "ip6_hbh_ack", ack(0x00, v6=True, ext=IPv6ExtHdrHopByHop()),
            "IPv6 hop-by-hop + ACK", "ack", dscp=46, passr="ip_options",
            aethk="ack", aethc=0)
    classed(F, "ip6_routing_ack", ack(0x00, v6=True,
                                      ext=IPv6ExtHdrRouting(addresses=[])),
            "IPv6 routing header + ACK", "ack", dscp=46, aethk="ack",
            aethc=0)
    classed(F, "ip6_dstopt_cnp", cnp_frame(v6=True, ext=IPv6ExtHdrDestOpt()),
            "IPv6 destination options + CNP", "cnp", dscp=48)
    classed(F, "ip6_frag_ack", ack(0x00, v6=True,
                                   ext=IPv6ExtHdrFragment(offset=0, m=0)),
            "IPv6 atomic fragment + ACK: a whole datagram (RFC 6946)",
            "ack", dscp=46, aethk="ack", aethc=0)
    four = (IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt() /
            IPv6ExtHdrRouting(addresses=[]) / IPv6ExtHdrDestOpt())
    classed(F, "ip6_four_ext_nak", ack(0x60, v6=True, ext=four),
            "4 extension headers (the limit) + NAK", "nak", dscp=46,
            passr="ip_options", aethk="nak", aethc=0)
    classed(F, "ip6_routing_dstopt_data", roce(0x04, v6=True,
                                               payload=bytes(32),
                                               ext=IPv6ExtHdrRouting(
                                                   addresses=[]) /
                                               IPv6ExtHdrDestOpt()),
            "routing + dstopts + SEND only", "data")
    classed(F, "ip4_options_ack", ack(0x00, ip_kw={"options": [
        IPOption_RR(routers=["1.2.3.4"])]}),
        "IPv4 with options (RR) + ACK: checksum updated over 28 bytes",
        "ack", dscp=46, passr="ip_options", aethk="ack", aethc=0)


def malformed(F, name, frame, desc, reason, hook="both", extra=None):
    exp = {"verdict": "pass", "class": "malformed", "malformed": reason,
           "pass": "malformed", "member": "none", "egress": "none",
           "out": "same"}
    exp.update(extra or {})
    fx(F, name, frame, desc, hook=hook, **exp)


def set_bytes(frame, off, data):
    f = bytearray(frame)
    f[off:off + len(data)] = data
    return bytes(f)


def ip4_csum(hdr):
    s = 0
    for i in range(0, len(hdr), 2):
        s += (hdr[i] << 8) | hdr[i + 1]
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def gen_malformed():
    F = "malformed.fix"
    eth4 = raw(Ether(src=SMAC, dst=DMAC, type=0x0800))
    eth6 = raw(Ether(src=SMAC, dst=DMAC, type=0x86dd))
    a4 = ack(0x00)
    a6 = ack(0x00, v6=True)
    # BPF_PROG_TEST_RUN refuses frames shorter than an Ethernet header on
    # both hooks (even behind XDP metadata), so trunc_eth cannot be reached
    # offline: the fixture pins that the kernel refuses, nothing crashes.
    fx(F, "mal_trunc_eth", a4[:10], "10 bytes: shorter than an Ethernet "
       "header; test_run refuses it", refused="both")
    malformed(F, "mal_trunc_vlan", raw(Ether(src=SMAC, dst=DMAC,
                                             type=0x8100)) + b"\x00\x64",
              "802.1Q ethertype, tag cut after the TCI", "trunc_vlan")
    three = [(0x88a8, 1, 0), (0x8100, 2, 0), (0x8100, 3, 0)]
    malformed(F, "mal_too_many_vlan", ack(0x00, vlans=three),
              "three VLAN tags", "too_many_vlan")
    # tc's test_run refuses an IP ethertype without a whole IP header
    malformed(F, "mal_trunc_ip4", eth4 + raw(IP(src=SRC4, dst=DST4))[:12],
              "IPv4 ethertype, 12 bytes of header", "trunc_ip4",
              extra={"refused": "tc"})
    malformed(F, "mal_bad_ip_version_4", set_bytes(a4, 14, b"\x65"),
              "IPv4 ethertype, version nibble 6", "bad_ip_version")
    malformed(F, "mal_bad_ip_version_6", set_bytes(a6, 14, b"\x40"),
              "IPv6 ethertype, version nibble 4", "bad_ip_version")
    malformed(F, "mal_bad_ihl", set_bytes(a4, 14, b"\x44"),
              "IPv4 IHL 4 (< 5)", "bad_ihl")
    malformed(F, "mal_bad_ihl_zero", set_bytes(a4, 14, b"\x40"),
              "IPv4 IHL 0", "bad_ihl")
    malformed(F, "mal_bad_ip_len_long", set_bytes(a4, 16,
                                                  struct.pack("!H", 1500)),
              "IPv4 total length 1500 in a 62-byte frame", "bad_ip_len")
    malformed(F, "mal_bad_ip_len_short", set_bytes(a4, 16,
                                                   struct.pack("!H", 16)),
              "IPv4 total length 16 < header", "bad_ip_len")
    malformed(F, "mal_bad_ip_len_v6", set_bytes(a6, 18,
                                                struct.pack("!H", 200)),
              "IPv6 payload length beyond the frame", "bad_ip_len")
    malformed(F, "mal_trunc_ip6", eth6 + raw(IPv6(src=SRC6, dst=DST6))[:30],
              "IPv6 ethertype, 30 bytes of header", "trunc_ip6",
              extra={"refused": "tc"})
    q = [(0x8100, 9, 0)]
    malformed(F, "mal_trunc_ip4_vlan", raw(l2(q) / IP(src=SRC4,
                                                    dst=DST4))[:18 + 19],
              "tagged IPv4 cut at 19 bytes of header (tc runs it)",
              "trunc_ip4")
    malformed(F, "mal_trunc_ip6_vlan", raw(l2(q) / IPv6(src=SRC6,
                                                      dst=DST6))[:18 + 39],
              "tagged IPv6 cut at 39 bytes of header", "trunc_ip6")
    # extension header claims 16 bytes, only 8 there (payload length 8)
    hbh = bytes([59, 1]) + bytes(6)
    p6 = raw(IPv6(src=SRC6, dst=DST6, nh=0, plen=8))
    malformed(F, "mal_trunc_ext", eth6 + p6 + hbh,
              "hop-by-hop header of 16 bytes cut at 8", "trunc_ext")
    p6 = raw(IPv6(src=SRC6, dst=DST6, nh=60, plen=4))
    malformed(F, "mal_trunc_ext_short", eth6 + p6 + bytes([17, 0, 0, 0]),
              "destination options header cut at 4 bytes", "trunc_ext")
    five = (IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt() /
            IPv6ExtHdrRouting(addresses=[]) / IPv6ExtHdrDestOpt() /
            IPv6ExtHdrDestOpt())
    malformed(F, "mal_too_many_ext", ack(0x00, v6=True, ext=five),
              "5 extension headers (limit 4)", "too_many_ext")
    ip = IP(src=SRC4, dst=DST4, proto=17) / Raw(b"\x12\xb7\x12\xb7")
    malformed(F, "mal_trunc_udp", eth4 + raw(ip),
              "UDP header cut at 4 bytes (IP length agrees)", "trunc_udp")
    malformed(F, "mal_bad_udp_len_long", set_bytes(a4, 38,
                                                   struct.pack("!H", 100)),
              "UDP length 100 > IP payload 28", "bad_udp_len")
    malformed(F, "mal_bad_udp_len_short", set_bytes(a4, 38,
                                                    struct.pack("!H", 6)),
              "UDP length 6 < 8", "bad_udp_len")
    bth = raw(BTH(opcode=0x11, dqpn=5, psn=1, icrc=0))[:8]
    u = raw(Ether(src=SMAC, dst=DMAC) / IP(src=SRC4, dst=DST4) /
            UDP(sport=0xc000, dport=ROCE_PORT) / Raw(bth))
    malformed(F, "mal_trunc_bth", u, "UDP 4791 with 8 bytes of BTH",
              "trunc_bth")
    bth = raw(BTH(opcode=0x04, dqpn=5, psn=1, icrc=0))[:12]
    u = raw(Ether(src=SMAC, dst=DMAC) / IP(src=SRC4, dst=DST4) /
            UDP(sport=0xc000, dport=ROCE_PORT) / Raw(bth + b"\0\0"))
    malformed(F, "mal_trunc_icrc", u, "BTH complete, ICRC cut to 2 bytes",
              "trunc_bth")
    malformed(F, "mal_trunc_aeth", roce(0x11), "ACK without its AETH",
              "trunc_aeth")
    malformed(F, "mal_trunc_aeth_v6", roce(0x12, payload=b"\0\0", v6=True),
              "ATOMIC ACK with 2 bytes of AETH", "trunc_aeth")
    malformed(F, "mal_trunc_cnp", roce(0x81, payload=bytes(8)),
              "CNP with 8 of 16 reserved bytes", "trunc_cnp")
    malformed(F, "mal_bad_bth_version", ack(0x00, tver=1),
              "BTH TVer 1", "bad_bth_version")
    malformed(F, "mal_bad_bth_version_cnp_v6", roce(0x81, payload=CNP_PAD,
                                                    tver=0xf, v6=True),
              "CNP with BTH TVer 15", "bad_bth_version")


def ack_trunc_ranges(vlans, v6):
    """Malformed reason for each cut length of an ACK frame: what is
    missing first. The IP length still announces the whole datagram, so
    once the IP header is complete the IP length check fires."""
    hdr = 14 + 4 * vlans
    iplen = 40 if v6 else 20
    total = hdr + iplen + 8 + 12 + 4 + 4
    r = []
    if vlans:
        r.append("14-%d:trunc_vlan" % (hdr - 1))
    r.append("%d-%d:%s" % (hdr, hdr + iplen - 1,
                           "trunc_ip6" if v6 else "trunc_ip4"))
    r.append("%d-%d:bad_ip_len" % (hdr + iplen, total - 1))
    return total, ",".join(r)


def gen_trunc():
    F = "truncate.fix"
    for name, vl, v6 in [("trunc_ack_v4", (), False),
                         ("trunc_ack_v6", (), True),
                         ("trunc_ack_vlan_v4", ((0x8100, 7, 0),), False),
                         ("trunc_ack_qinq_v6", ((0x88a8, 7, 0),
                                                (0x8100, 8, 0)), True)]:
        f = ack(0x00, vlans=vl, v6=v6)
        total, ranges = ack_trunc_ranges(len(vl), v6)
        assert total == len(f)
        # test_run refuses < 14 bytes on both hooks; tc also an untagged
        # IP ethertype without its whole IP header
        tc_min = 14 if vl else 14 + (40 if v6 else 20)
        fx(F, name, f, "every prefix 0..%d of a RoCE ACK frame" % (total - 1),
           truncate="all", refused_below="xdp=14,tc=%d" % tc_min,
           malformed_at=ranges, verdict="pass",
           **{"class": "malformed", "pass": "malformed", "member": "none",
              "egress": "none", "out": "same"})
    # the whole frame itself parses fine: the control for the expansion
    f = ack(0x00)
    classed(F, "trunc_control_full_ack", f, "the uncut ACK", "ack", dscp=46,
            aethk="ack", aethc=0)


def gen_cts():
    F = "cts.fix"
    C = "cts.json"

    def cts(name, frame, desc, rule, cls="cts", dscp_in=0):
        classed(F, name, frame, desc, cls, dscp_in=dscp_in,
                dscp=46 if cls == "cts" else None, config=C,
                cts_rule=rule if rule is not None else "none")

    # rule 0: send_only|rdma_write_only, QP 0x100-0x1ff, <= 64 B, src 10/8
    # rule 1: send_only, QP 0x200-0x2ff, <= 32 B, dst 2001:db8:1::/48
    # rule 2: 0x0b and UC send only (0x24), QP 0x300, <= 128 B
    # rule 3: send_only, QP 0x100-0x1ff, <= 1024 B (behind rule 0)
    cts("cts_send_only_rule0", roce(0x04, qp=0x120, payload=bytes(16)),
        "SEND only, QP 0x120, 16 B from 10.0.0.1", 0)
    cts("cts_write_only_rule0", roce(0x0a, qp=0x1ff, payload=RETH +
                                     bytes(48)),
        "RDMA WRITE only, QP 0x1ff (range end), 64 B", 0)
    cts("cts_first_match_wins", roce(0x04, qp=0x100, payload=bytes(64)),
        "matches rules 0 and 3: the first wins", 0)
    cts("cts_payload_over_rule0", roce(0x04, qp=0x150, payload=bytes(65)),
        "65 B: over rule 0, rule 3 takes it", 3)
    cts("cts_payload_over_all", roce(0x04, qp=0x150, payload=bytes(1025)),
        "1025 B: no rule", None, cls="data")
    cts("cts_qp_below_range", roce(0x04, qp=0xff, payload=bytes(16)),
        "QP 0xff below every range", None, cls="data")
    cts("cts_wrong_opcode", roce(0x00, qp=0x120, payload=bytes(16)),
        "SEND first is in no rule's opcode set", None, cls="data")
    cts("cts_src_prefix_miss_falls_through",
        roce(0x04, qp=0x120, payload=bytes(16), src="192.168.0.9"),
        "src 192.168.0.9 misses rule 0's 10/8, rule 3 has no prefix", 3)
    cts("cts_src_prefix_miss_none",
        roce(0x0a, qp=0x120, payload=RETH, src="192.168.0.9"),
        "WRITE only from 192.168.0.9: rule 0 src miss, rule 3 opcode miss",
        None, cls="data")
    cts("cts_v6_dst_prefix", roce(0x04, qp=0x250, payload=bytes(32),
                                  v6=True),
        "IPv6 to 2001:db8:1::2, QP 0x250, 32 B", 1)
    cts("cts_v6_dst_prefix_miss", roce(0x04, qp=0x250, payload=bytes(8),
                                       v6=True, dst="2001:db8:2::2"),
        "IPv6 to 2001:db8:2::2 misses 2001:db8:1::/48", None, cls="data")
    cts("cts_v6_rule_on_v4_frame", roce(0x04, qp=0x250, payload=bytes(8)),
        "IPv4 frame never matches a rule with IPv6 prefixes", None,
        cls="data")
    cts("cts_v4_rule_on_v6_frame", roce(0x04, qp=0x120, payload=bytes(8),
                                        v6=True),
        "IPv6 frame misses rule 0 (IPv4 src prefix), rule 3 takes it", 3)
    cts("cts_single_qp", roce(0x0b, qp=0x300, payload=RETH + b"\0\0\0\1" +
                              bytes(100)),
        "WRITE only with immediate on QP 0x300", 2)
    cts("cts_single_qp_uc", roce(0x24, qp=0x300, payload=bytes(128)),
        "UC SEND only, 128 B (the limit) on QP 0x300", 2)
    cts("cts_single_qp_miss", roce(0x0b, qp=0x301, payload=RETH +
                                   b"\0\0\0\1"),
        "QP 0x301 next to the single-QP rule", None, cls="data")
    cts("cts_pre_remarked_v4", roce(0x04, qp=0x120, payload=bytes(4),
                                    dscp=46, ecn=1),
        "already DSCP 46: unchanged", 0, dscp_in=46)
    # rules apply to data opcodes only
    classed(F, "cts_ack_not_cts", ack(0x00, qp=0x120), "ACK on a CTS QP is "
            "an ACK", "ack", dscp=46, config=C, aethk="ack", aethc=0,
            cts_rule="none")


def fwd_out(frame, members, weights, mode, seed, dscp=None, nb=128):
    h = flow_hash(frame, mode, seed)
    slot = pick_member(h, weights, nb)
    ifx, smac, dmac = members[slot][:3]
    return slot, ifx, expect(frame, dscp=dscp, fwd=(smac, dmac))


def forwarded(F, name, frame, desc, cls, config="fwd.json", dscp=None,
              mode="qp", members=FWD_MEMBERS, weights=(1, 1, 1, 1),
              seed=FWD_SEED, extra=None, want_slot=None, nb=128):
    slot, ifx, out = fwd_out(frame, members, weights, mode, seed, dscp, nb)
    if want_slot is not None:
        assert slot == want_slot, (name, slot)
    p = Ether(frame)
    ip = p[IP] if p.haslayer(IP) else p[IPv6]
    dscp_in = (ip.tos if p.haslayer(IP) else ip.tc) >> 2
    ecn = (ip.tos if p.haslayer(IP) else ip.tc) & 3
    exp = {"verdict": "redirect", "class": cls, "malformed": "none",
           "pass": "none", "dscp_in": dscp_in,
           "dscp_out": dscp if dscp is not None else dscp_in,
           "ecn_out": ecn, "member": slot, "egress": ifx, "out": out}
    if p.haslayer(BTH):
        exp.update(roce_fields(frame))
        exp["icrc"] = "valid"
    if p.haslayer(IP):
        exp["ipcsum"] = "valid"
    exp.update(extra or {})
    fx(F, name, frame, desc, config=config, **exp)
    return slot


def gen_fwd():
    F = "forward.fix"
    forwarded(F, "fwd_ack_v4", ack(0x00, ecn=2), "ACK to 10.1.0.2: "
              "redirect, MACs, TTL 63, DSCP 46, ECN kept", "ack", dscp=46)
    forwarded(F, "fwd_ack_v4_ce", ack(0x00, ecn=3, qp=0x77), "ACK with CE",
              "ack", dscp=46)
    forwarded(F, "fwd_nak_v6", ack(0x60, v6=True, qp=0x99),
              "NAK over IPv6: hop limit 63", "nak", dscp=46)
    forwarded(F, "fwd_cnp_v6_sport0", cnp_frame(v6=True, sport=0, qp=0x10),
              "CNP over IPv6 with UDP source port 0", "cnp", dscp=48)
    # QPs picked so that all four members are exercised
    seen = {}
    qp = 1
    while len(seen) < 4:
        f = roce(0x0a, qp=qp, payload=RETH + bytes(64), ttl=2)
        slot = pick_member(flow_hash(f, "qp", FWD_SEED), [1, 1, 1, 1])
        if slot not in seen:
            seen[slot] = (qp, f)
        qp += 1
    for slot in sorted(seen):
        qp, f = seen[slot]
        forwarded(F, "fwd_write_v4_member%d" % slot, f,
                  "RDMA WRITE only on QP %#x, TTL 2 -> 1" % qp, "data",
                  want_slot=slot)
    forwarded(F, "fwd_data_v6", roce(0x04, v6=True, qp=0x4242,
                                     payload=bytes(100), dscp=10),
              "SEND only over IPv6, DSCP 10 left", "data")
    forwarded(F, "fwd_tcp_v4", raw(l2() / ip_layer(tos=4) /
                                   TCP(sport=33000, dport=5201)),
              "TCP: hashed on its 5-tuple", "ip")
    forwarded(F, "fwd_udp_v6", raw(l2() / ip_layer(v6=True) /
                                   UDP(sport=1000, dport=2000) /
                                   Raw(bytes(8))), "plain UDP over IPv6",
              "ip")
    forwarded(F, "fwd_icmp_v4_ttl255", raw(l2() / ip_layer(ttl=255) /
                                           ICMP()), "ICMP, TTL 255 -> 254",
              "ip")
    # weighted group 2 (weights 1:3) on 10.2.0.0/16
    for i, qp in enumerate((0x500, 0x501, 0x502, 0x503)):
        forwarded(F, "fwd_wcmp_ack_%d" % i, ack(0x00, qp=qp,
                                                dst="10.2.0.%d" % (i + 1)),
                  "ACK into the 1:3 weighted group", "ack", dscp=46,
                  members=WCMP_MEMBERS, weights=(1, 3))
    # group 4: 7 buckets (1, 2, 0, 4 of them), member 2 has weight 0
    for i in range(8):
        forwarded(F, "fwd_buckets7_ack_%d" % i,
                  ack(0x00, qp=0x600 + i, dst="10.4.0.%d" % (i + 1)),
                  "ACK into a 7-bucket group, weights 1:2:0:3", "ack",
                  dscp=46, members=B7_MEMBERS, weights=(1, 2, 0, 3), nb=7)
    # hash modes: 5tuple ignores the QP, qp-only ignores the source port
    for cfg, mode in (("fwd_5tuple.json", "5tuple"),
                      ("fwd_qponly.json", "qp-only")):
        for qp, sport in ((0x10, 0xc000), (0x11, 0xc000), (0x10, 0xc001)):
            forwarded(F, "fwd_%s_qp%x_sport%x" % (mode.replace("-", ""),
                                                  qp, sport),
                      roce(0x04, qp=qp, sport=sport, payload=bytes(8)),
                      "%s hash: QP %#x sport %#x" % (mode, qp, sport),
                      "data", config=cfg, mode=mode, seed=0)

    def kept(name, frame, desc, cls, passr, dscp=None, **kw):
        classed(F, name, frame, desc, cls, dscp=dscp, passr=passr,
                config="fwd.json", **kw)

    kept("fwd_ttl1_v4", ack(0x00, ttl=1), "TTL 1: to the kernel", "ack",
         "ttl", dscp=46, aethk="ack", aethc=0)
    kept("fwd_ttl0_v4", roce(0x04, ttl=0, payload=bytes(4)), "TTL 0",
         "data", "ttl")
    kept("fwd_hlim1_v6", cnp_frame(v6=True, ttl=1), "hop limit 1", "cnp",
         "ttl", dscp=48)
    kept("fwd_no_route_v4", ack(0x00, dst="172.16.0.1"), "no route",
         "ack", "no_route", dscp=46, aethk="ack", aethc=0)
    kept("fwd_no_route_v6", roce(0x04, v6=True, dst="2001:db8:77::1",
                                 payload=bytes(4)), "no IPv6 route", "data",
         "no_route")
    kept("fwd_local_v4", ack(0x60, dst="10.9.0.1"), "local route", "nak",
         "local", dscp=46, aethk="nak", aethc=0)
    kept("fwd_local_v6", raw(l2() / ip_layer(v6=True, dst="2001:db8:9::1") /
                             TCP()), "local IPv6 route", "ip", "local")
    kept("fwd_mcast_mac", ack(0x00, dmac="01:00:5e:01:02:03"),
         "multicast destination MAC", "ack", "mcast", dscp=46, aethk="ack",
         aethc=0)
    kept("fwd_mcast_ip4", raw(l2() / ip_layer(dst="224.0.0.5") /
                              UDP(sport=1, dport=2)), "224.0.0.5 behind a "
         "unicast MAC", "ip", "mcast")
    kept("fwd_bcast_ip4", raw(l2() / ip_layer(dst="255.255.255.255") /
                              UDP(sport=68, dport=67)),
         "limited broadcast", "ip", "mcast")
    kept("fwd_mcast_ip6", raw(l2() / ip_layer(v6=True, dst="ff02::1") /
                              UDP(sport=1, dport=2)), "ff02::1", "ip",
         "mcast")
    kept("fwd_ip_options", ack(0x00, ip_kw={"options": [
        IPOption_RR(routers=["1.2.3.4"])]}), "IPv4 options", "ack",
        "ip_options", dscp=46, aethk="ack", aethc=0)
    kept("fwd_nd_ns", raw(l2() / ip_layer(v6=True, ttl=255) /
                          ICMPv6ND_NS(tgt=DST6)),
         "neighbour solicitation to a routed address", "ip", "nd")
    kept("fwd_link_local_v6", roce(0x04, v6=True, dst="fe80::2",
                                   payload=bytes(4)),
         "link-local destination", "data", "nd")
    kept("fwd_vlan", ack(0x00, vlans=[(0x8100, 10, 0)]),
         "tagged ACK to a routed address", "ack", "vlan", dscp=46,
         aethk="ack", aethc=0)
    kept("fwd_fragment", raw(Ether(src=SMAC, dst=DMAC) /
                             IP(src=SRC4, dst=DST4, proto=17, frag=10) /
                             Raw(bytes(16))), "fragment", "ip", "fragment")
    kept("fwd_arp", raw(Ether(src=SMAC, dst=DMAC) / ARP(op=2)), "ARP reply",
         "non_ip", "non_ip")
    malformed(F, "fwd_malformed_bad_udp_len",
              set_bytes(ack(0x00), 38, struct.pack("!H", 100)),
              "malformed frames are never forwarded", "bad_udp_len",
              extra={"config": "fwd.json"})
    kept("fwd_group_all_down", ack(0x00, dst="10.3.0.1"),
         "route to a group whose only member has weight 0", "ack",
         "no_member", dscp=46, aethk="ack", aethc=0)


def gen_remark_only():
    F = "remark_only.fix"
    C = "remark_only.json"
    Q = REMARK_ONLY_QOS

    def ro(name, frame, desc, cls, dscp_in=0, pcp=None, **kw):
        classed(F, name, frame, desc, cls, dscp_in=dscp_in,
                dscp=Q.get(cls), pcp=pcp, passr="no_forward", config=C, **kw)

    ro("ro_ack_v4", ack(0x00, ecn=2), "ACK -> 40, not forwarded", "ack",
       aethk="ack", aethc=0)
    ro("ro_ack_already_40", ack(0x00, dscp=40, ecn=1), "already 40", "ack",
       dscp_in=40, aethk="ack", aethc=0)
    ro("ro_data_v4", roce(0x04, payload=bytes(8), ecn=2), "data -> 10",
       "data")
    ro("ro_data_v6", roce(0x04, payload=bytes(8), v6=True, dscp=63, ecn=3),
       "data over IPv6, 63 -> 10, CE kept", "data", dscp_in=63)
    ro("ro_tcp_cleared", raw(l2() / ip_layer(tos=(34 << 2) | 1) / TCP()),
       "ip class set to DSCP 0", "ip", dscp_in=34, ecn=1)
    ro("ro_roce_other_left", roce(0x44, payload=bytes(20)),
       "roce_other: leave", "roce_other")
    ro("ro_cnp_vlan_pcp", cnp_frame(vlans=[(0x8100, 10, 0)]),
       "tagged CNP: DSCP 48 and PCP 6", "cnp", pcp=6)
    ro("ro_nak_qinq_pcp", ack(0x61, vlans=[(0x88a8, 20, 0),
                                           (0x8100, 10, 2)], v6=True),
       "QinQ NAK: outer tag PCP 5", "nak", pcp=5, aethk="nak", aethc=1)
    ro("ro_routed_dst_not_forwarded", ack(0x00, dst="10.1.0.2"),
       "remark only: even a routed destination stays in the kernel", "ack",
       aethk="ack", aethc=0)


def jumbo_roce(size, v6=False, **kw):
    """A RoCE frame of exactly size bytes: RDMA WRITE only (RETH) over
    IPv4, SEND only over IPv6, the payload filling the rest."""
    hdr = 14 + (40 if v6 else 20) + 8 + 12 + 4 + (0 if v6 else len(RETH))
    body = bytes((i * 7) & 0xff for i in range(size - hdr))
    f = (roce(0x04, payload=body, v6=True, **kw) if v6 else
         roce(0x0a, payload=RETH + body, **kw))
    assert len(f) == size
    return f


def with_ce(frame):
    """frame with the ECN field set to CE (IPv4 checksum recomputed)."""
    p = Ether(frame)
    if p.haslayer(IP):
        p[IP].tos |= 3
        p[IP].chksum = None
    else:
        p[IPv6].tc |= 3
    return raw(p)


def gen_jumbo():
    """Multi-buffer frames: XDP test runs put what does not fit one page
    (about 3.5 KB with head- and tailroom) into fragments, which only an
    xdp.frags program accepts; tc test runs take one page at most."""
    F = "jumbo.fix"
    C = "jumbo.json"
    # The ports' RED (below) marks a frame that finds over 6000 bytes
    # queued, so every frame here runs a second after the one before
    # (1 Mbit/s drains 125 KB by then), whatever member it lands on.
    sec = 1000000000
    for i, (name, size, v6, desc) in enumerate((
            ("jumbo_4154_v4", 4154, False,
             "4096-byte RDMA WRITE payload (path MTU 4096)"),
            ("jumbo_9000_v4", 9000, False, "9000-byte frame"),
            ("jumbo_9216_v6", 9216, True, "9216-byte SEND over IPv6"))):
        f = jumbo_roce(size, v6=v6, qp=0x900 + size % 97, ecn=2)
        forwarded(F, name, f, desc + ": forwarded whole, MACs and TTL "
                  "rewritten", "data", config=C,
                  extra={"hook": "xdp", "time_ns": (10 + i) * sec})
    f = jumbo_roce(9000, ecn=1)
    forwarded(F, "jumbo_tc_refused", f, "tc test runs take at most one "
              "page (the live tc hook takes any skb)", "data", config=C,
              extra={"refused": "tc", "time_ns": 20 * sec})
    # ECN counts the whole frame: Kmin/Kmax 5000/6000 bytes, a 1 Mbit/s
    # drain and the same clock, so the second 9000-byte frame finds 9000
    # bytes queued (CE); counting the linear part only (~3.5 KB) would not.
    # A second after the frames above, which have drained by then.
    t = {"hook": "xdp", "time_ns": 21 * sec}
    f = jumbo_roce(9000, qp=0x4444, ecn=2)
    forwarded(F, "jumbo_ecn_first", f, "first 9000-byte frame on an empty "
              "virtual queue: ECT(0) kept", "data", config=C, extra=t)
    slot, ifx, out = fwd_out(f, FWD_MEMBERS, (1, 1, 1, 1), "qp", FWD_SEED)
    forwarded(F, "jumbo_ecn_second", f, "second one finds the first's 9000 "
              "bytes queued: CE", "data", config=C,
              extra=dict(t, ecn_out=3, out=with_ce(out)))
    # A header past the linear part: IPv6 with two 2048-byte destination
    # options headers puts the second one's end, UDP and BTH beyond the
    # first page. Not broken, only unreadable: passed and counted.
    pad = IPv6ExtHdrDestOpt(options=[PadN(optdata=bytes(255))] * 7 +
                            [PadN(optdata=bytes(245))])
    assert len(raw(pad)) == 2048
    f = roce(0x04, v6=True, qp=0x77, payload=bytes(1024),
             ext=pad / IPv6ExtHdrDestOpt(options=pad.options))
    malformed(F, "jumbo_hdr_not_linear", f, "UDP and BTH behind 4 KB of "
              "IPv6 extension headers, outside the linear part",
              "not_linear", hook="xdp", extra={"config": C})


def gen_tc_vlan():
    """tc ingress sees the outer tag in skb metadata (the receive path
    untags before tc); hook tc_rx runs it so and writes that tag back into
    the output. A new PCP must keep the tag's TPID, 802.1ad included, and
    a QinQ frame's inner tag must stay as it was."""
    F = "tc_vlan.fix"
    C = "remark_only.json"
    Q = REMARK_ONLY_QOS

    def rx(name, frame, desc, cls, pcp, **kw):
        classed(F, name, frame, desc, cls, dscp=Q.get(cls), pcp=pcp,
                passr="no_forward", config=C, hook="tc_rx", **kw)

    rx("tcrx_cnp_8021q", cnp_frame(vlans=[(0x8100, 10, 0)]),
       "802.1Q CNP: PCP 6 on the re-pushed tag", "cnp", 6)
    rx("tcrx_cnp_8021ad", cnp_frame(vlans=[(0x88a8, 10, 0)]),
       "802.1ad S-tag CNP: PCP 6, TPID 0x88a8 kept", "cnp", 6)
    rx("tcrx_nak_qinq", ack(0x61, vlans=[(0x88a8, 20, 0), (0x8100, 10, 2)],
                            v6=True),
       "QinQ NAK: outer S-tag PCP 5 and TPID 0x88a8, inner C-tag as it "
       "was", "nak", 5, aethk="nak", aethc=1)
    rx("tcrx_cnp_qinq_8021q_outer", cnp_frame(vlans=[(0x8100, 30, 1),
                                                     (0x8100, 40, 3)]),
       "double 802.1Q: outer PCP 6, inner left", "cnp", 6)


# ------------------------------------------------------------------ corners
# Martians, XRC, IPv6 atomic fragments, unicast frames
# for other hosts, priority tags (VID 0).

XRCETH = struct.pack("!I", 0x000123)  # reserved byte, XRC SRQ 0x123
PORT_IFX = 2  # ingress port of the fixtures that set a port MAC (XDP
# test runs need the device to exist: the runner's veth)


def strip_tag(frame, fwd, dscp=None):
    """The forwarded frame without its one (priority) tag, as the kernel
    routes it: MACs of the member, TTL / hop limit - 1, DSCP."""
    out = bytearray(expect(frame, dscp=dscp, fwd=fwd))
    return bytes(out[:12] + out[16:])


def gen_corners():
    F = "corners.fix"
    # martians (net/ipv4/route.c ip_route_input_slow, net/ipv6/ip6_input.c
    # ip6_rcv_core, net/ipv6/ip6_output.c ip6_forward): to the kernel, which
    # drops them; routed destinations, so only the check keeps them here
    for name, src, dst, v6, why in (
            ("martian_src_loopback_v4", "127.0.0.1", None, False, "src"),
            ("martian_src_zeronet_v4", "0.0.0.0", None, False, "src"),
            ("martian_src_zeronet_host_v4", "0.1.2.3", None, False, "src"),
            ("martian_src_mcast_v4", "224.0.0.1", None, False, "src"),
            ("martian_src_lbcast_v4", "255.255.255.255", None, False,
             "src"),
            ("martian_dst_loopback_v4", None, "127.0.0.1", False, "dst"),
            ("martian_dst_zeronet_v4", None, "0.1.2.3", False, "dst"),
            ("martian_src_loopback_v6", "::1", None, True, "src"),
            ("martian_src_unspec_v6", "::", None, True, "src"),
            ("martian_src_mcast_v6", "ff02::1", None, True, "src"),
            ("martian_src_link_local_v6", "fe80::1", None, True, "src"),
            ("martian_dst_loopback_v6", None, "::1", True, "dst"),
            ("martian_dst_unspec_v6", None, "::", True, "dst")):
        classed(F, name, roce(0x04, v6=v6, src=src, dst=dst,
                              payload=bytes(8)),
                "SEND only from %s to %s" % (src or "a host",
                                             dst or "a routed address"),
                "data", passr="martian_" + why, config="fwd.json")
    classed(F, "martian_dhcp_discover_is_bcast",
            raw(l2() / ip_layer(src="0.0.0.0", dst="255.255.255.255") /
                UDP(sport=68, dport=67) / Raw(bytes(8))),
            "0.0.0.0 -> 255.255.255.255: broadcast input, not a martian",
            "ip", passr="mcast", config="fwd.json")
    classed(F, "martian_zero_to_zero_is_bcast",
            raw(l2() / ip_layer(src="0.0.0.0", dst="0.0.0.0") /
                UDP(sport=68, dport=67) / Raw(bytes(8))),
            "0.0.0.0 -> 0.0.0.0: broadcast input to Linux too", "ip",
            passr="mcast", config="fwd.json")
    forwarded(F, "martian_control_class_e_src", roce(0x04, src="240.0.0.1",
                                                     payload=bytes(8)),
              "240.0.0.1 is no martian to Linux: forwarded", "data")

    # XRC (IBTA vol 1 9.2, table 38: 0xA0 + the RC function code).
    # ACKNOWLEDGE and ATOMIC ACKNOWLEDGE carry an AETH as RC's do.
    classed(F, "xrc_ack_v4", roce(0xb1, payload=aeth(0x00)),
            "XRC ACKNOWLEDGE, ACK syndrome", "ack", dscp=46, aethk="ack",
            aethc=0)
    classed(F, "xrc_nak_psn_seq_v6", roce(0xb1, v6=True, payload=aeth(0x60)),
            "XRC ACKNOWLEDGE carrying a PSN sequence error NAK", "nak",
            dscp=46, aethk="nak", aethc=0)
    classed(F, "xrc_rnr_nak_v4", roce(0xb1, payload=aeth(0x2e)),
            "XRC RNR NAK", "nak", dscp=46, aethk="rnr_nak", aethc=0x0e)
    classed(F, "xrc_atomic_ack_v4", roce(0xb2, payload=aeth(0x00) +
                                         ATOMIC_ACK_ETH),
            "XRC ATOMIC ACKNOWLEDGE", "ack", dscp=46, aethk="ack", aethc=0)
    classed(F, "xrc_atomic_nak_v4", roce(0xb2, payload=aeth(0x62) +
                                         ATOMIC_ACK_ETH),
            "XRC ATOMIC ACKNOWLEDGE with a remote access NAK", "nak",
            dscp=46, aethk="nak", aethc=2)
    malformed(F, "mal_trunc_aeth_xrc_ack", roce(0xb1, payload=b""),
              "XRC ACKNOWLEDGE without its AETH", "trunc_aeth")
    # XRC requests carry an XRCETH (4 bytes) right after the BTH
    for name, op, pl in (("xrc_send_only_v4", 0xa4, XRCETH + bytes(16)),
                         ("xrc_write_only_v4", 0xaa, XRCETH + RETH +
                          bytes(32)),
                         ("xrc_read_request_v4", 0xac, XRCETH + RETH),
                         ("xrc_fetch_add_v4", 0xb4, XRCETH + ATOMIC_ETH),
                         ("xrc_read_resp_only_v4", 0xb0, aeth(0) +
                          bytes(16))):
        classed(F, name, roce(op, payload=pl), "XRC opcode 0x%02x: a data "
                "opcode" % op, "data")
    malformed(F, "mal_trunc_xrceth", roce(0xa4, payload=b"\0\0"),
              "XRC SEND only with 2 bytes where the XRCETH belongs",
              "trunc_xrceth")
    classed(F, "xrc_reserved_0xb5", roce(0xb5, payload=bytes(8)),
            "XRC 0xb5 is reserved", "roce_other")
    # CTS rule 4 of cts.json: xrc_send_only on QPs 0x400-0x4ff, <= 16 B
    # after the XRCETH
    classed(F, "cts_xrc_send_only", roce(0xa4, qp=0x410,
                                         payload=XRCETH + bytes(16)),
            "XRC SEND only, 16 B after the XRCETH: CTS rule 4", "cts",
            dscp=46, config="cts.json", cts_rule=4)
    classed(F, "cts_xrc_send_only_over", roce(0xa4, qp=0x410,
                                              payload=XRCETH + bytes(17)),
            "XRC SEND only, 17 B after the XRCETH: no rule", "data",
            config="cts.json", cts_rule="none")

    # IPv6 atomic fragments (RFC 6946): a whole datagram
    frag0 = IPv6ExtHdrFragment(offset=0, m=0, id=0x1234)
    classed(F, "ip6_atomic_frag_nak", ack(0x60, v6=True, ext=frag0),
            "atomic fragment + NAK: classified and remarked", "nak",
            dscp=46, aethk="nak", aethc=0)
    forwarded(F, "ip6_atomic_frag_fwd", roce(0x04, v6=True, qp=0x55,
                                             payload=bytes(16), ext=frag0),
              "atomic fragment + SEND only: forwarded whole", "data")
    del fixtures[F][-1]["icrc"]  # rd_icrc_verify skips extension headers
    classed(F, "ip6_frag_first_mf", ack(0x00, v6=True, ext=IPv6ExtHdrFragment(
        offset=0, m=1, id=0x1235)), "first fragment (M=1): a fragment",
        "ip", passr="fragment")
    classed(F, "ip6_frag_last", raw(l2() / ip_layer(v6=True) /
                                    IPv6ExtHdrFragment(offset=8, m=0,
                                                       nh=17) /
                                    Raw(bytes(16))),
            "last fragment (offset 8, M=0): a fragment", "ip",
            passr="fragment")


def on_port(F, mac=None):
    """The last fixture of F arrives on PORT_IFX, whose MAC is mac."""
    fixtures[F][-1]["ifindex"] = PORT_IFX
    if mac:
        fixtures[F][-1]["port_mac"] = mac


def gen_l2():
    F = "corners_l2.fix"
    # unicast frames for other hosts: with the ingress port's MAC known,
    # a unicast frame to another MAC is the kernel's (it drops it)
    forwarded(F, "l2_for_us", ack(0x00), "unicast to the port's own MAC",
              "ack", dscp=46)
    on_port(F, DMAC)
    classed(F, "l2_other_host", ack(0x00, dmac="02:00:00:00:00:99"),
            "unicast to another host's MAC (promiscuous port)", "ack",
            dscp=46, passr="other_host", config="fwd.json", aethk="ack",
            aethc=0)
    on_port(F, DMAC)
    classed(F, "l2_other_host_mcast_mac", ack(0x00, dmac="01:00:5e:00:00:01"),
            "a group MAC is not another host's", "ack", dscp=46,
            passr="mcast", config="fwd.json", aethk="ack", aethc=0)
    on_port(F, DMAC)
    forwarded(F, "l2_no_port_mac", ack(0x00, dmac="02:00:00:00:00:99"),
              "port MAC unknown (offline): no check", "ack", dscp=46)
    on_port(F)
    # priority tags (802.1Q, VID 0): routed, and sent untagged as the
    # kernel does (net/core/dev.c strips a VID 0 tag without a vlan device)
    for name, frame, cls, dscp in (
            ("ptag_ack_v4", ack(0x00, vlans=[(0x8100, 0, 3)], ecn=2),
             "ack", 46),
            ("ptag_data_v6", roce(0x04, v6=True, qp=0x66, payload=bytes(24),
                                  vlans=[(0x8100, 0, 5)]), "data", None),
            ("ptag_8021ad_data_v4", roce(0x0a, qp=0x67, payload=RETH,
                                         vlans=[(0x88a8, 0, 2)]), "data",
             None)):
        slot, ifx, _ = fwd_out(frame, FWD_MEMBERS, (1, 1, 1, 1), "qp",
                               FWD_SEED)
        fwd = FWD_MEMBERS[slot][1:3]
        forwarded(F, name, frame, "priority-tagged (VID 0): routed, "
                  "leaves untagged", cls, dscp=dscp,
                  extra={"out": strip_tag(frame, fwd, dscp)})
        # tc on a real port: the receive path moved the tag to metadata
        forwarded(F, name + "_meta", frame, "priority tag in skb metadata: "
                  "popped, leaves untagged", cls, dscp=dscp,
                  extra={"out": strip_tag(frame, fwd, dscp),
                         "hook": "tc_rx"})
    classed(F, "ptag_no_route", ack(0x00, vlans=[(0x8100, 0, 3)],
                                    dst="172.16.0.1"),
            "priority-tagged, no route: the kernel's, tag kept", "ack",
            dscp=46, passr="no_route", config="fwd.json", aethk="ack",
            aethc=0)
    classed(F, "ptag_no_route_meta", ack(0x00, vlans=[(0x8100, 0, 3)],
                                         dst="172.16.0.1"),
            "the same with the tag in skb metadata: kept", "ack", dscp=46,
            passr="no_route", config="fwd.json", aethk="ack", aethc=0,
            hook="tc_rx")
    classed(F, "ptag_then_vlan", ack(0x00, vlans=[(0x8100, 0, 3),
                                                  (0x8100, 100, 0)]),
            "priority tag over a VLAN tag: the kernel's", "ack", dscp=46,
            passr="vlan", config="fwd.json", aethk="ack", aethc=0)
    classed(F, "ptag_pcp_remark_passed", cnp_frame(vlans=[(0x8100, 0, 0)]),
            "remark only: a passed priority-tagged CNP keeps its tag, "
            "PCP 6", "cnp", dscp=48, pcp=6, passr="no_forward",
            config="remark_only.json")


def main():
    gen_classes()
    gen_malformed()
    gen_trunc()
    gen_cts()
    gen_fwd()
    gen_remark_only()
    gen_jumbo()
    gen_tc_vlan()
    gen_corners()
    gen_l2()
    os.makedirs(OUTDIR, exist_ok=True)
    names = set()
    n = 0
    for file, blocks in sorted(fixtures.items()):
        with open(os.path.join(OUTDIR, file), "w") as f:
            f.write("# Generated by tests/gen_fixtures.py; do not edit, "
                    "regenerate.\n# Format: tests/fixtures/README.md\n\n")
            for b in blocks:
                assert b["name"] not in names, b["name"]
                names.add(b["name"])
                write_block(f, b)
                n += 1
    print("gen_fixtures: %d fixtures in %d files" % (n, len(fixtures)))


if __name__ == "__main__":
    main()
