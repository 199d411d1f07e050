#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/faults.sh.

usage: faults.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def flowlet_runs():
    """flowlet_runs DIR RUNS: over the rocegen runs DIR/fl-1..RUNS, no QP failed,
    every message sent was received, no ICRC error or socket drop."""
    import json, sys
    d, runs = sys.argv[1], int(sys.argv[2])
    s = [json.load(open(f"{d}/fl-{k}.send"))["total"] for k in range(1, runs + 1)]
    rs = [json.load(open(f"{d}/fl-{k}.serve"))["total"] for k in range(1, runs + 1)]
    r = {k: sum(x[k] for x in rs) for k in ("messages", "qps", "icrc_errors", "socket_drops")}
    msgs = sum(x["messages"] for x in s)
    bad = [f"{sum(x['qps_failed'] for x in s)} QPs failed"] if any(x["qps_failed"] for x in s) else []
    if r["messages"] != msgs: bad.append(f"responder {r['messages']} messages, senders {msgs}")
    if r["qps"] != sum(x["qps"] for x in s): bad.append(f"responder saw {r['qps']} QPs")
    if r["icrc_errors"] or r["socket_drops"]: bad.append(f"{r['icrc_errors']} ICRC errors, {r['socket_drops']} socket drops")
    print("; ".join(bad) or f"{r['qps']} QPs, {msgs} messages sent and received")
    sys.exit(1 if bad else 0)


def flow_counts():
    """flow_counts A.json B.json LIVE: the flow table's counter deltas between two
    rocedp -j stats, with LIVE flows and those evicted, as JSON."""
    import json, sys
    a, b = (json.load(open(p))["counters"] for p in sys.argv[1:3])
    live = int(sys.argv[3])
    d = {k: b[k] - a[k] for k in ("flows_new", "flowlets_started", "flowlet_insert_failed",
                                    "flowlet_reorder_risk", "forwarded_packets")}
    d["live"] = live
    d["evicted"] = d["flows_new"] - live
    print(json.dumps(d))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
