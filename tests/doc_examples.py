#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The example finder of tests/doc_examples.sh.

usage: doc_examples.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def extract():
    """extract ROOT ROCEDP: every rocedp command line in README.md and docs/*.md
    (code blocks and inline spans), one a line: FILE:LINE, CLASS (run, syntax,
    name, allowed), REASON, TEXT, separated by 0x1f. $ALLOWED holds
    "PATTERN|REASON" lines of examples not to run."""
    import fnmatch, glob, os, re, subprocess, sys
    root = sys.argv[1]
    # each object's line of `rocedp help`: "config show|dump|check FILE|..."
    helps = dict(re.findall(r"^  ([a-z][a-z-]*) +(.*)$",
        subprocess.run([sys.argv[2], "help"], capture_output=True, text=True).stdout, re.M))
    allowed = [l.split("|", 1) for l in os.environ["ALLOWED"].splitlines() if l]
    # rocedp as the command: at the start, after a path, or after ip netns exec NAME
    start = re.compile(r"^(ip netns exec \S+ )?(\S*/)?rocedp(\s+-\S+)*\s+[a-z]")
    anywhere = re.compile(r"(^|[\s/])rocedp(\s+-\S+)*\s+[a-z]")
    placeholder = re.compile(r"(^|\s)(\[|<|\S*\.\.\.)|(^|\s)[A-Z][A-Z_]*(=[A-Z]+)?(\s|$)|<[a-z]")
    out = []
    def add(loc, text, inline):
        text = text.strip()
        for pat, why in allowed:
            if fnmatch.fnmatchcase(text, pat):
                out.append((loc, "allowed", why, text)); return
        if placeholder.search(re.sub(r"'[^']*'", "''", text)):
            out.append((loc, "syntax", "", text))
        elif inline and len(text.split()) == 2 and text.startswith("rocedp "):
            out.append((loc, "name", "", text))
        elif (inline and re.fullmatch(r"rocedp [a-z-]+ [a-z-]+", text) and
              re.search(r"(^|\|)%s [A-Z\[]" % text.split()[2], helps.get(text.split()[1], ""))):
            # "`rocedp ecn set` takes ...": a command named in prose, whose
            # arguments the help line requires
            out.append((loc, "name", "", text))
        else:
            out.append((loc, "run", "", text))
    for f in ["README.md"] + sorted(glob.glob("docs/*.md")):
        src = open(os.path.join(root, f)).read()
        lines, block, cont = src.split("\n"), False, ""
        for i, l in enumerate(lines, 1):
            if l.lstrip().startswith("```"):
                block = not block
                continue
            if not block:
                continue
            l = re.sub(r"^\s*[$#] ", "", cont + l) if not cont else cont + l
            if l.endswith("\\"):
                cont = l[:-1]
                continue
            cont = ""
            if anywhere.search(l) and not re.search(r"^\s*(#|rocedp-lab )", l):
                add(f"{f}:{i}", re.sub(r"\s+#.*$", "", l), False)
        # inline spans outside code blocks (a span may wrap a line)
        prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), src, flags=re.S)
        for m in re.finditer(r"`([^`\n]*(?:\n[^`\n]*)?)`", prose):
            t = " ".join(m.group(1).split())
            if start.search(t):
                add(f"{f}:{prose.count(chr(10), 0, m.start()) + 1}", t, True)
    for o in out:
        print("\x1f".join(o))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
