# SPDX-License-Identifier: GPL-2.0
"""Fixtures: ARS modes per group and selective opt-in (docs/ars.md).

The quality cases are made deterministic by load: frames of a `fixed`
group first put more bytes on ports 2, 3 and 4 than the configs' band
thresholds (load weight 100, bands from 2000 bytes, sampling on every
frame), so port 5 is the only member in band 0 and every quality choice
must take it. The clock stands still (one time_ns), so no load decays.
Every block runs on XDP only: a second hook would add its bytes too.
"""

from .gen_classes import *  # noqa: F401,F403 (the model, as one namespace)

ARS_SEED = 0x5eed
F = "ars.fix"


def ars_members(g):
    return [(2 + i, "02:aa:00:00:%02x:%02x" % (g, i + 1),
             "02:bb:00:00:%02x:%02x" % (g, i + 1)) for i in range(4)]


def data(qp, dst, opcode=0x04, payload=64, dscp=0, resv7=0):
    """A RoCEv2 SEND (or opcode) to dst; resv7 sets BTH byte 8's low
    seven bits (FBOSS's opt-in bit is 0x40 of the byte)."""
    bth = BTH(opcode=opcode, dqpn=qp, psn=0x100, resv7=resv7, icrc=None)
    p = (l2() / ip_layer(False, dscp << 2, 64, None, dst) /
         UDP(sport=0xc000, dport=ROCE_PORT) / bth / Raw(bytes(payload)))
    f = raw(p)
    assert icrc_ok(f)
    return f


def to(name, frame, desc, config, group, slot):
    ifx, smac, dmac = ars_members(group)[slot]
    exp = {"verdict": "redirect", "class": "data", "malformed": "none",
           "pass": "none", "member": slot, "egress": ifx,
           "out": expect(frame, fwd=(smac, dmac)), "icrc": "valid",
           "ipcsum": "valid"}
    exp.update(roce_fields(frame))
    fx(F, name, frame, desc, config=config, hook="xdp", **exp)


def hash_slot(frame, weights=(1, 1, 1, 1)):
    return pick_member(flow_hash(frame, "qp", ARS_SEED), list(weights))


def qp_for(slot, dst, start=1, **kw):
    """A QP whose frame to dst hashes to slot (qp mode)."""
    qp = start
    while hash_slot(data(qp, dst, **kw)) != slot:
        qp += 1
    return qp


def preload(config, tag):
    """Ports 2, 3, 4 past every band threshold through fixed group 2."""
    for slot in range(3):
        qp = qp_for(slot, "10.2.0.1", payload=1400)
        for i in range(5):
            f = data(qp, "10.2.0.1", payload=1400)
            to("ars_%s_load_port%d_%d" % (tag, 2 + slot, i), f,
               "fixed group 2: 1.4 KB on port %d (its hash member)"
               % (2 + slot), config, 2, slot)


def gen_ars():
    cfg = "ars.json"
    preload(cfg, "modes")
    # per_packet_quality (group 1): the one member in band 0, whatever
    # the hash says; three flows that hash elsewhere
    for slot in range(3):
        qp = qp_for(slot, "10.1.0.1")
        to("ars_ppq_hash%d" % slot, data(qp, "10.1.0.1"),
           "per_packet_quality: hash member %d is loaded, port 5 is not"
           % slot, cfg, 1, 3)
    # flowlet_quality (group 3): a new flow takes the best band...
    qp = qp_for(0, "10.3.0.1")
    to("ars_flq_new", data(qp, "10.3.0.1", payload=1400),
       "flowlet_quality: a new flowlet takes port 5 (band 0)", cfg, 3, 3)
    to("ars_flq_held", data(qp, "10.3.0.1", payload=1400),
       "flowlet_quality: the flow holds port 5 inside its gap", cfg, 3, 3)
    # fixed (group 2): the hash member even on a loaded port
    for slot in range(4):
        qp = qp_for(slot, "10.2.0.9", start=0x100)
        to("ars_fixed_%d" % slot, data(qp, "10.2.0.9"),
           "fixed: the hash member %d, loaded or not" % slot, cfg, 2, slot)
    # random modes draw through the weighted buckets: weight 0 never
    for i in range(4):
        to("ars_ppr_%d" % i, data(0x200 + i, "10.4.0.1"),
           "per_packet_random: weights 0:1:0:0, member 1", cfg, 4, 1)
        to("ars_flr_%d" % i, data(0x300 + i, "10.5.0.1"),
           "flowlet_random: weights 0:0:1:0, member 2", cfg, 5, 2)
    # a group without a mode keeps the switch's hash
    for slot in range(4):
        qp = qp_for(slot, "10.6.0.1", start=0x400)
        to("ars_off_%d" % slot, data(qp, "10.6.0.1"),
           "no ARS mode: the qp hash's member %d" % slot, cfg, 6, slot)

    # selective opt-in: per_packet_quality for frames that match any
    # matcher, the switch's qp hash for the rest (its member 0 here, a
    # loaded port)
    cfg = "ars_optin.json"
    preload(cfg, "optin")
    qp = qp_for(0, "10.1.0.1", start=0x500)
    to("ars_optin_bth", data(qp, "10.1.0.1", resv7=0x40),
       "BTH byte 8 bit 0x40 set: opted in, port 5", cfg, 1, 3)
    to("ars_optin_opcode", data(qp, "10.1.0.1", opcode=0x0a,
                                payload=16 + 64),
       "RDMA WRITE only: in the opcode set, port 5", cfg, 1, 3)
    to("ars_optin_dscp", data(qp, "10.1.0.1", dscp=26),
       "DSCP 26: in the DSCP set, port 5", cfg, 1, 3)
    to("ars_optin_prefix", data(qp, "10.1.200.1"),
       "destination in 10.1.128.0/17: port 5", cfg, 1, 3)
    for name, mk, desc in (
            ("bth", lambda q: data(q, "10.1.0.1"), "BTH byte 8 clear"),
            ("bth_other", lambda q: data(q, "10.1.0.1", resv7=0x3f),
             "BTH byte 8 0x3f: every reserved bit but 0x40"),
            ("opcode", lambda q: data(q, "10.1.0.1", opcode=0x06,
                                      payload=16 + 64),
             "RDMA WRITE first: not in the opcode set"),
            ("dscp", lambda q: data(q, "10.1.0.1", dscp=10),
             "DSCP 10, not in the set"),
            ("prefix", lambda q: data(q, "10.1.127.1"),
             "10.1.127.1: outside 10.1.128.0/17")):
        q = 0x600
        while hash_slot(mk(q)) != 0:
            q += 1
        to("ars_optout_" + name, mk(q), desc + ": not opted in, the qp "
           "hash's member 0 (a loaded port)", cfg, 1, 0)
