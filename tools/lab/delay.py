#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The lab's delay element (rocedp-lab inject SPINE delay US --to LEAF;
tools/lab/inject.sh): the injector redirects every frame a spine sends
on one port into a veth; this relay reads them from the veth's peer
(AF_PACKET), holds each US microseconds after it arrived, and sends it,
in order, out of the port with the injector's mark, which lets it pass.

  delay.py IN_DEV OUT_DEV US MARK

Prints "ready" once both sockets are bound; runs until killed. A frame
the port refuses (too long, queue full) is dropped and counted on exit.
"""
import collections
import select
import signal
import socket
import sys
import time

ETH_P_ALL = 0x0003


def main():
    in_dev, out_dev, us, mark = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4], 0)
    hold = us / 1e6
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    rx.bind((in_dev, ETH_P_ALL))
    rx.setblocking(False)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.setsockopt(socket.SOL_SOCKET, socket.SO_MARK, mark)
    tx.bind((out_dev, 0))
    q = collections.deque()
    stats = {"relayed": 0, "failed": 0}

    def bye(*_):
        print(f"delay: relayed {stats['relayed']}, failed {stats['failed']}", flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, bye)
    signal.signal(signal.SIGINT, bye)
    print("ready", flush=True)
    while True:
        wait = max(0.0, q[0][0] - time.monotonic()) if q else None
        if select.select([rx], [], [], wait)[0]:
            while True:
                try:
                    data, addr = rx.recvfrom(65535)
                except BlockingIOError:
                    break
                if addr[2] == socket.PACKET_OUTGOING:
                    continue
                q.append((time.monotonic() + hold, data))
        now = time.monotonic()
        while q and q[0][0] <= now:
            try:
                tx.send(q.popleft()[1])
                stats["relayed"] += 1
            except OSError:
                stats["failed"] += 1


if __name__ == "__main__":
    main()
