#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A scripted RESP server on a unix socket, for the faults a real Redis
does not make on demand (tests/sonic_fake.sh): it answers what `rocedp
sonic sync` asks (CONFIG, PSUBSCRIBE, SELECT, GET, SCAN, HGETALL, HSET,
HINCRBY) like Redis, except for the one reply its mode breaks:

  scan-nil      SCAN's key list holds a nil
  scan-int      SCAN's key list holds an integer
  scan-nested   SCAN's key list holds an array
  cursor        SCAN's cursor never comes back to 0 (slow-cursor: 2 ms a round)
  huge-bulk     HGETALL answers with a 300 MB bulk string, sent as it goes
  huge-array    SCAN's key list claims 100 million entries
  loading       GET and SCAN answer -LOADING, as Redis does while it loads
  ok            nothing broken: PORT|Ethernet0 and CONFIG_DB_INITIALIZED 1

Usage: sonic_fake_redis.py SOCKET MODE COUNTFILE
COUNTFILE gets "connections commands" after every command.
"""
import os
import socket
import sys
import threading
import time

SOCK, MODE, COUNT = sys.argv[1], sys.argv[2], sys.argv[3]
lock = threading.Lock()
stats = {"conn": 0, "cmd": 0}


def bulk(s):
    if s is None:
        return b"$-1\r\n"
    b = s.encode() if isinstance(s, str) else s
    return b"$%d\r\n%s\r\n" % (len(b), b)


def arr(items):
    out = b"*%d\r\n" % len(items)
    for i in items:
        if isinstance(i, bytes):
            out += i  # already encoded
        elif isinstance(i, list):
            out += arr(i)
        else:
            out += bulk(i)
    return out


def read_cmd(f):
    line = f.readline()
    if not line:
        return None
    if not line.startswith(b"*"):
        return line.split()
    n = int(line[1:])
    args = []
    for _ in range(n):
        ln = int(f.readline()[1:])
        args.append(f.read(ln + 2)[:-2])
    return args


def count(what):
    with lock:
        stats[what] += 1
        with open(COUNT + ".tmp", "w") as c:
            c.write("%d %d\n" % (stats["conn"], stats["cmd"]))
        os.replace(COUNT + ".tmp", COUNT)


def scan_reply():
    keys = [b"$14\r\nPORT|Ethernet0\r\n"]
    if MODE == "scan-nil":
        return arr(["0", [b"$-1\r\n"] + keys])
    if MODE == "scan-int":
        return arr(["0", [b":42\r\n"] + keys])
    if MODE == "scan-nested":
        return arr(["0", [["PORT|Ethernet4", "x"]] + keys])
    if MODE in ("cursor", "slow-cursor"):
        if MODE == "slow-cursor":
            time.sleep(0.002)
        return arr(["7", []])
    if MODE == "huge-array":
        return b"*2\r\n$1\r\n0\r\n*100000000\r\n"
    return arr(["0", keys + [b"$21\r\nCONFIG_DB_INITIALIZED\r\n"]])


def serve(conn):
    f = conn.makefile("rb")
    count("conn")
    while True:
        try:
            a = read_cmd(f)
        except (OSError, ValueError):
            return
        if a is None:
            return
        count("cmd")
        c = a[0].upper() if a else b""
        if MODE == "loading" and c in (b"GET", b"SCAN"):
            out = b"-LOADING Redis is loading the dataset in memory\r\n"
        elif c == b"CONFIG":
            out = arr(["notify-keyspace-events", "AKE"]) \
                if a[1].upper() == b"GET" else b"+OK\r\n"
        elif c == b"PSUBSCRIBE":
            out = arr(["psubscribe", bulk(a[1]), b":1\r\n"])
        elif c in (b"SELECT", b"AUTH"):
            out = b"+OK\r\n"
        elif c == b"GET":
            out = bulk("1")
        elif c == b"SCAN":
            out = scan_reply()
        elif c == b"HGETALL":
            if MODE == "huge-bulk":
                try:
                    conn.sendall(b"*2\r\n$5\r\nspeed\r\n$300000000\r\n")
                    chunk = b"9" * 65536
                    for _ in range(300000000 // 65536):
                        conn.sendall(chunk)
                except OSError:
                    return
                continue
            out = arr(["speed", "100000"]) if a[1].startswith(b"PORT|") \
                else b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"
        elif c in (b"HSET", b"HINCRBY"):
            out = b":1\r\n"
        else:
            out = b"-ERR unknown command\r\n"
        try:
            conn.sendall(out)
        except OSError:
            return


def main():
    try:
        os.unlink(SOCK)
    except FileNotFoundError:
        pass
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(SOCK)
    s.listen(16)
    count("cmd")  # the count file exists: the server is up
    stats["cmd"] = 0
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
