#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# --group-by cgroup on a crafted trace (bs-gen-trace -w script): records
# with cgroup ids 11 and 22 (named by cgroup notes, one path with a blank),
# 33 (no note: "cgroup:33") and records without one ("(no cgroup)"), on two
# CPUs, with I/Os of every kind in flight when the first id appears (the
# analyzer's sample engine forks there) and a PROCESS-named pid from before.
#
#  - analyze --json and --csv: per-cgroup I/Os, completed and bytes, and
#    the totals, count the flagged records as usual;
#  - btt's sections ignore them: analyze --btt-only prints exactly what it
#    prints for the same trace without the flagged records (and btt's own
#    report, when btt is installed); the text report says so in one line;
#  - compare --group-by cgroup: the same per-cgroup rows on each side;
#  - export --group-by cgroup: rows per cgroup_id (null without one) and
#    the group column in csv, jsonl and (with DuckDB) parquet.
set -euo pipefail
source "$TOP/tests/lib/analyze.sh"
source "$TOP/tests/lib/skip.sh"
need_tools python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# The script and the expected figures (every I/O completes; ids in FLAGS as cID).
python3 - <<'PY'
import json, random
rnd = random.Random(7)
paths = {11: "/bs-cg/a", 22: "/bs-cg/b c"}
lines, plain = [], []
t = 1000

def rec(cpu, act, flags, sector, nbytes, pid, extra=""):
    global t
    t += rnd.randint(1, 50)
    line = f"{t} {cpu} 8,0 {act} {flags} {sector} {nbytes} {pid}{extra}"
    lines.append(line)
    if "c" not in flags:
        plain.append(line)

expect = {}
def io(cg, sector, nbytes, pid, cpu, rw):
    """Q G I D now; the C is returned (completed later, interleaved)."""
    fl = rw + (f"c{cg}" if cg else "")
    for a in ("Q", "G", "I", "D"):
        rec(cpu, a, fl, sector, nbytes, pid)
    name = paths.get(cg, f"cgroup:{cg}") if cg else "(no cgroup)"
    e = expect.setdefault(name, {"id": cg, "ios": 0, "bytes": 0})
    e["ios"] += 1
    e["bytes"] += nbytes
    return (1 - cpu, "C", fl, sector, nbytes, 0)

rec(0, "N", "-", 0, 0, 500, " early")
# unflagged I/Os still in flight when the first cgroup id shows up
pending = [io(0, 10000 + 64 * i, 4096 * (1 + i % 3), 500, i % 2, "W") for i in range(6)]
for cg, p in paths.items():
    rec(0, "m", f"c{cg}", 0, 0, 0, f" cgroup {cg} {p}")
sector = 100000
for i in range(300):
    cg = rnd.choice([0, 11, 11, 22, 33])
    pid = {0: 500, 11: 601, 22: 602, 33: 603}[cg]
    pending.append(io(cg, sector, 512 * rnd.randint(1, 64), pid, rnd.randint(0, 1), rnd.choice("RW")))
    sector += 128
    while len(pending) > 8 or (pending and rnd.random() < 0.3):
        rec(*pending.pop(rnd.randrange(len(pending))))
for c in pending:
    rec(*c)
# the same genesis and end for the plain trace: unflagged first and last records
rec(0, "Q", "W", 900000, 4096, 500); rec(0, "G", "W", 900000, 4096, 500)
rec(0, "I", "W", 900000, 4096, 500); rec(0, "D", "W", 900000, 4096, 500)
rec(1, "C", "W", 900000, 4096, 0)
expect["(no cgroup)"]["ios"] += 1
expect["(no cgroup)"]["bytes"] += 4096
open("mixed.txt", "w").write("\n".join(lines) + "\n")
open("plain.txt", "w").write("\n".join(l for l in plain if " m " not in l) + "\n")
json.dump(expect, open("expect.json", "w"))
PY
bt_mktrace mixed <mixed.txt
bt_mktrace plain <plain.txt

# analyze: JSON and CSV per cgroup
"$BIN/blkscope-analyze" --group-by cgroup --json a.json --csv csv -i mixed >report.txt
python3 - <<'PY'
import csv, json
exp = json.load(open("expect.json"))
a = json.load(open("a.json"))
def eq(got, want, what):
    if got != want:
        raise SystemExit(f"FAIL: {what}: got {got}, want {want}")
groups = {g["name"]: g for g in a["groups"]}
eq(sorted(groups), sorted(exp), "json groups")
for name, e in exp.items():
    for k in ("ios", "completed", "bytes"):
        eq(groups[name][k], e["ios" if k == "completed" else k], f"json {name} {k}")
eq(a["all"]["ios"], sum(e["ios"] for e in exp.values()), "json all ios")
eq(a["all"]["bytes"], sum(e["bytes"] for e in exp.values()), "json all bytes")
rows = {r["name"]: r for r in csv.DictReader(open("csv/slices.csv")) if r["kind"] == "group"}
eq(sorted(rows), sorted(exp), "csv groups")
for name, e in exp.items():
    eq((int(rows[name]["ios"]), int(rows[name]["bytes"])), (e["ios"], e["bytes"]), f"csv {name}")
print("ok: analyze --json/--csv per cgroup")
PY

# btt's sections: as if the flagged records were not there
"$BIN/blkscope-analyze" --btt-only -i mixed >btt-mixed.txt
"$BIN/blkscope-analyze" --btt-only -i plain >btt-plain.txt
cmp btt-mixed.txt btt-plain.txt || { diff btt-mixed.txt btt-plain.txt | head; echo "FAIL: btt's sections count flagged records"; exit 1; }
n=$(grep -c ' [QGIDC] [RW]*c[0-9]' mixed.txt)
grep -q "^Note: btt's sections above ignore the $n records with a cgroup id" report.txt ||
	{ echo "FAIL: no note on the $n flagged records"; exit 1; }
if grep -q "cgroup id" btt-mixed.txt; then echo "FAIL: note in --btt-only"; exit 1; fi
if command -v btt >/dev/null && command -v blkparse >/dev/null; then
	bt_compare_all mixed
	echo "ok: btt's own report"
fi
echo "ok: btt's sections ignore the $n flagged records"

# The fork, exactly: the generated traces (bulk: merges, plugs, Qs never
# completed; scenario: every feature) with a cgroup id on every record from
# 0%, 30% and 70% of the way on give analyze's JSON of the trace as it was.
cat >flag.py <<'PY'
import glob, os, struct, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import blktrace
base, out, frac = sys.argv[1], sys.argv[2], float(sys.argv[3])
files = sorted(glob.glob(glob.escape(base) + ".blktrace.*"))
times = sorted(r.time for f in files for _, r, _ in blktrace.records(open(f, "rb").read())
               if not blktrace.is_note(r.action))
cut = times[int(len(times) * frac)]
for f in files:
    buf = bytearray()
    for _, r, pdu in blktrace.records(open(f, "rb").read()):
        if not blktrace.is_note(r.action) and not r.action & blktrace.TA_CGROUP and r.time >= cut:
            r, pdu = r._replace(action=r.action | blktrace.TA_CGROUP), struct.pack("=Q", 40 + r.pid % 3) + pdu
        buf += blktrace.pack(r, pdu)
    open(out + f[len(base):], "wb").write(buf)
PY
"$BIN/bs-gen-trace" -n 60000 -o bulk >/dev/null
"$BIN/bs-gen-trace" -o scn >/dev/null
for b in bulk scn; do
	"$BIN/blkscope-analyze" --btt-only --json "$b.json" "$b" >/dev/null
	for f in 0 0.3 0.7; do
		python3 flag.py "$b" "$b-$f" "$f"
		"$BIN/blkscope-analyze" --btt-only --json "$b-$f.json" "$b-$f" >/dev/null
		# btt's own view differs (it ignores flagged records): the rest must not
		python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d["health"].pop("btt_never_completed")
sys.exit(a != b)' "$b.json" "$b-$f.json" || { echo "FAIL: $b flagged from $f: the samples differ"; exit 1; }
	done
done
echo "ok: records with a cgroup id give the samples they give without"

# compare: the per-cgroup rows of each side
"$BIN/blkscope" compare --group-by cgroup --json c.json mixed mixed >/dev/null
python3 - <<'PY'
import json
exp = json.load(open("expect.json"))
c = json.load(open("c.json"))
rows = {r["name"]: r for r in c["rows"] if r["kind"] == "group"}
if sorted(rows) != sorted(exp):
    raise SystemExit(f"FAIL: compare groups {sorted(rows)}, want {sorted(exp)}")
for name, e in exp.items():
    for side in ("before", "after"):
        got = (rows[name][side]["ios"], rows[name][side]["bytes"])
        if got != (e["ios"], e["bytes"]):
            raise SystemExit(f"FAIL: compare {name} {side}: {got}, want {(e['ios'], e['bytes'])}")
print("ok: compare --group-by cgroup")
PY

# export: cgroup_id and group per row, csv and jsonl
"$BIN/blkscope-export" --group-by cgroup --format csv -o ios.csv mixed
"$BIN/blkscope-export" --group-by cgroup --format jsonl -o ios.jsonl mixed
python3 - <<'PY'
import csv, json
exp = json.load(open("expect.json"))
def check(rows, fmt):
    got = {}
    for r in rows:
        key = (r["cgroup_id"], r["group"])
        g = got.setdefault(key, [0, 0])
        g[0] += 1
        g[1] += int(r["bytes"])
    want = {(e["id"] or None, name): [e["ios"], e["bytes"]] for name, e in exp.items()}
    if got != want:
        raise SystemExit(f"FAIL: export {fmt}: {got}, want {want}")
rows = list(csv.DictReader(open("ios.csv")))
for r in rows:
    r["cgroup_id"] = int(r["cgroup_id"]) if r["cgroup_id"] else None
check(rows, "csv")
check([json.loads(l) for l in open("ios.jsonl")], "jsonl")
print("ok: export csv/jsonl cgroup_id")
PY
if (source "$TOP/tests/lib/duckdb.sh" && duckdb_need >/dev/null); then
	source "$TOP/tests/lib/duckdb.sh"
	duckdb_need
	"$BIN/blkscope-export" --group-by cgroup -o ios.parquet mixed
	duckdb_sql "SELECT cgroup_id, \"group\", count(*) AS n, sum(bytes) AS b FROM 'ios.parquet'
		GROUP BY ALL ORDER BY cgroup_id NULLS FIRST" >pq.jsonl
	python3 - <<'PY'
import json
exp = json.load(open("expect.json"))
rows = list(map(json.loads, open("pq.jsonl")))	# DuckDB's UBIGINTs come as strings
got = {(r["cgroup_id"] and int(r["cgroup_id"]), r["group"]): [int(r["n"]), int(r["b"])] for r in rows}
want = {(e["id"] or None, name): [e["ios"], e["bytes"]] for name, e in exp.items()}
if got != want:
    raise SystemExit(f"FAIL: export parquet: {got}, want {want}")
print("ok: export parquet cgroup_id")
PY
else
	echo "note: no DuckDB, parquet not read back"
fi
echo "PASS"
