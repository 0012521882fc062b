#!/usr/bin/env python3
"""vs_btt.py - compare `blkscope analyze --json` with btt itself.

Usage: vs_btt.py OURS.json BTT_REPORT PER_IO_DUMP

BTT_REPORT is btt's default report; its "All Devices" table gives, per
stage, MIN AVG MAX N in seconds with 9 decimals, i.e. exact ns: our n, min
and max must equal them, and our avg too (btt's rounding).
The average must equal btt's exactly: both round the same double.
PER_IO_DUMP is btt -p output: for every completed Q its Q/G/I/D/C times
in ns.  From it we brute-force Q2C and D2C percentiles (nearest rank), per
device and over all devices, and check ours within the stated error.
(I2D is skipped when the trace has requeues: btt counts one per issue.)
"""
import json
import re
import sys

PCTS = {"p50": 500000, "p90": 900000, "p99": 990000, "p99.9": 999000, "p99.99": 999900}
bad = 0
checked = 0


def check(cond, msg):
    global bad, checked
    checked += 1
    if not cond:
        bad += 1
        print("MISMATCH: " + msg)


def ns(text):
    sec, frac = text.split(".")
    return int(sec) * 1000000000 + int(frac.ljust(9, "0")[:9])


def btt_table(path):
    rows, on = {}, False
    for line in open(path):
        if line.startswith("==================== All Devices"):
            on = True
            continue
        if on and line.startswith("===================="):
            break
        m = re.match(r"^(\w+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+)\s*$", line)
        if on and m:
            rows[m.group(1)] = (ns(m.group(2)), ns(m.group(3)), ns(m.group(4)), int(m.group(5)))
    return rows


def per_io(path):
    """{device: [dict stage->time]} from btt -p."""
    out, cur, dev = {}, None, None
    for line in open(path):
        m = re.match(r"^\s*(\d+),(\d+)\s*:\s+(\d+\.\d+) (\w)\s", line)
        if m:
            dev = "%s,%s" % (m.group(1), m.group(2))
            cur = {m.group(4): ns(m.group(3))}
            out.setdefault(dev, []).append(cur)
            continue
        m = re.match(r"^\s+(\d+\.\d+) (\w)\s", line)
        if m and cur is not None:
            cur[m.group(2)] = ns(m.group(1))
    return out


def tdelta(a, b):
    return b - a if b > a else 1


def rank(vals, ppm):
    return vals[max((ppm * len(vals) + 999999) // 1000000, 1) - 1]


def compare_pcts(where, vals, st, err):
    vals = sorted(vals)
    check(st.get("n") == len(vals), "%s: n %s vs btt -p %d" % (where, st.get("n"), len(vals)))
    if not vals or not st.get("observed"):
        return
    check(st["min"] == vals[0] and st["max"] == vals[-1], "%s: min/max %d/%d vs %d/%d"
          % (where, st["min"], st["max"], vals[0], vals[-1]))
    for name, ppm in PCTS.items():
        true = rank(vals, ppm)
        check(abs(st[name] - true) <= true * err + 1, "%s %s: %d vs brute force %d" % (where, name, st[name], true))


def main():
    ours = json.load(open(sys.argv[1]))
    table = btt_table(sys.argv[2])
    ios = per_io(sys.argv[3])
    err = ours["percentiles"]["max_relative_error"]
    st = ours["all"]["stages"]
    check(table, "no All Devices table in btt's report")
    # btt counts an I2D per issue (D) of a requeued request; we count one
    # per bio, from its I to its last D: compare I2D only without requeues
    requeues = sum(sum(d["counters"]["requeues"].values()) for d in ours["devices"] if d["counters"])
    for stage in ("Q2G", "G2I", "I2D", "D2C", "Q2C"):
        if stage == "I2D" and requeues:
            continue
        if stage not in table:
            check(not st[stage]["observed"], "%s: btt has no row, we say observed" % stage)
            continue
        mn, avg, mx, n = table[stage]
        s = st[stage]
        check(s["observed"] and s["n"] == n, "%s: n %s vs btt %d" % (stage, s.get("n"), n))
        if s["observed"]:
            check(s["min"] == mn and s["max"] == mx, "%s: min/max %d/%d vs btt %d/%d"
                  % (stage, s["min"], s["max"], mn, mx))
            check(s["avg"] == avg, "%s: avg %d vs btt %d" % (stage, s["avg"], avg))
    alld, allq = [], []
    for dev in ours["devices"]:
        blocks = ios.get(dev["device"], [])
        d2c = [tdelta(b["D"], b["C"]) for b in blocks if "D" in b and "C" in b]
        q2c = [tdelta(b["Q"], b["C"]) for b in blocks if "C" in b]
        alld += d2c
        allq += q2c
        compare_pcts("%s D2C" % dev["device"], d2c, dev["stages"]["D2C"], err)
        compare_pcts("%s Q2C" % dev["device"], q2c, dev["stages"]["Q2C"], err)
    compare_pcts("all D2C", alld, st["D2C"], err)
    compare_pcts("all Q2C", allq, st["Q2C"], err)
    print("vs btt: %d devices, %d completed I/Os, %d checks, %d mismatches"
          % (len(ours["devices"]), len(allq), checked, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
