#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Attacks on what rocedp reads and prints, each by a process that is not
# root: a CAP_NET_ADMIN-only process in the namespace forging rtnetlink
# datagrams to `rocedp sync` (a length that wrapped libmnl's walk, a route
# the kernel does not have), and interface names with ESC, '"' and '\'
# in them reaching the terminal, JSON and Prometheus text; and lab.conf
# files rocedp-lab did not write. Also that the module's ECN profiles,
# which every namespace shares, say so.
#
# Usage: selftests/security_io.sh [PART...]   (root; parts: netlink names ecnprofile lab)
set -u
. "$(dirname "$0")/lib.sh"

t_require ip bpftool setpriv promtool || exit $?
PARTS=${*:-netlink names ecnprofile lab}
t_pin_ns snl$$ || exit 1
t_ns_ab || exit 1

# as a process with CAP_NET_ADMIN and nothing else, in the namespace
netadmin() {
	ip netns exec "$NS" setpriv --inh-caps=-all,+net_admin \
		--ambient-caps=-all,+net_admin --bounding-set=-all,+net_admin -- "$@"
}

# route4 PREFIX: the rd_routes4 entry for PREFIX ("GROUP FLAGS"), or "none"
route4() {
	bpftool -j map dump pinned "$PIN/rd_routes4" | $PY "$T_TOP/selftests/security_io.py" route4 "$1"
}
has_route() { [ "$(route4 "$1")" != none ]; }

part_netlink() {
	local pid a0 i
	ip -n "$NS" neigh replace 10.100.0.2 lladdr 02:00:00:00:00:02 nud permanent dev a0
	X attach a0 b0 --mode generic >"$T_TMP/attach.out" 2>&1
	t_check $? "netlink: attach a0 b0" "$(cat "$T_TMP/attach.out")"
	T_BG_OUT=$T_TMP/sync.out T_BG_ERR=$T_TMP/sync.err t_rd_bg pid -j sync
	ip -n "$NS" route add 10.76.0.0/24 via 10.100.0.2 dev a0
	t_wait_for 10 has_route 10.76.0.0/24
	t_check $? "netlink: sync runs and mirrors the kernel's 10.76.0.0/24" \
		"$(cat "$T_TMP/sync.err")"

	a0=$(ip -n "$NS" -j link show dev a0 | $PY -c 'import json,sys; print(json.load(sys.stdin)[0]["ifindex"])')
	netadmin $PY "$T_TOP/selftests/nl_forge.py" route "$a0" 2>"$T_TMP/forge.err"
	t_check $? "netlink: a CAP_NET_ADMIN-only process sends a forged RTM_NEWROUTE" \
		"$(cat "$T_TMP/forge.err")"
	# the real route after the forged one: once it is in, the forgery was seen
	ip -n "$NS" route add 10.78.0.0/24 via 10.100.0.2 dev a0
	t_wait_for 10 has_route 10.78.0.0/24
	[ "$(route4 10.77.0.0/24)" = none ] && ! ip -n "$NS" route show 10.77.0.0/24 | grep -q .
	t_check $? "netlink: the forged 10.77.0.0/24 is not in rd_routes4 (got $(route4 10.77.0.0/24))"

	netadmin $PY "$T_TOP/selftests/nl_forge.py" crash 2>"$T_TMP/forge.err"
	t_check $? "netlink: a CAP_NET_ADMIN-only process sends nlmsg_len 0xfffffff0" \
		"$(cat "$T_TMP/forge.err")"
	ip -n "$NS" route add 10.79.0.0/24 via 10.100.0.2 dev a0
	t_wait_for 10 has_route 10.79.0.0/24 && kill -0 "$pid" 2>/dev/null
	t_check $? "netlink: sync survives it and still follows the kernel" \
		"$(tail -n 3 "$T_TMP/sync.err")"

	kill -TERM "$pid" 2>/dev/null
	for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	t_pyj "$T_TMP/sync.out" 'j["nl_refused"] if j["nl_refused"] >= 2 else 0' >"$T_TMP/refused" 2>&1
	t_check $? "netlink: sync counts the refused datagrams (nl_refused $(cat "$T_TMP/refused"))" \
		"$(cat "$T_TMP/sync.out")"
	grep -q "sync: refused .* not from the kernel" "$T_TMP/sync.err"
	t_check $? "netlink: and logs them" "$(cat "$T_TMP/sync.err")"
}

# An interface named with ESC, '"' and '\' (legal for `ip link add`):
# every output form stays clean. Terminal forms carry no control byte,
# -j forms parse and name the interface exactly, Prometheus text passes
# promtool.
part_names() {
	local bad=$'e\e[31m"\\' c f out idx
	ip -n "$NS" link add "$bad" type veth peer name nm1 &&
		ip -n "$NS" link set "$bad" up && ip -n "$NS" link set nm1 up
	t_check $? "names: an interface named e ESC [31m \" \\ exists"
	X attach "$bad" --mode generic >"$T_TMP/attach.out" 2>&1
	t_check $? "names: attach it" "$(cat -v "$T_TMP/attach.out")"
	# a group with a member on it: stats shows members by port name
	$PY "$T_TOP/selftests/security_io.py" member_cfg "$bad" >"$T_TMP/cfg.json"
	X config load "$T_TMP/cfg.json" >"$T_TMP/cfg.out" 2>&1
	t_check $? "names: config load: a group whose member is on it" "$(cat -v "$T_TMP/cfg.out")"
	X ecn set "$bad" kmin 10000 kmax 20000 pmax 10 >"$T_TMP/ecn.out" 2>&1
	t_check $? "names: ecn set on it" "$(cat -v "$T_TMP/ecn.out")"
	# counters on it and a QP seen on it, as the dataplane writes them
	# (not `ip -j`: iproute2 writes the name into its JSON raw)
	idx=$(ip netns exec "$NS" cat "/sys/class/net/$bad/ifindex")
	$PY "$T_TOP/tests/qps_fill.py" "$PIN" \
		--qp "src=10.0.0.1,dst=10.0.0.2,qp=5,pkts=10,bytes=1000,gaps=3,in_ifindex=$idx,out_ifindex=$idx" \
		--port "ifindex=$idx,rx_pkts=5,tx_pkts=5,rx_bytes=500,tx_bytes=500" \
		>"$T_TMP/fill.out" 2>&1
	t_check $? "names: counters and a QP on it (tests/qps_fill.py)" "$(cat "$T_TMP/fill.out")"

	# clean FILE: no byte below 0x20 but newline, no DEL
	clean() {
		$PY -c 'import sys; d = open(sys.argv[1], "rb").read()
bad = [b for b in d if (b < 0x20 and b != 10) or b == 0x7f]
print(f"{len(d)} bytes, {len(bad)} control bytes"); sys.exit(1 if bad or not d else 0)' "$1"
	}
	for c in status stats "top --once" qps "ecn show"; do
		X $c >"$T_TMP/out" 2>&1
		out=$(clean "$T_TMP/out") && grep -q 'e\\x1b\[31m"\\\\' "$T_TMP/out" && out="$out, name escaped"
		t_check $? "names: '$c' prints no control byte ($out)" "$(head -c 600 "$T_TMP/out" | cat -v)"
	done
	# names: the -j forms parse, and the interface's name comes back whole
	for c in status stats "top --once" qps "ecn show"; do
		X -j $c >"$T_TMP/out" 2>"$T_TMP/err"
		out=$($PY "$T_TOP/selftests/security_io.py" control_bytes "$T_TMP/out" "$bad" \
			1 2>&1)
		t_check $? "names: '-j $c' is valid JSON ($out)" "$(head -c 600 "$T_TMP/out" | cat -v)"
	done
	if ! command -v promtool >/dev/null; then
		t_fail "names: promtool present (tools/install-deps.sh installs prometheus)"
		return
	fi
	# promtool: exit 1 and "error while linting" on a text it cannot
	# parse; 3 for lint advice alone (metrics without HELP text)
	promcheck() {
		local rc
		promtool check metrics <"$1" >"$T_TMP/promtool" 2>&1
		rc=$?
		{ [ $rc = 0 ] || [ $rc = 3 ]; } && ! grep -q "error" "$T_TMP/promtool"
	}
	X stats --prometheus >"$T_TMP/prom" 2>&1
	out=$(clean "$T_TMP/prom") && grep -q 'port="e\\\\x1b\[31m\\"\\\\\\\\"' "$T_TMP/prom" &&
		grep -q '^rocedp_member_bytes_total{.*port="e\\\\x1b' "$T_TMP/prom" &&
		promcheck "$T_TMP/prom"
	t_check $? "names: stats --prometheus passes promtool check metrics, the name escaped ($out)" \
		"$(grep -a 'port="e' "$T_TMP/prom" | head -n 2 | cat -v; head -n 5 "$T_TMP/promtool")"
	mkdir -p "$T_TMP/tf"
	X stats --textfile "$T_TMP/tf" >"$T_TMP/tf.out" 2>&1
	f=$(ls "$T_TMP"/tf/*.prom 2>/dev/null | head -n 1)
	[ -n "$f" ] && promcheck "$f"
	t_check $? "names: stats --textfile passes promtool check metrics" \
		"$(cat "$T_TMP/tf.out" "$T_TMP/promtool" 2>/dev/null | head -n 5)"
}

# The module's ECN profiles are the host's: from a namespace, `ecn set
# profile` says it changes every namespace's. kmin above kmax, so that
# nothing is written even where the module is loaded.
part_ecnprofile() {
	local note="shared by the whole host"
	X ecn set profile 1 kmin 2000 kmax 1000 >"$T_TMP/ecn.out" 2>&1
	grep -q "$note" "$T_TMP/ecn.out"
	t_check $? "ecn set profile in a namespace: says it changes the whole host" \
		"$(cat "$T_TMP/ecn.out")"
	# kthreadd's namespace is the initial one (when this runs there)
	if [ "$(readlink /proc/self/ns/net)" != "$(readlink /proc/2/ns/net 2>/dev/null)" ]; then
		t_skip "ecn set profile in the initial namespace: no such note" \
			"this test does not run in the initial network namespace"
		return
	fi
	"$ROCEDP" ecn set profile 1 kmin 2000 kmax 1000 >"$T_TMP/ecn.out" 2>&1
	! grep -q "$note" "$T_TMP/ecn.out"
	t_check $? "ecn set profile in the initial namespace: no such note" \
		"$(cat "$T_TMP/ecn.out")"
}

# rocedp-lab runs as root and reads $LAB_RUN/PREFIX: a '../' in --prefix
# must not lead it to another directory's lab.conf, and a lab.conf it did
# not write (someone else's directory or file) is not read. Each lab.conf
# planted here would touch $T_TMP/pwned if it were sourced.
part_lab() {
	local cmd rc run=$T_TMP/labrun evil=$T_TMP/evil
	local cmds="down exec status sync hosts nodes frr frr-repair inject"
	mkdir -m 0755 "$run" "$evil"
	printf 'leaves=1\nspines=1\ntouch %s/pwned\n' "$T_TMP" >"$evil/lab.conf"
	echo leaf1 >"$evil/nodes"
	for cmd in $cmds; do
		rm -f "$T_TMP/pwned"
		LAB_RUN=$run "$LAB" "$cmd" --prefix ../evil leaf1 true >"$T_TMP/lab.out" 2>&1
		rc=$?
		[ $rc != 0 ] && [ ! -e "$T_TMP/pwned" ] && [ -e "$evil/lab.conf" ] &&
			grep -q -- "--prefix: '../evil'" "$T_TMP/lab.out"
		t_check $? "lab: $cmd --prefix ../evil is refused (exit $rc, $([ -e "$T_TMP/pwned" ] && echo "lab.conf sourced" || echo "nothing read"))" \
			"$(head -n 3 "$T_TMP/lab.out")"
	done

	# plant WHAT: a lab 'zz' in $run whose lab.conf root did not write alone
	plant() {
		rm -rf "$run/zz" "$T_TMP/pwned"
		mkdir -m 0755 "$run/zz"
		printf 'leaves=1\ntouch %s/pwned\n' "$T_TMP" >"$run/zz/lab.conf"
		: >"$run/zz/nodes"
		case $1 in
		dir) chown -R nobody "$run/zz" ;;
		file) chown nobody "$run/zz/lab.conf" ;;
		mode) chmod 0666 "$run/zz/lab.conf" ;;
		esac
	}
	for what in dir file mode; do
		for cmd in status down; do
			plant $what
			LAB_RUN=$run "$LAB" "$cmd" --prefix zz >"$T_TMP/lab.out" 2>&1
			rc=$?
			[ $rc != 0 ] && [ ! -e "$T_TMP/pwned" ] && grep -q "refusing" "$T_TMP/lab.out"
			t_check $? "lab: $cmd refuses a lab.conf planted ($what: $(stat -c '%U %a' "$run/zz/lab.conf" 2>/dev/null); exit $rc, $([ -e "$T_TMP/pwned" ] && echo "sourced" || echo "not read"))" \
				"$(head -n 3 "$T_TMP/lab.out")"
		done
	done
}

for p in $PARTS; do
	"part_$p"
done
t_done
