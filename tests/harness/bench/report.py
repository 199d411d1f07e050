#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Merge the section files of `make bench` into bench.json and print the table.

Reads DIR/{cost,mem,sync,resil,lbeval,failover,scale}.json, DIR/tput.jsonl and DIR/prom.jsonl as written in this
run by tests/harness/bench/bench.sh; a section whose file is missing is reported as
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


FORWARDERS = ("kernel", "rocedp_native", "rocedp_native_fwd", "rocedp_tc", "bare", "fib")
# the IPv6 rows (RoCEv2 over IPv6), measured beside the 64 B and jumbo ones
FORWARDERS_V6 = ("rocedp_native_v6", "bare_v6")
V6_SMALL = "84"
# not rocedp: no rocedp counters to read
NOT_ROCEDP = ("kernel", "bare", "bare_default", "fib", "bare_v6")
# forward only: no ECN port settings, so no RED decision is expected
NO_ECN = ("rocedp_native_fwd",)


def ctr_delta(r, key):
    a, b = r.get("ctrs_before") or {}, r.get("ctrs_after") or {}
    if key not in a or key not in b:
        return None
    return b[key] - a[key]


def variant(mode):
    """The suffix of a one-path (_1p), one/two-CPU (_c1/_c2) or IPv6 (_v6)
    row, or ""."""
    for suf in ("_1p", "_c1", "_c2", "_v6"):
        if mode.endswith(suf):
            return suf
    return ""


def per_run(rs, ref):
    """Each run's Mpps over the reference's run of the same number (both
    {run: record}), where the reference ran."""
    return [x["mpps"] / ref[run]["mpps"] for run, x in sorted(rs.items())
            if run in ref and ref[run]["mpps"] > 0]


def v6_points(summ, runs, targets, p):
    """The IPv6 rows: rocedp default over IPv6 as a share of the bare
    forwarder's IPv6 path, and that share against the IPv4 row's share of
    the IPv4 bare forwarder, run by run (the four runs of a run number are
    neighbours in time), in points."""
    n6, b6 = summ.get("rocedp_native_v6", {}).get(V6_SMALL), summ.get("bare_v6", {}).get(V6_SMALL)
    if not (n6 and b6 and "share_of_bare" in n6):
        return
    p("   IPv6 (RoCEv2 over IPv6, fd00:200::2 -> fd09::1..64, %s B: the 64 B frame behind a "
      "40-byte IPv6 header), same runs as the 64 B rows:" % V6_SMALL)
    p("     bare_v6 %.3f Mpps, rocedp_native_v6 %.3f Mpps = %.1f%% of it (%.0f..%.0f%%)"
      % (b6["mpps_median"], n6["mpps_median"], 100 * n6["share_of_bare"],
         100 * n6["share_of_bare_min"], 100 * n6["share_of_bare_max"]))
    targets.append(("rocedp_native_v6 >= 85% of the bare forwarder's Mpps, IPv6 64 B class, 4 paths",
                    "%.1f%%" % (100 * n6["share_of_bare"]), n6["share_of_bare"] >= 0.85))
    by = {}
    for r in runs:
        by.setdefault((r["mode"], str(r["size"])), {})[r["run"]] = r
    pts = []
    for run in sorted(by.get(("rocedp_native_v6", V6_SMALL), {})):
        try:
            a = by[("rocedp_native_v6", V6_SMALL)][run]["mpps"] / by[("bare_v6", V6_SMALL)][run]["mpps"]
            b = by[("rocedp_native", "64")][run]["mpps"] / by[("bare", "64")][run]["mpps"]
        except (KeyError, ZeroDivisionError):
            continue
        pts.append(100 * (a - b))
    if pts:
        med = statistics.median(pts)
        p("     IPv6 share of bare - IPv4 share of bare (64 B), per run: median %+.1f points "
          "(%+.1f..%+.1f)" % (med, min(pts), max(pts)))
        # "within 3 points": IPv6 no more than 3 points below IPv4
        targets.append(("rocedp_native_v6 share of bare within 3 points of IPv4's, 64 B class",
                        "%+.1f points" % med, med >= -3.0))


def tput_summary(runs):
    """Median Mpps per forwarder and size, and the median of the per-run
    ratios to the kernel run of the same run and size (measured back to
    back, so drift of the machine cancels)."""
    by = {}
    for r in runs:
        by.setdefault((r["mode"], str(r["size"])), {})[r["run"]] = r
    out = {}
    for (mode, size), rs in sorted(by.items()):
        mpps = [x["mpps"] for x in rs.values()]
        s = {
            "mpps_median": round(statistics.median(mpps), 4),
            "mpps_min": min(mpps), "mpps_max": max(mpps),
            "runs": len(rs),
            "sent": sum(x["sent"] for x in rs.values()),
            "received": sum(x["received"] for x in rs.values()),
        }
        s["gbps_median"] = round(s["mpps_median"] * int(size) * 8 / 1000, 3)
        # the ceiling: the bare forwarder's run beside, same run, size and
        # variant (one path, one or two CPUs)
        bname = "bare" + variant(mode)
        shares = per_run(rs, by.get((bname, size), {}))
        if mode != bname and shares:
            s["share_of_bare"] = round(statistics.median(shares), 3)
            s["share_of_bare_min"] = round(min(shares), 3)
            s["share_of_bare_max"] = round(max(shares), 3)
        # against the kernel-FIB XDP forwarder run beside (same run, size
        # and variant): what a user would pick instead
        over = per_run(rs, by.get(("fib" + variant(mode), size), {}))
        if mode.startswith("rocedp_") and over:
            s["over_fib"] = round(statistics.median(over), 3)
            s["over_fib_min"] = round(min(over), 3)
            s["over_fib_max"] = round(max(over), 3)
        if mode.startswith("rocedp_"):
            lost = [ctr_delta(x, "flowlet_claim_lost") for x in rs.values()]
            if None not in lost:
                s["flowlet_claim_lost"] = sum(lost)
            fwd = [ctr_delta(x, "forwarded") for x in rs.values()]
            ecn = [None if ctr_delta(x, "ecn_src_map") is None else
                   ctr_delta(x, "ecn_src_map") + ctr_delta(x, "ecn_src_kfunc")
                   for x in rs.values()]
            s["rocedp_forwarded"] = None if None in fwd else sum(fwd)
            s["ecn_decided"] = None if None in ecn else sum(ecn)
            s["ecn_marked"] = sum(ctr_delta(x, "ecn_marked") or 0 for x in rs.values())
            # the floor of the default job, where it ran beside (jumbo)
            of = per_run(rs, by.get(("bare_default" + variant(mode), size), {}))
            if of:
                s["share_of_floor"] = round(statistics.median(of), 3)
        # scaling: two CPUs over one, the same forwarder back to back
        if mode.endswith("_c2"):
            sc = per_run(rs, by.get((mode[:-1] + "1", size), {}))
            if sc:
                s["scaling"] = round(statistics.median(sc), 3)
                s["scaling_min"] = round(min(sc), 3)
                s["scaling_max"] = round(max(sc), 3)
        if mode != "kernel" and not variant(mode):
            ratios = per_run(rs, by.get(("kernel", size), {}))
            if ratios:
                s["ratio_runs"] = [round(v, 3) for v in ratios]
                s["ratio_to_kernel"] = round(statistics.median(ratios), 3)
                s["ratio_min"] = round(min(ratios), 3)
                s["ratio_max"] = round(max(ratios), 3)
        out.setdefault(mode, {})[size] = s
    return out


# opcount.h's kinds, and the unit-cost program that prices each (net of
# the empty program); an array lookup is inlined by the verifier into a
# few instructions: no unit of its own, priced at 0
OPS = (("clock", "ktime"), ("percpu_lookup", "percpu_counter"), ("array_lookup", None),
       ("hash_lookup", "hash_lookup"), ("lpm_lookup", "lpm_lookup"), ("helper_call", "helper_call"))


def ops_table(p, cost):
    """Each row's operations per frame and what they cost at this run's
    unit costs: why a ratio moves when a unit cost does."""
    ops, refs = cost.get("ops_per_frame"), cost.get("reference_ns", {})
    if not ops:
        return
    # a unit program within noise of the empty one (inlined lookups) prices 0
    unit = {k: max(0.0, refs[r] - cost["empty_xdp_ns"]) if r in refs else 0.0 for k, r in OPS}
    p("   operations per frame (counting copies of the objects, same frames and tables) and"
      " their cost at this run's unit costs:")
    p("   unit ns: " + ", ".join("%s %.1f" % (k, unit[k]) for k, _ in OPS if unit[k])
      + " (unit program less the empty one; array lookups are inlined, and a unit within"
      " noise of the empty program, priced 0)")
    # measured: the row's ns net of the empty program; rest: what the
    # counted operations do not explain (the row's own instructions, and
    # a helper's work beyond its call: bpf_fib_lookup walks the FIB)
    rows = {c["name"]: c["ns"] for c in cost["combos"] + cost.get("combos_v6", [])}
    rows.update({r["name"]: r["ns"] for r in (cost.get("bare_fwd"), cost.get("bare_flowlet"),
                                               cost.get("bare_default"), cost.get("fib_fwd")) if r})
    fmt = "   %-17s" + " %7s" * len(OPS) + " %7s %8s %6s"
    p(fmt % (("row",) + tuple(k.replace("_lookup", "").replace("_call", "") for k, _ in OPS)
             + ("ops ns", "measured", "rest")))
    for name, o in ops.items():
        est = sum(o.get(k, 0) * unit[k] for k, _ in OPS)
        net = rows[name] - cost["empty_xdp_ns"] if name in rows else None
        p(fmt % ((name,) + tuple("%.2f" % o.get(k, 0) for k, _ in OPS) + (
            "%.1f" % est, "-" if net is None else "%.1f" % net,
            "-" if net is None else "%.1f" % (net - est))))
    for name, floor in (("fwd_qp", "ref_bare_fwd"), ("flowlet", "ref_bare_flowlet"),
                        ("default", "ref_bare_default")):
        a, b = ops.get(name), ops.get(floor)
        if not a or not b:
            continue
        more = ["%+.2f %s" % (a[k] - b[k], k) for k, _ in OPS if abs(a[k] - b[k]) >= 0.01]
        extra = sum((a[k] - b[k]) * unit[k] for k, _ in OPS)
        p("   %s beyond %s: %s (%+.1f ns at these unit costs)"
          % (name, floor, ", ".join(more) or "nothing", extra))


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
        p("   %d rounds per program: %d batches x repeat %d over %d interleaved passes; "
          "%d-byte IPv4 RoCEv2 frames, %d flows, TTL 255 per batch"
          % (cost["rounds_per_program"], cost["batches"], cost["repeat"], cost["passes"],
             cost["frame_len"], cost["flows"]))
        p("   empty XDP program %.2f ns, empty tc program %.2f ns" %
          (cost["empty_xdp_ns"], cost["empty_tc_ns"]))
        if "reference_ns" in cost:
            p("   unit costs (each in a program of its own, minus nothing): %s"
              % ", ".join("%s %.1f ns" % kv for kv in cost["reference_ns"].items()))
        bare = cost["bare_fwd"]
        bflow = cost.get("bare_flowlet")
        bdef = cost.get("bare_default")
        refs = [bare] + [r for r in (bflow, bdef) if r]
        tce = cost["tc_egress"]
        fmt = "   %-16s %8s %15s %8s %7s  %-8s %s"
        p(fmt % ("program", "ns", "pass min..max", "x empty", "x bare", "verified", "what"))

        def row(c, ratio_bare, note=""):
            p(fmt % (c["name"], "%.1f" % c["ns"],
                     "%.1f..%.1f" % (c["min_pass_ns"], c["max_pass_ns"]),
                     "%.2f%s" % (c["ratio"], note), ratio_bare,
                     "yes" if c["verified"] else "NO", c["what"]))
        row(bare, "-")
        for r in (bflow, bdef, cost.get("fib_fwd")):
            if r:
                row(r, "%.2f" % r["ratio_bare"])
        for c in cost["combos"]:
            row(c, "%.2f" % c["ratio_bare"] if "ratio_bare" in c else "-")
        for c in cost.get("combos_v6", []):
            row(c, "%.2f" % c["ratio_bare"] if "ratio_bare" in c else "-")
        v4 = {c["name"]: c for c in cost["combos"]}
        v6 = {c["name"]: c for c in cost.get("combos_v6", [])}
        if "default" in v4 and "default_v6" in v6:
            p("   IPv6: default_v6 %.1f ns against default %.1f ns (%.2fx), same run"
              % (v6["default_v6"]["ns"], v4["default"]["ns"],
                 v6["default_v6"]["ns"] / v4["default"]["ns"]))
        tab = cost.get("trim_ab")
        if tab:
            # the trim decision's A/B: same passes, no frame refused
            row(tab["off"], "%.2f" % tab["off"].get("ratio_bare", 0))
            row(tab["on"], "%.2f" % tab["on"].get("ratio_bare", 0))
            p("   trim decision: default_trim %.1f ns against default_buffer %.1f ns: %+.1f ns"
              " (%.3fx), interleaved in one run, no frame refused (goal <= +10 ns)"
              % (tab["on"]["ns"], tab["off"]["ns"], tab["delta_ns"], tab["ratio"]))
        row(tce, "-", "*")
        disp = cost.get("dispatcher")
        if disp and "default" in {c["name"] for c in cost["combos"]}:
            # sharing a port (libxdp's dispatcher) against rocedp alone
            dflt = {c["name"]: c for c in cost["combos"]}["default"]
            p("   dispatcher: libxdp's dispatcher adds %.1f ns per frame (its run %.1f ns"
              " less the empty program), so default in the dispatcher ~ %.1f ns against"
              " %.1f ns exclusive (%s)"
              % (disp["overhead_ns"], disp["ns"], dflt["ns"] + disp["overhead_ns"],
                 dflt["ns"],
                 "measured with an extension in its slot" if disp["slot"] == "extension"
                 else "slot 0 a stub: this kernel refuses the extension (%s), so "
                 "rocedp falls back to exclusive here" % disp["freplace"]))
        p("   XDP rows: ingress program only; with ECN on, it also runs RED for the frames it"
          " redirects.")
        p("   * tc path: ratio to the empty tc program; net of it %.1f ns per frame"
          % cost["tc_egress_net_ns"])
        ops_table(p, cost)
        allc = cost["combos"] + cost.get("combos_v6", [])
        unverified = [c["name"] for c in refs + [tce] + allc if not c["verified"]]
        for c in refs + [tce] + allc:
            if not c["verified"]:
                p("   !! %s UNVERIFIED (counters: %s): its figure may time another path"
                  % (c["name"], c["counters"]))
        byname = {c["name"]: c for c in cost["combos"]}
        if "fwd_qp" in byname and "flowlet" in byname and bare["ns"] > 0:
            # the orientation figures, for scale: empty 23 ns, bare forwarder 57 ns
            p("   calibration: fwd_qp = %.2fx, flowlet = %.2fx ref_bare_fwd; here ref_bare_fwd = "
              "%.2fx empty (issue's orientation: 57/23 ns = 2.48x, so 4x/6x empty ~ "
              "%.2fx/%.2fx bare)"
              % (byname["fwd_qp"]["ratio_bare"], byname["flowlet"]["ratio_bare"], bare["ratio"],
                 4 * 23 / 57.0, 6 * 23 / 57.0)
              + ("" if bare["verified"] else " [ref_bare_fwd UNVERIFIED]"))
        if bflow and "flowlet" in byname:
            # what no flowlet forwarder on this machine can go below
            p("   floor: ref_bare_flowlet (the bare forwarder + one clock read + one hashed-array"
              " flow entry, no counters) = %.2fx empty; rocedp's flowlet row is %.2fx of it"
              % (bflow["ratio"], byname["flowlet"]["ns"] / bflow["ns"]))
        if bdef and "default" in byname and bdef["ns"] > 0:
            # the cheapest forwarder that does the default job
            p("   floor: ref_bare_default (the bare forwarder + RoCE class, QP hash, DSCP action,"
              " RED, one counter line) = %.2fx ref_bare_fwd; rocedp's default row is %.2fx of it"
              % (bdef["ns"] / bare["ns"], byname["default"]["ns"] / bdef["ns"]))
        if "telemetry" in byname and "default" in byname:
            # telemetry may add at most 15% to the default path
            t, dflt = byname["telemetry"], byname["default"]
            tr = t["ns"] / dflt["ns"] if dflt["ns"] > 0 else 0
            p("   telemetry: %.2fx default (+%.1f ns per frame)" % (tr, t["ns"] - dflt["ns"]))
            targets.append(("telemetry cost <= 1.15x default", "%.2fx%s" % (
                tr, "" if t["verified"] else " UNVERIFIED"), tr <= 1.15 and t["verified"]))
        # each goal against the floor measured in this run (the
        # ratio to the empty program mostly measures the test-run loop)
        kt = cost.get("reference_ns", {}).get("ktime")
        clock = kt - cost["empty_xdp_ns"] if kt is not None else None
        if clock is not None and "default" in byname and bare["ns"] > 0:
            # ECN reads the clock only when the queue nears Kmin (rd_vq_defer):
            # what reading it for every frame would add
            p("   one clock read: %.1f ns = %.2fx ref_bare_fwd; default (uncongested: "
              "about one read per Kmin/8 bytes) is %.2fx" % (
                  clock, clock / bare["ns"], byname["default"]["ns"] / bare["ns"]))
        for name, ref, lim in (("fwd_qp", bare, 1.6), ("flowlet", bflow, 1.5),
                               ("default", bare, 2.0)):
            c = byname.get(name)
            if not c or not ref or ref["ns"] <= 0:
                continue
            r = c["ns"] / ref["ns"]
            why = ""
            if name == "flowlet":
                why = "; that floor is %.2fx ref_bare_fwd" % (ref["ns"] / bare["ns"])
            targets.append(("%s cost <= %.1fx %s" % (name, lim, ref["name"]),
                            "%.2fx (%.1f / %.1f ns)%s%s" % (
                                r, c["ns"], ref["ns"], why,
                                "" if c["verified"] and ref["verified"] else " UNVERIFIED"),
                            r <= lim and c["verified"] and ref["verified"]))
        doc["cost_unverified"] = unverified
    else:
        p("   MISSING (section failed or not run)")

    # ------------------------------------------------------------ throughput
    runs = load_lines(os.path.join(d, "tput.jsonl"))
    p("")
    p("== forwarding throughput, veth fabric: live-frame source -> forwarder -> 4 uplinks -> XDP_DROP sinks")
    if runs:
        summ = tput_summary(runs)
        doc["throughput"] = {"summary": summ, "runs": runs}
        nruns = max(r["run"] for r in runs)
        p("   %d runs; each run and size: kernel, rocedp native, rocedp native_fwd, rocedp tc, "
          "bare forwarder, kernel-FIB XDP forwarder back to back; source and forwarder "
          "serialised on one CPU" % nruns)
        p("   rocedp native and tc: shipped default features (forward+remark+ecn, hash qp); "
          "native_fwd: features forward (hash qp), the job the kernel does")
        p("   Mpps = frames counted at the sinks / source run time; x kernel = median of the "
          "per-run ratios to the kernel run beside")
        p("   ECN: port rate 25 Gbit/s, kmin 100000 kmax 400000 pmax 20; 'ECN ran' = RED "
          "decisions / frames rocedp forwarded")
        fmt = "   %-17s %6s %9s %15s %9s %13s %10s %13s"
        p(fmt % ("forwarder", "bytes", "Mpps med", "min..max", "x kernel", "ratio min..max",
                 "lost", "ECN ran"))
        for mode in FORWARDERS + FORWARDERS_V6:
            for size in ("64", "1024", V6_SMALL):
                s = summ.get(mode, {}).get(size)
                if not s:
                    continue
                ecn = "-"
                if mode not in NOT_ROCEDP and mode not in NO_ECN:
                    if s.get("ecn_decided") is None or not s.get("rocedp_forwarded"):
                        ecn = "?"
                    else:
                        ecn = "%.1f%% (%d CE)" % (100.0 * s["ecn_decided"] / s["rocedp_forwarded"],
                                                  s["ecn_marked"])
                p(fmt % (mode, size, "%.3f" % s["mpps_median"],
                         "%.3f..%.3f" % (s["mpps_min"], s["mpps_max"]),
                         "%.2f" % s["ratio_to_kernel"] if "ratio_to_kernel" in s else "-",
                         "%.2f..%.2f" % (s["ratio_min"], s["ratio_max"])
                         if "ratio_min" in s else "-",
                         s["sent"] - s["received"], ecn))
                if mode not in NOT_ROCEDP and (s.get("rocedp_forwarded") or 0) < s["received"]:
                    p("   !! %s %s: rocedp forwarded %s of %d received frames (kernel did the rest)"
                      % (mode, size, s.get("rocedp_forwarded"), s["received"]))
                if mode not in NOT_ROCEDP and mode not in NO_ECN and not s.get("ecn_decided"):
                    p("   !! %s %s: no ECN decision counted: RED did not run" % (mode, size))
        # ceiling: rocedp as a share of the bare forwarder on the same fabric
        p("   ceiling: the bare forwarder (tests/harness/bench/empty.bpf.c, ref_bare_fwd: fixed-offset "
          "parse, LPM, hash, 4 members, MAC+TTL, devmap) attached natively on the same ports")
        for size in ("64", "1024"):
            bare = summ.get("bare", {}).get(size)
            if not bare:
                continue
            shares = []
            for mode in ("rocedp_native", "rocedp_native_fwd"):
                n = summ.get(mode, {}).get(size, {})
                if "share_of_bare" in n:
                    shares.append("%s %.0f%% (%.0f..%.0f%%)" % (
                        mode, 100 * n["share_of_bare"], 100 * n["share_of_bare_min"],
                        100 * n["share_of_bare_max"]))
                    if size == "64":
                        targets.append(("%s >= 85%% of the bare forwarder's Mpps, 64 B, 4 paths"
                                        % mode,
                                        # one decimal: "85%" beside MISSED misleads
                                        "%.1f%%" % (100 * n["share_of_bare"]),
                                        n["share_of_bare"] >= 0.85))
            p("   %5s B: bare %.3f Mpps; %s" % (size, bare["mpps_median"], "; ".join(shares)))
        # one path: the route's single next hop, default features
        n, bare = summ.get("rocedp_native_1p", {}).get("64"), summ.get("bare_1p", {}).get("64")
        if n and bare and "share_of_bare" in n:
            p("   one path, 64 B: bare %.3f Mpps, rocedp_native %.3f Mpps = %.0f%% of it (%.0f..%.0f%%)"
              % (bare["mpps_median"], n["mpps_median"], 100 * n["share_of_bare"],
                 100 * n["share_of_bare_min"], 100 * n["share_of_bare_max"]))
            targets.append(("rocedp_native >= 85% of the bare forwarder's Mpps, 64 B, 1 path",
                            "%.1f%%" % (100 * n["share_of_bare"]), n["share_of_bare"] >= 0.85))
        # the forwarder a user would pick instead: bpf_fib_lookup in the
        # kernel's tables, as xdp-tools' xdp-forward (empty.bpf.c,
        # bench_ref_fib_fwd), on one path and on four in the same run
        for label, mode in (("4 paths", "rocedp_native"), ("1 path", "rocedp_native_1p")):
            n = summ.get(mode, {}).get("64", {})
            f = summ.get("fib" + variant(mode), {}).get("64")
            if f and "over_fib" in n:
                p("   kernel-FIB XDP forwarder (bpf_fib_lookup + MACs + devmap, as xdp-forward), 64 B, "
                  "%s: %.3f Mpps; rocedp_native %.3f Mpps = %.2fx it (%.2f..%.2f)"
                  % (label, f["mpps_median"], n["mpps_median"], n["over_fib"],
                     n["over_fib_min"], n["over_fib_max"]))
                targets.append(("rocedp_native >= 1.1x the kernel-FIB forwarder, 64 B, %s" % label,
                                "%.2fx" % n["over_fib"], n["over_fib"] >= 1.1))
        # IPv6: RoCEv2 over IPv6 in the same runs, against the bare
        # forwarder's IPv6 path run beside, and against the IPv4 rows
        v6_points(summ, runs, targets, p)
        # jumbo: 4096-byte RoCE payloads at MTU 9000, Gbit/s of whole frames
        jumbo = sorted({sz for m in summ.values() for sz in m if int(sz) > 1500})
        for size in jumbo:
            p("   jumbo, MTU 9000, %s-byte frames (4096-byte RoCE payload; _v6: 4076 behind "
              "IPv6), AF_PACKET source, back to back per run:" % size)
            for mode in ("kernel", "rocedp_native", "bare_default", "bare") + FORWARDERS_V6:
                n = summ.get(mode, {}).get(size)
                if not n:
                    continue
                p("     %-17s %7.2f Gbit/s  %6.3f Mpps  lost %d%s%s" % (
                    mode, n["gbps_median"], n["mpps_median"], n["sent"] - n["received"],
                    "  x kernel %.2f" % n["ratio_to_kernel"] if "ratio_to_kernel" in n else "",
                    "  %.0f%% of bare" % (100 * n["share_of_bare"]) if "share_of_bare" in n else ""))
                if mode.startswith("rocedp_") and (n.get("rocedp_forwarded") or 0) < n["received"]:
                    p("   !! jumbo: %s forwarded %s of %d received frames"
                      % (mode, n.get("rocedp_forwarded"), n["received"]))
                if mode.startswith("rocedp_native") and "share_of_bare" in n:
                    targets.append(("%s within 5%% of the bare forwarder%s, %s B"
                                    % (mode, " (IPv6 both)" if mode.endswith("_v6") else "",
                                       size),
                                    "%.1f%% (%.0f..%.0f%%)" % (
                                        100 * n["share_of_bare"], 100 * n["share_of_bare_min"],
                                        100 * n["share_of_bare_max"]),
                                    n["share_of_bare"] >= 0.95))
            # the floor of the default job (the "cheapest forwarder
            # that could do the same job"): is the goal within reach here?
            fl, n = summ.get("bare_default", {}).get(size), summ.get("rocedp_native", {}).get(size)
            if fl and n and "share_of_bare" in fl:
                p("     floor: bare_default (the bare forwarder + RoCE class, QP hash, DSCP action,"
                  " RED on a virtual queue, one counter line)")
                p("     is %.1f%% of bare (%.0f..%.0f%%), so the goal is %s here; rocedp_native is"
                  " %s of the floor" % (
                      100 * fl["share_of_bare"], 100 * fl["share_of_bare_min"],
                      100 * fl["share_of_bare_max"],
                      "within reach" if fl["share_of_bare"] >= 0.95 else
                      "out of reach of any forwarder with this table layout",
                      "%.1f%%" % (100 * n["share_of_floor"]) if "share_of_floor" in n else "?"))
        # two CPUs: the source on both at once; scaling against one CPU
        # back to back, and the flowlet table's lost claims
        two = [m for m in ("rocedp_native", "rocedp_native_flowlet",
                           "rocedp_native_flowlet_same", "bare")
               if summ.get(m + "_c2", {}).get("64")]
        if two:
            p("   two CPUs, 64 B (source on both CPUs, two veth queues, each CPU its own flows as RSS")
            p("   gives them; _same: both send the same flows; 1 CPU measured just before):")
            p("     %-26s %9s %9s %16s %11s %18s" % ("forwarder", "1 CPU", "2 CPUs", "scaling min..max",
                                                 "x bare 2CPU", "lost claims / Mfr"))
            for m in two:
                c1, c2 = summ.get(m + "_c1", {}).get("64", {}), summ[m + "_c2"]["64"]
                lost = "-"
                if c2.get("flowlet_claim_lost") is not None and c2.get("rocedp_forwarded"):
                    lost = "%.1f (%d of %d)" % (1e6 * c2["flowlet_claim_lost"] / c2["rocedp_forwarded"],
                                                c2["flowlet_claim_lost"], c2["rocedp_forwarded"])
                p("     %-26s %9s %9.3f %16s %11s %18s" % (
                    m, "%.3f" % c1["mpps_median"] if c1 else "-", c2["mpps_median"],
                    "%.2f (%.2f..%.2f)" % (c2["scaling"], c2["scaling_min"], c2["scaling_max"])
                    if "scaling" in c2 else "-",
                    "%.0f%%" % (100 * c2["share_of_bare"]) if "share_of_bare" in c2 else "-", lost))
        for mode, what in (("rocedp_native", "default features, ECN running"),
                           ("rocedp_native_fwd", "forward only, as the kernel")):
            n = summ.get(mode, {}).get("64", {})
            if "ratio_to_kernel" in n:
                targets.append(("rocedp native XDP >= 2.5x kernel Mpps, 64 B, %s" % what,
                                "%.2fx (%.2f..%.2f)" % (n["ratio_to_kernel"], n["ratio_min"],
                                                        n["ratio_max"]),
                                n["ratio_to_kernel"] >= 2.5
                                and (n.get("rocedp_forwarded") or 0) >= n["received"]))
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
        p("   per 2^20 flowlets (ARRAY of 4-way sets, 96 B a way): %d B computed (%s), "
          "%d B memlock (%s, %.0f B/flow)"
          % (f["computed_bytes"], mib(f["computed_bytes"]), f["memlock_bytes"],
             mib(f["memlock_bytes"]), f["memlock_bytes"] / (1 << 20)))
        r = mem["routes4_100k"]
        p("   rd_routes4 (LPM, no prealloc): %d B memlock empty, %d B with %d routes"
          % (r["memlock_empty_bytes"], r["memlock_bytes"], r["routes"]))
    else:
        p("   MISSING (section failed or not run)")

    # ------------------------------------------------------------ resil
    rs = load(os.path.join(d, "resil.json"))
    doc["resilient"] = rs
    p("")
    p("== member going down and back (%s flows over %s members, %s buckets)"
      % ((rs or {}).get("flows"), (rs or {}).get("members"), (rs or {}).get("buckets")))
    if rs:
        healthy = rs["flows"] * (rs["members"] - 1) / rs["members"]
        p("   %-17s %24s %24s %20s" % ("", "healthy moved on down", "moved on up (goal 14.5%)",
                                       "hash-threshold down/up"))
        for k in ("link_down", "neighbour_failed", "weight_0"):
            r = rs[k]
            p("   %-17s %15d (%5.2f%%) %15d (%5.2f%%) %10.1f%% / %.1f%%"
              % (k, r["down_healthy_moved"], 100.0 * r["down_healthy_moved"] / healthy,
                 r["up_moved"], 100.0 * r["up_moved"] / rs["flows"],
                 100.0 * r["threshold_down_healthy_moved"] / healthy,
                 100.0 * r["threshold_up_healthy_moved"] / healthy))
        p("   (healthy: flows not on the member taken out; hash-threshold: the choice this replaced, "
          "on the same hashes)")
        rw = rs.get("random_weights")
        if rw:
            p("   random weights 1..8, 2..16 members, 128 buckets: %d of %d member-down events moved"
              " a healthy bucket (goal 0), %d not restored; worst share %.3f bucket(s) off,"
              " %.3f with one down; weight 0 instead: %d events, %d buckets"
              % (rw["healthy_moved_events"], rw["events"], rw["not_restored"],
                 rw["max_share_dev"], rw["max_share_dev_down"],
                 rw["weight_0_healthy_moved_events"], rw["weight_0_healthy_moved_buckets"]))
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

    # ------------------------------------------------------------ failover
    fo = load(os.path.join(d, "failover.json"))
    doc["failover"] = fo
    p("")
    p("== failover under traffic (FRR fabric; tests/harness/bench/failover.sh)")
    if not fo:
        p("   MISSING (section failed or not run)")
    elif fo.get("missing"):
        p("   MISSING: %s" % fo["why"])
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from failover_table import table
        lines.extend("   " + x for x in table(fo).splitlines())
        # a row without a measurement counts nothing: it must not pass as 0
        failed = [r for r in fo["rows"] if r.get("error")]
        why = ("; %d of %d event runs FAILED (%s)" % (len(failed), len(fo["rows"]),
                                                      failed[0]["error"]) if failed else "")
        dead = [r.get("to_dead") for r in fo["rows"] if r["mode"] == "rocedp" and r.get("to_dead") is not None]
        targets.append(("failover: rocedp sends 0 frames to a dead member once it is known",
                        "%s%s" % (sum(dead), why), sum(dead) == 0 and not failed))
        # (d) is a routing outage of seconds for both; its count is the
        # sender's retransmissions into it (docs/frr.md)
        lost = {m: sum(r.get("lost") or 0 for r in fo["rows"] if r["mode"] == m and r["event"] != "flap")
                for m in ("rocedp", "kernel")}
        targets.append(("failover: rocedp loses no more frames than the kernel, events a-c",
                        "%d vs %d%s" % (lost["rocedp"], lost["kernel"], why),
                        lost["rocedp"] <= lost["kernel"] and not failed))

    # ------------------------------------------------------------ scale
    sc = load(os.path.join(d, "scale.json"))
    doc["scale"] = sc
    p("")
    p("== route scale over BGP (injector bgpd -> leaf zebra -> kernel -> rocedp sync; "
      "tests/harness/bench/scale.sh)")
    if not sc:
        p("   MISSING (section failed or not run)")
    elif sc.get("missing"):
        p("   MISSING: %s" % sc["why"])
    else:
        p("   %d IPv4 + %d IPv6 prefixes; seconds from the trigger until the count is final"
          % (sc["n4"], sc["n6"]))
        p("   %-12s %9s %9s %9s %8s  %s" % ("event", "kernel s", "maps s", "lag s", "poll s",
                                          "final kernel v4/v6, maps v4/v6"))
        lags = []
        for k in ("advertise", "withdraw", "readvertise"):
            e = sc[k]
            f = lambda v: "-" if v is None else "%.3f" % v
            p("   %-12s %9s %9s %9s %8s  %d/%d, %d/%d"
              % (k, f(e["kernel_s"]), f(e["maps_s"]), f(e["lag_s"]), f(e.get("poll_mean_s")),
                 e["kernel_v4"], e["kernel_v6"], e["maps_v4"], e["maps_v6"]))
            lags.append(e["lag_s"])
        for k in ("contents_advertise", "contents_readvertise"):
            c = sc.get(k)
            if c:
                p("   %s: kernel %d bgp routes, maps %d, %d differ (prefix, next hops, port) %s"
                  % (k.replace("contents_", "contents after "), c["kernel"], c["maps"],
                     c["differ"], " ".join(c["first"])))
                lags.append(None if c["differ"] else 0)
        st = sc.get("sync") or {}
        p("   sync daemon: peak RSS (VmHWM) %.1f MiB, CPU %.2f s user + %.2f s sys; "
          "%s events, %s resyncs, %s overruns"
          % (sc["vmhwm_kb"] / 1024, sc["cpu_user_s"], sc["cpu_sys_s"], st.get("events"),
             st.get("resyncs"), st.get("overruns")))
        ok = all(v is not None and v < 1 for v in lags)
        targets.append(("scale: maps equal the kernel within 1 s at %dk routes"
                        % ((sc["n4"] + sc["n6"]) // 1000),
                        "max lag %s s, %s overruns, %s resyncs"
                        % (max(lags) if ok else "-", st.get("overruns"), st.get("resyncs")), ok))

    # ------------------------------------------------------------ prom
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from prom_table import prom_section
    doc["prom"] = prom_section(load_lines(os.path.join(d, "prom.jsonl")),
                               load(os.path.join(d, "prom.json")), p, targets)

    # ------------------------------------------------------------ targets
    doc["targets"] = [{"target": t, "measured": m, "met": ok} for t, m, ok in targets]
    p("")
    p("== targets")
    for t, m, ok in targets:
        p("   %-72s %-7s %s" % (t, "met" if ok else "MISSED", m))
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
