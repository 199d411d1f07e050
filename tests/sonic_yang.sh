#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/sonic/sonic-rocedp.yang, the model of rocedp's own CONFIG_DB tables
# (docs/sonic.md, "rocedp's own tables"), against libyang's yanglint and
# against the converter: the module parses; tests/sonic/rocedp_yang.json
# (sonic-yang's JSON form of ROCEDP, ROCEDP_QOS and ROCEDP_CTS_RULE)
# validates and an out-of-range value does not; every ROCEDP|global leaf
# the model has, at its default, is one `rocedp sonic import` takes, and
# the document those defaults give passes `rocedp config check`; a field
# the model lacks is refused by both.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/selftests/lib.sh"
YANG=$ROOT/tools/sonic/sonic-rocedp.yang
TMP=$(mktemp -d /tmp/rdyang.XXXXXX)
t_cleanup 'rm -rf "$TMP"'

if ! command -v yanglint >/dev/null; then
	ok "sonic-rocedp.yang # skip yanglint missing (tools/install-deps.sh installs libyang2-tools)"
	exit 0
fi

if yanglint "$YANG" >"$TMP/lint" 2>&1; then
	ok "yanglint parses sonic-rocedp.yang"
else
	nok "yanglint parses sonic-rocedp.yang"
	sed 's/^/# /' "$TMP/lint"
fi
if yanglint -t config "$YANG" "$ROOT/tests/sonic/rocedp_yang.json" >"$TMP/data" 2>&1; then
	ok "the example ROCEDP tables validate against the model"
else
	nok "the example ROCEDP tables validate against the model"
	sed 's/^/# /' "$TMP/data"
fi
sed 's/"flowlet_rtt_us": 40/"flowlet_rtt_us": 0/' "$ROOT/tests/sonic/rocedp_yang.json" >"$TMP/bad.json"
if ! yanglint -t config "$YANG" "$TMP/bad.json" >"$TMP/bad" 2>&1 &&
	grep -q "flowlet_rtt_us" "$TMP/bad"; then
	ok "flowlet_rtt_us 0 is out of the model's range"
else
	nok "flowlet_rtt_us 0 is out of the model's range"
	sed 's/^/# /' "$TMP/bad"
fi

# ROCEDP|global as CONFIG_DB holds it: every leaf of ROCEDP_LIST at its
# default (a leaf-list as "field@"), read from the model itself
$PY "$ROOT/tests/sonic_yang.py" defaults "$YANG" >"$TMP/defaults.json"
n=$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["ROCEDP"]["global"]))' "$TMP/defaults.json")
if [ "$n" -ge 12 ] && "$ROCEDP" sonic import "$TMP/defaults.json" >"$TMP/doc.json" 2>"$TMP/doc.err"; then
	ok "all $n ROCEDP|global leaves of the model, at their defaults, are taken by sonic import"
else
	nok "all $n ROCEDP|global leaves of the model, at their defaults, are taken by sonic import"
	sed 's/^/# /' "$TMP/doc.err"
fi
if "$ROCEDP" config check "$TMP/doc.json" >"$TMP/check" 2>&1 &&
	[ "$($PY -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["flowlet"]["rtt_us"], j["hash"]["mode"])' "$TMP/doc.json")" = "22 qp" ]; then
	ok "and give a document config check accepts (flowlet.rtt_us 22, hash.mode qp)"
else
	nok "and give a document config check accepts"
	sed 's/^/# /' "$TMP/check"
fi
printf '{"ROCEDP": {"global": {"flowlet_gap_us": "10"}}}\n' >"$TMP/unknown.json"
if ! "$ROCEDP" sonic import "$TMP/unknown.json" >/dev/null 2>"$TMP/unknown.err" &&
	grep -q "flowlet_gap_us: no such field" "$TMP/unknown.err"; then
	ok "a field the model lacks (flowlet_gap_us) is refused by sonic import"
else
	nok "a field the model lacks (flowlet_gap_us) is refused by sonic import"
	sed 's/^/# /' "$TMP/unknown.err"
fi
t_done
