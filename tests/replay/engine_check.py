#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""engine_check.py - for tests/t-replay-engine.sh.

    engine_check.py gen SEED SPAN_MS > script
    engine_check.py log SCRIPT LOG.csv [--max] [--no-deps] [--depth N]

`gen` writes a bs-gen-trace script of SPAN_MS milliseconds on device 7,0
within 48 MiB: a synchronous reader (each Q after the previous C), a
reader keeping up to 4 in flight, a kernel worker writing bursts that
wait for nothing, a process writing with FUA, flushing and discarding.

`log` checks the per-I/O log of a replay of that trace (replay --log)
against the rules, from the script itself: every I/O of the script was
issued once and completed without error, in trace order per submitter;
never before its scheduled time (unless --max); a synchronous
submitter's I/O only after the previous one completed, the reader of
depth 4 never with more than 3 earlier ones in flight, unless --no-deps;
with --depth N never more than N in flight at all.  The issue and
completion times are the replayer's own stamps (CLOCK_MONOTONIC): this
checks the scheduling logic, the recorder checks the device's view
(t-replay-fidelity).
"""
import csv
import random
import sys


def gen(seed, span_ms):
    rnd = random.Random(seed)
    out = []

    def rec(t, cpu, act, flags, sector, nbytes, pid):
        out.append((t, "%d %d 7,0 %s %s %d %d %d" % (t, cpu, act, flags, sector, nbytes, pid)))

    t0 = 1000000
    for pid, name in ((101, "syncread"), (102, "qd4read"), (103, "kworker/u4:2"), (104, "fuawriter")):
        out.append((t0, "%d 0 7,0 N - 0 0 %d %s" % (t0, pid, name)))
    end = t0 + span_ms * 1000000
    # synchronous reader
    t = t0
    while t < end:
        lat = rnd.randrange(50000, 400000)
        sec = rnd.randrange(0, 3000) * 8
        rec(t, 0, "Q", "R", sec, 4096, 101)
        rec(t + lat, 0, "C", "R", sec, 4096, 101)
        t += lat + rnd.randrange(20000, 300000)
    # depth-4 reader: Qs at random times, at most 4 in flight
    t, flight = t0 + 7, []
    while t < end:
        flight = [c for c in flight if c > t]
        if len(flight) >= 4:
            t = min(flight) + 1
            continue
        lat = rnd.randrange(100000, 3000000)
        sec = 3000 * 8 + rnd.randrange(0, 3000) * 8
        rec(t, 1, "Q", "R", sec, 8192, 102)
        rec(t + lat, 1, "C", "R", sec, 8192, 102)
        flight.append(t + lat)
        t += rnd.randrange(30000, 500000)
    # kernel worker bursts
    t = t0 + 11
    while t < end:
        for k in range(rnd.randrange(2, 6)):
            sec = 6000 * 8 + rnd.randrange(0, 3000) * 8
            rec(t + k * 3, 0, "Q", "W", sec, 16384, 103)
            rec(t + 2000000 + k, 0, "C", "W", sec, 16384, 103)
        t += rnd.randrange(3000000, 9000000)
    # FUA writes, a flush, a discard, synchronously
    t = t0 + 13
    while t < end:
        sec = 9000 * 8 + rnd.randrange(0, 2000) * 8
        kind = rnd.randrange(3)
        if kind == 0:
            rec(t, 1, "Q", "WSU", sec, 4096, 104)
            rec(t + 300000, 1, "C", "WS", sec, 4096, 104)
        elif kind == 1:
            rec(t, 1, "Q", "WFS", 0, 0, 104)
            rec(t + 300000, 1, "C", "WS", 0, 0, 104)
        else:
            rec(t, 1, "Q", "WDS", sec, 65536, 104)
            rec(t + 300000, 1, "C", "WDS", sec, 65536, 104)
        t += rnd.randrange(1000000, 6000000)
    out.sort(key=lambda x: x[0])
    for _, ln in out:
        print(ln)


def check_log(script, log, opts):
    qs = []
    for ln in open(script):
        w = ln.split()
        if w and w[3] == "Q":
            qs.append((int(w[0]), int(w[7]), int(w[5]), int(w[6])))
    qs.sort()
    rows = list(csv.DictReader(open(log)))
    bad = []
    if len(rows) != len(qs):
        bad.append("%d I/Os in the log, %d Qs in the trace" % (len(rows), len(qs)))
    for q, r in zip(qs, rows):
        if (q[1], q[2] * 512, q[3]) != (int(r["pid"]), int(r["offset"]), int(r["bytes"])):
            bad.append("row %s is %s, the trace's Q is %s" % (r["index"], r, q))
            break
    by_pid = {}
    for r in rows:
        if r["issued_ns"] == "0" or r["completed_ns"] == "0" or r["result"] != "0":
            bad.append("I/O %s not issued or completed, or failed: %s" % (r["index"], r))
        if "--max" not in opts and int(r["issued_ns"]) < int(r["scheduled_ns"]):
            bad.append("I/O %s issued before its time: %s" % (r["index"], r))
        by_pid.setdefault(r["pid"], []).append(r)
    limits = {"101": 1, "102": 4}
    for pid, rs in by_pid.items():
        iss = [int(r["issued_ns"]) for r in rs]
        if iss != sorted(iss):
            bad.append("pid %s: issued out of trace order" % pid)
        if pid in limits and "--no-deps" not in opts:
            for k, r in enumerate(rs):
                t = int(r["issued_ns"])
                flying = sum(1 for p in rs[:k] if int(p["completed_ns"]) > t)
                if flying > limits[pid] - 1:
                    bad.append("pid %s: I/O %s issued with %d earlier ones in flight (limit %d)" %
                               (pid, r["index"], flying, limits[pid]))
                    break
    if "--depth" in opts:
        n = int(opts[opts.index("--depth") + 1])
        ev = sorted([(int(r["issued_ns"]), 1) for r in rows] + [(int(r["completed_ns"]), -1) for r in rows])
        cur = peak = 0
        for _, d in ev:
            cur += d
            peak = max(peak, cur)
        if peak > n:
            bad.append("%d I/Os in flight at once with --depth %d" % (peak, n))
    for b in bad[:10]:
        print("engine: " + b)
    print("engine: %d I/Os of %d submitters %s" % (len(rows), len(by_pid), "wrong" if bad else "as the rules say"))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(check_log(sys.argv[2], sys.argv[3], sys.argv[4:]))
