# SPDX-License-Identifier: GPL-2.0
# Sourced by a test that runs the tree's programs as nobody, right after
# ROOT is set, then called as: nobody_reach "$0" "$@"
# A clone under a 0700 directory (what `mktemp -d` makes) keeps nobody
# out of the tree, so every such probe would fail on the path and not on
# what it tests. Then the test runs again in a private mount namespace
# with the tree bind-mounted at a path nobody can walk. The bind mount
# lives only in that namespace; nothing outside it changes.
nobody_reach() { # SCRIPT ARGS...
	local script=$1 dir rel d rc v
	shift
	[ "$(id -u)" = 0 ] && [ -z "${ROCEDP_REACHED:-}" ] || return 0
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		test -r "$ROOT/Makefile" 2>/dev/null && return 0
	dir=$(cd "$(dirname "$script")" && pwd) || return 0
	case $dir in "$ROOT" | "$ROOT"/*) ;; *) return 0 ;; esac
	rel=${dir#"$ROOT"}/$(basename "$script")
	d=$(mktemp -d /run/rocedp-tree.XXXXXX) || return 0
	chmod 755 "$d"
	for v in $(compgen -e); do
		case ${!v} in "$ROOT" | "$ROOT"/*) export "$v=$d${!v#"$ROOT"}" ;; esac
	done
	export ROCEDP_REACHED=$d
	case $PWD in "$ROOT" | "$ROOT"/*) cd "$d${PWD#"$ROOT"}" 2>/dev/null || cd / ;; esac
	echo "# the tree is out of nobody's reach: run again with it bind-mounted at $d"
	unshare --mount --propagation private -- bash -c \
		'mount --bind "$1" "$2" && shift 2 && cd "$PWD" && exec bash "$@"' \
		bash "$ROOT" "$d" "$d$rel" "$@"
	rc=$?
	rmdir "$d" 2>/dev/null
	exit "$rc"
}
