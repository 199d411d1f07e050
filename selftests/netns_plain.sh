#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A switch per network namespace with plain `ip netns exec`.
#
# h1 -- leaf1 -- leaf2 -- h2, every rocedp command typed as a lab user
# would: `ip netns exec LEAF rocedp ...`, no mount namespace kept alive, no
# ROCEDP_PIN_DIR. `ip netns exec` gives each call a new mount namespace with
# a fresh sysfs (so no /sys/fs/bpf); rocedp must still pin on the host's
# bpffs, one directory per network namespace, so what attach did is there
# for the next call. Checked: attach, sync (once, and the daemon, one per
# leaf), stats, detach on each leaf; each
# leaf its own pin directory and maps; RoCE frames cross both leaves, each
# leaf counting what it forwarded in its own maps; `rocedp status` truthful
# after every step, also when an attachment (leaf1) or the whole pin
# directory (leaf2) was removed behind rocedp's back; global options after
# the object (`rocedp stats -j`, `status --pin-dir DIR`). About 3 s.
#
# Usage: selftests/netns_plain.sh [native|generic|tc]   (root; default native)
set -u
. "$(dirname "$0")/lib.sh"

MODE=${1:-native}
P=J_np$$
H1=${P}h1 L1=${P}l1 L2=${P}l2 H2=${P}h2

t_require ethtool bpftool
# no environment variables: a ROCEDP_PIN_DIR from the caller would put both
# leaves on one pin directory and prove nothing
unset ROCEDP_PIN_DIR

X() { local n=$1; shift; ip netns exec "$n" "$ROCEDP" "$@"; }
cleanup() {
	local n
	for n in "$L1" "$L2"; do
		[ -e "/run/netns/$n" ] && X "$n" detach --all
	done
	for n in "$H1" "$L1" "$L2" "$H2"; do ip netns del "$n"; done
}
t_cleanup cleanup

for n in "$H1" "$L1" "$L2" "$H2"; do
	ip netns add "$n" && ip -n "$n" link set lo up &&
		ip netns exec "$n" sysctl -qw net.ipv4.conf.all.rp_filter=0 \
			net.ipv4.conf.default.rp_filter=0 net.ipv6.conf.all.disable_ipv6=1 ||
		{ t_fail "netns $n"; t_done; exit 1; }
done
png() { ip netns exec "$1" $PY "$T_TOP/tools/lab/labping.py" "$2" 1 2 >/dev/null; }
link() { # NS_A IF_A NS_B IF_B: a veth pair, GRO on (XDP_REDIRECT into veth)
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" &&
		ip -n "$1" link set "$2" up && ip -n "$3" link set "$4" up &&
		ip netns exec "$1" ethtool -K "$2" gro on >/dev/null &&
		ip netns exec "$3" ethtool -K "$4" gro on >/dev/null
}
link "$H1" eth0 "$L1" host1 && link "$L1" up1 "$L2" up1 && link "$L2" host1 "$H2" eth0 &&
	ip -n "$H1" addr add 10.1.1.2/24 dev eth0 && ip -n "$H1" route add default via 10.1.1.1 &&
	ip -n "$L1" addr add 10.1.1.1/24 dev host1 && ip -n "$L1" addr add 10.0.0.0/31 dev up1 &&
	ip -n "$L2" addr add 10.0.0.1/31 dev up1 && ip -n "$L2" addr add 10.2.1.1/24 dev host1 &&
	ip -n "$H2" addr add 10.2.1.2/24 dev eth0 && ip -n "$H2" route add default via 10.2.1.1 &&
	ip -n "$L1" route add 10.2.0.0/16 via 10.0.0.1 && ip -n "$L2" route add 10.1.0.0/16 via 10.0.0.0 &&
	ip netns exec "$L1" sysctl -qw net.ipv4.ip_forward=1 &&
	ip netns exec "$L2" sysctl -qw net.ipv4.ip_forward=1 &&
	png "$H1" 10.2.1.2 && png "$H2" 10.1.1.2 # neighbours resolved
t_check $? "fabric h1 - leaf1 - leaf2 - h2 built and pingable (kernel forwarding)"

# st LEAF TAG: status -j into TAG.json (-j after the object, as in README)
# (status exits 3 when nothing is attached: both are answers here)
st() {
	X "$1" status -j >"$T_TMP/$2.json" 2>"$T_TMP/$2.err"
	case $? in 0 | 3) return 0 ;; *) return 1 ;; esac
}
# ifs TAG: the attached interfaces status reported
ifs() { t_pyj "$T_TMP/$1.json" 'sorted(i["name"] for i in j["interfaces"])'; }

for n in "$L1" "$L2"; do
	st "$n" "$n.pre" && t_pyj "$T_TMP/$n.pre.json" 'not j["maps_pinned"] and j["interfaces"] == []' >/dev/null
	t_check $? "$n: status before attach: not loaded, nothing attached" "$(cat "$T_TMP/$n.pre.json" "$T_TMP/$n.pre.err")"
	X "$n" attach host1 up1 --mode "$MODE" >"$T_TMP/$n.att" 2>&1
	t_check $? "$n: ip netns exec $n rocedp attach host1 up1 --mode $MODE" "$(cat "$T_TMP/$n.att")"
	# a new `ip netns exec` call: a new mount namespace, the same pins
	st "$n" "$n.att" && [ "$(ifs "$n.att")" = "['host1', 'up1']" ] &&
		t_pyj "$T_TMP/$n.att.json" "j['maps_pinned'] and j['netns'] == '$n'" >/dev/null
	t_check $? "$n: status in a later call: maps pinned, host1 and up1 attached, netns named" "$(cat "$T_TMP/$n.att.json" "$T_TMP/$n.att.err")"
	ip -n "$n" -j link show up1 | grep -q '"xdp"\|"prog"' || [ "$MODE" = tc ]
	t_check $? "$n: the kernel shows a program on up1 after the attach call ended"
done

d1=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["pin_dir"])' "$T_TMP/$L1.att.json")
d2=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["pin_dir"])' "$T_TMP/$L2.att.json")
id1=$(ip netns exec "$L1" bpftool -j map show pinned "$d1/rd_stats" | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])')
id2=$(ip netns exec "$L2" bpftool -j map show pinned "$d2/rd_stats" | $PY -c 'import json,sys; print(json.load(sys.stdin)["id"])')
[ -n "$d1" ] && [ "$d1" != "$d2" ] && [ -n "$id1" ] && [ -n "$id2" ] && [ "$id1" != "$id2" ]
t_check $? "separate pin directories and maps ($d1 rd_stats id $id1; $d2 id $id2)"
# the host sees the pins too (they outlive every call), under rocedp-netns
c1=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["netns_cookie"])' "$T_TMP/$L1.att.json")
[ -e "/sys/fs/bpf/rocedp-netns/$c1/rd_routes4" ]
t_check $? "leaf1's pins on the host's bpffs: /sys/fs/bpf/rocedp-netns/$c1" "$(ls /sys/fs/bpf/rocedp-netns 2>&1)"

for n in "$L1" "$L2"; do
	X "$n" sync --once >"$T_TMP/$n.sync" 2>&1 && grep -q ' 0 errors' "$T_TMP/$n.sync"
	t_check $? "$n: rocedp sync --once: $(tail -n1 "$T_TMP/$n.sync")" "$(cat "$T_TMP/$n.sync")"
	st "$n" "$n.sync" && [ "$(ifs "$n.sync")" = "['host1', 'up1']" ]
	t_check $? "$n: status after sync: still host1, up1" "$(cat "$T_TMP/$n.sync.json")"
done

# the sync daemon through ip netns exec: it follows a route added later; a
# second sync on leaf1 is refused (its lock), while leaf2's own one runs
PIDF=$T_TMP/l1.sync.pid
X "$L1" sync --daemon --pid-file "$PIDF" >"$T_TMP/l1.daemon" 2>&1
t_check $? "$L1: rocedp sync --daemon" "$(cat "$T_TMP/l1.daemon")"
t_cleanup "[ -e $PIDF ] && kill \$(cat $PIDF)"
ip -n "$L1" route add 10.9.0.0/16 via 10.0.0.1
for _ in $(seq 60); do
	ip netns exec "$L1" bpftool -j map dump pinned "$d1/rd_routes4" >"$T_TMP/r4.json" 2>&1
	t_pyj "$T_TMP/r4.json" 'any(e["formatted"]["key"] == {"prefixlen": 16, "addr": 0x090a} for e in j)' >/dev/null && break
	sleep 0.05
done
t_pyj "$T_TMP/r4.json" 'any(e["formatted"]["key"] == {"prefixlen": 16, "addr": 0x090a} for e in j)' >/dev/null
t_check $? "$L1: the daemon put a route added after its start (10.9.0.0/16) in leaf1's rd_routes4" "$(head -c 300 "$T_TMP/r4.json")"
X "$L1" sync --once >"$T_TMP/l1.sync2" 2>&1
[ $? != 0 ] && grep -q "another rocedp sync is running" "$T_TMP/l1.sync2" &&
	X "$L2" sync --once >"$T_TMP/l2.sync2" 2>&1
t_check $? "a second sync on leaf1 is refused while leaf2's runs beside it" "$(cat "$T_TMP/l1.sync2" "$T_TMP/l2.sync2" 2>&1)"
st "$L1" l1.daemon && [ "$(ifs l1.daemon)" = "['host1', 'up1']" ]
t_check $? "$L1: status with the daemon running: host1, up1" "$(cat "$T_TMP/l1.daemon.json")"

# RoCE frames h1 -> h2 and the ACKs back: both leaves carry them
st1() { X "$1" stats -j >"$T_TMP/$2.stats" 2>"$T_TMP/$2.stats.err"; }
st1 "$L1" l1a && st1 "$L2" l2a
rm -f "$T_TMP/ready"
T_BG_OUT=$T_TMP/serve T_BG_ERR=$T_TMP/serve.err t_bg SRV \
	ip netns exec "$H2" "$ROCEGEN" serve --dev eth0 --ready "$T_TMP/ready" -j
for _ in $(seq 100); do [ -e "$T_TMP/ready" ] && break; sleep 0.05; done
ip netns exec "$H1" "$ROCEGEN" send --dst 10.2.1.2 --qps 4 --msg 4K --count 8 \
	--timeout 10 -j >"$T_TMP/send" 2>"$T_TMP/send.err"
rc=$?
kill -TERM "$SRV" 2>/dev/null
wait "$SRV" 2>/dev/null
t_pyj "$T_TMP/send" 'j["total"]["qps_failed"] == 0 and j["total"]["messages"] == 32 and j["total"]["acks"] > 0' >/dev/null
t_check $? "rocegen h1 -> h2 across both leaves: 32 messages acknowledged (rc $rc)" "$(head -c 400 "$T_TMP/send" "$T_TMP/send.err")"
st1 "$L1" l1b && st1 "$L2" l2b
t_check $? "rocedp stats -j on both leaves (option after the object)" "$(cat "$T_TMP"/*.stats.err)"
for n in "$L1" "$L2"; do
	st "$n" "$n.stats" && [ "$(ifs "$n.stats")" = "['host1', 'up1']" ] &&
		t_pyj "$T_TMP/$n.stats.json" 'j["maps_pinned"]' >/dev/null
	t_check $? "$n: status after traffic and stats: maps pinned, host1 and up1" "$(cat "$T_TMP/$n.stats.json")"
done
# leaf1 carries the data onto up1, leaf2 the ACKs; each counts in its own
# maps (the last hop to a directly connected host is the kernel's)
for n in "l1 frames-retx_frames" "l2 acks"; do
	set -- $n
	why=$($PY "$T_TOP/selftests/netns_plain.py" carried "$T_TMP/${1}a.stats" "$T_TMP/${1}b.stats" "$T_TMP/send" "$2")
	t_check $? "$1: $why" "$why"
done

# status tells the truth when an attachment goes away behind its back
if [ "$MODE" != tc ]; then
	ifidx=$(ip -n "$L1" -j link show up1 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["ifindex"])')
	rm -f "/sys/fs/bpf/rocedp-netns/$c1/links/xdp_$ifidx"
	how="XDP link pin removed on the host"
else
	tc -n "$L1" filter del dev up1 ingress
	how="tc ingress filter deleted"
fi
st "$L1" l1.rm && [ "$(ifs l1.rm)" = "['host1']" ] &&
	X "$L1" status | grep -q "up1 .*not attached"
t_check $? "leaf1: up1's $how: status lists only host1, up1 'not attached'" "$(cat "$T_TMP/l1.rm.json"; X "$L1" status)"

# leaf2's whole pin directory removed on the host behind its back: no maps;
# an XDP attachment went with its link pin, a tc filter stays on the device
# (and status says so); detach still clears it all
c2=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["netns_cookie"])' "$T_TMP/$L2.att.json")
rm -rf "/sys/fs/bpf/rocedp-netns/$c2"
if [ "$MODE" != tc ]; then
	want="[]" how="no interface attached, both 'not attached'"
	# the link goes when its pin's inode is freed, after an RCU grace period
	t_wait_for 5 sh -c "! ip -n $L2 -j link show up1 | grep -q '\"xdp\"'" &&
		X "$L2" status | grep -q "host1 .*not attached" && X "$L2" status | grep -q "up1 .*not attached"
else
	want="['host1', 'up1']" how="host1 and up1 still on tc (their filters are)"
	tc -n "$L2" filter show dev up1 ingress | grep -q rocedp
fi
st "$L2" l2.rm && [ "$(ifs l2.rm)" = "$want" ] && t_pyj "$T_TMP/l2.rm.json" 'not j["maps_pinned"]' >/dev/null
t_check $? "leaf2: pin directory removed on the host: status says maps not pinned, $how" \
	"$(cat "$T_TMP/l2.rm.json"; X "$L2" status)"

spid=$(cat "$PIDF")
kill "$spid" && for _ in $(seq 100); do
	kill -0 "$spid" 2>/dev/null || break
	sleep 0.02
done
for n in "$L1" "$L2"; do
	X "$n" detach >"$T_TMP/$n.det" 2>&1
	t_check $? "$n: rocedp detach" "$(cat "$T_TMP/$n.det")"
	st "$n" "$n.det" && t_pyj "$T_TMP/$n.det.json" 'not j["maps_pinned"] and j["interfaces"] == []' >/dev/null
	t_check $? "$n: status after detach: not loaded, nothing attached" "$(cat "$T_TMP/$n.det.json")"
	ip -n "$n" -j link show up1 | grep -q '"xdp"' || tc -n "$n" filter show dev up1 ingress | grep -q rocedp
	[ $? != 0 ]
	t_check $? "$n: no XDP program or tc filter of rocedp left on up1"
done
[ ! -e "/sys/fs/bpf/rocedp-netns/$c1" ] && [ ! -e "/sys/fs/bpf/rocedp-netns/$c2" ]
t_check $? "no pins left for either leaf on the host" "$(ls /sys/fs/bpf/rocedp-netns 2>&1)"

# global options after the object; --pin-dir too
X "$L1" status --pin-dir "/sys/fs/bpf/J_none$$" -j >"$T_TMP/pd.json" 2>&1
[ $? = 3 ] && t_pyj "$T_TMP/pd.json" "j['pin_dir'] == '/sys/fs/bpf/J_none$$'" >/dev/null
t_check $? "status --pin-dir DIR -j: options after the object" "$(cat "$T_TMP/pd.json")"
X "$L1" status --pin-dir >"$T_TMP/pd.out" 2>&1
[ $? = 2 ] && grep -q "needs a directory" "$T_TMP/pd.out"
t_check $? "--pin-dir without a directory: exit 2, says so" "$(cat "$T_TMP/pd.out")"
t_done
