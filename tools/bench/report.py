#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Merge the section files of `make bench` into bench.json and print the table.

Reads DIR/{cost,mem,sync,lbeval}.json and DIR/tput.jsonl as written in this
run by tools/bench/bench.sh; a section whose file is missing is reported as
missing, never filled in.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load_lines(path):
    try:
        with open(path) as f:
            return [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError):
        return None


def mib(b):
    return "%.2f MiB" % (b / 1048576.0) if b >= 1048576 else "%.1f KiB" % (b / 1024.0)


def tput_summary(runs):
    modes = {}
    for r in runs:
        modes.setdefault(r["mode"], {}).setdefault(r["size"], []).append(r)
    out = {}
    for mode, sizes in modes.items():
        for size, rs in sizes.items():
            mpps = [r["mpps"] for r in rs]
            out.setdefault(mode, {})[str(size)] = {
                "mpps_median": round(statistics.median(mpps), 4),
                "mpps_min": min(mpps), "mpps_max": max(mpps),
                "runs": len(rs),
                "sent": sum(r["sent"] for r in rs),
                "received": sum(r["received"] for r in rs),
                "rocedp_forwarded": sum(r["rocedp_forwarded"] for r in rs),
            }
    k = out.get("kernel", {})
    for mode in out:
        for size, s in out[mode].items():
            if size in k and k[size]["mpps_median"] > 0:
                s["ratio_to_kernel"] = round(s["mpps_median"] / k[size]["mpps_median"], 3)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", action="store_true", help="also print the JSON")
    ap.add_argument("--dir", required=True)
    ap.add_argument("--elapsed", type=int, default=0)
    ap.add_argument("sections", nargs="*")
    a = ap.parse_args()
    d = a.dir
    doc = {
        "machine": {
            "kernel": platform.release(),
            "cpus": os.cpu_count(),
            "loadavg_at_end": open("/proc/loadavg").read().split()[:3],
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        },
        "elapsed_s": a.elapsed,
    }
    targets = []
    lines = []
    p = lines.append

    # ------------------------------------------------------------ cost
    cost = load(os.path.join(d, "cost.json"))
    doc["cost"] = cost
    p("== per-packet cost, BPF_PROG_TEST_RUN (live rodata: no trace, real clock, real devmap)")
    if cost:
        p("   %d rounds per program: %d batches x repeat %d, %d passes interleaved; "
          "%d-byte IPv4 RoCEv2 frames, %d flows, TTL 255 per batch"
          % (cost["rounds_per_program"], cost["batches"], cost["repeat"], cost["passes"],
             cost["frame_len"], cost["flows"]))
        p("   empty XDP program: %.2f ns   (empty tc: %.2f ns; egress ECN program (tc test entry) "
          "%.2f ns, net of empty tc %.2f ns)"
          % (cost["empty_xdp_ns"], cost["empty_tc_ns"], cost["egress_ecn_tc_ns"],
             cost["egress_ecn_net_ns"]))
        if "reference_ns" in cost:
            p("   unit costs (each in a program of its own, minus nothing): %s"
              % ", ".join("%s %.1f ns" % kv for kv in cost["reference_ns"].items()))
        p("   %-12s %9s %9s %9s %8s  %-8s %s" % ("combo", "ingress", "+egress", "total ns",
                                                "x empty", "verified", "what"))
        for c in cost["combos"]:
            p("   %-12s %9.1f %9.1f %9.1f %8.2f  %-8s %s"
              % (c["name"], c["ingress_ns"], c["egress_net_ns"], c["ns"], c["ratio"],
                 "yes" if c["verified"] else "NO", c["what"]))
        byname = {c["name"]: c for c in cost["combos"]}
        if "fwd_qp" in byname:
            targets.append(("forward-qp cost <= 4x empty XDP", "%.2fx" % byname["fwd_qp"]["ratio"],
                            byname["fwd_qp"]["ratio"] <= 4))
        if "flowlet" in byname:
            targets.append(("flowlet cost <= 6x empty XDP", "%.2fx" % byname["flowlet"]["ratio"],
                            byname["flowlet"]["ratio"] <= 6))
    else:
        p("   MISSING (section failed or not run)")

    # ------------------------------------------------------------ throughput
    runs = load_lines(os.path.join(d, "tput.jsonl"))
    p("")
    p("== forwarding throughput, veth fabric: live-frame source -> forwarder -> 4 uplinks -> XDP_DROP sinks")
    if runs:
        summ = tput_summary(runs)
        doc["throughput"] = {"summary": summ, "runs": runs}
        p("   source and forwarder serialised on one CPU; Mpps = frames counted at the sinks / source run time")
        p("   %-15s %6s %10s %16s %10s %12s" % ("forwarder", "bytes", "Mpps med", "min..max",
                                              "x kernel", "lost"))
        for mode in ("kernel", "rocedp_native", "rocedp_tc"):
            for size in ("64", "1024"):
                s = summ.get(mode, {}).get(size)
                if not s:
                    continue
                p("   %-15s %6s %10.3f %7.3f..%-7.3f %10s %12d"
                  % (mode, size, s["mpps_median"], s["mpps_min"], s["mpps_max"],
                     "%.2f" % s["ratio_to_kernel"] if "ratio_to_kernel" in s else "-",
                     s["sent"] - s["received"]))
                if mode != "kernel" and s["rocedp_forwarded"] < s["received"]:
                    p("   !! %s %s: rocedp forwarded %d of %d received frames (kernel did the rest)"
                      % (mode, size, s["rocedp_forwarded"], s["received"]))
        n = summ.get("rocedp_native", {}).get("64", {})
        if "ratio_to_kernel" in n:
            targets.append(("rocedp native XDP >= 2.5x kernel (64 B)",
                            "%.2fx" % n["ratio_to_kernel"], n["ratio_to_kernel"] >= 2.5))
    else:
        doc["throughput"] = None
        p("   MISSING (section failed or not run)")

    # ------------------------------------------------------------ sync
    sync = load(os.path.join(d, "sync.json"))
    doc["sync"] = sync
    p("")
    p("== route sync (rocedp sync), 4-way multipath /26 routes, veth uplinks")
    if sync:
        p("   %-44s %10s %s" % ("what", "seconds", "detail"))
        for key, what in (("live_10k", "10k routes: ip -batch -> all in map (daemon)"),
                          ("live_100k", "100k routes: ip -batch -> all in map (daemon)"),
                          ("del_10k", "10k routes deleted -> gone from map")):
            r = sync.get(key)
            if r:
                extra = ""
                if key + "_in_map" in sync:
                    extra = "; rd_routes4 holds %d entries" % sync[key + "_in_map"]
                p("   %-44s %10.3f ip -batch returned after %.3f s%s"
                  % (what, r["map_s"], r["cmd_s"], extra))
        for key, what in (("cold_10k", "10k routes: sync --once into empty maps"),
                          ("cold_100k", "100k routes: sync --once into empty maps")):
            r = sync.get(key)
            if r:
                p("   %-44s %10.3f rd_routes4 holds %d entries"
                  % (what, r["seconds"], r["routes_in_map"]))
        p("   link down -> member out of the group map (ioctl to map; up: ioctl to member back):")
        p("   %-10s %6s %12s %12s %12s %12s %16s" % ("table", "flaps", "down med ms", "down max ms",
                                                  "up med ms", "up max ms", "daemon med/max us"))
        for key in ("flap_small", "flap_10k", "flap_100k"):
            f = sync.get(key)
            if not f:
                p("   %-10s MISSING" % key[5:])
                continue
            p("   %-10s %6d %12.3f %12.3f %12.3f %12.3f %16s"
              % (f["table"], f["flaps"], f["down_median_us"] / 1e3, f["down_max_us"] / 1e3,
                 f["up_median_us"] / 1e3, f["up_max_us"] / 1e3,
                 "%s/%s" % (f["daemon_median_us"], f["daemon_max_us"])))
        f = sync.get("flap_small")
        if f:
            targets.append(("link-down event to map < 10 ms median",
                            "%.3f ms (10k: %s, 100k: %s)"
                            % (f["down_median_us"] / 1e3,
                               "%.3f ms" % (sync["flap_10k"]["down_median_us"] / 1e3)
                               if sync.get("flap_10k") else "-",
                               "%.3f ms" % (sync["flap_100k"]["down_median_us"] / 1e3)
                               if sync.get("flap_100k") else "-"),
                            f["down_median_us"] < 10000))
    else:
        p("   MISSING (section failed or not run)")

    # ------------------------------------------------------------ memory
    mem = load(os.path.join(d, "mem.json"))
    doc["memory"] = mem
    p("")
    p("== memory of the maps at the default sizes (%s CPUs)" % (mem["ncpus"] if mem else "?"))
    if mem:
        p("   %-14s %-13s %5s %6s %8s %14s %14s" % ("map", "type", "key", "value", "entries",
                                                 "(k+v)*n bytes", "memlock bytes"))
        for m in sorted(mem["maps"], key=lambda m: -max(m["computed_bytes"], m["memlock_bytes"])):
            p("   %-14s %-13s %5d %6d %8d %14d %14d%s"
              % (m["map"], m["type"], m["key"], m["value"], m["entries"], m["computed_bytes"],
                 m["memlock_bytes"], "  (x ncpu)" if m["percpu"] else ""))
        p("   %-14s %-13s %5s %6s %8s %14d %14d" % ("total", "", "", "", "",
                                                  mem["total_computed_bytes"],
                                                  mem["total_memlock_bytes"]))
        f = mem["flowlets_1m"]
        p("   per 1M flowlets (LRU_HASH 40 B key + 48 B value): %d B computed (%s), "
          "%d B memlock (%s, %.0f B/flow)"
          % (f["computed_bytes"], mib(f["computed_bytes"]), f["memlock_bytes"],
             mib(f["memlock_bytes"]), f["memlock_bytes"] / 1e6))
        r = mem["routes4_100k"]
        p("   rd_routes4 (LPM, no prealloc): %d B memlock empty, %d B with %d routes"
          % (r["memlock_empty_bytes"], r["memlock_bytes"], r["routes"]))
    else:
        p("   MISSING (section failed or not run)")

    # ------------------------------------------------------------ lbeval
    lb = load(os.path.join(d, "lbeval.json"))
    doc["lbeval"] = lb
    p("")
    p("== load-balance evaluator (standard trace)")
    if not lb:
        p("   MISSING (section failed or not run)")
    elif lb.get("missing"):
        p("   MISSING: %s" % lb["why"])
    elif lb.get("failed"):
        p("   FAILED (%s): %s" % (lb["tool"], lb["why"].strip().splitlines()[-1:] or ""))
    else:
        r = lb["result"]
        t = r.get("trace", {})
        p("   %s: %s, %s hosts, %s pairs x %s QPs, %s members, %s B messages, gap %s us, "
          "delay skew %s us, flowlet gap %s us; chart %s"
          % (lb["tool"], t.get("pattern"), t.get("hosts"), t.get("pairs"), t.get("qps_per_pair"),
             t.get("members"), t.get("msg_bytes"), t.get("gap_us"), t.get("skew_us"),
             t.get("flowlet_gap_us"), lb.get("png")))
        p("   %-15s %9s %9s %7s %9s %9s %6s" % ("mode", "imbalance", "per-phase", "moves",
                                             "flowlets", "reordered", "risk"))
        for m in r.get("modes", []):
            p("   %-15s %9.3f %9.3f %7d %9d %9d %6d"
              % (m["mode"], m["imbalance"], m["phase_imbalance"], m["flowlet_moves"],
                 m["flowlets"], m["reordered"], m["reorder_risk"]))
            if m["mode"] == "flowlet":
                targets.append(("lbeval flowlet imbalance <= 1.05, 0 reordered",
                                "%.3f, %d" % (m["imbalance"], m["reordered"]),
                                m["imbalance"] <= 1.05 and m["reordered"] == 0))

    # ------------------------------------------------------------ targets
    doc["targets"] = [{"target": t, "measured": m, "met": ok} for t, m, ok in targets]
    p("")
    p("== targets")
    for t, m, ok in targets:
        p("   %-44s %-8s %s" % (t, "met" if ok else "MISSED", m))
    p("")
    p("load average at the end: %s; bench took %d s; JSON: %s"
      % (" ".join(doc["machine"]["loadavg_at_end"]), a.elapsed, os.path.join(d, "bench.json")))

    with open(os.path.join(d, "bench.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("\n".join(lines))
    if a.j:
        print(json.dumps(doc, indent=1))
    missing = [s for s in ("cost", "throughput", "sync", "memory") if not doc.get(s)]
    return 1 if missing and not a.sections else 0


if __name__ == "__main__":
    sys.exit(main())
