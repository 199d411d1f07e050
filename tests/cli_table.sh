#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The command line against its documentation (docs/cli.md, "One table"):
#  * every option `rocedp help OBJECT [COMMAND]` lists is taken by that
#    command's parser, and is in the man page's section for the command
#    and in the bash completion;
#  * no command takes an option it does not document: every option name
#    known anywhere (any command's help, a "--x" literal in the CLI's or
#    library's sources, a cli_val/cli_set name) and every short -x is
#    tried on every command, and must be refused unless documented there;
#  * no getopt loop is left in userspace/ (the table is the one parser);
#  * test hooks (selftest-load) run but are in no help, man or completion;
#  * docs/rocedp.8's generated sections equal what the binary makes of it
#    (`make man` rebuilds them);
#  * exit codes: 0 ok, 1 failure, 2 usage for every command (below).
# Probes of the parser run as nobody with a pin directory that does not
# exist, so an option taken by mistake cannot change anything here.
# Output: TAP-like "ok N - ..." lines.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/nobody_reach.bash"
nobody_reach "$0" "$@"
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
ROCEDP=$(readlink -f "$ROCEDP")
COMP=$ROOT/tools/completion/rocedp.bash
# the page make install ships: docs/rocedp.8 with its generated sections
# rebuilt by this binary (the Makefile's $(OUT)/rocedp.8 rule)
MAN_SRC=$ROOT/docs/rocedp.8
TMP=$(mktemp -d /tmp/rdtab.XXXXXX)
chmod 755 "$TMP"
export ROCEDP_PIN_DIR=/sys/fs/bpf/rdtab-none$$

cleanup() {
	rm -rf "$TMP"
}
t_cleanup cleanup

need_rocedp
MAN=$TMP/rocedp.8
"$ROCEDP" help --man "$MAN_SRC" >"$MAN" 2>"$TMP/man.err" ||
	nok "rocedp help --man docs/rocedp.8" "$(cat "$TMP/man.err")"
if [ "$(id -u)" = 0 ]; then
	asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else
	asnobody() { "$@"; }
fi

# ------------------------------------------------------------ the commands
# "obj" or "obj verb", one a line, from `rocedp help` (the completion's
# source too): objects, and the verbs of those that have some
"$ROCEDP" help >"$TMP/help" 2>&1 || nok "rocedp help exits 0" "$(cat "$TMP/help")"
$PY "$ROOT/tests/cli_table.py" commands "$TMP/help" >"$TMP/cmds"
n=$(wc -l <"$TMP/cmds")
[ "$n" -ge 20 ] && ok "rocedp help names $n commands" || nok "rocedp help names the commands" "$(cat "$TMP/cmds")"

# documented options of a command: "--name ARG" or "--name", and "-x", from
# its own help (rocedp help OBJ [VERB]), the section of that command only
doc_opts() { # CMD...
	"$ROCEDP" help "$@" | $PY "$ROOT/tests/cli_table.py" doc_opts
}

# ------------------------------------------------------------ no getopt left
left=$(grep -lE "getopt(_long)?\(|struct option " "$ROOT"/userspace/cli/*.c "$ROOT"/userspace/lib/*/*.c 2>/dev/null)
[ -z "$left" ] && ok "no getopt loop in userspace/ (the table's parser is the one)" ||
	nok "no getopt loop in userspace/" "$left"
# nor a command line below cli/: the library takes options structs
# (a Redis command's argv array in sonic_redis.c is no command line)
left=$(grep -lE "int argc, char \*\*argv|getopt|optind|optarg" \
	"$ROOT"/userspace/lib/*.c "$ROOT"/userspace/lib/*/*.c 2>/dev/null)
[ -z "$left" ] && ok "no command line parsed in userspace/lib (options structs)" ||
	nok "no command line parsed in userspace/lib" "$left"

# every option name known anywhere: any command's help, "--x" literals in
# the CLI's and the library's sources, cli_val/cli_set names, and a few
# that never existed
: >"$TMP/known"
while read -r -a cmd; do
	doc_opts "${cmd[@]}" | cut -d';' -f1 >>"$TMP/known"
done <"$TMP/cmds"
grep -ohE '"--[a-z][a-z0-9-]+' "$ROOT"/userspace/cli/*.c "$ROOT"/userspace/lib/*/*.c |
	sed 's/^"--//' >>"$TMP/known"
grep -ohE 'cli_(val|set)\(c, "[a-z0-9-]+"' "$ROOT"/userspace/cli/*.c |
	sed -E 's/.*"(.*)"/\1/' >>"$TMP/known"
printf '%s\n' egress bogus verbose daemon all >>"$TMP/known"
# the global options are taken everywhere (rocedp(8), OPTIONS)
sort -u "$TMP/known" | grep -vxE "json|pretty|pin-dir|help|version" >"$TMP/known.u"
mv "$TMP/known.u" "$TMP/known"
ok "$(wc -l <"$TMP/known") option names to try on each command"

# comp WORD...: the completion's words for the last one
comp() {
	bash -c '. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=(); _rocedp; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@"
}

# the man page's commands and their options, from the roff source:
# "obj verb: --a --b -x" lines
$PY "$ROOT/tests/cli_table.py" man_opts "$MAN" >"$TMP/man_opts"

# ------------------------------------------------------------ per command
undoc=""; refused=""; noman=""; nocomp=""; shortbad=""
while read -r -a cmd; do
	name="${cmd[*]}"
	doc_opts "${cmd[@]}" >"$TMP/doc"
	man_line=$(grep -E "^$name: " "$TMP/man_opts")
	[ -n "$man_line" ] || noman="$noman [$name: no section]"
	compw=" $(comp "$ROCEDP" "${cmd[@]}" - | tr '\n' ' ') "
	while IFS=';' read -r o arg sh; do
		[ -n "$o" ] || continue
		# documented: taken (then help, exit 0)
		if [ -n "$arg" ]; then
			asnobody "$ROCEDP" "${cmd[@]}" "--$o" x help >"$TMP/o" 2>&1
		else
			asnobody "$ROCEDP" "${cmd[@]}" "--$o" help >"$TMP/o" 2>&1
		fi
		rc=$?
		{ [ $rc = 0 ] && grep -q "^Usage: rocedp" "$TMP/o"; } ||
			refused="$refused [$name --$o: rc $rc $(head -1 "$TMP/o")]"
		[[ " $man_line " == *" --$o "* ]] || noman="$noman [$name --$o]"
		[ -n "$sh" ] && { [[ " $man_line " == *" -$sh "* ]] || noman="$noman [$name -$sh]"; }
		[[ $compw == *" --$o "* ]] || nocomp="$nocomp [$name --$o]"
	done <"$TMP/doc"
	# undocumented: refused, whatever the name
	while read -r o; do
		grep -q "^$o;" "$TMP/doc" && continue
		asnobody "$ROCEDP" "${cmd[@]}" "--$o=x" >"$TMP/o" 2>&1
		grep -qF "unknown option '--$o=x'" "$TMP/o" ||
			undoc="$undoc [$name --$o: $(head -1 "$TMP/o")]"
	done <"$TMP/known"
	for s in {a..z} {A..Z}; do
		case $s in h | j | p | V) continue ;; esac # global options
		grep -q ";$s\$" "$TMP/doc" && continue
		asnobody timeout 10 "$ROCEDP" "${cmd[@]}" "-$s" --help >"$TMP/o" 2>&1
		grep -qF "unknown option '-$s'" "$TMP/o" ||
			shortbad="$shortbad [$name -$s: $(head -1 "$TMP/o")]"
	done
	# the man page documents no option the help does not
	for o in ${man_line#*:}; do
		case $o in
		--*) grep -q "^${o#--};" "$TMP/doc" || undoc="$undoc [$name $o in the man page only]" ;;
		esac
	done
done <"$TMP/cmds"
[ -z "$refused" ] && ok "every documented option is taken by its command" ||
	nok "every documented option is taken" "$refused"
[ -z "$undoc" ] && ok "no command takes a long option it does not document" ||
	nok "no command takes an undocumented long option" "$undoc"
[ -z "$shortbad" ] && ok "no command takes a short option it does not document" ||
	nok "no command takes an undocumented short option" "$shortbad"
[ -z "$noman" ] && ok "every command and option is in rocedp(8)'s COMMANDS" ||
	nok "every command and option is in rocedp(8)" "$noman"
[ -z "$nocomp" ] && ok "every option is offered by the bash completion" ||
	nok "every option is offered by the completion" "$nocomp"

# the global options: in OPTIONS, taken before and after the object
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MAN" | sed 's/\\-/-/g; s/\\f[BIR]//g' >"$TMP/gopts"
miss=""
for g in -j --json -p --pretty --pin-dir -V --version -h --help; do
	grep -qE "(^|, )$g( |,|\$)" "$TMP/gopts" || miss="$miss $g"
	a=$g
	[ "$g" = --pin-dir ] && a="--pin-dir /tmp"
	# shellcheck disable=SC2086
	"$ROCEDP" $a status --help >/dev/null 2>&1 || miss="$miss $g(before)"
done
[ -z "$miss" ] && ok "the global options are in rocedp(8) OPTIONS" || nok "global options in rocedp(8)" "$miss"

# ------------------------------------------------------------ hidden hooks
"$ROCEDP" selftest-load help >"$TMP/o" 2>&1 && grep -q "^Usage: rocedp selftest-load" "$TMP/o"
[ $? = 0 ] && ok "selftest-load (a test hook) exists and answers help" || nok "selftest-load answers help" "$(cat "$TMP/o")"
! grep -q selftest-load "$TMP/help" "$MAN" && ! comp "$ROCEDP" "" | grep -q selftest-load
[ $? = 0 ] && ok "selftest-load is in no help, man page or completion" ||
	nok "selftest-load is hidden" "$(grep -n selftest-load "$TMP/help" "$MAN")"

# ------------------------------------------------------------ man drift
# the installed page is rebuilt at build time, so the copy in the tree
# may only be behind for reading: said, not failed
if cmp -s "$MAN" "$MAN_SRC"; then
	ok "docs/rocedp.8's SYNOPSIS, OPTIONS and COMMANDS match the table"
else
	ok "docs/rocedp.8 is behind the table (make man updates it; the build's page is current)"
fi
if [ -f "$OUT/rocedp.8" ]; then
	cmp -s "$OUT/rocedp.8" "$MAN" && ok "the built page ($OUT/rocedp.8) is the table's" ||
		nok "the built page is the table's" "$(diff "$OUT/rocedp.8" "$MAN" | head)"
fi
for s in SYNOPSIS OPTIONS COMMANDS "EXIT STATUS" ENVIRONMENT EXAMPLES FILES "SEE ALSO"; do
	grep -q "^\.SH $s\$" "$MAN" || nok "rocedp(8) has a $s section"
done
ok "rocedp(8) has SYNOPSIS, OPTIONS, COMMANDS, EXIT STATUS, ENVIRONMENT, EXAMPLES, FILES, SEE ALSO"
MANWIDTH=80 man --warnings -l "$MAN" >/dev/null 2>"$TMP/man.err" && [ ! -s "$TMP/man.err" ]
[ $? = 0 ] && ok "man -l docs/rocedp.8 renders without a warning" || nok "man renders rocedp.8" "$(head -5 "$TMP/man.err")"

# ------------------------------------------------------------ the tools
LAB=$ROOT/tools/lab/rocedp-lab
for a in help --help -h; do
	asnobody "$LAB" $a >"$TMP/lab.out" 2>"$TMP/lab.err"
	rc=$?
	{ [ $rc = 0 ] && [ ! -s "$TMP/lab.err" ] && grep -q "^rocedp-lab up" "$TMP/lab.out"; } &&
		ok "rocedp-lab $a: usage on stdout, exit 0, no root needed" ||
		nok "rocedp-lab $a: usage on stdout, exit 0" "rc $rc: $(head -2 "$TMP/lab.err")"
done
"$LAB" >"$TMP/lab.out" 2>"$TMP/lab.err"
rc=$?
{ [ $rc = 2 ] && [ ! -s "$TMP/lab.out" ] && [ -s "$TMP/lab.err" ]; } &&
	ok "rocedp-lab with no command: usage on stderr, exit 2" || nok "rocedp-lab with no command: exit 2" "rc $rc"
for m in rocegen rocedp-lab; do
	MANWIDTH=80 man --warnings -l "$ROOT/docs/$m.8" >"$TMP/m.out" 2>"$TMP/m.err" && [ ! -s "$TMP/m.err" ] &&
		grep -q "^SYNOPSIS" "$TMP/m.out"
	[ $? = 0 ] && ok "docs/$m.8 renders without a warning" || nok "docs/$m.8 renders" "$(head -3 "$TMP/m.err")"
done
# every option the lab's and rocegen's usage name is in their man page
for pair in "rocedp-lab:$LAB help" "rocegen:$(dirname "$ROCEDP")/rocegen --help"; do
	m=${pair%%:*}
	${pair#*:} 2>/dev/null | grep -oE -- "--[a-z][a-z0-9-]*" | sort -u >"$TMP/opts"
	miss=$(while read -r o; do sed 's/\\-/-/g' "$ROOT/docs/$m.8" | grep -q -- "$o" || echo "$o"; done <"$TMP/opts")
	[ -s "$TMP/opts" ] && [ -z "$miss" ] && ok "$m(8) names every option of $m's usage ($(wc -l <"$TMP/opts"))" ||
		nok "$m(8) names every option of its usage" "missing: $miss"
done

# ------------------------------------------------------------ config check --offline
printf '{"ecn": {"ports": {"eth77": {"kmin_bytes": 1000, "kmax_bytes": 2000}}}}\n' >"$TMP/off.json"
printf '{"ecn": {"ports": {"a/b": {}}}}\n' >"$TMP/badname.json"
printf '{"ecn": \n' >"$TMP/syntax.json"
# a member with no smac: the default is the port's own MAC, which an
# offline check takes from its stand-in host, not from this machine's
printf '{"groups": [{"id": 1, "members": [{"dev": "eth77", "dmac": "02:00:00:00:00:09"}]}], "routes": [{"prefix": "10.0.0.0/8", "group": 1}]}\n' >"$TMP/nosmac.json"
chmod 644 "$TMP"/*.json
# rcis DESC WANT_RC CMD...: CMD exits WANT_RC
rcis() {
	local desc=$1 want=$2 rc
	shift 2
	"$@" >"$TMP/rc.out" 2>&1
	rc=$?
	[ "$rc" = "$want" ] && ok "$desc (exit $rc)" || nok "$desc" "exit $rc, want $want: $(head -3 "$TMP/rc.out")"
}
rcis "config check --offline as nobody: a port this host lacks is fine" 0 \
	asnobody "$ROCEDP" config check --offline "$TMP/off.json"
rcis "config check --offline as nobody: stdin" 0 \
	asnobody sh -c "'$ROCEDP' config check --offline - <'$TMP/off.json'"
rcis "config check --offline: a name no device can have is refused" 1 \
	asnobody "$ROCEDP" config check --offline "$TMP/badname.json"
rcis "config check --offline: a syntax error is refused" 1 \
	asnobody "$ROCEDP" config check --offline "$TMP/syntax.json"
rcis "config check --offline: a member's smac defaults without reading this host" 0 \
	asnobody "$ROCEDP" config check --offline "$TMP/nosmac.json"
rcis "config check --offline: the shipped example leaf.json" 0 \
	asnobody "$ROCEDP" config check --offline "$ROOT/docs/examples/leaf.json"
if [ "$(id -u)" = 0 ]; then
	rcis "config check without --offline as nobody: needs root" 1 \
		asnobody "$ROCEDP" config check "$TMP/off.json"
	rcis "config check online: eth77 is not a device here" 1 \
		"$ROCEDP" config check "$TMP/off.json"
fi

# ------------------------------------------------------------ exit codes
# usage (2): an unknown option, for every command; under -j as JSON
bad=""
while read -r -a cmd; do
	asnobody "$ROCEDP" "${cmd[@]}" --no-such-option >"$TMP/o" 2>&1
	rc=$?
	[ $rc = 2 ] || bad="$bad [${cmd[*]}: $rc]"
	asnobody "$ROCEDP" -j "${cmd[@]}" --no-such-option >"$TMP/o" 2>"$TMP/e"
	{ [ ! -s "$TMP/e" ] && $PY -c 'import json,sys; j=json.load(open(sys.argv[1])); assert "unknown option" in j["error"]' "$TMP/o" 2>/dev/null; } ||
		bad="$bad [-j ${cmd[*]}: $(head -c 80 "$TMP/o" "$TMP/e")]"
done <"$TMP/cmds"
[ -z "$bad" ] && ok "usage errors exit 2 for all $(wc -l <"$TMP/cmds") commands, JSON on stdout under -j" ||
	nok "usage errors exit 2" "$bad"
rcis "usage: a missing operand" 2 "$ROCEDP" attach
rcis "usage: an extra operand" 2 "$ROCEDP" stats extra
rcis "usage: a bad option value" 2 "$ROCEDP" top --interval 0
rcis "usage: an unknown object" 2 "$ROCEDP" bogus
rcis "usage: an unknown command" 2 "$ROCEDP" config bogus

if [ "$(id -u)" != 0 ]; then
	echo "# root needed for the rest"
	t_done
	exit
fi
# failure (1): every root command run as nobody (those that need words
# first say usage, 2, before they look for root)
bad=""
while read -r -a cmd; do
	asnobody "$ROCEDP" "${cmd[@]}" >"$TMP/o" 2>&1 </dev/null
	rc=$?
	{ [ $rc = 1 ] && grep -q "needs root" "$TMP/o"; } || bad="$bad [${cmd[*]}: $rc $(head -1 "$TMP/o")]"
done < <(grep -vxE "help|attach|replay|qos set|ecn set|config (check|load|set)|sonic (import|sync)|paths (set|port|leaf|send)" "$TMP/cmds")
[ -z "$bad" ] && ok "failure: every root command as nobody exits 1, 'needs root'" || nok "needs root: exit 1" "$bad"
rcis "failure: sonic import of a missing file" 1 "$ROCEDP" sonic import "$TMP/none.json"
rcis "failure: sonic sync --once with no Redis there" 1 timeout 20 "$ROCEDP" sonic sync --once --redis unix:"$TMP/none.sock"
rcis "failure: help --man of a missing template" 1 "$ROCEDP" help --man "$TMP/none.8"
rcis "failure: attach of a missing interface" 1 "$ROCEDP" attach rdtab-none0
rcis "failure: stats with no maps pinned" 1 "$ROCEDP" stats
rcis "status with nothing attached: 3" 3 "$ROCEDP" status

# success (0): every command on a veth of a namespace of our own
NS=T_tab$$
PIN=/sys/fs/bpf/rdtab$$
cleanup() {
	nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" "$ROCEDP" detach --all >/dev/null 2>&1
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP" "$PIN"
}
printf '{"attach": {"ports": ["tb0"], "mode": "generic"}}\n' >"$TMP/start.json"
rcis "success: sonic import of tests/sonic/default.json" 0 "$ROCEDP" sonic import "$ROOT/tests/sonic/default.json"
if ip netns add "$NS" && ip -n "$NS" link add tb0 type veth peer name tb1 &&
	ip -n "$NS" link set tb0 up && ip -n "$NS" link set tb1 up; then
	# nsenter, not ip netns exec: its own /sys has no bpffs
	X() { nsenter --net="/run/netns/$NS" env ROCEDP_PIN_DIR="$PIN" "$ROCEDP" "$@"; }
	bad=""
	while read -r line; do
		# shellcheck disable=SC2086
		X $line >"$TMP/o" 2>&1 </dev/null || bad="$bad [$line: $? $(head -1 "$TMP/o")]"
	done <<LINES
attach tb0 --mode generic
status
config show
config dump
config check $TMP/off.json --offline
config load $TMP/start.json
config set hash.seed=5
qos show
qos set cnp dscp 48
qos rules
ecn show
ecn set tb0 kmin 1000 kmax 2000
stats
flows
qps
top --once
sync --once
help
start --config $TMP/start.json
stop
attach tb1 --mode tc
detach tb1
LINES
	[ -z "$bad" ] && ok "success: every command exits 0 on an attached namespace" || nok "success: exit 0" "$bad"
else
	nok "namespace $NS with a veth pair"
fi

t_done
