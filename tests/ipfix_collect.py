#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A minimal IPFIX collector for tests/cli_ipfix.sh: receives UDP datagrams
on 127.0.0.1:PORT until QUIET seconds pass with none (after the first),
and writes each as a frame of a pcap (Ethernet/IPv4/UDP to port 4739,
IPFIX's), so tshark decodes them offline without capturing.

  ipfix_collect.py PORT_FILE OUT.pcap [QUIET]
PORT_FILE gets the port it listens on once it does.
"""
import socket
import sys

from scapy.all import Ether, IP, UDP, Raw, wrpcap

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write("%d\n" % s.getsockname()[1])
import os
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
quiet = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
frames = []
s.settimeout(30)
while True:
    try:
        data, peer = s.recvfrom(65535)
    except socket.timeout:
        break
    frames.append(Ether() / IP(src=peer[0], dst="127.0.0.1") /
                  UDP(sport=peer[1], dport=4739) / Raw(data))
    s.settimeout(quiet)
wrpcap(sys.argv[2], frames)
print(len(frames))
