#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Helpers of tests/replay_drain.sh.

gen N OUT.pcap: N RoCEv2 frames to 10.1.0.2, one per flow (source port
and destination QP differ), to the port's MAC 02:aa:00:00:00:01.
cfg OUT.json DRAIN: a config with one group of 6 members weighted
8,8,8,3,1,1 on lo; DRAIN is -1 (none) or the slot drained ("drain": true).
members OUT.pcap: the last byte of each sent frame's destination MAC
(the member's slot), one per line.
"""
import json
import struct
import sys

WEIGHTS = [8, 8, 8, 3, 1, 1]


def gen(n, path):
    recs = []
    for i in range(n):
        bth = struct.pack("!BBHI", 0x04, 0, 0xFFFF, 0x100 + i * 7919) + bytes(4)
        payload = bth + bytes(4)
        udp = struct.pack("!HHHH", 0xC000 + i % 16000, 4791, 8 + len(payload), 0)
        udp += payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0x02, 20 + len(udp), i & 0xFFFF,
                         0x4000, 64, 17, 0, bytes([10, 0, 0, 1]),
                         bytes([10, 1, 0, 2])) + udp
        eth = bytes.fromhex("02aa00000001" "02cc00000001" "0800") + ip
        recs.append(struct.pack("<IIII", 1000 + i, 0, len(eth), len(eth)) + eth)
    hdr = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1)
    with open(path, "wb") as f:
        f.write(hdr + b"".join(recs))


def cfg(path, drain):
    members = []
    for i, w in enumerate(WEIGHTS):
        m = {"ifindex": 1, "smac": "02:aa:00:00:00:01",
             "dmac": "02:00:00:00:00:%02x" % i, "weight": w}
        if i == drain:
            m["drain"] = True
        members.append(m)
    c = {"features": ["forward"],
         "hash": {"mode": "qp"},
         "groups": [{"id": 1, "members": members}],
         "routes": [{"prefix": "10.1.0.0/16", "group": 1}]}
    with open(path, "w") as f:
        json.dump(c, f)


def members(path):
    data = open(path, "rb").read()
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from("<IIII", data, off)[2]
        frame = data[off + 16:off + 16 + incl]
        print(frame[5])
        off += 16 + incl


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "cfg":
        cfg(sys.argv[2], int(sys.argv[3]))
    else:
        members(sys.argv[2])
