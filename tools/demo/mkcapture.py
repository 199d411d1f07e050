#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write a small mixed RoCEv2 capture for the demo and the replay checks.

One host pair (10.0.1.2 -> 10.0.2.2), one UDP source port, 64 QPs of RDMA
WRITEs, plus ACKs, NAKs, an RNR NAK, CNPs (one with UDP source port 0), a
CTS-looking small SEND, plain IP, ARP and a few malformed frames.
Usage: mkcapture.py OUT.pcap
"""
import sys

from scapy.all import ARP, IP, TCP, UDP, Ether, Raw, wrpcap
from scapy.contrib.roce import AETH, BTH, CNP_OPCODE, CNPPadding, opcode

SRC_MAC, DST_MAC = "02:00:00:00:01:02", "02:00:00:00:00:01"


def op(transport, name):
    return opcode(transport, name)[0]


def roce(code, qp, psn, payload=b"", sport=49152, ackreq=0, tos=0x02, extra=None):
    pkt = (Ether(src=SRC_MAC, dst=DST_MAC) /
           IP(src="10.0.1.2", dst="10.0.2.2", tos=tos, ttl=64) /
           UDP(sport=sport, dport=4791) /
           BTH(opcode=code, dqpn=qp, psn=psn, ackreq=ackreq))
    if extra is not None:
        pkt = pkt / extra
    if payload:
        pkt = pkt / Raw(payload)
    return pkt


def main(out):
    frames = []
    t = 1.0
    for i in range(64):  # 64 QPs, one source port: 5-tuple sees one flow
        for k in range(4):
            frames.append(roce(op("RC", "RDMA_WRITE_ONLY"), 0x100 + i,
                               k, b"\x00" * 1024, ackreq=int(k == 3)))
    for i in range(8):
        frames.append(roce(op("RC", "ACKNOWLEDGE"), 0x200 + i, i,
                           extra=AETH(syndrome=0x1f, msn=i)))
    frames.append(roce(op("RC", "ACKNOWLEDGE"), 0x210, 5,
                       extra=AETH(syndrome=0x60, msn=1)))  # NAK PSN seq
    frames.append(roce(op("RC", "ACKNOWLEDGE"), 0x211, 6,
                       extra=AETH(syndrome=0x20, msn=1)))  # RNR NAK
    for sport in (49152, 0):
        frames.append(roce(CNP_OPCODE, 0x300, 0, sport=sport,
                           extra=CNPPadding()))
    frames.append(roce(op("RC", "SEND_ONLY"), 0x1f0, 9, b"\x01" * 16))
    frames.append(Ether(src=SRC_MAC, dst=DST_MAC) /
                  IP(src="10.0.1.2", dst="10.0.2.2") / TCP(dport=22))
    frames.append(Ether(src=SRC_MAC, dst="ff:ff:ff:ff:ff:ff") /
                  ARP(psrc="10.0.1.2", pdst="10.0.1.1"))
    ack = bytes(roce(op("RC", "ACKNOWLEDGE"), 0x200, 1,
                     extra=AETH(syndrome=0x1f, msn=1)))
    for cut in (20, 40, 52, 58):  # cut in IP, UDP, BTH, AETH
        frames.append(Ether(ack[:cut]))
    for i, f in enumerate(frames):
        f.time = t + i * 0.000005
    wrpcap(out, frames)
    print(f"{out}: {len(frames)} frames")


if __name__ == "__main__":
    main(sys.argv[1])
