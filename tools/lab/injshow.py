#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What the lab's injector did (rocedp-lab inject SPINE [-j]).

stdin: `bpftool -j map dump` of inj_qps; argv: SPINE, 1 for JSON, and the
`bpftool -j map dump` of inj_cfg (its settings).
"""
import json
import socket
import struct
import sys

MODES = ["off", "drop", "reorder", "dup", "delay"]
NAMES = ["seen", "dropped", "held", "released", "duplicated", "busy", "replayed",
         "held_stale"]


def ip(a):
    return socket.inet_ntoa(struct.pack("<I", a))


def main():
    spine, js = sys.argv[1], sys.argv[2] == "1"
    cfg = json.loads(sys.argv[3])[0]["formatted"]["value"] if sys.argv[3] else {}
    rows = []
    for e in json.load(sys.stdin):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        rows.append(dict(src=ip(k["saddr"]), dst=ip(k["daddr"]), qp=k["dqp"],
                         **{n: v[n] for n in NAMES}))
    rows.sort(key=lambda r: (r["src"], r["dst"], r["qp"]))
    tot = {n: sum(r[n] for r in rows) for n in NAMES}
    m = cfg.get("mode", 0)
    mode = MODES[m] if m < len(MODES) else "?"
    every = cfg.get("every", 0)
    qp = cfg["qp"] if cfg.get("has_qp") else None
    if js:
        print(json.dumps(dict(spine=spine, mode=mode, every=every, qp=qp,
                              any=bool(cfg.get("any")), total=tot, qps=rows)))
        return
    # delay: every frame on one port, `every` microseconds; nothing per QP
    head = f"{spine}: delay {every} us" if mode == "delay" else f"{spine}: {mode} every {every}"
    if qp is not None:
        head += f" qp {qp:#x}"
    if cfg.get("any"):
        head += ", any request opcode"
    print(head)
    print(f"{'src':15} {'dst':15} {'qp':>8} " + " ".join(f"{n:>10}" for n in NAMES))
    for r in rows:
        print(f"{r['src']:15} {r['dst']:15} {r['qp']:#8x} "
              + " ".join(f"{r[n]:>10}" for n in NAMES))
    print(f"{'total':40} " + " ".join(f"{tot[n]:>10}" for n in NAMES))


main()
