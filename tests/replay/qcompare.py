#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qcompare.py - the fidelity oracle of `blkscope replay`: the queued bios
(Q) of an original trace against those of a recording of its replay.

    qcompare.py [--p99-ms X] [--max-ms X] [--duration-pct P]
                [--map OMAJ,OMIN=RMAJ,RMIN ...] ORIG_BASE[,BASE...] REPLAY_BASE[,BASE...]

ORIG_BASE and REPLAY_BASE are per-CPU file bases (DIR/NAME for
DIR/NAME.blktrace.N; several, comma-separated, for a trace of several
devices), read with tests/lib/blktrace.py (not with format/: the oracle
must not share the code it checks).  Every Q is keyed by what a replay
must reproduce: its operation (read, write, flush, discard), start
sector, size and FUA; with --map (the replay's --map, as device numbers),
also its device, the replay's translated to the original's.  A write with PREFLUSH is
expected as an empty flush and the write (userspace cannot send
PREFLUSH with data: docs/replay.md).  Qs of processes named with
--ignore-comm PREFIX (repeatable) are left out on both sides.

It prints the counts, whether the two multisets of keys are equal, the
queue-time error of every I/O (its time after the first Q of its trace,
replay minus original, pairing equal keys in time order) as p50/p99/max
of the absolute error, and both durations (first to last Q); the exit
status is 1 if the multisets differ or a bound given is exceeded.
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import blktrace  # noqa: E402

TC_DISCARD, TC_FUA = 1 << 13, 1 << 15


def parse_dev(s):
    ma, mi = s.split(",")
    return int(ma) << 20 | int(mi)


def read_qs(bases, devmap, ignore):
    files = []
    for base in bases.split(","):
        found = sorted(glob.glob(glob.escape(base) + ".blktrace.*"))
        if not found:
            sys.exit("qcompare: no files %s.blktrace.*" % base)
        files += found
    comms, qs = {}, []
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        for _, r, pdu in blktrace.records(data, whole=False):
            if blktrace.is_note(r.action):
                if blktrace.basic(r.action) == blktrace.TN_PROCESS:
                    comms[r.pid] = blktrace.comm(pdu).decode("utf-8", "replace")
                continue
            if blktrace.basic(r.action) != blktrace.TA_QUEUE:
                continue
            if devmap is not None and r.device not in devmap:
                continue
            qs.append(r)
    out = []
    for r in qs:
        name = comms.get(r.pid, "")
        if any(name.startswith(p) for p in ignore):
            continue
        cats = r.action >> 16
        fua = bool(cats & TC_FUA)
        dev = devmap[r.device] if devmap else None
        if cats & TC_DISCARD:
            out.append((r.time, ("discard", dev, r.sector, r.bytes, False)))
        elif r.bytes == 0 and cats & blktrace.TC_FLUSH:
            out.append((r.time, ("flush", dev, 0, 0, False)))
        elif cats & blktrace.TC_WRITE:
            if cats & blktrace.TC_FLUSH:
                out.append((r.time, ("flush", dev, 0, 0, False)))
            out.append((r.time, ("write", dev, r.sector, r.bytes, fua)))
        elif r.bytes:
            out.append((r.time, ("read", dev, r.sector, r.bytes, False)))
    out.sort(key=lambda x: x[0])
    return out


def pct(sorted_vals, q):
    if not sorted_vals:
        return 0.0
    k = max(1, int(q * len(sorted_vals) + 0.999999))
    return sorted_vals[k - 1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("orig")
    ap.add_argument("replay")
    ap.add_argument("--map", action="append", default=[], help="OMAJ,OMIN=RMAJ,RMIN")
    ap.add_argument("--ignore-comm", action="append", default=[])
    ap.add_argument("--p99-ms", type=float)
    ap.add_argument("--max-ms", type=float)
    ap.add_argument("--duration-pct", type=float)
    ap.add_argument("--speed", type=float, default=1.0, help="the replay's --speed")
    ap.add_argument("--label", default="replay")
    a = ap.parse_args()
    omap = {parse_dev(m.split("=")[0]): parse_dev(m.split("=")[0]) for m in a.map} or None
    rmap = {parse_dev(m.split("=")[1]): parse_dev(m.split("=")[0]) for m in a.map} or None
    o = read_qs(a.orig, omap, a.ignore_comm)
    r = read_qs(a.replay, rmap, a.ignore_comm)
    if not o or not r:
        print("%s: no Q in %s" % (a.label, a.orig if not o else a.replay))
        return 1
    fail = []
    by_key = {}
    for t, k in o:
        by_key.setdefault(k, [[], []])[0].append(t)
    for t, k in r:
        by_key.setdefault(k, [[], []])[1].append(t)
    missing = sum(max(0, len(v[0]) - len(v[1])) for v in by_key.values())
    extra = sum(max(0, len(v[1]) - len(v[0])) for v in by_key.values())
    ops = {}
    for _, k in o:
        ops[k[0]] = ops.get(k[0], 0) + 1
    print("%s: Qs: original %d, replay %d (%s); missing %d, extra %d" %
          (a.label, len(o), len(r), ", ".join("%s %d" % x for x in sorted(ops.items())), missing, extra))
    if missing or extra:
        fail.append("the I/Os differ")
    o0, r0 = o[0][0], r[0][0]
    errs = []
    for ot, rt in by_key.values():
        for x, y in zip(ot, rt):
            errs.append(abs((y - r0) - (x - o0) / a.speed))
    errs.sort()
    p50, p99, mx = pct(errs, 0.5) / 1e6, pct(errs, 0.99) / 1e6, errs[-1] / 1e6
    dur_o = (o[-1][0] - o0) / a.speed
    dur_r = r[-1][0] - r0
    dpct = 100.0 * (dur_r - dur_o) / dur_o if dur_o else 0.0
    print("%s: queue-time error: p50 %.3f ms, p99 %.3f ms, max %.3f ms over %d I/Os; "
          "duration: original %.4f s, replay %.4f s (%+.2f %%)" %
          (a.label, p50, p99, mx, len(errs), dur_o / 1e9, dur_r / 1e9, dpct))
    if a.p99_ms is not None and p99 > a.p99_ms:
        fail.append("p99 error %.3f ms > %.3f ms" % (p99, a.p99_ms))
    if a.max_ms is not None and mx > a.max_ms:
        fail.append("max error %.3f ms > %.3f ms" % (mx, a.max_ms))
    if a.duration_pct is not None and abs(dpct) > a.duration_pct:
        fail.append("duration off by %+.2f %% (bound %.1f %%)" % (dpct, a.duration_pct))
    if fail:
        print("%s: FAIL: %s" % (a.label, "; ".join(fail)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
