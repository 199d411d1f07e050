#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Helpers of selftests/sync_handoff.sh.

route PIN          "GROUP FLAGS" of 10.9.0.0/16 in PIN/rd_routes4, or "none"
state PIN          the route tries and each group's members, as one JSON
                   line (the bucket table and the bank a group sits in
                   may differ after a rewrite of the same group)
peer SOCK          connect to the hand-off socket as this user and send an
                   empty request (config_handoff.h): prints "connect:
                   ERRNO-NAME", or "reply: ERR" with the daemon's -errno
"""
import errno
import json
import socket
import struct
import subprocess
import sys

MAGIC = 0x72646831  # RD_HANDOFF_MAGIC


def route(pin):
    out = subprocess.check_output(
        ["bpftool", "-j", "map", "dump", "pinned", pin + "/rd_routes4"])
    for e in json.loads(out):
        k, v = e["formatted"]["key"], e["formatted"]["value"]
        if k["prefixlen"] == 16 and k["addr"] == 0x090a:
            return "%d %d" % (v["group_id"], v["flags"])
    return "none"


def dump(pin, m):
    out = subprocess.check_output(
        ["bpftool", "-j", "map", "dump", "pinned", pin + "/" + m])
    return [e["formatted"] for e in json.loads(out)]


def state(pin):
    st = {}
    for m in ("rd_routes4", "rd_routes6"):
        st[m] = sorted((json.dumps(e["key"], sort_keys=True),
                        json.dumps(e["value"], sort_keys=True))
                       for e in dump(pin, m))
    st["groups"] = sorted(
        (e["key"], [(x["ifindex"], x["smac"], x["dmac"], x["weight"],
                     x["flags"])
                    for x in e["value"]["members"][:e["value"]["n_members"]]])
        for e in dump(pin, "rd_groups"))
    return json.dumps(st, sort_keys=True)


def peer(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except OSError as e:
        return "connect: " + errno.errorcode.get(e.errno, str(e.errno))
    # sizes 0: a daemon that read it would refuse it as another build's;
    # one that refuses the peer answers and closes before reading it
    try:
        s.sendall(struct.pack("=5I", MAGIC, 0, 0, 0, 0))
    except (BrokenPipeError, ConnectionResetError):
        pass
    rep = b""
    while len(rep) < 8:
        b = s.recv(8 - len(rep))
        if not b:
            return "closed"
        rep += b
    magic, err = struct.unpack("=Ii", rep)
    return "reply: %d" % err if magic == MAGIC else "bad reply"


if __name__ == "__main__":
    if sys.argv[1] == "route":
        print(route(sys.argv[2]))
    elif sys.argv[1] == "state":
        print(state(sys.argv[2]))
    elif sys.argv[1] == "peer":
        print(peer(sys.argv[2]))
    else:
        sys.exit("usage: sync_handoff.py route PIN | state PIN | peer SOCK")
