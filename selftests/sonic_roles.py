#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/sonic_roles.sh.

usage: sonic_roles.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def udp():
    """udp DST COUNT INTERVAL: COUNT 64-byte datagrams to DST port 9."""
    import socket, sys, time
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    for _ in range(int(sys.argv[2])):
        s.sendto(b"x" * 64, (sys.argv[1], 9))
        time.sleep(float(sys.argv[3]))


def fresh():
    """fresh A PORTSTAT B: the COUNTERS_DB packets and bytes of Ethernet0 (rx)
    and Ethernet4 (tx) lie between rocedp's reads A and B, which differ."""
    import json, sys
    a, ps, b = (json.load(open(f)) for f in sys.argv[1:4])
    a = {p["name"]: p for p in a["ports"]}
    b = {p["name"]: p for p in b["ports"]}
    ps = ps["ports"]
    bad, shown = [], []
    for port, dev, col, key in (("Ethernet0", "s0", "rx_ok", "rx_pkts"),
                                ("Ethernet0", "s0", "rx_byt", "rx_bytes"),
                                ("Ethernet4", "s1", "tx_ok", "tx_pkts"),
                                ("Ethernet4", "s1", "tx_byt", "tx_bytes")):
        lo, x, hi = a[dev][key], ps[port][col], b[dev][key]
        shown.append("%s %s %d <= %s <= %d" % (port, col, lo, x, hi))
        if not (lo < hi and lo <= x <= hi):
            bad.append(shown[-1])
    print("; ".join(bad) or "; ".join(shown))
    sys.exit(1 if bad else 0)


def agree():
    """agree PORTSTAT STATS NETDEV: each COUNTERS_DB column of Ethernet0/4 equals
    rocedp -j stats (STATS) or the kernel's /proc/net/dev (NETDEV)."""
    import json, sys
    ps = json.load(open(sys.argv[1]))["ports"]
    st = {p["name"]: p for p in json.load(open(sys.argv[2]))["ports"]}
    kern = {}
    for line in open(sys.argv[3]).readlines()[2:]:
        name, rest = line.split(":", 1)
        v = [int(x) for x in rest.split()]
        kern[name.strip()] = {"rx_err": v[2], "rx_drp": v[3], "rx_ovr": v[5],
                              "tx_err": v[10], "tx_drp": v[11]}
    bad = []
    for port, dev in (("Ethernet0", "s0"), ("Ethernet4", "s1")):
        p, s, k = ps[port], st[dev], kern[dev]
        want = {"rx_ok": s["rx_pkts"], "tx_ok": s["tx_pkts"],
                "rx_byt": s["rx_bytes"], "tx_byt": s["tx_bytes"],
                "rx_mca": s["rx_mcast"], "rx_bca": s["rx_bcast"],
                "rx_uca": s["rx_pkts"] - s["rx_mcast"] - s["rx_bcast"]}
        want.update(k)
        for c, v in want.items():
            if p[c] != v:
                bad.append("%s %s: COUNTERS_DB %s, want %s" % (port, c, p[c], v))
    print("; ".join(bad) or "all agree: %s" % json.dumps(ps["Ethernet0"]))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
