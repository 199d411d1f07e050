#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Prometheus rules (tools/prometheus/rocedp.rules.yml, docs/metrics.md):
# `promtool check rules` accepts them, and `promtool test rules` runs
# tests/prometheus/rules_test.yml: a lossy spine named by both links
# behind it, loss before the first switch not blamed on the spine, no
# alert without loss, the RTT alert on the delayed path only, a stalled
# QP. Also: every rule the tests use exists, and the lab's Prometheus
# config (tools/lab/prom.sh writes it) passes `promtool check config`.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
RULES=$ROOT/tools/prometheus/rocedp.rules.yml
TMP=$(mktemp -d /tmp/rdpromr.XXXXXX)
t_cleanup 'rm -rf "$TMP"'

command -v promtool >/dev/null || {
	echo "not ok 1 - promtool (tools/install-deps.sh installs prometheus)"
	exit 1
}

if promtool check rules "$RULES" >"$TMP/check" 2>&1; then
	ok "promtool check rules: $(grep -o '[0-9]* rules found' "$TMP/check")"
else
	nok "promtool check rules" "$(cat "$TMP/check")"
fi

if (cd "$ROOT/tests/prometheus" && promtool test rules rules_test.yml) >"$TMP/test" 2>&1; then
	ok "promtool test rules: $(grep -c '^  - name:' "$ROOT/tests/prometheus/rules_test.yml") scenarios pass"
else
	nok "promtool test rules" "$(head -n 40 "$TMP/test")"
fi

# the three alerts the docs promise, each tested firing and quiet
for a in RocedpLossyLink RocedpQpStalled RocedpPathRttRegression; do
	if grep -q "^      - alert: $a$" "$RULES" &&
		[ "$(grep -c "alertname: $a$" "$ROOT/tests/prometheus/rules_test.yml")" -ge 2 ]; then
		ok "alert $a: defined, tested firing and quiet"
	else
		nok "alert $a defined and tested"
	fi
done

# the lab's configuration, as rocedp-lab up --prometheus writes it
if [ -r "$ROOT/tools/lab/prom.sh" ]; then
	# shellcheck source=tools/lab/prom.sh
	. "$ROOT/tools/lab/prom.sh"
	leaves=3 spines=2 prefix=t
	prom_config "$TMP" "$RULES" >"$TMP/prometheus.yml"
	if promtool check config "$TMP/prometheus.yml" >"$TMP/cc" 2>&1; then
		ok "the lab's prometheus.yml (3 leaves, 2 spines): promtool check config"
	else
		nok "lab prometheus.yml" "$(cat "$TMP/cc")"
	fi
fi

t_done
