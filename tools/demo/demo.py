#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report printers of the demos in tools/demo/.

usage: demo.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def fabric_report():
    """fabric_report OUT SPINES QPS MSG COUNT RATE ECN_RATE LINK TAU MTU MODE...:
    the fabric demo's table per hash mode from the runs' JSON in OUT."""
    import json, os, sys
    out, spines, qps, msg, count, rate, ecn_rate, link, tau, mtu = sys.argv[1:11]
    spines = int(spines)
    modes = sys.argv[11:]

    def ports(path):
        return {p["name"]: p for p in json.load(open(path))["ports"] if "name" in p}

    def delta(mode, leaf, port, key):
        a = ports(f"{out}/fabric-{mode}.{leaf}.before.json").get(port, {})
        b = ports(f"{out}/fabric-{mode}.{leaf}.after.json").get(port, {})
        return b.get(key, 0) - a.get(key, 0)

    def spine_delta(mode):
        """{"spineS/leafL": (bytes, drops)} sent by the shaped spine ports during the run"""
        def read(which):
            try:
                return {f[0]: (int(f[1]), int(f[2])) for f in
                        (l.split() for l in open(f"{out}/fabric-{mode}.spines.{which}")) if len(f) == 3}
            except OSError:
                return {}
        a, b = read("before"), read("after")
        return {k: (b[k][0] - a.get(k, (0, 0))[0], b[k][1] - a.get(k, (0, 0))[1]) for k in b}

    print(f"ring over 4 hosts (alternating leaves), {qps} QPs per connection, one UDP source port "
          f"per host pair, {count} x {msg} per QP, MTU {mtu}; senders at {rate} Mbit/s; "
          + (f"every fabric link shaped to {link} Mbit/s at the spines (tbf), " if link != "0" else "no shaping, ")
          + (f"ECN marks above {ecn_rate} Mbit/s per uplink" if ecn_rate != "0" else "no ECN marking"))
    cols = "".join(f"{'up' + str(s):>7}" for s in range(1, spines + 1))
    print(f"{'mode':8}{cols} {'imbal':>6} {'time ms':>8} {'faster':>7} {'link Mb/s':>9} {'drops':>5} "
          f"{'oos':>5} {'ECN':>6} {'CNPs':>6} {'ACKs dscp46':>13}")
    dat = open(f"{out}/fabric.dat", "w")
    dat.write("# mode " + " ".join(f"up{s}" for s in range(1, spines + 1)) + " imbalance time_ms  (% of leaf1's uplink tx bytes)\n")
    times, replays = {}, []
    for mode in modes:
        try:
            run = json.load(open(f"{out}/fabric-{mode}.json"))
        except (OSError, ValueError):
            print(f"{mode:8} (no result: rocegen run failed, see {out}/fabric-{mode}.err)")
            continue
        tx = [delta(mode, "leaf1", f"up{s}", "tx_bytes") for s in range(1, spines + 1)]
        total = sum(tx) or 1
        share = [100 * t / total for t in tx]
        imbal = max(tx) / (total / spines)
        marks = sum(delta(mode, l, f"up{s}", "ecn_marked")
                    for l in ("leaf1", "leaf2") for s in range(1, spines + 1))
        senders = run["senders"].values()
        cnps = sum(s["total"]["cnps"] for s in senders)
        acks = sum(s["total"]["acks"] for s in senders)
        acks46 = sum(s["rx_dscp"]["ack"].get("46", 0) for s in senders)
        t = run["total"]
        ms = run["completion_us"] / 1000
        times[mode] = ms
        faster = f"{100 * (1 - ms / times['5tuple']):6.0f}%" if "5tuple" in times else f"{'-':>7}"
        # the busiest shaped port's mean rate over the collective: <= LINK if the shaping holds
        sp = spine_delta(mode)
        link_mbps = max((b for b, _ in sp.values()), default=0) * 8 / (ms * 1000) if ms else 0
        drops = sum(d for _, d in sp.values())
        cells = "".join(f"{s:6.1f}%" for s in share)
        print(f"{mode:8}{cells} {imbal:6.2f} {ms:8.1f} {faster} {link_mbps:9.1f} {drops:5d} {t['oos']:5d} "
              f"{marks:6d} {cnps:6d} {f'{acks46}/{acks}':>13}")
        dat.write(f"{mode} " + " ".join(f"{s:.2f}" for s in share) + f" {imbal:.2f} {ms:.1f}\n")
        try:
            lb = json.load(open(f"{out}/fabric-{mode}.lbeval.json"))["modes"][0]
            lbt = sum(lb["bytes"]) or 1
            replays.append(f"{mode:8}" + "".join(f"{100 * b / lbt:6.1f}%" for b in lb["bytes"])
                           + f" {lb['imbalance']:6.2f}  moves {lb['flowlet_moves']}, flowlets {lb['flowlets']}")
        except (OSError, ValueError, KeyError, IndexError):
            pass
    dat.close()
    if "5tuple" in times:
        def vs(m):
            r = times[m] / times["5tuple"]
            return (f"{m} {100 * (1 - r):.0f}% faster" if r <= 1 else f"{m} {100 * (r - 1):.0f}% slower") \
                + f" ({r:.2f}x the time)"
        parts = [vs(m) for m in modes if m != "5tuple" and m in times]
        print("completion against 5tuple: " + ", ".join(parts)
              + " (Meta reports up to 40% for AllReduce with E-ECMP)")
    print("up1..4: share of leaf1's uplink tx bytes (rocedp stats); imbal: busiest / mean; time: the collective's")
    print("completion; faster: time saved against 5tuple; link Mb/s: the busiest shaped spine port's mean rate over")
    print("that time; drops: tbf drops at the spines; oos: out-of-sequence frames at the responders; ECN: frames")
    print("rocedp marked CE on the uplinks of both leaves; CNPs: received by the senders; ACKs dscp46: ACKs the")
    print("senders received remarked to DSCP 46 (sent by the responders with the data's DSCP 26) / all ACKs")
    if replays:
        print(f"lbeval replay of the frames leaf1's hosts sent (--pcap, capture times, tau {tau} us):")
        for r in replays:
            print(r)


def rdma_report():
    """rdma_report LOG: per hash mode, ib_write_bw's result and the uplink
    members' packet deltas (LOG/MODE.before, .after, .cli)."""
    import sys
    log = sys.argv[1]
    print(f"{'mode':8} {'spine1':>8} {'spine2':>8} {'spine3':>8} {'spine4':>8} {'imbalance':>9} {'Gbit/s':>8}")
    for mode in ("5tuple", "qp"):
        a = [int(x) for x in open(f"{log}/{mode}.before").read().split()]
        b = [int(x) for x in open(f"{log}/{mode}.after").read().split()]
        d = [y - x for x, y in zip(a, b)]
        tot = sum(d) or 1
        bw = "-"
        for line in open(f"{log}/{mode}.cli"):
            f = line.split()
            if len(f) >= 4 and f[0] == "65536":
                bw = f[3]
        pct = " ".join(f"{100 * x / tot:7.1f}%" for x in d)
        print(f"{mode:8} {pct} {max(d) / (tot / len(d)):9.2f} {bw:>8}")


def qp_report():
    """qp_report OUT: the QP demo's summary from the leaves' rocedp qps -j
    (OUT/qp-LEAF.json)."""
    import json, sys
    out = sys.argv[1]
    l1 = json.load(open(f"{out}/qp-leaf1.json"))["qps"]
    l2 = json.load(open(f"{out}/qp-leaf2.json"))["qps"]
    inj = json.load(open(f"{out}/qp-inject.json"))
    key = lambda q: (q["src"], q["dst"], q["dest_qp"])
    up = {key(q): q for q in l1 if q["dst"].startswith("10.2.")}
    dn = {key(q): q for q in l2 if q["dst"].startswith("10.2.")}
    sick = {k for k, q in up.items() if q["rewinds"] or q["dups"]}
    stalled = {k for k in sick if up[k]["stalls"]}
    print(f"QPs leaf1 -> leaf2: {len(up)}; sick (go-back-N rewinds or resends at leaf1): {len(sick)}, "
          f"{len(stalled)} of them stalled (an ACK wait over 10 ms)")
    ports = sorted({up[k]["out_port"] for k in sick})
    print(f"  they all leave leaf1 by: {', '.join(ports) or '-'}"
          + (f"  (up<s> goes to spine<s>)" if ports else ""))
    print(f"  gaps at leaf1: {sum(up[k]['gaps'] for k in sick)} (nothing was lost before leaf1)")
    g = {}
    for k in sick:
        q = dn.get(k)
        if q and q["gaps"]:
            g[q["in_port"]] = g.get(q["in_port"], 0) + q["gaps"]
    print("  gaps at leaf2 by the port they came in on: "
          + (", ".join(f"{p} {n}" for p, n in sorted(g.items())) or "none"))
    healthy = [up[k]["out_port"] for k in up if k not in sick]
    print(f"  healthy QPs leave leaf1 by: {', '.join(sorted(set(healthy))) or '-'}"
          f" (their stalls: {sum(up[k]['stalls'] for k in up if k not in sick)})")
    if len(ports) == 1 and ports[0].startswith("up") and set(g) <= {ports[0]}:
        print(f"diagnosis: frames are lost between leaf1's {ports[0]} and leaf2's {ports[0]}: "
              f"on spine{ports[0][2:]}")
    else:
        print("diagnosis: the sick QPs do not share one spine")
    t = inj["total"]
    print(f"injected on {inj['spine']}: {t['dropped']} of {t['seen']} requests dropped "
          f"(every {inj['every']}th per QP)")


def spread():
    """spread OUT: per hash mode, how the RDMA WRITE frames of one host pair
    (1 UDP source port, 64 QPs) spread over the 4-member group, from the
    replay verdicts OUT/verdicts-MODE.jsonl."""
    import json, sys
    out = sys.argv[1]
    print("== RDMA WRITE frames of one host pair (1 UDP source port, 64 QPs) over a 4-member group ==")
    print(f"{'mode':8} {'m0':>6} {'m1':>6} {'m2':>6} {'m3':>6} {'imbalance':>9} {'ack/nak/cnp remarked':>21}")
    for mode in ("5tuple", "qp", "qp-only"):
        share = [0, 0, 0, 0]
        remarked = 0
        for line in open(f"{out}/verdicts-{mode}.jsonl"):
            v = json.loads(line)
            if v["class"] == "data" and v["member"] is not None:
                share[v["member"]] += 1
            if v["class"] in ("ack", "nak", "cnp") and v["dscp_in"] != v["dscp_out"]:
                remarked += 1
        total = sum(share) or 1
        mean = total / 4
        pct = [f"{100 * s / total:5.1f}%" for s in share]
        print(f"{mode:8} {' '.join(f'{p:>6}' for p in pct)} {max(share) / mean:9.2f} {remarked:>21}")


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
