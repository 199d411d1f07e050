# SPDX-License-Identifier: GPL-2.0
"""Fixtures: the buffer's admission and packet trimming (trim.json).

Each egress port's queue is held at a depth (hold_queue_bytes) just under
its buffer (buffer_bytes 100000), so a frame that does not fit meets the
port's discard action: port 2 trims DSCP 26 and 34 to 128 bytes and
rewrites DSCP 10, port 3 trims DSCP 26 to 256 bytes keeping the class's
DSCP, port 4 trims to 128 but its queue (99950) cannot take even that,
port 5 tail-drops. Expected frames are the forwarded frame cut by hand:
IP and UDP lengths, the IPv4 header checksum recomputed, the UDP checksum
0 (IPv4), the DSCP rewritten. XDP only: tc frames meet the buffer at tc
egress, which the fixtures do not drive."""

import struct

from .gen_uec import *  # noqa: F401,F403 (the model, as one namespace)

CFG = "trim.json"
TRIM = {2: (128, 10), 3: (256, None), 4: (128, 10)}


def ip4_csum(hdr):
    s = 0
    for i in range(0, len(hdr), 2):
        s += (hdr[i] << 8) | hdr[i + 1]
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def cut(frame, size, dscp):
    """The forwarded frame cut to size: lengths, checksums, DSCP."""
    b = bytearray(frame[:size])
    if struct.unpack_from("!H", b, 12)[0] == 0x0800:
        if dscp is not None:
            b[15] = (dscp << 2) | (b[15] & 3)
        struct.pack_into("!H", b, 16, size - 14)
        struct.pack_into("!H", b, 24, 0)
        struct.pack_into("!H", b, 24, ip4_csum(b[14:34]))
        struct.pack_into("!H", b, 38, size - 34)
        struct.pack_into("!H", b, 40, 0)
    else:
        if dscp is not None:
            tc = ((b[14] & 0x0f) << 4) | (b[15] >> 4)
            tc = (dscp << 2) | (tc & 3)
            b[14] = (b[14] & 0xf0) | (tc >> 4)
            b[15] = (b[15] & 0x0f) | ((tc & 0x0f) << 4)
        struct.pack_into("!H", b, 18, size - 54)
        struct.pack_into("!H", b, 58, size - 54)
    return bytes(b)


def to_port(make, port):
    """The first of make(i), i = 0.., that the qp hash sends to port."""
    for i in range(4096):
        f = make(i)
        slot = pick_member(flow_hash(f, "qp", FWD_SEED), [1, 1, 1, 1])
        if FWD_MEMBERS[slot][0] == port:
            return f
    raise AssertionError("no frame for port %d" % port)


def udp_frame(i, dscp=26, ecn=0, v6=False, plen=1200, csum0=True,
              dport=UEC_PORT):
    p = (l2() / ip_layer(v6=v6, tos=(dscp << 2) | ecn) /
         UDP(sport=0xc000 + i, dport=dport,
             chksum=0 if (v6 and csum0) else None) /
         Raw(pds(2, body=plen)))
    if not v6:
        p[UDP].chksum = 0  # as RoCEv2 and UEC senders over IPv4
    return raw(p)


def trim_ctrs(port, took=0, sent=0, dropped=0, tail=0):
    """SAI's trim counters of the egress port (the runner's name@port)."""
    return " ".join("%s@%d=%d" % (n, port, v) for n, v in (
        ("trim_packets", took), ("tx_trim_packets", sent),
        ("dropped_trim_packets", dropped), ("tail_drop_packets", tail)))


def trimmed(F, name, frame, desc, cls, port, ecn=0, dscp_in=26):
    size, dscp = TRIM[port]
    slot, ifx, fwd = fwd_out(frame, FWD_MEMBERS, (1, 1, 1, 1), "qp",
                             FWD_SEED)
    assert ifx == port
    out = cut(fwd, size, dscp)
    exp = {"verdict": "redirect", "class": cls, "malformed": "none",
           "pass": "none", "dscp_in": dscp_in,
           "dscp_out": dscp if dscp is not None else dscp_in,
           "ecn_out": ecn, "member": slot, "egress": ifx, "out": out,
           "counters": trim_ctrs(port, took=1, sent=1)}
    if Ether(frame).haslayer(IP):
        exp["ipcsum"] = "valid"
    fx(F, name, frame, desc, config=CFG, hook="xdp", **exp)


def dropped(F, name, frame, desc, cls, port, dscp_in, **ctrs):
    slot, ifx, _ = fwd_out(frame, FWD_MEMBERS, (1, 1, 1, 1), "qp",
                           FWD_SEED)
    assert ifx == port
    fx(F, name, frame, desc, config=CFG, hook="xdp", verdict="drop",
       **{"class": cls, "malformed": "none", "pass": "none",
          "dscp_in": dscp_in, "counters": trim_ctrs(port, **ctrs)})


def gen_trim():
    F = "trim.fix"
    trimmed(F, "trim_uec_v4_128", to_port(udp_frame, 2),
            "UEC request DSCP 26 over a full buffer: cut to 128 bytes, "
            "DSCP 10", "uec", 2)
    trimmed(F, "trim_uec_v4_ect_128", to_port(
        lambda i: udp_frame(i, dscp=34, ecn=2), 2),
        "DSCP 34 ECT(0): cut to 128, DSCP 10, ECN kept", "uec", 2, ecn=2,
        dscp_in=34)
    trimmed(F, "trim_uec_v6_128", to_port(
        lambda i: udp_frame(i, v6=True), 2),
        "UEC over IPv6, UDP checksum 0: cut to 128, payload length fixed",
        "uec", 2)
    trimmed(F, "trim_udp_v4_256_from_tc", to_port(
        lambda i: udp_frame(i, dport=9000, plen=1400), 3),
        "plain UDP DSCP 26 to port 3: cut to 256, DSCP kept (from_tc)",
        "ip", 3)
    trimmed(F, "trim_roce_v4_256", to_port(
        lambda i: roce(0x0a, qp=0x100 + i, payload=RETH + bytes(1500),
                       dscp=26), 3),
        "RoCEv2 RDMA WRITE DSCP 26 cut to 256: its ICRC no longer holds",
        "data", 3)
    # refused, nothing cut
    dropped(F, "trim_ineligible_dscp_drop", to_port(
        lambda i: udp_frame(i, dscp=0), 2),
        "DSCP 0 is not eligible: tail drop", "uec", 2, 0, tail=1)
    dropped(F, "trim_v6_csum_drop", to_port(
        lambda i: udp_frame(i, v6=True, csum0=False), 2),
        "IPv6 with a UDP checksum: cannot be kept when cut, dropped",
        "uec", 2, 26, took=1, dropped=1)
    dropped(F, "trim_no_room_drop", to_port(udp_frame, 4),
            "queue 99950 of 100000: even 128 bytes do not fit, dropped",
            "uec", 4, 26, took=1, dropped=1)
    dropped(F, "trim_drop_action", to_port(udp_frame, 5),
            "discard drop: an eligible DSCP is dropped too", "uec", 5, 26,
            tail=1)
    # admitted whole: the frame fits what is left
    f = to_port(lambda i: udp_frame(i, plen=900), 2)
    forwarded(F, "trim_fits_whole", f, "a 944-byte frame fits the 1000 "
              "bytes left: forwarded whole", "uec", config=CFG)
    fixtures[F][-1]["hook"] = "xdp"
    fixtures[F][-1]["counters"] = trim_ctrs(2)
