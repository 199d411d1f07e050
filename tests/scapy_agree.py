#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""
rocedp replay vs. scapy (and tshark) dissection, frame by frame.

A mixed RoCEv2 capture (ACK, every NAK code, RNR NAK, CNP, atomic ACK,
RC/UC/UD data, read responses, CTS-looking small sends, IPv6 and VLAN
variants, plain IP, ARP, malformed frames) is written with scapy, replayed
with `rocedp replay --in X --verdicts - --config tests/configs/cts.json`,
and for every frame the opcode, destination QP, PSN and class rocedp
reports must equal what scapy's own dissection says (the class derived from
scapy's fields and the IBTA opcode table; the CTS rules evaluated here from
the same JSON file); malformed frames must be classed malformed and never
redirected. tshark's InfiniBand dissector must agree on opcode/QP/PSN too.
Then `replay` on a missing file, a truncated capture and a non-pcap file
must print exactly one error line and exit non-zero.

Usage: scapy_agree.py [path/to/rocedp]   (root; from the top of the tree)
Output: TAP lines, then "N passed, M failed".
"""
import json
import logging
import os
import shutil
import struct
import subprocess
import sys
import tempfile

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import (Ether, Dot1Q, IP, IPv6, UDP, TCP, ARP, Raw, raw,
                       wrpcap, conf)
from scapy.contrib.roce import BTH, AETH, CNPPadding

conf.verb = 0
ROCEDP = sys.argv[1] if len(sys.argv) > 1 else "build/rocedp"
HERE = os.path.dirname(os.path.abspath(__file__))
CTS_CONFIG = os.path.join(HERE, "configs", "cts.json")

n_pass = n_fail = 0


def check(cond, what):
    global n_pass, n_fail
    if cond:
        n_pass += 1
        print("ok %d - %s" % (n_pass + n_fail, what))
    else:
        n_fail += 1
        print("not ok %d - %s" % (n_pass + n_fail, what))
    return cond


# ----------------------------------------------------------------- frames

SMAC, DMAC = "02:00:00:00:00:01", "02:00:00:00:00:02"


def icrc6(frame_wo_icrc_l4_offset):
    """IPv6 ICRC per the RoCEv2 recipe (scapy only does IPv4)."""
    import zlib
    f, off = frame_wo_icrc_l4_offset
    ip = bytearray(f[off:off + 40])
    ip[0] |= 0x0f
    ip[1:4] = b"\xff\xff\xff"
    ip[7] = 0xff
    udp = bytearray(f[off + 40:off + 48])
    udp[6:8] = b"\xff\xff"
    rest = bytearray(f[off + 48:-4])
    rest[4] = 0xff
    crc = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(rest))
    return struct.pack("<I", crc & 0xffffffff)


def roce(op, qp, psn, payload=b"", v6=False, vlan=None, sport=0xc123,
         src="10.0.0.1", dst="10.1.0.2"):
    l2 = Ether(src=SMAC, dst=DMAC)
    if vlan is not None:
        l2 = l2 / Dot1Q(vlan=vlan)
    ip = IPv6(src="2001:db8::1", dst="2001:db8:1::2") if v6 else \
        IP(src=src, dst=dst)
    p = l2 / ip / UDP(sport=sport, dport=4791) / \
        BTH(opcode=op, dqpn=qp, psn=psn, icrc=0 if v6 else None)
    if payload:
        p = p / Raw(payload)
    f = raw(p)
    if v6:
        off = 14 + (4 if vlan is not None else 0)
        p[BTH].icrc = int.from_bytes(icrc6((f, off)), "big")
        f = raw(p)
    return f


def aeth(syn, msn=7):
    return struct.pack("!I", syn << 24 | msn)


RETH = struct.pack("!QII", 0x1000, 0x42, 64)
DETH = struct.pack("!II", 0x1111, 0x22)


def build():
    """(frame, note, expect_malformed) in capture order."""
    fr = []
    psn = 0x10
    for i, syn in enumerate([0x00, 0x1f, 0x60, 0x61, 0x62, 0x63, 0x64,
                             0x20, 0x3f, 0x40]):
        fr.append((roce(0x11, 0x100 + i, psn + i, aeth(syn), v6=i % 3 == 1,
                        vlan=10 if i % 4 == 2 else None),
                   "acknowledge syndrome %#x" % syn, False))
    fr.append((roce(0x12, 0x200, 0x20, aeth(0) + bytes(8)), "atomic ack",
               False))
    fr.append((roce(0x12, 0x201, 0x21, aeth(0x62) + bytes(8), v6=True),
               "atomic ack carrying NAK", False))
    for i in range(4):
        fr.append((roce(0x81, 0x300 + i, 0, bytes(16), v6=i & 1,
                        sport=0 if i == 2 else 0xc000 + i),
                   "CNP%s" % (" sport 0" if i == 2 else ""), False))
    for i, (op, pl) in enumerate([(0x00, bytes(256)), (0x01, bytes(256)),
                                  (0x02, bytes(100)), (0x04, bytes(64)),
                                  (0x06, RETH + bytes(256)),
                                  (0x0a, RETH + bytes(8)),
                                  (0x0c, RETH), (0x0d, aeth(0) + bytes(64)),
                                  (0x0e, bytes(64)),
                                  (0x10, aeth(0) + bytes(12)),
                                  (0x24, bytes(40)),
                                  (0x64, DETH + bytes(32)),
                                  (0xa4, bytes(20))]):
        fr.append((roce(op, 0x400 + i, 0x1000 + i, pl, v6=i % 2 == 1),
                   "opcode %#x" % op, False))
    # CTS-looking small sends and near misses (rules in cts.json)
    for qp, n, op in [(0x120, 16, 0x04), (0x1ff, 64, 0x04), (0x150, 65, 0x04),
                      (0x150, 2000, 0x04), (0x300, 100, 0x0b),
                      (0x301, 100, 0x0b), (0x250, 8, 0x04)]:
        pl = (RETH + bytes(4) + bytes(max(0, n - 20))) if op == 0x0b \
            else bytes(n)
        fr.append((roce(op, qp, 0x50, pl), "cts-looking op %#x QP %#x %dB" %
                   (op, qp, len(pl)), False))
    fr.append((roce(0x04, 0x250, 0x51, bytes(16), v6=True),
               "cts-looking IPv6 send", False))
    # not RoCE
    fr.append((raw(Ether(src=SMAC, dst=DMAC) / IP(src="10.0.0.1",
                                                  dst="10.1.0.2") /
                   TCP(sport=1, dport=2)), "tcp", False))
    fr.append((raw(Ether(src=SMAC, dst=DMAC) / IP() / UDP(dport=53) /
                   Raw(bytes(20))), "udp 53", False))
    fr.append((raw(Ether(src=SMAC, dst="ff:ff:ff:ff:ff:ff") / ARP()), "arp",
               False))
    # malformed
    good = roce(0x11, 0x500, 0x60, aeth(0))
    f = bytearray(good)
    f[38:40] = struct.pack("!H", 200)
    fr.append((bytes(f), "bad udp length", True))
    fr.append((roce(0x11, 0x501, 0x61), "ACK without AETH", True))
    f = bytearray(roce(0x11, 0x502, 0x62, aeth(0)))
    f[43] |= 0x01
    fr.append((bytes(f), "BTH TVer 1", True))
    fr.append((good[:50], "cut inside the BTH", True))
    fr.append((roce(0x81, 0x503, 0, bytes(4)), "short CNP", True))
    f = bytearray(good)
    f[14] = 0x43
    fr.append((bytes(f), "IHL 3", True))
    return fr


# ----------------------------------------------------------------- model

DATA_RC = set(range(0x00, 0x11)) | {0x13, 0x14, 0x16, 0x17}


def is_data(op):
    t, fn = op >> 5, op & 0x1f
    if t in (0, 5):  # XRC uses RC's function codes
        return fn in DATA_RC
    if t == 1:
        return fn <= 0x0b
    if t == 3:
        return fn in (0x04, 0x05)
    return False


OPNAMES = {"send_only": 0x04, "rdma_write_only": 0x0a, "xrc_send_only": 0xa4}


def has_xrceth(op):
    """XRC requests carry a 4-byte XRCETH after the BTH (IBTA table 38)."""
    fn = op & 0x1f
    return op >> 5 == 5 and (fn <= 0x0c or fn in (0x13, 0x14, 0x16, 0x17))


def load_cts_rules():
    import ipaddress
    rules = []
    for r in json.load(open(CTS_CONFIG))["cts_rules"]:
        ops = {OPNAMES[o] if isinstance(o, str) else o for o in r["opcodes"]}
        qp = r["qp"]
        if isinstance(qp, str):
            lo, hi = (int(x, 0) for x in qp.split("-"))
        elif isinstance(qp, list):
            lo, hi = qp
        else:
            lo = hi = qp
        rules.append((ops, lo, hi, r["max_payload"],
                      ipaddress.ip_network(r["src"]) if "src" in r else None,
                      ipaddress.ip_network(r["dst"]) if "dst" in r else None))
    return rules


def expected_class(p, rules):
    """Class from scapy's dissection and the IBTA opcode table."""
    import ipaddress
    if not (p.haslayer(IP) or p.haslayer(IPv6)):
        return "non_ip"
    if not (p.haslayer(UDP) and p[UDP].dport == 4791 and p.haslayer(BTH)):
        return "ip"
    b = p[BTH]
    op = b.opcode
    if op == 0x81:
        return "cnp"
    if op in (0x11, 0x12, 0xb1, 0xb2):  # RC and XRC (atomic) acknowledge
        syn = raw(b.payload)[0]
        kind = (syn >> 5) & 3
        return {0: "ack", 1: "nak", 3: "nak"}.get(kind, "roce_other")
    if not is_data(op):
        return "roce_other"
    payload = p[UDP].len - 8 - 12 - 4 - (4 if has_xrceth(op) else 0)
    ip = p[IP] if p.haslayer(IP) else p[IPv6]
    src, dst = ipaddress.ip_address(ip.src), ipaddress.ip_address(ip.dst)
    for ops, lo, hi, mx, sn, dn in rules:
        if op not in ops or not lo <= b.dqpn <= hi or payload > mx:
            continue
        if sn is not None and (src.version != sn.version or src not in sn):
            continue
        if dn is not None and (dst.version != dn.version or dst not in dn):
            continue
        return "cts"
    return "data"


# ----------------------------------------------------------------- run


def replay(path, extra=()):
    cmd = [ROCEDP, "replay", "--in", path, "--verdicts", "-"] + list(extra)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


# tshark 4.0's short names of the InfiniBand payload heuristics, which
# would otherwise claim some RoCE payloads for RPC-over-RDMA, SMB Direct...
TSHARK_HEURISTICS_OFF = ("rpcrdma_infiniband", "smb_direct_infiniband",
                         "iser_infiniband", "lnet_ib", "smcr_infiniband",
                         "sdp_infiniband", "fc_infiniband", "eth_over_ib",
                         "nvme_rdma_cm_private")


def tshark_fields(path):
    """frame number -> (opcode, QP, PSN, AETH syndrome or None)."""
    if not shutil.which("tshark"):
        return None
    cmd = ["tshark", "-r", path, "-T", "fields", "-E", "separator=,",
           "-e", "frame.number", "-e", "infiniband.bth.opcode",
           "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn",
           "-e", "infiniband.aeth.syndrome"]
    for h in TSHARK_HEURISTICS_OFF:
        cmd += ["--disable-heuristic", h]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, "tshark dissects the capture (%s)" %
          (r.stderr.strip().splitlines() or ["ok"])[-1])
    rows = {}
    for line in r.stdout.splitlines():
        f = line.split(",")
        if len(f) >= 5 and f[1]:
            rows[int(f[0])] = (int(f[1], 0), int(f[2], 0), int(f[3], 0),
                               int(f[4], 0) if f[4] else None)
    return rows


def main():
    frames = build()
    rules = load_cts_rules()
    tmp = tempfile.mkdtemp(prefix="rd_agree.")
    try:
        pcap = os.path.join(tmp, "mixed.pcap")
        wrpcap(pcap, [Ether(f) for f, _, _ in frames])
        r = replay(pcap, ["--config", CTS_CONFIG])
        check(r.returncode == 0, "replay of %d frames exits 0 (%s)" %
              (len(frames), r.stderr.strip() or "no error"))
        verdicts = []
        for line in r.stdout.splitlines():
            try:
                verdicts.append(json.loads(line))
            except ValueError:
                pass
        check(len(verdicts) == len(frames), "one JSON verdict per frame "
              "(%d for %d)" % (len(verdicts), len(frames)))
        ts = tshark_fields(pcap)
        for i, (f, note, bad) in enumerate(frames):
            v = verdicts[i] if i < len(verdicts) else {}
            n = i + 1
            p = Ether(f)
            if bad:
                check(v.get("class") == "malformed" and
                      v.get("verdict") != "redirect",
                      "frame %d (%s): malformed, not redirected (got %s/%s)"
                      % (n, note, v.get("class"), v.get("verdict")))
                continue
            want = expected_class(p, rules)
            check(v.get("class") == want, "frame %d (%s): class %s (got %s)"
                  % (n, note, want, v.get("class")))
            check(v.get("frame") in (i, n), "frame %d: numbered %s" %
                  (n, v.get("frame")))
            if want in ("ip", "non_ip"):
                check("opcode" not in v, "frame %d (%s): no BTH fields" %
                      (n, note))
                continue
            b = p[BTH]
            got = (v.get("opcode"), v.get("dest_qp"), v.get("psn"))
            check(got == (b.opcode, b.dqpn, b.psn),
                  "frame %d (%s): opcode/QP/PSN %#x/%#x/%#x as scapy (got "
                  "%s)" % (n, note, b.opcode, b.dqpn, b.psn, got))
            if ts is not None:
                t = ts.get(n) or (None, None, None, None)
                check(t[:3] == (b.opcode, b.dqpn, b.psn),
                      "frame %d (%s): tshark's opcode/QP/PSN agree (%s)" %
                      (n, note, t[:3]))
            if ts is not None and b.opcode in (0x11, 0x12):
                syn = t[3]
                kind = None if syn is None else (syn >> 5) & 3
                tcls = {0: "ack", 1: "nak", 3: "nak"}.get(kind, "roce_other")
                check(v.get("class") == tcls,
                      "frame %d (%s): class %s as tshark's AETH syndrome "
                      "%s says" % (n, note, v.get("class"), syn))
        if ts is None:
            print("# tshark not installed: its cross-check skipped")

        # error paths: one clear line, non-zero exit
        missing = os.path.join(tmp, "missing.pcap")
        r = replay(missing)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        check(r.returncode != 0 and len(lines) == 1 and
              "missing.pcap" in lines[0],
              "replay --in missing.pcap: exit %d, one error line naming "
              "the file (%r)" % (r.returncode, lines))
        data = open(pcap, "rb").read()
        cut = os.path.join(tmp, "cut.pcap")
        open(cut, "wb").write(data[:len(data) - 7])
        r = replay(cut)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        check(r.returncode != 0 and len(lines) == 1,
              "replay of a capture cut inside its last record: exit %d, "
              "one error line (%r)" % (r.returncode, lines))
        hdr = os.path.join(tmp, "hdr.pcap")
        open(hdr, "wb").write(data[:20])
        r = replay(hdr)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        check(r.returncode != 0 and len(lines) == 1,
              "replay of a capture cut inside its file header: exit %d, "
              "one error line (%r)" % (r.returncode, lines))
        junk = os.path.join(tmp, "junk.pcap")
        open(junk, "wb").write(b"this is not a capture file\n" * 4)
        r = replay(junk)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        check(r.returncode != 0 and len(lines) == 1,
              "replay of a non-pcap file: exit %d, one error line (%r)" %
              (r.returncode, lines))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (n_pass, n_fail))
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
