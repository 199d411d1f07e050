#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""rocedp-lab diagnose: where are frames lost, and which QPs suffer, asked of
Prometheus alone (its HTTP API, /api/v1/query and /api/v1/alerts), over
the recording rules of tools/prometheus/rocedp.rules.yml. Nothing here
knows the lab's size or shape: the links come from the switches' port
descriptions, so it answers for any number of leaves.

  diagnose.py --url URL [-j]          the diagnosis
  diagnose.py --url URL --query EXPR  one instant query's first value

Exit 0 when nothing is lost, 3 when frames are lost, 1 when Prometheus
cannot be asked.
"""
import argparse
import json
import sys
import urllib.parse
import urllib.request


def api(url, path, **params):
    q = urllib.parse.urlencode(params)
    with urllib.request.urlopen(f"{url}{path}?{q}", timeout=10) as r:
        doc = json.load(r)
    if doc.get("status") != "success":
        raise RuntimeError(f"{path}: {doc.get('error', doc)}")
    return doc["data"]


def query(url, expr):
    return api(url, "/api/v1/query", query=expr)["result"]


def diagnose(url):
    links = query(url, "rocedp:link_gaps:rate1m > 0")
    qps = query(url, "topk(20, rocedp:qp_gaps_new:rate1m)")
    # a node every lossy link goes through: the peer named most often
    peers = query(url, "sort_desc(count by (peer) (rocedp:link_gaps:rate1m > 0))")
    down = query(url, 'up{job="rocedp"} == 0 or rocedp_up == 0')
    alerts = api(url, "/api/v1/alerts")["alerts"]
    return {
        "lost": bool(links),
        "suspects": [{"node": p["metric"].get("peer", "?"),
                      "links": int(float(p["value"][1]))} for p in peers],
        "links": sorted(({"from": l["metric"].get("peer", "?"),
                          "to": l["metric"].get("switch", "?"),
                          "port": l["metric"].get("in_port", "?"),
                          "gaps_per_s": float(l["value"][1])} for l in links),
                        key=lambda x: -x["gaps_per_s"]),
        "qps": [{"switch": q["metric"].get("switch"),
                 "from": q["metric"].get("peer"),
                 "src": q["metric"].get("src"), "dst": q["metric"].get("dst"),
                 "qp": q["metric"].get("qp"),
                 "gaps_per_s": float(q["value"][1])} for q in qps],
        "not_rocedp": sorted(d["metric"].get("switch", d["metric"].get("instance", "?"))
                             for d in down),
        "alerts": [{"name": a["labels"].get("alertname"), "state": a["state"],
                    "labels": {k: v for k, v in a["labels"].items()
                               if k not in ("alertname", "severity")}}
                   for a in alerts],
    }


def text(d):
    out = []
    if not d["lost"]:
        out.append("no frames lost: no QP shows a new PSN gap over the last minute")
    else:
        top = d["suspects"][0]
        others = [s for s in d["suspects"][1:] if s["links"] == top["links"]]
        if others:
            out.append("frames lost behind %s (each named by %d lossy links)" %
                       (", ".join([top["node"]] + [s["node"] for s in others]), top["links"]))
        else:
            out.append("frames lost at %s: %d lossy link%s into the switches behind it" %
                       (top["node"], top["links"], "" if top["links"] == 1 else "s"))
        out.append("links (new PSN gaps per second, first seen at the switch after the link):")
        for l in d["links"]:
            out.append("  %-10s -> %s:%s  %.2f gaps/s" % (l["from"], l["to"], l["port"], l["gaps_per_s"]))
        out.append("QPs that suffer (top %d):" % len(d["qps"]))
        for q in d["qps"]:
            out.append("  %s -> %s qp %s  at %s from %s  %.2f gaps/s" %
                       (q["src"], q["dst"], q["qp"], q["switch"], q["from"], q["gaps_per_s"]))
    firing = [a for a in d["alerts"] if a["state"] == "firing"]
    out.append("alerts firing: %s" % (", ".join(
        "%s{%s}" % (a["name"], ",".join("%s=%s" % kv for kv in sorted(a["labels"].items())
                                        if kv[0] in ("switch", "peer", "in_port", "out_port", "qp")))
        for a in firing) or "none"))
    if d["not_rocedp"]:
        out.append("scraped, no dataplane there (rocedp_up 0): %s" % " ".join(d["not_rocedp"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", required=True)
    ap.add_argument("--query")
    ap.add_argument("-j", "--json", action="store_true")
    a = ap.parse_args()
    try:
        if a.query:
            r = query(a.url, a.query)
            print(r[0]["value"][1] if r else "")
            return 0
        d = diagnose(a.url)
    except (OSError, RuntimeError, ValueError) as e:
        print(f"rocedp-lab: diagnose: Prometheus at {a.url}: {e}", file=sys.stderr)
        return 1
    print(json.dumps(d, indent=1) if a.json else text(d))
    return 3 if d["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
