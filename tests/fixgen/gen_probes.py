# SPDX-License-Identifier: GPL-2.0
"""Fixtures: path-quality probes (docs/paths.md). The authenticator is
SipHash-2-4 written out here from the paper, independent of
bpf/probe_auth.h, so the two cross-check."""

import struct

from .gen_fwd import *  # noqa: F401,F403 (the model, as one namespace)

PROBE_PORT = 47000
KEY_HEX = "000102030405060708090a0b0c0d0e0f"  # the SipHash paper's key
NOW = 1000000000  # the runner's default clock
M64 = (1 << 64) - 1


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & M64


def siphash24(key, msg):
    """SipHash-2-4 (Aumasson, Bernstein 2012) of msg under 16-byte key."""
    k0, k1 = struct.unpack("<QQ", key)
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]

    def rnd():
        v[0] = (v[0] + v[1]) & M64
        v[1] = _rotl(v[1], 13) ^ v[0]
        v[0] = _rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & M64
        v[3] = _rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & M64
        v[3] = _rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & M64
        v[1] = _rotl(v[1], 17) ^ v[2]
        v[2] = _rotl(v[2], 32)

    n = len(msg)
    tail = msg[n - n % 8:] + bytes(8 - n % 8)
    words = [struct.unpack("<Q", msg[i:i + 8])[0]
             for i in range(0, n - n % 8, 8)]
    words.append(struct.unpack("<Q", tail[:7] + bytes([n & 0xff]))[0])
    for m in words:
        v[3] ^= m
        rnd()
        rnd()
        v[0] ^= m
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


# the paper's test vector: 15 bytes 00..0e under key 00..0f
assert siphash24(bytes(range(16)), bytes(range(15))) == 0xa129ca6149be45e5

KEY = bytes.fromhex(KEY_HEX)


def probe_payload(origin=2, seq=100, ts=NOW - 10000, band=2, hops=0,
                  key=KEY, magic=0x5250, version=1):
    head = struct.pack(">HBBBBHIIQ", magic, version, hops, band, 0, origin,
                       seq, 0, ts)
    return head + struct.pack("<Q", siphash24(key, head))


def probe(tos=0, ttl=64, dst="10.1.0.2", opts=None, **kw):
    ipkw = {"options": opts} if opts else {}
    return raw(l2() / ip_layer(tos=tos, ttl=ttl, dst=dst, **ipkw) /
               UDP(sport=PROBE_PORT, dport=PROBE_PORT) /
               Raw(probe_payload(**kw)))


LEAF = ("role leaf leaf-id 1 key %s timeout-us 50000 interval-us 500"
        % KEY_HEX)
SPINE = ("role spine leaf-id 0 key %s timeout-us 50000 interval-us 500"
         % KEY_HEX)


def dropped(F, name, frame, desc, outcome, setup=LEAF, port="fabric",
            hook="both", ifindex=3, config="probe.json", **extra):
    exp = {"verdict": "drop", "class": "ip", "malformed": "none",
           "pass": "none", "member": "none", "egress": "none",
           "out": "same", "probe": outcome}
    exp.update(extra)
    fx(F, name, frame, desc, config=config, hook=hook,
       ifindex=ifindex, probe_set=setup, probe_port=port, **exp)


def gen_probes():
    F = "probes.fix"
    # a leaf: state carries from one block to the next (one engine), so
    # the sequence below is an order, run on the XDP hook, then on tc
    dropped(F, "probe_leaf_valid", probe(seq=100, band=2),
            "leaf 1 takes leaf 2's probe on uplink 3: band max(own 1, 2)",
            "accepted", hook="xdp", probe_band=1, pathq="2 3 2 100")
    dropped(F, "probe_leaf_replay", probe(seq=100, band=0),
            "the same sequence again: replayed, the entry unchanged",
            "replay", hook="xdp", pathq="2 3 2 100")
    dropped(F, "probe_leaf_older", probe(seq=99, band=0),
            "an older sequence: replayed", "replay", hook="xdp",
            pathq="2 3 2 100")
    dropped(F, "probe_leaf_own_worse", probe(seq=101, band=1),
            "the next probe, this leaf's uplink at band 5: the path is 5",
            "accepted", hook="tc", probe_band=5, pathq="2 3 5 101")
    dropped(F, "probe_leaf_other_uplink", probe(seq=7, band=6),
            "uplink 2 keeps an entry of its own (sequence per uplink)",
            "accepted", hook="tc", ifindex=2, pathq="2 2 6 7")
    dropped(F, "probe_stale", probe(seq=500, ts=NOW - 60000000),
            "sent 60 ms ago, timeout 50 ms: stale, nothing taken", "stale",
            pathq="2 3 5 101")
    dropped(F, "probe_future", probe(seq=501, ts=NOW + 60000000),
            "stamped 60 ms ahead of this clock: stale too", "stale")
    dropped(F, "probe_spoofed", probe(seq=600, band=0, key=bytes(16)),
            "authenticated under another key: refused, entry unchanged",
            "bad_auth", pathq="2 3 5 101")
    good = bytearray(probe(seq=601, band=0))
    good[-9] ^= 0x01  # the timestamp's low byte, after signing
    dropped(F, "probe_tampered", bytes(good),
            "a field changed after authentication: refused", "bad_auth")
    dropped(F, "probe_host_port", probe(seq=700),
            "a valid probe on a host port: dropped, counted, not taken",
            "host_port", port="host", ifindex=4)
    dropped(F, "probe_unset_port", probe(seq=701),
            "a port with no probe role is a host port", "host_port",
            port="none", ifindex=5)
    dropped(F, "probe_self", probe(origin=1, seq=800),
            "leaf 1's own probe back: dropped", "self")
    dropped(F, "probe_hops", probe(seq=900, hops=4),
            "four hops already (max-hops 4): dropped", "hops")
    dropped(F, "probe_short", raw(l2() / ip_layer() /
                                  UDP(sport=PROBE_PORT, dport=PROBE_PORT) /
                                  Raw(probe_payload()[:20])),
            "20 bytes of a 32-byte probe: malformed", "malformed")
    dropped(F, "probe_bad_magic", probe(magic=0x5251),
            "not the probe magic: malformed", "malformed")
    dropped(F, "probe_bad_version", probe(version=2),
            "version 2: malformed", "malformed")
    dropped(F, "probe_ip_options", probe(opts=[IPOption_RR()]),
            "IPv4 options: malformed", "malformed")
    dropped(F, "probe_v6", raw(l2() / ip_layer(v6=True) /
                               UDP(sport=PROBE_PORT, dport=PROBE_PORT) /
                               Raw(probe_payload())),
            "IPv6 probes are not supported: dropped as malformed",
            "malformed")
    # a spine: stamps the band of the port it came in on, routes it on
    fin = probe(seq=42, band=2, tos=0)
    st = probe(seq=42, band=5, hops=1, tos=48 << 2)
    p = Ether(st)
    p[UDP].chksum = 0
    stamped = raw(p)
    slot, ifx, out = fwd_out(stamped, FWD_MEMBERS, [1, 1, 1, 1], "qp",
                             FWD_SEED)
    exp = {"verdict": "redirect", "class": "ip", "malformed": "none",
           "pass": "none", "dscp_in": 48, "dscp_out": 48, "member": slot,
           "egress": ifx, "out": out, "ipcsum": "valid",
           "probe": "forwarded"}
    fx(F, "probe_spine_stamp", fin,
       "a spine stamps band 5 (its port 3), one hop, a new authenticator, "
       "DSCP 48 (dscp_in is after the probe step), and routes it",
       config="probe.json", ifindex=3, probe_set=SPINE, probe_port="fabric",
       probe_band=5, **exp)
    fin = probe(seq=43, band=6, hops=1)
    st = probe(seq=43, band=6, hops=2, tos=48 << 2)
    p = Ether(st)
    p[UDP].chksum = 0
    slot, ifx, out = fwd_out(raw(p), FWD_MEMBERS, [1, 1, 1, 1], "qp",
                             FWD_SEED)
    exp.update({"member": slot, "egress": ifx, "out": out})
    fx(F, "probe_spine_keeps_worse", fin,
       "the probe's band 6 is worse than the port's 1: it stays 6",
       config="probe.json", ifindex=3, probe_set=SPINE, probe_port="fabric",
       probe_band=1, **exp)
    dropped(F, "probe_spine_spoofed", probe(seq=44, key=bytes(16)),
            "a spine refuses a spoofed probe too: never routed",
            "bad_auth", setup=SPINE)
    # class ip remarked (DSCP 10): what a switch drops leaves as it came
    dropped(F, "probe_leaf_taken_unremarked", probe(seq=46),
            "class ip is remarked to DSCP 10 here: a probe the leaf takes "
            "is dropped unchanged", "accepted", config="probe_qos.json",
            hook="xdp")
    dropped(F, "probe_host_port_unremarked", probe(seq=47),
            "and one refused on a host port too", "host_port",
            config="probe_qos.json", port="host")
    # steering: leaf 1 learns leaf 2's paths over uplinks 2, 3 and 5 (bands
    # 6, 6, 2; none over 4), then each new flow to leaf 2 takes uplink 5
    steer = LEAF + " steer on"
    leafmap = "10.1.0.0/16 2"
    for ifx, band, seq in ((2, 6, 10), (3, 6, 11), (5, 2, 12)):
        dropped(F, "probe_steer_learn_%d" % ifx, probe(seq=seq, band=band),
                "steering leaf: leaf 2 via uplink %d at band %d" % (ifx, band),
                "accepted", setup=steer, config="probe_steer.json",
                hook="xdp", ifindex=ifx, probe_leaf=leafmap,
                pathq="2 %d %d %d" % (ifx, band, seq))
    ifx, smac, dmac = FWD_MEMBERS[3]
    for i, qp in enumerate((0x901, 0x902, 0x903, 0x904)):
        f = roce(0x0a, qp=qp, payload=RETH + bytes(64))
        fx(F, "probe_steer_flow_%d" % i, f,
           "a new flow (QP %#x) to leaf 2 takes the best path: uplink 5, "
           "band 2 (4 has no entry: failed; 2 and 3 at 6)" % qp,
           config="probe_steer.json", hook="xdp", probe_set=steer,
           probe_leaf=leafmap, verdict="redirect", **{
               "class": "data", "pass": "none", "member": 3, "egress": ifx,
               "out": expect(f, fwd=(smac, dmac)), "probe": "steered"})
    f = roce(0x0a, qp=0x905, payload=RETH + bytes(64))
    fx(F, "probe_steer_all_failed", f,
       "60 ms later every entry has timed out: the flow still goes out "
       "(by load alone among equally failed paths)",
       config="probe_steer.json", hook="xdp", probe_set=steer,
       probe_leaf=leafmap, time_ns=NOW + 60000000, verdict="redirect",
       **{"class": "data", "pass": "none", "probe": "steered"})
    f = roce(0x0a, qp=0x906, payload=RETH + bytes(64))
    fx(F, "probe_steer_off", f,
       "steer off: the choice reads no path quality (nothing counted)",
       config="probe_steer.json", hook="xdp", probe_set=LEAF,
       probe_leaf=leafmap, verdict="redirect",
       **{"class": "data", "pass": "none", "probe": "none"})
    # probes off: a frame to the probe port is plain UDP, as before
    f = probe(seq=45)
    slot, ifx, out = fwd_out(f, FWD_MEMBERS, [1, 1, 1, 1], "qp", FWD_SEED)
    fx(F, "probe_off", f, "role none: plain UDP, routed unchanged",
       config="probe.json", ifindex=3, probe_set="role none",
       probe_port="fabric", verdict="redirect", **{
           "class": "ip", "pass": "none", "member": slot, "egress": ifx,
           "out": out, "probe": "none"})
