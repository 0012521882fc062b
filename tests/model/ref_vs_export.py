#!/usr/bin/env python3
"""ref_vs_export.py - blkscope's per-I/O model against the independent
reference of tests/lib/ioref.py, I/O by I/O.

Usage: ref_vs_export.py DUMP IOS.jsonl

DUMP: `blkparse -O -d` of the trace (blkparse's merge, not ours).
IOS.jsonl: `blkscope export --format jsonl` of the same trace.

Every I/O the reference follows (see ioref.py for the ones it leaves out)
must have its export row (same device, sector and queue time, relative to
each side's first Q), with the same Q2C (null when never completed), the
same number of fragments (splits + 1) and, where both have a D, the same
D2C.  Prints what it compared; exit 1 on a difference.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import ioref  # noqa: E402


def dev(s):
    a, b = s.split(",")
    return int(a) << 20 | int(b)


def main():
    ref = ioref.follow(sys.argv[1])
    ours = [json.loads(line) for line in open(sys.argv[2])]
    if not ref or not ours:
        print("nothing to compare")
        sys.exit(1)
    t0r = min(io["t_q"] for io in ref)
    t0o = min(r["t_q"] for r in ours)
    idx = {}
    for r in ours:
        idx.setdefault((dev(r["device"]), r["sector"], r["t_q"] - t0o), []).append(r)
    bad = n = 0
    for io in ref:
        if io["skip"]:
            continue
        k = (io["device"], io["sector"], io["t_q"] - t0r)
        rows = idx.get(k)
        if not rows:
            bad += 1
            print("MISSING: no export row for", k)
            continue
        r = rows[0]
        n += 1
        want = None if io["t_c"] is None else io["t_c"] - io["t_q"]
        if want != r["q2c"] or io["frags"] - 1 != r["splits"]:
            bad += 1
            print("DIFFERS:", k, "reference q2c", want, "fragments", io["frags"],
                  "export q2c", r["q2c"], "fragments", r["splits"] + 1)
        elif io["t_d"] is not None and r["t_d"] is not None and want is not None and \
                io["t_c"] - io["t_d"] != r["d2c"]:
            bad += 1
            print("DIFFERS:", k, "reference d2c", io["t_c"] - io["t_d"], "export", r["d2c"])
        if bad > 20:
            break
    print("%s: %d I/Os compared with the reference, %d differ" % (sys.argv[2], n, bad))
    sys.exit(1 if bad or not n else 0)


if __name__ == "__main__":
    main()
