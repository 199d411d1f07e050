#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo, part 2: the same AllReduce-like ring through a live 2-leaf x
# 4-spine fabric (tools/lab/rocedp-lab, rocedp on the leaves) once per hash
# mode, and one table: how leaf1 spreads its bytes over its 4 uplinks, the
# imbalance, the collective's completion time, out-of-sequence arrivals, ECN
# marks, CNPs and ACKs that arrive remarked. Also a PNG of the shares.
#
# The ring alternates leaves (h1-1 -> h2-1 -> h1-2 -> h2-2 -> h1-1), so every
# connection crosses the spines. Each connection has QPS QPs but one UDP
# source port (--sport), the low-entropy case Meta describes: plain 5-tuple
# ECMP sees one flow per host pair. The uplinks get an ECN rate below what a
# single uplink is offered when everything lands on it, so concentration
# shows up as marks, CNPs and rate cuts.
#
# Environment: OUT (build dir), ROCEDP, ROCEGEN, DEMO_PREFIX (lab prefix,
# default "dm"), QPS, COUNT, MSG, RATE (Mbit/s per sender), ECN_RATE (Mbit/s
# per uplink).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$top/build}/demo
ROCEDP=$(readlink -f "${ROCEDP:-$top/build/rocedp}")
ROCEGEN=$(readlink -f "${ROCEGEN:-$top/build/rocegen}")
export ROCEDP
LAB=$top/tools/lab/rocedp-lab
prefix=${DEMO_PREFIX:-dm}
SPINES=4
QPS=${QPS:-32}
COUNT=${COUNT:-4}
MSG=${MSG:-64K}
RATE=${RATE:-100}
ECN_RATE=${ECN_RATE:-80}
KMIN=20000
KMAX=100000
SPORT=49152
modes=(5tuple qp flowlet)
mkdir -p "$out"

lab() { "$LAB" "$1" --prefix "$prefix" "${@:2}"; }
# rocedp on a leaf; a config writer must never hang the demo
leaf() { timeout 10 "$LAB" exec --prefix "$prefix" "$@"; }

trap '"$LAB" down --prefix "$prefix" >/dev/null 2>&1 || true' EXIT
trap 'exit 130' INT TERM
# a lab of this prefix left over from an interrupted run
[ -d "/run/rocedp-lab/$prefix" ] && lab down >/dev/null 2>&1

echo "== fabric: 2 leaves x $SPINES spines, 2 hosts per leaf (rocedp-lab, prefix $prefix) =="
if ! lab up --leaves 2 --spines $SPINES --hosts 2 >"$out/lab.log" 2>&1; then
	echo "fabric_demo: rocedp-lab up failed:" >&2
	tail -n 5 "$out/lab.log" >&2
	exit 1
fi
# ring order alternates the leaves so every hop crosses the spines
printf '%s\n' "h1-1 $prefix-h1-1 10.1.1.2" "h2-1 $prefix-h2-1 10.2.1.2" \
	"h1-2 $prefix-h1-2 10.1.2.2" "h2-2 $prefix-h2-2 10.2.2.2" >"$out/fabric.hosts"

for l in leaf1 leaf2; do
	for s in $(seq $SPINES); do
		leaf $l "$ROCEDP" ecn set up$s rate $ECN_RATE kmin $KMIN kmax $KMAX pmax 100 \
			>/dev/null
	done
done

for mode in "${modes[@]}"; do
	for l in leaf1 leaf2; do
		leaf $l "$ROCEDP" config set "hash.mode=$mode" >/dev/null
		leaf $l "$ROCEDP" -j stats >"$out/fabric-$mode.$l.before.json"
	done
	rc=0
	"$ROCEGEN" run --pattern ring --hosts "@$out/fabric.hosts" --qps "$QPS" \
		--msg "$MSG" --count "$COUNT" --rate "$RATE" --sport $SPORT \
		--rto 1000000 -j >"$out/fabric-$mode.json" 2>"$out/fabric-$mode.err" || rc=$?
	[ $rc = 0 ] || echo "fabric_demo: $mode: rocegen run exited $rc (see $out/fabric-$mode.err)" >&2
	for l in leaf1 leaf2; do
		leaf $l "$ROCEDP" -j stats >"$out/fabric-$mode.$l.after.json"
	done
done

/usr/bin/python3 - "$out" $SPINES $QPS "$MSG" $COUNT $RATE $ECN_RATE "${modes[@]}" <<'PY'
import json, sys
out, spines, qps, msg, count, rate, ecn_rate = sys.argv[1:8]
spines = int(spines)
modes = sys.argv[8:]

def ports(path):
    return {p["name"]: p for p in json.load(open(path))["ports"] if "name" in p}

def delta(mode, leaf, port, key):
    a = ports(f"{out}/fabric-{mode}.{leaf}.before.json").get(port, {})
    b = ports(f"{out}/fabric-{mode}.{leaf}.after.json").get(port, {})
    return b.get(key, 0) - a.get(key, 0)

print(f"ring over 4 hosts (alternating leaves), {qps} QPs per connection, one UDP source port "
      f"per host pair, {count} x {msg} per QP, senders at {rate} Mbit/s; "
      f"every uplink ECN-marks above {ecn_rate} Mbit/s")
cols = "".join(f"{'up' + str(s):>7}" for s in range(1, spines + 1))
print(f"{'mode':8}{cols} {'imbal':>6} {'time ms':>8} {'oos':>5} {'ECN':>6} {'CNPs':>6} "
      f"{'ACKs dscp46':>13}")
dat = open(f"{out}/fabric.dat", "w")
dat.write("# mode " + " ".join(f"up{s}" for s in range(1, spines + 1)) + " imbalance  (% of leaf1's uplink tx bytes)\n")
for mode in modes:
    try:
        run = json.load(open(f"{out}/fabric-{mode}.json"))
    except (OSError, ValueError):
        print(f"{mode:8} (no result: rocegen run failed, see {out}/fabric-{mode}.err)")
        continue
    tx = [delta(mode, "leaf1", f"up{s}", "tx_bytes") for s in range(1, spines + 1)]
    total = sum(tx) or 1
    share = [100 * t / total for t in tx]
    imbal = max(tx) / (total / spines)
    marks = sum(delta(mode, l, f"up{s}", "ecn_marked")
                for l in ("leaf1", "leaf2") for s in range(1, spines + 1))
    senders = run["senders"].values()
    cnps = sum(s["total"]["cnps"] for s in senders)
    acks = sum(s["total"]["acks"] for s in senders)
    acks46 = sum(s["rx_dscp"]["ack"].get("46", 0) for s in senders)
    t = run["total"]
    cells = "".join(f"{s:6.1f}%" for s in share)
    print(f"{mode:8}{cells} {imbal:6.2f} {run['completion_us'] / 1000:8.1f} {t['oos']:5d} "
          f"{marks:6d} {cnps:6d} {f'{acks46}/{acks}':>13}")
    dat.write(f"{mode} " + " ".join(f"{s:.2f}" for s in share) + f" {imbal:.2f}\n")
dat.close()
print("up1..4: share of leaf1's uplink tx bytes (rocedp stats); imbal: busiest / mean; time: the collective's")
print("completion; oos: out-of-sequence frames at the responders; ECN: frames rocedp marked CE on the")
print("uplinks of both leaves; CNPs: received by the senders; ACKs dscp46: ACKs the senders received")
print("remarked to DSCP 46 (sent by the responders with the data's DSCP 26) / all ACKs")
PY

if command -v gnuplot >/dev/null; then
	gnuplot -e "datafile='$out/fabric.dat'; outfile='$out/fabric.png'; qps='$QPS'" \
		"$top/tools/demo/fabric.gp" && echo "chart: $out/fabric.png"
else
	echo "gnuplot missing (tools/install-deps.sh installs gnuplot-nox): no chart"
fi
