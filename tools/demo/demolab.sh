# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: GPL-2.0
# The demo's lab helpers (sourced by fabric_demo.sh and qp_demo.sh, after
# they set LAB and prefix): lab VERB ARGS... and leaf NODE CMD... on the
# lab of $prefix, which is taken down at exit (and first, when an
# interrupted run left one behind).
lab() { "$LAB" "$1" --prefix "$prefix" "${@:2}"; }
# rocedp on a leaf; a config writer must never hang the demo
leaf() { timeout 10 "$LAB" exec --prefix "$prefix" "$@"; }

trap '"$LAB" down --prefix "$prefix" >/dev/null 2>&1 || true' EXIT
trap 'exit 130' INT TERM
# a lab of this prefix left over from an interrupted run
if [ -d "/run/rocedp-lab/$prefix" ]; then lab down >/dev/null 2>&1; fi
