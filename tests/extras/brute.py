#!/usr/bin/env python3
"""brute.py - check `--json` figures against a brute-force computation.

Usage:
  brute.py SAMPLES JSON [--group-by comm|pid] [--group NAME=PID,PID]...
  brute.py --gen N SEED OUT      write N random samples (harness text format)

SAMPLES is the harness's text format (tests/extras/harness.c):
  dev sector bytes pid comm op t_q t_g t_i t_m t_d t_c error requeues tag

For every slice (all, each device, op, process, group) we sort the exact
stage latencies and check: counts, min, max and avg exactly; p50..p99.99
(nearest rank) within the documented relative error; the biolatency log2
histogram exactly except for values within that error of a bucket edge.
For the time series we recompute each bucket at the reported width:
completions, bytes and in-flight time exactly, latency percentiles within
the error.  Prints what it checked; exit 1 at the first mismatch.
"""
import json
import random
import sys

NS = None
STAGES = {"Q2G": ("t_q", "t_g"), "G2I": ("t_g", "t_i"), "I2D": ("t_i", "t_d"),
          "Q2M": ("t_q", "t_m"), "M2D": ("t_m", "t_d"),
          "D2C": ("t_d", "t_c"), "Q2C": ("t_q", "t_c"), "Q2D": ("t_q", "t_d")}
# a bio merged into a request (t_m) goes Q2M, M2D; one with a request of its own Q2G, G2I, I2D
MERGED_ONLY, OWN_ONLY = ("Q2M", "M2D"), ("Q2G", "G2I", "I2D")
PCTS = {"p50": 500000, "p90": 900000, "p99": 990000, "p99.9": 999000, "p99.99": 999900}
FIELDS = ["t_q", "t_g", "t_i", "t_m", "t_d", "t_c"]
failures = 0
checks = 0


def fail(msg):
    global failures
    failures += 1
    print("MISMATCH: " + msg)
    if failures >= 20:
        sys.exit(1)


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        fail(msg)


def read_samples(path):
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p = line.split()
            s = {"dev": p[0], "sector": int(p[1]), "bytes": int(p[2]), "pid": int(p[3]),
                 "comm": None if p[4] == "-" else p[4], "op": p[5],
                 "error": int(p[12]), "requeues": int(p[13]), "tag": int(p[14])}
            for i, k in enumerate(FIELDS):
                s[k] = None if p[6 + i] == "-" else int(p[6 + i])
            out.append(s)
    return out


def stage_val(s, st):
    a, b = STAGES[st]
    if st in MERGED_ONLY and s["t_m"] is None or st in OWN_ONLY and s["t_m"] is not None:
        return None
    if s[a] is None or s[b] is None or s[b] < s[a]:
        return None                             # never a stage from ends seen backwards
    return s[b] - s[a] if s[b] > s[a] else 1      # one time stamp: 1 ns, as btt


def btt_avg(vals):
    """The average as btt prints it: the total in seconds btt's way, over N, %.9f."""
    total = sum(vals)
    secs = float(total // 1000000000) + float(total % 1000000000) / 1.0e9
    whole, frac = ("%.9f" % (secs / len(vals))).split(".")
    return int(whole) * 1000000000 + int(frac)


def nearest_rank(sorted_vals, ppm):
    n = len(sorted_vals)
    rank = max((ppm * n + 999999) // 1000000, 1)
    return sorted_vals[rank - 1]


def log2_bucket(ns):
    us = ns // 1000
    return 0 if us < 2 else us.bit_length() - 1


def check_stage(where, vals, obj, err):
    vals = sorted(vals)
    if not vals:
        check(obj == {"observed": False, "n": 0}, "%s: expected not observed, got %s" % (where, obj))
        return
    check(obj.get("observed") is True and obj.get("n") == len(vals),
          "%s: n %s, expected %d" % (where, obj.get("n"), len(vals)))
    if obj.get("observed") is not True:
        return
    check(obj["min"] == vals[0], "%s: min %d != %d" % (where, obj["min"], vals[0]))
    check(obj["max"] == vals[-1], "%s: max %d != %d" % (where, obj["max"], vals[-1]))
    check(obj["avg"] == btt_avg(vals), "%s: avg %d != %d" % (where, obj["avg"], btt_avg(vals)))
    for name, ppm in PCTS.items():
        true = nearest_rank(vals, ppm)
        got = obj[name]
        check(abs(got - true) <= true * err + 1,
              "%s: %s = %d, brute force %d (rel. error %.4f > %.4f)" % (where, name, got, true,
                                                                         abs(got - true) / true, err))
    hist = [0] * 64
    edge_near = [0] * 65       # values that may land on either side of edge i (between bucket i-1 and i)
    for v in vals:
        b = log2_bucket(v)
        hist[b] += 1
        for i in (b, b + 1, b + 2):     # only the nearby edges can be that close
            e = 1000 << i
            if 1 <= i < 64 and abs(v - e) <= e * err + 1:
                edge_near[i] += 1
    got = obj["log2_us"] + [0] * (64 - len(obj["log2_us"]))
    check(sum(got) == len(vals), "%s: log2_us sums to %d, not %d" % (where, sum(got), len(vals)))
    for i in range(64):
        slack = edge_near[i] + edge_near[i + 1] if i + 1 < 65 else edge_near[i]
        check(abs(got[i] - hist[i]) <= slack,
              "%s: log2_us[%d] = %d, brute force %d (edge slack %d)" % (where, i, got[i], hist[i], slack))


def check_slice(where, samples, obj, err):
    comp = [s for s in samples if s["t_c"] is not None]
    check(obj["ios"] == len(samples), "%s: ios %d != %d" % (where, obj["ios"], len(samples)))
    check(obj["completed"] == len(comp), "%s: completed %d != %d" % (where, obj["completed"], len(comp)))
    check(obj["bytes"] == sum(s["bytes"] for s in comp), "%s: bytes" % where)
    check(obj["errors"] == sum(1 for s in comp if s["error"]), "%s: errors" % where)
    check(obj["merged"] == sum(1 for s in samples if s["t_m"] is not None), "%s: merged" % where)
    check(obj["requeued"] == sum(1 for s in samples if s["requeues"] > 0), "%s: requeued" % where)
    for st in STAGES:
        vals = [v for v in (stage_val(s, st) for s in samples) if v is not None]
        check_stage("%s %s" % (where, st), vals, obj["stages"][st], err)


def group_of(s, mode, explicit):
    if s["pid"] in explicit:
        return explicit[s["pid"]]
    if mode == "comm":
        return s["comm"] or "(unknown)"
    if mode == "pid":
        return "%s (%d)" % (s["comm"] or "?", s["pid"])
    if explicit:
        return "other"
    if s["tag"] >= 0:
        return None     # tag groups: named by the plugin's labels; not checked here
    return None


def check_timeseries(samples, doc, err, groups):
    ts = doc["timeseries"]
    w = ts["interval_ns"]
    nb = ts["buckets"]
    series = {(x["kind"], x["name"]): x for x in ts["series"]}
    check(len(ts["start_ns"]) == nb and all(ts["start_ns"][b] == b * w for b in range(nb)), "start_ns")

    def expect(sel):
        ios = [0] * nb
        byt = [0] * nb
        infl = [0] * nb
        q2c = [[] for _ in range(nb)]
        for s in sel:
            if s["t_c"] is None:
                continue
            b = s["t_c"] // w
            if b >= nb:
                fail("sample completes at %d, past the last bucket" % s["t_c"])
                continue
            ios[b] += 1
            byt[b] += s["bytes"]
            q2c[b].append(stage_val(s, "Q2C"))
            if s["t_d"] is not None:
                for k in range(s["t_d"] // w, b + 1):
                    lo, hi = max(k * w, s["t_d"]), min((k + 1) * w, s["t_c"])
                    if hi > lo:
                        infl[k] += hi - lo
        return ios, byt, infl, q2c

    todo = [(("all", "all"), samples), (("op", "read"), [s for s in samples if s["op"] == "read"]),
            (("op", "write"), [s for s in samples if s["op"] == "write"])]
    for g, sel in groups.items():
        todo.append((("group", g), sel))
    for key, sel in todo:
        if key not in series:
            fail("time series %s missing" % (key,))
            continue
        x = series[key]
        ios, byt, infl, q2c = expect(sel)
        check(x["ios"] == ios, "series %s: ios per bucket differ" % (key,))
        check(x["bytes"] == byt, "series %s: bytes per bucket differ" % (key,))
        check(x["inflight_ns"] == infl, "series %s: in-flight ns per bucket differ" % (key,))
        for b in range(nb):
            vals = sorted(v for v in q2c[b] if v is not None)
            got = x["q2c"]["p99"][b]
            if not vals:
                check(got is None, "series %s bucket %d: p99 should be null" % (key, b))
            else:
                true = nearest_rank(vals, 990000)
                check(got is not None and abs(got - true) <= true * err + 1,
                      "series %s bucket %d: q2c p99 %s vs %d" % (key, b, got, true))


def gen(n, seed, out):
    rnd = random.Random(seed)
    comms = ["fio", "postgres", "dd", "kworker/u8:2"]
    t = 1000
    with open(out, "w") as f:
        for i in range(n):
            pid = rnd.randrange(4)
            dev = "8,0" if rnd.random() < 0.7 else "259,3"
            op = rnd.choice(["read", "read", "write", "discard"])
            t += rnd.randrange(1, 50000)
            tq = t
            # heavy tail: log-uniform latencies from 100 ns to 1 s, and tiny exact ones
            def lat():
                if rnd.random() < 0.05:
                    return rnd.randrange(0, 200)
                return int(10 ** rnd.uniform(2, 9))
            if dev == "8,0":
                tg = tq + lat() // 1000
                ti = tg + lat() // 1000
                tm = "-" if rnd.random() < 0.8 else str(ti)
            else:
                tg = ti = None
                tm = "-"
            td = (ti if ti is not None else tq) + lat() // 100
            tc = td + lat()
            if rnd.random() < 0.02:
                tc = None
            if rnd.random() < 0.01:
                td, tc = None, None
            err = 0xfffb if rnd.random() < 0.01 else 0
            rq = 1 if rnd.random() < 0.01 else 0
            f.write("%s %d %d %d %s %s %d %s %s %s %s %s %d %d -1\n" % (
                dev, rnd.randrange(1 << 30), 512 << rnd.randrange(8), 100 + pid, comms[pid], op, tq,
                "-" if tg is None else tg, "-" if ti is None else ti, tm,
                "-" if td is None else td, "-" if tc is None else tc, err, rq))


def main():
    args = sys.argv[1:]
    if args and args[0] == "--gen":
        gen(int(args[1]), int(args[2]), args[3])
        return
    if len(args) < 2:
        raise SystemExit(__doc__)
    samples = read_samples(args[0])
    with open(args[1]) as f:
        doc = json.load(f)
    mode, explicit = None, {}
    i = 2
    while i < len(args):
        if args[i] == "--group-by":
            mode = args[i + 1]
        elif args[i] == "--group":
            name, pids = args[i + 1].split("=")
            for p in pids.split(","):
                explicit.setdefault(int(p), name)
        i += 2
    err = doc["percentiles"]["max_relative_error"]
    check(err <= 0.01, "stated relative error %s > 1%%" % err)

    check_slice("all", samples, doc["all"], err)
    devs = {}
    for s in samples:
        devs.setdefault(s["dev"], []).append(s)
    check(sorted(d["device"] for d in doc["devices"]) == sorted(devs), "device list")
    for d in doc["devices"]:
        check_slice("device " + d["device"], devs.get(d["device"], []), d, err)
    ops = {}
    for s in samples:
        ops.setdefault(s["op"], []).append(s)
    check(sorted(o["op"] for o in doc["operations"]) == sorted(ops), "operation list")
    for o in doc["operations"]:
        check_slice("op " + o["op"], ops.get(o["op"], []), o, err)
    procs = {}
    for s in samples:
        procs.setdefault(s["pid"], []).append(s)
    check(sorted(p["pid"] for p in doc["processes"]) == sorted(procs), "process list")
    for p in doc["processes"]:
        check_slice("process %d" % p["pid"], procs.get(p["pid"], []), p, err)
    groups = {}
    for s in samples:
        g = group_of(s, mode, explicit)
        if g is not None:
            groups.setdefault(g, []).append(s)
    got_groups = {g["name"]: g for g in doc["groups"] if g["ios"]}
    check(sorted(got_groups) == sorted(groups), "group list %s vs %s" % (sorted(got_groups), sorted(groups)))
    for name, sel in groups.items():
        if name in got_groups:
            check_slice("group " + name, sel, got_groups[name], err)
    check_timeseries(samples, doc, err, groups)
    print("brute force: %d samples, %d checks, %d mismatches" % (len(samples), checks, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
