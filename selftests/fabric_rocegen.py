#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The check runner of selftests/fabric_rocegen.sh.

usage: fabric_rocegen.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def check():
    """check DIR NAME SPINES QPS COUNT PRED: the check PRED (a function below)
    over the ring run DIR/NAME.json and the leaves' stats snapshots
    DIR/NAME.{a,b}.LEAF.json. PRED sees run, S, R, T, spines, qps, count,
    ports(), delta(), counter(), sender_dscps() and returns (reasons, info).
    Prints the reasons, or info; exit 1 on a reason."""
    import json, os, sys
    tmp, name, spines, qps, count = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    run = json.load(open(f"{tmp}/{name}.json"))
    def ports(p):
        return {x["name"]: x for x in json.load(open(p))["ports"] if "name" in x}
    def delta(leaf, port, key):
        a = ports(f"{tmp}/{name}.a.{leaf}.json").get(port, {})
        b = ports(f"{tmp}/{name}.b.{leaf}.json").get(port, {})
        return b.get(key, 0) - a.get(key, 0)
    def counter(leaf, key):
        a = json.load(open(f"{tmp}/{name}.a.{leaf}.json"))["counters"][key]
        return json.load(open(f"{tmp}/{name}.b.{leaf}.json"))["counters"][key] - a
    S = list(run["senders"].values())
    R = list(run["responders"].values())
    def sender_dscps(kind):  # {dscp: frames} of kind ("ack", "cnp") over the senders
        by = {}
        for s in S:
            for d, n in s["rx_dscp"][kind].items():
                by[d] = by.get(d, 0) + n
        return by
    T = run["total"]
    pred = PREDS[sys.argv[6]]
    globals().update(locals())  # what the predicates read
    bad, info = pred()
    print("; ".join(bad) if bad else info)
    sys.exit(1 if bad else 0)


# the checks: each reads the names check() sets, returns (reasons, info)


def delivered():
    """every message delivered and ACKed, zero out-of-sequence, zero NAKs"""
    bad, info = [], ""
    want = 4 * qps * count
    if run["failed_processes"]: bad.append(f"{run['failed_processes']} rocegen processes failed")
    if T["qps_failed"]: bad.append(f"{T['qps_failed']} QPs failed")
    got = sum(r["total"]["messages"] for r in R)
    if got != want: bad.append(f"responders got {got} messages, want {want}")
    acked = sum(s["total"]["acks"] for s in S)
    if sum(s["total"]["messages"] for s in S) != want or acked < 1: bad.append("senders did not complete every message")
    oos = sum(r["total"]["oos"] for r in R)
    naks = sum(r["total"]["naks"] for r in R)
    if oos: bad.append(f"{oos} out-of-sequence frames at the responders")
    if naks: bad.append(f"{naks} NAKs")
    icrc = sum(r["total"]["icrc_errors"] for r in R)
    if icrc: bad.append(f"{icrc} ICRC errors")
    info = f"{got} messages, {T['frames']} frames, {T['retx_frames']} retx, oos {oos}, NAKs {naks}, completion {run['completion_us'] / 1000:.0f} ms"
    return bad, info


def qp_spread():
    """qp: leaf1 spreads its host pairs' frames over all SPINES uplinks (one
    UDP source port per pair)"""
    bad, info = [], ""
    tx = [delta("leaf1", f"up{i}", "tx_pkts") for i in range(1, spines + 1)]
    sent = sum(s["total"]["frames"] for s in run["senders"].values() if s["src"].startswith("10.1."))
    if sum(tx) < sent: bad.append(f"leaf1 uplinks sent {sum(tx)} frames, its hosts sent {sent}")
    if min(tx) < 0.10 * sum(tx): bad.append(f"an uplink carried under 10%: {tx}")
    info = f"frames per uplink {tx}, leaf1's hosts sent {sent}"
    return bad, info


def qp_no_ce():
    """qp: with no ECN rate nothing is CE-marked and no CNP is sent"""
    bad, info = [], ""
    ce = sum(r["total"]["ce"] for r in R)
    cnps = sum(s["total"]["cnps"] for s in S)
    if ce or cnps: bad.append(f"{ce} CE arrivals, {cnps} CNPs")
    info = f"CE {ce}, CNPs {cnps}"
    return bad, info


def acks_remarked():
    """qp: ACKs leave the responders with DSCP 26 and every one reaches its
    sender remarked to DSCP 46"""
    bad, info = [], ""
    acks = sum(s["total"]["acks"] for s in S)
    by_dscp = sender_dscps("ack")
    if acks < 1: bad.append("no ACKs")
    if by_dscp != {"46": acks}: bad.append(f"ACK DSCPs at the senders {by_dscp}, {acks} ACKs")
    remarked = counter("leaf1", "remarked") + counter("leaf2", "remarked")
    if remarked < acks: bad.append(f"leaves counted {remarked} remarks for {acks} ACKs")
    info = f"{acks} ACKs, DSCP at the senders {by_dscp}, leaves remarked {remarked}"
    return bad, info


def ecn_marks():
    """ecn: uplinks at ECN_RATE Mbit/s < offered: rocedp marks CE, the
    responders receive exactly the marked frames"""
    bad, info = [], ""
    marks = sum(delta(l, f"up{i}", "ecn_marked") for l in ("leaf1", "leaf2") for i in range(1, spines + 1))
    ce = sum(r["total"]["ce"] for r in R)
    if marks < 1: bad.append("rocedp marked nothing")
    if ce != marks: bad.append(f"responders saw {ce} CE frames, rocedp marked {marks}")
    info = f"rocedp marked {marks}, responders received {ce} CE"
    return bad, info


def ecn_cnps():
    """ecn: CE marks produce CNPs at the senders (DSCP 48) and the senders cut
    their rate"""
    bad, info = [], ""
    sent = sum(r["total"]["cnps"] for r in R)
    got = sum(s["total"]["cnps"] for s in S)
    cuts = sum(s["total"]["rate_cuts"] for s in S)
    by_dscp = sender_dscps("cnp")
    if got < 1: bad.append("no CNP reached a sender")
    if got > sent: bad.append(f"senders got {got} CNPs, responders sent {sent}")
    if cuts < 1: bad.append("no rate cut")
    if by_dscp != {"48": got}: bad.append(f"CNP DSCPs at the senders {by_dscp}")
    info = f"responders sent {sent} CNPs, senders got {got} (DSCP {by_dscp}), {cuts} rate cuts"
    return bad, info


PREDS = {f.__name__: f for f in (delivered, qp_spread, qp_no_ce, acks_remarked, ecn_marks, ecn_cnps)}


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
