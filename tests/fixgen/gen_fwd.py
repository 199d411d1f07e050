# SPDX-License-Identifier: GPL-2.0
"""Fixtures: forwarding, remark-only, jumbo frames, tc VLAN receive."""

import struct

from .gen_classes import *  # noqa: F401,F403 (the model, as one namespace)


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
