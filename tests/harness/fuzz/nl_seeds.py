#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds for the netlink fuzzer (tests/harness/fuzz/fuzz_nl.c): what the kernel
really sends rocedp sync. A scratch namespace gets links, neighbours,
multipath IPv4 and IPv6 routes, nexthop objects and a nexthop group; its
dumps (links, neighbours, nexthops, routes) are read over a raw rtnetlink
socket and written in the harness's record format: per message one
selector byte (the message type, see TYPES), a 16-bit little-endian
payload length, then the payload (the message without its nlmsghdr).
One seed per dump, one with everything, and each message alone.

usage: nl_seeds.py OUTDIR     (root; needs ip)
"""
import os
import socket
import struct
import subprocess
import sys

NS = "rdfzseed%d" % os.getpid()
# the selector's meaning in fuzz_nl.c: NEW/DEL of link, neigh, route, nexthop
TYPES = [16, 17, 28, 29, 24, 25, 104, 105]
SETUP = """
link set lo up
link add s0 type veth peer name s1
link add s2 type veth peer name s3
link set s0 up
link set s1 up
link set s2 up
link set s3 up
addr add 10.100.0.1/24 dev s0
addr add 10.100.1.1/24 dev s2
addr add 2001:db8:100::1/64 dev s0 nodad
addr add 2001:db8:101::1/64 dev s2 nodad
neigh replace 10.100.0.2 lladdr 02:00:00:00:00:02 nud permanent dev s0
neigh replace 10.100.1.2 lladdr 02:00:00:00:01:02 nud permanent dev s2
neigh replace 2001:db8:100::2 lladdr 02:00:00:00:00:12 nud permanent dev s0
route add 10.9.0.0/16 nexthop via 10.100.0.2 dev s0 weight 1 nexthop via 10.100.1.2 dev s2 weight 3
route add 10.10.1.0/24 via 10.100.0.2 dev s0
route add 2001:db8:9::/48 nexthop via 2001:db8:100::2 dev s0 nexthop via 2001:db8:101::2 dev s2
nexthop add id 1 via 10.100.0.2 dev s0
nexthop add id 2 via 10.100.1.2 dev s2
nexthop add id 10 group 1/2,2
route add 10.8.0.0/16 nhid 10
route add 10.7.0.0/16 nhid 1
"""


def ip(*args):
    subprocess.run(["ip"] + list(args), check=True, stdout=subprocess.DEVNULL)


def dump(msg_type, hdr):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
    s.bind((0, 0))
    req = struct.pack("=IHHII", 16 + len(hdr), msg_type, 0x301, 1, 0) + hdr
    s.send(req)
    out = []
    while True:
        data = s.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            ln, typ = struct.unpack_from("=IH", data, off)
            if typ in (2, 3):  # NLMSG_ERROR, NLMSG_DONE
                s.close()
                return out
            out.append((typ, data[off + 16:off + ln]))
            off += (ln + 3) & ~3


def record(msgs):
    b = b""
    for typ, payload in msgs:
        b += struct.pack("<BH", TYPES.index(typ), len(payload)) + payload
    return b


def child(out):
    dumps = {
        "links": dump(18, struct.pack("=BxHiII", 0, 0, 0, 0, 0)),
        "neigh": dump(30, struct.pack("=BxxxiHBB", 0, 0, 0, 0, 0)),
        "nexthops": dump(106, struct.pack("=BBBBI", 0, 0, 0, 0, 0)),
        "routes4": dump(26, struct.pack("=BBBBBBBBI", socket.AF_INET, 0, 0, 0, 0, 0, 0, 0, 0)),
        "routes6": dump(26, struct.pack("=BBBBBBBBI", socket.AF_INET6, 0, 0, 0, 0, 0, 0, 0, 0)),
    }
    everything = []
    n = 0
    for name, msgs in dumps.items():
        msgs = [m for m in msgs if m[0] in TYPES]
        everything += msgs
        with open(os.path.join(out, "dump-" + name), "wb") as f:
            f.write(record(msgs))
        for m in msgs:
            with open(os.path.join(out, "msg-%03d" % n), "wb") as f:
                f.write(record([m]))
            n += 1
    with open(os.path.join(out, "all"), "wb") as f:
        f.write(record(everything))
    # the same state, then every route deleted again
    dels = [(t + 1, p) for t, p in everything if t in (24, 104)]
    with open(os.path.join(out, "all-then-del"), "wb") as f:
        f.write(record(everything + dels))


def main():
    if sys.argv[1] == "--child":  # inside the namespace (ip netns exec)
        child(sys.argv[2])
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    ip("netns", "add", NS)
    try:
        for line in SETUP.strip().splitlines():
            ip("-n", NS, *line.split())
        subprocess.run(["ip", "netns", "exec", NS, sys.executable,
                        os.path.abspath(__file__), "--child", out], check=True)
    finally:
        subprocess.run(["ip", "netns", "del", NS])


main()
