# SPDX-License-Identifier: GPL-2.0
"""Fixtures: classes, malformed and truncated frames, CTS rules."""

import struct

from .blocks import *  # noqa: F401,F403 (the model, as one namespace)


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
