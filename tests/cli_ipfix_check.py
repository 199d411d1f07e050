#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compares an IPFIX export, as tshark -V decodes it, with rocedp -j qps: the
template set first, observation domain 7, sequence numbers counting data
records, every QP once with its counters (packets, bytes, gaps, rewinds,
NAKs, CNPs, RTT, stalls). Used by tests/cli_ipfix.sh.

usage: cli_ipfix_check.py DECODED.txt QPS.json
Prints one line per check: "ok|DESC|" or "fail|DESC|WHY".
"""
import json, re, sys
text = open(sys.argv[1]).read()
qps = json.load(open(sys.argv[2]))["qps"]
msgs, flows, cur, seq_ok = [], [], None, True
expect_seq = 0
for line in text.splitlines():
    s = line.strip()
    m = re.match(r"FlowSequence: (\d+)", s)
    if m:
        msgs.append({"seq": int(m.group(1)), "domain": None, "sets": []})
        continue
    m = re.match(r"Observation Domain Id: (\d+)", s)
    if m:
        msgs[-1]["domain"] = int(m.group(1))
        continue
    m = re.match(r"FlowSet Id: .*\((\d+)\)$", s)
    if m:
        msgs[-1]["sets"].append(int(m.group(1)))
        continue
    if re.match(r"Flow \d+$", s):
        cur = {"pen": {}}
        flows.append(cur)
        msgs[-1].setdefault("n", 0)
        msgs[-1]["n"] += 1
        continue
    if cur is None:
        continue
    m = re.match(r"(SrcAddr|DstAddr): (\S+)", s)
    if m:
        cur[m.group(1)] = m.group(2)
    m = re.match(r"Permanent (Packets|Octets): (\d+)", s)
    if m:
        cur[m.group(1)] = int(m.group(2))
    m = re.match(r"Enterprise Private entry: \(.*\(?(\d+)?\)?.*\) Type (\d+): Value \(hex bytes\): ([0-9a-f ]+)", s)
    if m:
        cur["pen"][int(m.group(2))] = int(m.group(3).replace(" ", ""), 16)
def out(ok, desc, why=""):
    print(("ok" if ok else "fail") + "|" + desc + "|" + why)
out(msgs and msgs[0]["sets"][0] == 2, "%d messages; the first opens with the template set" % len(msgs),
    str(msgs[:1]))
out(all(m["domain"] == 7 for m in msgs), "observation domain 7 in every message")
seq, bad = 0, []
for m in msgs:
    if m["seq"] != seq:
        bad.append((m["seq"], seq))
    seq += m.get("n", 0)
out(not bad, "sequence numbers count the data records (%d in all)" % seq, str(bad[:3]))
got = {}
for f in flows:
    k = (f.get("SrcAddr"), f.get("DstAddr"), f["pen"].get(1))
    got.setdefault(k, []).append(f)
want = {(q["src"], q["dst"], q["dest_qp"]): q for q in qps}
out(len(flows) == len(qps) == len(want) and all(len(v) == 1 for v in got.values()),
    "every QP of rocedp -j qps once in the export (%d records, %d QPs)" % (len(flows), len(qps)))
bad = []
for k, q in want.items():
    f = got.get(k, [None])[0]
    if f is None:
        bad.append("%s: missing" % (k,))
        continue
    e = {"packets": (f.get("Packets"), q["pkts"]), "bytes": (f.get("Octets"), q["bytes"]),
         "gaps": (f["pen"].get(2), q["gaps"]), "rewinds": (f["pen"].get(3), q["rewinds"]),
         "naks": (f["pen"].get(4), sum(q["naks"].values())), "cnps": (f["pen"].get(5), q["cnps"]),
         "rtt_min_ns": (f["pen"].get(6), round((q["rtt_min_us"] or 0) * 1000)),
         "rtt_mean_ns": (f["pen"].get(7), round((q["rtt_ewma_us"] or 0) * 1000)),
         "stalls": (f["pen"].get(8), q["stalls"])}
    for n, (a, b) in e.items():
        if a != b:
            bad.append("%s %s: ipfix %s, qps %s" % (k, n, a, b))
out(not bad, "each record's counts equal rocedp -j qps's (packets, bytes, gaps, rewinds, NAKs, CNPs, RTT min/mean, stalls)",
    "; ".join(bad[:5]))
sick = got.get(("10.0.0.1", "10.0.0.2", 0x11), [{"pen": {}}])[0]["pen"]
out(sick.get(4) == 5 and sick.get(6) == 9000 and sick.get(7) == 30000,
    "the sick IPv4 QP: 5 NAKs (4 PSN sequence + 1 RNR), RTT 9000/30000 ns", str(sick))
six = got.get(("fd00::1", "fd00::2", 0x33), [{"pen": {}}])[0]
out(six.get("Packets") == 7 and six["pen"].get(2) == 6, "the IPv6 QP in the IPv6 template: 7 packets, 6 gaps", str(six))
