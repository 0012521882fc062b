#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plan_model.py - an independent model of what `blkscope replay` replays
(the rules of docs/replay.md), for tests/t-replay-plan.sh.

    plan_model.py gen SEED > script        a random bs-gen-trace script
    plan_model.py check SCRIPT DRYRUN [--speed X] [--window S..E]
                  [--map MAJ,MIN ...] [--reads-only] [--no-deps]

`gen` writes a script (tests/gen/gen_script.c's format) with every kind
of submitter and I/O the rules tell apart: a synchronous submitter, one
keeping 4 in flight, a kernel worker, pid 0 on two CPUs, flushes,
PREFLUSH and FUA writes, discards, a split bio, back-merged bios, writes
through a partition on a partition trace and on a whole-disk trace, a
device-mapper device traced with its disk, empty bios, a second disk.

`check` reads the same script, computes the rows the dry run must print
(time, pid, op, flags, device, offset, bytes, wait) from the rules, and
compares them with the output of `blkscope replay --dry-run`; every
difference is printed, the exit status is 1 if there is one.
"""
import random
import sys

GENESIS = 1000000


def gen(seed):
    rnd = random.Random(seed)
    lines = []
    t = [GENESIS]

    def at(dt):
        t[0] += dt
        return t[0]

    def rec(time, cpu, dev, act, flags, sector, nbytes, pid, *args):
        lines.append((time, "%d %d %s %s %s %d %d %d %s" % (time, cpu, dev, act, flags, sector, nbytes,
                                                           pid, " ".join(str(a) for a in args))))

    # names first, at genesis (a note does not move genesis: the first event is there too)
    for pid, name in ((100, "syncer"), (200, "qd4"), (300, "kworker/u8:1"), (400, "partw"),
                      (500, "dmwriter"), (600, "merger"), (700, "splitter"), (800, "flusher"),
                      (900, "other-disk"), (1000, "iou-wrk-77")):
        rec(GENESIS, 0, "7,0", "N", "-", 0, 0, pid, name)
    rec(GENESIS, 0, "7,0", "Q", "R", 8, 4096, 100)
    rec(GENESIS + 5000, 0, "7,0", "C", "R", 8, 4096, 100)
    inflight = []       # (completion time, ...) of pid 200
    for _ in range(160):
        kind = rnd.randrange(12)
        cpu = rnd.randrange(2)
        now = at(rnd.randrange(2000, 40000))
        if kind <= 2:           # the synchronous one: Q, C, think, next
            sec = rnd.randrange(0, 1 << 20) * 8
            op = rnd.choice(["R", "WS", "WSU", "RA"])
            lat = rnd.randrange(3000, 60000)
            size = 4096 * rnd.randrange(1, 9)
            rec(now, cpu, "7,0", "Q", op, sec, size, 100)
            rec(now + lat, cpu, "7,0", "C", op, sec, size, 100)
            at(lat + rnd.randrange(1000, 20000))
        elif kind <= 5:         # qd4: never more than 4 in flight
            inflight = [c for c in inflight if c > now]
            if len(inflight) >= 4:
                now = at(min(inflight) - now + 10)
                inflight = [c for c in inflight if c > now]
            sec = rnd.randrange(0, 1 << 20) * 8
            lat = rnd.randrange(5000, 200000)
            rec(now, cpu, "7,0", "Q", "R", sec, 4096, 200)
            rec(now + lat, cpu, "7,0", "C", "R", sec, 4096, 200)
            inflight.append(now + lat)
        elif kind == 6:         # a kernel worker's writeback batch, and pid 0
            for k in range(3):
                sec = rnd.randrange(0, 1 << 20) * 8
                rec(now + k, cpu, "7,0", "Q", "W", sec, 65536, 300)
                rec(now + 400000 + k, cpu, "7,0", "C", "W", sec, 65536, 300)
            sec = rnd.randrange(0, 1 << 20) * 8
            rec(now + 7, cpu, "7,0", "Q", "R", sec, 4096, 0)
            rec(now + 9000, cpu, "7,0", "C", "R", sec, 4096, 0)
        elif kind == 7:         # through partition 259,1 (start 2048) of 7,0, whole-disk trace;
            sec = rnd.randrange(0, 1 << 16) * 8   # and a partition trace of 259,2
            rec(now, cpu, "7,0", "A", "WS", sec + 2048, 4096, 400, "259,1", sec)
            rec(now + 1, cpu, "7,0", "Q", "WS", sec + 2048, 4096, 400)
            rec(now + 3000, cpu, "7,0", "C", "WS", sec + 2048, 4096, 400)
            rec(now + 4000, cpu, "259,2", "A", "R", sec + 4096, 4096, 400, "259,2", sec)
            rec(now + 4001, cpu, "259,2", "Q", "R", sec + 4096, 4096, 400)
            rec(now + 9000, cpu, "259,2", "C", "R", sec + 4096, 4096, 400)
        elif kind == 8:         # dm-0 over 7,0, both traced: replayed on dm-0 only
            sec = rnd.randrange(0, 1 << 16) * 8
            rec(now, cpu, "253,0", "Q", "W", sec, 8192, 500)
            rec(now + 1, cpu, "7,0", "A", "W", sec + 8192, 8192, 500, "253,0", sec)
            rec(now + 2, cpu, "7,0", "Q", "W", sec + 8192, 8192, 500)
            rec(now + 6000, cpu, "7,0", "C", "W", sec + 8192, 8192, 500)
            rec(now + 6001, cpu, "253,0", "C", "W", sec, 8192, 500)
        elif kind == 9:         # merged bios: one C covers both; a split bio: one Q
            sec = rnd.randrange(0, 1 << 16) * 8
            rec(now, cpu, "7,0", "Q", "W", sec, 4096, 600)
            rec(now + 1, cpu, "7,0", "Q", "W", sec + 8, 4096, 600)
            rec(now + 2, cpu, "7,0", "M", "W", sec + 8, 4096, 600)
            rec(now + 5000, cpu, "7,0", "C", "W", sec, 8192, 600)
            rec(now + 6000, cpu, "7,0", "Q", "WS", sec + 4096, 1048576, 700)
            rec(now + 6001, cpu, "7,0", "X", "WS", sec + 4096, 524288, 700, sec + 4096 + 1024)
            rec(now + 20000, cpu, "7,0", "C", "WS", sec + 4096, 1048576, 700)
        elif kind == 10:        # flush, PREFLUSH+FUA write, discard, an empty bio
            rec(now, cpu, "7,0", "Q", "WFS", 0, 0, 800)
            rec(now + 3000, cpu, "7,0", "C", "WS", 0, 0, 800)
            sec = rnd.randrange(0, 1 << 16) * 8
            rec(now + 4000, cpu, "7,0", "Q", "WFSU", sec, 4096, 800)
            rec(now + 9000, cpu, "7,0", "C", "WS", sec, 4096, 800)
            rec(now + 10000, cpu, "7,0", "Q", "WDS", sec, 1 << 20, 800)
            rec(now + 19000, cpu, "7,0", "C", "WDS", sec, 1 << 20, 800)
            rec(now + 20000, cpu, "7,0", "Q", "WS", sec, 0, 800)
            rec(now + 20500, cpu, "7,0", "C", "WS", sec, 0, 800)
        else:                   # the second disk; an io_uring worker
            sec = rnd.randrange(0, 1 << 16) * 8
            rec(now, cpu, "8,16", "Q", "R", sec, 16384, 900)
            rec(now + 7000, cpu, "8,16", "C", "R", sec, 16384, 900)
            rec(now + 1, cpu, "8,16", "Q", "W", sec + 64, 4096, 1000)
            rec(now + 8000, cpu, "8,16", "C", "W", sec + 64, 4096, 1000)
    lines.sort(key=lambda x: x[0])
    print("# plan_model.py gen %d" % seed)
    for _, ln in lines:
        print(ln)


def parse_script(path):
    recs = []
    for order, ln in enumerate(open(path)):
        ln = ln.split("#", 1)[0].split()
        if not ln:
            continue
        time, cpu, dev, act, flags, sector, nbytes, pid = ln[:8]
        recs.append(dict(time=int(time), cpu=int(cpu), dev=dev, act=act, flags=flags, sector=int(sector),
                         bytes=int(nbytes), pid=int(pid), args=ln[8:], order=order))
    recs.sort(key=lambda r: (r["time"], r["order"]))
    return recs


def classify(r):
    """(op, flags) of a Q, or None when it is not replayed."""
    f = r["flags"]
    if "D" in f:
        op = "discard"
    elif r["bytes"] == 0 and "F" in f:
        op = "flush"
    elif "W" in f:
        op = "write"
    else:
        op = "read"
    if r["bytes"] == 0 and op != "flush":
        return None
    letters = ""
    if op == "write" and "F" in f:
        letters += "P"
    if "U" in f and op != "read":
        letters += "F"
    for c, l in (("S", "S"), ("M", "M"), ("A", "A")):
        if c in f:
            letters += l
    return op, letters or "-"


def model(recs, speed, window, maps, reads_only, no_deps):
    genesis = recs[0]["time"]
    names = {r["pid"]: r["args"][0] for r in recs if r["act"] == "N"}
    last_a, qs, pending = {}, [], []
    for r in recs:
        if r["act"] == "A":
            last_a[r["pid"]] = r
        elif r["act"] == "Q":
            a = last_a.pop(r["pid"], None)
            c = classify(r)
            if c is None:
                continue
            q = dict(r, op=c[0], fl=c[1], off=r["sector"] * 512, remap_from=None, done=None)
            if a and a["dev"] == r["dev"] and a["sector"] == r["sector"] and a["bytes"] == r["bytes"]:
                if a["args"][0] == r["dev"]:
                    q["off"] = int(a["args"][1]) * 512
                else:
                    q["remap_from"] = a["args"][0]
            qs.append(q)
            pending.append(q)
        elif r["act"] == "C":
            lo, hi = r["sector"], r["sector"] + r["bytes"] // 512
            for q in pending:
                if q["done"] is None and q["dev"] == r["dev"] and lo <= q["sector"] and \
                        q["sector"] + q["bytes"] // 512 <= hi:
                    q["done"] = r["time"]
            pending = [q for q in pending if q["done"] is None]
    devs = set(q["dev"] for q in qs)
    replayed = (lambda d: d in maps) if maps else (lambda d: True)
    out = []
    for q in qs:
        rel = q["time"] - genesis
        if window and (rel < window[0] or (window[1] is not None and rel >= window[1])):
            continue
        if not replayed(q["dev"]):
            continue
        if q["remap_from"] and q["remap_from"] in devs and replayed(q["remap_from"]):
            continue
        if reads_only and q["op"] != "read":
            continue
        out.append(q)
    # submitters and their depth
    depth, flight = {}, {}
    for q in out:
        key = (0, q["cpu"]) if q["pid"] == 0 else (q["pid"], None)
        name = names.get(q["pid"], "")
        q["async"] = no_deps or q["pid"] == 0 or name.startswith(("kworker/", "iou-wrk-", "iou-sqp-"))
        q["key"] = key
        if q["async"]:
            continue
        f = [d for d in flight.get(key, []) if d is None or d > q["time"]]
        f.append(q["done"])
        flight[key] = f
        depth[key] = max(depth.get(key, 0), len(f))
    rows = []
    t0 = out[0]["time"] if out else 0
    for q in out:
        rel = q["time"] - t0
        sched = rel if speed == 1.0 else int(rel / speed)
        wait = "-" if q["async"] else str(depth[q["key"]] - 1)
        pid = "0/cpu%d" % q["cpu"] if q["pid"] == 0 else str(q["pid"])
        dev = q["dev"]
        rows.append((sched, pid, q["op"], q["fl"], dev, q["off"], q["bytes"], wait))
    return rows


def parse_dry_run(path):
    rows = []
    for ln in open(path):
        if ln.startswith("#"):
            continue
        w = ln.split()
        # time pid process op flags device target offset bytes wait
        rows.append((round(float(w[0]) * 1e9), w[1], w[3], w[4], w[5], int(w[7]), int(w[8]), w[9]))
    return rows


def check(argv):
    script, dry = argv[0], argv[1]
    speed, window, maps, reads_only, no_deps = 1.0, None, [], False, False
    i = 2
    while i < len(argv):
        a = argv[i]
        if a == "--speed":
            speed = float(argv[i + 1])
            i += 1
        elif a == "--window":
            s, e = argv[i + 1].split("..")
            window = (int(float(s or 0) * 1e9), int(float(e) * 1e9) if e else None)
            i += 1
        elif a == "--map":
            maps.append(argv[i + 1])
            i += 1
        elif a == "--reads-only":
            reads_only = True
        elif a == "--no-deps":
            no_deps = True
        i += 1
    want = model(parse_script(script), speed, window, maps, reads_only, no_deps)
    got = parse_dry_run(dry)
    bad = 0
    if len(want) != len(got):
        print("plan: %d rows expected, the dry run printed %d" % (len(want), len(got)))
        bad += 1
    for k, (w, g) in enumerate(zip(want, got)):
        if abs(w[0] - g[0]) > 2 or w[1:] != g[1:]:
            print("plan: row %d: expected %s, printed %s" % (k, w, g))
            bad += 1
            if bad > 10:
                break
    kinds = {}
    for w in want:
        kinds[w[2]] = kinds.get(w[2], 0) + 1
    if not want:
        print("plan: the model expects no row: a test that cannot fail")
        bad += 1
    print("plan: %d rows (%s) %s" % (len(want), ", ".join("%s %d" % x for x in sorted(kinds.items())),
                                    "differ" if bad else "match the model"))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(int(sys.argv[2]))
    elif sys.argv[1] == "check":
        sys.exit(check(sys.argv[2:]))
    else:
        sys.exit("usage: plan_model.py gen SEED | check SCRIPT DRYRUN [options]")
