#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Global options and the pin directory per network namespace, without
# attaching anything:
#  * -j, -p and --pin-dir DIR are taken before or after the object, as
#    bpftool does (`rocedp stats -j` from the README); "--" ends them;
#  * --pin-dir wins over ROCEDP_PIN_DIR; a missing DIR is exit 2;
#  * the pin directory: /sys/fs/bpf/rocedp in the initial netns, and
#    .../rocedp-netns/<netns cookie> in another one, also from inside
#    `ip netns exec` (whose own /sys hides the host's bpffs), where status
#    names the namespace;
#  * where no bpffs is mounted, attach mounts one (mode 0700) in the mount
#    namespace of the host (pid 1 here), and exits 1 saying why where it
#    may not.
# The full fabric with plain `ip netns exec` is selftests/netns_plain.sh.
# Output: TAP-like "ok N - ..." / "not ok N - ..." lines.

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=selftests/lib.sh
. "$ROOT/selftests/lib.sh"
NS=J_glob$$
TMP=$(mktemp -d /tmp/rdglobt.XXXXXX)
export ROCEDP_PIN_DIR=/sys/fs/bpf/rdglobt$$ # never created: status only

cleanup() {
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP"
}
t_cleanup cleanup
trap 'exit 1' INT TERM

need_root
need_rocedp

# js DESC EXPR CMD...: CMD exits $JS_RC (default 0) and EXPR holds over
# its JSON output j
js() {
	local desc=$1 expr=$2 rc
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = "${JS_RC:-0}" ] || echo "exit $rc, want ${JS_RC:-0}" >>"$TMP/err"
	if [ $rc = "${JS_RC:-0}" ] && $PY -c 'import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$TMP/out" "$expr" >>"$TMP/err" 2>&1; then
		ok "$desc"
	else
		nok "$desc" "$(cat "$TMP/out" "$TMP/err")"
	fi
}

# rc2 DESC WANT CMD...: CMD exits 2 and says WANT
rc2() {
	local desc=$1 want=$2 rc
	shift 2
	"$@" >"$TMP/out" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want" "$TMP/out"; then
		ok "$desc ($(head -1 "$TMP/out"))"
	else
		nok "$desc" "rc $rc: $(cat "$TMP/out")"
	fi
}

# nothing is attached here: status says so with exit 3 (rocedp(8))
export JS_RC=3
js "rocedp -j status: JSON" "j['pin_dir'] == '$ROCEDP_PIN_DIR' and not j['maps_pinned']" \
	"$ROCEDP" -j status
js "rocedp status -j: the same, option after the object" "j['pin_dir'] == '$ROCEDP_PIN_DIR'" \
	"$ROCEDP" status -j
js "rocedp status -p: pretty JSON after the object" "j['interfaces'] == []" \
	"$ROCEDP" status -p
js "rocedp status --pin-dir DIR -j: --pin-dir after the object, wins over ROCEDP_PIN_DIR" \
	"j['pin_dir'] == '/sys/fs/bpf/rdglobt-x'" "$ROCEDP" status --pin-dir /sys/fs/bpf/rdglobt-x -j
js "rocedp --pin-dir=DIR -j status" "j['pin_dir'] == '/sys/fs/bpf/rdglobt-y'" \
	"$ROCEDP" --pin-dir=/sys/fs/bpf/rdglobt-y -j status
"$ROCEDP" stats -j >"$TMP/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "is rocedp attached" "$TMP/out"; then
	ok "rocedp stats -j: taken (no maps here: exit 1, 'is rocedp attached?')"
else
	nok "rocedp stats -j: taken" "rc $rc: $(cat "$TMP/out")"
fi
rc2 "--pin-dir with no directory: exit 2" "--pin-dir needs a directory" "$ROCEDP" stats --pin-dir
rc2 "\"--\" ends the global options: stats -- -j is the object's argument" "stats: unexpected argument '-j'" \
	"$ROCEDP" stats -- -j
rc2 "an unknown option before the object: exit 2" "unknown option '-x'" "$ROCEDP" -x status

# where the pins go with no override
js "initial netns: /sys/fs/bpf/rocedp" "j['pin_dir'] == '/sys/fs/bpf/rocedp'" \
	env -u ROCEDP_PIN_DIR "$ROCEDP" status -j
if ip netns add "$NS"; then
	c=$(ip netns exec "$NS" $PY -c 'import socket, struct
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])')
	js "ip netns exec $NS: .../rocedp-netns/$c on the host's bpffs, netns named" \
		"j['pin_dir'].endswith('/sys/fs/bpf/rocedp-netns/$c') and j['netns'] == '$NS' and j['netns_cookie'] == $c" \
		ip netns exec "$NS" env -u ROCEDP_PIN_DIR "$ROCEDP" status -j
	d=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["pin_dir"])' "$TMP/out")
	# the directory the status named is the host's bpffs, seen from inside
	if [ "$(ip netns exec "$NS" stat -c %d "${d%/rocedp-netns/*}")" = "$(stat -c %d /sys/fs/bpf)" ]; then
		ok "that path is the host's bpffs seen from inside ip netns exec ($d)"
	else
		nok "that path is the host's bpffs" "$d"
	fi
	ip netns exec "$NS" env -u ROCEDP_PIN_DIR "$ROCEDP" status >"$TMP/out" 2>&1
	if grep -q "^netns: $NS (cookie $c)" "$TMP/out"; then
		ok "status (text) names the netns"
	else
		nok "status (text) names the netns" "$(cat "$TMP/out")"
	fi
	# a "host" without bpffs: in a new pid namespace pid 1 is a shell in a
	# mount namespace whose /sys (ip netns exec's) has none, and rocedp runs
	# in a further private mount namespace: a bpffs mounted there would
	# vanish with the command, so attach mounts one in pid 1's mount
	# namespace (mode 0700), as bpftool mounts a missing bpffs
	ip netns exec "$NS" unshare --mount --pid --fork --mount-proc sh -c \
		"unshare --mount env -u ROCEDP_PIN_DIR '$ROCEDP' attach --mode generic lo >/dev/null 2>&1
		stat -f -c %T /sys/fs/bpf; stat -c %a /sys/fs/bpf
		env -u ROCEDP_PIN_DIR '$ROCEDP' detach --all" >"$TMP/out" 2>&1
	if [ "$(head -n 2 "$TMP/out" | tr '\n' ' ')" = "bpf_fs 1700 " ]; then
		ok "no bpffs on the host: attach mounts one there (mode 0700) from a private mount namespace"
	else
		nok "no bpffs on the host: attach mounts one there" "$(cat "$TMP/out")"
	fi
	# and refuses, saying why, where it may not (no CAP_SYS_ADMIN to enter
	# that mount namespace)
	ip netns exec "$NS" unshare --mount --pid --fork --mount-proc sh -c \
		"unshare --mount setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin env -u ROCEDP_PIN_DIR '$ROCEDP' attach --mode generic lo" >"$TMP/out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "mount it on the host" "$TMP/out"; then
		ok "no bpffs on the host and no right to mount one: attach exits 1 and says why"
	else
		nok "no bpffs on the host and no right to mount one: attach exits 1" "rc $rc: $(cat "$TMP/out")"
	fi
else
	nok "ip netns add $NS"
fi

t_done
