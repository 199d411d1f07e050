#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/telemetry_inject.sh.

usage: telemetry_inject.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def case():
    """case PREFIX CASE QPN_BASE: what the injector did in one case (PREFIX.inj)
    against what the leaves' rocedp -j qps (PREFIX.leaf1/2) and the rocegen
    ends (PREFIX.send/serve) saw for its 64 QPs from QPN_BASE. Prints one
    "ok|DESC|", "fail|DESC|WHY" or "#|TEXT|" line per comparison."""
    import json, sys
    pre, case, base = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
    def load(ext):
        return json.load(open(f"{pre}.{ext}"))
    try:
        inj, resp, send = load("inj"), load("serve"), load("send")
        l1, l2 = load("leaf1"), load("leaf2")
    except Exception as e:
        print(f"fail|inputs readable|{e}")
        sys.exit()
    mine = {(base + i) | 0x800000 for i in range(64)}
    def qps(j):
        return {q["dest_qp"]: q for q in j["qps"] if q["dest_qp"] in mine and q["dst"] == "10.2.1.2"}
    q1, q2 = qps(l1), qps(l2)
    rq = {q["qpn"]: q for q in resp["qps"]}
    iq = {q["qp"]: q for q in inj["qps"]}
    nq = send["total"]["qps"]
    def out(ok, desc, why=""):
        print(f"{'ok' if ok else 'fail'}|{desc}|{why}")
    out(len(q1) == nq and len(q2) == nq and len(rq) == nq,
        f"{nq} QPs on leaf1, leaf2 and the responder",
        f"{len(q1)}, {len(q2)}, {len(rq)}")
    via1 = {k for k, q in q1.items() if q["out_port"] == "up1"}
    out(set(iq) == via1 and via1,
        f"the injector saw exactly the {len(via1)} QPs leaf1 sent to spine1",
        f"injector {sorted(map(hex, iq))} up1 {sorted(map(hex, via1))}")
    out(resp["total"]["socket_drops"] == 0 and resp["total"]["icrc_errors"] == 0 and
        send["total"]["qps_failed"] == 0, "no socket drop, ICRC error or failed QP",
        json.dumps(resp["total"]))
    out(sum(q["req_pkts"] for q in q1.values()) == send["total"]["frames"],
        f"leaf1 request frames = frames sent ({send['total']['frames']})",
        f"{sum(q['req_pkts'] for q in q1.values())}")
    rows, bad, full = [], [], []
    z = {"dropped": 0, "held": 0, "released": 0, "duplicated": 0, "replayed": 0, "held_stale": 0}
    for k in sorted(q1):
        a, b, r, i = q1[k], q2.get(k), rq.get(k), iq.get(k, z)
        if b is None or r is None:
            bad.append(f"{k:#x}: missing")
            continue
        arrived = r["frames"] + r["oos"] + r["dups"]
        e = {  # (what, rocedp value, the independent value)
            "leaf2 req_pkts = arrived at the responder": (b["req_pkts"], arrived),
            "leaf1 - leaf2 req_pkts = drops - copies":
                (a["req_pkts"] - b["req_pkts"], i["dropped"] - i["duplicated"]),
            "leaf2 gaps = responder's": (b["gaps"], r["wire_gaps"]),
            "leaf2 gap_psns = responder's": (b["gap_psns"], r["wire_gap_psns"]),
            "leaf2 rewinds = responder's": (b["rewinds"], r["wire_rewinds"]),
            "leaf2 dups = responder's": (b["dups"], r["wire_dups"]),
            "leaf1 NAKs (PSN seq) = responder's": (a["naks"]["psn_seq"], r["naks"]),
            "leaf2 NAKs (PSN seq) = responder's": (b["naks"]["psn_seq"], r["naks"]),
        }
        d = i["dropped"]
        if case == "drop":
            e.update({
                "leaf2 gaps = drops": (b["gaps"], d),
                "leaf2 gap_psns = drops": (b["gap_psns"], d),
                "responder NAKs = drops": (r["naks"], d),
                "leaf1 rewinds = drops": (a["rewinds"], d),
                "leaf2 rewinds = drops": (b["rewinds"], d),
                "leaf1 gaps = 0": (a["gaps"], 0),
                "dups = 0": (a["dups"] + b["dups"], 0),
            })
        elif case == "dup":
            e.update({
                "leaf2 dups = copies": (b["dups"], i["duplicated"]),
                "responder dups = copies": (r["dups"], i["duplicated"]),
                "no gap, rewind, NAK or leaf1 dup": (
                    a["gaps"] + b["gaps"] + a["rewinds"] + b["rewinds"] + r["naks"] + a["dups"], 0),
            })
        elif case == "reorder":
            e.update({
                # a swap behind a retransmitted successor makes no gap: the
                # injector counts those itself (held_stale)
                "leaf2 gaps = held back - held_stale": (b["gaps"], i["held"] - i["held_stale"]),
                "leaf2 gap_psns = held back - held_stale": (b["gap_psns"], i["held"] - i["held_stale"]),
                "held back = released": (i["released"], i["held"]),
                "leaf1 gaps = 0": (a["gaps"], 0),
            })
        elif case == "stall":
            e.update({
                "leaf1 stalls = drops": (a["stalls"], d),
                "leaf1 dups = drops (the timeout's resend)": (a["dups"], d),
                "leaf2: no gap, rewind, dup or NAK": (
                    b["gaps"] + b["rewinds"] + b["dups"] + b["naks"]["psn_seq"], 0),
            })
        miss = [f"{k:#x} {what}: {x} != {y}" for what, (x, y) in e.items() if x != y]
        if miss:
            bad += miss
            full.append(f"{k:#x}: leaf1 {json.dumps(a)} leaf2 {json.dumps(b)} "
                        f"responder {json.dumps(r)} injector {json.dumps(i)}")
        rows.append(f"{k:#x}:{'s1' if k in via1 else 's2'} d{d}/c{i['duplicated']}/h{i['held']}-{i['held_stale']}/x{i['replayed']} "
                    f"g{b['gaps']} r{a['rewinds']}/{b['rewinds']} u{b['dups']} n{r['naks']} s{a['stalls']}")
    n_ev = sum(iq[k]["dropped"] + iq[k]["duplicated"] + iq[k]["held"] for k in iq)
    out(n_ev > 0, f"the injector did something ({n_ev} events)", json.dumps(inj["total"]))
    out(not bad, f"per QP, rocedp = injector = responder ({len(rows)} QPs: {'; '.join(rows)})",
        "; ".join(bad[:12]))
    for f in full:  # the mismatching QPs' whole rows, for the log
        print(f"#|{f}|")


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
