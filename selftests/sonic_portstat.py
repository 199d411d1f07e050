#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Read COUNTERS_DB the way SONiC's `show interfaces counters` (portstat)
and `show queue counters` (queuestat) read it, and print what they would
show as JSON, with "N/A" where they would print N/A.

portstat (sonic-utilities utilities_common/portstat.py): the ports of
COUNTERS_PORT_NAME_MAP; per port COUNTERS:<oid>, each column the sum of
its fields, N/A when one field is missing:
  rx_ok   SAI_PORT_STAT_IF_IN_UCAST_PKTS + SAI_PORT_STAT_IF_IN_NON_UCAST_PKTS
  rx_err  SAI_PORT_STAT_IF_IN_ERRORS
  rx_drp  SAI_PORT_STAT_IF_IN_DISCARDS
  rx_ovr  SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS
  tx_ok   SAI_PORT_STAT_IF_OUT_UCAST_PKTS + SAI_PORT_STAT_IF_OUT_NON_UCAST_PKTS
  tx_err  SAI_PORT_STAT_IF_OUT_ERRORS
  tx_drp  SAI_PORT_STAT_IF_OUT_DISCARDS
  tx_ovr  SAI_PORT_STAT_ETHER_TX_OVERSIZE_PKTS
  rx_byt  SAI_PORT_STAT_IF_IN_OCTETS
  tx_byt  SAI_PORT_STAT_IF_OUT_OCTETS
  rx_uca  SAI_PORT_STAT_IF_IN_UCAST_PKTS      (the `detailed` view)
  rx_mca  SAI_PORT_STAT_IF_IN_MULTICAST_PKTS
  rx_bca  SAI_PORT_STAT_IF_IN_BROADCAST_PKTS
  tx_uca, tx_mca, tx_bca  the OUT equivalents
and RATES:<oid> RX_BPS, RX_PPS, TX_BPS, TX_PPS (N/A when missing).
The STATE column comes from APPL_DB PORT_TABLE, which portsyncd owns.

queuestat (sonic-utilities scripts/queuestat): the queues of
COUNTERS_QUEUE_NAME_MAP; each needs COUNTERS_QUEUE_PORT_MAP (else "Port is
not available!"), COUNTERS_QUEUE_INDEX_MAP and COUNTERS_QUEUE_TYPE_MAP
(SAI_QUEUE_TYPE_UNICAST/MULTICAST/ALL); then COUNTERS:<queue oid>
SAI_QUEUE_STAT_PACKETS, _BYTES, _DROPPED_PACKETS, _DROPPED_BYTES.

Usage: sonic_portstat.py SOCKET [COUNTERS_DB number, default 2]
Exits 1 with one line on stderr where queuestat or portstat would exit.
"""
import json
import subprocess
import sys

PORT_COLS = {
    "rx_ok": ["SAI_PORT_STAT_IF_IN_UCAST_PKTS",
              "SAI_PORT_STAT_IF_IN_NON_UCAST_PKTS"],
    "rx_err": ["SAI_PORT_STAT_IF_IN_ERRORS"],
    "rx_drp": ["SAI_PORT_STAT_IF_IN_DISCARDS"],
    "rx_ovr": ["SAI_PORT_STAT_ETHER_RX_OVERSIZE_PKTS"],
    "tx_ok": ["SAI_PORT_STAT_IF_OUT_UCAST_PKTS",
              "SAI_PORT_STAT_IF_OUT_NON_UCAST_PKTS"],
    "tx_err": ["SAI_PORT_STAT_IF_OUT_ERRORS"],
    "tx_drp": ["SAI_PORT_STAT_IF_OUT_DISCARDS"],
    "tx_ovr": ["SAI_PORT_STAT_ETHER_TX_OVERSIZE_PKTS"],
    "rx_byt": ["SAI_PORT_STAT_IF_IN_OCTETS"],
    "tx_byt": ["SAI_PORT_STAT_IF_OUT_OCTETS"],
    "rx_uca": ["SAI_PORT_STAT_IF_IN_UCAST_PKTS"],
    "rx_mca": ["SAI_PORT_STAT_IF_IN_MULTICAST_PKTS"],
    "rx_bca": ["SAI_PORT_STAT_IF_IN_BROADCAST_PKTS"],
    "tx_uca": ["SAI_PORT_STAT_IF_OUT_UCAST_PKTS"],
    "tx_mca": ["SAI_PORT_STAT_IF_OUT_MULTICAST_PKTS"],
    "tx_bca": ["SAI_PORT_STAT_IF_OUT_BROADCAST_PKTS"],
}
RATES = ["RX_BPS", "RX_PPS", "TX_BPS", "TX_PPS"]
QUEUE_COLS = {
    "totalpacket": "SAI_QUEUE_STAT_PACKETS",
    "totalbytes": "SAI_QUEUE_STAT_BYTES",
    "droppacket": "SAI_QUEUE_STAT_DROPPED_PACKETS",
    "dropbytes": "SAI_QUEUE_STAT_DROPPED_BYTES",
}
QTYPES = {"SAI_QUEUE_TYPE_UNICAST": "UC", "SAI_QUEUE_TYPE_MULTICAST": "MC",
          "SAI_QUEUE_TYPE_ALL": "ALL"}


def main():
    sock = sys.argv[1]
    db = sys.argv[2] if len(sys.argv) > 2 else "2"

    def hgetall(key):
        out = subprocess.run(["redis-cli", "-s", sock, "-n", db, "--raw",
                              "hgetall", key], capture_output=True,
                             text=True, check=True).stdout.split("\n")
        if out and out[-1] == "":
            out.pop()
        return dict(zip(out[0::2], out[1::2]))

    def fail(msg):
        print(msg, file=sys.stderr)
        sys.exit(1)

    ports = hgetall("COUNTERS_PORT_NAME_MAP")
    if not ports:
        fail("COUNTERS_PORT_NAME_MAP is empty!")
    res = {"ports": {}, "queues": {}}
    for name, oid in ports.items():
        fv = hgetall("COUNTERS:" + oid)
        row = {}
        for col, fields in PORT_COLS.items():
            if any(f not in fv for f in fields):
                row[col] = "N/A"
            else:
                row[col] = sum(int(float(fv[f])) for f in fields)
        rt = hgetall("RATES:" + oid)
        for r in RATES:
            row[r.lower()] = float(rt[r]) if r in rt else "N/A"
        res["ports"][name] = row
    by_oid = {oid: name for name, oid in ports.items()}
    qmap = hgetall("COUNTERS_QUEUE_NAME_MAP")
    if not qmap:
        fail("COUNTERS_QUEUE_NAME_MAP is empty!")
    pmap = hgetall("COUNTERS_QUEUE_PORT_MAP")
    imap = hgetall("COUNTERS_QUEUE_INDEX_MAP")
    tmap = hgetall("COUNTERS_QUEUE_TYPE_MAP")
    for q, oid in qmap.items():
        if oid not in pmap:
            fail("Port is not available! " + oid)
        if pmap[oid] not in by_oid:
            fail("queue %s: port %s not in COUNTERS_PORT_NAME_MAP"
                 % (q, pmap[oid]))
        if oid not in imap:
            fail("Queue index is not available! " + oid)
        if tmap.get(oid) not in QTYPES:
            fail("Queue Type is invalid: %s %s" % (oid, tmap.get(oid)))
        fv = hgetall("COUNTERS:" + oid)
        row = {"port": by_oid[pmap[oid]], "queueindex": int(imap[oid]),
               "queuetype": QTYPES[tmap[oid]]}
        for col, f in QUEUE_COLS.items():
            row[col] = int(fv[f]) if fv.get(f, "") != "" else "N/A"
        res["queues"][q] = row
    json.dump(res, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
