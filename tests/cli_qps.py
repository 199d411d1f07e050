#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The JSON and Prometheus checks of tests/cli_qps.sh on rocedp qps output.

usage: cli_qps.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def qps_json():
    """rocedp -j qps --sort rewinds --limit 3 (FILE): sort, limit, fields and
    totals as tests/cli_qps.sh wrote them."""
    import json, sys
    d = json.load(open(sys.argv[1]))
    assert d["sort"] == "rewinds", d["sort"]
    assert d["count"] == 4 and len(d["qps"]) == 3, (d["count"], len(d["qps"]))
    assert d["stall_threshold_us"] == 5000
    q = d["qps"][0]
    assert (q["src"], q["dst"], q["dest_qp"]) == ("fd00::1", "fd00::2", 0x33), q
    assert q["rewinds"] == 5 and q["naks"]["psn_seq"] == 3 and q["rtt_ewma_us"] == 6.0
    t = d["totals"]
    assert (t["bytes"], t["rewinds"], t["gaps"], t["stalls"], t["stalled"]) == \
        (4320100, 7, 8, 1, 1), t
    stalled = [x for x in d["qps"] if x["stalled"]]
    assert not stalled, "0x44 is fourth by rewinds, beyond --limit 3"
    print("ok")


def prom_families():
    """Prints, for the exposition FILE: the most per-QP series of one family, the
    number of per-QP families, and rocedp_qps."""
    import collections, re, sys
    fam = collections.Counter()
    qps = None
    for line in open(sys.argv[1]):
        m = re.match(r'^(rocedp_qp_[a-z_]+)\{src="[^"]*",dst="[^"]*",qp="[^"]*",in_port="[^"]*",out_port="[^"]*"\} [0-9.e+-]+$', line)
        if m:
            fam[m.group(1)] += 1
        m = re.match(r'^rocedp_qps (\d+)$', line)
        if m:
            qps = int(m.group(1))
    print(max(fam.values()) if fam else 0, len(fam), qps)


def exposition():
    """The Prometheus exposition FILE is valid: each family typed once, before its
    samples, and no sample repeated."""
    import re, sys
    typed, seen = set(), set()
    for line in open(sys.argv[1]):
        line = line.rstrip("\n")
        m = re.match(r"^# TYPE (\S+) (counter|gauge)$", line)
        if m:
            assert m.group(1) not in typed, "typed twice: " + m.group(1)
            typed.add(m.group(1))
            continue
        if line.startswith("#"):
            continue
        m = re.match(r"^([a-z_]+)(\{[^}]*\})? -?[0-9.e+-]+$", line)
        assert m, "bad sample line: " + line
        assert m.group(1) in typed, "sample before its TYPE: " + line
        assert line.rsplit(" ", 1)[0] not in seen, "repeated: " + line
        seen.add(line.rsplit(" ", 1)[0])


def frames():
    """Writes DIR/f0..f3.bin: RC SEND ONLY frames of QP 0x123 with PSNs 1 2 4 3."""
    import struct, sys
    from scapy.all import Ether, IP, UDP, Raw
    for i, psn in enumerate([1, 2, 4, 3]):
        # BTH: RC SEND ONLY, pkey 0xffff, dest QP 0x123, AckReq, PSN; ICRC 0
        bth = struct.pack(">BBHII", 0x04, 0x40, 0xffff, 0x123, 1 << 31 | psn)
        f = (Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") /
             IP(src="10.9.0.1", dst="10.9.0.2") / UDP(sport=49152, dport=4791) /
             Raw(bth + b"x" * 64 + bytes(4)))
        open("%s/f%d.bin" % (sys.argv[1], i), "wb").write(bytes(f))


def live():
    """rocedp -j qps (FILE) after four frames of one QP (PSNs 1 2 4 3) through the
    real program: 4 requests, 1 gap, 1 rewind, a wait."""
    import json, sys
    d = json.load(open(sys.argv[1]))
    assert d["count"] == 1 and d["stall_threshold_us"] == 60000000, d
    q = d["qps"][0]
    got = {k: q[k] for k in ("src", "dst", "dest_qp", "req_pkts", "gaps",
                             "gap_psns", "rewinds", "dups", "stalls", "stalled")}
    want = {"src": "10.9.0.1", "dst": "10.9.0.2", "dest_qp": 0x123, "req_pkts": 4,
            "gaps": 1, "gap_psns": 1, "rewinds": 1, "dups": 0, "stalls": 0,
            "stalled": False}
    assert got == want, got
    assert q["unacked_wait_us"] is not None, "requests wait for their ACK"


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
