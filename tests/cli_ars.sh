#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The config's "ars" section (docs/ars.md) through the CLI against pinned
# maps (tests/cli_config.sh's way: the dataplane's map definitions pinned
# by bpftool into a private directory): load, show, set, the dataplane's
# switch (ROCEDP_FLOWLETF_ARS in rd_config.flowlet_flags), and refusals
# that name the key and leave rd_ars as it was.
#
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
PIN=/sys/fs/bpf/rdarst$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdarst.XXXXXX)

cleanup() {
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp
pin_maps "$PIN/maps" || exit 1
ok "setup: maps pinned in $ROCEDP_PIN_DIR"

# the ARS bit of rd_config.flowlet_flags (bpftool's formatted value)
ars_bit() {
	bpftool -j map dump pinned "$ROCEDP_PIN_DIR/rd_config" |
		$PY -c 'import json,sys; v=json.load(sys.stdin)[0]["formatted"]["value"]; print((v["flowlet_flags"] >> 1) & 1)'
}
# a key of `config show -j`'s ars section, as JSON
show() {
	"$ROCEDP" -j config show | $PY -c 'import json,sys
v=json.load(sys.stdin)["ars"]
for k in sys.argv[1].split("."):
    v=v[k]
print(json.dumps(v, sort_keys=True))' "$1"
}
ars_dump() { bpftool map dump pinned "$ROCEDP_PIN_DIR/rd_ars"; }

cat >"$TMP/ars.json" <<'EOJ'
{"ars": {"mode": "per_packet_quality", "fallback": "fixed",
         "load_weight": 60, "queue_weight": 40, "sampling_interval_us": 8,
         "load_bands": [1, 2, 3, 4, 5, 6, 7],
         "groups": {"7": "fixed", "9": "off"},
         "optin": {"bth_mask": 64, "bth_value": 64,
                   "opcodes": ["rdma_write_only", 129], "dscp": [26, 34],
                   "prefixes": ["10.1.128.0/17", "2001:db8::/32"]}}}
EOJ
if "$ROCEDP" config load "$TMP/ars.json" >"$TMP/out" 2>&1; then
	ok "config load with an ars section"
else
	nok "config load with an ars section" "$(cat "$TMP/out")"
fi
want='"per_packet_quality"|"fixed"|60|40|8|[1, 2, 3, 4, 5, 6, 7]|{"7": "fixed", "9": "off"}'
got="$(show mode)|$(show fallback)|$(show load_weight)|$(show queue_weight)|$(show sampling_interval_us)|$(show load_bands)|$(show groups)"
[ "$got" = "$want" ] && ok "config show -j: the section as loaded" ||
	nok "config show -j: the section as loaded" "got  $got"$'\n'"want $want"
want='{"bth_mask": 64, "bth_value": 64, "dscp": [26, 34], "opcodes": ["rdma_write_only", "cnp"], "prefixes": ["10.1.128.0/17", "2001:db8::/32"]}'
got=$(show optin)
[ "$got" = "$want" ] && ok "config show -j: the opt-in matchers" ||
	nok "config show -j: the opt-in matchers" "got  $got"$'\n'"want $want"
[ "$(ars_bit)" = 1 ] && ok "rd_config: ARS switched on" ||
	nok "rd_config: ARS switched on" "flag $(ars_bit)"

# a group's mode keeps it on after the switch-wide mode goes
"$ROCEDP" config set ars.mode=off >"$TMP/out" 2>&1 &&
	[ "$(show mode)" = '"off"' ] && [ "$(ars_bit)" = 1 ] &&
	ok "config set ars.mode=off: group 7 (fixed) keeps ARS on" ||
	nok "config set ars.mode=off: group 7 (fixed) keeps ARS on" "$(cat "$TMP/out"); flag $(ars_bit)"
"$ROCEDP" config set ars.groups.7=off >"$TMP/out" 2>&1 &&
	[ "$(ars_bit)" = 0 ] &&
	ok "config set ars.groups.7=off: no mode left, ARS off" ||
	nok "config set ars.groups.7=off: no mode left, ARS off" "$(cat "$TMP/out"); flag $(ars_bit)"

# refusals: exit status, the key in the error line, rd_ars untouched
refuse() { # refuse DESC WANT_ERR JSON
	local before after
	before=$(ars_dump)
	printf '%s\n' "$3" >"$TMP/bad.json"
	if "$ROCEDP" config load "$TMP/bad.json" >"$TMP/out" 2>&1; then
		nok "$1: refused" "exit 0"
		return
	fi
	after=$(ars_dump)
	grep -qF -- "$2" "$TMP/out" && [ "$before" = "$after" ] &&
		ok "$1: refused, names the key, rd_ars unchanged" ||
		nok "$1: refused, names the key, rd_ars unchanged" "$(cat "$TMP/out")"
}
refuse "weights that do not add up" \
	"load_weight 60 and queue_weight 30 must add up to 100" \
	'{"ars": {"load_weight": 60, "queue_weight": 30}}'
refuse "unknown mode" "ars.mode" '{"ars": {"mode": "spray"}}'
refuse "bth_value outside the mask" "could never match" \
	'{"ars": {"optin": {"bth_mask": 64, "bth_value": 128}}}'
refuse "bands not ascending" "ars.load_bands[3]" \
	'{"ars": {"load_bands": [1, 2, 3, 3, 5, 6, 7]}}'
refuse "six bands" "needs 7 ascending values" \
	'{"ars": {"queue_bands": [1, 2, 3, 4, 5, 6]}}'
refuse "group id out of range" "no group id" \
	'{"ars": {"groups": {"1024": "fixed"}}}'
refuse "nine prefixes" "at most 8 prefixes" \
	'{"ars": {"optin": {"prefixes": ["10.0.0.0/8", "10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16", "10.4.0.0/16", "10.5.0.0/16", "10.6.0.0/16", "10.7.0.0/16", "10.8.0.0/16"]}}}'
refuse "DSCP 64" "ars.optin.dscp[0]" '{"ars": {"optin": {"dscp": [64]}}}'
refuse "unknown key" "ars.colour" '{"ars": {"colour": 1}}'

"$ROCEDP" help --config-keys >"$TMP/keys" 2>&1 &&
	grep -qx "ars.mode" "$TMP/keys" && grep -qx "ars.optin.bth_mask" "$TMP/keys" &&
	ok "help --config-keys lists ars.mode and ars.optin.bth_mask" ||
	nok "help --config-keys lists ars.mode and ars.optin.bth_mask" "$(grep ars "$TMP/keys")"

t_done
