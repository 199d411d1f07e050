#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The routes in rocedp's maps (rd_routes4/6 under PIN) that the kernel of
netns NS has not, for tests/harness/fuzz/nl_socket.sh: after any netlink
input, the maps hold nothing the kernel does not.

usage: nl_socket.py NS PIN
Prints a summary; exit 1 when the maps hold a route the kernel has not.
"""
import ipaddress, json, subprocess, sys
ns, pin = sys.argv[1], sys.argv[2]
def sh(*a):
    return subprocess.run(a, check=True, capture_output=True, text=True).stdout
kernel = set()
for fam in ("-4", "-6"):
    for r in json.loads(sh("ip", "-n", ns, "-j", fam, "route", "show", "table", "all")):
        dst = r["dst"]
        if dst == "default":
            dst = "0.0.0.0/0" if fam == "-4" else "::/0"
        kernel.add(ipaddress.ip_network(dst, strict=False))
have = []
for m, n in (("rd_routes4", 4), ("rd_routes6", 16)):
    for e in json.loads(sh("bpftool", "-j", "map", "dump", "pinned", pin + "/" + m)):
        k = e["formatted"]["key"]
        a = k["addr"]
        b = a.to_bytes(4, "little") if n == 4 else bytes((x if isinstance(x, int) else int(x, 0)) & 0xff for x in a)
        have.append(ipaddress.ip_network((b, k["prefixlen"]), strict=False))
bad = [str(h) for h in have if h not in kernel]
print(f"{len(have)} routes in the maps, {len(bad)} the kernel has not" + (": " + " ".join(bad[:5]) if bad else ""))
sys.exit(1 if bad else 0)
