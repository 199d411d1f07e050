#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Files rocedp writes, attacked the way an unprivileged user would:
#
#  * `stats --textfile DIR`: DIR belongs to another user (node_exporter's
#    textfile directory is often the prometheus user's), or is a
#    world-writable sticky directory. That user (here: nobody, through
#    setpriv) plants symlinks at the old predictable temp name
#    DIR/.rocedp.prom.<pid> and at DIR/rocedp.prom, pointing at root's
#    files. rocedp runs as root; the files the links point at must keep
#    their bytes, and DIR/rocedp.prom must be a regular file.
#  * `replay`: an output that names the input (same name, another name, a
#    symlink, a hard link; --out or --verdicts; the --config file) is
#    refused with one line naming both, and the input's checksum is
#    unchanged. A replay that fails half-way leaves the old outputs as they
#    were and no temp file.
#
# The maps for `stats` come from `bpftool prog loadall ... pinmaps` into a
# private pin directory, as in tests/cli_config.sh.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
PIN=/sys/fs/bpf/rdfilet$$
export ROCEDP_PIN_DIR=$PIN/maps
TMP=$(mktemp -d /tmp/rdfilet.XXXXXX)

cleanup() {
	unpin_maps "$ROCEDP_PIN_DIR"
	rm -rf "$PIN" "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

# the attacker: an unprivileged user with no groups
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

need_root
need_rocedp
chmod 755 "$TMP" # nobody must reach the test directories inside

# ------------------------------------------------------------ setup

pin_maps "$PIN/maps" || exit 1
ok "setup: maps pinned in $ROCEDP_PIN_DIR"

# root's files the attacker aims at
victims() {
	echo "root's secret 1" >"$TMP/victim1"
	echo "root's secret 2" >"$TMP/victim2"
	chmod 600 "$TMP/victim1" "$TMP/victim2"
	sha256sum "$TMP/victim1" "$TMP/victim2" >"$TMP/victims.sum"
}
victims_intact() { sha256sum --quiet -c "$TMP/victims.sum" >/dev/null 2>&1; }

# dir_check DIR: DIR/rocedp.prom is a regular file holding counters, and no
# temp file is left
textfile_ok() {
	local d=$1 left
	[ -f "$d/rocedp.prom" ] && [ ! -L "$d/rocedp.prom" ] || {
		echo "rocedp.prom is not a regular file: $(ls -la "$d")"
		return 1
	}
	grep -q '^rocedp_verdict_packets_total' "$d/rocedp.prom" || {
		echo "rocedp.prom holds no counters"
		return 1
	}
	left=$(find "$d" -mindepth 1 -user 0 ! -name rocedp.prom)
	[ -z "$left" ] || {
		echo "left behind: $left"
		return 1
	}
}

# textfile_attack DESC MODE OWNER: a one-shot `stats --textfile` into a
# directory of that mode and owner, with symlinks planted by nobody at
# .rocedp.prom.<pid> (the pid is known: the shell execs rocedp) and at
# rocedp.prom
textfile_attack() {
	local desc=$1 mode=$2 owner=$3 d msg
	d=$(mktemp -d "$TMP/textfile.XXXXXX")
	chown "$owner" "$d"
	chmod "$mode" "$d"
	victims
	rm -f "$TMP/pid" "$TMP/go"
	# rocedp waits for the attacker, then execs with the same pid
	sh -c 'echo $$ >"$1"; while [ ! -e "$2" ]; do sleep 0.05; done
		exec "$3" stats --textfile "$4"' sh "$TMP/pid" "$TMP/go" \
		"$ROCEDP" "$d" >"$TMP/stats.out" 2>&1 &
	local pid=$!
	while [ ! -s "$TMP/pid" ]; do sleep 0.05; done
	as_nobody sh -c 'ln -s "$1" "$3/.rocedp.prom.$(cat "$4")" &&
		ln -s "$2" "$3/rocedp.prom"' sh "$TMP/victim1" "$TMP/victim2" \
		"$d" "$TMP/pid" || nok "$desc: nobody plants the symlinks"
	touch "$TMP/go"
	wait $pid
	local rc=$?
	if ! victims_intact; then
		nok "$desc: a file the symlinks point at was overwritten" \
			"$(head -c 300 "$TMP/victim1" "$TMP/victim2")"
	elif [ $rc != 0 ]; then
		nok "$desc: stats --textfile failed (exit $rc)" "$(cat "$TMP/stats.out")"
	elif ! msg=$(textfile_ok "$d"); then
		nok "$desc: textfile" "$msg"
	else
		ok "$desc: symlinked files untouched, rocedp.prom a fresh regular file, no temp left"
	fi
}

# ------------------------------------------------------------ stats --textfile

textfile_attack "textfile dir owned by another user (0755 nobody)" 0755 nobody
textfile_attack "textfile dir world-writable and sticky (1777 root)" 1777 root

# --watch: the old code reused one temp name for ever; the attacker plants a
# symlink there (and at the target) again and again while rocedp rewrites
d=$(mktemp -d "$TMP/watch.XXXXXX")
chown nobody "$d"
victims
"$ROCEDP" stats --textfile "$d" --watch 1 >"$TMP/watch.out" 2>&1 &
wpid=$!
as_nobody sh -c 'end=$(($(date +%s) + 4)); while [ $(date +%s) -lt $end ]; do
	ln -s "$1" "$3/.rocedp.prom.$4" 2>/dev/null
	[ -L "$3/rocedp.prom" ] || { rm -f "$3/rocedp.prom"; ln -s "$2" "$3/rocedp.prom"; } 2>/dev/null
	sleep 0.02; done' sh "$TMP/victim1" "$TMP/victim2" "$d" "$wpid"
# one more round without the attacker: the file is back and regular
rm -f "$d/rocedp.prom" "$d/.rocedp.prom.$wpid"
sleep 1.5
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
if ! victims_intact; then
	nok "stats --watch under attack: a symlinked file was overwritten" \
		"$(head -c 300 "$TMP/victim1" "$TMP/victim2")"
elif ! msg=$(textfile_ok "$d"); then
	nok "stats --watch under attack: textfile" "$msg
$(cat "$TMP/watch.out")"
else
	ok "stats --watch 1 for 5 s with symlinks planted every 20 ms: symlinked files untouched, rocedp.prom regular, no temp left"
fi

# ------------------------------------------------------------ replay

# a capture of 300 frames (RoCEv2 and plain UDP), and the same cut short
$PY "$ROOT/tests/cli_files.py" pcaps "$TMP/in.pcap" "$TMP/cut.pcap"
RD=$TMP/replay
mkdir -p "$RD"
cp "$TMP/in.pcap" "$RD/in.pcap"
echo '{}' >"$RD/cfg.json"
ln -s in.pcap "$RD/in.link"
ln "$RD/in.pcap" "$RD/in.hard"
( cd "$RD" && sha256sum in.pcap cfg.json >"$TMP/in.sum" )
in_intact() { ( cd "$RD" && sha256sum --quiet -c "$TMP/in.sum" >/dev/null 2>&1 ); }

# same_refused DESC WANT ARGS...: refused (exit 2), one line naming both
# files, the input and the config unchanged
same_refused() {
	local desc=$1 want=$2
	shift 2
	# each case on its own (cp keeps the inode, so the links stay)
	cp "$TMP/in.pcap" "$RD/in.pcap"
	echo '{}' >"$RD/cfg.json"
	(cd "$RD" && "$ROCEDP" replay "$@") >"$TMP/r.out" 2>"$TMP/r.err"
	local rc=$?
	if ! in_intact; then
		nok "replay $desc: the input was changed (exit $rc)" "$(cat "$TMP/r.err")"
	elif [ $rc = 0 ]; then
		nok "replay $desc: accepted" "$(cat "$TMP/r.err")"
	elif ! grep -qF -- "$want" "$TMP/r.err" || [ "$(wc -l <"$TMP/r.err")" != 1 ]; then
		nok "replay $desc: error line" "want one line with: $want
got: $(cat "$TMP/r.err")"
	else
		ok "replay $desc: refused ($(cat "$TMP/r.err")), input unchanged"
	fi
}

same_refused "--in X --out X" \
	"--out in.pcap is the same file as --in in.pcap" --in in.pcap --out in.pcap
same_refused "--in X --verdicts X" \
	"--verdicts in.pcap is the same file as --in in.pcap" --in in.pcap --verdicts in.pcap
same_refused "--in X --out ./X (another name)" \
	"--out ./in.pcap is the same file as --in in.pcap" --in in.pcap --out ./in.pcap
same_refused "--in X --out \$PWD/../replay/X" \
	"--out ../replay/in.pcap is the same file as --in $RD/in.pcap" \
	--in "$RD/in.pcap" --out ../replay/in.pcap
same_refused "--in X --out SYMLINK-TO-X" \
	"--out in.link is the same file as --in in.pcap" --in in.pcap --out in.link
same_refused "--in SYMLINK-TO-X --verdicts X" \
	"--verdicts in.pcap is the same file as --in in.link" --in in.link --verdicts in.pcap
same_refused "--in X --out HARDLINK-OF-X" \
	"--out in.hard is the same file as --in in.pcap" --in in.pcap --out in.hard
same_refused "--config C --verdicts C" \
	"--verdicts cfg.json is the same file as --config cfg.json" \
	--in in.pcap --config cfg.json --verdicts cfg.json
: >"$RD/v.out"
same_refused "--out F --verdicts F" \
	"--verdicts v.out is the same file as --out ./v.out" \
	--in in.pcap --out ./v.out --verdicts v.out

# a whole replay: both outputs written, nothing else left in the directory
( cd "$RD" && "$ROCEDP" replay --in in.pcap --out out.pcap --verdicts v.json ) \
	>"$TMP/r.out" 2>"$TMP/r.err"
rc=$?
frames=$( (cd "$RD" && "$ROCEDP" replay --in out.pcap --summary) 2>/dev/null |
	awk '$1 == "total" { print $2 }')
left=$(cd "$RD" && ls -A | grep -vxE 'in.pcap|in.link|in.hard|cfg.json|v.out|out.pcap|v.json')
if [ $rc != 0 ] || [ "$(wc -l <"$RD/v.json")" != 300 ] || [ -z "$frames" ] ||
	[ "$frames" = 0 ] || [ -n "$left" ]; then
	nok "replay writes --out and --verdicts" "exit $rc, $(wc -l <"$RD/v.json") verdict lines, $frames frames in out.pcap, left: $left
$(cat "$TMP/r.err")"
else
	ok "replay writes --out ($frames frames) and --verdicts (300 lines), no temp left"
fi

# a replay that fails at frame 201: the old outputs keep their bytes
sha256sum "$RD/out.pcap" "$RD/v.json" >"$TMP/out.sum"
cp "$TMP/cut.pcap" "$RD/cut.pcap"
( cd "$RD" && "$ROCEDP" replay --in cut.pcap --out out.pcap --verdicts v.json ) \
	>"$TMP/r.out" 2>"$TMP/r.err"
rc=$?
left=$(cd "$RD" && ls -A | grep -vxE 'in.pcap|in.link|in.hard|cfg.json|v.out|out.pcap|v.json|cut.pcap')
if [ $rc = 0 ] || ! grep -q "frame 201: truncated" "$TMP/r.err"; then
	nok "replay of a cut capture fails at frame 201" "exit $rc: $(cat "$TMP/r.err")"
elif ! sha256sum --quiet -c "$TMP/out.sum" >/dev/null 2>&1 || [ -n "$left" ]; then
	nok "a failed replay leaves the old outputs and no partial file" \
		"$(ls -la "$RD")"
else
	ok "a replay failing at frame 201 leaves the old --out and --verdicts byte for byte, no partial file"
fi

# outputs in a directory of another user: a planted symlink is replaced,
# never followed
d=$(mktemp -d "$TMP/rout.XXXXXX")
chown nobody "$d"
victims
as_nobody sh -c 'ln -s "$1" "$3/out.pcap" && ln -s "$2" "$3/v.json"' sh \
	"$TMP/victim1" "$TMP/victim2" "$d"
"$ROCEDP" replay --in "$TMP/in.pcap" --out "$d/out.pcap" \
	--verdicts "$d/v.json" >"$TMP/r.out" 2>&1
rc=$?
if ! victims_intact; then
	nok "replay outputs at symlinks planted by nobody: a target was overwritten"
elif [ $rc != 0 ] || [ -L "$d/out.pcap" ] || [ -L "$d/v.json" ]; then
	nok "replay outputs at symlinks planted by nobody" "exit $rc; $(ls -la "$d")"
else
	ok "replay --out/--verdicts at symlinks planted by nobody: the links are replaced, their targets untouched"
fi

# devices are written in place, never replaced
if "$ROCEDP" replay --in "$TMP/in.pcap" --out /dev/null --verdicts /dev/null \
	>"$TMP/r.out" 2>&1 && [ -c /dev/null ]; then
	ok "replay --out /dev/null --verdicts /dev/null: written in place"
else
	nok "replay --out /dev/null --verdicts /dev/null" "$(cat "$TMP/r.out"; ls -la /dev/null)"
fi

# ------------------------------------------------------------ tools

# rocegen serve --ready FILE: an empty marker, never through a symlink
if [ -x "$OUT/rocegen" ]; then
	d=$(mktemp -d "$TMP/ready.XXXXXX")
	chown nobody "$d"
	victims
	as_nobody ln -s "$TMP/victim1" "$d/ready"
	timeout 2 "$OUT/rocegen" serve --dev lo --ready "$d/ready" --idle 1 \
		>/dev/null 2>&1
	if victims_intact; then
		ok "rocegen serve --ready at a symlink planted by nobody: its target untouched"
	else
		nok "rocegen serve --ready at a planted symlink: its target was truncated"
	fi
fi

# lbeval --png FILE: gnuplot writes into a temp file we created
if [ -x "$OUT/lbeval" ] && command -v gnuplot >/dev/null; then
	d=$(mktemp -d "$TMP/png.XXXXXX")
	chown nobody "$d"
	victims
	as_nobody ln -s "$TMP/victim1" "$d/lb.png"
	"$OUT/lbeval" --hosts 4 --pairs 4 --iters 2 --png "$d/lb.png" \
		>/dev/null 2>"$TMP/lb.err"
	rc=$?
	if ! victims_intact; then
		nok "lbeval --png at a symlink planted by nobody: its target was overwritten"
	elif [ $rc != 0 ] || [ -L "$d/lb.png" ] ||
		! file "$d/lb.png" | grep -q 'PNG image'; then
		nok "lbeval --png at a symlink planted by nobody" "exit $rc; $(ls -la "$d"; tail -3 "$TMP/lb.err")"
	else
		ok "lbeval --png at a symlink planted by nobody: the link replaced by the chart, its target untouched"
	fi
fi

t_done
