#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: a mixed RoCEv2 capture (one host pair, one UDP source port,
# 64 QPs, plus ACK/NAK/CNP/CTS/IP/ARP/malformed) through the real dataplane
# with `rocedp replay`, once per hash mode, and one table of the result;
# then the same story live: a ring AllReduce with rocegen through a 2-leaf x
# 4-spine fabric per hash mode (tools/demo/fabric_demo.sh, docs/demo.md),
# with report.html (its plots) and a screenshot of it in headless Chromium;
# then loss injected on one spine, seen per QP (tools/demo/qp_demo.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$top/build}/demo
rocedp=${ROCEDP:-$top/build/rocedp}
mkdir -p "$out"

/usr/bin/python3 "$top/tools/demo/mkcapture.py" "$out/mixed.pcap" >/dev/null
echo "== classes (rocedp replay, qp mode) =="
for mode in 5tuple qp qp-only; do
	sed "s/\"mode\": \"qp\"/\"mode\": \"$mode\"/" \
		"$top/tools/demo/fabric4.json" >"$out/fabric4-$mode.json"
	"$rocedp" replay --in "$out/mixed.pcap" --out "$out/out-$mode.pcap" \
		--config "$out/fabric4-$mode.json" \
		--verdicts "$out/verdicts-$mode.jsonl" >"$out/classes-$mode.txt"
done
cat "$out/classes-qp.txt"
echo
/usr/bin/python3 "$top/tools/demo/demo.py" spread "$out"
echo
echo "replay outputs in $out (pcap per mode, one JSON verdict per frame)"
echo
OUT=$(dirname "$out") "$top/tools/demo/fabric_demo.sh"
# the report as a browser shows it: every image loaded, no script error
if command -v chromium >/dev/null; then
	"$top/tools/demo/report_check.sh" "$out/report.html" "$out/report.png" ||
		echo "demo: the report did not render cleanly in Chromium" >&2
else
	echo "chromium missing (tools/install-deps.sh installs it): no screenshot of the report"
fi
echo
# which QPs suffer when a spine loses frames, and naming the spine
OUT=$(dirname "$out") "$top/tools/demo/qp_demo.sh"
# part 3: real RDMA (Soft-RoCE guests under qemu), skipped with one line
# where qemu or the guest image is missing
echo
OUT=$(dirname "$out") "$top/tools/demo/rdma_demo.sh"
