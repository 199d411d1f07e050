#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mmdebstrap customize hook for the `make test-install` image (runs on the
# host; $1 is the new root). Makes the image a small switch that has never
# seen the build tree: its ports named by MAC, systemd-networkd to configure
# them, nothing that wakes up by itself during the test, and one unit that
# runs the check script from the test disk at every boot.
set -euo pipefail
root=${1:?root}

echo 'LABEL=rocedp-root / ext4 defaults,errors=remount-ro 0 1' >"$root/etc/fstab"
echo rocedp-guest >"$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 rocedp-guest\n' >"$root/etc/hosts"

# Switch ports by MAC, as an operator names a box's front panel: swp1 and
# swp2 are the ports rocedp runs on; hosta and hostb are the NICs the test
# sends and receives frames with (each on a qemu hub with one switch port).
mkdir -p "$root/etc/systemd/network"
for n in swp1:01 swp2:02 hosta:11 hostb:12; do
	cat >"$root/etc/systemd/network/10-${n%%:*}.link" <<LINK
[Match]
MACAddress=52:54:00:d0:00:${n#*:}
[Link]
Name=${n%%:*}
LINK
done
chroot "$root" systemctl enable -q systemd-networkd.service
# network-online.target waits for the configured ports, but not the
# default 2 minutes on the first boot, when no port is configured yet
mkdir -p "$root/etc/systemd/system/systemd-networkd-wait-online.service.d"
cat >"$root/etc/systemd/system/systemd-networkd-wait-online.service.d/timeout.conf" <<'DROPIN'
[Service]
ExecStart=
ExecStart=/lib/systemd/systemd-networkd-wait-online --timeout=30
DROPIN
# Quiet and deterministic: no console logins, no apt or fs timers
for u in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
	fstrim.timer serial-getty@ttyS0.service getty@tty1.service; do
	chroot "$root" systemctl mask -q "$u"
done

cat >"$root/usr/local/sbin/guestcheck" <<'STUB'
#!/bin/sh
# Runs the install test's check script from the test disk (label
# rocedp-itest), at every boot.
mkdir -p /run/itest
for _ in $(seq 50); do
	[ -e /dev/disk/by-label/rocedp-itest ] && break
	sleep 0.2
done
if ! mount -o ro /dev/disk/by-label/rocedp-itest /run/itest; then
	echo "ROCEDP-ITEST: FAIL test-disk: cannot mount the test disk" >/dev/ttyS0
	echo "ROCEDP-ITEST: DONE" >/dev/ttyS0
	systemctl poweroff
	exit 1
fi
exec bash /run/itest/guest.sh
STUB
chmod 0755 "$root/usr/local/sbin/guestcheck"
cat >"$root/etc/systemd/system/guestcheck.service" <<'UNIT'
[Unit]
Description=rocedp install test: the check script on the test disk
After=local-fs.target systemd-udev-settle.service

[Service]
Type=simple
ExecStart=/usr/local/sbin/guestcheck

[Install]
WantedBy=multi-user.target
UNIT
chroot "$root" systemctl enable -q guestcheck.service
