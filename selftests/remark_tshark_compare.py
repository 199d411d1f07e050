#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compares the frames A sent (SENT.pcap) with what B captured (RECV.pcap),
frame by frame, for selftests/remark_tshark.sh: each one remarked to its
expected DSCP (EXPECT: "DSCP<TAB>desc" or "same<TAB>desc" lines) with a
valid IPv4 header checksum and nothing else changed, and tshark's FIELDS
agree.

usage: remark_tshark_compare.py SENT.pcap RECV.pcap EXPECT FIELDS
Prints one line per check: "ok|bad<TAB>desc<TAB>why".
"""
import struct, sys
from scapy.all import rdpcap

sent, recv = rdpcap(sys.argv[1]), rdpcap(sys.argv[2])
expect = [l.rstrip("\n").split("\t") for l in open(sys.argv[3])]
fields = [l.rstrip("\n").split("\t") for l in open(sys.argv[4])]

def csum_ok(ip):
    s = sum(struct.unpack("!10H", ip[:20]))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s == 0xFFFF

if len(recv) != len(sent):
    print(f"bad\tframe count\tsent {len(sent)}, captured {len(recv)}")
for i, (s, r) in enumerate(zip(sent, recv)):
    want, desc = expect[i]
    s, r = bytes(s), bytes(r)
    why = []
    if want == "same":
        if r != s:
            diff = [k for k in range(min(len(s), len(r))) if s[k] != r[k]]
            why.append(f"changed: len {len(s)}->{len(r)}, bytes differ at {diff[:8]}")
    else:
        want = int(want)
        et = struct.unpack("!H", s[12:14])[0]
        if et == 0x0800:
            tos_s, tos_r = s[15], r[15]
            masked = lambda b: b[:15] + b[16:24] + b[26:]
            if not csum_ok(r[14:34]):
                why.append("bad IPv4 header checksum")
        else:
            tos_s = ((s[14] & 0x0F) << 4) | (s[15] >> 4)
            tos_r = ((r[14] & 0x0F) << 4) | (r[15] >> 4)
            masked = lambda b: b[:14] + bytes([b[14] & 0xF0, b[15] & 0x0F]) + b[16:]
        if tos_r >> 2 != want:
            why.append(f"DSCP {tos_r >> 2}, want {want}")
        if tos_r & 3 != tos_s & 3:
            why.append(f"ECN {tos_s & 3} -> {tos_r & 3}")
        if masked(r) != masked(s) or len(r) != len(s):
            why.append("bytes other than TOS/checksum changed")
        # tshark's own reading of the field
        fd = [x for x in (fields[i] if i < len(fields) else [])[1:3] if x]
        if not fd or int(fd[0]) != want:
            why.append(f"tshark reads DSCP {fd}")
    print(f"{'bad' if why else 'ok'}\t{desc}\t{'; '.join(why)}")
