#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The parsers of tests/cli_table.sh: the command table as rocedp help, each
command's help and the man page print it.

usage: cli_table.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def commands():
    """The commands rocedp help (FILE) names: "obj" or "obj verb", one a line."""
    import re, sys
    for line in open(sys.argv[1]):
        m = re.match(r"^  ([a-z][a-z-]*) +(.*)$", line.rstrip("\n"))
        if not m:
            continue
        obj, spec = m.group(1), m.group(2)
        # split at '|' outside [ ]
        alts, depth, cur = [], 0, ""
        for ch in spec:
            depth += (ch == "[") - (ch == "]")
            if ch == "|" and depth == 0:
                alts.append(cur); cur = ""
            else:
                cur += ch
        alts.append(cur)
        verbs = []
        for a in alts:
            w = a.split(" ")[0]
            if re.fullmatch(r"[a-z][a-z-]*", w) and w not in verbs:
                verbs.append(w)
        if verbs:
            for v in verbs:
                print(obj, v)
        else:
            print(obj)


def doc_opts():
    """The options a command's help (stdin) documents: "name;ARG;x" lines."""
    import re, sys
    for line in sys.stdin:
        m = re.match(r"^  (?:-(\w), )?\s*--([a-z][a-z0-9-]*)(?: (\S+))?", line)
        if m:
            print(";".join((m.group(2), m.group(3) or "", m.group(1) or "")))


def man_opts():
    """The man page (roff FILE)'s commands and options: "obj verb: --a --b -x" lines."""
    import re, sys
    src = open(sys.argv[1]).read()
    m = re.search(r"generated from the command table: COMMANDS\n(.*?)\.\\\" end of generated", src, re.S)
    cur, out = None, {}
    lines = m.group(1).split("\n") if m else []
    for i, l in enumerate(lines):
        if i and lines[i - 1] == ".TP":
            c = re.match(r"^\\fB([a-z][a-z -]*?)\\fR", l)
            if c:
                cur = c.group(1)
                out[cur] = []
                continue
            if cur:
                out[cur] += ["--" + o for o in re.findall(r"\\-\\-([a-z][a-z0-9\\-]*?)\\fR", l)]
                out[cur] = [o.replace("\\-", "-") for o in out[cur]]
                out[cur] += ["-" + s for s in re.findall(r"^\\fB\\-(\w)\\fR,", l)]
    for k, v in out.items():
        print(k + ":", " ".join(v))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
