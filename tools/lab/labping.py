#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ICMP echo for the lab (Debian's minimal images lack ping).

labping.py IP [COUNT] [TIMEOUT_S]: sends COUNT echo requests (ICMPv6 for
an IPv6 address), exits 0 when every one was answered, 1 otherwise (prints
one line saying which).
"""
import os
import select
import socket
import struct
import sys
import time


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(f"!{len(b) // 2}H", b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def main():
    if len(sys.argv) < 2:
        print("labping: usage: labping.py IP [COUNT] [TIMEOUT_S]", file=sys.stderr)
        return 2
    dst = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    ident = os.getpid() & 0xFFFF
    v6 = ":" in dst
    if v6:
        # the kernel fills in the ICMPv6 checksum and strips the IPv6
        # header from what it delivers
        s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
        echo, reply = 128, 129
    else:
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
        echo, reply = 8, 0
    answered = 0
    for seq in range(1, count + 1):
        body = struct.pack("!HH", ident, seq) + b"rocedp-lab"
        hdr = struct.pack("!BBH", echo, 0, 0)
        pkt = hdr + body if v6 else struct.pack("!BBH", echo, 0, csum(hdr + body)) + body
        s.sendto(pkt, (dst, 0))
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0 or not select.select([s], [], [], left)[0]:
                break
            data, _ = s.recvfrom(2048)
            ihl = 0 if v6 else (data[0] & 0xF) * 4
            t, _, _, i, q = struct.unpack("!BBHHH", data[ihl:ihl + 8])
            if t == reply and i == ident and q == seq:
                answered += 1
                break
    if answered != count:
        print(f"labping: {dst}: {answered}/{count} answered", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
