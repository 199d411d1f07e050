#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the dataplane fuzzer (with -C the config fuzzer, -F the route-sync
# fuzzer, -N the netlink fuzzer), built by `make fuzz-build`; print one TAP line:
# "ok 1 - fuzz N executions, 0 invariant failures" or "not ok 1 - ...".
#
# Usage: tests/harness/fuzz/run.sh [-C|-F|-N] [-n RUNS | -t SECONDS] [-s SEED] [-m MIN] [-k]
#   -C          the config fuzzer (fuzz_config, its seeds and dictionary)
#   -F          the route-sync fuzzer (fuzz_fib: FIB model, commits, restarts)
#   -N          the netlink fuzzer (fuzz_nl: rocedp sync's message handling)
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
what=dataplane
runs=1000000
secs=
seed=1
min=
keep=0

while getopts "CFNn:t:s:m:k" opt; do
	case $opt in
	C) what=config ;;
	F) what=fib ;;
	N) what=nl ;;
	n) runs=$OPTARG ;;
	t) secs=$OPTARG runs= ;;
	s) seed=$OPTARG ;;
	m) min=$OPTARG ;;
	k) keep=1 ;;
	*) echo "usage: $0 [-C|-F|-N] [-n RUNS | -t SECONDS] [-s SEED] [-m MIN] [-k]" >&2
	   exit 2 ;;
	esac
done
[ -n "$runs" ] && min=${min:-$runs}
min=${min:-1}

if [ $what = nl ]; then
	# -max_len: a full dump of the seed namespace is about 10 kB
	bin=$dir/fuzz_nl seeds=$dir/nl-seeds name=fuzz-nl prefix=nl-
	opts="-max_len=16384"
	each="each netlink messages through rocedp sync's handling and commits, then a resync"
elif [ $what = fib ]; then
	# -max_len: up to a few hundred operations per input
	bin=$dir/fuzz_fib seeds=$dir/fib-seeds name=fuzz-fib prefix=fib-
	opts="-max_len=512"
	each="each a sequence of route, neighbour and link changes, commits, resyncs and restarts"
	# twice the speed: no allocation stacks in ASan reports (rerun the
	# saved input with ASAN_OPTIONS= to get them)
	export ASAN_OPTIONS=${ASAN_OPTIONS-malloc_context_size=0}
elif [ $what = config ]; then
	# -max_len: the largest shipped example is about 3 kB
	bin=$dir/fuzz_config seeds=$dir/config-seeds name=fuzz-config prefix=config-
	opts="-max_len=8192 -dict=tests/harness/fuzz/config.dict"
	each="each parsed, validated and, if accepted, applied, read back and loaded again"
else
	# -max_len: the largest untagged Ethernet frame
	bin=$dir/fuzz_dataplane seeds=$dir/seeds name=fuzz prefix=
	opts="-max_len=1514"
	each="each through rocedp_xdp, rocedp_tc_ingress and the two egress entries"
fi

notok() {
	echo "not ok 1 - $name: $*"
	exit 1
}

[ -x "$bin" ] || notok "$bin missing (make fuzz-build)"
[ -d "$seeds" ] || notok "$seeds missing (make fuzz-build)"

if [ "$keep" = 1 ]; then
	corpus=$dir/corpus-$what
	# the dataplane corpus kept its old name
	[ $what = dataplane ] && corpus=$dir/corpus
else
	corpus=$dir/short-corpus-$what
	rm -rf "$corpus"
fi
mkdir -p "$corpus"

if [ -n "$runs" ]; then
	limit="-runs=$runs"
else
	limit="-max_total_time=$secs"
fi

log=$dir/last-$what.log
[ $what = dataplane ] && log=$dir/last.log
start=$(date +%s)
# -timeout: an input takes micro- to milliseconds, seconds mean a hang;
# -reload=0: one process, one corpus.
ROCEDP_FUZZ_CONFIG=${ROCEDP_FUZZ_CONFIG:-tests/harness/fuzz/fuzz.json} \
	"$bin" $limit -seed="$seed" $opts -timeout=10 \
	-rss_limit_mb=4096 -print_final_stats=1 -reload=0 \
	-artifact_prefix="$dir/$prefix" "$corpus" "$seeds" >"$log" 2>&1
rc=$?
elapsed=$(( $(date +%s) - start ))

# the harness's own count, printed at exit or on a failure
line=$(grep -E "^$name: [0-9]+ executions, [0-9]+ invariant failures" "$log" |
	tail -n 1)
grep -E "^$name: (frames|documents|INVARIANT|input|counters|  )" "$log" |
	head -n 40 | sed 's/^/# /'
[ -n "$line" ] || { tail -n 20 "$log" | sed 's/^/# /'; notok "no summary (exit $rc), see $log"; }
n=$(echo "$line" | sed -E 's/^[a-z-]+: ([0-9]+) executions.*/\1/')
f=$(echo "$line" | sed -E 's/.* ([0-9]+) invariant failures.*/\1/')
rate=$(( n / (elapsed > 0 ? elapsed : 1) ))
echo "# $n inputs in ${elapsed}s ($rate/s), $each"
if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
	ls "$dir"/"$prefix"crash-* 2>/dev/null | sed 's/^/# input saved: /'
	notok "$n executions, $f invariant failures (exit $rc), see $log"
fi
[ "$n" -ge "$min" ] || notok "$n executions, fewer than $min"
echo "ok 1 - $name $n executions, 0 invariant failures"
