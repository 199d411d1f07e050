#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The lab on IPv6 (`rocedp-lab up --ipv6`, docs/lab.md): hosts, links,
# routes and BGP all IPv6, rocedp + sync on the leaves.
#
#  1. Static routes: `up --ipv6` succeeds (it pings h1-1 -> h2-1 across the
#     fabric); leaf1's rd_routes6 holds the other leaf's fd00:2::/32 as a
#     group of 4 resolved IPv6 next hops and its own host /64 as LOCAL, as
#     sync mirrored them from the kernel.
#  2. A rocegen ring AllReduce over IPv6 RoCEv2 (4 hosts, alternating
#     leaves, 32 QPs per connection, one UDP source port per host pair):
#     every message delivered, zero out-of-sequence, zero NAKs; leaf1's
#     rocedp forwarded at least every frame its hosts sent (XDP, not the
#     kernel), spread over all 4 uplinks.
#  3. The demo's fabric part on IPv6 (tools/demo/fabric_demo.sh with
#     LAB_ARGS=--ipv6, FRR eBGP with IPv6 unicast when frr is installed):
#     one row per mode, no frame out of sequence or dropped, every ACK
#     remarked, qp and flowlet finish the collective sooner than 5tuple,
#     flowlet within 1.15 of even, and the per-QP tables name IPv6 hosts.
#  4. `--ipv6 --rdma --bgp` is refused with one line (the guests'
#     out-of-band IPv4 has static routes only; --ipv6 --rdma itself runs
#     in selftests/rdma.sh).
#
# Usage: selftests/lab_ipv6.sh   (root; about 40 s)
set -u
. "$(dirname "$0")/lib.sh"

t_require ethtool bpftool || exit $?
SPINES=4
QPS=32

# 4. refused before anything is made
T_LAB_PREFIX=v6r$((RANDOM % 900 + 100))
out=$("$LAB" up --prefix "$T_LAB_PREFIX" --ipv6 --rdma --bgp 2>&1)
rc=$?
[ $rc != 0 ] && grep -q -- '--ipv6 --rdma: static routes only' <<<"$out" && [ ! -e "/run/rocedp-lab/$T_LAB_PREFIX" ]
t_check $? "up --ipv6 --rdma --bgp is refused with one line, nothing made (rc $rc: $out)"

# 1. static routes
T_LAB_PREFIX=v6s$((RANDOM % 900 + 100))
t_cleanup "$LAB down --prefix $T_LAB_PREFIX"
if ! lab up --leaves 2 --spines $SPINES --hosts 2 --ipv6 >"$T_TMP/lab.out" 2>&1; then
	t_fail "IPv6 fabric up (2 leaves x $SPINES spines, 2 hosts per leaf)" "$(tail -n3 "$T_TMP/lab.out")"
	t_done
	exit
fi
t_ok "IPv6 fabric up: 2 leaves x $SPINES spines, 2 hosts per leaf, h1-1 reaches h2-1 through rocedp"

pin=$(cat "/run/rocedp-lab/$T_LAB_PREFIX/leaf1.pin_dir")
maps=$($PY "$T_TOP/selftests/lab_ipv6.py" maps "$pin")
t_check $? "leaf1's rd_routes6 mirrors the kernel ($maps)" "$maps"

# 2. IPv6 RoCEv2 through the leaves
lab hosts >"$T_TMP/lab.hosts"
for h in h1-1 h2-1 h1-2 h2-2; do grep "^$h " "$T_TMP/lab.hosts"; done >"$T_TMP/hosts"
for l in leaf1 leaf2; do lab_exec $l "$ROCEDP" -j stats >"$T_TMP/a.$l.json"; done
"$ROCEGEN" run --pattern ring --hosts "@$T_TMP/hosts" --qps $QPS --msg 16K --count 2 \
	--rate 100 --sport 49152 --rto 1000000 -j >"$T_TMP/ring.json" 2>"$T_TMP/ring.err"
rc=$?
for l in leaf1 leaf2; do lab_exec $l "$ROCEDP" -j stats >"$T_TMP/b.$l.json"; done
t_check $rc "rocegen ring over IPv6 hosts exits 0" "rc $rc: $(tail -c 300 "$T_TMP/ring.err")"
out=$($PY "$T_TOP/selftests/lab_ipv6.py" ring "$T_TMP" $SPINES $QPS)
t_check $? "IPv6 RoCEv2 ring: all delivered in order, forwarded by leaf1's rocedp over all $SPINES uplinks ($out)" "$out"
lab down >/dev/null 2>&1
ls /run/netns 2>/dev/null | grep -q "^$T_LAB_PREFIX-"
t_check $((!$?)) "lab down removes every namespace of the IPv6 lab"

# 3. the demo's fabric part on IPv6
routing=bgp
[ -x /usr/lib/frr/bgpd ] || routing=static
dp=v6d$((RANDOM % 900 + 100))
t_cleanup "$LAB down --prefix $dp"
OUT=$T_TMP ROCEDP=$ROCEDP ROCEGEN=$ROCEGEN DEMO_PREFIX=$dp ROUTING=$routing LAB_ARGS=--ipv6 \
	"$T_TOP/tools/demo/fabric_demo.sh" >"$T_TMP/demo.out" 2>&1
t_check $? "fabric_demo.sh with LAB_ARGS=--ipv6 ($routing routes) exits 0" "$(tail -n 5 "$T_TMP/demo.out" | tr '\n' '|')"
grep -q "^== fabric: .* $routing routes, IPv6 " "$T_TMP/demo.out"
t_check $? "the demo names the IPv6 fabric in its heading"
# columns: mode up1..up4 imbal time faster link drops oos ECN CNPs ACKs
rows=$(awk '$1 ~ /^(5tuple|qp|flowlet)$/ && NF >= 14' "$T_TMP/demo.out")
[ "$(echo "$rows" | grep -c .)" = 3 ]
t_check $? "demo on IPv6: one row each for 5tuple, qp and flowlet" "$(echo "$rows" | tr '\n' '|')"
bad=$(echo "$rows" | awk '$11 != 0 || $10 != 0 {print $1 " oos " $11 " drops " $10}')
[ -z "$bad" ]
t_check $? "demo on IPv6: no frame out of sequence or dropped at the spines in any mode" "$bad"
bad=$(echo "$rows" | awk '{split($14, a, "/"); if (a[1] != a[2] || a[2] == 0) print $1 " " $14}')
[ -z "$bad" ]
t_check $? "demo on IPv6: every ACK the senders received was remarked" "$bad"
times=$(echo "$rows" | awk '{printf "%s %s ms ", $1, $7}')
echo "$rows" | awk '{t[$1] = $7} END { exit !(t["5tuple"] > t["qp"] && t["5tuple"] > t["flowlet"]) }'
t_check $? "demo on IPv6: qp and flowlet finish the collective before 5tuple ($times)"
echo "$rows" | awk '$1 == "flowlet" { exit !($6 <= 1.15) }'
t_check $? "demo on IPv6: flowlet spreads leaf1's bytes within 1.15 of even ($(echo "$rows" | awk '$1 == "flowlet" {print $6}'))"
n=$(grep -cE '^fd00:[0-9]+:[0-9]+::2 +fd00:' "$T_TMP/demo.out")
[ "$n" -ge 2 ]
t_check $? "demo on IPv6: the per-QP tables of both leaves list IPv6 QPs ($n rows)"
t_done
