#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion (tools/completion/rocedp.bash): sourced in bash, with
# COMP_WORDS/COMP_CWORD set as bash sets them, _rocedp must offer the
# objects, each object's commands, the interfaces of the network namespace
# it runs in (a veth pair in a namespace of our own), the config keys, and
# option values, with the global options before or after the object. The
# expected words come from the binary (`rocedp help`, `help --config-keys`),
# as the completion's do, plus a few fixed ones that the docs promise.
#
# Output: TAP-like "ok N - ..." lines. Root (for the namespace).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh" # OUT, ROCEDP, PY, ok, nok, pin_maps
ROCEDP=$(readlink -f "$ROCEDP")
COMP=$ROOT/tools/completion/rocedp.bash
NS=${T_NS_PREFIX:-O_}comp$$
TMP=$(mktemp -d /tmp/rdcomp.XXXXXX)

cleanup() {
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP"
}
t_cleanup cleanup

# comp WORD...: the completion of the last word, one per line, sorted,
# computed by bash inside the namespace
comp() {
	ip netns exec "$NS" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=(); _rocedp
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$COMP" "$@"
}

# expect DESC "WORDS..." WORD...: the completion is exactly WORDS
expect() {
	local d=$1 want got
	want=$(tr ' ' '\n' <<<"$2" | sed '/^$/d' | sort)
	shift 2
	got=$(comp "$@")
	if [ "$got" = "$want" ]; then
		ok "$d"
	else
		nok "$d" "rocedp $*<TAB>: got [$(echo $got)], want [$(echo $want)]"
	fi
}

# has DESC "WORDS..." WORD...: the completion holds each of WORDS
has() {
	local d=$1 w got miss=""
	got=" $(echo $(comp "${@:3}")) "
	for w in $2; do
		[[ $got == *" $w "* ]] || miss="$miss $w"
	done
	if [ -z "$miss" ]; then ok "$d"; else nok "$d" "missing:$miss; got [$got]"; fi
}

if [ ! -x "$ROCEDP" ] || [ ! -f "$COMP" ]; then
	nok "rocedp built and completion present" "$ROCEDP $COMP"
	exit 1
fi
bash -n "$COMP" && ok "completion parses (bash -n)" || nok "completion parses (bash -n)"
ip netns add "$NS" &&
	ip -n "$NS" link add cmpa0 type veth peer name cmpb0 &&
	ip -n "$NS" link add cmpx1 type veth peer name cmpx2 || {
	nok "namespace $NS with a veth pair"
	exit 1
}

objects=$("$ROCEDP" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | tr '\n' ' ')
expect "objects (from rocedp help)" "$objects" "$ROCEDP" ""
expect "objects with a prefix" "config" "$ROCEDP" co
expect "objects after -j --pin-dir DIR" "$objects" "$ROCEDP" -j --pin-dir /tmp ""
has "global options before the object" "-j --json -p --pretty --pin-dir --version" "$ROCEDP" -
expect "config commands" "show dump check load set help" "$ROCEDP" config ""
expect "qos commands, -p before the object" "show set rules help" "$ROCEDP" -p qos ""
expect "ecn commands, -j after the object" "show set help" "$ROCEDP" ecn -j ""
expect "interfaces of the namespace for attach" "cmpa0 cmpb0 cmpx1 cmpx2 lo" "$ROCEDP" attach ""
expect "interfaces with a prefix, not the one given" "cmpa0 cmpb0 cmpx2" \
	"$ROCEDP" attach cmpx1 cmp
expect "interfaces for detach, --pin-dir after the object" "cmpa0" \
	"$ROCEDP" detach --pin-dir /tmp cmpa
expect "ecn set: a port or 'profile'" "cmpa0 cmpb0 cmpx1 cmpx2 lo profile" \
	"$ROCEDP" ecn set ""
expect "ecn set profile N: the module profile's knobs" "kmin kmax pmax" \
	"$ROCEDP" ecn set profile 1 ""
expect "ecn set PORT k: the keywords not used yet" "kmax" "$ROCEDP" ecn set cmpa0 kmin 10 k
expect "a keyword's value is not completed" "" "$ROCEDP" ecn set cmpa0 kmin ""
expect "attach --mode values" "native generic tc" "$ROCEDP" attach cmpa0 --mode ""
has "options of attach after the object" "--mode --features -j --pin-dir" \
	"$ROCEDP" attach cmpa0 -
has "options of stats after -j" "--watch --prometheus --textfile" "$ROCEDP" stats -j --
expect "qps --sort values" "bytes rewinds gaps stalls rtt" "$ROCEDP" qps --sort ""
has "options of qps" "--sort --limit" "$ROCEDP" qps -
expect "top --sort values with a prefix, -j before" "rewinds rtt" "$ROCEDP" -j top --sort r
has "options of top" "--sort --interval --limit --once --iterations" "$ROCEDP" top -
has "options of sync, the daemon's too" "--once --daemon --table --pid-file --verbose --latency-log --rcvbuf" \
	"$ROCEDP" sync -
has "options of replay" "--in --out --verdicts --config --hook --ingress-ifindex --summary" \
	"$ROCEDP" replay -
expect "replay --hook values" "xdp tc" "$ROCEDP" replay --hook ""
has "options of sonic sync" "--redis --ports --strict --port-interval --queue-interval --quiet-ms --once" \
	"$ROCEDP" sonic sync -
keys=$("$ROCEDP" help --config-keys | sed 's/$/=/' | tr '\n' ' ')
expect "config set: every key of help --config-keys" "$keys" "$ROCEDP" config set ""
expect "config set keys with a prefix" "hash.mode= hash.seed= hash.symmetric=" \
	"$ROCEDP" config set hash.
expect "config set: a value is not completed" "" "$ROCEDP" config set hash.mode=
has "config keys the docs name exist" "hash.mode= qos.cnp.dscp= flowlet.gap= ecn.ports=" \
	"$ROCEDP" config set ""
expect "qos set: the classes" "ack cnp cts data ip nak roce_other uec uec_ack uec_nack" "$ROCEDP" qos set ""
expect "qos set CLASS: its keywords" "dscp pcp leave" "$ROCEDP" qos set cnp ""
has "config load: files" "docs/examples" "$ROCEDP" --json config load docs/ex
expect "--pin-dir: directories" "docs" "$ROCEDP" --pin-dir doc
expect "help: the objects" "$objects" "$ROCEDP" help ""
expect "help: its options" "--config-keys --man" "$ROCEDP" help -
expect "nothing after help OBJECT" "" "$ROCEDP" help attach ""

t_done
