#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Route scale over real BGP (docs/frr.md, "Route scale"):
# an injector bgpd in its own namespace feeds N4 IPv4 and N6 IPv6 prefixes
# (`network` statements, so they really travel as BGP UPDATEs) over eBGP to
# a leaf running zebra + bgpd, rocedp attached and `rocedp sync` following
# the kernel. For three events (first advertisement, full withdraw, full
# re-advertisement) it times, from the trigger, when the leaf's kernel
# holds the final route count and when rocedp's maps do; the lag between
# the two is the figure (goal: < 1 s at 100k). Then the daemon's peak RSS
# (VmHWM) and CPU (utime+stime), and its own overrun/resync counters.
#
#   tests/harness/bench/scale.sh ROCEDP RDBENCH OUTFILE [N4 [N6]]
# Environment: SCALE_NS (namespace prefix, bn_sc), FRR_BIN (/usr/lib/frr),
# PY, SCALE_TIMEOUT (seconds per event, 300).
set -u
ROCEDP=$(realpath "$1") RDB=$(realpath "$2") OUTF=$3
N4=${4:-100000} N6=${5:-20000}
P=${SCALE_NS:-bn_sc}
LEAF=${P}_leaf INJ=${P}_inj
FRR_BIN=${FRR_BIN:-/usr/lib/frr}
PY=${PY:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${SCALE_TIMEOUT:-300}
PIN=/sys/fs/bpf/$LEAF
W=$(mktemp -d "/tmp/${P}.XXXXXX")
SYNC_PID=

log() { echo "scale: $*" >&2; }
in_ns() { local n=$1; shift; nsenter --net=/run/netns/"$n" "$@"; }

cleanup() {
	local f p
	for f in "$W"/*/*.pid; do
		p=$(cat "$f" 2>/dev/null) || continue
		kill -9 "$p" 2>/dev/null
	done
	[ -e /run/netns/$LEAF ] && ROCEDP_PIN_DIR=$PIN in_ns $LEAF "$ROCEDP" detach --all >/dev/null 2>&1
	ip netns del $LEAF 2>/dev/null
	ip netns del $INJ 2>/dev/null
	rmdir /var/run/frr/$LEAF /var/run/frr/$INJ 2>/dev/null
	[ -d "$PIN" ] && rm -rf "$PIN"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

frr() { # NODE DAEMON
	local fd=$W/$1
	ip netns exec "$1" "$FRR_BIN/$2" -d -N "$1" -u root -g frrvty -f "$fd/$2.conf" \
		-i "$fd/$2.pid" --vty_socket "$fd" -z "$fd/zserv.api" >>"$fd/$2.out" 2>&1
}
vty() { local n=$1; shift; ip netns exec "$n" vtysh --vty_socket "$W/$n" "$@"; }

setup() {
	local n
	for n in $LEAF $INJ; do
		ip netns del "$n" 2>/dev/null
		ip netns add "$n" || return 1
		ip -n "$n" link set lo up
		mkdir -p "$W/$n"
	done
	ip link add sc0 netns $LEAF type veth peer name sc0 netns $INJ || return 1
	for n in $LEAF $INJ; do
		# GRO on the peer: native redirects into a veth need it (docs/frr.md)
		ip netns exec "$n" ethtool -K sc0 gro on >/dev/null 2>&1
		ip -n "$n" link set sc0 up
	done
	ip -n $LEAF addr add 10.200.0.0/31 dev sc0
	ip -n $INJ addr add 10.200.0.1/31 dev sc0
	ip -n $LEAF addr add fd00:200::/127 dev sc0 nodad
	ip -n $INJ addr add fd00:200::1/127 dev sc0 nodad
	printf 'hostname leaf\nlog file %s/zebra.log\n' "$W/$LEAF" >"$W/$LEAF/zebra.conf"
	printf 'hostname inj\nlog file %s/zebra.log\n' "$W/$INJ" >"$W/$INJ/zebra.conf"
	cat >"$W/$LEAF/bgpd.conf" <<EOF
hostname leaf
log file $W/$LEAF/bgpd.log
router bgp 65001
 bgp router-id 10.254.0.1
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 timers bgp 3 9
 neighbor 10.200.0.1 remote-as 65100
 neighbor 10.200.0.1 advertisement-interval 0
 neighbor 10.200.0.1 timers connect 1
 neighbor fd00:200::1 remote-as 65100
 neighbor fd00:200::1 advertisement-interval 0
 neighbor fd00:200::1 timers connect 1
 address-family ipv4 unicast
  neighbor 10.200.0.1 activate
 exit-address-family
 address-family ipv6 unicast
  neighbor fd00:200::1 activate
 exit-address-family
EOF
	# the injector: every prefix a `network` statement (no zebra route
	# needed with import-check off); route-map OUT gates them all
	$PY "$HERE/scale.py" bgpd_conf "$N4" "$N6" "$W/$INJ" >"$W/$INJ/bgpd.conf"
	frr $LEAF zebra && frr $LEAF bgpd || return 1
	ROCEDP_PIN_DIR=$PIN in_ns $LEAF "$ROCEDP" attach --mode native sc0 >"$W/attach.out" 2>&1 || {
		log "attach: $(cat "$W/attach.out")"
		return 1
	}
	# nsenter itself, not in_ns: $! must be the daemon, not a subshell
	ROCEDP_PIN_DIR=$PIN nsenter --net=/run/netns/$LEAF "$ROCEDP" -j sync >"$W/sync.out" 2>"$W/sync.err" &
	SYNC_PID=$!
	# run() is a subshell: the EXIT trap finds the daemon by this file
	echo "$SYNC_PID" >"$W/$LEAF/sync.pid"
	sleep 3 # IPv6 link-local routes settle before the baselines
}

# waitfor WANT4 WANT6: from T0 (ns, set by the caller), poll the leaf's
# kernel (its proto bgp routes, counted from `ip -j route`) and the maps
# (rdbench count, less the baseline of connected routes) until both hold
# WANT routes; prints the JSON of the event
waitfor() {
	in_ns $LEAF $PY "$HERE/scale.py" waitfor "$T0" "$1" "$2" 0 0 "$MB4" "$MB6" "$PIN" "$RDB" "$TMO"
}

# contents: every injected prefix in the kernel (proto bgp) against the
# maps (rd_routes4/6 within the injector's ranges, each with its group's
# members: next hop and ifindex); prints {"differ":N,...}. Not timed: a
# bpftool dump of 100k entries takes about a second
contents() {
	in_ns $LEAF $PY "$HERE/scale.py" contents "$PIN"
}

now() { date +%s%N; }
outmap() { # permit|deny: gate every prefix on the injector, then re-send
	# `clear bgp *` alone is IPv6 only in FRR
	vty $INJ -c 'conf t' -c "route-map OUT $1 10" >/dev/null &&
		vty $INJ -c 'clear bgp ipv4 unicast * soft out' -c 'clear bgp ipv6 unicast * soft out' >/dev/null
}

run() {
	local first withdraw readv st pid c1 c2
	setup || return 1
	# the maps' baseline: connected routes, held before BGP
	MB4=$(in_ns $LEAF "$RDB" count $PIN/rd_routes4)
	MB6=$(in_ns $LEAF "$RDB" count $PIN/rd_routes6)
	log "leaf up (maps $MB4/$MB6 before BGP); injector: $N4 + $N6 prefixes"
	T0=$(now)
	frr $INJ zebra && frr $INJ bgpd || return 1
	first=$(waitfor "$N4" "$N6") || return 1
	log "advertise: $first"
	c1=$(contents) || return 1
	log "contents after advertise: $c1"
	T0=$(now)
	outmap deny || return 1
	withdraw=$(waitfor 0 0) || return 1
	log "withdraw: $withdraw"
	T0=$(now)
	outmap permit || return 1
	readv=$(waitfor "$N4" "$N6") || return 1
	log "re-advertise: $readv"
	c2=$(contents) || return 1
	log "contents after re-advertise: $c2"
	pid=$SYNC_PID
	st=$($PY "$HERE/scale.py" usage "$pid")
	kill "$SYNC_PID" && wait "$SYNC_PID"
	rm -f "$W/$LEAF/sync.pid"
	SYNC_PID=
	printf '{"n4":%s,"n6":%s,"advertise":%s,"withdraw":%s,"readvertise":%s,"contents_advertise":%s,"contents_readvertise":%s,%s,"sync":%s}\n' \
		"$N4" "$N6" "$first" "$withdraw" "$readv" "$c1" "$c2" "$st" "$(tail -n1 "$W/sync.out")"
}

# SCALE_HOLD=S: keep the namespaces S seconds after the run (debugging)
[ -n "${SCALE_HOLD:-}" ] && trap 'sleep $SCALE_HOLD; cleanup' EXIT
out=$(run) || {
	log "failed; sync stderr: $(tail -n3 "$W/sync.err" 2>/dev/null)"
	exit 1
}
echo "$out" >"$OUTF"
