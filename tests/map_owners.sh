#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One writer module per map (docs/design.md, "Who writes which map"):
# userspace writes a map only in the writer modules of that table.
# engine.c writes the offline engine's own clock and trace; flaps.c
# rd_port_flaps (the link watcher); porttab.c resets rd_port_hwm (the
# programs raise it); probew.c the probe maps (docs/paths.md). The
# race of the writers' processes is tests/harness/stress/map_writers.sh,
# run by hand.
#
# Output: TAP lines (selftests/lib.sh).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"

WRITERS="config_txn.c groupw.c portw.c routew.c portl2.c engine.c flaps.c porttab.c probew.c"
writes() { # the files under userspace that write a map
	(cd "$ROOT/userspace" &&
		grep -lE 'bpf_map_(update|delete)_(elem|batch)|bpf_map__(update|delete)_elem' \
			-- */*.c */*/*.c 2>/dev/null)
}
found=$(writes)
# the check sees a write where there is one (else it proves nothing)
case "$found" in *fib/routew.c*) t_ok "the grep finds routew.c's writes" ;;
*) t_fail "the grep finds routew.c's writes" "found: $found" ;;
esac
stray=$(for f in $found; do
	case " $WRITERS " in *" ${f##*/} "*) ;; *) echo "$f" ;; esac
done)
[ -z "$stray" ]
t_check $? "map writes only in the writer modules ($WRITERS)" "also in: $stray"
t_done
