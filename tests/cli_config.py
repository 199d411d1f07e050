#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The map checks of tests/cli_config.sh: what `rocedp config load/set` and
`qos set` must leave in the pinned maps, read back through bpftool.

usage: cli_config.py CHECK PIN_DIR [ARGS...]
  defaults PIN_DIR            rd_config and rd_qos hold the documented defaults
  leaf PIN_DIR IF1 IF2        docs/examples/leaf.json is in every map
  stale PIN_DIR IF1 IF2       a smaller config removed stale routes/groups
  live save PIN_DIR FILE      save the live view (config, CTS list, routes...)
  live check PIN_DIR OLD NEW GEN
                              the live view is whole and the old or the new one
  set PIN_DIR                 config set reached rd_config
  qos PIN_DIR                 qos set reached rd_qos
  devmap < DUMP               bpftool's rd_tx_ports dump: two ports, no egress prog
  qos_show < JSON             qos show -j lists the ten settable classes
  rules CPUS < JSON           qos rules -j: hits summed over CPUS
  variant SRC DST EXPR        write SRC's JSON, changed by Python EXPR on `d`,
                              to DST
An assertion failure exits non-zero with the values that differ.
"""
import json
import os
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "pylib"))
from rdmaps import by_key, dump, raw  # noqa: E402


def defaults(pin):
    c = dump(pin, "rd_config")[0]["formatted"]["value"]
    want = dict(features=0b1011, hash_mode=1, hash_seed=0, hash_flags=0,
                flowlet_rtt_us=22, flowlet_gap_min_us=2, flowlet_gap_max_us=2047,
                flowlet_flags=0, flowlet_choice=0, load_tau_us=10,
                rtt_ewma_shift=3,
                ecn_class_optout=(1 << 1) | (1 << 2) | (1 << 3) | (1 << 10) | (1 << 11),
                n_cts_rules=0)
    for k, v in want.items():
        assert c[k] == v, (k, c[k], v)
    q = by_key(dump(pin, "rd_qos"))
    dscp = {1: 46, 2: 46, 3: 48, 4: 46, 10: 46, 11: 46}  # ack nak cnp cts uec_ack uec_nack
    for cls in range(12):
        if cls in dscp:
            assert q[cls]["action"] == 1 and q[cls]["dscp"] == dscp[cls], (cls, q[cls])
        else:
            assert q[cls]["action"] == 0, (cls, q[cls])


def leaf(pin, if1, if2):
    if1, if2 = int(if1), int(if2)
    c = dump(pin, "rd_config")[0]["formatted"]["value"]
    assert c["features"] == 0xf and c["hash_mode"] == 3, c
    assert c["hash_seed"] == 3735928559 and c["flowlet_flags"] == 1, c
    assert c["n_cts_rules"] == 3, c
    # the first rule list goes into bank 1: bank 0 held the empty default list
    assert c["cts_live"] == 1 << 16 | 3, c
    slots = by_key(dump(pin, "rd_cts_rules"))
    assert len(slots) == 32, len(slots)
    r = {k - 16: v for k, v in slots.items() if k >= 16}
    r0 = r[0]
    assert r0["qp_min"] == 0x100 and r0["qp_max"] == 0x1ff and r0["max_payload"] == 64, r0
    assert r0["opcode_bitmap"][0] == (1 << 4) | (1 << 5), r0   # send_only(_imm)
    assert r0["flags"] == 2 and r0["dst_plen"] == 16, r0        # DST_PREFIX
    assert r[2]["flags"] == 7 and r[2]["opcode_bitmap"][0] == 1 << 0x24, r[2]
    g = by_key(dump(pin, "rd_groups"))
    assert sorted(g) == [1, 2], g.keys()
    g1 = g[1]
    assert g1["n_members"] == 2 and g1["n_active"] == 2 and g1["total_weight"] == 4, g1
    assert g1["n_buckets"] == 128 and \
        [g1["buckets"][:128].count(i) for i in (0, 1)] == [32, 96], g1["buckets"]
    for m in g1["members"][:2]:
        assert m["flags"] == 7, m    # UP | RESOLVED | STATIC
    assert g1["members"][0]["ifindex"] == if1 and g1["members"][1]["ifindex"] == if2
    assert g[2]["rtt_us"] == 40 and g[2]["members"][0]["nh_family"] == socket.AF_INET6
    assert g[2]["n_buckets"] == 64, g[2]["n_buckets"]
    r4 = {(e["formatted"]["key"]["prefixlen"], raw(e["key"][4:8])): e["formatted"]["value"]
          for e in dump(pin, "rd_routes4")}
    assert r4[(16, bytes([10, 1, 0, 0]))] == {"group_id": 1, "flags": 2}, r4
    assert r4[(24, bytes([10, 0, 0, 0]))]["flags"] == 3, r4      # LOCAL | STATIC
    assert len(dump(pin, "rd_routes6")) == 1
    tx = {int.from_bytes(raw(e["key"]), "little"): raw(e["value"])
          for e in dump(pin, "rd_tx_ports")}
    assert sorted(tx) == sorted([if1, if2]), tx
    for ifx, v in tx.items():
        assert int.from_bytes(v[:4], "little") == ifx, v
    p = by_key(dump(pin, "rd_port_cfg"))
    assert p[if2]["kmin_bytes"] == 409600 and p[if2]["ecn_profile"] == 2, p
    assert p[if2]["rate_bps"] == 100000 * 10**6, p


def stale(pin, if1, if2):
    if1, if2 = int(if1), int(if2)
    g = by_key(dump(pin, "rd_groups"))
    assert sorted(g) == [1, 3], sorted(g)
    r4 = sorted((e["formatted"]["key"]["prefixlen"], e["key"][4:6],
                 e["formatted"]["value"]["group_id"]) for e in dump(pin, "rd_routes4"))
    assert r4 == [(16, ["0x0a", "0x01"], 3), (16, ["0x0a", "0x04"], 1)], r4
    r6 = dump(pin, "rd_routes6")
    assert len(r6) == 1 and r6[0]["formatted"]["value"]["flags"] == 3, r6
    c = dump(pin, "rd_config")[0]["formatted"]["value"]
    assert c["n_cts_rules"] == 2 and c["hash_mode"] == 1, c
    # a changed list went to the other bank, slots past it cleared; bank 1
    # (leaf.json's three rules) stays as it was for frames still reading it
    assert c["cts_live"] == 0 << 16 | 2, c
    slots = by_key(dump(pin, "rd_cts_rules"))
    assert slots[1]["qp_min"] == 7 and slots[2]["qp_max"] == 0, slots
    assert slots[16]["qp_min"] == 0x100 and slots[18]["flags"] == 7, slots
    p = by_key(dump(pin, "rd_port_cfg"))
    assert p[if1]["kmin_bytes"] == 1000 and p[if1]["flags"] == 1, p
    assert p[if2] == {"rate_bps": 0, "kmin_bytes": 102400, "kmax_bytes": 409600,
                      "pmax_percent": 20, "ecn_profile": 0, "flags": 0,
                      "buffer_bytes": 0}, p
    s = by_key(dump(pin, "rd_port_state"))
    assert s[if1]["vq_bytes"] == 1500, s


def live(mode, pin, *args):
    """After a load killed mid-way: the live CTS list and rd_config are the
    old or the new ones, every route's group exists, every usable member's
    port is in the devmap."""
    def fv(m):
        return {json.dumps(e["formatted"]["key"], sort_keys=True): e["formatted"]["value"]
                for e in dump(pin, m)}
    c = dump(pin, "rd_config")[0]["formatted"]["value"]
    slots = by_key(dump(pin, "rd_cts_rules"))
    base = 16 * (c["cts_live"] >> 16 & 1)
    cts = [slots[base + i] for i in range(c["cts_live"] & 0xffff)]
    assert c["cts_live"] & 0xffff == c["n_cts_rules"], c
    c.pop("cts_live")
    groups = {int(k): v for k, v in fv("rd_groups").items()}
    devs = {int.from_bytes(raw(e["key"]), "little")
            for e in dump(pin, "rd_tx_ports")}   # no BTF: raw key bytes
    bad = []
    for m in ("rd_routes4", "rd_routes6"):
        for k, v in fv(m).items():
            if not v["flags"] & 1 and v["group_id"] not in groups:   # not LOCAL
                bad.append("%s %s: group %d missing" % (m, k, v["group_id"]))
    for gid, g in groups.items():
        for m in g["members"][:g["n_members"]]:
            if m["flags"] & 3 == 3 and m["weight"] and m["ifindex"] not in devs:
                bad.append("group %d: member port %d not in rd_tx_ports" % (gid, m["ifindex"]))
    view = {"config": c, "cts": cts, "qos": fv("rd_qos"), "routes4": fv("rd_routes4"),
            "routes6": fv("rd_routes6"), "groups": fv("rd_groups")}
    if mode == "save":
        json.dump(view, open(args[0], "w"))
        return 0
    old, new = json.load(open(args[0])), json.load(open(args[1]))
    view = json.loads(json.dumps(view))
    for part in ("config", "cts"):
        if view[part] not in (old[part], new[part]):
            bad.append("%s is neither the old nor the new one: %s" % (part, view[part]))
    print("; ".join(bad))
    return 1 if bad else 0


def set_(pin):
    c = dump(pin, "rd_config")[0]["formatted"]["value"]
    assert (c["hash_mode"], c["hash_seed"], c["flowlet_flags"], c["features"]) == (1, 7, 1, 3), c
    assert c["n_cts_rules"] == 2, c


def qos(pin):
    q = by_key(dump(pin, "rd_qos"))
    assert q[3] == {"action": 1, "dscp": 40, "set_pcp": 1, "pcp": 5}, q[3]
    assert q[0]["action"] == 0, q[0]


def devmap():
    v = [raw(e["value"]) for e in json.load(sys.stdin)]
    assert len(v) == 2 and all(int.from_bytes(x[4:8], "little") == 0 for x in v), v


def qos_show():
    d = json.load(sys.stdin)
    names = [c["class"] for c in d["classes"]]
    assert names == ["data", "ack", "nak", "cnp", "cts", "roce_other", "ip",
                     "uec", "uec_ack", "uec_nack"], names
    cnp = d["classes"][3]
    assert cnp["dscp"] == 40 and cnp["pcp"] == 5, cnp


def rules(cpus):
    r = json.load(sys.stdin)["rules"]
    assert len(r) == 2, r
    assert r[0]["hits"] == 0 and r[1]["hits"] == 7 * int(cpus), r
    assert r[1]["qp"] == [7, 7] and r[0]["name"] == "write-cts", r


def variant(src, dst, expr):
    d = json.load(open(src))
    exec(expr, {"d": d})
    json.dump(d, open(dst, "w"))


CHECKS = {"defaults": defaults, "leaf": leaf, "stale": stale, "live": live,
          "set": set_, "qos": qos, "devmap": devmap, "qos_show": qos_show,
          "rules": rules, "variant": variant}


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in CHECKS:
        sys.exit(__doc__)
    sys.exit(CHECKS[sys.argv[1]](*sys.argv[2:]) or 0)
