#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/sync_resilient.sh.

usage: sync_resilient.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def two_member():
    """two_member < DUMP: of the first group of two members with buckets of its
    own, "N_BUCKETS [SLOTS]"."""
    import json, sys
    for e in json.load(sys.stdin):
        v = e["formatted"]["value"]
        if v["n_members"] == 2 and v["bucket_src"] == 0:
            print(v["n_buckets"], sorted(set(v["buckets"][:v["n_buckets"]]))); break


def buckets():
    """buckets (env NHS, BUCKETS: ip -j nexthop JSON; OUTNH; T: a dir with the
    r4 and g map dumps): rocedp's group for 10.9.0.0/16 holds the kernel's
    resilient group bucket for bucket, and none on nexthop OUTNH. Prints
    "ok" or the buckets that differ."""
    import ipaddress, json, os, socket
    nhs = {n["id"]: n for n in json.loads(os.environ["NHS"])}
    kb = {b["bucket"]["index"]: b["bucket"]["nhid"] for b in json.loads(os.environ["BUCKETS"])}
    out = int(os.environ["OUTNH"])
    r4 = json.load(open(os.environ["T"] + "/r4"))
    gid = [e["formatted"]["value"]["group_id"] for e in r4
           if e["formatted"]["key"]["prefixlen"] == 16 and e["formatted"]["key"]["addr"] == 0x090a]
    g = {e["formatted"]["key"]: e["formatted"]["value"] for e in json.load(open(os.environ["T"] + "/g"))}
    if not gid or gid[0] not in g:
        print("no group for 10.9.0.0/16"); raise SystemExit
    v = g[gid[0]]
    def ifx(dev):
        return socket.if_nametoindex(dev)
    slot_nh = {}
    for s, m in enumerate(v["members"][:v["n_members"]]):
        gw = str(ipaddress.IPv4Address(m["nh_addr"][0].to_bytes(4, "little")))
        for i, n in nhs.items():
            if n.get("gateway") == gw:
                slot_nh[s] = i
    if v["n_buckets"] != len(kb) or v["bucket_src"] != 1:
        print("n_buckets %d src %d, kernel %d" % (v["n_buckets"], v["bucket_src"], len(kb))); raise SystemExit
    bad = []
    for b, nh in sorted(kb.items()):
        mine = slot_nh.get(v["buckets"][b], -1)
        if nh == out:
            if mine == out:
                bad.append("%d: still on %d" % (b, out))
        elif mine != nh:
            bad.append("%d: %d, kernel %d" % (b, mine, nh))
    print("ok" if not bad else " ".join(bad[:6]) + " (%d differ)" % len(bad))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
