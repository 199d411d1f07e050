#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write telemetry entries into pinned maps, as the dataplane would, for the
reader tests (tests/cli_qps.sh, tests/cli_top.sh): rd_qps (each QP in a free
way of its set, rocedp_qp_set_of; a full set spills into the next, which
the readers, walking every slot, still find), rd_port_stats,
rd_port_hwm, rd_port_flaps, rd_config.qp_stall_us. Layouts are those of
bpf/abi_telemetry.h; one `bpftool batch` run writes them all, so
thousands of QPs take about a second.

  qps_fill.py PIN_DIR [--qp K=V,...]... [--many N] [--port K=V,...]...
                      [--stall-us US]

--qp keys: src dst (IPv4 or IPv6) qp, and any rocedp_qp_stat field by its
name (pkts bytes gaps rewinds dups stalls cnps ce acks rtt_min_ns
rtt_ewma_ns rtt_samples flags in_ifindex out_ifindex, nak_psn_seq nak_rnr
nak_remote_access nak_remote_op nak_other), plus wait_us: an unacked
request that has waited that long now (CLOCK_MONOTONIC, the dataplane's
clock). --many N: N more QPs 10.1.x.y -> 10.2.x.y, bytes = index + 1.
--port keys: ifindex rx_pkts tx_pkts rx_bytes tx_bytes hwm downs ups flaps
(flaps=N records N down/up pairs a second apart ending now) rx_data
tx_data ... (rx_<class>/tx_<class>). Per-CPU values are written to every
CPU (bpftool replicates them), so a reader's sum is N_CPUS times the value.
"""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time

STAT_U64 = ("pkts bytes first_ns last_ns req_pkts gaps gap_psns rewinds dups "
            "resp_pkts resp_gaps resp_rewinds acks nak_psn_seq nak_rnr "
            "nak_remote_access nak_remote_op nak_other cnps ce rtt_min_ns "
            "rtt_ewma_ns rtt_samples unacked_ns stalls").split()
STAT_U32 = "next_psn resp_psn unacked_psn flags in_ifindex out_ifindex".split()
CLASSES = ("data ack nak cnp cts roce_other ip non_ip malformed uec uec_ack "
           "uec_nack").split()


def hexs(b):
    return " ".join("%02x" % x for x in b)


def addr(s):
    if ":" in s:
        return socket.AF_INET6, socket.inet_pton(socket.AF_INET6, s)
    return socket.AF_INET, socket.inet_pton(socket.AF_INET, s) + bytes(12)


def kv(spec):
    out = {}
    for part in spec.split(","):
        if part:
            k, _, v = part.partition("=")
            out[k] = v
    return out


def num(v):
    return int(v, 0)


def qp_entry(d, now):
    fam, src = addr(d.get("src", "10.0.0.1"))
    _, dst = addr(d.get("dst", "10.0.0.2"))
    key = src + dst + struct.pack("<IB3x", num(d.get("qp", "0x11")), fam)
    st = {k: 0 for k in STAT_U64 + STAT_U32}
    st["first_ns"] = now - 10 ** 9
    st["last_ns"] = now
    for k, v in d.items():
        if k in st:
            st[k] = num(v)
        elif k == "wait_us":
            st["unacked_ns"] = now - num(v) * 1000
        elif k not in ("src", "dst", "qp"):
            sys.exit("qps_fill: unknown QP field %r" % k)
    if not st["pkts"]:
        st["pkts"] = max(1, st["bytes"] // 1000)
    val = struct.pack("<25Q", *(st[k] for k in STAT_U64))
    val += struct.pack("<6I", *(st[k] for k in STAT_U32)) + bytes(16)
    assert len(key) == 40 and len(val) == 240
    return key, val


MAX_QPS, WAYS = 16384, 2
SETS = MAX_QPS // WAYS
M32 = 0xffffffff


def qp_set(key):
    """rocedp_qp_set_of (bpf/abi_telemetry.h) on a 40-byte rocedp_qp_key."""
    w = struct.unpack("<10I", key)
    a = w[0] ^ w[1] ^ w[2] ^ w[3]
    b = w[4] ^ w[5] ^ w[6] ^ w[7]
    h = ((a * 0x9e3779b1) ^ (b * 0x85ebca77) ^
         ((w[8] & 0xffffff) * 0x7feb352d)) & M32
    h ^= h >> 16
    h = (h * 0x85ebca6b) & M32
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & M32
    h ^= h >> 16
    return h & (SETS - 1)


def slots_now(pin, idxs):
    """The stored keys of slots idxs (one bpftool batch)."""
    if not idxs:
        return {}
    with tempfile.NamedTemporaryFile("w", suffix=".batch", delete=False) as f:
        for i in idxs:
            f.write("map lookup pinned %s/rd_qps key hex %s\n"
                    % (pin, hexs(struct.pack("<I", i))))
        name = f.name
    try:
        import json
        r = subprocess.run(["bpftool", "-j", "batch", "file", name],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("qps_fill: bpftool lookup: %s" % (r.stderr or r.stdout)[-400:])
    finally:
        os.unlink(name)
    out = {}
    for i, o in zip(idxs, json.loads(r.stdout)):
        out[i] = bytes(int(x, 16) for x in o["output"]["value"][:40])
    return out


def place(pin, entries):
    """Slot index for each (key, value): its own slot if the key is there,
    else a free way of its set (or of the sets after it)."""
    where, taken = {}, set()
    todo = [(k, v, qp_set(k)) for k, v in entries]
    for _ in range(64):
        if not todo:
            break
        idxs = sorted({s * WAYS + w for _, _, s in todo for w in range(WAYS)})
        now = slots_now(pin, [i for i in idxs if i not in taken])
        left = []
        for k, v, s in todo:
            ways = [s * WAYS + w for w in range(WAYS)]
            same = [i for i in ways if now.get(i) == k]
            free = [i for i in ways if i not in taken and now.get(i, b"x" * 40)[36] == 0]
            if same or free:
                i = (same or free)[0]
                taken.add(i)
                where[k] = (i, v)
            else:
                left.append((k, v, (s + 1) % SETS))
        todo = left
    if todo:
        sys.exit("qps_fill: no free slot for %d QPs" % len(todo))
    return where.values()


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    pin = args.pop(0)
    now = time.monotonic_ns()
    cmds, qps = [], []
    while args:
        opt = args.pop(0)
        if opt == "--qp":
            key, val = qp_entry(kv(args.pop(0)), now)
            qps.append((key, key + val + bytes(40)))
        elif opt == "--many":
            for i in range(num(args.pop(0))):
                d = {"src": "10.1.%d.%d" % (i >> 8 & 255, i & 255),
                     "dst": "10.2.%d.%d" % (i >> 8 & 255, i & 255),
                     "qp": str(0x100 + i), "bytes": str(i + 1)}
                key, val = qp_entry(d, now)
                qps.append((key, key + val + bytes(40)))
        elif opt == "--port":
            d = kv(args.pop(0))
            idx = num(d.pop("ifindex"))
            k = hexs(struct.pack("<I", idx))
            base = [num(d.pop(n, "0")) for n in
                    "rx_pkts rx_bytes tx_pkts tx_bytes ecn_marked "
                    "ecn_would_mark ecn_marked_bytes".split()]
            rx = [num(d.pop("rx_" + c, "0")) for c in CLASSES]
            tx = [num(d.pop("tx_" + c, "0")) for c in CLASSES]
            extra = [num(d.pop(n, "0")) for n in
                     "rx_mcast rx_bcast tx_roce_bytes".split()]
            ps = struct.pack("<%dQ" % (10 + 2 * len(CLASSES)),
                             *(base + rx + tx + extra))
            cmds.append("map update pinned %s/rd_port_stats key hex %s value hex %s"
                        % (pin, k, hexs(ps)))
            if "hwm" in d:
                cmds.append("map update pinned %s/rd_port_hwm key hex %s value hex %s"
                            % (pin, k, hexs(struct.pack("<Q", num(d.pop("hwm"))))))
            if "flaps" in d or "downs" in d:
                n = num(d.pop("flaps", "0"))
                downs = num(d.pop("downs", str(n)))
                ups = num(d.pop("ups", str(n)))
                real = time.time_ns()
                ring = [0] * 4
                for e in range(2 * n):  # events a second apart, newest now
                    ring[e % 4] = real - (2 * n - 1 - e) * 10 ** 9
                fl = struct.pack("<2Q4QII", downs, ups, *ring, 2 * n, 0)
                cmds.append("map update pinned %s/rd_port_flaps key hex %s value hex %s"
                            % (pin, k, hexs(fl)))
            if d:
                sys.exit("qps_fill: unknown port field(s) %s" % ",".join(d))
        elif opt == "--stall-us":
            # rocedp_config.qp_stall_us: the last u32 of the 64-byte config
            path = "%s/rd_config" % pin
            out = subprocess.run(["bpftool", "-j", "map", "lookup", "pinned",
                                  path, "key", "hex", "00", "00", "00", "00"],
                                 capture_output=True, text=True, check=True)
            import json
            raw = bytes(int(x, 16) for x in json.loads(out.stdout)["value"])
            raw = raw[:60] + struct.pack("<I", num(args.pop(0)))
            cmds.append("map update pinned %s key hex 00 00 00 00 value hex %s"
                        % (path, hexs(raw)))
        else:
            sys.exit("qps_fill: unknown option %r" % opt)
    for i, slot in place(pin, qps):
        cmds.append("map update pinned %s/rd_qps key hex %s value hex %s"
                    % (pin, hexs(struct.pack("<I", i)), hexs(slot)))
    with tempfile.NamedTemporaryFile("w", suffix=".batch", delete=False) as f:
        f.write("\n".join(cmds) + "\n")
        name = f.name
    try:
        r = subprocess.run(["bpftool", "batch", "file", name],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit("qps_fill: bpftool batch: %s" % (r.stderr or r.stdout)[-400:])
    finally:
        os.unlink(name)


if __name__ == "__main__":
    main()
