#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The model reader of tests/sonic_yang.sh.

usage: sonic_yang.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def defaults():
    """defaults YANG: ROCEDP|global as CONFIG_DB holds it, every leaf of
    ROCEDP_LIST at the model's default (a leaf-list as "field@"), as JSON."""
    import json, re, sys
    text = open(sys.argv[1]).read()
    body = text[text.index("list ROCEDP_LIST"):text.index("container ROCEDP_QOS")]
    g = {}
    for kind, name, block in re.findall(r"(leaf-list|leaf) (\w+) \{(.*?)\n                \}", body, re.S):
        if name == "name":
            continue
        m = re.search(r"default ([^;]+);", block)
        if kind == "leaf-list":
            g[name + "@"] = "forward,remark,ecn"
        else:
            g[name] = m.group(1) if m else "1"
    print(json.dumps({"ROCEDP": {"global": g}}))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
