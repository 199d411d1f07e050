# SPDX-License-Identifier: GPL-2.0
"""The numbers of selftests/paths_lab.sh.

collective TMP NAME SPINES: from NAME.send1/2 (rocegen send -j) and
NAME.a/.b.json (leaf1's rocedp stats before and after) print one line,
"completion_ms C delivered D of W spine2_share S uplinks [..]", and exit 1
unless every message was delivered.
compare CONTROL.res STEER.res: exit 0 when steering sent a smaller share
through spine2 and completed sooner; print both ratios.
share TMP A B SPINES: print spine2's share of leaf1's uplink frames
between two stats snapshots A and B.
"""
import glob
import json
import sys


def ports(path):
    return {p["name"]: p for p in json.load(open(path))["ports"] if "name" in p}


def uplinks(tmp, a, b, spines):
    pa, pb = ports(f"{tmp}/{a}.json"), ports(f"{tmp}/{b}.json")
    return [pb.get(f"up{s}", {}).get("tx_pkts", 0) - pa.get(f"up{s}", {}).get("tx_pkts", 0)
            for s in range(1, spines + 1)]


def share(tx):
    return tx[1] / sum(tx) if sum(tx) else 0.0


def collective(tmp, name, spines):
    done, want, comp, bad = 0, 0, 0.0, []
    for h in (1, 2):
        try:
            s = json.load(open(f"{tmp}/{name}.send{h}"))
        except (OSError, ValueError) as e:
            print(f"sender {h}: no result ({e})")
            return 1
        t = s["total"]
        done += t["messages"]
        want += s["count"] * t["qps"]
        comp = max(comp, t["completion_us"] / 1000)
        if t["qps_failed"]:
            bad.append(f"sender {h}: {t['qps_failed']} QPs failed")
    tx = uplinks(tmp, f"{name}.a", f"{name}.b", spines)
    print(f"completion_ms {comp:.0f} delivered {done} of {want} spine2_share {share(tx):.3f} "
          f"uplinks {tx}" + ("; " + "; ".join(bad) if bad else ""))
    return 0 if done == want and not bad else 1


def res(path):
    w = open(path).read().split()
    return float(w[1]), float(w[7])


def compare(control, steer):
    c_ms, c_sh = res(control)
    s_ms, s_sh = res(steer)
    print(f"completion {s_ms:.0f} ms against {c_ms:.0f} ms ({c_ms / s_ms:.2f}x faster), "
          f"spine2's share {s_sh:.3f} against {c_sh:.3f}")
    # spine2 carries a quarter of the others' rate: below an even split
    return 0 if s_ms < c_ms and s_sh < c_sh and s_sh < 0.25 else 1


def recovered(steer, unshaped):
    s_sh = res(steer)[1]
    u_sh = res(unshaped)[1]
    print(f"spine2's share {u_sh:.3f} unshaped against {s_sh:.3f} shaped")
    return 0 if u_sh > s_sh and u_sh > 0.5 / 4 else 1


def failed(tmp, spines):
    """Spine2's share of leaf1's frames in the window after its link to
    leaf2 went down: with steering against local-only flowlets."""
    on = uplinks(tmp, "fail.on.a", "fail.on.b", spines)
    off = uplinks(tmp, "fail.off.a", "fail.off.b", spines)
    print(f"spine2 got {on[1]} of leaf1's {sum(on)} frames ({share(on):.3f}) steering, "
          f"{off[1]} of {sum(off)} ({share(off):.3f}) local-only")
    return 0 if sum(on) and sum(off) and share(on) < share(off) / 4 else 1


def bands(tmp, name):
    """The worst band each uplink's entry showed in NAME's samples."""
    worst, n = {}, 0
    for path in glob.glob(f"{tmp}/{name}.paths.*"):
        try:
            j = json.load(open(path))
        except (OSError, ValueError):
            continue
        n += 1
        for p in j["paths"]:
            worst[p["dev"]] = max(worst.get(p["dev"], 0), p["band"])
    others = [b for d, b in worst.items() if d != "up2"]
    up2 = worst.get("up2", 0)
    print(f"worst band per uplink over {n} samples: "
          + ", ".join(f"{d} {b}" for d, b in sorted(worst.items())))
    return 0 if n and others and up2 > max(others) else 1


def main(argv):
    if argv[1] == "collective":
        return collective(argv[2], argv[3], int(argv[4]))
    if argv[1] == "compare":
        return compare(argv[2], argv[3])
    if argv[1] == "bands":
        return bands(argv[2], argv[3])
    if argv[1] == "recovered":
        return recovered(argv[2], argv[3])
    if argv[1] == "failed":
        return failed(argv[2], int(argv[3]))
    if argv[1] == "share":
        print(f"{share(uplinks(argv[2], argv[3], argv[4], int(argv[5]))):.3f}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
