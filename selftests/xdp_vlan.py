#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/xdp_vlan.sh.

usage: xdp_vlan.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def send():
    """send DMAC N TAG: N UDP frames 10.97.0.2 -> 10.99.0.5 to DMAC; TAG ""
    none, or a VID put in the frame."""
    import socket, struct, sys
    dmac, n, vid = bytes.fromhex(sys.argv[1].replace(':', '')), int(sys.argv[2]), sys.argv[3]
    udp = struct.pack('!HHHH', 4000, 5000, 8 + 18, 0) + bytes(18)
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     socket.inet_aton('10.97.0.2'), socket.inet_aton('10.99.0.5'))
    s = sum(struct.unpack('!10H', ip))
    s = (s & 0xffff) + (s >> 16)
    ip = ip[:10] + struct.pack('!H', ~s & 0xffff) + ip[12:]
    tag = struct.pack('!HH', 0x8100, int(vid)) if vid else b''
    frame = dmac + bytes.fromhex('020000009701') + tag + b'\x08\x00' + ip + udp
    sk = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sk.bind(('vs1', 0))
    for _ in range(n):
        sk.send(frame)


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
