#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The verdict on one rocegen run, from the sender's and the responder's
JSON reports (rocegen send/serve -j), shared by the selftests that send
traffic through a fabric while something happens to it.

usage: rocegen_verdict.py SEND.json SERVE.json [--rc N] [--min-messages N]
                          [--max-oos N] [--strict]

Default (a fault drops frames on purpose): every message the sender
completed arrived, no QP failed, the responder got at least the frames
sent less the retransmissions, no ICRC error or socket drop. Frames lost
on a link that went down are repaired by go-back-N, so out-of-sequence
arrivals are printed, not failed.

--strict (nothing may be lost): every frame the sender put on the wire
(retransmissions included) arrived, in order or as the duplicate of a
retransmission, with no gap (out of sequence or NAK); every ACK/NAK the
responder sent arrived at the sender.

--max-oos N (no fault on the path, or a known few frames in flight to a
link that went down): more than N out-of-sequence arrivals fail.

--rc: the sender's exit status (non-zero fails). --min-messages: fewer
completed messages fail (a run that sent nothing proves nothing).
Prints one line: the reasons, or what was delivered. Exit 1 on a bad
verdict.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("send")
    ap.add_argument("serve")
    ap.add_argument("--rc", default="0")
    ap.add_argument("--min-messages", type=int, default=1)
    ap.add_argument("--max-oos", type=int)
    ap.add_argument("--strict", action="store_true")
    a = ap.parse_args()
    try:
        s, r = (json.load(open(p)) for p in (a.send, a.serve))
    except Exception as e:
        print(f"no rocegen result: {e}; sender rc {a.rc}")
        return 1
    st, rt = s["total"], r["total"]
    bad = []
    if a.rc != "0":
        bad.append(f"sender exit {a.rc}")
    if st["qps_failed"]:
        bad.append(f"{st['qps_failed']} QPs failed")
    if a.strict:
        arrived = rt["frames"] + rt["dups"] + rt["oos"]
        if arrived != st["frames"]:
            bad.append(f"receiver got {arrived} frames ({rt['frames']} + {rt['dups']} dups"
                       f" + {rt['oos']} oos) != sender {st['frames']} ({st['retx_frames']} retx)")
        if rt["oos"] or rt["naks"]:
            bad.append(f"{rt['oos']} out of sequence, {rt['naks']} NAKs (a gap: a frame was lost)")
        if st["acks"] != rt["acks"] or st["naks"] != rt["naks"]:
            bad.append(f"sender got {st['acks']} ACKs/{st['naks']} NAKs, responder sent"
                       f" {rt['acks']}/{rt['naks']}")
    elif rt["frames"] < st["frames"] - st["retx_frames"]:
        bad.append(f"responder {rt['frames']} frames < sent {st['frames']}"
                   f" - retx {st['retx_frames']}")
    if (rt["messages"] != st["messages"] or st["messages"] < a.min_messages
            or st["messages"] != sum(q["messages"] for q in s["qps"])):
        bad.append(f"messages: responder {rt['messages']}, sender {st['messages']}")
    if a.max_oos is not None and rt["oos"] > a.max_oos:
        bad.append(f"{rt['oos']} out of sequence (allowed {a.max_oos})")
    if rt["icrc_errors"] or rt["socket_drops"]:
        bad.append(f"{rt['socket_drops']} socket drops, {rt['icrc_errors']} ICRC errors")
    if bad:
        print("; ".join(bad))
        return 1
    if a.strict:
        print(f"sender {st['frames']} frames ({st['retx_frames']} retx), receiver"
              f" {rt['frames'] + rt['dups'] + rt['oos']}; {rt['acks']} ACKs both ends;"
              f" {rt['messages']} messages")
    else:
        print(f"{st['messages']} messages, {st['frames']} frames sent ({st['retx_frames']} retx),"
              f" {rt['frames']} received, {rt['oos']} oos")
    return 0


if __name__ == "__main__":
    sys.exit(main())
