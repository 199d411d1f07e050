#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the lab's Soft-RoCE endpoint guests (tools/lab/rdma.sh): Debian's
# 6.1 kernel under qemu TCG, one virtio-net eth0 on a tap in a leaf
# namespace, rxe0 on top of it. Settings come from the kernel command line:
#   rl.ip=A.B.C.D/N rl.gw=A.B.C.D rl.mtu=N rl.name=NODE
# (or rl.ip=IPV6/N rl.gw=IPV6: an IPv6 guest)
# The host runs commands through a tiny server on ttyS1 and ttyS2
# (tools/lab/guest/gexec.py): one base64-encoded command line per request,
# answered by its output and "@@ROCEDP-RC <id> <rc>@@".
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export HOME=/root

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mkdir -p /run /root
mount -t tmpfs tmpfs /run
echo 4 >/proc/sys/kernel/printk

arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^rl\.$1=//p"; }
ip_addr=$(arg ip)
gw=$(arg gw)
mtu=$(arg mtu)
name=$(arg name)
hostname "${name:-rdma}"

for m in $(cat /lib/kmods/order); do
	insmod "/lib/kmods/$m.ko" || echo "ROCEDP-GUEST: insmod $m failed"
done
i=0
while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
ip link set lo up
ip link set eth0 mtu "${mtu:-1500}" up
# belt and braces: qemu offers no offload to this device (rdma.sh), so
# every frame leaves as plain, fully checksummed Ethernet
ethtool -K eth0 tx off rx off tso off gso off gro off sg off >/dev/null 2>&1
# a plain FIFO, deep enough for every QP's burst, instead of the default
# fq_codel: under TCG the queue's delay stays over CoDel's 5 ms target and
# it drops frames rxe has already counted as sent, a loss no device
# counter shows (seen as test-rdma's rare "8 read responses lost"). A FIFO
# overflow is returned to rxe as an error instead.
/usr/sbin/tc qdisc replace dev eth0 root pfifo limit 10000 ||
	echo "ROCEDP-GUEST: tc qdisc replace failed"
case $ip_addr in
*:*)
	# IPv6 (the lab's --ipv6): the address usable at once (the lab owns
	# it: no duplicate detection), no router solicitation; rxe adds a
	# RoCEv2 GID for it (and one for the link-local address)
	for k in disable_ipv6=0 accept_dad=0 accept_ra=0 router_solicitations=0; do
		sysctl -qw "net.ipv6.conf.all.$k" "net.ipv6.conf.eth0.$k" 2>/dev/null
	done
	ip -6 addr add "$ip_addr" dev eth0
	ip -6 route add default via "$gw"
	# IPv4 beside it for perftest's out-of-band TCP only (rdma.sh,
	# lab_rdma_oob): its gateway is the leaf's .1
	ip4=$(arg ip4)
	if [ -n "$ip4" ]; then
		ip addr add "$ip4" dev eth0
		ip route add default via "${ip4%.*}.1"
	fi
	;;
*)
	[ -n "$ip_addr" ] && ip addr add "$ip_addr" dev eth0
	[ -n "$gw" ] && ip route add default via "$gw"
	sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null
	;;
esac
if rdma link add rxe0 type rxe netdev eth0; then
	echo "ROCEDP-GUEST: rxe0 on eth0 $ip_addr mtu ${mtu:-1500}"
else
	echo "ROCEDP-GUEST: rdma link add failed"
fi

# serve NAME: one request at a time on /dev/NAME
serve() {
	tty=/dev/$1
	stty -F "$tty" raw -echo -onlcr 2>/dev/null
	exec 3<"$tty"
	touch "/run/$1.ready"
	while :; do
		while read -r id b64 <&3; do
			[ -n "$b64" ] || continue
			cmd=$(echo "$b64" | base64 -d 2>/dev/null)
			(cd /root && sh -c "$cmd") </dev/null >"$tty" 2>&1
			printf '\n@@ROCEDP-RC %s %d@@\n' "$id" $? >"$tty"
		done
		sleep 0.2
	done
}
serve ttyS1 &
serve ttyS2 &
# READY only once both ports are raw: a request arriving in cooked mode
# would be echoed back and held by the line discipline
while [ ! -e /run/ttyS1.ready ] || [ ! -e /run/ttyS2.ready ]; do sleep 0.05; done
echo "ROCEDP-GUEST: READY"
while :; do sleep 3600; done
