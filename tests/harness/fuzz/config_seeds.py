#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds for the config fuzzer: each config given, with its devices
replaced by ifindex numbers (the offline engine models ports, so the
documents load on any machine), written compact and pretty, plus a few
small documents that reach each section alone.

usage: config_seeds.py OUTDIR CONFIG.json...
"""
import json
import os
import sys


def offline(d):
    names = {}

    def idx(name):
        return names.setdefault(name, str(2 + len(names)))

    ports = d.get("ecn", {}).get("ports")
    if isinstance(ports, dict):
        d["ecn"]["ports"] = {(k if k.isdigit() else idx(k)): v for k, v in ports.items()}
    for g in d.get("groups", []):
        for m in g.get("members", []):
            if "dev" in m and not str(m["dev"]).isdigit():
                m["dev"] = idx(m["dev"])
    return d


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    docs = [offline(json.load(open(p))) for p in sys.argv[2:]]
    docs += [{}, {"features": []}, {"hash": {"mode": "qp"}},
             {"qos": {"cnp": {"dscp": 48, "pcp": 6}}},
             {"cts_rules": [{"opcodes": [4], "qp": 7}]},
             {"ecn": {"ports": {"3": {"kmin_bytes": 1000, "kmax_bytes": 2000,
                                      "hold_queue_bytes": 1500}}}},
             {"groups": [{"id": 3, "members": [{"ifindex": 4, "dmac": "02:00:00:00:00:09"}]}],
              "routes": [{"prefix": "10.4.0.0/16", "group": 3},
                         {"prefix": "2001:db8:4::/48", "local": True}]}]
    for i, d in enumerate(docs):
        for style, kw in (("c", {"separators": (",", ":")}), ("p", {"indent": 1})):
            with open(os.path.join(out, "cfg-%02d%s.json" % (i, style)), "w") as f:
                json.dump(d, f, **kw)


main()
