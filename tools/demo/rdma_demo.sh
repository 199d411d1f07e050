#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, part 3: real RDMA. Two Soft-RoCE guests (Debian's 6.1 kernel
# under qemu, rdma_rxe, perftest; tools/lab/rdma.sh) behind the two leaves
# of a 2-leaf x 4-spine lab with rocedp; ib_write_bw with 8 QPs from r1-1
# to r2-1 once per hash mode (5tuple, qp), and one table: leaf1's data
# frames per spine, the imbalance and perftest's throughput. Skipped with
# one line when qemu or the guest image is not available.
#
# Environment: OUT (build dir), ROCEDP, DEMO_RDMA_PREFIX (default "dr"),
# DEMO_RDMA_ITERS (ib_write_bw -n, default 100).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(readlink -f "${OUT:-$top/build}")
ROCEDP=$(readlink -f "${ROCEDP:-$OUT/rocedp}")
# a guest that stops answering ends the section in two minutes at most
export ROCEDP RDMA_OUT=$OUT RDMA_EXEC_TIMEOUT=${RDMA_EXEC_TIMEOUT:-120}
LAB=$top/tools/lab/rocedp-lab
prefix=${DEMO_RDMA_PREFIX:-dr}
iters=${DEMO_RDMA_ITERS:-100}
log=$OUT/demo/rdma
mkdir -p "$log"

echo "== real RDMA: ib_write_bw between Soft-RoCE guests through rocedp (docs/lab.md) =="
skip() {
	echo "real RDMA section skipped: $*"
	exit 0
}
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (tools/install-deps.sh kernel)"
"$top/tools/lab/rdma.sh" image "$OUT" >"$log/image.out" 2>&1 ||
	skip "no guest image: $(tail -n 1 "$log/image.out")"

x() { "$LAB" exec --prefix "$prefix" "$@"; }
. "$top/tools/lab/rdma.sh" # rdma_wait_listen
# set NODE ARGS...: `rocedp ARGS` on a leaf; if the sync daemon holds the
# pin directory's lock (selftests/lib.sh, rocedp_set), around a sync restart
set_leaf() {
	local node=$1
	shift
	timeout 3 "$LAB" exec --prefix "$prefix" "$node" "$ROCEDP" "$@" >/dev/null 2>&1 && return 0
	"$LAB" sync --prefix "$prefix" stop "$node"
	x "$node" "$ROCEDP" "$@" >/dev/null
	"$LAB" sync --prefix "$prefix" start "$node"
}
members() {
	x leaf1 "$ROCEDP" -j stats | /usr/bin/python3 -c '
import json, sys
print(" ".join(str(m["pkts"]) for g in json.load(sys.stdin)["groups"] for m in g["members"]))'
}

"$LAB" down --prefix "$prefix" >/dev/null 2>&1
trap '"$LAB" down --prefix "$prefix" >/dev/null 2>&1' EXIT
t0=$(date +%s)
"$LAB" up --prefix "$prefix" --leaves 2 --spines 4 --hosts 1 --rdma >"$log/up.out" 2>&1 ||
	skip "lab up --rdma failed: $(tail -n 1 "$log/up.out")"
echo "2 guests booted and fabric up in $(($(date +%s) - t0)) s (qemu TCG)"

pt="ib_write_bw -d rxe0 -x 1 -q 8 -s 65536 -n $iters -u 18 -F --report_gbits"
for mode in 5tuple qp; do
	set_leaf leaf1 config set hash.mode=$mode
	set_leaf leaf2 config set hash.mode=$mode
	members >"$log/$mode.before"
	x r2-1 "$pt" >"$log/$mode.srv" 2>&1 &
	srv=$!
	rdma_wait_listen "${LAB_RUN:-/run/rocedp-lab}/$prefix/rdma/r2-1" 18515
	x r1-1 "$pt 10.2.251.2" >"$log/$mode.cli" 2>&1
	wait $srv
	members >"$log/$mode.after"
done
/usr/bin/python3 "$top/tools/demo/demo.py" rdma_report "$log"
echo "Soft-RoCE picks each QP's UDP source port from its QP number, so even"
echo "5tuple hashing sees 8 flows here; the split differs, the spread does"
echo "not (the one-source-port case is part 1 and 2 above). Logs: $log"
