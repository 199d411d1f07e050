# SPDX-License-Identifier: GPL-2.0
"""A model of the dataplane's flow hash and member choice, written from
bpf/hash.h, bpf/member.h and userspace/lib/fib/buckets.c."""

import struct

from .frames import *  # noqa: F401,F403 (the model, as one namespace)


# ------------------------------------------------------------------ hash model
# bpf/hash.h: every hashed word in host order (addresses as big-endian u32
# of their network bytes) times its own odd constant, xor-folded with the
# seed: the address words, the L4 protocol, sport << 16 | dport unless
# qp-only, the BTH destination QP unless 5tuple; then MurmurHash3's
# finaliser. Member: bucket (hash * n_buckets) >> 32 of the group's bucket
# table, built as userspace/lib/fib/buckets.c does (pick_member below).

M32 = 0xffffffff
K_SRC = (0x9e3779b1, 0xc2b2ae3d, 0x165667b1, 0xfd7046c5)
K_DST = (0x85ebca77, 0x27d4eb2f, 0xd3a2646d, 0xb55a4f09)
K_PROTO, K_PORTS, K_QP = 0x2c1b3c6d, 0x297a2d39, 0x7feb352d


def _hfinal(h):
    h ^= h >> 16
    h = (h * 0x85ebca6b) & M32
    h ^= h >> 13
    h = (h * 0xc2b2ae35) & M32
    h ^= h >> 16
    return h


def flow_hash(frame, mode, seed):
    p = Ether(frame)
    if p.haslayer(IP):
        ip = p[IP]
        a = [int.from_bytes(bytes(map(int, ip.src.split("."))), "big")]
        b = [int.from_bytes(bytes(map(int, ip.dst.split("."))), "big")]
        proto = ip.proto
    else:
        import socket
        ip = p[IPv6]
        sa = socket.inet_pton(socket.AF_INET6, ip.src)
        da = socket.inet_pton(socket.AF_INET6, ip.dst)
        a = [int.from_bytes(sa[i:i + 4], "big") for i in range(0, 16, 4)]
        b = [int.from_bytes(da[i:i + 4], "big") for i in range(0, 16, 4)]
        # the upper layer after any extension headers
        proto = 17 if p.haslayer(UDP) else 6 if p.haslayer(TCP) else ip.nh
    sport = dport = 0
    is_roce = False
    qp = 0
    if p.haslayer(UDP):
        sport, dport = p[UDP].sport, p[UDP].dport
        if dport == ROCE_PORT and p.haslayer(BTH):
            is_roce = True
            qp = p[BTH].dqpn
    elif p.haslayer(TCP):
        sport, dport = p[TCP].sport, p[TCP].dport
    use_qp = is_roce and mode != "5tuple"
    use_ports = (not is_roce) or mode in ("5tuple", "qp")
    h = seed
    for i, (x, y) in enumerate(zip(a, b)):
        h ^= (x * K_SRC[i]) & M32
        h ^= (y * K_DST[i]) & M32
    h ^= (proto * K_PROTO) & M32
    if use_ports:
        h ^= (((sport << 16) | dport) * K_PORTS) & M32
    if use_qp:
        h ^= (qp * K_QP) & M32
    return _hfinal(h)


M64 = (1 << 64) - 1
NO_BUCKET = 0xff


def bucket_score(b, slot):
    # userspace/lib/fib/buckets.c rd_bucket_score: splitmix64 of bucket << 8 | slot
    z = (((b << 8) | slot) + 0x9e3779b97f4a7c15) & M64
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


def bucket_quotas(w, nb):
    # largest remainder; ties to the lower slot
    total = sum(w)
    if not total:
        return [0] * len(w)
    t = [nb * x // total for x in w]
    rem = [nb * x % total for x in w]
    order = sorted((i for i in range(len(w)) if w[i]),
                   key=lambda i: (-rem[i], i))
    for i in order[:nb - sum(t)]:
        t[i] += 1
    return t


def bucket_overlay(base, w):
    # each member keeps its best-scoring buckets up to its quota; the rest
    # go, in bucket order, to the best-scoring member with room
    nb, t = len(base), bucket_quotas(w, len(base))
    out, d = [NO_BUCKET] * nb, [0] * len(w)
    for i, wi in enumerate(w):
        if not wi:
            continue
        own = sorted((b for b in range(nb) if base[b] == i),
                     key=lambda b: -bucket_score(b, i))[:t[i]]
        for b in own:
            out[b] = i
        d[i] = t[i] - len(own)
    for b in range(nb):
        if out[b] != NO_BUCKET:
            continue
        cand = [i for i in range(len(w)) if w[i] and d[i] > 0]
        if not cand:
            break
        best = max(cand, key=lambda i: bucket_score(b, i))
        out[b] = best
        d[best] -= 1
    return out


def bucket_table(weights, usable=None, nb=128):
    # userspace/lib/fib/buckets.c rd_buckets_build: equal shares, weights, states
    n = len(weights)
    usable = usable or [True] * n
    e = bucket_overlay([NO_BUCKET] * nb, [1] * n)
    w = list(weights)
    a = bucket_overlay(e, w)
    for i in range(n):  # members that are down leave in slot order
        if w[i] and not usable[i]:
            w[i] = 0
            a = bucket_overlay(a, w)
    return a


def pick_member(h, weights, nb=128):
    slot = bucket_table(tuple(weights), nb=nb)[(h * nb) >> 32]
    assert slot != NO_BUCKET, "no member"
    return slot
