# SPDX-License-Identifier: GPL-2.0
"""Fixtures: corners (martians, XRC, atomic fragments, other hosts,
priority tags) and the port MAC checks."""

import struct

from .gen_fwd import *  # noqa: F401,F403 (the model, as one namespace)


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
