#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run one shell command in a lab RDMA guest and relay its output.

usage: gexec.py [--timeout S] DIR CMD...

DIR holds the guest's control sockets ctl1.sock, ctl2.sock (qemu serial
ports ttyS1/ttyS2 served by tools/lab/guest/init.sh). A free channel is
taken with flock on DIR/ctlN.lock, so two commands can run in one guest at
once (a perftest server and a counter read). The request carries an id; a
stale answer of an earlier, abandoned request is skipped. Exit status is
the command's (124 on timeout, 125 when the guest does not answer).
"""
import base64, fcntl, os, re, socket, sys, time

def main():
    args = sys.argv[1:]
    timeout = 600.0
    if args[:1] == ["--timeout"]:
        timeout = float(args[1])
        args = args[2:]
    if len(args) < 2:
        sys.exit("usage: gexec.py [--timeout S] DIR CMD...")
    d, cmd = args[0], " ".join(args[1:])
    lock = None
    deadline = time.time() + 30
    while lock is None:
        for n in (1, 2):
            f = open(os.path.join(d, f"ctl{n}.lock"), "w")
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                lock, chan = f, n
                break
            except BlockingIOError:
                f.close()
        if lock is None:
            if time.time() > deadline:
                print("gexec: every control channel is busy", file=sys.stderr)
                return 125
            time.sleep(0.2)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(os.path.join(d, f"ctl{chan}.sock"))
    except OSError as e:
        print(f"gexec: {d}/ctl{chan}.sock: {e.strerror}", file=sys.stderr)
        return 125
    rid = f"{os.getpid()}x{int(time.time() * 1000) % 100000000}"
    s.sendall(f"{rid} {base64.b64encode(cmd.encode()).decode()}\n".encode())
    pat = re.compile(rb"\n@@ROCEDP-RC (\S+) (\d+)@@\n")
    keep = 64
    buf = b""
    last = b"\n"
    out = sys.stdout.buffer
    end = time.time() + timeout
    while True:
        left = end - time.time()
        if left <= 0:
            print(f"\ngexec: timed out after {timeout:.0f}s", file=sys.stderr)
            return 124
        s.settimeout(min(left, 1.0))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            print("gexec: guest closed the channel", file=sys.stderr)
            return 125
        buf += chunk
        while True:
            m = pat.search(buf)
            if not m:
                break
            if m.group(1).decode() == rid:
                if m.start():
                    out.write(buf[: m.start()])
                    last = buf[m.start() - 1 : m.start()]
                if last != b"\n":
                    out.write(b"\n")
                out.flush()
                return int(m.group(2))
            buf = buf[m.end():]  # an earlier request's answer: skip it
            last = b"\n"
        if len(buf) > keep and not re.search(rb"@@ROCEDP-RC", buf):
            out.write(buf[:-keep])
            last = buf[-keep - 1 : -keep]
            buf = buf[-keep:]
            out.flush()

if __name__ == "__main__":
    sys.exit(main())
