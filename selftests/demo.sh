#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's first command, `make demo`, keeps working: its job
# (tools/demo/demo.sh, docs/demo.md) runs on the build that `make test`
# made, and what it prints is checked. The replay part is deterministic:
# its class counts and the 5tuple/qp spread are exact. The fabric part runs
# live traffic, so only what must hold on any run is checked: three modes,
# no frame out of sequence at the responders and none dropped by the
# shaped spine ports, every ACK remarked, the shaping bounding every link,
# the 5-tuple run no better balanced than the QP-aware ones and the slowest
# of the three, flowlet close to even, the speed-up line printed, a
# per-QP table per leaf, the report with its plots rendering cleanly in
# headless Chromium, loss injected on spine2 found on spine2 from
# rocedp's tables (tools/demo/qp_demo.sh), and the labs gone afterwards. (`make demo` itself also runs the dependency check and the
# build; here they are the suite's own.)
#
# Usage: selftests/demo.sh   (root)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip || exit $?
# the build dir tests/run.sh was given (outputs go to $OUT/demo)
OUT=${OUT:-build}
case $OUT in /*) ;; *) OUT=$T_TOP/$OUT ;; esac
out=$T_TMP/demo.out

# with dumpcap, the fabric run also captures what leaf1's hosts send and
# replays it through lbeval: the model must predict the live switch
cap=0
command -v dumpcap >/dev/null && [ -x "$OUT/lbeval" ] && cap=1
OUT=$OUT ROCEDP=$ROCEDP ROCEGEN=$ROCEGEN CAPTURE=$cap "$T_TOP/tools/demo/demo.sh" >"$out" 2>&1
rc=$?
t_check $rc "tools/demo/demo.sh (the job of make demo) exits 0" "$(tail -n 5 "$out" | tr '\n' '|')"

# class table of the replay: the capture is made-up and fixed
want="data:256 ack:8 nak:2 cnp:2 cts:1 ip:1 non_ip:1 malformed:4 total:275"
got=$(awk '/^== classes/{on=1; next} on && /^$/{on=0} on && NF == 2 && $2 ~ /^[0-9]+$/ {printf "%s:%s ", $1, $2}' "$out" |
	sed 's/roce_other:0 //; s/uec:0 //; s/uec_ack:0 //; s/uec_nack:0 //; s/ $//')
[ "$got" = "$want" ]
t_check $? "replay: class counts $want" "got: $got"

# spread of one host pair's 64 QPs over 4 members
imb() { awk -v m="$1" '$1 == m && $6 ~ /^[0-9.]+$/ {print $6; exit}' "$out"; }
i5=$(imb 5tuple) iq=$(imb qp)
[ -n "$i5" ] && [ -n "$iq" ] && awk -v a="$i5" -v b="$iq" 'BEGIN { exit !(a == 4.00 && b < 1.3) }'
t_check $? "replay: 5tuple puts the host pair on one member (imbalance $i5), qp spreads it ($iq < 1.3)"

# the live fabric
# columns: mode up1..up4 imbal time faster link drops oos ECN CNPs ACKs
rows=$(awk '/^== fabric/{on=1} /^lbeval replay/{on=0} on && $1 ~ /^(5tuple|qp|flowlet)$/ && NF >= 14' "$out")
[ "$(echo "$rows" | grep -c .)" = 3 ]
t_check $? "fabric: one row each for 5tuple, qp and flowlet" "$(echo "$rows" | tr '\n' '|')"
bad=$(echo "$rows" | awk '$11 != 0 || $10 != 0 {print $1 " oos " $11 " drops " $10}')
[ -z "$bad" ]
t_check $? "fabric: no frame out of sequence at the responders and none dropped at the spines in any mode" "$bad"
bad=$(echo "$rows" | awk '{split($14, a, "/"); if (a[1] != a[2] || a[2] == 0) print $1 " " $14}')
[ -z "$bad" ]
t_check $? "fabric: every ACK the senders received was remarked to DSCP 46" "$bad"
echo "$rows" | awk '{imb[$1] = $6} END { exit !(imb["5tuple"] >= imb["qp"] && imb["5tuple"] >= imb["flowlet"]) }'
t_check $? "fabric: 5tuple no better balanced than qp and flowlet ($(echo "$rows" | awk '{printf "%s %s ", $1, $6}'))"
# the shaping holds: no spine port sent faster than the link rate (5% for
# the token bucket's burst and the stats taken around the run)
link=$(sed -n 's/.*every fabric link shaped to \([0-9]*\) Mbit\/s.*/\1/p' "$out")
bad=$(echo "$rows" | awk -v l="$link" '$9 > l * 1.05 || $9 <= 0 {print $1 " " $9 " Mbit/s"}')
[ -n "$link" ] && [ -z "$bad" ]
t_check $? "fabric: every shaped spine port stays within ${link:-?} Mbit/s" "$bad"
# one host pair per uplink in 5tuple runs at the link rate, below the
# senders' rate, so it finishes last; flowlet spreads evenly
echo "$rows" | awk '{t[$1] = $7} END { exit !(t["5tuple"] > t["qp"] && t["5tuple"] > t["flowlet"]) }'
t_check $? "fabric: 5tuple finishes the collective last ($(echo "$rows" | awk '{printf "%s %s ms ", $1, $7}'))"
echo "$rows" | awk '$1 == "flowlet" { exit !($6 <= 1.15) }'
t_check $? "fabric: flowlet spreads leaf1's bytes within 1.15 of even ($(echo "$rows" | awk '$1 == "flowlet" {print $6}'))"
grep -Eq '^completion against 5tuple: qp [0-9]+% (faster|slower) .*, flowlet [0-9]+% (faster|slower)' "$out"
t_check $? "fabric: the speed-up of qp and flowlet over 5tuple is printed"
if [ $cap = 1 ]; then
	# live shares against the replay's, per mode and uplink, in points
	diff=$(awk '/^lbeval replay/{rep=1; next}
		rep && /^== /{exit} # the next part (real RDMA) has rows of its own
		/^== fabric/{fab=1}
		fab && !rep && $1 ~ /^(5tuple|qp|flowlet)$/ && NF >= 14 {for (i = 2; i <= 5; i++) live[$1, i] = $i + 0}
		rep && $1 ~ /^(5tuple|qp|flowlet)$/ {n++; for (i = 2; i <= 5; i++) {d = $i - live[$1, i]; if (d < 0) d = -d; if (d > max) max = d}}
		END {printf "%d %.1f", n, max}' "$out")
	[ "${diff% *}" = 3 ] && awk -v m="${diff#* }" 'BEGIN { exit !(m <= 3) }'
	t_check $? "fabric: lbeval's replay of the captured frames gives the live uplink shares within 3 points in every mode (3 modes, largest difference ${diff#* } points)" "$diff"
fi
[ -s "$OUT/demo/fabric.png" ]
t_check $? "fabric: chart written ($OUT/demo/fabric.png)"
# the report (tools/demo/report.py): every figure, opened in headless
# Chromium (tools/demo/report_check.sh), whose screenshot stays in
# $OUT/demo/report.png
rep=$OUT/demo/report.html
figs="topology.svg fabric.png report-tput.png report-ecn.png report-cdf.png"
miss=$(for f in $figs; do grep -q "<img src=\"$f\"" "$rep" 2>/dev/null && [ -s "$OUT/demo/$f" ] || echo "$f"; done)
[ -z "$miss" ] && grep -q '<h2>The fabric table</h2>' "$rep"
t_check $? "report: report.html holds the fabric table and 5 figures (topology, shares, throughput per uplink over time per mode, CE marks and CNPs over time, per-QP completion times)" "missing: $miss"
rm -f "$OUT/demo/report.png"
"$T_TOP/tools/demo/report_check.sh" "$rep" "$OUT/demo/report.png" >"$T_TMP/check" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^report: 5/5 images loaded, 0 script errors' "$T_TMP/check" && [ -s "$OUT/demo/report.png" ]
t_check $? "report: in headless Chromium every image loads and no script error occurs; screenshot kept ($(head -n 1 "$T_TMP/check"))" "exit $rc: $(cat "$T_TMP/check")"
# the same check on a copy with a missing image and a failing script
# must fail: the probe sees both
sed 's|src="report-cdf.png"|src="no-such.png"|; s|</body>|<script>noSuchFunction();</script></body>|' \
	"$rep" >"$OUT/demo/.report-bad.html"
"$T_TOP/tools/demo/report_check.sh" "$OUT/demo/.report-bad.html" "$T_TMP/bad.png" >"$T_TMP/bad" 2>&1
rc=$?
rm -f "$OUT/demo/.report-bad.html"
[ $rc != 0 ] && grep -q '^report: 4/5 images loaded, 2 script errors' "$T_TMP/bad"
t_check $? "report: a broken image and a script error are caught ($(head -n 1 "$T_TMP/bad"))" "exit $rc"
[ "$(grep -c '^-- leaf[12]: rocedp qps --limit 8 after' "$out")" = 2 ] &&
	[ "$(grep -cE '^src +dst +qp +pkts' "$out")" -ge 2 ]
t_check $? "fabric: a per-QP table (rocedp qps --limit 8) for each leaf"
# loss injected on spine2 (tools/demo/qp_demo.sh): named from rocedp's tables
grep -q '^diagnosis: frames are lost between .* on spine2$' "$out"
t_check $? "loss on spine2: the diagnosis names spine2" "$(grep -E '^diagnosis|^QPs leaf1' "$out" | tr '\n' '|')"
grep -q '^  gaps at leaf1: 0 ' "$out" &&
	grep -qE '^  gaps at leaf2 by the port they came in on: up2 [1-9][0-9]*$' "$out"
t_check $? "loss on spine2: no gap at leaf1, gaps at leaf2 only on frames from up2" "$(grep '  gaps at' "$out" | tr '\n' '|')"
grep -qE '^QPs leaf1 -> leaf2: 16; sick .*: [1-9][0-9]*, [1-9][0-9]* of them stalled' "$out"
t_check $? "loss on spine2: rewinding and stalled QPs listed" "$(grep '^QPs leaf1' "$out")"
# real RDMA (tools/demo/rdma_demo.sh): a row per mode with a throughput,
# or the one line that says why it was skipped
rd=$(sed -n '/^== real RDMA/,$p' "$out")
if echo "$rd" | grep -q '^real RDMA section skipped: '; then
	t_skip "real RDMA: ib_write_bw per hash mode" "$(echo "$rd" | grep '^real RDMA section skipped')"
else
	[ "$(echo "$rd" | grep -cE '^(5tuple|qp) +([0-9.]+% +){4}[0-9.]+ +[0-9.]+$')" = 2 ]
	t_check $? "real RDMA: ib_write_bw through the fabric, split and Gbit/s for 5tuple and qp" "$(echo "$rd" | tr '\n' '|')"
fi
left=$(ip netns list | awk '{print $1}' | grep -E '^(dm|dq|dr)-' | head -3)
[ -z "$left" ]
t_check $? "the demo lab is gone afterwards" "left: $left"

t_done
