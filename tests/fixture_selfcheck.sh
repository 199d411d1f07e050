#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fixture runner must fail on wrong expectations: take a passing
# fixture, break one expected field at a time, and check that exactly that
# assertion turns into "not ok" and the runner exits non-zero. Guards
# against a runner that asserts nothing. Root (BPF). TAP output.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
RUNNER=${OUT:-build}/tests/fixtures
T=$(mktemp -d /tmp/rd_fxself.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
fail=0
check() { # COND-EXIT-STATUS TEXT
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=$((fail + 1)); fi
}

# the original fixture: ack_v4_ect0 from classes.fix
awk '/^name: ack_v4_ect0$/{p=1} p&&/^$/{exit} p' tests/fixtures/classes.fix >"$T/orig.fix"
[ -s "$T/orig.fix" ]
check $? "found ack_v4_ect0 in classes.fix"
"$RUNNER" --no-netns "$T/orig.fix" >"$T/orig.out" 2>&1
check $? "unmodified fixture passes"

# KEY SED-EXPRESSION
while read -r key expr; do
	sed "$expr" "$T/orig.fix" >"$T/bad.fix"
	"$RUNNER" --no-netns "$T/bad.fix" >"$T/bad.out" 2>&1
	rc=$?
	bad=$(grep -c '^not ok' "$T/bad.out")
	hit=$(grep '^not ok' "$T/bad.out" | grep -c "\]: $key\|\]: out")
	[ "$rc" != 0 ] && [ "$bad" -ge 1 ] && [ "$hit" -ge 1 ]
	check $? "broken '$key' is caught (exit $rc, $bad not ok)"
done <<'LIST'
class s/^class: ack$/class: nak/
verdict s/^verdict: pass$/verdict: redirect/
pass s/^pass: no_route$/pass: ttl/
dscp_out s/^dscp_out: 46$/dscp_out: 45/
ecn_out s/^ecn_out: 2$/ecn_out: 1/
dest_qp s/^dest_qp: 0x000012$/dest_qp: 0x000013/
psn s/^psn: 0x000100$/psn: 0x000101/
aeth s/^aeth: ack$/aeth: nak/
member s/^member: none$/member: 0/
out s/^  0002c00012b7001c3f481100ffff000000120000010000000001d6b4f0ea$/  0002c00012b7001c3f481100ffff000000120000010000000001d6b4f0eb/
LIST

# an unknown key is an error, not ignored
sed 's/^class: ack$/klass: ack/' "$T/orig.fix" >"$T/bad.fix"
"$RUNNER" --no-netns "$T/bad.fix" >"$T/bad.out" 2>&1
[ $? != 0 ] && grep -q "unknown key 'klass'" "$T/bad.out"
check $? "an unknown key fails the fixture"

# the decision cache's counter (trace off): a hit claimed as a miss fails,
# and so does a key only the trace can check
awk '/^name: v6_cache_(first|again)$/{p=1} p&&/^$/{p=0; print; next} p' \
	tests/fixtures/forward_v6.fix >"$T/cache.fix"
[ "$(grep -c '^cache: ' "$T/cache.fix")" = 2 ]
check $? "found v6_cache_first and v6_cache_again in forward_v6.fix"
"$RUNNER" --no-netns "$T/cache.fix" >"$T/cache.out" 2>&1
check $? "unmodified cache fixtures pass"
sed 's/^cache: hit$/cache: miss/' "$T/cache.fix" >"$T/bad.fix"
"$RUNNER" --no-netns "$T/bad.fix" >"$T/bad.out" 2>&1
[ $? != 0 ] && grep -q '^not ok.*v6_cache_again\[xdp\]: cache miss' "$T/bad.out"
check $? "broken 'cache' is caught"
sed 's/^verdict: redirect$/verdict: redirect\nmember: 0/' "$T/cache.fix" >"$T/bad.fix"
"$RUNNER" --no-netns "$T/bad.fix" >"$T/bad.out" 2>&1
[ $? != 0 ] && grep -q "with the trace off, no key 'member'" "$T/bad.out"
check $? "a trace field with the trace off fails the fixture"

echo "1..$n"
echo "$((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
