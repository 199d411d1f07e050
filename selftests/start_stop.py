#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Python checks of selftests/start_stop.sh.

usage: start_stop.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def notify():
    """notify SOCK: prints the first two sd_notify datagrams on SOCK (waits 60 s
    for each)."""
    import socket, sys
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(sys.argv[1])
    s.settimeout(60)
    for _ in range(2):
        try:
            print(s.recv(4096).decode(), flush=True)
        except socket.timeout:
            break


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
