#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The prom section of `make bench` (tests/harness/bench/prom.sh): the
default row's throughput alone, with the exporter scraped every second by
Prometheus (placed by the scheduler), and with both pinned to the
forwarding CPU, from prom.jsonl. Used by report.py."""
import statistics

SCRAPED = ("rocedp_native_prom", "rocedp_native_prom_pinned")


def prom_section(rows, missing, p, targets):
    """prints the section through p, appends its target; returns its JSON"""
    p("")
    p("== the exporter and Prometheus (1 s scrapes) against the default row "
      "(64 B, rocedp native; tests/harness/bench/prom.sh)")
    if missing and missing.get("missing"):
        p("   MISSING: %s" % missing["why"])
        return missing
    if not rows:
        p("   MISSING (section failed or not run)")
        return None
    by = {}
    for r in rows:
        by.setdefault(r["run"], {})[r["mode"]] = r
    runs = [x for _, x in sorted(by.items())
            if all(m in x for m in ("rocedp_native",) + SCRAPED) and x["rocedp_native"]["mpps"] > 0]
    if not runs:
        p("   MISSING (no run measured all three)")
        return None
    p("   %-4s %8s  %-34s  %-34s" % ("", "alone", "scraped (scheduler places them)",
                                     "scraped, pinned to the forwarding CPU"))
    p("   %-4s %8s  %8s %6s %5s %12s  %8s %6s %5s %12s"
      % ("run", "Mpps", "Mpps", "ratio", "scr.", "CPU s (exp.)",
         "Mpps", "ratio", "scr.", "CPU s (exp.)"))
    ratios = {m: [] for m in SCRAPED}
    few = False
    for x in runs:
        a = x["rocedp_native"]
        cells = []
        for m in SCRAPED:
            b = x[m]
            q = b["mpps"] / a["mpps"]
            ratios[m].append(q)
            # a run whose Prometheus did not scrape every second proves nothing
            few |= b.get("scrapes", 0) < int(b["seconds"]) - 1
            cells.append("%8.3f %6.3f %5s %5.2f (%4.2f)" % (b["mpps"], q, b.get("scrapes", 0),
                                                          b.get("cpu_s", 0), b.get("exporter_cpu_s", 0)))
        p("   %-4d %8.3f  %s  %s" % (a["run"], a["mpps"], cells[0], cells[1]))
    med = {m: statistics.median(v) for m, v in ratios.items()}
    p("   median ratio: %.3f (cost %.1f%%) placed by the scheduler, %.3f (cost %.1f%%) pinned; "
      "CPU s: both daemons' user + system time over the measured window (the exporter's)"
      % (med[SCRAPED[0]], 100 * (1 - med[SCRAPED[0]]), med[SCRAPED[1]], 100 * (1 - med[SCRAPED[1]])))
    targets.append(("exporter + Prometheus (1 s scrapes) cost <= 5% of the default row",
                    "%.1f%% (median of %d; pinned to its CPU: %.1f%%)%s"
                    % (100 * (1 - med[SCRAPED[0]]), len(runs), 100 * (1 - med[SCRAPED[1]]),
                       ", too few scrapes" if few else ""),
                    med[SCRAPED[0]] >= 0.95 and not few))
    return {"runs": [{m: x[m] for m in ("rocedp_native",) + SCRAPED} for x in runs],
            "median_ratio": round(med[SCRAPED[0]], 4),
            "median_ratio_pinned": round(med[SCRAPED[1]], 4)}
