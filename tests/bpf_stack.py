#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Worst combined BPF stack of each entry program, as Linux 6.1 counts it.

6.1's verifier (check_max_stack_depth) walks every call chain from the
entry and adds each frame's stack depth rounded up to 32 bytes; a bpf_loop
callback counts as a call where its address is loaded. Above 512 the
program is refused ("combined stack size of N calls is M. Too large").
Newer kernels round JIT frames to 16, so a chain can load on the
development host and fail on SONiC's 6.1. This reads the object, not a
kernel: a frame's depth is the deepest r10 offset its code touches (what
the verifier records; an upper bound if a path is dead), the calls are the
pseudo calls and function-address loads. One TAP line per entry program,
failing above --limit (480: a margin under 512 for code growth).

Usage: bpf_stack.py [--limit N] [--objdump PATH] OBJECT.bpf.o
"""
import argparse
import re
import subprocess
import sys

MAX_BPF_STACK = 512
FRAME_ROUND = 32  # 6.1: the interpreter's granularity, for every frame

SYM_RE = re.compile(r'^([0-9a-f]+)\s+(\S+)\s+F\s+(\S+)\s+([0-9a-f]+)\s+(\S+)$')
SEC_RE = re.compile(r'^Disassembly of section (\S+):$')
INSN_RE = re.compile(r'^\s*(\d+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$')
RELOC_RE = re.compile(r'^\s+([0-9a-f]+):\s+(R_BPF_\w+)\s+(\S+)$')
FP_MEM_RE = re.compile(r'\(r10 - (0x[0-9a-f]+|\d+)\)')
FP_COPY_RE = re.compile(r'^r(\d+) = r10$')
ADD_RE = re.compile(r'^r(\d+) ([+-])= (-?)(0x[0-9a-f]+|\d+)$')
DEF_RE = re.compile(r'^[rw](\d+) (?:=|\+=|-=|\*=|/=|&=|\|=|<<=|>>=|s>>=|\^=) ')


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def functions(objdump, obj):
    """{(section, offset): (name, size)} of the object's functions."""
    funcs = {}
    for line in run([objdump, '-t', obj]).splitlines():
        m = SYM_RE.match(line.strip())
        if m:
            funcs[(m.group(3), int(m.group(1), 16))] = (m.group(5),
                                                         int(m.group(4), 16))
    return funcs


def imm32(raw):
    v = int.from_bytes(bytes(raw[4:8]), 'little')
    return v - (1 << 32) if v & (1 << 31) else v


def analyse(objdump, obj):
    """Per function: stack depth and callees (name -> set of names)."""
    funcs = functions(objdump, obj)
    by_name = {name: (sec, off) for (sec, off), (name, _) in funcs.items()}
    depth = {name: 0 for name in by_name}
    calls = {name: set() for name in by_name}
    insns = []  # (section, byte offset, raw bytes, text)
    relocs = {}  # (section, byte offset) -> symbol
    sec = None
    for line in run([objdump, '-dr', obj]).splitlines():
        m = SEC_RE.match(line)
        if m:
            sec = m.group(1)
            continue
        m = RELOC_RE.match(line)
        if m and sec:
            relocs[(sec, int(m.group(1), 16))] = m.group(3)
            continue
        m = INSN_RE.match(line)
        if m and sec:
            raw = [int(b, 16) for b in m.group(2).split()]
            insns.append((sec, int(m.group(1)) * 8, raw, m.group(3).strip()))

    def owner(sec, off):
        for (s, start), (name, size) in funcs.items():
            if s == sec and start <= off < start + size:
                return name
        return None

    def target(sec, off, raw, call):
        """The function a call or address load at (sec, off) names."""
        sym = relocs.get((sec, off))
        if sym in by_name:
            return sym
        if sym is None and call:  # pc-relative, in the same section
            tsec, toff = sec, off + 8 + imm32(raw) * 8
        elif sym is not None and sym.startswith('.'):  # section symbol
            tsec = sym
            toff = (imm32(raw) + 1) * 8 if call else imm32(raw)
        else:
            return None  # an extern (kfunc), a map, a constant
        hit = funcs.get((tsec, toff))
        return hit[0] if hit else None

    fp = {}  # register -> offset from r10, within the current function
    cur = None
    for sec, off, raw, text in insns:
        name = owner(sec, off)
        if name != cur:
            cur, fp = name, {}
        if name is None:
            continue
        for m in FP_MEM_RE.finditer(text):
            depth[name] = max(depth[name], int(m.group(1), 0))
        op, src = raw[0], raw[1] >> 4
        if op == 0x85:
            t = target(sec, off, raw, True) if src == 1 else None
            if t:  # BPF_PSEUDO_CALL
                calls[name].add(t)
            fp = {r: v for r, v in fp.items() if int(r) > 5}
            continue
        elif op == 0x18 and (sec, off) in relocs:
            t = target(sec, off, raw, False)
            if t:  # a callback's address (bpf_loop): 6.1 counts a call
                calls[name].add(t)
        m = FP_COPY_RE.match(text)
        if m:
            fp[m.group(1)] = 0
            continue
        m = ADD_RE.match(text)
        if m and m.group(1) in fp:
            v = int(m.group(4), 0) * (-1 if m.group(3) else 1)
            fp[m.group(1)] += v if m.group(2) == '+' else -v
            depth[name] = max(depth[name], -fp[m.group(1)])
            continue
        m = DEF_RE.match(text)
        if m:
            fp.pop(m.group(1), None)
    entries = sorted({n for (s, _), (n, _) in funcs.items() if s != '.text'})
    return entries, depth, calls


def frame(d):
    return -(-max(d, 1) // FRAME_ROUND) * FRAME_ROUND


def worst(name, depth, calls, seen=()):
    """(bytes, chain) of the deepest call chain from name."""
    if name in seen:  # BPF has no recursion; never loop here
        return frame(depth[name]), [name]
    best = (0, [])
    for c in sorted(calls[name]):
        w = worst(c, depth, calls, seen + (name,))
        if w[0] > best[0]:
            best = w
    return frame(depth[name]) + best[0], [name] + best[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--limit', type=int, default=480)
    ap.add_argument('--objdump', default='llvm-objdump')
    ap.add_argument('obj')
    a = ap.parse_args()
    try:
        entries, depth, calls = analyse(a.objdump, a.obj)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f'not ok 1 - read {a.obj}: {e}')
        return 1
    n = 1
    ok = bool(entries) and any(calls[e] for e in entries)
    print(f'{"" if ok else "not "}ok {n} - {a.obj}: {len(entries)} entry '
          f'programs, {sum(map(len, calls.values()))} calls found')
    failed = not ok
    for e in entries:
        n += 1
        total, chain = worst(e, depth, calls)
        parts = ' + '.join(f'{c} {frame(depth[c])}' for c in chain)
        good = total <= a.limit
        failed |= not good
        print(f'{"" if good else "not "}ok {n} - {e}: combined stack '
              f'{total} (limit {a.limit}, 6.1 refuses above '
              f'{MAX_BPF_STACK}): {parts}')
        if not good:
            print('# move big locals off the stack (per-CPU scratch, '
                  'bpf/maps.h) or out of this chain; see docs/kernel.md')
    print(f'1..{n}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
