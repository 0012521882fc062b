#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Rankings show who matters (docs/analyze.md, "Rankings"): a trace where
# 150 one-I/O dd processes come first and fio (2000 I/Os), tar, a slow
# kworker and jbd2 after them (tests/lib/drown-gen.py, which also prints
# the truth: each process's I/Os and bytes).  With --group-by pid:
#  - the text tables list fio, tar, kworker, jbd2 and one "dd (150 pids)"
#    row, in the order of the truth sorted by --sort's measure (I/Os,
#    bytes, summed Q2C time), nothing of them in "... more";
#  - the HTML group charts draw fio, tar, kworker, jbd2 among "the 8 of 154
#    groups with the most I/Os";
#  - JSON: the groups array in the same order, fio's own time series;
#  - export --table intervals: group and process rows for the four, each
#    summing to the truth, every breakdown summing to "all";
#  - the HTML's slowest group (--group-by comm) is kworker: 20 I/Os (0.8%
#    of them) but most of the summed Q2C time;
#  - --sort with a bad value: exit 2.
# exclusive: yes
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
. "$TOP/tests/lib/skip.sh"
need_tools python3
work=$(mktemp -d /tmp/t-analyze-rankings.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
A="$BIN/blkscope-analyze"

python3 "$TOP/tests/lib/drown-gen.py" 150 2>truth.json | "$BIN/bs-gen-trace" -w script -o d >/dev/null
for sort in ios bytes time; do
	"$A" --sort "$sort" --group-by pid d >"text-$sort.txt"
	python3 - "$sort" "text-$sort.txt" truth.json <<'PY'
import json, re, sys
sort, text, truth = sys.argv[1], open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
lat = {"fio": 100_000, "tar": 200_000, "kworker/u8:2": 26_000_000, "jbd2/loop0-8": 300_000, "dd": 50_000}
rows = {}
for name, t in truth.items():
    comm = name.rsplit(" (", 1)[0]
    key = "dd" if comm == "dd" else name
    r = rows.setdefault(key, {"ios": 0, "bytes": 0, "time": 0})
    r["ios"] += t["ios"]
    r["bytes"] += t["bytes"]
    r["time"] += t["ios"] * (lat[comm] + 1000)    # Q to C: Q, G +500, I +800, D +1000, C +latency
want = sorted(rows, key=lambda k: -rows[k][sort])
for table, fold in (("Process", "pids"), ("Group", "groups")):
    m = re.search(r"Breakdown by %s \([^\n]*?most (I/Os|bytes|summed Q2C time) first\) =+\n\n[^\n]*\n(.*?)\n\n" % table,
                  text, re.S)
    assert m, "no %s table ranked by a named measure" % table
    assert m.group(1) == {"ios": "I/Os", "bytes": "bytes", "time": "summed Q2C time"}[sort], m.group(1)
    got = []
    for line in m.group(2).split("\n"):
        if line.startswith("...") or line.startswith("("):
            assert not line.startswith("..."), "rows left out: " + line
            continue
        label = line[:22].strip()
        ios = int(line[22:].split()[0])
        if label.startswith("dd ("):
            assert label == "dd (150 %s)" % fold and ios == 150, line
            got.append("dd")
        else:
            name = [k for k in rows if k.split(" (")[0].split("/")[0] == label.split(" (")[0]]
            assert len(name) == 1 and rows[name[0]]["ios"] == ios, (line, name)
            got.append(name[0])
    assert got == want, "%s table by %s: %s, want %s" % (table, sort, got, want)
print("ok: %s: process and group tables by %s: %s" % (sys.argv[2], sort, ", ".join(want)))
PY
done

# HTML charts, JSON, export
"$A" --btt-only --group-by pid --html d.html --json d.json d >/dev/null
for g in "fio (900)" "tar (901)" "kworker (902)" "jbd2 (903)"; do
	grep -q ">$g</text>" d.html || fail "the group charts do not draw $g"
done
grep -q "the 8 of 154 groups with the most I/Os shown" d.html || fail "the charts' note"
"$BIN/blkscope-export" --table intervals --group-by pid --format csv -o iv.csv d
python3 - d.json iv.csv truth.json <<'PY'
import csv, json, sys
rep, truth = json.load(open(sys.argv[1])), json.load(open(sys.argv[3]))
groups = [g["name"] for g in rep["groups"]]
ios = [g["ios"] for g in rep["groups"]]
assert ios == sorted(ios, reverse=True), "JSON groups not ranked by I/Os"
assert groups[:2] == ["fio (900)", "tar (901)"], groups[:4]
series = {s["name"] for s in rep["timeseries"]["series"]}
for g in ("fio (900)", "tar (901)", "kworker (902)", "jbd2 (903)"):
    assert g in series, "no time series of its own for " + g
rows = list(csv.DictReader(open(sys.argv[2])))
sums = {}
for r in rows:
    k = (r["breakdown"], r["key"])
    sums[k] = sums.get(k, 0) + int(r["ios"])
for name, pid in (("fio", 900), ("tar", 901), ("kworker", 902), ("jbd2", 903)):
    t = [v for k, v in truth.items() if k.endswith("(%d)" % pid)][0]["ios"]
    assert sums.get(("process", str(pid))) == t, ("process", pid, sums.get(("process", str(pid))), t)
    g = [k for k in sums if k[0] == "group" and k[1].endswith("(%d)" % pid)]
    assert len(g) == 1 and sums[g[0]] == t, ("group", pid, g)
total = sums[("all", "all")]
for b in ("group", "process", "device", "op"):
    s = sum(v for k, v in sums.items() if k[0] == b)
    assert s == total, (b, s, total)
print("ok: JSON ranked, the four have their own series; export rows exact, breakdowns sum to all (%d)" % total)
PY

"$A" --btt-only --group-by comm --html c.html d >/dev/null
grep -q '<p id=slowest><b>Slowest group</b> (Q2C p99, of those with at least 1% of the summed Q2C time): kworker,' c.html ||
	{ grep -o '<p id=slowest>.*</p>' c.html; fail "the slowest group is not kworker"; }
rc=0; "$A" --sort size d >/dev/null 2>err || rc=$?
[ "$rc" = 2 ] && grep -q -- "--sort wants ios, bytes or time, got 'size'" err || fail "--sort size: exit $rc"
echo OK
