#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/jumbo.sh.

usage: jumbo.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def ports():
    """ports MODE MTU < LINKS: the ports of ip -j -d link show (stdin), lo
    aside, not at MTU or without the XDP program of MODE (native, generic;
    tc: any), one line each."""
    import json, sys
    mode = sys.argv[1]
    for d in json.load(sys.stdin):
        if d["ifname"] == "lo": continue
        xdp = d.get("xdp", {}).get("mode")
        # ip -d reports XDP mode 1 = native (drv), 2 = generic (skb)
        ok = d["mtu"] == int(sys.argv[2]) and (mode == "tc" or
            xdp == {"native": 1, "generic": 2}[mode])
        # (as a shell-quoted -c string, d['ifname'] lost its quotes and a
        # failure printed only a NameError on stderr)
        if not ok: print(f"{d['ifname']}: mtu {d['mtu']} xdp {xdp}")


def delivered():
    """delivered DIR MODE QPS COUNT: 4096-byte payloads, every message received and
    completed, in order, no NAK, duplicate, ICRC error or retransmission."""
    import json, sys
    tmp, mode, qps, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    s = json.load(open(f"{tmp}/{mode}.send.json"))
    r = json.load(open(f"{tmp}/{mode}.serve"))
    def tot(j):
        return j.get("total", j)
    S, R = tot(s), tot(r)
    bad = []
    if s["frame_payload"] != 4096: bad.append(f"frame payload {s['frame_payload']}, want 4096")
    if R["messages"] != qps * count: bad.append(f"responder got {R['messages']} messages, want {qps * count}")
    if S["messages"] != qps * count: bad.append(f"sender completed {S['messages']}")
    if R["bytes"] != 4096 * 16 * qps * count: bad.append(f"responder got {R['bytes']} bytes")
    for k in ("oos", "naks", "dups", "icrc_errors", "bad_qp"):
        if R.get(k): bad.append(f"{R[k]} {k}")
    if S.get("retx_frames"): bad.append(f"{S['retx_frames']} retransmitted frames")
    print("; ".join(bad) if bad else
          f"{R['messages']} messages, {S['frames']} frames of 4096 payload bytes, oos 0, ICRC errors 0")
    sys.exit(1 if bad else 0)


def counted():
    """counted DIR MODE: leaf1 counted the frames whole (rx on host1, bytes
    forwarded, no headers outside the linear part) between stats snapshots a, b."""
    import json, sys
    tmp, mode = sys.argv[1], sys.argv[2]
    def port(n, name):
        j = json.load(open(f"{tmp}/{mode}.{n}.json"))
        return next((p for p in j["ports"] if p.get("name") == name), {})
    def ctr(n, k):
        return json.load(open(f"{tmp}/{mode}.{n}.json"))["counters"][k]
    sent = json.load(open(f"{tmp}/{mode}.send.json"))
    S = sent.get("total", sent)
    pk = port("b", "host1").get("rx_pkts", 0) - port("a", "host1").get("rx_pkts", 0)
    by = port("b", "host1").get("rx_bytes", 0) - port("a", "host1").get("rx_bytes", 0)
    fwd = ctr("b", "forwarded_bytes") - ctr("a", "forwarded_bytes")
    def mal(n):
        return json.load(open(f"{tmp}/{mode}.{n}.json"))["malformed"].get("not_linear", 0)
    nl = mal("b") - mal("a")
    bad = []
    if pk < S["frames"]: bad.append(f"host1 rx {pk} frames, sender sent {S['frames']}")
    if by < 4096 * S["frames"]: bad.append(f"host1 rx {by} bytes for {S['frames']} frames")
    if fwd < 4096 * S["frames"]: bad.append(f"forwarded {fwd} bytes")
    if nl: bad.append(f"{nl} frames with headers outside the linear part")
    print("; ".join(bad) if bad else f"host1 rx {pk} frames / {by} bytes ({by // max(pk, 1)} a frame), forwarded {fwd} bytes")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
