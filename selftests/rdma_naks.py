#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""NAKs toward a Soft-RoCE requester (selftests/rdma.sh, the tail-drop run).

rdma_naks.py wire: stdin is "destqp psn syndrome" per ACK/NAK frame
(opcode 17) in wire order, from tshark. Prints "wire N rxe M": N
PSN-sequence NAK frames, and M of them that the requester's rxe counts in
rcvd_seq_err. rxe 6.1 (rxe_comp.c, check_ack)
counts such a NAK only when its PSN is beyond the completer's PSN, which an
ACK moves to its PSN + 1 and a counted NAK to its own PSN: a second NAK of a
PSN already NAKed, or of the PSN just after the last ACKed one, is not
counted. Per QP, as rxe keeps it.

rdma_naks.py qps A B: two `rocedp qps -j` documents; prints each QP's
change "qp Q naks N rewinds R out PORT" and "sum N" (PSN-sequence NAKs).
"""
import json
import sys

PSN_MASK = 0xFFFFFF


def after(a, b):
    """a is beyond b in 24-bit PSN order"""
    d = (a - b) & PSN_MASK
    return d != 0 and d < 0x800000


def qps(a_path, b_path):
    def rd(p):
        with open(p) as f:
            return {(q["src"], q["dst"], q["dest_qp"]): q for q in json.load(f)["qps"]}

    a, b = rd(a_path), rd(b_path)
    total = 0
    for k, q in sorted(b.items(), key=lambda x: x[0][2]):
        o = a.get(k, {"naks": {"psn_seq": 0}, "rewinds": 0})
        n = q["naks"]["psn_seq"] - o["naks"]["psn_seq"]
        total += n
        print(f"qp {k[2]} naks {n} rewinds {q['rewinds'] - o['rewinds']} out {q['out_port']}")
    print(f"sum {total}")


def wire():
    comp = {}
    wire = counted = 0
    for line in sys.stdin:
        f = line.split()
        if len(f) < 3:
            continue
        qp, psn, syn = (int(x, 0) for x in f[:3])
        kind = syn >> 5
        if kind == 3 and (syn & 0x1F) == 0:  # NAK, PSN sequence error
            wire += 1
            if qp not in comp or after(psn, comp[qp]):
                counted += 1
                comp[qp] = psn
        elif kind == 0:  # ACK
            nxt = (psn + 1) & PSN_MASK
            if qp not in comp or after(nxt, comp[qp]):
                comp[qp] = nxt
    print(f"wire {wire} rxe {counted}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "qps":
        qps(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2 and sys.argv[1] == "wire":
        wire()
    else:
        sys.exit("usage: rdma_naks.py wire < FIELDS | rdma_naks.py qps A.json B.json")
