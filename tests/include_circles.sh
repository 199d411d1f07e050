#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No include circles: a module is a file's directory and name without the
# extension (userspace/attach_xdp.c and .h are one module); module A
# depends on B when A's .c or .h includes B's header. A circle (A needs B,
# B needs A, directly or through others) means neither can be read, tested
# or linked without the other, so the layers are gone. Checked over
# userspace/, bpf/, tools/ and tests/, with the include paths the makefiles
# give (the including file's directory, then userspace, bpf, tools/lbeval);
# generated headers (the skeletons) are leaves and skipped.
#
# First the checker is shown a circle it must find, then the tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
PY=${PY:-/usr/bin/python3}

check() { # ROOT: prints one line per circle, exits 1 if any
	"$PY" - "$1" <<'EOF'
import os, re, sys

root = sys.argv[1]
dirs = ["userspace", "bpf", "tools", "tests"]
ipath = ["userspace", "bpf", "tools/lbeval"]
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

files = []
for d in dirs:
    for dp, dn, fn in os.walk(os.path.join(root, d)):
        dn[:] = sorted(x for x in dn if not x.startswith("build"))
        for f in sorted(fn):
            if f.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(dp, f), root))

def module(path):
    return os.path.splitext(os.path.normpath(path))[0]

edges = {}
for f in files:
    m = module(f)
    edges.setdefault(m, set())
    with open(os.path.join(root, f), errors="replace") as fh:
        text = fh.read()
    for name in inc.findall(text):
        for d in [os.path.dirname(f)] + ipath:
            cand = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(os.path.join(root, cand)):
                if module(cand) != m:
                    edges[m].add(module(cand))
                break

# Tarjan's strongly connected components, iteratively
index, low, onstack, stack, sccs = {}, {}, set(), [], []
counter = [0]
for start in sorted(edges):
    if start in index:
        continue
    work = [(start, iter(sorted(edges[start])))]
    index[start] = low[start] = counter[0]; counter[0] += 1
    stack.append(start); onstack.add(start)
    while work:
        v, it = work[-1]
        nxt = next(it, None)
        if nxt is not None:
            edges.setdefault(nxt, set())
            if nxt not in index:
                index[nxt] = low[nxt] = counter[0]; counter[0] += 1
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

print("# %d modules, %d include edges" %
      (len(edges), sum(len(e) for e in edges.values())))
for comp in sccs:
    inner = ["%s -> %s" % (a, b) for a in comp for b in sorted(edges[a])
             if b in comp]
    print("circle: %s (%s)" % (" ".join(comp), "; ".join(inner)))
sys.exit(1 if sccs else 0)
EOF
}

# the checker finds a circle through three modules, and none in a chain
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/userspace" "$tmp/tools/x"
printf '#include "b.h"\n' >"$tmp/userspace/a.c"
printf '#include "c.h"\n' >"$tmp/userspace/b.c"
: >"$tmp/userspace/a.h" >"$tmp/userspace/b.h" >"$tmp/userspace/c.h"
printf '#include "a.h"\n' >"$tmp/userspace/c.c"
printf '#include "y.h"\n' >"$tmp/tools/x/m.c"
: >"$tmp/tools/x/y.h"
out=$(check "$tmp")
if [ $? -ne 0 ] && grep -q 'circle: userspace/a userspace/b userspace/c' <<<"$out"; then
	echo "ok - checker finds a circle a -> b -> c -> a"
else
	echo "not ok - checker finds a circle a -> b -> c -> a"
	echo "$out" | sed 's/^/# /'
fi
: >"$tmp/userspace/c.c"
if out=$(check "$tmp"); then
	echo "ok - checker accepts the chain a -> b -> c"
else
	echo "not ok - checker accepts the chain a -> b -> c"
	echo "$out" | sed 's/^/# /'
fi

if out=$(check "$top"); then
	echo "$out"
	echo "ok - no include circle in userspace, bpf, tools, tests"
else
	echo "$out" | sed 's/^circle/# circle/'
	echo "not ok - no include circle in userspace, bpf, tools, tests"
fi
