# SPDX-License-Identifier: GPL-2.0
"""Fixtures: IPv6 RoCEv2 through the forwarding path, the usual frame of an
IPv6 fabric. Remark on the traffic class (the flow label beside it kept),
RED's CE on it, the decision cache (miss, hit, and a key that folds to the
same line word) and flowlets, the route from the cache and the member from
the flowlet table. The express path runs them in fixtures.fix runs, the
general path (no cache) under --general: both must give the same bytes."""

import ipaddress

from .gen_fwd import *  # noqa: F401,F403 (the model, as one namespace)

F = "forward_v6.fix"
SEC = 1000000000
US = 1000
_clock = [100 * SEC]


def tick():
    """The next forwarded frame's time on v6.json: a second after the one
    before, so every frame finds its port's virtual queue drained (1 Mbit/s
    drains 125 KB a second) and RED leaves it alone."""
    _clock[0] += SEC
    return _clock[0]


def write6(qp, size=130, ecn=2, dscp=0, src=None, fl=0, **kw):
    """An RDMA WRITE ONLY over IPv6 of exactly size bytes."""
    hdr = 14 + 40 + 8 + 12 + len(RETH) + 4
    f = roce(0x0a, qp=qp, payload=RETH + bytes(size - hdr), v6=True,
             ecn=ecn, dscp=dscp, src=src, ip_kw={"fl": fl}, **kw)
    assert len(f) == size
    return f


def untraced(name, frame, desc, slot, config, cache, hook="xdp", t=None,
             dscp=None, members=FWD_MEMBERS):
    """A forwarded frame on the engine without the trace (the live
    setting, which uses the decision cache): what shows is the verdict,
    the bytes and the cache-hit counter."""
    out = expect(frame, dscp=dscp, fwd=members[slot][1:3])
    exp = {"trace": "off", "verdict": "redirect", "out": out,
           "icrc": "valid", "cache": cache}
    if t is not None:
        exp["time_ns"] = t
    fx(F, name, frame, desc, config=config, hook=hook, **exp)


def fold(addr):
    """The decision cache's line word of an IPv6 address: its four
    32-bit words xor-folded (bpf/fwdcache.h, rd_fc_addr)."""
    b = ipaddress.IPv6Address(addr).packed
    w = [int.from_bytes(b[i:i + 4], "big") for i in range(0, 16, 4)]
    return w[0] ^ w[1] ^ w[2] ^ w[3]


def fold_twin(frame, qp):
    """Another source address with the same fold (so the same cache line
    and the same line words) whose flow the hash puts on another member:
    only the full key beside the line tells the two apart."""
    src = ipaddress.IPv6Address(SRC6)
    want = pick_member(flow_hash(frame, "qp", FWD_SEED), [1, 1, 1, 1])
    for d in range(1, 4096):
        # the same d xored into words 1 and 2 leaves the fold as it was
        twin = str(ipaddress.IPv6Address(int(src) ^ (d << 64) ^ (d << 32)))
        assert fold(twin) == fold(SRC6)
        f = write6(qp, src=twin)
        slot = pick_member(flow_hash(f, "qp", FWD_SEED), [1, 1, 1, 1])
        if slot != want:
            return twin, f, slot
    raise AssertionError("no fold twin on another member")


def remarked(changed=True):
    """Counters a forwarded frame moves: received, forwarded, the remark
    decision's own; the time a second after the last."""
    return {"time_ns": tick(), "counters": "rx_packets=1 forwarded_packets=1 "
            "remarked=%d remark_unchanged=%d" % (changed, not changed)}


def gen_v6_remark():
    C = "v6.json"
    forwarded(F, "v6_write_remark", write6(0x2001), "RDMA WRITE over IPv6: "
              "DSCP 0 -> 26 in the traffic class, ECT(0) kept, hop limit "
              "63", "data", config=C, dscp=26, extra=remarked())
    forwarded(F, "v6_write_remark_ect1_flowlabel",
              write6(0x2002, ecn=1, dscp=10, fl=0xabcde),
              "DSCP 10 -> 26 with ECT(1) and flow label 0xabcde: the "
              "label's top nibble shares the byte", "data", config=C,
              dscp=26, extra=remarked())
    forwarded(F, "v6_write_already_26", write6(0x2003, dscp=26, ecn=3),
              "DSCP already 26, CE: only MACs and hop limit change", "data",
              config=C, dscp=26, extra=remarked(False))
    forwarded(F, "v6_ack_remark", ack(0x00, v6=True, qp=0x2004, ecn=2),
              "ACK over IPv6 -> 46", "ack", config=C, dscp=46,
              extra=remarked())
    forwarded(F, "v6_cnp_remark", cnp_frame(v6=True, qp=0x2005),
              "CNP over IPv6 -> 48", "cnp", config=C, dscp=48,
              extra=remarked())
    forwarded(F, "v6_write_hlim2", write6(0x2006, ttl=2), "hop limit 2 "
              "-> 1: still forwarded", "data", config=C, dscp=26,
              extra=remarked())
    kept = dict(config=C, dscp=26)
    classed(F, "v6_write_hlim1", write6(0x2007, ttl=1), "hop limit 1: "
            "the kernel's, remarked", "data", passr="ttl", **kept)
    classed(F, "v6_write_local", write6(0x2008, dst="2001:db8:9::1"),
            "local route", "data", passr="local", **kept)
    classed(F, "v6_write_no_route", write6(0x2009, dst="2001:db8:77::1"),
            "no route", "data", passr="no_route", **kept)


def gen_v6_ecn():
    """RED on the egress port's virtual queue (XDP decides it at ingress):
    Kmin 500, Kmax 1000 bytes, drained at 1 Mbit/s. One flow, so one port;
    at the same instant each frame finds the ones before it queued."""
    C = "v6.json"
    t = tick()
    steps = (("v6_ecn_first", 2, 2, "first 1024-byte frame, empty queue: "
              "ECT(0) kept", ""),
             ("v6_ecn_second_ect1", 1, 3, "second finds 1024 bytes queued "
              "(over Kmax): ECT(1) -> CE in the traffic class",
              " ecn_marked=1"),
             ("v6_ecn_third_not_ect", 0, 0, "a Not-ECT frame is never "
              "marked", " ecn_would_mark=1"),
             ("v6_ecn_fourth_ce", 3, 3, "CE stays CE", " ecn_already_ce=1"))
    for name, ecn, ecn_out, desc, marks in steps:
        f = write6(0x3001, size=1024, ecn=ecn, fl=0x12345)
        slot, ifx, out = fwd_out(f, FWD_MEMBERS, (1, 1, 1, 1), "qp",
                                 FWD_SEED, dscp=26)
        if ecn_out != ecn:
            out = with_ce(out)
        forwarded(F, name, f, desc, "data", config=C, dscp=26,
                  extra={"hook": "xdp", "time_ns": t, "ecn_out": ecn_out,
                         "out": out, "counters": "remarked=1 "
                         "ecn_thresholds_map=1 ecn_class_optout=0" + marks})
    forwarded(F, "v6_ecn_drained", write6(0x3001, size=1024, ecn=2),
              "a second later the queue has drained (125 KB at 1 Mbit/s): "
              "ECT(0) kept", "data", config=C, dscp=26,
              extra={"hook": "xdp", "time_ns": tick()})


def gen_v6_cache():
    """The decision cache, on the engine without the trace. The first
    frame of a flow misses and fills its line, the next ones hit; a flow
    whose addresses fold to the same line words misses (the full IPv6 key
    beside the line differs), goes to its own member and takes the line."""
    C = "v6.json"
    qp = 0x4001
    a = write6(qp, dscp=26)
    sa = pick_member(flow_hash(a, "qp", FWD_SEED), [1, 1, 1, 1])
    twin, b, sb = fold_twin(a, qp)
    untraced("v6_cache_first", a, "a new IPv6 flow: full path, fills the "
             "line", sa, C, "miss", dscp=26, t=tick())
    untraced("v6_cache_again", a, "the same flow: route and member from "
             "the cache, the same bytes (XDP, then tc)", sa, C, "hit",
             hook="both", dscp=26, t=tick())
    untraced("v6_cache_fold_twin", b, "source %s folds as %s does: the "
             "full key misses, member %d, not %d" % (twin, SRC6, sb, sa),
             sb, C, "miss", dscp=26, t=tick())
    untraced("v6_cache_first_again", a, "the twin took the line: a miss",
             sa, C, "miss", dscp=26, t=tick())
    untraced("v6_cache_hit_again", a, "and then a hit", sa, C, "hit",
             dscp=26, t=tick())


def gen_v6_flowlet():
    """Flowlets over IPv6, least-loaded choice, gap 11 us (RTT 22 us),
    DRE time constant 1 ms. A new flow finds every port idle: the scan
    starts at member (hash * 4) >> 32 and takes it. Within the gap it
    stays. After an idle past the gap its port still carries load (one
    DRE step is 125 us) and the others none: the scan takes the next."""
    C = "v6_flowlet.json"
    # on the engine without the trace only (each engine is a whole load of
    # the object, dear in the 6.1 guest of make test-kernel): the bytes
    # show the member, the counter the cache
    qp, t0 = 0x5002, 6 * SEC
    f = write6(qp)
    h = flow_hash(f, "qp-only", FWD_SEED)
    first = (h * 4) >> 32
    steps = (("start", 0, first, "miss", "new flow: the scan's first "
              "member"),
             ("in_gap", 5 * US, first, "hit", "5 us later, inside the gap: "
              "kept"),
             ("after_gap", 100 * US, (first + 1) % 4, "hit", "idle 95 us, "
              "over the gap: the next member, the old one still loaded"),
             ("new_kept", 105 * US, (first + 1) % 4, "hit", "inside the new "
              "flowlet's gap: kept"))
    for step, dt, slot, cache, desc in steps:
        untraced("v6_flowlet_cache_" + step, f, desc + "; the route from "
                 "the cache, the member the flowlet table's", slot, C, cache,
                 t=t0 + dt, dscp=26)


def gen_v6():
    gen_v6_remark()
    gen_v6_ecn()
    gen_v6_cache()
    gen_v6_flowlet()
