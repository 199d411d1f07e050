#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python of tests/harness/bench/scale.sh: the injector's configuration,
the convergence wait, the contents check and the daemon's resource use.

usage: scale.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def bgpd_conf():
    """bgpd_conf N4 N6 DIR: the injector's bgpd.conf: N4 IPv4 and N6 IPv6
    prefixes, each a network statement, gated by route-map OUT."""
    import sys
    n4, n6, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    o = sys.stdout.write
    o(f"hostname inj\nlog file {d}/bgpd.log\nroute-map OUT permit 10\n")
    # one session per family: with ipv4-unicast on by default the IPv6 session
    # would carry the IPv4 prefixes too, past route-map OUT
    o("router bgp 65100\n bgp router-id 10.254.9.9\n no bgp ebgp-requires-policy\n")
    o(" no bgp default ipv4-unicast\n")
    o(" no bgp network import-check\n timers bgp 3 9\n")
    for nb in ("10.200.0.0", "fd00:200::"):
        o(f" neighbor {nb} remote-as 65001\n neighbor {nb} advertisement-interval 0\n")
        o(f" neighbor {nb} timers connect 1\n")
    o(" address-family ipv4 unicast\n  neighbor 10.200.0.0 activate\n  neighbor 10.200.0.0 route-map OUT out\n")
    for k in range(n4):
        a = (20 << 24) + (k << 8)
        o(f"  network {a >> 24}.{a >> 16 & 255}.{a >> 8 & 255}.0/24\n")
    o(" exit-address-family\n address-family ipv6 unicast\n  neighbor fd00:200:: activate\n")
    o("  neighbor fd00:200:: route-map OUT out\n")
    for k in range(n6):
        o(f"  network 2001:db8:{k:x}::/48\n")
    o(" exit-address-family\n")


def waitfor():
    """waitfor T0 W4 W6 B4 B6 MB4 MB6 PIN RDB TMO: polls (rdbench count, less
    the baseline of connected routes) until both families hold W4/W6 routes;
    prints the JSON of the event."""
    import json, subprocess, sys, time
    t0 = int(sys.argv[1]) / 1e9
    w4, w6, b4, b6, mb4, mb6 = map(int, sys.argv[2:8])
    pin, rdb, tmo = sys.argv[8], sys.argv[9], float(sys.argv[10])
    def kc(f):
        o = subprocess.run(["ip", f, "route", "show", "proto", "bgp"], capture_output=True, text=True).stdout
        return sum(1 for l in o.splitlines() if l and not l[0].isspace())
    def kern():
        return kc("-4"), kc("-6")
    def maps():
        c = lambda m: int(subprocess.run([rdb, "count", pin + "/" + m], capture_output=True, text=True).stdout)
        return c("rd_routes4") - mb4, c("rd_routes6") - mb6
    tk = tm = None
    polls = 0
    while time.time() - t0 < tmo and (tk is None or tm is None):
        polls += 1
        if tk is None and kern() == (w4, w6):
            tk = time.time() - t0
        if tm is None and maps() == (w4, w6):
            tm = time.time() - t0
            if tk is None and kern() == (w4, w6):
                tk = tm  # both reached within one poll
        if tk is None or tm is None:
            time.sleep(0.02)
    k, m = kern(), maps()
    print(json.dumps({"kernel_s": tk and round(tk, 3), "maps_s": tm and round(tm, 3),
                      "lag_s": round(tm - tk, 3) if tk is not None and tm is not None else None,
                      "kernel_v4": k[0], "kernel_v6": k[1], "maps_v4": m[0], "maps_v6": m[1],
                      "want_v4": w4, "want_v6": w6, "polls": polls,
                      "poll_mean_s": round((time.time() - t0) / max(polls, 1), 3)}))


def contents():
    """contents PIN: every injected prefix in the kernel (proto bgp) against the
    maps (rd_routes4/6 within the injector's ranges, each with its group's
    members: next hop and ifindex); prints {"differ":N,...}."""
    import ipaddress as ia, json, subprocess, sys
    pin = sys.argv[1]
    sh = lambda *a: json.loads(subprocess.run(a, check=True, capture_output=True, text=True).stdout)
    idx = {l["ifname"]: l["ifindex"] for l in sh("ip", "-j", "link")}
    def nh(m):
        if m["nh_family"] == 2:
            return str(ia.IPv4Address(m["nh_addr"][0].to_bytes(4, "little")))
        return str(ia.IPv6Address(b"".join(w.to_bytes(4, "little") for w in m["nh_addr"])))
    groups = {}
    for e in sh("bpftool", "-j", "map", "dump", "pinned", pin + "/rd_groups"):
        g = e["formatted"]["value"]
        groups[e["formatted"]["key"]] = sorted((nh(m), m["ifindex"]) for m in g["members"][: g["n_members"]])
    have = {}
    for m, fam, pre in (("rd_routes4", 4, ia.ip_network("20.0.0.0/7")), ("rd_routes6", 6, ia.ip_network("2001:db8::/32"))):
        for e in sh("bpftool", "-j", "map", "dump", "pinned", pin + "/" + m):
            k, v = e["formatted"]["key"], e["formatted"]["value"]
            a = ia.IPv4Address(k["addr"].to_bytes(4, "little")) if fam == 4 else ia.IPv6Address(bytes(k["addr"]))
            n = ia.ip_network(f"{a}/{k['prefixlen']}")
            if n.subnet_of(pre):
                have[str(n)] = groups.get(v["group_id"], "missing group")
    want = {}
    for f in ("-4", "-6"):
        for r in sh("ip", "-j", f, "route", "show", "proto", "bgp"):
            hops = r.get("nexthops") or [r]
            want[r["dst"]] = sorted((h["gateway"], idx[h["dev"]]) for h in hops)
    d = [n for n in set(want) | set(have) if want.get(n) != have.get(n)]
    print(json.dumps({"kernel": len(want), "maps": len(have), "differ": len(d), "first": sorted(d)[:3]}))


def usage():
    """usage PID: the peak RSS (VmHWM) and user/system CPU seconds of process PID,
    as JSON fields."""
    import sys
    p = sys.argv[1]
    hwm = [l.split()[1] for l in open(f"/proc/{p}/status") if l.startswith("VmHWM")][0]
    f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
    import os
    hz = os.sysconf("SC_CLK_TCK")
    print(f"\"vmhwm_kb\":{hwm},\"cpu_user_s\":{int(f[11]) / hz:.2f},\"cpu_sys_s\":{int(f[12]) / hz:.2f}")


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
