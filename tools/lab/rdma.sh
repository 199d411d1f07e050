#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Soft-RoCE endpoint guests for rocedp-lab (docs/lab.md, "Real RDMA").
#
# Each guest is Debian's 6.1 kernel under qemu TCG with a busybox
# initramfs holding rdma_rxe, perftest, ibverbs-utils and iproute2's rdma;
# its eth0 (virtio-net, no offloads) sits on a tap in a leaf namespace and
# rocedp attaches to that tap like to any port. Sourced by rocedp-lab;
# `rdma.sh image [OUT]` only builds (or finds) the cached image and prints
# "KERNEL INITRD".
#
# Cache: $OUT/kernel (the one tests/kernel/run.sh uses: the linux-image deb
# is downloaded once, by kernel/prepare.sh), userspace debs in
# $OUT/kernel/rdma-debs, the image in $OUT/kernel/rdma-guest-<key>.cpio.gz
# keyed by the kernel and package versions and the guest scripts.

RDMA_TOP=${RDMA_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
# packages fetched with apt-get download (not installed on the host)
RDMA_DEBS="perftest ibverbs-providers ibverbs-utils rdmacm-utils libibumad3 libpci3"
RDMA_MEM=${RDMA_MEM:-384}

rdma_log() { echo "rdma: $*" >&2; }

# rdma_image OUT: build or reuse the guest image; sets RDMA_KERNEL, RDMA_INITRD
rdma_image() {
	local out cache stage key d p f b lib
	out=$(readlink -f "${1:-$RDMA_TOP/build}")
	cache=$out/kernel
	command -v qemu-system-x86_64 >/dev/null || {
		rdma_log "qemu-system-x86_64 missing (tools/install-deps.sh kernel)"
		return 1
	}
	mkdir -p "$cache"
	KPREP_IMAGE_ONLY=1 "$RDMA_TOP/kernel/prepare.sh" "$cache" >/dev/null 2>"$cache/rdma-prep.log" || {
		rdma_log "kernel/prepare.sh failed: $(tail -n1 "$cache/rdma-prep.log")"
		return 1
	}
	# shellcheck disable=SC1091
	. "$cache/image-env.sh"
	d=$cache/rdma-debs
	mkdir -p "$d"
	for p in $RDMA_DEBS; do
		ls "$d/${p}_"*.deb >/dev/null 2>&1 && continue
		(cd "$d" && apt-get download -q=2 -o APT::Sandbox::User=root "$p" >&2) ||
			(apt-get update -qq >&2 && cd "$d" &&
				apt-get download -q=2 -o APT::Sandbox::User=root "$p" >&2) || {
			rdma_log "apt-get download $p failed"
			return 1
		}
	done
	key=$({
		echo "$KPKGVER"
		ls "$d"
		cat "$RDMA_TOP/tools/lab/guest/init.sh" "$KMODS_RDMA/order" "${BASH_SOURCE[0]}"
		dpkg-query -W busybox-static iproute2 libibverbs1 librdmacm1 ethtool 2>/dev/null
	} | md5sum | cut -c1-12)
	RDMA_KERNEL=$VMLINUZ
	RDMA_INITRD=$cache/rdma-guest-$key.cpio.gz
	[ -s "$RDMA_INITRD" ] && return 0

	rdma_log "building the guest image ($KVER, $(ls "$d" | tr '\n' ' '))"
	# a stage and a temporary image of its own: two builds at once (a test
	# and the demo) each finish, and the rename is atomic
	stage=$(mktemp -d "$cache/rdma-stage.XXXXXX") || return 1
	mkdir -p "$stage"/{bin,dev,proc,sys,tmp,etc,root,lib/kmods}
	for f in "$d"/*.deb; do dpkg-deb -x "$f" "$stage"; done
	rm -rf "${stage:?}/usr/share"
	# only the rxe provider: libibverbs loads every *.driver it finds
	find "$stage/etc/libibverbs.d" -name '*.driver' ! -name rxe.driver -delete
	find "$stage/usr/lib" -path '*libibverbs/*' ! -name 'librxe-*' -delete
	cp /usr/bin/busybox "$stage/bin/busybox"
	install -m 0755 "$RDMA_TOP/tools/lab/guest/init.sh" "$stage/init"
	cp "$KMODS_RDMA"/*.ko "$KMODS_RDMA/order" "$stage/lib/kmods/"
	# tc: the guest's qdisc and its drop counters (tc -s qdisc)
	for b in /bin/rdma /usr/sbin/ethtool /usr/sbin/tc; do
		mkdir -p "$stage$(dirname "$b")"
		cp -L "$b" "$stage$b"
	done
	# libibverbs and librdmacm from the host (same version as the debs)
	for p in libibverbs1 librdmacm1; do
		dpkg -L "$p" | grep '\.so' | while read -r f; do
			[ -f "$f" ] || continue
			mkdir -p "$stage$(dirname "$f")"
			cp -a "$f" "$stage$f"
		done
	done
	# shared libraries of every ELF, looked up in the stage first
	for _ in 1 2; do
		find "$stage" -type f \( -perm -u+x -o -name '*.so*' \) | while read -r b; do
			file -b "$b" | grep -q 'dynamically linked\|shared object' || continue
			LD_LIBRARY_PATH=$stage/usr/lib/x86_64-linux-gnu ldd "$b" 2>/dev/null |
				grep -o '/[^ ]*' | while read -r lib; do
				case $lib in "$stage"/*) continue ;; esac
				[ -e "$stage$lib" ] && continue
				mkdir -p "$stage$(dirname "$lib")"
				cp -L "$lib" "$stage$lib"
			done
		done
	done
	# glibc dlopens libgcc_s for pthread_exit/cancel (rping's threads), ldd
	# does not list it
	f=$(readlink -f /lib/x86_64-linux-gnu/libgcc_s.so.1)
	mkdir -p "$stage/lib/x86_64-linux-gnu"
	cp -L "$f" "$stage/lib/x86_64-linux-gnu/libgcc_s.so.1"
	mkdir -p "$stage/lib64"
	[ -e "$stage/lib64/ld-linux-x86-64.so.2" ] || cp -L /lib64/ld-linux-x86-64.so.2 "$stage/lib64/"
	(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$RDMA_INITRD.$$" &&
		mv "$RDMA_INITRD.$$" "$RDMA_INITRD"
	# older images (other versions) are not used again
	find "$cache" -maxdepth 1 -name 'rdma-guest-*.cpio.gz' ! -name "$(basename "$RDMA_INITRD")" -delete
	rm -rf "$stage"
	rdma_log "image $RDMA_INITRD: $(($(stat -c %s "$RDMA_INITRD") / 1024)) KiB"
}

# rdma_guest_start DIR NETNS TAP NAME IP/N GW MTU MAC [IP4/N]: boot one guest
# whose eth0 is TAP (made here, in NETNS); DIR gets its sockets, console,
# pid. IP4/N: an IPv4 address beside an IPv6 IP/N (lab_rdma_oob)
rdma_guest_start() {
	local dir=$1 netns=$2 tap=$3 name=$4 ipn=$5 gw=$6 mtu=$7 mac=$8 ip4=${9:-}
	mkdir -p "$dir"
	ip -n "$netns" tuntap add dev "$tap" mode tap vnet_hdr || return 1
	# a deep queue toward the guest: under TCG qemu drains it slowly, and a
	# burst of read responses (8 QPs x 16 reads x 16 frames) overflowed the
	# default 1000 (frames lost on the tap, counted as tx_dropped)
	ip -n "$netns" link set "$tap" mtu "$mtu" txqueuelen 20000 up
	echo "$netns $tap" >"$dir/tap"
	# csum/gso/tso off on both sides of virtio-net: frames reach the tap
	# (and rocedp's XDP) whole and checksummed, as from a real NIC
	ip netns exec "$netns" qemu-system-x86_64 -accel tcg -cpu max -smp 1 \
		-m "$RDMA_MEM" -display none -no-reboot -daemonize \
		-pidfile "$dir/qemu.pid" \
		-kernel "$RDMA_KERNEL" -initrd "$RDMA_INITRD" \
		-append "console=ttyS0 quiet panic=-1 rl.ip=$ipn rl.gw=$gw rl.mtu=$mtu rl.name=$name${ip4:+ rl.ip4=$ip4}" \
		-serial "file:$dir/console.log" \
		-chardev "socket,id=c1,path=$dir/ctl1.sock,server=on,wait=off" \
		-serial chardev:c1 \
		-chardev "socket,id=c2,path=$dir/ctl2.sock,server=on,wait=off" \
		-serial chardev:c2 \
		-netdev "tap,id=n0,ifname=$tap,script=no,downscript=no,vhost=off" \
		-device "virtio-net-pci,netdev=n0,mac=$mac,host_mtu=$mtu,rx_queue_size=1024,csum=off,guest_csum=off,gso=off,guest_tso4=off,guest_tso6=off,guest_ecn=off,guest_ufo=off,host_tso4=off,host_tso6=off,host_ecn=off,host_ufo=off" \
		>"$dir/qemu.log" 2>&1
}

# rdma_guest_wait DIR SECONDS: until the guest's init says READY
rdma_guest_wait() {
	local _
	for _ in $(seq $(($2 * 5))); do
		grep -qa 'ROCEDP-GUEST: READY' "$1/console.log" 2>/dev/null && return 0
		[ -f "$1/qemu.pid" ] && ! kill -0 "$(cat "$1/qemu.pid")" 2>/dev/null && return 1
		sleep 0.2
	done
	return 1
}

# rdma_guest_stop DIR: end qemu (by its pid file) and remove the tap
rdma_guest_stop() {
	local p netns tap
	p=$(cat "$1/qemu.pid" 2>/dev/null)
	if [ -n "$p" ] && kill "$p" 2>/dev/null; then
		for _ in $(seq 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -9 "$p" 2>/dev/null
	fi
	if read -r netns tap <"$1/tap" 2>/dev/null; then
		ip -n "$netns" link del "$tap" 2>/dev/null
	fi
	rm -f "$1/qemu.pid" "$1/tap"
}

# rdma_wait_listen DIR PORT: until a TCP server listens on PORT in the guest
# (perftest's servers exchange QP numbers over TCP 18515 before any RDMA)
rdma_wait_listen() {
	local _
	for _ in $(seq 40); do
		RDMA_EXEC_TIMEOUT=10 rdma_exec "$1" "netstat -tln | grep -q ':$2 '" && return 0
		sleep 0.5
	done
	return 1
}

# rdma_exec DIR CMD...: run CMD in the guest, relay its output and status
rdma_exec() {
	local d=$1
	shift
	/usr/bin/python3 "$RDMA_TOP/tools/lab/guest/gexec.py" --timeout "${RDMA_EXEC_TIMEOUT:-600}" "$d" "$@"
}

# ------------------------------------------------------ rocedp-lab glue
# `up --rdma[=K]`: K guests r<l>-<k> behind every leaf l, on leaf port
# rdma<k> (a tap), 10.<l>.<250+k>.2/24 via .1; with --ipv6
# fd00:<l>:<250+k>::2/64 via ::1 (the host plan's hex-group spelling).
# They use rocedp-lab's globals (prefix, mtu, rdma, ipv6) and helpers
# (state_dir, ns, die, say, addr, if_v6).
# lab_rdma_addr L K N: address N (1 the leaf, 2 the guest) of the subnet
lab_rdma_addr() {
	if [ "${ipv6:-0}" = 1 ]; then echo "fd00:$1:$((250 + $2))::$3"; else echo "10.$1.$((250 + $2)).$3"; fi
}
# lab_rdma_net L K: the guest's subnet
lab_rdma_net() {
	if [ "${ipv6:-0}" = 1 ]; then echo "fd00:$1:$((250 + $2))::/64"; else echo "10.$1.$((250 + $2)).0/24"; fi
}
lab_rdma_plen() { if [ "${ipv6:-0}" = 1 ]; then echo 64; else echo 24; fi; }
# With --ipv6 the guests also get 10.<l>.<250+k>.2/24, for perftest's and
# rping's out-of-band exchange only: perftest 4.5 opens that TCP connection
# with AF_INET alone ("Address family for hostname not supported" for an
# IPv6 server name, with or without -R). RDMA itself then runs over the
# IPv6 GID (ib_write_bw -x). The IPv4 routes have IPv6 next hops (RFC 5549,
# static routes only), so the fabric's links stay IPv6.
lab_rdma_oob() { echo "10.$1.$((250 + $2)).$3"; }
# lab_rdma_oob_routes: those IPv4 routes, on every leaf and spine
lab_rdma_oob_routes() {
	local l m s nh
	for l in $(seq "$leaves"); do
		ip netns exec "$(ns "leaf$l")" sysctl -qw net.ipv4.ip_forward=1 >/dev/null
		for m in $(seq "$leaves"); do
			[ "$m" = "$l" ] && continue
			nh=()
			for s in $(seq "$spines"); do
				nh+=(nexthop via inet6 "$(sd_ip "$l" "$s")" dev "up$s")
			done
			ip -n "$(ns "leaf$l")" route add "10.$m.0.0/16" "${nh[@]}" ||
				die "leaf$l: IPv4 route 10.$m.0.0/16 over IPv6 next hops refused"
		done
	done
	for s in $(seq "$spines"); do
		ip netns exec "$(ns "spine$s")" sysctl -qw net.ipv4.ip_forward=1 >/dev/null
		for l in $(seq "$leaves"); do
			ip -n "$(ns "spine$s")" route add "10.$l.0.0/16" via inet6 "$(lu_ip "$l" "$s")" dev "leaf$l" ||
				die "spine$s: IPv4 route 10.$l.0.0/16 over IPv6 refused"
		done
	done
}
lab_rdma_dir() { echo "$(state_dir)/rdma/$1"; }
lab_rdma_ports() { local k; for k in $(seq "${rdma:-0}"); do echo "rdma$k"; done; }
lab_rdma_is_guest() { [ -d "$(state_dir)/rdma/$1" ]; }

# lab_rdma_leaf L: boot leaf L's guests (the image is built once per up)
lab_rdma_leaf() {
	local l=$1 k n oob
	[ -n "${RDMA_INITRD:-}" ] || rdma_image "${RDMA_OUT:-$(dirname "$ROCEDP")}" ||
		die "--rdma: no guest image (see above)"
	for k in $(seq "$rdma"); do
		n=r$l-$k
		oob=
		[ "${ipv6:-0}" = 1 ] && oob=$(lab_rdma_oob "$l" "$k" 2)/24
		rdma_guest_start "$(lab_rdma_dir "$n")" "$(ns "leaf$l")" "rdma$k" "$n" \
			"$(lab_rdma_addr "$l" "$k" 2)/$(lab_rdma_plen)" "$(lab_rdma_addr "$l" "$k" 1)" \
			"$mtu" "$(printf '52:54:00:%02x:%02x:02' "$l" "$k")" "$oob" ||
			die "$n: qemu did not start: $(tail -n2 "$(lab_rdma_dir "$n")/qemu.log")"
		addr "leaf$l" "$(lab_rdma_addr "$l" "$k" 1)/$(lab_rdma_plen)" "rdma$k"
		[ -z "$oob" ] || ip -n "$(ns "leaf$l")" addr add "$(lab_rdma_oob "$l" "$k" 1)/24" dev "rdma$k"
		echo "$n" >>"$(state_dir)/nodes.rdma"
	done
}

# lab_rdma_wait: every guest up with rxe0, and reaching its leaf
lab_rdma_wait() {
	local n l
	for n in $(cat "$(state_dir)/nodes.rdma" 2>/dev/null); do
		rdma_guest_wait "$(lab_rdma_dir "$n")" "${LAB_RDMA_BOOT:-120}" ||
			die "$n: did not boot (console: $(lab_rdma_dir "$n")/console.log)"
		grep -qa 'ROCEDP-GUEST: rxe0 on' "$(lab_rdma_dir "$n")/console.log" ||
			die "$n: no rxe0: $(grep -a ROCEDP-GUEST "$(lab_rdma_dir "$n")/console.log" | head -n1)"
		l=${n#r}
		# TCG on a loaded machine: a few tries, not one long wait
		for _ in 1 2 3; do
			RDMA_EXEC_TIMEOUT=20 rdma_exec "$(lab_rdma_dir "$n")" \
				"ping -c 1 -W 5 $(lab_rdma_addr "${l%-*}" "${n#*-}" 1) >/dev/null" && continue 2
		done
		die "$n cannot reach its leaf"
	done
}

lab_rdma_status() {
	local n g p st
	for n in $(cat "$(state_dir)/nodes.rdma" 2>/dev/null); do
		g=$(lab_rdma_dir "$n")
		p=$(cat "$g/qemu.pid" 2>/dev/null)
		st="qemu pid $p"
		[ -n "$p" ] && kill -0 "$p" 2>/dev/null || st="qemu NOT running"
		echo "  $n  Soft-RoCE guest, leaf${n:1:$((${#n} - 3))} port $(cut -d' ' -f2 "$g/tap" 2>/dev/null), $(grep -a -o 'rxe0 on .*' "$g/console.log" | head -n1), $st, console $g/console.log"
	done
}

lab_rdma_down() {
	local g
	for g in "$(state_dir)"/rdma/*; do
		[ -d "$g" ] && rdma_guest_stop "$g"
	done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -eu
	case ${1:-} in
	image)
		rdma_image "${2:-${OUT:-$RDMA_TOP/build}}"
		echo "$RDMA_KERNEL $RDMA_INITRD"
		;;
	*)
		echo "usage: rdma.sh image [OUT]" >&2
		exit 2
		;;
	esac
fi
