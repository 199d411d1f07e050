#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the dataplane fuzzer (built by `make fuzz-build`) and print one TAP
# line: "ok 1 - fuzz N executions, 0 invariant failures" or "not ok 1 - ...".
#
# Usage: tools/fuzz/run.sh [-n RUNS | -t SECONDS] [-s SEED] [-m MIN] [-k]
#   -n RUNS     stop after RUNS inputs (default 1000000)
#   -t SECONDS  stop after SECONDS instead
#   -s SEED     libFuzzer seed (0 = random; default 1)
#   -m MIN      fail unless at least MIN inputs ran (default: RUNS with -n)
#   -k          keep the grown corpus in $OUT/fuzz/corpus (long runs);
#               otherwise start from the seeds alone in a scratch dir
# Needs root (BPF). Output of libFuzzer: $OUT/fuzz/last.log; a failing
# input is saved as $OUT/fuzz/crash-*.
set -u

OUT=${OUT:-build}
dir=$OUT/fuzz
bin=$dir/fuzz_dataplane
runs=1000000
secs=
seed=1
min=
keep=0

while getopts "n:t:s:m:k" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG runs= ;;
	s) seed=$OPTARG ;;
	m) min=$OPTARG ;;
	k) keep=1 ;;
	*) echo "usage: $0 [-n RUNS | -t SECONDS] [-s SEED] [-m MIN] [-k]" >&2
	   exit 2 ;;
	esac
done
[ -n "$runs" ] && min=${min:-$runs}
min=${min:-1}

notok() {
	echo "not ok 1 - fuzz: $*"
	exit 1
}

[ -x "$bin" ] || notok "$bin missing (make fuzz-build)"
[ -d "$dir/seeds" ] || notok "$dir/seeds missing (make fuzz-seeds)"

if [ "$keep" = 1 ]; then
	corpus=$dir/corpus
else
	corpus=$dir/short-corpus
	rm -rf "$corpus"
fi
mkdir -p "$corpus"

if [ -n "$runs" ]; then
	limit="-runs=$runs"
else
	limit="-max_total_time=$secs"
fi

log=$dir/last.log
start=$(date +%s)
# -max_len: the largest untagged Ethernet frame; -timeout: a test run is
# microseconds, seconds mean a hang; -reload=0: one process, one corpus.
ROCEDP_FUZZ_CONFIG=${ROCEDP_FUZZ_CONFIG:-tools/fuzz/fuzz.json} \
	"$bin" $limit -seed="$seed" -max_len=1514 -timeout=10 \
	-rss_limit_mb=4096 -print_final_stats=1 -reload=0 \
	-artifact_prefix="$dir/" "$corpus" "$dir/seeds" >"$log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))

# the harness's own count, printed at exit or on a failure
line=$(grep -E '^fuzz: [0-9]+ executions, [0-9]+ invariant failures' "$log" |
	tail -n 1)
grep -E '^fuzz: (frames|INVARIANT|counters|  )' "$log" | head -n 40 | sed 's/^/# /'
[ -n "$line" ] || { tail -n 20 "$log" | sed 's/^/# /'; notok "no summary (exit $rc), see $log"; }
n=$(echo "$line" | sed -E 's/^fuzz: ([0-9]+) executions.*/\1/')
f=$(echo "$line" | sed -E 's/.* ([0-9]+) invariant failures.*/\1/')
rate=$(( n / (elapsed > 0 ? elapsed : 1) ))
echo "# $n inputs in ${elapsed}s ($rate/s), each through rocedp_xdp, rocedp_tc_ingress and the two egress entries"
if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
	ls "$dir"/crash-* 2>/dev/null | sed 's/^/# input saved: /'
	notok "$n executions, $f invariant failures (exit $rc), see $log"
fi
[ "$n" -ge "$min" ] || notok "$n executions, fewer than $min"
echo "ok 1 - fuzz $n executions, 0 invariant failures"
