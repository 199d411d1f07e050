# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: GPL-2.0
# `make bench`, section prom (sourced by bench.sh; docs/bench.md): what a
# scraped exporter costs the forwarding. The tput section's fabric and its
# default row (rocedp native, default features, 64-byte frames), measured
# without and then with `rocedp exporter` and Debian's Prometheus scraping
# it every second: placed by the scheduler as any daemon is (the judged
# row), and both pinned to the CPU that sends and forwards (the worst
# case, reported). The three alternate in each run, in an order that
# rotates from run to run, so each ratio compares neighbours in time.
#
# Environment: BENCH_PROM_RUNS (5), BENCH_PROM_SECONDS (5: at least 5
# scrapes a run), BENCH_PROM_SETTLE (3: seconds Prometheus runs before the
# measurement, past its start-up work).

PROM_EXP=127.0.0.1:9436
PROM_WEB=127.0.0.1:9099

# prom_tput_one MODE RUN: as tput_one, into prom.jsonl
prom_tput_one() {
	local out
	out=$(taskset -c "$CPU" nsenter --net=/run/netns/bn_src "$RDB" src \
		-i bs0 -d "$DMAC" -s 10.200.0.2 -D 10.9.0.1 -l 64 \
		-t "$PROM_S" -k /sys/fs/bpf/bn_sink_count -H bshold) || return 1
	echo "{\"mode\":\"$1\",\"run\":$2,\"scrapes\":${3:-0},${out#\{}" >>"$B/prom.jsonl"
}

# prom_q EXPR: an instant query's first value, from the bench's Prometheus
prom_q() {
	in_ns bn_fw "$PY" tests/harness/bench/bench.py prom_q "$PROM_WEB" "$1" 2>/dev/null
}

PROM_PIDS=()
prom_stack_up() { # [PIN]: the exporter and Prometheus in bn_fw (on the
	# forwarding CPU with PIN), until one scrape came back
	local i pin=()
	[ "${1:-}" = pin ] && pin=(taskset -c "$CPU")
	rm -rf "$B/prom-data"
	mkdir -p "$B/prom-data"
	cat >"$B/prom-data/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $(realpath tools/prometheus/rocedp.rules.yml)
scrape_configs:
  - job_name: rocedp
    static_configs:
      - targets: ["$PROM_EXP"]
        labels: {switch: bn_fw}
EOC
	ROCEDP_PIN_DIR=/sys/fs/bpf/bn_fw ${pin[@]+"${pin[@]}"} nsenter --net=/run/netns/bn_fw \
		"$ROCEDP" exporter --listen "$PROM_EXP" >"$B/prom-exporter.log" 2>&1 &
	PROM_PIDS=($!)
	${pin[@]+"${pin[@]}"} nsenter --net=/run/netns/bn_fw prometheus \
		--config.file="$B/prom-data/prometheus.yml" --storage.tsdb.path="$B/prom-data/tsdb" \
		--web.listen-address="$PROM_WEB" --log.level=warn >"$B/prom-server.log" 2>&1 &
	PROM_PIDS+=($!)
	for i in $(seq 100); do
		[ "$(prom_q 'up{job="rocedp"}')" = 1 ] && return 0
		sleep 0.2
	done
	log "prom: Prometheus never scraped the exporter (logs: $B/prom-*.log)"
	return 1
}

prom_stack_down() {
	[ ${#PROM_PIDS[@]} -gt 0 ] || return 0
	kill "${PROM_PIDS[@]}" 2>/dev/null
	wait "${PROM_PIDS[@]}" 2>/dev/null
	PROM_PIDS=()
	rm -rf "$B/prom-data"
}

# prom_cpu PID...: their CPU time so far (user + system), in clock ticks
prom_cpu() {
	local p t=0 f
	for p in "$@"; do
		read -ra f <"/proc/$p/stat" || return 1
		t=$((t + f[13] + f[14]))
	done
	echo $t
}

# prom_with RUN MODE [pin]: the default row with the exporter scraped, once
# Prometheus is past its start-up (BENCH_PROM_SETTLE seconds after its
# first scrape); the scrapes it made during the run and the CPU time both
# used go into the line
prom_with() {
	local n c0 c1 e0 e1
	prom_stack_up "${3:-}" || return 1
	sleep "${BENCH_PROM_SETTLE:-3}"
	c0=$(prom_cpu "${PROM_PIDS[@]}") e0=$(prom_cpu "${PROM_PIDS[0]}")
	prom_tput_one "$2" "$1" || return 1
	c1=$(prom_cpu "${PROM_PIDS[@]}") e1=$(prom_cpu "${PROM_PIDS[0]}")
	n=$(prom_q "count_over_time(scrape_duration_seconds{job=\"rocedp\"}[${PROM_S}s])")
	prom_stack_down
	sed -i '$ s/"scrapes":0,/"scrapes":'"${n:-0}"',"cpu_s":'"$(((c1 - c0) * 1000 / $(getconf CLK_TCK)))e-3"',"exporter_cpu_s":'"$(((e1 - e0) * 1000 / $(getconf CLK_TCK)))e-3"',/' "$B/prom.jsonl"
}

prom_order() { # prom_order RUN: the three measurements, rotated by run
	case $(($1 % 3)) in
	1) echo alone prom pinned ;;
	2) echo prom pinned alone ;;
	0) echo pinned alone prom ;;
	esac
}

sec_prom() {
	local r m PROM_S=${BENCH_PROM_SECONDS:-5}
	log "the exporter scraped every second against the default row (~$((${BENCH_PROM_RUNS:-5} * (3 * PROM_S + 2 * ${BENCH_PROM_SETTLE:-3} + 10))) s)"
	command -v prometheus >/dev/null || {
		echo '{"missing":true,"why":"prometheus is not installed"}' >"$B/prom.json"
		return 0
	}
	rm -f "$B/prom.jsonl"
	trap 'prom_stack_down; cleanup' EXIT
	fabric_up || return 1
	DMAC=$(mac_of bn_fw bfin)
	for r in $(seq "${BENCH_PROM_RUNS:-5}"); do
		rocedp_up native || return 1
		for m in $(prom_order "$r"); do
			case $m in
			alone) prom_tput_one rocedp_native "$r" ;;
			prom) prom_with "$r" rocedp_native_prom ;;
			pinned) prom_with "$r" rocedp_native_prom_pinned pin ;;
			esac || return 1
		done
		rd_fw detach --all >/dev/null || return 1
	done
	for ns in bn_src bn_fw bn_sink; do ip netns del $ns; done
	rm -f /sys/fs/bpf/bn_sink_count
	trap cleanup EXIT
}
