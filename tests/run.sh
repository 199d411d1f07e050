#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The one test runner: runs every suite, counts its TAP-style "ok" /
# "not ok" lines, prints one result line per suite and, as its very last
# line, "N passed, M failed" over all assertions. Exits non-zero on any
# failed assertion, and counts a suite that crashes, times out, exits
# non-zero without a failed assertion, or prints no result at all as one
# failure.
#
# Suites: the fixture runner, the hash-uniformity test, the scapy
# agreement test, every other program built into $OUT/tests, the ICRC
# test (with $OUT/librd_icrc.so) and the other tests/*.sh. With ROCEDP_SELFTESTS=1 (set by `make test`)
# and root: selftests/*.sh. With ROCEDP_KERNEL_TESTS=1: tests/kernel/run.sh
# (boots a 6.1 kernel under qemu; slow). With ROCEDP_INSTALL_TESTS=1:
# tests/install/run.sh (installs the packages on a Debian 12 guest and
# reboots it; slower).
#
# Env: OUT (build dir, default build), SUITES (space-separated names to run
# only those), TIER=check (only the suites of `make check`, below),
# TEST_TIMEOUT (seconds per suite, default 900), TEST_JOBS (suites run at
# once; default 1, and one per CPU for TIER=check, whose suites share
# nothing).
# Full logs: $OUT/tests/logs/SUITE.log; each result line gives the suite's
# wall seconds and its CPU seconds (user+sys of all its processes, BPF
# verification included): the CPU time does not grow with the machine's
# load, so it says what a suite costs when the wall time is a busy
# machine's.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
OUT=${OUT:-build}
PY=${PY:-/usr/bin/python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-900}
LOGS=$OUT/tests/logs
mkdir -p "$LOGS"

# The fast tier, `make check`: the developer's edit loop. Suites that need
# no network namespace, lab, qemu guest, daemon or service, and run in
# seconds on a busy 2-core machine: the BPF programs through
# BPF_PROG_TEST_RUN (fixtures both ways, the unit programs), the CLI on
# files, the tree's own rules. Left to `make test` for their time (a
# minute each under load): fixture_selfcheck, cli_files.
# Everything else, and these again, is `make test`.
CHECK_SUITES="fixtures fixtures_general unit_group frame_test escape_test
pindir_test engine_test ecn_test sonic_redis_test cli_json tree_rules fixtures_regen
include_circles bpf_stack"
if [ "${TIER:-}" = check ] && [ -z "${SUITES:-}" ]; then
	SUITES=$(echo $CHECK_SUITES) # one line: want_suite matches " NAME "
fi
# the check tier's suites use private namespaces, temporary directories
# and their own engines: two at once use both CPUs of a quiet machine
if [ "${TIER:-}" = check ]; then
	TEST_JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
fi
TEST_JOBS=${TEST_JOBS:-1}

# one result file per suite, read back in the order the suites started
RES=$(mktemp -d "${TMPDIR:-/tmp}/rdrun.XXXXXX") || exit 1
trap 'rm -rf "$RES"' EXIT
order=()

want_suite() { # NAME
	[ -z "${SUITES:-}" ] && return 0
	case " $SUITES " in *" $1 "*) return 0 ;; esac
	return 1
}

# cpu_secs FILE: the user+sys seconds in FILE, bash's `times` output
# (its second line: the children's). `times` is run in the suite's own
# shell, not in a $(...) subshell, which has no children yet.
cpu_secs() {
	awk 'NR == 2 {
		n = split($0, f, " "); s = 0
		for (i = 1; i <= n; i++) {
			split(f[i], ms, "m"); sub("s", "", ms[2]); s += ms[1] * 60 + ms[2]
		}
		printf "%.1f", s
	}' "$1"
}

# suite_run NAME CMD...: run, count, write NAME's result file (in a
# subshell of its own, so that `times` is this suite's alone).
suite_run() {
	local name=$1 log rc p f t0 secs cpu note=""
	shift
	log=$LOGS/$name.log
	t0=$SECONDS
	timeout --kill-after=10 "$TEST_TIMEOUT" "$@" >"$log" 2>&1
	rc=$?
	secs=$((SECONDS - t0))
	times >"$RES/$name.times"
	cpu=$(cpu_secs "$RES/$name.times")
	p=$(grep -cE '^ok( |$)' "$log")
	f=$(grep -cE '^not ok( |$)' "$log")
	{
		# what failed, with the TAP comments that follow it
		grep -E -A3 '^not ok( |$)' "$log" | grep -E '^(not ok|#)' | head -n 60
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			note=" (timed out after ${TEST_TIMEOUT}s)"
			f=$((f + 1))
		elif [ "$rc" -gt 128 ]; then
			note=" (crashed: signal $((rc - 128)))"
			f=$((f + 1))
		elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
			note=" (produced no results, exit $rc)"
			tail -n 5 "$log" | sed 's/^/#   /'
			f=1
		elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			note=" (exit $rc without a failed assertion)"
			tail -n 5 "$log" | sed 's/^/#   /'
			f=1
		fi
		record "$name" "$p" "$f" "$(printf '%5ds %6.1fs CPU%s' "$secs" "$cpu" "$note")"
	} >"$RES/$name.out"
	# a single write: lines of suites running at once stay whole
	cat "$RES/$name.out"
}

# record NAME PASSED FAILED TEXT: NAME's counts and result line
record() {
	printf '%s %s %s\n' "$2" "$3" "$(printf '%-22s %6d passed, %4d failed %s' "$1" "$2" "$3" "$4")" \
		>"$RES/$1.res"
}

# run_suite NAME CMD...: run NAME (at most TEST_JOBS at once), counted
# at the end
run_suite() {
	local name=$1
	want_suite "$name" || return 0
	order+=("$name")
	shift
	echo "== $name: $*"
	if [ "$TEST_JOBS" -le 1 ]; then
		(suite_run "$name" "$@")
		return 0
	fi
	while [ "$(jobs -rp | wc -l)" -ge "$TEST_JOBS" ]; do
		wait -n
	done
	(suite_run "$name" "$@") &
}

# A suite the harness requires: missing means failed, not skipped.
need() { # NAME FILE
	[ -e "$2" ] && return 0
	want_suite "$1" || return 1
	order+=("$1")
	record "$1" 0 1 "($2 not built)"
	return 1
}

if [ "$(id -u)" != 0 ]; then
	echo "# not root: the BPF suites will fail (BPF_PROG_TEST_RUN needs CAP_BPF)"
fi

need fixtures "$OUT/tests/fixtures" &&
	run_suite fixtures "$OUT/tests/fixtures"
# the same fixtures with the express path off: both paths give every byte
need fixtures_general "$OUT/tests/fixtures" &&
	run_suite fixtures_general "$OUT/tests/fixtures" --general
need hash_uniformity "$OUT/tests/hash_uniformity" &&
	run_suite hash_uniformity "$OUT/tests/hash_uniformity"
need scapy_agree "$OUT/rocedp" &&
	run_suite scapy_agree "$PY" tests/scapy_agree.py "$OUT/rocedp"

# every other test program built into $OUT/tests (unit_group, flowlet_test,
# ...), and the shell tests other components keep in tests/
for t in "$OUT"/tests/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	case $(basename "$t") in fixtures | hash_uniformity) continue ;; esac
	run_suite "$(basename "$t")" "$t"
done
if [ -f tests/icrc_scapy.py ] && [ -f "$OUT/librd_icrc.so" ]; then
	run_suite icrc_scapy "$PY" tests/icrc_scapy.py "$OUT/librd_icrc.so"
fi
for t in tests/*.sh; do
	[ -f "$t" ] || continue
	[ "$t" = tests/run.sh ] && continue
	run_suite "$(basename "$t" .sh)" bash "$t"
done

if [ "${ROCEDP_SELFTESTS:-0}" = 1 ]; then
	if [ "$(id -u)" = 0 ]; then
		for s in selftests/*.sh; do
			[ -f "$s" ] || continue
			# helper libraries are sourced by the tests, not run
			case $(basename "$s") in lib*.sh) continue ;; esac
			head -n 5 "$s" | grep -q '(sourced' && continue
			run_suite "selftest:$(basename "$s" .sh)" bash "$s"
		done
	else
		echo "# selftests need root: skipped"
	fi
fi
# the bounded fuzz runs: >= 1M frames through the programs, 100k config
# documents through the loader, 20k operation sequences through the route
# sync's FIB model, 30k netlink inputs through the sync daemon, 20k sent to
# a running one; 0 invariant failures (each prints its TAP lines)
if [ "${ROCEDP_FUZZ:-0}" = 1 ] && [ -x tests/harness/fuzz/run.sh ]; then
	run_suite fuzz env OUT="$OUT" tests/harness/fuzz/run.sh
	run_suite fuzz_config env OUT="$OUT" tests/harness/fuzz/run.sh -C \
		-n "${FUZZ_CFG_RUNS:-100000}"
	run_suite fuzz_fib env OUT="$OUT" tests/harness/fuzz/run.sh -F \
		-n "${FUZZ_FIB_RUNS:-20000}"
	run_suite fuzz_nl env OUT="$OUT" tests/harness/fuzz/run.sh -N \
		-n "${FUZZ_NL_RUNS:-30000}"
	# the same from a CAP_NET_ADMIN-only socket to a running rocedp sync
	run_suite fuzz_nl_socket env OUT="$OUT" bash tests/harness/fuzz/nl_socket.sh \
		-n "${FUZZ_NL_SEND_RUNS:-20000}"
fi
# Debian's 6.1 kernel under qemu: the module and every program on SONiC's
# kernel; its PASS/FAIL lines become TAP lines here
if [ "${ROCEDP_KERNEL_TESTS:-0}" = 1 ] && [ -x tests/kernel/run.sh ]; then
	run_suite kernel bash -c 'make --no-print-directory test-kernel 2>&1 |
		sed -E "s/^test-kernel: PASS (.*)/ok - \1/;
			s/^test-kernel: FAIL (.*)/not ok - \1/";
		exit ${PIPESTATUS[0]}'
fi

# the packages from `make deb` installed with apt on a Debian 12 guest,
# rebooted, checked and purged (docs/install-test.md; slow); `make test`
# sets it.
if [ "${ROCEDP_INSTALL_TESTS:-0}" = 1 ] && [ -x tests/install/run.sh ]; then
	# its own watchdog (ITEST_TIMEOUT) ends the guest first; this one
	# covers a first run that also builds the image and the packages
	TEST_TIMEOUT=${ITEST_SUITE_TIMEOUT:-3000} \
		run_suite install make --no-print-directory test-install
fi

wait
total_pass=0
total_fail=0
echo "== results (logs in $LOGS)"
for n in "${order[@]}"; do
	if read -r p f l <"$RES/$n.res"; then
		echo "$l"
	else
		p=0 f=1
		printf '%-22s %6d passed, %4d failed (no result)\n' "$n" 0 1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
