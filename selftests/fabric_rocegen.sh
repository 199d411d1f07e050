#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rocegen through a live fabric: 2 leaves x 4 spines,
# 2 hosts per leaf (tools/lab/rocedp-lab, rocedp + sync on the leaves). A
# ring AllReduce from `rocegen run` that alternates leaves (h1-1 -> h2-1 ->
# h1-2 -> h2-2 -> h1-1), so every connection crosses the spines, Q QPs per
# connection and ONE UDP source port per host pair.
#
#  1. hash.mode=qp, no ECN rate: every message delivered and acknowledged,
#     zero out-of-sequence frames and zero NAKs at every responder, while
#     leaf1's traffic really is spread over all 4 uplinks (rocedp's port
#     counters), and nothing is CE-marked.
#  2. ACKs arrive remarked: the responders send ACKs with the data's DSCP
#     (26); every ACK the senders receive carries DSCP 46 (rocedp's default
#     ack class), counted per DSCP by rocegen, and the leaves counted the
#     remarks.
#  3. ECN: every uplink of both leaves gets a rate below the offered load
#     (`rocedp ecn set upN rate R ...`): rocedp marks frames CE, the
#     responders receive exactly as many CE frames as rocedp marked, answer
#     with CNPs, the CNPs reach the senders (DSCP 48) and cut their rate;
#     still nothing lost and zero out-of-sequence in qp mode.
#
# Runs in native XDP and in tc mode.
#
# Usage: selftests/fabric_rocegen.sh [native|tc|generic ...]   (root; default: native tc)
set -u
. "$(dirname "$0")/lib.sh"

modes=("$@")
[ ${#modes[@]} = 0 ] && modes=(native tc)
SPINES=4
QPS=16
COUNT=4
MSG=64K
RATE=100        # Mbit/s per sender
ECN_RATE=30     # Mbit/s per uplink, below one sender's offered load
SPORT=49152

t_require ethtool

snap() { # NAME: rocedp stats of both leaves
	local l
	for l in leaf1 leaf2; do
		lab_exec $l "$ROCEDP" -j stats >"$T_TMP/$1.$l.json" 2>"$T_TMP/$1.$l.err"
	done
}

# ring NAME: one collective; NAME.json is rocegen's -j, NAME.a/.b the stats
ring() {
	local rc
	snap "$1.a"
	"$ROCEGEN" run --pattern ring --hosts "@$T_TMP/hosts" --qps $QPS --msg $MSG \
		--count $COUNT --rate $RATE --sport $SPORT --ack-dscp 26 --rto 1000000 -j \
		>"$T_TMP/$1.json" 2>"$T_TMP/$1.err"
	rc=$?
	snap "$1.b"
	t_check $rc "${1/-//}: rocegen run --pattern ring over 4 hosts exits 0" "rc $rc: $(tail -c 300 "$T_TMP/$1.err")"
}

# check NAME WHAT PRED: the check PRED of selftests/fabric_rocegen.py over
# the run and the leaves' stats deltas
check() {
	local name=$1 what=$2 pred=$3 out rc
	out=$($PY "$T_TOP/selftests/fabric_rocegen.py" check "$T_TMP" "$name" $SPINES $QPS $COUNT "$pred")
	rc=$?
	t_check $rc "$what ($out)" "$out"
}

# delivered NAME: every message of every QP completed and received in order
delivered() {
	check "$1" "${1/-//}: every message delivered and ACKed, zero out-of-sequence, zero NAKs" delivered
}

one_mode() { # MODE
	MODE=$1
	T_LAB_PREFIX=fr$((RANDOM % 9000 + 1000))
	t_cleanup "$LAB down --prefix $T_LAB_PREFIX"
	if ! lab up --leaves 2 --spines $SPINES --hosts 2 --mode "$MODE" >"$T_TMP/lab.out" 2>&1; then
		t_fail "$MODE: fabric up (2 leaves x $SPINES spines, 2 hosts per leaf)" "$(tail -n3 "$T_TMP/lab.out")"
		return
	fi
	t_ok "$MODE: fabric up (2 leaves x $SPINES spines, 2 hosts per leaf, rocedp + sync on the leaves)"
	printf '%s\n' "h1-1 $(ns h1-1) 10.1.1.2" "h2-1 $(ns h2-1) 10.2.1.2" \
		"h1-2 $(ns h1-2) 10.1.2.2" "h2-2 $(ns h2-2) 10.2.2.2" >"$T_TMP/hosts"

	# 1. qp mode, no ECN rate
	for l in leaf1 leaf2; do
		rocedp_set $l config set hash.mode=qp >"$T_TMP/cfg.out" 2>&1 ||
			t_fail "rocedp config set hash.mode=qp on $l" "$(cat "$T_TMP/cfg.out")"
	done
	ring "$MODE-qp"
	delivered "$MODE-qp"
	check "$MODE-qp" "$MODE/qp: leaf1 spreads its host pairs' frames over all $SPINES uplinks (one UDP source port per pair)" qp_spread
	check "$MODE-qp" "$MODE/qp: with no ECN rate nothing is CE-marked and no CNP is sent" qp_no_ce

	# 2. ACKs remarked on the way back
	check "$MODE-qp" "$MODE/qp: ACKs leave the responders with DSCP 26 and every one reaches its sender remarked to DSCP 46" acks_remarked

	# 3. ECN: uplinks slower than the offered load
	for l in leaf1 leaf2; do
		for s in $(seq $SPINES); do
			rocedp_set $l ecn set up$s rate $ECN_RATE kmin 20000 kmax 100000 pmax 100 \
				>"$T_TMP/ecn.out" 2>&1 ||
				t_fail "rocedp ecn set up$s rate $ECN_RATE on $l" "$(cat "$T_TMP/ecn.out")"
		done
	done
	ring "$MODE-ecn"
	delivered "$MODE-ecn"
	check "$MODE-ecn" "$MODE/ecn: uplinks at $ECN_RATE Mbit/s < offered: rocedp marks CE, the responders receive exactly the marked frames" ecn_marks
	check "$MODE-ecn" "$MODE/ecn: CE marks produce CNPs at the senders (DSCP 48) and the senders cut their rate" ecn_cnps
	"$LAB" down --prefix "$T_LAB_PREFIX" >/dev/null 2>&1
}

for m in "${modes[@]}"; do
	one_mode "$m"
done
t_done
