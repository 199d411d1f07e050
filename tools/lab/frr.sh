# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: GPL-2.0
# FRR in the lab (sourced by rocedp-lab; docs/lab.md, "BGP", docs/frr.md).
# Debian's zebra + bgpd run in every leaf and spine namespace, started by
# hand: per-node pathspace (-N), and config, pid files, vty sockets, the
# zserv socket and logs in $LAB_RUN/<prefix>/frr/<node>; never systemd,
# never /etc/frr. eBGP per RFC 7938: leaf l has AS 65000+l, the spines
# share AS 64600. The lab's family (up --ipv6) is the one address family
# the sessions carry: IPv4 unicast, or IPv6 unicast alone.
FRR_BIN=${FRR_BIN:-/usr/lib/frr}
LAB_FRRCHECK=$LAB_TOP/tools/lab/frrcheck.py

frr_dir() { echo "$(state_dir)/frr/$1"; }

# The daemons would drop to the frr user, which cannot reach the lab's run
# dir; run them as root. FRR insists that the user be in the vty group
# (frrvty): -g frrvty makes it so without touching /etc/group.
frr_daemon() { # NODE DAEMON
	local n=$1 dm=$2 fd
	fd=$(frr_dir "$n")
	ip netns exec "$(ns "$n")" "$FRR_BIN/$dm" -d -N "$(ns "$n")" -u root -g frrvty \
		-f "$fd/$dm.conf" -i "$fd/$dm.pid" --vty_socket "$fd" -z "$fd/zserv.api" \
		>>"$fd/$dm.out" 2>&1 || die "$n: $dm did not start: $(tail -n1 "$fd/$dm.out")"
}

# frr_conf NODE: write zebra.conf and bgpd.conf for NODE
frr_conf() {
	local n=$1 fd asn rid s l h peers=() nets=()
	fd=$(frr_dir "$n")
	mkdir -p "$fd" || die "$fd: cannot create"
	case $n in
	leaf*)
		l=${n#leaf} asn=$((65000 + l)) rid=10.254.0.$l
		for s in $(seq "$spines"); do
			if [ "$bgp" = unnumbered ]; then peers+=("up$s interface"); else peers+=("$(sd_ip "$l" "$s")"); fi
		done
		for h in $(seq "$hosts"); do nets+=("$(host_net "$l" "$h")"); done
		# the Soft-RoCE guests' subnets (rdma.sh, up --rdma)
		for h in $(seq "${rdma:-0}"); do nets+=("$(lab_rdma_net "$l" "$h")"); done
		;;
	spine*)
		s=${n#spine} asn=64600 rid=10.254.1.$s
		for l in $(seq "$leaves"); do
			if [ "$bgp" = unnumbered ]; then peers+=("leaf$l interface"); else peers+=("$(lu_ip "$l" "$s")"); fi
		done
		;;
	esac
	{
		echo "hostname $n"
		echo "log file $fd/zebra.log"
		# FRR_ZEBRA_EXTRA: extra zebra lines (e.g. the stale-group test)
		[ -n "${FRR_ZEBRA_EXTRA:-}" ] && printf '%s\n' "$FRR_ZEBRA_EXTRA"
	} >"$fd/zebra.conf"
	{
		echo "hostname $n"
		echo "log file $fd/bgpd.log"
		echo "router bgp $asn"
		echo " bgp router-id $rid"
		# IPv6: the sessions carry IPv6 unicast only
		if_v6 && echo " no bgp default ipv4-unicast"
		echo " no bgp ebgp-requires-policy"
		echo " no bgp network import-check"
		echo " bgp bestpath as-path multipath-relax"
		echo " timers bgp 1 3"
		echo " neighbor FABRIC peer-group"
		echo " neighbor FABRIC remote-as external"
		echo " neighbor FABRIC advertisement-interval 0"
		echo " neighbor FABRIC timers connect 1"
		for p in "${peers[@]}"; do echo " neighbor $p peer-group FABRIC"; done
		if if_v6; then
			echo " address-family ipv6 unicast"
			echo "  neighbor FABRIC activate"
		else
			echo " address-family ipv4 unicast"
		fi
		for p in "${nets[@]}"; do echo "  network $p"; done
		echo "  maximum-paths 64"
		echo " exit-address-family"
	} >"$fd/bgpd.conf"
}

frr_start() { # NODE
	[ -x "$FRR_BIN/zebra" ] && [ -x "$FRR_BIN/bgpd" ] ||
		die "--bgp: $FRR_BIN/zebra and bgpd not found (apt-get install frr)"
	frr_conf "$1"
	frr_daemon "$1" zebra
	frr_daemon "$1" bgpd
}

# frr_stop NODE [DAEMON...]: SIGTERM by pid file, then wait
frr_stop() {
	local n=$1 fd dm p dms
	shift
	fd=$(frr_dir "$n")
	dms=("$@")
	[ ${#dms[@]} = 0 ] && dms=(bgpd zebra)
	for dm in "${dms[@]}"; do
		p=$(cat "$fd/$dm.pid" 2>/dev/null) || continue
		kill "$p" 2>/dev/null
		for _ in $(seq 100); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.02
		done
		kill -9 "$p" 2>/dev/null
		rm -f "$fd/$dm.pid"
	done
}

# frr_down: every node's daemons at once (bgpd takes about 2 s to end on
# SIGTERM), SIGKILL after 4 s; and the pathspace dirs zebra made in
# /var/run/frr
frr_down() {
	local d n f p pids=()
	d=$(state_dir)
	[ -d "$d/frr" ] || return 0
	for f in "$d"/frr/*/*.pid; do
		p=$(cat "$f" 2>/dev/null) || continue
		kill "$p" 2>/dev/null && pids+=("$p")
	done
	for _ in $(seq 80); do
		for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && break; done
		kill -0 "$p" 2>/dev/null || break
		sleep 0.05
	done
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	for n in "$d"/frr/*; do
		[ -d "$n" ] && rmdir "/var/run/frr/$(ns "${n##*/}")" 2>/dev/null
	done
	return 0
}

# frr_links_v6 NODE IF: an unnumbered link needs IPv6 (link-local next
# hops, router advertisements) on that interface only
frr_links_v6() {
	ip netns exec "$(ns "$1")" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=0" >/dev/null
}

fam_opt() { if if_v6; then echo -6; else echo -4; fi; }

# frr_converged: every leaf has every other leaf's host /24s through every
# spine (installed in the kernel)
frr_converged() {
	local l m h want have
	for l in $(seq "$leaves"); do
		want=0
		for m in $(seq "$leaves"); do [ "$m" != "$l" ] && want=$((want + hosts)); done
		have=$(ip -n "$(ns "leaf$l")" "$(fam_opt)" route show proto bgp | awk -v s="$spines" '
			/^[0-9a-f]/ { if (n == s) full++; n = ($0 ~ / dev /) ? 1 : 0; next }
			/nexthop/ { n++ }
			END { if (n == s) full++; print full + 0 }')
		[ "$have" -ge "$want" ] || return 1
	done
}

frr_wait() { # SECONDS
	local end=$((SECONDS + $1))
	until frr_converged; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.2
	done
}

# frr_check NODE: zebra's view against the kernel's (FRR 8.4 keeps a stale
# group when a link comes back: docs/frr.md); prints the differences, exit 1
# when any
frr_check() {
	local fd
	fd=$(frr_dir "$1")
	ip netns exec "$(ns "$1")" vtysh --vty_socket "$fd" -c "show $(if_v6 && echo ipv6 || echo ip) route json" \
		>"$fd/zebra.json" 2>/dev/null || { echo "zebra: no answer"; return 1; }
	ip -n "$(ns "$1")" -j "$(fam_opt)" route show >"$fd/kernel.json"
	/usr/bin/python3 "$LAB_FRRCHECK" "$fd/zebra.json" "$fd/kernel.json"
}

frr_status() { # NODE: daemons, sessions, and zebra against the kernel
	local n=$1 fd dm p up
	fd=$(frr_dir "$n")
	for dm in zebra bgpd; do
		p=$(cat "$fd/$dm.pid" 2>/dev/null)
		if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
			echo "    $dm: running (pid $p)"
		else
			echo "    $dm: NOT running (log: $fd/$dm.log)"
		fi
	done
	up=$(ip netns exec "$(ns "$n")" vtysh --vty_socket "$fd" -c 'show bgp summary json' 2>/dev/null |
		/usr/bin/python3 "$LAB_TOP/tools/lab/frr.py" established \
		"$(if_v6 && echo ipv6Unicast || echo ipv4Unicast)")
	echo "    bgp: ${up:-?} sessions established"
	frr_check "$n"
}

# frr_repair NODE: the stale-group workaround (docs/frr.md)
frr_repair() {
	/usr/bin/python3 "$LAB_FRRCHECK" --repair "$(ns "$1")" "$(frr_dir "$1")"
}
