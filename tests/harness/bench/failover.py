#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python of tests/harness/bench/failover.sh.

usage: failover.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def row():
    """row BASE MODE EVENT T0 TK RC RD0 RD1: one JSON row of the failover bench
    for one traffic run around one event: the rocegen totals (BASE.send,
    BASE.serve), frames lost and when losses ended (from the captures
    BASE.tx.pcap, BASE.rx.pcap), when the route learned it, frames to the
    dead member (rocedp's up1 tx RD0 -> RD1)."""
    import collections, glob, json, os, sys
    base, mode, ev, t0, tk, rc, rd0, rd1 = sys.argv[1:]
    t0, tk = int(t0), int(tk)
    row = {"mode": mode, "event": ev, "sender_rc": int(rc)}
    try:
        s = json.load(open(base + ".send"))["total"]
        r = json.load(open(base + ".serve"))["total"]
    except (OSError, ValueError, KeyError) as e:
        row["error"] = f"no rocegen summary: {e}"
        print(json.dumps(row)); sys.exit(0)
    row.update(sent=s["frames"], retx=s["retx_frames"], received=r["frames"],
               lost=max(0, s["frames"] - r["frames"]), oos=r["oos"], messages=s["messages"],
               delivered=r["messages"], qps_failed=s["qps_failed"], timeouts=s["timeouts"])
    row["known_ms"] = round((tk - t0) / 1e6, 1) if tk else None
    def stamps(p):
        out = []
        for line in open(p):
            try: out.append(int(float(line.split()[0]) * 1e9))
            except (ValueError, IndexError): pass
        return out
    dead = stamps(base + ".s1-l1")
    # from the kernel route change on
    row["to_dead"] = sum(t > tk for t in dead) if tk and ev != "spineback" and ev != "flap" else None
    row["misforwarded"] = sum(len(stamps(p)) for p in glob.glob(base + ".s*-l2"))
    if rd0 != "-" and rd1 != "-" and row["to_dead"] is not None:
        row["rd_tx_dead"] = int(rd1) - int(rd0)
    # recovery: the last frame lost (sent by h1-1, never received by h2-1 as
    # that send of that QP/PSN) after the event
    from pcap_ids import ids  # next to this file
    tx, rxl = ids(base + ".tx.pcap"), ids(base + ".rx.pcap")
    # go-back-N: the first sends of a PSN are the lost ones, the last arrives
    lost = collections.Counter((q, p) for _, q, p in tx)
    lost.subtract(collections.Counter((q, p) for _, q, p in rxl))
    # the captures end when they are stopped, at slightly different times
    horizon = min(tx[-1][0], rxl[-1][0]) - 100_000_000 if tx and rxl else 0
    last = None
    for t, q, p in tx:
        if lost[(q, p)] > 0:
            lost[(q, p)] -= 1
            if t0 - 50_000_000 <= t < horizon:
                last = t
    row["recovery_ms"] = round(max(0, last - t0) / 1e6) if last else 0
    print(json.dumps(row))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
