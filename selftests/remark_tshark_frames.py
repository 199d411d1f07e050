#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The frames host A sends in selftests/remark_tshark.sh: ACKs, NAKs, CNPs,
CTS sends and data over IPv4 and IPv6, and frames rocedp must leave alone.

usage: remark_tshark_frames.py OUT.pcap SRC_MAC DST_MAC
Writes OUT.pcap and prints one line per frame: the expected DSCP (or
"same") and a description, tab-separated.
"""
import sys
from scapy.all import ARP, IP, IPv6, TCP, UDP, Ether, Raw, wrpcap
from scapy.contrib.roce import AETH, BTH, CNP_OPCODE, CNPPadding, opcode

out, smac, dmac = sys.argv[1:4]
op = lambda n: opcode("RC", n)[0]

def roce(code, qp, psn, tos, extra=None, payload=b"", v6=False, sport=49152):
    l3 = (IPv6(src="fd00:5::1", dst="fd00:5::2", tc=tos, hlim=64) if v6 else
          IP(src="10.77.0.1", dst="10.77.0.2", tos=tos, ttl=64, id=psn))
    p = Ether(src=smac, dst=dmac) / l3 / UDP(sport=sport, dport=4791) / \
        BTH(opcode=code, dqpn=qp, psn=psn, ackreq=0)
    if extra is not None:
        p = p / extra
    if payload:
        p = p / Raw(payload)
    return p

D = 26 << 2  # what the "NIC" sent: DSCP 26
f = [
    (roce(op("ACKNOWLEDGE"), 0x101, 1, D | 2, AETH(syndrome=0x1f, msn=1)), 40, "ACK (ECT0)"),
    (roce(op("ACKNOWLEDGE"), 0x102, 2, D | 2, AETH(syndrome=0x60, msn=1)), 44, "NAK PSN sequence error"),
    (roce(CNP_OPCODE, 0x103, 3, D | 1, CNPPadding()), 48, "CNP (ECT1)"),
    (roce(op("SEND_ONLY"), 0x180, 4, D | 2, payload=b"\x01" * 16), 36, "CTS: SEND_ONLY qp 0x180, 16 B (rule cts-small)"),
    (roce(op("ACKNOWLEDGE"), 0x104, 5, D | 2, AETH(syndrome=0x1f, msn=2), v6=True), 40, "ACK over IPv6"),
    (roce(op("ACKNOWLEDGE"), 0x105, 6, D | 3, AETH(syndrome=0x1f, msn=3)), 40, "ACK already CE"),
    (roce(op("RDMA_WRITE_ONLY"), 0x106, 7, D | 2, payload=b"\x00" * 1024), None, "RDMA WRITE ONLY data"),
    (roce(op("SEND_ONLY"), 0x300, 8, D | 2, payload=b"\x01" * 16), None, "SEND_ONLY qp 0x300 (outside the CTS rule)"),
    (roce(op("SEND_ONLY"), 0x181, 9, D | 2, payload=b"\x01" * 512), None, "SEND_ONLY 512 B (over the rule's max_payload)"),
    (roce(op("RDMA_WRITE_ONLY"), 0x107, 10, D | 2, payload=b"\x00" * 256, v6=True), None, "RDMA WRITE over IPv6"),
    (Ether(src=smac, dst=dmac) / IP(src="10.77.0.1", dst="10.77.0.2", tos=D) / TCP(dport=22), None, "TCP"),
    (Ether(src=smac, dst=dmac) / IP(src="10.77.0.1", dst="10.77.0.2", tos=D) / UDP(sport=1234, dport=4790) / Raw(b"x" * 40), None, "UDP to port 4790"),
    (Ether(src=smac, dst="ff:ff:ff:ff:ff:ff") / ARP(psrc="10.77.0.1", pdst="10.77.0.2"), None, "ARP"),
    (Ether(bytes(roce(op("ACKNOWLEDGE"), 0x108, 11, D | 2, AETH(syndrome=0x1f, msn=4)))[:56]), None, "truncated ACK (malformed)"),
]
pkts = [Ether(bytes(p)) for p, _, _ in f]
wrpcap(out, pkts)
for p, d, desc in f:
    print(f"{'same' if d is None else d}\t{desc}")
