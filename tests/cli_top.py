#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The JSON check of tests/cli_top.sh.

usage: cli_top.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def two_docs():
    """rocedp -j top -n 2 --limit 2 output (FILE): two JSON documents with two QPs,
    their rates, and the ports."""
    import json, sys
    docs = [json.loads(l) for l in open(sys.argv[1])]
    assert len(docs) == 2, len(docs)
    for d in docs:
        assert len(d["qps"]) == 2 and d["ports"][0]["name"] == "lo", d
        assert "per_second" in d["qps"][0] and "flaps" in d["ports"][0]


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
