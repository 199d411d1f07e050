#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The checks of tests/cli_prom.sh on rocedp's Prometheus exposition, its JSON
watch and its HTTP exporter.

usage: cli_prom.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def exposition():
    """Every family in the exposition FILE has HELP then TYPE, once, before its
    samples, in base units; no sample twice. Prints the family count."""
    import re, sys
    helped, typed, seen = set(), set(), set()
    for line in open(sys.argv[1]):
        line = line.rstrip("\n")
        m = re.match(r"^# HELP (\S+) \S", line)
        if m:
            assert m.group(1) not in helped, "HELP twice: " + line
            helped.add(m.group(1))
            continue
        m = re.match(r"^# TYPE (\S+) (counter|gauge)$", line)
        if m:
            assert m.group(1) in helped, "TYPE without HELP: " + line
            assert m.group(1) not in typed, "typed twice: " + line
            typed.add(m.group(1))
            continue
        assert not line.startswith("#"), "stray comment: " + line
        m = re.match(r"^([a-z_]+)(\{[^}]*\})? \S+$", line)
        assert m, "bad sample line: " + line
        assert m.group(1) in typed, "sample before its TYPE: " + line
        assert not re.search(r"micro|milli|_us\b|_ms\b", m.group(1)), "not a base unit: " + line
        key = line.rsplit(" ", 1)[0]
        assert key not in seen, "repeated: " + line
        seen.add(key)
    assert typed, "no family at all"
    print(len(typed))


def watch():
    """stats -j --watch 0.2 output (FILE): two or more documents, each 0.2 s or
    more after the last. Prints the count."""
    import json, sys
    ts = [json.loads(l)["timestamp"] for l in open(sys.argv[1]) if l.strip()]
    assert len(ts) >= 2, "%d documents" % len(ts)
    d = [b - a for a, b in zip(ts, ts[1:])]
    assert min(d) >= 0.19, "too close: %s" % d
    print(len(ts))


def fetch():
    """fetch URL FILE: the body into FILE; prints the HTTP status and Content-Type."""
    import sys, urllib.request, urllib.error
    try:
        r = urllib.request.urlopen(sys.argv[1], timeout=20)
        code, body = r.status, r.read()
        ctype = r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        code, body, ctype = e.code, e.read(), e.headers.get("Content-Type", "")
    open(sys.argv[2], "wb").write(body)
    print(code, ctype)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
