# SPDX-License-Identifier: GPL-2.0
"""Fixtures: Ultra Ethernet (UDP 4793) classes, remarking and entropy.

The PDS prologue as docs/uec.md describes it: two
bytes after the UDP header, type in the top five bits; a NACK's code in
byte 2. Expected classes and DSCPs come from that and the defaults in
docs/config.md, never from rocedp's output."""

import struct

from .gen_fwd import *  # noqa: F401,F403 (the model, as one namespace)

UEC_PORT = 4793
PDS = {"rud_req": 2, "rod_req": 3, "ack": 7, "ack_cc": 8, "ack_ccx": 9,
       "nack": 10, "control": 11, "nack_ccx": 12, "tss": 1}


def pds(ptype, nack_code=None, body=16):
    """A PDS header of type ptype (next header 0, no flags), then body
    bytes; a NACK carries its code in byte 2."""
    h = bytearray(struct.pack("!H", ptype << 11)) + bytearray(body)
    if nack_code is not None:
        h[2] = nack_code
    return bytes(h)


def uec(ptype, nack_code=None, entropy=0xc123, v6=False, dscp=0, ecn=0,
        body=16, **kw):
    tos = dscp << 2 | ecn
    return raw(l2() / ip_layer(v6=v6, tos=tos, **kw) /
               UDP(sport=entropy, dport=UEC_PORT) /
               Raw(pds(ptype, nack_code, body)))


def uec_classed(F, name, frame, desc, cls, ptype, dscp_in=0, dscp=None,
                code=None, config="default.json"):
    classed(F, name, frame, desc, cls, dscp_in=dscp_in, dscp=dscp,
            config=config)
    b = fixtures[F][-1]
    b["opcode"] = ptype
    if code is not None:
        b["aeth_code"] = code
    return b


def gen_uec():
    F = "uec.fix"
    uec_classed(F, "uec_rud_req_v4", uec(PDS["rud_req"], dscp=26, ecn=2),
                "UEC RUD request: class uec, DSCP left", "uec",
                PDS["rud_req"], dscp_in=26)
    uec_classed(F, "uec_rod_req_v6", uec(PDS["rod_req"], v6=True, dscp=10),
                "UEC ROD request over IPv6", "uec", PDS["rod_req"],
                dscp_in=10)
    uec_classed(F, "uec_control_v4", uec(PDS["control"]),
                "UEC PDS control packet: class uec", "uec", PDS["control"])
    uec_classed(F, "uec_tss_v4", uec(PDS["tss"]),
                "UEC with a security header first: type hidden, class uec",
                "uec", PDS["tss"])
    for t in ("ack", "ack_cc", "ack_ccx"):
        uec_classed(F, "uec_%s_v4" % t, uec(PDS[t], dscp=26, ecn=1),
                    "UEC PDS %s: class uec_ack, DSCP 26 -> 46" % t,
                    "uec_ack", PDS[t], dscp_in=26, dscp=46)
    uec_classed(F, "uec_ack_v6", uec(PDS["ack"], v6=True),
                "UEC ACK over IPv6: traffic class rewritten", "uec_ack",
                PDS["ack"], dscp=46)
    # NACK codes 1..3 report a trimmed packet; 0x0b is another reason
    for code, cname in ((1, "trimmed"), (2, "trimmed_lasthop"),
                        (3, "trimmed_ack"), (0x0b, "psn_oor_window")):
        uec_classed(F, "uec_nack_%s_v4" % cname,
                    uec(PDS["nack"], nack_code=code, ecn=2),
                    "UEC NACK code %#x (%s): class uec_nack, DSCP 46" %
                    (code, cname), "uec_nack", PDS["nack"], dscp=46,
                    code=code)
    uec_classed(F, "uec_nack_ccx_v6", uec(PDS["nack_ccx"], nack_code=1,
                                          v6=True),
                "UEC NACK_CCX (trimmed) over IPv6", "uec_nack",
                PDS["nack_ccx"], dscp=46, code=1)
    uec_classed(F, "uec_short_v4", raw(l2() / ip_layer() /
                                       UDP(sport=7, dport=UEC_PORT) /
                                       Raw(b"\x38")),
                "UDP 4793 with one byte: no PDS prologue, class uec",
                "uec", 0)
    classed(F, "uec_sport4793_is_ip", raw(l2() / ip_layer() /
                                          UDP(sport=UEC_PORT, dport=4000) /
                                          Raw(pds(PDS["ack"]))),
            "UDP source port 4793 only: not UEC", "ip")
    # forwarded: the entropy value picks the member in qp and qp-only
    # modes, as the QP does for RoCE; four entropies, four members
    for mode, cfg, seed in (("qp", "fwd.json", FWD_SEED),
                            ("qp-only", "fwd_qponly.json", 0)):
        seen = {}
        ent = 0xc000
        while len(seen) < 4:
            f = uec(PDS["rud_req"], entropy=ent, ttl=9)
            slot = pick_member(flow_hash(f, mode, seed), [1, 1, 1, 1])
            seen.setdefault(slot, (ent, f))
            ent += 1
        for slot in sorted(seen):
            ent, f = seen[slot]
            forwarded(F, "uec_fwd_%s_member%d" % (mode.replace("-", ""), slot), f,
                      "UEC request, entropy %#x, %s mode" % (ent, mode),
                      "uec", config=cfg, mode=mode, seed=seed, want_slot=slot)
    forwarded(F, "uec_fwd_nack_v6", uec(PDS["nack"], nack_code=2, v6=True,
                                         dscp=26),
              "UEC NACK trimmed_lasthop forwarded over IPv6, DSCP 46",
              "uec_nack", dscp=46)
