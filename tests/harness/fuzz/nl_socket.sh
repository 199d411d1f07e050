#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink fuzzer from a second socket (docs/fuzz.md, "From a second
# socket"): a real `rocedp sync` runs in a namespace of its own, attached
# to two veths, with IPv4 and IPv6 routes the kernel has. fuzz_nl in send
# mode (ROCEDP_FUZZ_NL_SEND=1), as a process with CAP_NET_ADMIN and no
# other capability, sends every mutated batch (framed) and every input as
# it is (unframed: nlmsg_len is whatever its bytes say) to the rtnetlink
# groups the daemon listens on. Then:
#   - the daemon still runs (0 crashes);
#   - its maps hold no route the kernel does not have (IPv4 and IPv6);
#   - a route added to the kernel afterwards still reaches the maps;
#   - it counted the datagrams it refused (nl_refused, at exit).
#
# Usage: tests/harness/fuzz/nl_socket.sh [-n RUNS | -t SECONDS] [-s SEED]
# (root; built by `make fuzz-build`). Log: $OUT/fuzz/last-nl-send.log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../../selftests/lib.sh"

runs=20000 secs= seed=1
while getopts "n:t:s:" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	t) secs=$OPTARG runs= ;;
	s) seed=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS | -t SECONDS] [-s SEED]" >&2; exit 2 ;;
	esac
done
dir=$T_OUT/fuzz
bin=$dir/fuzz_nl
log=$dir/last-nl-send.log
name="fuzz-nl-send"
for f in "$bin" "$dir/nl-seeds" "$ROCEDP"; do
	[ -e "$f" ] || { t_fail "$name: $f present (make fuzz-build)"; t_done; exit 1; }
done
t_pin_ns fzs$$ || { t_fail "$name: namespace"; t_done; exit 1; }
t_ns_ab || { t_fail "$name: veths"; t_done; exit 1; }
ip -n "$NS" addr add 2001:db8:a::1/64 dev a0 nodad
ip -n "$NS" neigh replace 10.100.0.2 lladdr 02:00:00:00:00:02 nud permanent dev a0
ip -n "$NS" neigh replace 10.100.1.2 lladdr 02:00:00:00:01:02 nud permanent dev b0
ip -n "$NS" route add 10.9.0.0/16 nexthop via 10.100.0.2 dev a0 nexthop via 10.100.1.2 dev b0
ip -n "$NS" -6 route add 2001:db8:9::/48 via 2001:db8:a::2 dev a0
X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1 ||
	{ t_fail "$name: attach" "$(cat "$T_TMP/attach.out")"; t_done; exit 1; }

# extra KIND: routes (IPv4 and IPv6) in the maps that the kernel has not
extra() {
	t_py "$here/nl_socket.py" "$NS" "$PIN"
}
has_route() { extra >/dev/null && bpftool -j map dump pinned "$PIN/rd_routes4" | grep -q '"prefixlen": *24'; }

T_BG_OUT=$T_TMP/sync.out T_BG_ERR=$T_TMP/sync.err t_rd_bg SYNC -j sync
t_wait_for 10 bash -c "bpftool -j map dump pinned '$PIN/rd_routes4' | grep -q '\"prefixlen\": *16'"
t_check $? "$name: rocedp sync runs and mirrors 10.9.0.0/16" "$(cat "$T_TMP/sync.err")"

corpus=$dir/short-corpus-nl-send
rm -rf "$corpus"
mkdir -p "$corpus"
if [ -n "$runs" ]; then limit=-runs=$runs; else limit=-max_total_time=$secs; fi
start=$SECONDS
ip netns exec "$NS" setpriv --inh-caps=-all,+net_admin \
	--ambient-caps=-all,+net_admin --bounding-set=-all,+net_admin -- \
	env ROCEDP_FUZZ_NL_SEND=1 "$bin" "$limit" -seed="$seed" -max_len=16384 \
	-timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -reload=0 \
	-artifact_prefix="$dir/nl-send-" "$corpus" "$dir/nl-seeds" >"$log" 2>&1
rc=$?
line=$(grep -E "^$name: [0-9]+ executions" "$log" | tail -n 1)
grep -E "^$name: [0-9]+ messages" "$log" | sed 's/^/# /'
n=$(echo "$line" | sed -E 's/^[a-z-]+: ([0-9]+) executions.*/\1/')
[ "$rc" = 0 ] && [ -n "$line" ] && [ "${runs:-1}" -le "${n:-0}" ]
t_check $? "$name: ${n:-0} inputs in $((SECONDS - start)) s from a CAP_NET_ADMIN-only process (exit $rc)" \
	"$(tail -n 5 "$log")"

# what is still queued reaches the daemon, then the checks
sleep 1
kill -0 "$SYNC" 2>/dev/null
t_check $? "$name: rocedp sync still runs (0 crashes)" "$(tail -n 5 "$T_TMP/sync.err")"
out=$(extra)
t_check $? "$name: $out" 
ip -n "$NS" route add 10.11.12.0/24 via 10.100.0.2 dev a0
t_wait_for 30 has_route
t_check $? "$name: a kernel route added afterwards reaches the maps" \
	"$(tail -n 3 "$T_TMP/sync.err")"
kill -TERM "$SYNC" 2>/dev/null
for i in $(seq 100); do kill -0 "$SYNC" 2>/dev/null || break; sleep 0.1; done
out=$(t_pyj "$T_TMP/sync.out" 'j["nl_refused"]')
t_check $? "$name: the daemon refused $out datagrams not from the kernel" \
	"$(cat "$T_TMP/sync.out")"
t_done
