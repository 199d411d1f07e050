# SPDX-License-Identifier: GPL-2.0
"""The fixture registry and block writer, and the classed() fixture
shape; mirrors of the tests/configs/ files the model needs."""

import struct

from .hashmodel import *  # noqa: F401,F403 (the model, as one namespace)


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


ORDER = ["desc", "hook", "config", "trace", "time_ns", "ifindex", "port_mac",
         "probe_set", "probe_port", "probe_band", "probe_leaf", "in", "refused",
         "truncate", "refused_below", "malformed_at", "verdict", "class", "malformed", "pass", "dscp_in",
         "dscp_out", "ecn_out", "opcode", "dest_qp", "psn", "aeth",
         "aeth_code", "cts_rule", "member", "egress", "out", "icrc",
         "ipcsum", "cache", "counters", "probe", "pathq"]


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
