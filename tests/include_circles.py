#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Circles between modules, for tests/include_circles.sh.

usage: include_circles.py inc ROOT | link OBJ...
One line per circle; exit 1 if any."""
import os, re, subprocess, sys

mode, args = sys.argv[1], sys.argv[2:]
edges = {}

def module(path):
    return os.path.splitext(os.path.normpath(path))[0]

def add(a, b, why):
    edges.setdefault(a, {})
    edges.setdefault(b, {})
    if a != b:
        edges[a].setdefault(b, why)

if mode == "inc":
    root = args[0]
    # the makefiles' -I paths: userspace/lib and each subsystem folder
    lib = os.path.join(root, "userspace/lib")
    subs = sorted(d for d in os.listdir(lib)
                  if os.path.isdir(os.path.join(lib, d))) \
        if os.path.isdir(lib) else []
    ipath = ["userspace/lib"] + ["userspace/lib/" + d for d in subs] + \
        ["bpf", "tests/harness/lbeval"]
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for d in ["userspace", "bpf", "tools", "tests"]:
        for dp, dn, fn in os.walk(os.path.join(root, d)):
            dn[:] = sorted(x for x in dn if not x.startswith("build"))
            for f in sorted(fn):
                if not f.endswith((".c", ".h")):
                    continue
                f = os.path.relpath(os.path.join(dp, f), root)
                edges.setdefault(module(f), {})
                with open(os.path.join(root, f), errors="replace") as fh:
                    names = inc.findall(fh.read())
                for name in names:
                    for d2 in [os.path.dirname(f)] + ipath:
                        cand = os.path.normpath(os.path.join(d2, name))
                        if os.path.isfile(os.path.join(root, cand)):
                            add(module(f), module(cand), name)
                            break
else:
    defs, undef = {}, {}
    for o in args:
        m = os.path.basename(module(o))
        edges.setdefault(m, {})
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRC":
                defs[p[2]] = m
            elif len(p) == 2 and p[0] == "U":
                undef.setdefault(m, set()).add(p[1])
    for m, syms in sorted(undef.items()):
        for s in sorted(syms):
            if s in defs:
                add(m, defs[s], s)

# Tarjan's strongly connected components, iteratively
index, low, onstack, stack, sccs = {}, {}, set(), [], []
for start in sorted(edges):
    if start in index:
        continue
    index[start] = low[start] = len(index)
    stack.append(start); onstack.add(start)
    work = [(start, iter(sorted(edges[start])))]
    while work:
        v, it = work[-1]
        nxt = next(it, None)
        if nxt is not None:
            if nxt not in index:
                index[nxt] = low[nxt] = len(index)
                stack.append(nxt); onstack.add(nxt)
                work.append((nxt, iter(sorted(edges[nxt]))))
            elif nxt in onstack:
                low[v] = min(low[v], index[nxt])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); onstack.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

print("%s: %d modules, %d edges" %
      (mode, len(edges), sum(len(e) for e in edges.values())))
for comp in sccs:
    inner = ["%s -> %s (%s)" % (a, b, edges[a][b]) for a in comp
             for b in sorted(edges[a]) if b in comp]
    print("circle: %s: %s" % (" ".join(comp), "; ".join(inner)))
sys.exit(1 if sccs else 0)
