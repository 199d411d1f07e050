#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make demo's report (docs/demo.md, The report): build/demo/report.html
from what tools/demo/fabric_demo.sh kept of its runs, one per hash mode:

  fabric.txt                  the fabric table, as the demo printed it
  fabric.png                  the share of leaf1's uplink bytes per mode
  fabric-MODE.json            rocegen run -j: every QP's completion time
  samples-MODE.LEAF.jsonl     `rocedp -j stats --watch` during the run: one
                              timestamped snapshot of the leaf's counters
                              a line
  fabric-qps.LEAF.txt         rocedp qps after the first run

and writes beside them the plots over time (gnuplot, tools/demo/report.gp):
per-uplink throughput per mode, CE marks and CNPs, the per-QP completion
time distribution, and the topology as SVG. Usage:

  report.py OUT_DIR SPINES MODE...
"""
import html
import json
import os
import subprocess
import sys


def samples(path):
    """[(t, {port: port_stats}, {class: packets})], oldest first"""
    rows = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    s = json.loads(line)
                except ValueError:
                    continue  # the line a kill cut short
                ports = {p["name"]: p for p in s.get("ports", []) if "name" in p}
                rows.append((s["timestamp"], ports, s.get("classes", {})))
    except OSError:
        pass
    return rows


def rates(rows, value):
    """[(t, per-second rate)] between consecutive samples of value(row)"""
    out = []
    for a, b in zip(rows, rows[1:]):
        dt = b[0] - a[0]
        if dt > 0:
            out.append(((a[0] + b[0]) / 2, (value(b) - value(a)) / dt))
    return out


def write_time_data(out, modes, spines):
    """one .dat per mode: t  up1..upN Mbit/s (leaf1 tx)  CE marks/s  CNPs/s;
    the run's time axis starts at its first sample. Returns the modes
    with samples, and the axes' ends all panels share."""
    have, xmax, ymax = [], 0.1, 1.0
    for mode in modes:
        leaves = [samples(f"{out}/samples-{mode}.leaf{l}.jsonl") for l in (1, 2)]
        if len(leaves[0]) < 2:
            continue
        t0 = leaves[0][0][0]
        cols = [rates(leaves[0], lambda r, s=s: 8e-6 * r[1].get(f"up{s}", {}).get("tx_bytes", 0))
                for s in range(1, spines + 1)]

        def marks(r):
            return sum(r[1].get(f"up{s}", {}).get("ecn_marked", 0) for s in range(1, spines + 1))

        def cnps(r):
            return r[2].get("cnp", 0)

        # both leaves mark and see CNPs: their sums at leaf1's sample times
        # (the nearest leaf2 sample; both sample at the same period)
        ce = [rates(rows, marks) for rows in leaves]
        cn = [rates(rows, cnps) for rows in leaves]

        def at(series, t):
            if not series:
                return 0.0
            return min(series, key=lambda p: abs(p[0] - t))[1]

        with open(f"{out}/report-{mode}.dat", "w") as f:
            f.write("# t_s " + " ".join(f"up{s}_mbps" for s in range(1, spines + 1))
                    + " ce_per_s cnps_per_s\n")
            for i, (t, _) in enumerate(cols[0]):
                xmax = max(xmax, t - t0)
                ymax = max([ymax] + [c[i][1] * 1.1 for c in cols])
                f.write(f"{t - t0:.3f} " + " ".join(f"{c[i][1]:.2f}" for c in cols)
                        + f" {at(ce[0], t) + at(ce[1], t):.1f} {at(cn[0], t) + at(cn[1], t):.1f}\n")
        have.append(mode)
    return have, round(xmax, 2), round(ymax)


def write_cdf_data(out, modes):
    """per mode: every QP's completion time (ms), sorted, with its rank"""
    have = []
    for mode in modes:
        try:
            run = json.load(open(f"{out}/fabric-{mode}.json"))
        except (OSError, ValueError):
            continue
        ms = sorted(q["completion_us"] / 1000 for s in run["senders"].values()
                    for q in s.get("qps", []))
        if not ms:
            continue
        with open(f"{out}/report-cdf-{mode}.dat", "w") as f:
            f.write("# completion_ms fraction_of_qps\n")
            for i, v in enumerate(ms):
                f.write(f"{v:.3f} {(i + 1) / len(ms):.4f}\n")
        have.append(mode)
    return have


def topology_svg(out, spines, hosts, modes):
    """leaves, spines and hosts; under each spine, the share of leaf1's
    uplink bytes on its uplink to it per mode (the first and last sample
    of each run)"""
    share = {}
    for mode in modes:
        rows = samples(f"{out}/samples-{mode}.leaf1.jsonl")
        if len(rows) < 2:
            continue
        tx = [rows[-1][1].get(f"up{s}", {}).get("tx_bytes", 0)
              - rows[0][1].get(f"up{s}", {}).get("tx_bytes", 0) for s in range(1, spines + 1)]
        total = sum(tx) or 1
        share[mode] = [100 * t / total for t in tx]
    w, h = 760, 420
    sx = [w * (s + 0.5) / spines for s in range(spines)]
    lx = [w * 0.25, w * 0.75]
    el = []

    def box(x, y, label, fill, bw=90):
        el.append(f'<rect x="{x - bw / 2}" y="{y - 16}" width="{bw}" height="32" rx="6" '
                  f'fill="{fill}" stroke="#333"/>')
        el.append(f'<text x="{x}" y="{y + 5}" text-anchor="middle" font-size="14">'
                  f'{html.escape(label)}</text>')

    for li, x in enumerate(lx):
        for si, s in enumerate(sx):
            el.append(f'<line x1="{x}" y1="210" x2="{s}" y2="70" stroke="#bbb" stroke-width="2"/>')
        for hi, hn in enumerate(hosts[li]):
            hx = x + (hi - (len(hosts[li]) - 1) / 2) * 120
            el.append(f'<line x1="{x}" y1="210" x2="{hx}" y2="340" stroke="#888" stroke-width="2"/>')
            box(hx, 340, hn, "#f4f4f4")
    for si, s in enumerate(sx):
        box(s, 70, f"spine{si + 1}", "#fde9c9")
        # under each spine: the share of leaf1's uplink bytes it carried
        for k, (m, v) in enumerate(share.items()):
            el.append(f'<text x="{s}" y="{104 + 13 * k}" font-size="11" text-anchor="middle" '
                      f'fill="#1f4e9a">{html.escape(f"up{si + 1} {m}: {v[si]:.0f}%")}</text>')
    for li, x in enumerate(lx):
        box(x, 210, f"leaf{li + 1} (rocedp)", "#d7e8fa", 130)
    el.append(f'<text x="10" y="{h - 12}" font-size="11" fill="#555">under each spine: '
              'the share of leaf1\'s uplink bytes on its uplink to it, per hash mode</text>')
    with open(f"{out}/topology.svg", "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="sans-serif">\n'
                + "\n".join(el) + "\n</svg>\n")


def hosts_of(out):
    hs = [[], []]
    try:
        for line in open(f"{out}/fabric.hosts"):
            name = line.split()[0]
            leaf = int(name[1:].split("-")[0])
            if leaf in (1, 2):
                hs[leaf - 1].append(name)
    except (OSError, ValueError, IndexError):
        pass
    return [sorted(h) or [f"h{i + 1}-1"] for i, h in enumerate(hs)]


def gnuplot(out, which, modes, spines, png, xmax=1, ymax=1):
    here = os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run(["gnuplot", "-e",
                        f"which='{which}'; dir='{out}'; modes='{' '.join(modes)}'; "
                        f"spines={spines}; outfile='{out}/{png}'; xmax={xmax}; ymax={ymax}",
                        f"{here}/report.gp"], capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(f"report: gnuplot {which}: {r.stderr.strip()}\n")
        return False
    return True


def read(path):
    try:
        return open(path).read()
    except OSError:
        return ""


def main():
    out, spines, modes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    figs = []  # (file, caption)
    tmodes, xmax, ymax = write_time_data(out, modes, spines)
    topology_svg(out, spines, hosts_of(out), modes)
    figs.append(("topology.svg", "The fabric: 2 leaves running rocedp, "
                 f"{spines} spines (the kernel forwards), shaped spine ports."))
    if os.path.exists(f"{out}/fabric.png"):
        figs.append(("fabric.png", "Share of leaf1's uplink bytes and the collective's "
                     "completion time per hash mode."))
    if tmodes and gnuplot(out, "tput", tmodes, spines, "report-tput.png", xmax, ymax):
        figs.append(("report-tput.png", "Leaf1's transmit rate per uplink over each run "
                     "(rocedp stats samples), one panel per hash mode."))
    if tmodes and gnuplot(out, "ecn", tmodes, spines, "report-ecn.png", xmax):
        figs.append(("report-ecn.png", "CE marks rocedp set on both leaves' uplinks, and "
                     "CNPs through both leaves, per second over each run."))
    cmodes = write_cdf_data(out, modes)
    if cmodes and gnuplot(out, "cdf", cmodes, spines, "report-cdf.png"):
        figs.append(("report-cdf.png", "Per-QP completion time: the fraction of QPs done "
                     "by each time (rocegen's per-QP results), per hash mode."))
    body = [f"<h1>rocedp demo: {len(modes)} hash modes on a 2-leaf x {spines}-spine fabric</h1>",
            "<h2>The fabric table</h2>",
            f"<pre>{html.escape(read(f'{out}/fabric.txt'))}</pre>"]
    for f, cap in figs:
        body.append(f'<figure><img src="{html.escape(f)}" alt="{html.escape(cap)}">'
                    f"<figcaption>{html.escape(cap)}</figcaption></figure>")
    for leaf in ("leaf1", "leaf2"):
        q = read(f"{out}/fabric-qps.{leaf}.txt")
        if q:
            body.append(f"<h2>{leaf}: the busiest QPs after the {html.escape(modes[0])} run "
                        "(rocedp qps)</h2>")
            body.append(f"<pre>{html.escape(q)}</pre>")
    with open(f"{out}/report.html", "w") as f:
        f.write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>rocedp demo report</title><style>"
                "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em}"
                "pre{font-size:12px;background:#f6f6f6;padding:.6em;overflow-x:auto}"
                "figure{margin:1.5em 0}img{max-width:100%}figcaption{color:#444;font-size:14px}"
                "</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    print(f"report: {out}/report.html ({len(figs)} figures)")


if __name__ == "__main__":
    main()
