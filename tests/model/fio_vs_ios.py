#!/usr/bin/env python3
"""fio_vs_ios.py - every I/O fio logged against blkscope's export of it.

Usage: fio_vs_ios.py IOS.jsonl FIO_LAT_LOG...

IOS.jsonl: `blkscope export --format jsonl` of a recording of the fio run.
FIO_LAT_LOG: fio's per-I/O total-latency logs (write_lat_log with
log_avg_msec=0 and log_offset=1): "msec, lat_ns, dir, bs, offset, prio".

fio measures each I/O from its submission call to its reap, the kernel's
Q to C lies inside that, so for every I/O fio's latency minus our Q2C must
be positive (beyond clock noise) and small.  I/Os are matched by
direction and offset, in completion order; every fio I/O must have its
export row with the same size, and a Q2C (completed: a split 1 MiB write
is one I/O).  Prints the differences; exit 1 on a mismatch.
"""
import collections
import json
import sys

NOISE_NS = 20000        # clock reads of fio and of the tracepoints: far below this
MEDIAN_MAX_NS = 2000000  # fio's own path (submit, reap) on a loaded 2-CPU machine


def load_fio(paths):
    out = collections.defaultdict(list)   # (dir, offset) -> [(lat_ns, bs)] in completion order
    for p in paths:
        for line in open(p):
            f = [x.strip() for x in line.split(",")]
            out[(int(f[2]), int(f[4]))].append((int(f[1]), int(f[3])))
    return out


def main():
    fio = load_fio(sys.argv[2:])
    ours = collections.defaultdict(list)
    for line in open(sys.argv[1]):
        r = json.loads(line)
        if r["op"] in ("read", "write"):
            ours[(0 if r["op"] == "read" else 1, r["sector"] * 512)].append(r)
    bad, diffs = [], {0: [], 1: []}
    for key, lst in fio.items():
        mine = sorted((r for r in ours.get(key, []) if r["q2c"] is not None), key=lambda r: r["t_c"])
        if len(mine) < len(lst):
            bad.append("%s offset %d: fio has %d I/Os, the export %d completed" % (key[0], key[1], len(lst), len(mine)))
        for (lat, bs), r in zip(lst, mine):
            if r["bytes"] != bs:
                bad.append("offset %d: fio %d bytes, export %d" % (key[1], bs, r["bytes"]))
                continue
            diffs[key[0]].append(lat - r["q2c"])
    for d, v in diffs.items():
        if not v:
            continue
        v.sort()
        name = ("read", "write")[d]
        print("%s: %d I/Os, fio latency - Q2C: min %d ns, p50 %d, p99 %d, max %d"
              % (name, len(v), v[0], v[len(v) // 2], v[len(v) * 99 // 100], v[-1]))
        if v[0] < -NOISE_NS:
            bad.append("%s: an I/O's Q2C exceeds fio's latency by %d ns" % (name, -v[0]))
        if v[len(v) // 2] > MEDIAN_MAX_NS:
            bad.append("%s: median difference %d ns" % (name, v[len(v) // 2]))
    if not diffs[0] or not diffs[1]:
        bad.append("reads or writes missing")
    for b in bad[:20]:
        print("MISMATCH: " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
