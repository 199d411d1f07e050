# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: GPL-2.0
# rocedp-lab up --prometheus: a management network, one rocedp exporter per
# switch and Debian's Prometheus scraping them all with the rules of
# tools/prometheus (sourced by rocedp-lab; docs/lab.md, Prometheus).
#
# The namespace <P>-mgmt holds a bridge and Prometheus (127.0.0.1:9090
# there); every leaf and spine has a port "mgmt" on it: 10.253.1.<l> for
# leaf l, 10.253.2.<s> for spine s, 10.253.0.1 for Prometheus. Each
# switch's exporter listens on its mgmt address, port 9436; every lab
# link carries its peer's name as its description (ifalias), which the
# rules join with a QP's in_port to name a link.

PROM_PORT=9436
PROM_WEB=127.0.0.1:9090
prom_leaf_ip() { echo "10.253.1.$1"; }
prom_spine_ip() { echo "10.253.2.$1"; }

# prom_config STATE_DIR RULES: prometheus.yml on stdout, every switch a
# target with its name as the `switch` label
prom_config() {
	local l s
	cat <<EOC
# written by rocedp-lab up --prometheus (tools/lab/prom.sh)
global:
  scrape_interval: 2s
  scrape_timeout: 2s
  evaluation_interval: 2s
rule_files:
  - $2
scrape_configs:
  - job_name: rocedp
    static_configs:
EOC
	for l in $(seq "$leaves"); do
		printf '      - targets: ["%s:%s"]\n        labels: {switch: leaf%s, role: leaf}\n' \
			"$(prom_leaf_ip "$l")" "$PROM_PORT" "$l"
	done
	for s in $(seq "$spines"); do
		printf '      - targets: ["%s:%s"]\n        labels: {switch: spine%s, role: spine}\n' \
			"$(prom_spine_ip "$s")" "$PROM_PORT" "$s"
	done
}

# prom_mgmt NODE IP: the node's mgmt port on the bridge
prom_mgmt() {
	veth "$1" mgmt mgmt "m-$1"
	ip -n "$(ns mgmt)" link set "m-$1" master br0 ||
		die "mgmt: m-$1 cannot join the bridge"
	ip -n "$(ns "$1")" addr add "$2/16" dev mgmt
}

# prom_exporter NODE IP: rocedp exporter in NODE's namespace, its pid kept
prom_exporter() {
	local d
	d=$(state_dir)
	in_node "$1" "$ROCEDP" exporter --listen "$2:$PROM_PORT" --top-qps 64 \
		>>"$d/$1.exporter.log" 2>&1 &
	echo $! >"$d/$1.exporter.pid"
}

# prom_describe: each link's description names its peer
prom_describe() {
	local l s h
	for l in $(seq "$leaves"); do
		for s in $(seq "$spines"); do
			ip -n "$(ns "leaf$l")" link set "up$s" alias "spine$s"
			ip -n "$(ns "spine$s")" link set "leaf$l" alias "leaf$l"
		done
		for h in $(seq "$hosts"); do
			ip -n "$(ns "leaf$l")" link set "host$h" alias "h$l-$h"
			ip -n "$(ns "h$l-$h")" link set eth0 alias "leaf$l"
		done
	done
}

prom_up() {
	local d l s i
	d=$(state_dir)
	command -v prometheus >/dev/null || die "--prometheus: prometheus is not installed (tools/install-deps.sh)"
	mkns mgmt
	ip -n "$(ns mgmt)" link add br0 type bridge || die "mgmt: cannot create the bridge"
	ip -n "$(ns mgmt)" link set br0 up
	ip -n "$(ns mgmt)" addr add 10.253.0.1/16 dev br0
	for l in $(seq "$leaves"); do prom_mgmt "leaf$l" "$(prom_leaf_ip "$l")"; done
	for s in $(seq "$spines"); do prom_mgmt "spine$s" "$(prom_spine_ip "$s")"; done
	prom_describe
	for l in $(seq "$leaves"); do prom_exporter "leaf$l" "$(prom_leaf_ip "$l")"; done
	for s in $(seq "$spines"); do prom_exporter "spine$s" "$(prom_spine_ip "$s")"; done
	mkdir -m 0755 "$d/prom" || die "$d/prom: cannot create"
	prom_config "$d" "$LAB_TOP/tools/prometheus/rocedp.rules.yml" >"$d/prom/prometheus.yml"
	in_node mgmt prometheus --config.file="$d/prom/prometheus.yml" \
		--storage.tsdb.path="$d/prom/data" --web.listen-address="$PROM_WEB" \
		--storage.tsdb.retention.time=1d --log.level=warn \
		>>"$d/prom/prometheus.log" 2>&1 &
	echo $! >"$d/prom/prometheus.pid"
	# ready: Prometheus answers, and has scraped every target once
	for i in $(seq 150); do
		[ "$(prom_query 'count(up == 1)' 2>/dev/null)" = "$((leaves + spines))" ] && break
		kill -0 "$(cat "$d/prom/prometheus.pid")" 2>/dev/null ||
			die "prometheus exited: $(tail -n 3 "$d/prom/prometheus.log")"
		sleep 0.2
	done
	[ "$i" -lt 150 ] || die "prometheus: not every exporter answered within 30 s (logs: $d)"
	say "prometheus: http://$PROM_WEB in netns $(ns mgmt), scraping $leaves leaves and $spines spines"
}

# prom_query EXPR: the first value of an instant query, as text
prom_query() {
	in_node mgmt /usr/bin/python3 "$LAB_TOP/tools/lab/diagnose.py" \
		--url "http://$PROM_WEB" --query "$1"
}

# rocedp-lab diagnose [-j]: where frames are lost, which QPs suffer, from
# Prometheus alone (tools/lab/diagnose.py)
cmd_diagnose() {
	load_conf || die "lab '$prefix' is not up"
	[ "${prometheus:-0}" = 1 ] || die "diagnose: lab '$prefix' runs no Prometheus (up --prometheus)"
	[ ${#rest[@]} = 0 ] || die "diagnose: unexpected '${rest[0]}'"
	local j=()
	[ "$lab_json" = 1 ] && j=(-j)
	in_node mgmt /usr/bin/python3 "$LAB_TOP/tools/lab/diagnose.py" \
		--url "http://$PROM_WEB" "${j[@]}"
}
