#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Sends COUNT RoCEv2 frames (RC SEND_ONLY, UDP 4791) into the switch port
# on TX_IF's hub, from 10.1.0.2 to 10.9.0.5, and counts what comes out on
# RX_IF's hub. Plain AF_PACKET sockets: the guest has python3, not
# scapy. A frame counts as rewritten when it left swp2 for the neighbour
# with TTL 63 and DSCP 26 (the config's data remark) and a valid IPv4
# header checksum. Prints one JSON object.
#
# usage: frames.py TX_IF RX_IF COUNT
import json
import socket
import struct
import sys
import time

SWP1 = bytes.fromhex("525400d00001")
SWP2 = bytes.fromhex("525400d00002")
HOSTA = bytes.fromhex("525400d00011")
HOSTB = bytes.fromhex("525400d00012")
SRC, DST = socket.inet_aton("10.1.0.2"), socket.inet_aton("10.9.0.5")


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(i):
    payload = bytes(256)
    # BTH: opcode 0x04 (RC SEND_ONLY), pkey 0xffff, dest QP 0x123, PSN i
    bth = struct.pack("!BBHI I", 0x04, 0, 0xFFFF, 0x123, i & 0xFFFFFF)
    icrc = bytes(4)
    udp_len = 8 + len(bth) + len(payload) + len(icrc)
    udp = struct.pack("!HHHH", 49152 + (i % 8), 4791, udp_len, 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0x02, 20 + udp_len, i & 0xFFFF,
                     0x4000, 64, 17, 0, SRC, DST)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return SWP1 + HOSTA + b"\x08\x00" + ip + udp + bth + payload + icrc


def main():
    tx_if, rx_if, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    rx.bind((rx_if, 0))
    rx.settimeout(0.2)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((tx_if, 0))
    for i in range(count):
        tx.send(frame(i))
    got = rewritten = other = 0
    seen = {}
    end = time.monotonic() + 10
    while time.monotonic() < end and got < count:
        try:
            f = rx.recv(4096)
        except socket.timeout:
            continue
        if len(f) < 42 or f[12:14] != b"\x08\x00" or f[23] != 17 or \
                f[30:34] != DST or struct.unpack("!H", f[36:38])[0] != 4791:
            other += 1
            continue
        got += 1
        ip = f[14:34]
        ok = (f[0:6] == HOSTB and f[6:12] == SWP2 and ip[8] == 63 and
              ip[1] >> 2 == 26 and csum(ip) == 0)
        rewritten += ok
        seen = {"dmac": f[0:6].hex(":"), "smac": f[6:12].hex(":"),
                "ttl": ip[8], "dscp": ip[1] >> 2}
    print(json.dumps({"sent": count, "received": got, "rewritten": rewritten,
                      "other_frames": other, "last": seen}))


main()
