#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Inputs of tests/sonic_import.sh.

usage: sonic_import.py CHECK ARGS...: CHECK is one of the functions below.
"""
import sys


def big_queue():
    """big_queue FILE: a CONFIG_DB document whose QUEUE key names 10000 ports times
    queues 0-255 (129 KB), with one WRED profile."""
    import json, sys
    ports = ",".join("Ethernet%d" % i for i in range(10000))
    json.dump({"WRED_PROFILE": {"P": {"wred_green_enable": "true", "ecn": "ecn_all",
    	"green_min_threshold": "1048576", "green_max_threshold": "2097152"}},
    	"QUEUE": {ports + "|0-255": {"wred_profile": "P"}}}, open(sys.argv[1], "w"))


if __name__ == "__main__":
    fn = globals().get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not callable(fn) or getattr(fn, "__module__", "") != "__main__":
        sys.exit(__doc__)
    sys.argv = sys.argv[1:]  # a check reads its arguments from sys.argv[1:]
    sys.exit(fn())
