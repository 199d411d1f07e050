# SPDX-License-Identifier: GPL-2.0
"""Reading rocedp's pinned maps from test scripts, through bpftool's JSON:
one place for the dump call and the decoding every check needs. Import by
path: sys.path.insert(0, <tests/pylib>)."""
import json
import subprocess


def dump(pin_dir, name):
    """The entries of map PIN_DIR/NAME as bpftool -j map dump prints them."""
    return json.loads(subprocess.check_output(
        ["bpftool", "-j", "map", "dump", "pinned", f"{pin_dir}/{name}"]))


def by_key(entries):
    """{formatted key: formatted value} of a map with BTF."""
    return {e["formatted"]["key"]: e["formatted"]["value"] for e in entries}


def raw(v):
    """bytes of a raw key or value (a list of "0x.." strings)."""
    return bytes(int(x, 16) for x in v)
