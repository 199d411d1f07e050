#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The BPF object's worst combined stack per entry program, counted the way
# Linux 6.1 (SONiC's kernel) counts it: each frame rounded up to 32 bytes,
# summed along the deepest call chain, bpf_loop callbacks included. Fails
# above BPF_STACK_LIMIT (480, a margin under 6.1's 512), naming the chain,
# so a chain that the development host's newer kernel still loads cannot
# break `make test-kernel` unseen. Reads the object only (no root, no
# kernel); see tests/bpf_stack.py and docs/kernel.md.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-build}
case $OUT in /*) ;; *) OUT=$ROOT/$OUT ;; esac
exec "${PY:-/usr/bin/python3}" "$ROOT/tests/bpf_stack.py" \
	--limit "${BPF_STACK_LIMIT:-480}" "$OUT/rocedp.bpf.o"
