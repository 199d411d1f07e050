#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/sonic_qps.sh.

usage: sonic_qps.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def qpdb():
    """qpdb SOCK: every COUNTERS_ROCEDP_QP key with its fields, as JSON."""
    import json, subprocess, sys
    def rc(*a):
        return subprocess.run(["redis-cli", "-s", sys.argv[1], "-n", "2"] + list(a),
                              capture_output=True, text=True, check=True).stdout
    out = {}
    for k in rc("--scan", "--pattern", "COUNTERS_ROCEDP_QP:*").split():
        v = rc("hgetall", k).splitlines()
        out[k] = dict(zip(v[0::2], v[1::2]))
    print(json.dumps(out))


def compare():
    """compare MODE A.json DB.json B.json: the QP keys against rocedp -j qps
    reads A (before) and B (after). MODE between: A <= DB <= B for every
    counter; equal: DB == B, and the keys are B's top K by bytes."""
    import json, sys
    mode, a, db, b = sys.argv[1], *(json.load(open(f)) for f in sys.argv[2:5])
    ctr = ["pkts", "bytes", "req_pkts", "gaps", "gap_psns", "rewinds", "dups",
           "resp_pkts", "resp_gaps", "resp_rewinds", "acks", "cnps", "ce",
           "rtt_samples", "stalls"]
    def qmap(j):
        return {"COUNTERS_ROCEDP_QP:%s|%s|%d" % (q["src"], q["dst"], q["dest_qp"]): q
                for q in j["qps"]}
    qa, qb = qmap(a), qmap(b)
    bad = []
    for k, v in db.items():
        if k not in qb:
            bad.append("%s: not in rocedp -j qps" % k)
            continue
        lo, hi = qa.get(k), qb[k]
        vals = {c: int(v[c]) for c in ctr}
        vals.update({"naks_" + s: int(v["naks_" + s]) for s in hi["naks"]})
        for c, x in vals.items():
            if c.startswith("naks_"):
                h, l = hi["naks"][c[5:]], lo["naks"][c[5:]] if lo else 0
            else:
                h, l = hi[c], lo[c] if lo else 0
            if (mode == "equal" and x != h) or (mode == "between" and not l <= x <= h):
                bad.append("%s %s: %d, rocedp -j qps %s..%s" % (k, c, x, l, h))
        for c in ("src", "dst"):
            if v[c] != hi[c]:
                bad.append("%s %s: %s != %s" % (k, c, v[c], hi[c]))
        if int(v["dest_qp"]) != hi["dest_qp"]:
            bad.append("%s dest_qp" % k)
    if mode == "equal":
        top = [k for k in qb][:len(db)]  # b is sorted by bytes
        if sorted(top) != sorted(db):
            bad.append("keys %s, rocedp's top by bytes %s" % (sorted(db), sorted(top)))
    print("; ".join(bad[:4]) or "%d keys agree (%s)" % (len(db), ", ".join(
        "%s pkts %s" % (k.split(":", 1)[1], v["pkts"]) for k, v in sorted(db.items()))))
    sys.exit(1 if bad or not db else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
