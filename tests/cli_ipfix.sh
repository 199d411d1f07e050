#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocedp ipfix` (docs/metrics.md, IPFIX) against the dataplane's map
# definitions pinned by bpftool and filled by tests/qps_fill.py: two QPs
# with every counter set (one IPv4, one IPv6) and 100 more, exported once
# to a collector (tests/ipfix_collect.py), decoded by tshark's IPFIX
# dissector (cflow), an independent decoder: every QP of `rocedp -j qps`
# is in the export once, with the same addresses, QP, packets, bytes,
# gaps, rewinds, NAKs, CNPs, RTT min and mean and stalls; the templates
# come first; the sequence numbers count the records; bad arguments are
# one line and exit 2.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines. Root.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
PIN=/sys/fs/bpf/rdipfx$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdipfx.XXXXXX)
FILL="$PY $ROOT/tests/qps_fill.py $ROCEDP_PIN_DIR"

cleanup() {
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp
command -v tshark >/dev/null || { nok "tshark (tools/install-deps.sh)"; exit 1; }
pin_maps "$ROCEDP_PIN_DIR" || exit 1

for a in '' nothing 127.0.0.1 ':4739' '[::]:4739' 127.0.0.1:0; do
	out=$("$ROCEDP" ipfix ${a:+--collector "$a"} --count 1 2>&1)
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q -- "--collector" <<<"$out" &&
		ok "ipfix --collector '$a': exit 2, one line" || nok "ipfix --collector '$a'" "exit $rc: $out"
done
out=$("$ROCEDP" ipfix --collector 127.0.0.1:9 --interval 0.01 2>&1)
[ $? = 2 ] && grep -q -- "--interval" <<<"$out" && ok "ipfix --interval 0.01: exit 2" || nok "ipfix --interval" "$out"

$FILL --qp src=10.0.0.1,dst=10.0.0.2,qp=0x11,pkts=100,bytes=4000000,gaps=3,rewinds=2,nak_psn_seq=4,nak_rnr=1,cnps=5,rtt_min_ns=9000,rtt_ewma_ns=30000,rtt_samples=4,stalls=1 \
	--qp src=fd00::1,dst=fd00::2,qp=0x33,pkts=7,bytes=20000,rewinds=5,gaps=6,cnps=2,stalls=3 \
	--many 100 2>"$TMP/err" || nok "fill" "$(cat "$TMP/err")"
"$ROCEDP" -j qps --limit 1000 >"$TMP/qps.json" 2>"$TMP/err" || nok "rocedp -j qps" "$(cat "$TMP/err")"

$PY "$ROOT/tests/ipfix_collect.py" "$TMP/port" "$TMP/x.pcap" 1 >"$TMP/n" 2>"$TMP/cerr" &
cpid=$!
for _ in $(seq 100); do [ -e "$TMP/port" ] && break; sleep 0.1; done
if "$ROCEDP" ipfix --collector "127.0.0.1:$(cat "$TMP/port")" --count 1 --domain 7 2>"$TMP/err"; then
	ok "ipfix --count 1: one export sent"
else
	nok "ipfix --count 1" "$(cat "$TMP/err")"
fi
wait "$cpid"
tshark -r "$TMP/x.pcap" -V -d udp.port==4739,cflow >"$TMP/decoded" 2>"$TMP/terr" ||
	nok "tshark reads the export" "$(head -n 3 "$TMP/terr")"

$PY - "$TMP/decoded" "$TMP/qps.json" <<'EOF_PY' >"$TMP/out" 2>&1
import json, re, sys
text = open(sys.argv[1]).read()
qps = json.load(open(sys.argv[2]))["qps"]
msgs, flows, cur, seq_ok = [], [], None, True
expect_seq = 0
for line in text.splitlines():
    s = line.strip()
    m = re.match(r"FlowSequence: (\d+)", s)
    if m:
        msgs.append({"seq": int(m.group(1)), "domain": None, "sets": []})
        continue
    m = re.match(r"Observation Domain Id: (\d+)", s)
    if m:
        msgs[-1]["domain"] = int(m.group(1))
        continue
    m = re.match(r"FlowSet Id: .*\((\d+)\)$", s)
    if m:
        msgs[-1]["sets"].append(int(m.group(1)))
        continue
    if re.match(r"Flow \d+$", s):
        cur = {"pen": {}}
        flows.append(cur)
        msgs[-1].setdefault("n", 0)
        msgs[-1]["n"] += 1
        continue
    if cur is None:
        continue
    m = re.match(r"(SrcAddr|DstAddr): (\S+)", s)
    if m:
        cur[m.group(1)] = m.group(2)
    m = re.match(r"Permanent (Packets|Octets): (\d+)", s)
    if m:
        cur[m.group(1)] = int(m.group(2))
    m = re.match(r"Enterprise Private entry: \(.*\(?(\d+)?\)?.*\) Type (\d+): Value \(hex bytes\): ([0-9a-f ]+)", s)
    if m:
        cur["pen"][int(m.group(2))] = int(m.group(3).replace(" ", ""), 16)
def out(ok, desc, why=""):
    print(("ok" if ok else "fail") + "|" + desc + "|" + why)
out(msgs and msgs[0]["sets"][0] == 2, "%d messages; the first opens with the template set" % len(msgs),
    str(msgs[:1]))
out(all(m["domain"] == 7 for m in msgs), "observation domain 7 in every message")
seq, bad = 0, []
for m in msgs:
    if m["seq"] != seq:
        bad.append((m["seq"], seq))
    seq += m.get("n", 0)
out(not bad, "sequence numbers count the data records (%d in all)" % seq, str(bad[:3]))
got = {}
for f in flows:
    k = (f.get("SrcAddr"), f.get("DstAddr"), f["pen"].get(1))
    got.setdefault(k, []).append(f)
want = {(q["src"], q["dst"], q["dest_qp"]): q for q in qps}
out(len(flows) == len(qps) == len(want) and all(len(v) == 1 for v in got.values()),
    "every QP of rocedp -j qps once in the export (%d records, %d QPs)" % (len(flows), len(qps)))
bad = []
for k, q in want.items():
    f = got.get(k, [None])[0]
    if f is None:
        bad.append("%s: missing" % (k,))
        continue
    e = {"packets": (f.get("Packets"), q["pkts"]), "bytes": (f.get("Octets"), q["bytes"]),
         "gaps": (f["pen"].get(2), q["gaps"]), "rewinds": (f["pen"].get(3), q["rewinds"]),
         "naks": (f["pen"].get(4), sum(q["naks"].values())), "cnps": (f["pen"].get(5), q["cnps"]),
         "rtt_min_ns": (f["pen"].get(6), round((q["rtt_min_us"] or 0) * 1000)),
         "rtt_mean_ns": (f["pen"].get(7), round((q["rtt_ewma_us"] or 0) * 1000)),
         "stalls": (f["pen"].get(8), q["stalls"])}
    for n, (a, b) in e.items():
        if a != b:
            bad.append("%s %s: ipfix %s, qps %s" % (k, n, a, b))
out(not bad, "each record's counts equal rocedp -j qps's (packets, bytes, gaps, rewinds, NAKs, CNPs, RTT min/mean, stalls)",
    "; ".join(bad[:5]))
sick = got.get(("10.0.0.1", "10.0.0.2", 0x11), [{"pen": {}}])[0]["pen"]
out(sick.get(4) == 5 and sick.get(6) == 9000 and sick.get(7) == 30000,
    "the sick IPv4 QP: 5 NAKs (4 PSN sequence + 1 RNR), RTT 9000/30000 ns", str(sick))
six = got.get(("fd00::1", "fd00::2", 0x33), [{"pen": {}}])[0]
out(six.get("Packets") == 7 and six["pen"].get(2) == 6, "the IPv6 QP in the IPv6 template: 7 packets, 6 gaps", str(six))
EOF_PY
while IFS='|' read -r st desc why; do
	case $st in
	ok) ok "$desc" ;;
	fail) nok "$desc" "$why" ;;
	*) nok "decoder: $st $desc $why" ;;
	esac
done <"$TMP/out"
[ -s "$TMP/out" ] || nok "the comparison ran"

t_done
