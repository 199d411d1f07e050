#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Helpers for faults.sh: map/kernel comparison, member polling, counters,
# route churn. Run as: faults_ft.py PREFIX CMD ARGS... (faults.sh: ft)
import ipaddress, json, os, random, subprocess, sys, time
from kernel_fib import kernel_routes4

prefix, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
SPINES = 4


def sh(*a):
    return subprocess.run(a, check=True, capture_output=True, text=True).stdout


def leaf(*a):
    # plain `ip netns exec`, as the lab runs it (`rocedp-lab exec` costs
    # ~50 ms a call more)
    return sh("ip", "netns", "exec", f"{prefix}-leaf1", *a)


_pin = []


def pinned(name):
    """leaf1's map NAME: its pin directory is the netns's own on the host's
    bpffs (docs/netns.md), as `rocedp status -j` names it"""
    if not _pin:
        _pin.append(json.loads(leaf(os.environ["ROCEDP"], "-j", "status"))["pin_dir"])
    return f"{_pin[0]}/{name}"


def rd_stats():
    return json.loads(leaf(os.environ["ROCEDP"], "-j", "stats"))


def links():
    return {l["ifname"]: l["ifindex"] for l in json.loads(sh("ip", "-n", f"{prefix}-leaf1", "-j", "link"))}


def u32_ip(v):  # a network-order address read as a little-endian u32
    return str(ipaddress.IPv4Address(v.to_bytes(4, "little")))


def fib_diff():
    """Differences between leaf1's kernel tables (main + local) and rocedp's
    rd_routes4/rd_groups, as a list of strings (empty: equal)."""
    want = kernel_routes4(f"{prefix}-leaf1")
    groups = {}
    for e in json.loads(leaf("bpftool", "-j", "map", "dump", "pinned", pinned("rd_groups"))):
        g = e["formatted"]["value"]
        groups[e["formatted"]["key"]] = tuple(sorted(
            (u32_ip(m["nh_addr"][0]), m["ifindex"], m["weight"]) for m in g["members"][: g["n_members"]]))
    have, used = {}, set()
    for e in json.loads(leaf("bpftool", "-j", "map", "dump", "pinned", pinned("rd_routes4"))):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        if v["flags"] & 2:  # static, from a config file
            continue
        net = f"{u32_ip(k['addr'])}/{k['prefixlen']}"
        if v["flags"] & 1:
            have[net] = "LOCAL"
        else:
            used.add(v["group_id"])
            have[net] = groups.get(v["group_id"], f"missing group {v['group_id']}")
    d = []
    for n in sorted(set(want) | set(have)):
        if want.get(n) != have.get(n):
            d.append(f"{n}: kernel {want.get(n)} map {have.get(n)}")
    for g in sorted(set(groups) - used):
        d.append(f"group {g} in the map but no route uses it")
    return d, len(want)


def member(ifname, idx):
    """(flags, dmac) of the ifname member in leaf1's groups (the lab's one)"""
    for e in json.loads(leaf("bpftool", "-j", "map", "dump", "pinned", pinned("rd_groups"))):
        g = e["formatted"]["value"]
        for m in g["members"][: g["n_members"]]:
            if m["ifindex"] == idx[ifname]:
                return m["flags"], ":".join(f"{b:02x}" for b in m["dmac"])
    return None, None


def start(t0, cmd):
    """the time measured from: T0 (ns) given, or now, just before CMD runs"""
    t = time.time_ns() if t0 == "now" else int(t0)
    if cmd:
        subprocess.run(cmd, check=True)
    return t


def port_tx(stats):
    return {p["name"]: p["tx_pkts"] for p in stats["ports"] if "name" in p}


def spine_rx(s):
    j = json.loads(sh("ip", "-n", f"{prefix}-spine{s}", "-s", "-j", "link", "show", "dev", "leaf1"))
    return j[0]["stats64"]["rx"]["packets"]


def snap():
    st = rd_stats()
    return {"tx": port_tx(st), "spine": {f"spine{s}": spine_rx(s) for s in range(1, SPINES + 1)},
            "ctr": st["counters"]}


if cmd == "fib-check":
    d, n = fib_diff()
    print(f"{n} kernel routes; " + ("maps equal the kernel" if not d else f"{len(d)} differ: " + "; ".join(d[:5])))
    sys.exit(1 if d else 0)

elif cmd == "wait-fib":  # T0_NS TIMEOUT_S: ms from T0 until maps == kernel
    t0, tmo = int(args[0]), float(args[1])
    while True:
        d, n = fib_diff()
        t = time.time_ns()
        if not d:
            print(f"{(t - t0) / 1e6:.0f}")
            sys.exit(0)
        if t - t0 > tmo * 1e9:
            print(f"timeout; {len(d)} differ: " + "; ".join(d[:5]))
            sys.exit(1)
        time.sleep(0.02)

elif cmd == "wait-member":  # IFNAME in|in,carry|out|dmac=MAC T0_NS|now TIMEOUT_S [CMD...]
    # ms from T0 (or from just before CMD) until the member is in, out, or
    # has that MAC (in,carry: then also until rocedp sends on it; two
    # numbers); polls every ~5 ms
    ifname, want, tmo = args[0], args[1], float(args[3])
    idx = links()
    base = port_tx(rd_stats()).get(ifname, 0)
    t0 = start(args[2], args[4:])
    while True:
        fl, dmac = member(ifname, idx)
        t = time.time_ns()
        if want in ("in", "in,carry"):
            ok = fl is not None and fl & 3 == 3
        elif want == "out":
            ok = fl is not None and fl & 3 != 3
        else:
            ok = dmac == want[5:]
        if ok:
            break
        if t - t0 > tmo * 1e9:
            print(f"timeout (flags {fl}, dmac {dmac})")
            sys.exit(1)
        time.sleep(0.001)
    res = f"{(t - t0) / 1e6:.1f}"
    while want == "in,carry":  # then until rocedp sends on it again
        n = port_tx(rd_stats()).get(ifname, 0)
        t = time.time_ns()
        if n > base:
            res += f" {(t - t0) / 1e6:.1f}"
            break
        if t - t0 > tmo * 1e9:
            print(f"{res} timeout")
            sys.exit(1)
        time.sleep(0.001)
    print(res)
    sys.exit(0)

elif cmd == "snap":  # FILE
    json.dump(snap(), open(args[0], "w"))

elif cmd in ("window", "until-fwd"):
    # window A B MIN_S MIN_FWD TIMEOUT_S: snapshot A, then B once MIN_S
    # passed and rocedp forwarded MIN_FWD more packets; until-fwd A B MIN_FWD
    # TIMEOUT_S: the same from snapshot A taken before. A window is sized by
    # the traffic the machine delivered, not by the clock, so it holds
    # traffic on a busy machine too; a stalled sender shows as a timeout
    # (exit 1) and a short window, which the caller's check then fails.
    if cmd == "window":
        a, b, min_s, min_fwd, tmo = args[0], args[1], float(args[2]), int(args[3]), float(args[4])
        s0 = snap()
        json.dump(s0, open(a, "w"))
    else:
        a, b, min_s, min_fwd, tmo = args[0], args[1], 0.0, int(args[2]), float(args[3])
        s0 = json.load(open(a))
    t0 = time.monotonic()
    time.sleep(min_s)
    while True:
        s1 = snap()
        done = s1["ctr"]["forwarded_packets"] - s0["ctr"]["forwarded_packets"] >= min_fwd
        if done or time.monotonic() - t0 > tmo:
            break
        time.sleep(0.02)
    json.dump(s1, open(b, "w"))
    sys.exit(0 if done else 1)

elif cmd == "wait-tx":  # IFNAME MIN_S MIN_PKTS TIMEOUT_S: until rocedp sent
    # MIN_PKTS more on IFNAME, at least MIN_S (a capture's window, sized
    # by the dataplane's own count of what it sent there)
    ifname, min_s, want, tmo = args[0], float(args[1]), int(args[2]), float(args[3])
    base = port_tx(rd_stats()).get(ifname, 0)
    t0 = time.monotonic()
    time.sleep(min_s)
    while True:
        n = port_tx(rd_stats()).get(ifname, 0) - base
        if n >= want:
            print(n)
            sys.exit(0)
        if time.monotonic() - t0 > tmo:
            print(f"timeout: {n} sent on {ifname}")
            sys.exit(1)
        time.sleep(0.02)

elif cmd == "delta":  # A B: per-uplink deltas {"rd": [...], "spine": [...], "ctr": {...}}
    a, b = (json.load(open(p)) for p in args[:2])
    print(json.dumps({
        "rd": [b["tx"].get(f"up{s}", 0) - a["tx"].get(f"up{s}", 0) for s in range(1, SPINES + 1)],
        "spine": [b["spine"][f"spine{s}"] - a["spine"][f"spine{s}"] for s in range(1, SPINES + 1)],
        "fwd": b["ctr"]["forwarded_packets"] - a["ctr"]["forwarded_packets"]}))

elif cmd == "churn":  # RATE SECONDS SEED: RATE x SECONDS route changes through
    # one ip -batch, paced at RATE; a busy machine stretches the time, not
    # the count (the rate reached is printed)
    rate, secs = int(args[0]), float(args[1])
    rnd = random.Random(int(args[2]))
    gw = {s: (f"10.255.{s}.0", f"up{s}") for s in range(1, SPINES + 1)}
    pools = []
    # unrelated to the traffic: any spine
    pools += [(f"10.100.{i // 256}.{i % 256}/32", (1, 2, 3, 4)) for i in range(400)]
    pools += [(f"10.101.{i}.0/24", (1, 2, 3, 4)) for i in range(200)]
    # cover 10.2.1.2: spines 1-3 only, like the 10.2/16 route during churn
    cover = ["10.2.1.2/32", "10.2.1.0/24", "10.2.1.0/25", "10.2.0.0/17", "10.2.1.2/31"]
    # next to it (share the leading bits, do not cover it): may use spine4
    near = ["10.2.1.3/32", "10.2.1.0/31", "10.2.1.4/30", "10.2.1.128/25",
            "10.2.0.0/24", "10.2.2.0/23", "10.2.128.0/17", "10.3.0.0/16", "10.2.1.1/32"]
    rel = [(p, (1, 2, 3)) for p in cover] + [(p, (1, 2, 3, 4)) for p in near]
    on = {}

    def hops(allowed, must4=False):
        while True:
            sub = [s for s in allowed if rnd.random() < 0.5]
            if sub and (not must4 or 4 in sub):
                return " ".join(f"nexthop via {gw[s][0]} dev {gw[s][1]}" for s in sub)

    def change():
        p, allowed = rnd.choice(rel) if rnd.random() < 0.3 else rnd.choice(pools)
        must4 = len(allowed) == 4 and p.startswith(("10.2.", "10.3."))
        if p not in on:
            on[p] = 1
            return f"route add {p} {hops(allowed, must4)}"
        if rnd.random() < 0.6:
            return f"route replace {p} {hops(allowed, must4)}"
        del on[p]
        return f"route del {p}"

    ipb = subprocess.Popen(["ip", "-n", f"{prefix}-leaf1", "-force", "-batch", "-"],
                           stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tick, n, t0 = 0.01, 0, time.monotonic()
    per_tick = max(1, int(rate * tick))
    while n < rate * secs:
        ipb.stdin.write("".join(change() + "\n" for _ in range(per_tick)))
        ipb.stdin.flush()
        n += per_tick
        nxt = t0 + (n / per_tick) * tick
        time.sleep(max(0, nxt - time.monotonic()))
    ipb.stdin.close()
    err = ipb.stderr.read()
    ipb.wait()
    el = time.monotonic() - t0
    errs = [l for l in err.splitlines() if l.strip()]
    print(json.dumps({"changes": n, "seconds": round(el, 3), "rate": round(n / el),
                      "errors": len(errs), "first_error": errs[0] if errs else "",
                      "installed_at_end": len(on)}))
    sys.exit(0)
else:
    sys.exit(f"ft.py: unknown command {cmd}")
