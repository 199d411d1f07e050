#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Finds Python embedded in shell scripts: heredocs fed to a Python
interpreter (or written to a .py file, or delimited by PY...) and
`python3 -c '...'` strings that span lines. A block of more than MAX lines
belongs in a .py file next to its caller, with a docstring, where an
editor, a linter and a reader see it as Python.

usage: py_in_shell.py [--max N] [--all] [--allow LIST] FILE...
Prints "FILE:LINE: N lines of Python (kind)" for each block over N lines
(default 3); with --all, every block. Exit 1 if any block is over N.
--allow LIST: lines "FILE LINES" name files that may still hold up to
LINES lines of Python in blocks over N (what is left to move; it may only
shrink); such a file fails only when it holds more.
"""
import argparse
import re
import sys

# a Python interpreter on a command line: python3, python, $PY, ${PY},
# "$PYTHON", scapy's /usr/bin/python3 ...
PYCMD = re.compile(r"(\bpython3?\b|\$\{?PY(THON)?\}?\b)")
HEREDOC = re.compile(r"<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z_0-9]*)\2")
INLINE = re.compile(r"\s-c\s+(['\"])")
CONT = re.compile(r"\s-c\s*\\$")


def heredoc_is_python(line, delim):
    """A heredoc holds Python when its command runs an interpreter, writes
    a .py file, or its delimiter says so (PY, PYEOF, PYTHON...)."""
    before = line[: HEREDOC.search(line).start()]
    return bool(PYCMD.search(before) or re.search(r"\.py\b", line)
                or delim.upper().startswith("PY"))


def close_quote(text, quote):
    """Index of the quote that closes a string starting at text[0:], or -1.
    Single quotes end at the next '; double quotes skip \\-escapes."""
    i = 0
    while i < len(text):
        c = text[i]
        if quote == '"' and c == "\\":
            i += 2
            continue
        if c == quote:
            return i
        i += 1
    return -1


def scan(path):
    """Yields (line number, body lines, kind) for each Python block."""
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except OSError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return
    i = 0
    while i < len(lines):
        line = lines[i]
        start = i
        m = HEREDOC.search(line)
        if m and not line.lstrip().startswith("#"):
            strip_tabs, delim = m.group(1) == "-", m.group(3)
            j = i + 1
            while j < len(lines):
                body = lines[j].lstrip("\t") if strip_tabs else lines[j]
                if body == delim:
                    break
                j += 1
            if j == len(lines):  # no end: "<<" was no heredoc (a string)
                i += 1
                continue
            if heredoc_is_python(line, delim):
                yield start + 1, j - i - 1, "heredoc"
            i = j + 1
            continue
        if PYCMD.search(line) and not line.lstrip().startswith("#"):
            m = INLINE.search(line, PYCMD.search(line).end())
            if not m and CONT.search(line) and i + 1 < len(lines):
                # python3 -c \
                #     '...'
                i += 1
                line = " " + lines[i]
                m = INLINE.search(line)
            if m:
                rest = line[m.end():]
                if close_quote(rest, m.group(1)) < 0:
                    j = i + 1
                    while j < len(lines) and close_quote(lines[j], m.group(1)) < 0:
                        j += 1
                    # the code on the opening and closing lines counts too
                    last = lines[j][: close_quote(lines[j], m.group(1))] if j < len(lines) else ""
                    n = j - i - 1 + bool(rest.strip()) + bool(last.strip())
                    yield start + 1, n, "python -c"
                    i = j + 1
                    continue
        i += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=3)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--allow")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    allow = {}
    if a.allow:
        for ln in open(a.allow):
            w = ln.split("#")[0].split()
            if len(w) == 2:
                allow[w[0]] = int(w[1])
    bad = 0
    for f in a.files:
        blocks = list(scan(f))
        over = sum(n for _, n, _ in blocks if n > a.max)
        if over > allow.get(f, 0):
            bad += 1
        for ln, n, kind in blocks:
            if a.all or (n > a.max and over > allow.get(f, 0)):
                print(f"{f}:{ln}: {n} lines of Python ({kind})")
        if over > allow.get(f, 0) and f in allow:
            print(f"{f}: {over} lines in blocks over {a.max}, allowed {allow[f]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
