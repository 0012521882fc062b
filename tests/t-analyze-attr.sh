#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The analyzer's side of record --files --stacks, on crafted side files
# (tests/attr/gen-side.py: fixed rules, and the expected attribution of
# every Q) beside a generated two-device trace, split into two per-CPU
# file sets whose names files define the same files and stacks under
# other ids:
#  - export's ios table: every Q's file, class and stack as the rules say
#    (a Q with no record: class unknown, no file; a file with no path: no
#    file), the stacks table the three stacks, deduplicated;
#  - analyze --group-by file: a group per file (its path; "(deleted)";
#    "(file dev 7,3 inode N, path unknown)") and per class, with the I/Os
#    the rules give it; --group-by dir:2 the directories;
#  - --folded: the rules' (process, stack) counts exactly, root first, the
#    stacks without frames said so ([not attributed], [stack not
#    stored...]); --folded-weight q2c: the Q2C of export's rows summed;
#  - JSON valid against docs/analyze-schema.json (paths with non-ASCII
#    bytes), the same with .zst side files;
#  - btt's sections the same with and without side files; without them
#    no attribution anywhere;
#  - compare: the files matched by path across the two sides.
set -euo pipefail
: "${BIN:?}" "${TOP:?}"
export TOP
. "$TOP/tests/lib/skip.sh"
need_tools python3 zstd
work=$(mktemp -d /tmp/t-analyze-attr.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
PATH=$BIN:$PATH

bs-gen-trace -n 12000 -d 2 -s 7 -o t >/dev/null
python3 - <<'EOF'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "lib"))
import blktrace
for name in sorted(os.listdir(".")):
    if not name.startswith("t.blktrace."):
        continue
    cpu = name.rsplit(".", 1)[1]
    out = {0x800000: [], 0x800010: []}
    for _, r, pdu in blktrace.records(open(name, "rb").read()):
        for dev, recs in out.items():
            if blktrace.is_note(r.action) or r.device == dev:
                recs.append(blktrace.pack(r, pdu))
    for dev, base in ((0x800000, "a"), (0x800010, "b")):
        open("%s.blktrace.%s" % (base, cpu), "wb").write(b"".join(out[dev]))
EOF
rm t.blktrace.*
mkdir plain
cp a.blktrace.* b.blktrace.* plain/
python3 "$TOP/tests/attr/gen-side.py" . a $((8 << 20)) 0 a.expect.json
python3 "$TOP/tests/attr/gen-side.py" . b $((8 << 20 | 16)) 100 b.expect.json

blkscope export --format csv -o ios.csv a b
blkscope export --table stacks --format csv -o stacks.csv a b
blkscope analyze --group-by file --json file.json --csv csv --folded ios.folded a b >report.txt
blkscope analyze --group-by dir:2 --json dir.json --folded q2c.folded --folded-weight q2c a b >/dev/null
grep -q "Files (record --files" report.txt || { echo "FAIL: no Files section"; exit 1; }
grep -q "Code paths (record --stacks)" report.txt || { echo "FAIL: no Code paths section"; exit 1; }

python3 - <<'EOF'
import collections, csv, json
fail = []
exp = json.load(open("a.expect.json")) + json.load(open("b.expect.json"))
stacks = {int(r["stack_id"]): r for r in csv.DictReader(open("stacks.csv"))}
want_frames = {1: "main;wal_append;pwrite64;ext4_writepages;ext4_io_submit;submit_bio_noacct_nocheck",
               2: "pread64;ext4_mpage_readpages;submit_bio_noacct_nocheck",
               3: "kthread;wb_workfn;submit_bio_noacct_nocheck"}
if sorted(r["frames"] for r in stacks.values()) != sorted(want_frames.values()):
    fail.append("stacks table: %s" % sorted(r["frames"] for r in stacks.values()))
frames_of = {k: stacks[k]["frames"] for k in stacks}
by_frames = {v: k for k, v in want_frames.items()}

def key_exp(e):
    return (e["device"], e["sector"], e["bytes"], e["file"], e["cls"], want_frames.get(e["stack"]))

def key_got(r):
    dev = int(r["major"]) << 20 | int(r["minor"])
    sid = int(r["stack_id"]) if r["stack_id"] else None
    return (dev, int(r["sector"]), int(r["bytes"]), r["file"] or None, r["file_class"],
            frames_of[sid] if sid else None)

ce = collections.Counter(key_exp(e) for e in exp)
cg = collections.Counter(key_got(r) for r in csv.DictReader(open("ios.csv")))
if ce != cg:
    d1, d2 = ce - cg, cg - ce
    fail.append("export ios: %d rows differ from the rules; expected, not found: %s; found: %s" %
                (sum(d1.values()), list(d1)[:3], list(d2)[:3]))
# --group-by file: I/Os per label
groups = {g["name"]: g["ios"] for g in json.load(open("file.json"))["groups"]}
want = collections.Counter(e["label"] for e in exp)
if groups != dict(want):
    fail.append("--group-by file: %s, the rules: %s" % (groups, dict(want)))
files = {f["name"]: f for f in json.load(open("file.json"))["files"]}
if sum(o["ios"] for f in files.values() for o in f["operations"]) != len(exp):
    fail.append("files: I/Os do not add up to the Qs")
if files.get("/db/tmp/sort.tmp (deleted)", {}).get("deleted") is not True:
    fail.append("files: sort.tmp not flagged deleted")
# --group-by dir:2
dirs = collections.Counter()
for e in exp:
    lab = e["label"]
    if e["file"]:
        dirs["/".join(e["file"].split("/")[:3])] += 1
    else:
        dirs[lab] += 1
got = {g["name"]: g["ios"] for g in json.load(open("dir.json"))["groups"]}
if got != dict(dirs):
    fail.append("--group-by dir:2: %s, the rules: %s" % (got, dict(dirs)))
# --folded: exactly the rules' counts
fold = collections.Counter()
for line in open("ios.folded"):
    s, n = line.rstrip("\n").rsplit(" ", 1)
    fold[s] += int(n)
if fold != collections.Counter(e["folded"] for e in exp):
    fail.append("--folded: %s" % (fold - collections.Counter(e["folded"] for e in exp)))
# --folded-weight q2c: the Q2C of the rows summed per stack
q2c = collections.Counter()
for r in csv.DictReader(open("ios.csv")):
    if r["q2c"] and r["stack_id"] and r["lost_events"] == "false":
        q2c[by_frames[frames_of[int(r["stack_id"])]]] += int(r["q2c"])
got = collections.Counter()
for line in open("q2c.folded"):
    s, n = line.rstrip("\n").rsplit(" ", 1)
    for k, f in want_frames.items():
        if s.endswith(";" + f) or s.endswith(f):
            if f in s:
                got[k] += int(n)
if got != q2c:
    fail.append("--folded-weight q2c: %s, export's rows: %s" % (dict(got), dict(q2c)))
for f in fail:
    print("FAIL:", f)
raise SystemExit(1 if fail else 0)
EOF
echo "ok: export, --group-by file and dir, --folded against the rules"
for f in file.json dir.json; do
	python3 "$TOP/tests/extras/jsonschema_lite.py" "$TOP/docs/analyze-schema.json" "$f" >/dev/null ||
		{ echo "FAIL: $f does not validate against docs/analyze-schema.json"; exit 1; }
done

# CSV: files.csv per file and operation, valid CSV with the non-ASCII path
python3 -c '
import csv
rows = list(csv.DictReader(open("csv/files.csv")))
assert any(r["path"] == "/var/log/app \u00e9\u00e8.log" for r in rows), rows[:3]
assert all(r["op"] for r in rows)'

# compressed side files read the same
mkdir z
cp a.blktrace.* b.blktrace.* z/
for f in a.blkscope-* b.blkscope-*; do zstd -q "$f" -o "z/$f.zst"; done
for f in z/*.blktrace.*; do zstd -q --rm "$f" -o "$f.zst"; done
(cd z && blkscope export --format csv -o ../ios-z.csv a b)
cmp ios.csv ios-z.csv || { echo "FAIL: .zst side files read differently"; exit 1; }
echo "ok: .zst side files"

# btt's sections do not move; without side files, no attribution
blkscope analyze --btt-only a b >btt.with
(cd plain && blkscope analyze --btt-only a b >../btt.plain && blkscope analyze --json p.json a b >p.txt &&
	blkscope export --format csv -o p.csv a b)
cmp btt.with btt.plain || { echo "FAIL: btt's sections differ with side files"; exit 1; }
! grep -q "record --files\|record --stacks" plain/p.txt || { echo "FAIL: attribution without side files"; exit 1; }
python3 -c '
import csv, json
d = json.load(open("plain/p.json"))
assert not {"attribution", "files", "stacks"} & set(d), d.keys()
assert all(r["file"] == "" and r["file_class"] == "" and r["stack_id"] == "" for r in csv.DictReader(open("plain/p.csv")))'
if (cd plain && blkscope analyze --folded x.folded a b 2>err.txt); then
	echo "FAIL: --folded without stacks succeeded"; exit 1
fi
grep -q "no stacks" plain/err.txt || { echo "FAIL: --folded without stacks: $(cat plain/err.txt)"; exit 1; }
echo "ok: without side files nothing changes"

# compare: files matched by path (b's names file uses other ids for the same files)
blkscope compare --json cmp.json a b >/dev/null
python3 -c '
import json
rows = [r for r in json.load(open("cmp.json"))["rows"] if r["kind"] == "file"]
names = {r["name"] for r in rows}
assert "/db/wal/000001.log" in names and "(journal)" in names, names
both = [r for r in rows if r["name"] == "/db/data/t1.ibd"][0]
assert both["before"]["ios"] and both["after"]["ios"], both.keys()'
echo "PASS"
